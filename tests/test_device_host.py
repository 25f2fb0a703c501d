"""The device host (issue 18, :mod:`cuarenta.device`): the project's authority answering the page as the
server does, its rooms persisted whole and resumed, its records equal to the server's.

The computer's pause is 0 here (``bot_delay``): the tests play as fast as the machine goes.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime
import json
import logging
from pathlib import Path
from typing import Any

import pytest

from cuarenta.daily import DAILY_LEVEL, daily_rules, daily_seed, offline_seed, result, today
from cuarenta.device import DEVICE_ONLY_COMPUTER, DeviceHost, device_player
from cuarenta.players.dificil import DEVICE_BUDGET, Budget, DificilPlayer
from cuarenta.record import GameRecord
from cuarenta.replay import Replay
from cuarenta.server import answers
from cuarenta.server.authority.model import mesa_seed
from cuarenta.server.edge.rooms import NewRoom
from support.app import play_to_the_end, running
from support.device import device_page, finished, watching
from support.examples import quick_first

LEVELS = ("facil", "normal", "dificil", "experto")


def without_wall_clock(record: str) -> str:
    """A record without its one wall-clock field, the ``[Date "..."]`` header."""
    return "\n".join(line for line in record.splitlines() if not line.startswith("[Date "))


# -- persisted, resumed ----------------------------------------------------------------------------------
def test_a_game_stopped_mid_hand_resumes_from_the_persisted_texts() -> None:
    async def first() -> tuple[dict[str, str], dict[str, Any], dict[str, Any]]:
        persisted: dict[str, str] = {}
        host, page = device_page(persisted=persisted)
        made = page.new_room({"players": 2, "level": "normal"})
        page.join(made["room"], made["token"])
        await page.play_until(lambda p: p.moves >= 3 and bool(p.legal))  # mid-hand, the person to move
        again = type(page)(host, page._frames)
        again.join(made["room"], made["token"])
        await host.shutdown()
        assert again.snapshot is not None
        assert persisted[made["room"]] == host.store.text_of(made["room"])
        return dict(persisted), made, again.snapshot

    persisted, made, before = asyncio.run(first())

    async def second() -> dict[str, Any]:
        host, page = device_page(saved=persisted)
        assert host.skipped == {}
        page.join(made["room"], made["token"])
        info = page.http("GET", f"api/rooms/{made['room']}", token=made["token"])
        assert info == {
            "status": 200,
            "body": {"room": made["room"], "status": "playing", "mesa": 1, "practice": False, "table": False}
            | {"seat": 0},
        }
        await page.play_until(finished)  # and the game goes on to its end
        await host.shutdown()
        assert page.frames[0]["type"] == "snapshot"
        return page.frames[0]

    assert asyncio.run(second()) == before


def test_a_corrupt_saved_room_is_skipped_and_nothing_else_is_lost(caplog: pytest.LogCaptureFixture) -> None:
    async def make() -> tuple[dict[str, str], dict[str, Any]]:
        persisted: dict[str, str] = {}
        host, page = device_page(persisted=persisted)
        made = page.new_room({"level": "facil"})
        page.join(made["room"], made["token"])
        await page.play_until(lambda p: p.moves >= 2)
        await host.shutdown()
        return persisted, made

    persisted, made = asyncio.run(make())
    good = persisted[made["room"]]
    saved = {
        made["room"]: good,
        "broken": good[: len(good) // 2],
        "other": good.replace(made["room"], "someone"),
        "format": json.dumps({"format": 99}),
    }
    with caplog.at_level(logging.ERROR, logger="cuarenta.device"):
        host = DeviceHost(saved=saved)
    assert sorted(host.skipped) == ["broken", "format", "other"]
    assert "not JSON" in host.skipped["broken"]
    assert "holds room" in host.skipped["other"]
    assert "format 1" in host.skipped["format"]
    lines = [r.getMessage() for r in caplog.records]
    assert any(line.startswith("saved room broken skipped: it cannot be read (not JSON") for line in lines)
    info = json.loads(host.http("GET", f"api/rooms/{made['room']}", None, made["token"]))
    assert info["status"] == 200 and info["body"]["status"] == "playing"
    gone = json.loads(host.http("GET", "api/rooms/broken", None, made["token"]))
    assert gone == {"status": 404, "body": {"detail": "there is no room 'broken'", "code": "unknown_room"}}


def test_a_change_the_device_cannot_save_is_not_made() -> None:
    async def play() -> None:
        fail = {"now": False}
        frames: list[dict[str, Any]] = []

        def persist(room: str, text: str | None) -> None:
            if fail["now"]:
                raise OSError("QuotaExceededError")

        host = DeviceHost(send=lambda c, t: frames.append(json.loads(t)), persist=persist, bot_delay=0)
        fail["now"] = True
        refused = json.loads(host.http("POST", "api/rooms", "{}", None))
        assert refused["status"] == 503 and "QuotaExceededError" in refused["body"]["detail"]
        assert host.store.room_ids() == []
        fail["now"] = False
        made = json.loads(host.http("POST", "api/rooms", '{"level": "facil"}', None))["body"]
        conn = host.open()
        host.receive(conn, json.dumps({"v": 2, "type": "join", "room": made["room"], "token": made["token"]}))
        snapshot = frames[-1]
        while not snapshot["private"]["legal"]:  # the computer leads: wait for the person's turn
            await asyncio.sleep(0.01)
            host.receive(
                conn, json.dumps({"v": 2, "type": "join", "room": made["room"], "token": made["token"]})
            )
            snapshot = frames[-1]
        stored = host.store.text_of(made["room"])
        fail["now"] = True
        move = {"v": 2, "type": "move", "move": snapshot["private"]["legal"][0], "state": snapshot["version"]}
        host.receive(conn, json.dumps(move))
        assert frames[-1]["type"] == "error" and frames[-1]["code"] == "store_unavailable"
        assert host.store.text_of(made["room"]) == stored
        fail["now"] = False
        host.receive(conn, json.dumps(move))  # the same move, now saved
        assert frames[-1]["type"] == "event" and frames[-1]["base"] == snapshot["version"]
        await host.shutdown()

    asyncio.run(play())


# -- the same game as the server's ------------------------------------------------------------------------
def server_record(client: Any, body: dict[str, Any]) -> str:
    """Play ``body``'s practice room on the server, the person always choosing the first legal move."""
    made = client.post("/api/rooms", json=body).json()
    play_to_the_end(client, made)
    answer = client.get(
        f"/api/games/{made['room']}/record", headers={"Authorization": f"Bearer {made['token']}"}
    )
    assert answer.status_code == 200
    return str(answer.text)


def device_record(body: dict[str, Any]) -> str:
    async def play() -> str:
        host, page = device_page()
        made = page.new_room(body)
        page.join(made["room"], made["token"])
        await page.play_until(finished)
        record = page.http("GET", f"api/games/{made['room']}/record?mesa=1", token=made["token"])
        await host.shutdown()
        return str(record["text"])

    return asyncio.run(play())


BAD_BODIES: list[Any] = [
    {"players": 3},
    {"players": "2"},
    {"level": "maestro"},
    {"rules": {"preset": "nope"}},
    {"rules": {"players": 4}},
    {"seed": 5},
    {"seed": -1, "practice": True},
    {"name": "x" * 41},
    {"practice": "yes"},
    {"colour": "red"},
    {"players": 3, "level": 7},
    {"colour": "red", "players": 3},  # a field's problem first, then the extra key's (as pydantic)
    {"players": None},
    {"players": True},
    {"level": ""},
    {"rules": None},
    {"name": "  "},
    {"name": None},
    {"seed": 2**63, "practice": True},
    {"seed": 1.0, "practice": True},
    {"practice": None},
    {"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6},  # five problems at most
    {"players": "x", "level": 1, "rules": 1, "name": 1, "seed": "x", "practice": "x"},
    [],
]


def test_the_devices_new_room_fields_are_the_servers_model() -> None:
    """``POST /api/rooms`` has one model, the server's :class:`NewRoom`; the device reads the same fields
    (:data:`answers.NEW_ROOM_FIELDS`) into the same defaults (:class:`answers.NewRoomBody`)."""
    assert [f.name for f in answers.NEW_ROOM_FIELDS] == list(NewRoom.model_fields)
    assert dataclasses.asdict(answers.new_room_body({})) == NewRoom().model_dump()


def test_the_device_and_the_server_play_the_same_game_and_refuse_alike(tmp_path: Path) -> None:
    body = {"players": 2, "level": "normal", "practice": True, "seed": 20261202}
    four = {"players": 4, "level": "facil", "practice": True, "seed": 7, "rules": {"preset": "a_todo_rigor"}}
    with running(tmp_path / "data", workers=0) as client:
        on_server = [server_record(client, body), server_record(client, four)]
        refusals = [client.post("/api/rooms", json=b) for b in BAD_BODIES]
        server_answers = [(r.status_code, r.json()) for r in refusals]
        no_room = client.get("/api/rooms/nothere", headers={"Authorization": "Bearer abc"})
        no_token = client.get("/api/rooms/nothere")
        history = client.post("/api/history", json={"tokens": "abc"})
        by_address = client.get("/api/history")
    on_device = [device_record(body), device_record(four)]
    for server, device in zip(on_server, on_device, strict=True):
        assert without_wall_clock(device) == without_wall_clock(server)
        assert GameRecord.from_text(device).to_text() == device  # the library reads it back
    host = DeviceHost()
    device_answers = [json.loads(host.http("POST", "api/rooms", json.dumps(b), None)) for b in BAD_BODIES]
    assert [(a["status"], a["body"]) for a in device_answers] == server_answers
    assert json.loads(host.http("GET", "api/rooms/nothere", None, "abc")) == {
        "status": no_room.status_code,
        "body": no_room.json(),
    }
    assert json.loads(host.http("GET", "api/rooms/nothere", None, None)) == {
        "status": no_token.status_code,
        "body": no_token.json(),
    }
    answer = json.loads(host.http("POST", "api/history", '{"tokens": "abc"}', None))
    assert (answer["status"], answer["body"]) == (history.status_code, history.json())
    answer = json.loads(host.http("GET", "api/history", None, None))
    assert (answer["status"], answer["body"]) == (by_address.status_code, by_address.json())


BAD_MESSAGES = [
    b"\xff",
    "[1]",
    "not json",
    '{"type": "ping"}',
    '{"v": 3, "type": "ping"}',
    '{"v": true, "type": "ping"}',
    '{"v": 2}',
    '{"v": 2, "type": "dance"}',
    '{"v": 2, "type": "move"}',
    '{"v": 2, "type": "move", "move": "", "state": -1}',
    '{"v": 2, "type": "move", "move": 7, "state": "3"}',
    '{"v": 2, "type": "move", "move": "7h", "state": true}',
    '{"v": 2, "type": "join", "room": "r", "token": "t", "since": -2, "hints": "yes"}',
    '{"v": 1, "type": "join", "room": "r"}',
    '{"v": 2, "type": "join", "room": "' + "r" * 201 + '", "token": "t"}',
    '{"v": 2, "type": "pace", "pace": "slowly"}',
    '{"v": 2, "type": "pace"}',
    '{"v": 2, "type": "react", "saying": ""}',
    '{"v": 2, "type": "watch", "room": 5}',
    '{"v": 2, "type": "watch", "room": "r", "since": null}',
    "x" * 5000,
]


def test_a_bad_message_is_refused_by_the_device_as_by_the_servers_socket(tmp_path: Path) -> None:
    """The server's ``/ws`` and the device read a message with the same table and reader
    (:mod:`cuarenta.server.protocol`): each bad message gets the same error frame, code and sentence."""
    texts = [t for t in BAD_MESSAGES if isinstance(t, str)]  # the page sends text frames only
    on_server: list[dict[str, Any]] = []
    with running(tmp_path / "data", workers=0) as client, client.websocket_connect("/ws") as ws:
        for text in texts:
            ws.send_text(text)
            on_server.append(ws.receive_json())
    on_device: list[dict[str, Any]] = []
    host = DeviceHost(send=lambda conn, text: on_device.append(json.loads(text)))
    conn = host.open()
    for text in texts:
        host.receive(conn, text)
    # the same frames but for the version: the server answers a socket that has not joined in version 1
    # (a client that sent nothing readable may speak it: server/edge/version1.py), the device in version 2,
    # the only one the page and the authority speak
    assert [{**f, "v": 1} for f in on_device] == on_server
    assert {f["v"] for f in on_device} == {2}
    assert len(on_server) == len(texts)
    assert {f["type"] for f in on_server} == {"error"}
    # (the last but one is a valid watch of a room that is not there)
    assert {f["code"] for f in on_server} == {"bad_message", "bad_version", "unknown_room"}
    assert (
        "malformed 'move' message: move: Input should be a valid string; state: Input should be a "
        "valid integer" in [f["message"] for f in on_server]
    )


# -- 2 v 2, every level, custom rules ---------------------------------------------------------------------
@pytest.mark.parametrize("level", quick_first(LEVELS, keep=2))  # dificil: seconds a move
def test_two_against_two_with_a_computer_partner(level: str) -> None:
    rules = {"preset": "a_todo_rigor", "ronda_points": 4, "target": 30}

    async def play() -> None:
        with watching() as watcher:
            host, page = device_page()
            made = page.new_room({"players": 4, "level": level, "rules": rules, "name": "Ana"})
            page.join(made["room"], made["token"])
            assert page.snapshot is not None
            view = page.snapshot["view"]
            assert view["rules"]["preset"] == "custom" and view["rules"]["ronda_points"] == 4
            assert view["rules"]["target"] == 30
            assert [s["kind"] for s in page.snapshot["seats"]] == [
                "person",
                "computer",
                "computer",
                "computer",
            ]
            assert {s.get("level") for s in page.snapshot["seats"][1:]} == {level}
            await page.play_until(lambda p: p.moves >= 7 or p.status == "finished")  # into the second hand
            await host.shutdown()
        plays = {e["seat"] for f in page.frames for e in f.get("events", []) if e["kind"] == "play"}
        assert plays == {0, 1, 2, 3}  # the partner (seat 2) and both opponents played
        assert {f["type"] for f in page.frames} == {"snapshot", "event"}
        assert watcher.check() >= len(page.frames)

    asyncio.run(play())


def computer_plays(page: Any) -> set[int]:
    """The seats other than the page's own that have played a card so far."""
    return {e["seat"] for f in page.frames for e in f.get("events", []) if e["kind"] == "play"} - {0}


@pytest.mark.slow  # dificil plays on the device's budget
def test_dificil_thinks_on_the_device_budget() -> None:
    """On the device difícil searches less (a loaded phone answers within 3 s at the 95th percentile:
    docs/performance.md "The game on the device"), by work, not the clock: its computers in a 2 v 2 are
    DificilPlayer on DEVICE_BUDGET, the other levels the server's."""

    async def play() -> list[Any]:
        host, page = device_page()
        made = page.new_room({"players": 4, "level": "dificil"})
        page.join(made["room"], made["token"])
        await page.play_until(lambda p: bool(computer_plays(p)) or p.status == "finished")
        players = [entry[2] for entry in host.authority.thinking.cache._players.values()]
        await host.shutdown()
        return players

    players = asyncio.run(play())
    assert players and all(isinstance(p, DificilPlayer) and p.budget == DEVICE_BUDGET for p in players)
    assert DEVICE_BUDGET.depth4 < Budget().depth4 and DEVICE_BUDGET.nodes4 < Budget().nodes4
    assert device_player("normal").name == "normal" and device_player("facil").name == "facil"


# -- what needs a server ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("POST", "api/tables"),
        ("GET", "api/tables/abc"),
        ("POST", "api/tables/abc/join"),
        ("POST", "api/profiles"),
        ("GET", "api/leaderboard?mode=1v1&limit=50"),
        ("POST", "api/qr"),
        ("GET", "api/lobby"),
        ("POST", "api/championships"),
        ("GET", "api/championships/abc"),
    ],
)
def test_playing_with_friends_needs_a_server(method: str, path: str) -> None:
    answer = json.loads(DeviceHost().http(method, path, "{}", None))
    assert answer["status"] == 404
    assert answer["body"]["code"] == DEVICE_ONLY_COMPUTER
    assert "need a server" in answer["body"]["detail"]


def test_reactions_and_rematches_are_refused_and_the_rest_answered() -> None:
    async def play() -> None:
        host, page = device_page()
        made = page.new_room({"level": "facil"})
        page.join(made["room"], made["token"])
        for kind, extra in (("react", {"saying": "buena"}), ("rematch", {})):
            page.send({"v": 2, "type": kind, **extra})
            assert page.frames[-1]["type"] == "error" and page.frames[-1]["code"] == "not_a_table"
            assert "need a server" in page.frames[-1]["message"]
        page.send({"v": 2, "type": "ping"})
        assert page.frames[-1] == {"v": 2, "type": "pong"}
        page.send({"v": 2, "type": "next"})
        assert page.frames[-1]["code"] == "not_finished"
        page.send({"v": 2, "type": "move", "move": "7h", "state": 999})
        assert page.frames[-1]["type"] == "error"
        options = page.http("GET", "api/options")
        assert options["status"] == 200 and options["body"]["levels"] == list(LEVELS)
        texts = page.http("GET", "api/texts/es")
        assert texts["status"] == 200 and texts["body"]["lang"] == "es"
        assert page.http("GET", "api/texts/xx")["status"] == 404
        assert page.http("GET", "api/rooms")["status"] == 405
        assert page.http("GET", "api/nothing")["status"] == 404
        record = page.http("GET", f"api/games/{made['room']}/record", token=made["token"])
        assert record["status"] == 409 and "still in play" in record["body"]["detail"]
        assert (
            page.http("GET", f"api/games/{made['room']}/record?mesa=0", token=made["token"])["status"] == 400
        )
        stats = page.http("POST", "api/stats", {"tokens": [made["token"]]})
        assert stats["status"] == 200 and stats["body"]["all"]["played"] == 0
        history = page.http("POST", "api/history", {"tokens": [made["token"]]})
        assert [g["room"] for g in history["body"]["playing"]] == [made["room"]]
        await host.shutdown()

    asyncio.run(play())


# -- the offline deal of the day (docs/daily.md, docs/web.md "Playing on the device") ----------------------
SECRET = b"s" * 32


def test_the_offline_deal_of_the_day_is_played_from_its_seed_and_its_record_given_at_once() -> None:
    """``POST api/daily`` with today's offline seed: a room of the day's rules against difícil dealt from
    that seed, answered as the server's ``POST /api/daily``; two rooms of it deal the same cards; once its
    chica is over its record is given at once (the offline seed was handed out ahead), names the seed's
    mesa and replays."""
    seed = offline_seed(SECRET, today())

    async def play() -> tuple[list[dict[str, Any]], str, list[Any]]:
        host, page = device_page()
        made = [page.http("POST", "api/daily", {"seed": seed, "name": name}) for name in ("Ana", "")]
        assert [m["status"] for m in made] == [200, 200], made
        bodies = [m["body"] for m in made]
        rooms = [host.authority.get(b["room"]) for b in bodies]
        assert [r.seed for r in rooms] == [seed, seed]
        assert rooms[0].game.hand(0) == rooms[1].game.hand(0)  # the same cards for everyone
        page.join(bodies[0]["room"], bodies[0]["token"])
        before = page.http("GET", f"api/games/{bodies[0]['room']}/record", token=bodies[0]["token"])
        assert before["status"] == 409 and before["body"]["code"] == "mesa_in_play"
        await page.play_until(finished)
        record = page.http("GET", f"api/games/{bodies[0]['room']}/record", token=bodies[0]["token"])
        assert record["status"] == 200, record
        thinking: Any = host.authority.thinking
        players = [p for _, _, p in thinking.cache._players.values()]
        await host.shutdown()
        return bodies, record["text"], players

    bodies, text, players = asyncio.run(play())
    assert bodies[0] == {
        "room": bodies[0]["room"],
        "seat": 0,
        "token": bodies[0]["token"],
        "day": str(today()),
    }
    assert seed not in json.dumps(bodies)  # the answer does not repeat the seed
    record = GameRecord.from_text(text)
    assert record.seed == mesa_seed(seed, 1) and record.rules == daily_rules()
    assert record.seats[0] == "Ana" and record.seats[1] == f"bot:{DAILY_LEVEL}"
    assert Replay.from_text(text).finished
    scores = record.replay().chica_results[0].scores
    assert result(record.replay()) == scores[0] - scores[1] and max(scores) >= 40
    assert players and all(isinstance(p, DificilPlayer) and p.budget == DEVICE_BUDGET for p in players)


@pytest.mark.parametrize(
    ("body", "code", "words"),
    [
        ({"name": "Ana"}, "bad_input", "seed: Field required"),
        ({"seed": 7}, "bad_input", "seed: Input should be a valid string"),
        ({"seed": offline_seed(SECRET, today()), "extra": 1}, "bad_input", "extra:"),
        ({"seed": daily_seed(SECRET, today())}, "not_offline_daily", "not the seed of an offline deal"),
        ({"seed": "dia/2026-12-05"}, "not_offline_daily", "not the seed of an offline deal"),
        ({"seed": "12345"}, "not_offline_daily", "not the seed of an offline deal"),
        ({"seed": offline_seed(SECRET, today() + datetime.timedelta(days=1))}, "not_today", "not of today"),
        ({"seed": offline_seed(SECRET, today() - datetime.timedelta(days=1))}, "not_today", "not of today"),
        ([], "bad_input", "body:"),
    ],
)
def test_the_device_refuses_a_deal_of_the_day_that_is_not_todays_offline_one(
    body: Any, code: str, words: str
) -> None:
    host = DeviceHost()
    answer = json.loads(host.http("POST", "api/daily", json.dumps(body), None))
    assert answer["status"] == 400 and answer["body"]["code"] == code and words in answer["body"]["detail"]
    assert host.store.room_ids() == []  # no room made


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "api/daily"),
        ("GET", "api/daily?offline=true"),
        ("GET", "api/daily/offline"),
        ("POST", "api/daily/offline"),
    ],
)
def test_the_rankings_of_the_deal_of_the_day_need_a_server(method: str, path: str) -> None:
    answer = json.loads(DeviceHost().http(method, path, "{}", None))
    assert answer["status"] == 404 and answer["body"]["code"] == DEVICE_ONLY_COMPUTER
    assert "need a server" in answer["body"]["detail"]
