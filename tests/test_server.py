"""The web app's server over its real protocol (docs/protocol.md): FastAPI's TestClient, HTTP and WebSocket.

Every message the server queues for a socket is also recorded by a spy on
:meth:`Connection.send`, together with the cards hidden from that socket's seat
*at that moment* (the other hands and the stock, read from the server's own
game). Every test checks, on every message, that none of those cards and no
seed appears in it (the no-hidden-card rule), and that the recorded messages are
exactly the ones the test's socket received.
"""

from __future__ import annotations

import re
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import cuarenta
from cuarenta import Game, GameRecord, Rules
from cuarenta.players import PLAYER_NAMES
from cuarenta.players.hints import seat_hints
from cuarenta.rules import OPTION_NAMES, PRESET_NAMES
from cuarenta.server import create_app
from cuarenta.server.answers.replay import MAX_RECORD_CHARS
from cuarenta.server.authority.computer_names import NAMES
from cuarenta.server.authority.model import available_levels, mesa_seed
from cuarenta.server.edge.options import NAME_MAX_CHARS
from cuarenta.server.protocol import ERROR_CODES, ProtocolError, parse_client_message
from cuarenta.server.store import SCHEMA_REVISION, Store, StoreError
from support.app import Browser, bearer, new_room, running, seen_by_server, server_room
from support.spy import Spy, check_all

CARD = re.compile(r"[A2-7JQK][hsdc]")


# -- helpers -------------------------------------------------------------------------------------------------
def team_counts(game: Game, team: int) -> tuple[int, int]:
    """(caídas, limpias) of a team over a whole mesa, from the engine's events."""
    caidas = limpias = 0
    for e in game.events:
        if getattr(e, "team", None) != team:
            continue
        if e.kind in ("caida", "caida_limpia", "caida_ronda"):
            caidas += 1
        if e.kind in ("limpia", "caida_limpia") or (e.kind == "caida_ronda" and getattr(e, "limpia", False)):
            limpias += 1
    return caidas, limpias


# -- HTTP ---------------------------------------------------------------------------------------------------
def test_health_and_options(client: TestClient) -> None:
    health = client.get("/api/health").json()
    assert health == {"ok": True, "version": cuarenta.__version__, "protocol": 2, "protocols": [1, 2]}
    options = client.get("/api/options").json()
    assert options["levels"] == [lv for lv in ("facil", "normal", "dificil", "experto") if lv in PLAYER_NAMES]
    assert "oracle" not in options["levels"] and "aleatorio" not in options["levels"]
    assert options["default_level"] in options["levels"]
    assert [p["name"] for p in options["presets"]] == list(PRESET_NAMES)
    assert {p["name"]: p["players"] for p in options["presets"]}["campeonato"] == [4]
    names = [o["name"] for o in options["options"]]
    assert names == [n for n in OPTION_NAMES if n != "players"]
    default = Rules()
    for option in options["options"]:
        assert option["default"] == getattr(default, option["name"])
        assert option["default"] in option["choices"]
        assert re.fullmatch(r"R\d+", option["rule"])
        for choice in option["choices"]:  # every value the form offers is one the engine accepts
            Rules().replace(**{option["name"]: choice})
    for preset in options["presets"]:
        rules = Rules.preset(preset["name"], preset["players"][0])
        assert preset["options"] == {
            k: v for k, v in rules.to_dict().items() if k not in ("preset", "players")
        }
    assert options["languages"] == ["es", "en"]
    # the page's name field takes the server's limit; the quick game is a preset of 1 chica
    assert options["name_max_chars"] == NAME_MAX_CHARS
    assert options["record_max_chars"] == MAX_RECORD_CHARS  # History checks a record file against it
    assert client.post("/api/rooms", json={"name": "x" * NAME_MAX_CHARS}).status_code == 200
    assert client.post("/api/rooms", json={"name": "x" * (NAME_MAX_CHARS + 1)}).status_code == 400
    quick = {p["name"]: p for p in options["presets"]}[options["quick_preset"]]
    assert quick["options"]["chicas"] == 1


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({"players": 3}, "players"),
        ({"players": "2"}, "players"),
        ({"level": "oracle"}, "level"),
        ({"level": "aleatorio"}, "level"),
        ({"rules": {"preset": "nope"}}, "unknown preset 'nope'"),
        ({"rules": {"preset": "campeonato"}}, "played by 4 players"),
        ({"players": 4, "rules": {"preset": "basico"}}, "played by 2 players"),
        ({"rules": {"target": 41}}, "target"),
        ({"rules": {"sum_cards": "three"}}, "sum_cards"),
        ({"rules": {"colour": "red"}}, "unknown option"),
        ({"rules": {"players": 4}}, "agree"),
        ({"rules": "a_todo_rigor"}, "rules"),
        ({"name": "x" * 41}, "name"),
        ({"name": "a\nb"}, "control"),
        ({"seed": -1}, "seed"),
        ({"seed": "abc"}, "seed"),
        ({"seed": 2**63, "practice": True}, "seed"),
        ({"seed": 5}, "practice"),
        ({"seed": 5, "practice": False}, "practice"),
        ({"seed": 5, "practice": 1}, "practice"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_new_room_refuses_bad_requests_with_a_clear_400(
    client: TestClient, body: dict[str, Any], fragment: str
) -> None:
    response = client.post("/api/rooms", json=body)
    assert response.status_code == 400
    detail = response.json()["detail"]
    assert isinstance(detail, str) and fragment in detail, detail
    assert client.app.state.rooms._rooms == {}  # type: ignore[attr-defined]


def test_new_room_refuses_a_body_that_is_not_json(client: TestClient) -> None:
    response = client.post("/api/rooms", content=b"{nope", headers={"content-type": "application/json"})
    assert response.status_code == 400 and isinstance(response.json()["detail"], str)
    response = client.post("/api/rooms", json=[1, 2])
    assert response.status_code == 400 and isinstance(response.json()["detail"], str)


def test_new_room_with_a_custom_table_and_a_seed(client: TestClient, spy: Spy) -> None:
    rules = {"preset": "todo_dos", "target": 30, "ronda_limit": None, "carton_cap": 28}
    made = new_room(client, players=2, level="facil", rules=rules, name="Ana", seed=99)
    twin = new_room(client, players=2, level="facil", rules=rules, name="Ana", seed=99)
    expected = Rules.preset("todo_dos").replace(target=30, ronda_limit=None, carton_cap=28)
    # reproducible: a room's first mesa is dealt from the seed derived from the room's seed
    dealt = Game.new(expected, mesa_seed(99, 1)).state_summary()
    assert server_room(client, made["room"]).game.state_summary() == dealt
    assert server_room(client, twin["room"]).game.state_summary() == dealt
    browser = Browser(client, spy)
    state = browser.join(made["room"], made["token"])
    assert state["view"]["rules"] == expected.to_dict()
    assert state["seats"][1].pop("name") in NAMES  # the computer's name (computer_names)
    assert state["seats"] == [
        {"seat": 0, "kind": "person", "name": "Ana"},
        {"seat": 1, "kind": "computer", "level": "facil"},
    ]
    assert state["view"]["hand"] == dealt["hands"][0]
    browser.close()
    check_all(spy)


def test_handlers_that_use_the_rooms_run_on_the_event_loop(client: TestClient) -> None:
    # FastAPI runs plain functions in a thread pool: a room loaded there and on the loop at once would be
    # loaded twice. Every handler that touches the rooms is a coroutine, so it runs on the loop.
    import inspect

    from fastapi.routing import APIRoute

    def walk(routes: list[Any]) -> Iterator[APIRoute]:
        for route in routes:
            if isinstance(route, APIRoute):
                yield route
            included = getattr(route, "original_router", None)  # a router the app includes (FastAPI 0.13x+)
            if included is not None:
                yield from walk(included.routes)

    routes = {
        (route.path, method): route.endpoint
        for route in walk(client.app.routes)  # type: ignore[attr-defined]
        for method in route.methods
    }
    for key in (
        ("/api/rooms", "POST"),
        ("/api/rooms/{room_id}", "GET"),
        ("/api/games/{room_id}/record", "GET"),
        ("/api/games/{room_id}/replay", "GET"),
    ):
        assert inspect.iscoroutinefunction(routes[key]), key


def test_static_page_is_served_at_the_root(tmp_path: Path) -> None:
    page = tmp_path / "page"
    page.mkdir()
    (page / "index.html").write_text("<!doctype html><title>marker-123</title>", encoding="utf-8")
    with running(tmp_path / "d1", static_dir=page) as c:
        assert "marker-123" in c.get("/").text
        assert c.get("/api/health").status_code == 200
    with running(tmp_path / "d2", static_dir=tmp_path / "missing") as c:
        response = c.get("/")
        assert response.status_code == 200 and "/api/health" in response.text


# -- a whole game -------------------------------------------------------------------------------------------
def test_a_whole_chica_against_facil_then_history_stats_record_and_next(client: TestClient, spy: Spy) -> None:
    # not a practice room (those stay out of the statistics): the server chooses its seed
    made = new_room(client, players=2, level="facil", rules={"preset": "basico"}, name="Ana")
    room_id, token = made["room"], made["token"]
    room_seed = server_room(client, room_id).seed
    assert client.get(f"/api/rooms/{room_id}", headers=bearer(token)).json() == {
        "room": room_id,
        "seat": 0,
        "status": "playing",
        "mesa": 1,
        "practice": False,
        "table": False,
    }
    # no record while the mesa is in play (it would name every card and the seed)
    response = client.get(f"/api/games/{room_id}/record", headers=bearer(token))
    assert response.status_code == 409 and "in play" in response.json()["detail"]

    browser = Browser(client, spy)
    first = browser.join(room_id, token)
    assert first["type"] == "state" and first["mesa"] == 1 and first["status"] == "playing"
    assert [e["kind"] for e in first["events"]][:2] == ["dealer_draw", "deal"]  # a fresh mesa: its start
    moves = 0
    while True:
        state = browser.until_my_turn_or_end()
        if state["status"] == "finished":
            break
        assert state["view"]["turn"] == 0 and state["legal"]
        assert [h["card"] for h in state["hints"]] == state["view"]["hand"]
        browser.play_first_legal()
        moves += 1
    assert moves > 10
    game = server_room(client, room_id).game
    assert game.is_over and state["view"]["outcome"] == game.outcome.to_dict()  # type: ignore[union-attr]
    assert state["legal"] == [] and state["hints"] == []

    # every change is one state message, numbered one after the other; one play per message
    states = [m for m in browser.received if m["type"] == "state"]
    assert [m["state"] for m in states] == list(range(states[0]["state"], states[0]["state"] + len(states)))
    assert states[-1]["state"] == len(game.actions)
    assert all(sum(e["kind"] == "play" for e in m["events"]) <= 1 for m in states)
    assert sum(sum(e["kind"] == "play" for e in m["events"]) for m in states) == len(game.actions)
    # what the browser got is what the server sent, and none of it broke the rule
    assert seen_by_server(spy, browser) == browser.received
    assert check_all(spy) == len(browser.received)

    # a move after the end changes nothing
    before = game.to_json()
    reply = browser.error({"v": 1, "type": "move", "move": "7h", "state": state["state"]})
    assert reply["code"] == "game_over"
    assert game.to_json() == before

    # history, stats and the record
    history = client.post("/api/history", json={"tokens": [token]}).json()["games"]
    assert len(history) == 1
    entry = history[0]
    person_won = game.outcome.winner == 0  # type: ignore[union-attr]
    caidas, limpias = team_counts(game, 0)
    assert (entry["room"], entry["mesa"], entry["level"], entry["players"]) == (room_id, 1, "facil", 2)
    assert (entry["won"], entry["winner"], entry["caidas"], entry["limpias"]) == (
        person_won,
        game.outcome.winner,  # type: ignore[union-attr]
        caidas,
        limpias,
    )
    stats = client.get("/api/stats").json()["levels"]
    assert stats["facil"] == {"played": 1, "won": int(person_won), "caidas": caidas, "limpias": limpias}
    assert set(available_levels()) <= set(stats)
    # this browser's statistics: the rooms of its tokens only, with the best run of mesas won
    mine = {
        "played": 1,
        "won": int(person_won),
        "caidas": caidas,
        "limpias": limpias,
        "best_streak": int(person_won),
    }
    browser_stats = client.post("/api/stats", json={"tokens": [token]}).json()
    assert browser_stats["levels"]["facil"] == mine and browser_stats["all"] == mine
    assert set(browser_stats["levels"]) == set(available_levels())
    other = client.post("/api/stats", json={"tokens": ["someone else"]}).json()
    assert other["all"]["played"] == 0 and other["levels"]["facil"]["played"] == 0
    assert client.post("/api/history", json={"tokens": [token]}).json()["playing"] == []
    record = client.get(f"/api/games/{room_id}/record", headers=bearer(token))
    assert record.status_code == 200
    assert "attachment" in record.headers["content-disposition"]
    parsed = GameRecord.from_text(record.text)
    assert parsed.seed == game.seed and parsed.seats == ("Ana", "bot:facil")
    assert parsed.replay().state_summary() == game.state_summary()
    assert entry["record"] == f"/api/games/{room_id}/record?mesa=1"
    assert client.get(entry["record"], headers=bearer(token)).text == record.text

    # next: a new mesa in the same room, from the next derived seed
    browser.send({"v": 1, "type": "next"})
    fresh = browser.recv()
    assert fresh["type"] == "state" and fresh["mesa"] == 2 and fresh["status"] == "playing"
    assert fresh["state"] == state["state"] + 1
    assert [e["kind"] for e in fresh["events"]][:2] == ["dealer_draw", "deal"]
    assert server_room(client, room_id).game.seed == mesa_seed(room_seed, 2)
    # the room's mesa 2 is in play: the history lists it among the unfinished games
    playing = client.post("/api/history", json={"tokens": [token]}).json()["playing"]
    assert [(p["room"], p["mesa"], p["level"], p["players"], p["practice"]) for p in playing] == [
        (room_id, 2, "facil", 2, False)
    ]
    assert playing[0]["rules"]["preset"] == "basico"
    record_url = f"/api/games/{room_id}/record"
    assert client.get(record_url, headers=bearer(token)).status_code == 409
    assert client.get(record_url, params={"mesa": 1}, headers=bearer(token)).text == record.text
    assert client.get(record_url, params={"mesa": 3}, headers=bearer(token)).status_code == 404
    browser.until_my_turn_or_end()
    browser.play_first_legal()
    browser.close()
    check_all(spy)


@pytest.mark.parametrize("preset", ["a_todo_rigor", "campeonato"])
def test_2v2_a_few_moves(client: TestClient, spy: Spy, preset: str) -> None:
    made = new_room(client, players=4, level="facil", rules={"preset": preset}, seed=7)
    browser = Browser(client, spy)
    state = browser.join(made["room"], made["token"])
    assert [s["kind"] for s in state["seats"]] == ["person", "computer", "computer", "computer"]
    for _ in range(6):
        state = browser.play_first_legal()
        assert len(state["view"]["hand_sizes"]) == 4
    last = browser.until_my_turn_or_end()  # the computer players now wait for this seat: nothing more is sent
    assert last["view"]["rules"]["preset"] == preset
    game = server_room(client, made["room"]).game
    assert len(game.actions) >= 6
    assert seen_by_server(spy, browser) == browser.received
    # seat 0 never learnt a card of its partner (seat 2) or of the opponents
    assert check_all(spy) == len(browser.received)
    browser.close()


def test_the_rule_holds_for_every_seat_of_a_room_with_several_sockets(client: TestClient, spy: Spy) -> None:
    made = new_room(client, players=4, level="facil", seed=11)
    one, two = Browser(client, spy), Browser(client, spy)
    one.join(made["room"], made["token"])
    two.join(made["room"], made["token"])
    one.play_first_legal()
    mine = one.until_my_turn_or_end()
    # the second socket of the same seat follows the same changes, message by message
    while two.last is not None and two.last["state"] < mine["state"]:
        two.recv()
    assert two.last == mine
    first = two.received[0]["state"]  # (the computer may have moved before the second join)
    assert [m["state"] for m in two.received] == [m["state"] for m in one.received if m["state"] >= first]
    one.close()
    two.close()
    check_all(spy)


# -- errors -------------------------------------------------------------------------------------------------
def test_every_error_code_changes_nothing(client: TestClient, spy: Spy) -> None:
    made = new_room(client, level="facil", seed=1)
    room = server_room(client, made["room"])
    rooms = client.app.state.rooms  # type: ignore[attr-defined]
    store: Store = client.app.state.store  # type: ignore[attr-defined]

    def snapshot() -> tuple[str, int, tuple[int, str], list[tuple[int, str]]]:
        row = store.load_room(room.id)
        assert row is not None
        return room.game.to_json(), room.state, (row.state, row.status), store.load_actions(room.id, row.mesa)

    browser = Browser(client, spy)
    before = snapshot()
    assert browser.error({"v": 1, "type": "move", "move": "7h", "state": 0})["code"] == "not_joined"
    assert browser.error({"v": 1, "type": "next"})["code"] == "not_joined"
    for bad in (
        "not json",
        "[1, 2]",
        '"text"',
        {"v": 1},
        {"v": 1, "type": "dance"},
        {"v": 1, "type": 3},
        {"v": 1, "type": "move"},
        {"v": 1, "type": "move", "move": "7h", "state": "3"},
        {"v": 1, "type": "move", "move": 7, "state": 3},
        {"v": 1, "type": "move", "move": "7h", "state": -1},
        {"v": 1, "type": "join", "room": made["room"]},
        "x" * 5000,
        b"\xff\xfe",
    ):
        assert browser.error(bad)["code"] == "bad_message", bad
    for bad in (
        {"v": 3, "type": "ping"},
        {"type": "ping"},
        {"v": "1", "type": "ping"},
        {"v": True, "type": "ping"},
    ):
        assert browser.error(bad)["code"] == "bad_version", bad
    assert (
        browser.error({"v": 1, "type": "join", "room": "nope", "token": made["token"]})["code"]
        == "unknown_room"
    )
    assert browser.error({"v": 1, "type": "join", "room": room.id, "token": "wrong"})["code"] == "bad_token"
    assert snapshot() == before

    browser.join(room.id, made["token"])
    browser.play_first_legal()
    state = browser.until_my_turn_or_end()
    assert state["state"] >= 2 and state["legal"]
    # from now on the computer waits long before each move, so its turn stays open for the test
    rooms.bot_delay = 30
    before = snapshot()
    current, hand = state["state"], state["view"]["hand"]
    reply = browser.error({"v": 1, "type": "move", "move": state["legal"][0], "state": current - 1})
    assert reply["code"] == "stale" and str(current) in reply["message"]
    # a card this seat does not hold but has seen played (naming a hidden card would be echoed back)
    played = [c for e in state["view"]["history"] if e["kind"] == "play" for c in CARD.findall(e["move"])]
    not_mine = played[0]
    assert not_mine not in hand
    for bad_move in (not_mine, "zz", f"{hand[0]} x", f"claim {not_mine}", f"{hand[0]} x{not_mine}"):
        reply = browser.error({"v": 1, "type": "move", "move": bad_move, "state": current})
        assert reply["code"] == "illegal_move", bad_move
    assert browser.error({"v": 1, "type": "next"})["code"] == "not_finished"
    browser.send({"v": 1, "type": "ping"})
    assert browser.recv() == {"v": 1, "type": "pong"}
    assert snapshot() == before

    # a good move, and then it is the computer's turn (it waits bot_delay seconds)
    after = browser.play_first_legal()
    assert after["state"] == current + 1 and after["view"]["turn"] == 1 and after["legal"] == []
    before = snapshot()
    reply = browser.error({"v": 1, "type": "move", "move": after["view"]["hand"][0], "state": after["state"]})
    assert reply["code"] == "not_your_turn"
    assert snapshot() == before
    browser.close()
    assert {m["code"] for m in browser.received if m["type"] == "error"} == set(ERROR_CODES) - {
        "game_over",  # tested after a whole chica
        "corrupt_room",  # tested with a damaged database
        "rate_limited",  # tested in tests/test_security.py
        "store_unavailable",  # tested with a failing store in tests/test_store_rooms.py
        "outcome_unknown",  # PostgreSQL frozen with the move's commit in hand: tests/test_cluster_edges.py
        # the errors of tables with friends: tests/test_tables.py
        "not_a_table",
        "use_rematch",
        "too_fast",
        "not_started",
        "seat_left",
        # a seat taken back with its code, or handed to someone new: tests/test_reclaim.py
        "seat_reclaimed",
        "seat_given",
        # a championship's table, paused by its judge or asked for a rematch: test_championship_server_more
        "paused",
        "championship_table",
        # a championship's table replaced by its judge's restart: test_championship_life
        "table_replaced",
        # the computer's advice at a table, or a computer player that failed: tests/test_advice.py
        "no_advice",
        "advice_failed",
    }
    check_all(spy)


# -- saving and resuming ------------------------------------------------------------------------------------
def test_resume_after_a_restart(data_dir: Path, spy: Spy) -> None:
    with running(data_dir) as client:
        made = new_room(client, level="facil", rules={"preset": "a_todo_rigor"}, seed=5)
        browser = Browser(client, spy)
        browser.join(made["room"], made["token"])
        for _ in range(5):
            browser.play_first_legal()
        before = browser.until_my_turn_or_end()
        saved = server_room(client, made["room"]).game.to_json()
        browser.close()
    # a new server on the same data directory
    with running(data_dir) as client:
        assert client.app.state.rooms._rooms == {}  # type: ignore[attr-defined]
        info = client.get(f"/api/rooms/{made['room']}", headers=bearer(made["token"]))
        assert info.status_code == 200 and info.json()["status"] == "playing"
        assert client.get(f"/api/rooms/{made['room']}", headers=bearer("nope")).status_code == 403
        assert client.get("/api/rooms/nope", headers=bearer(made["token"])).status_code == 404
        browser = Browser(client, spy)
        again = browser.join(made["room"], made["token"])
        assert server_room(client, made["room"]).game.to_json() == saved
        for key in ("state", "mesa", "seat", "seats", "view", "legal", "hints", "status"):
            assert again[key] == before[key], key
        assert again["events"] == []  # the hand so far is in view.history
        for _ in range(3):
            browser.play_first_legal()
        browser.close()
    check_all(spy)


@pytest.mark.parametrize(
    "damage",
    [
        "UPDATE actions SET action = 'Zz' WHERE seq = 1",  # not an action
        "UPDATE actions SET action = 'claim Ah' WHERE seq = 1",  # not a legal one
        "DELETE FROM actions WHERE seq = (SELECT MAX(seq) FROM actions)",  # the log lost its last row
        "UPDATE rooms SET state = state + 1",  # the counter no longer matches the log
        "UPDATE rooms SET status = 'finished'",  # not what the log replays to
        'UPDATE rooms SET rules = \'{"preset": "nope"}\'',
        "UPDATE rooms SET seed = '12345'",  # another deal: the log does not replay
        "DELETE FROM seats WHERE seat = 1",
    ],
)
def test_a_corrupt_saved_room_gives_a_clear_error_not_a_crash(data_dir: Path, spy: Spy, damage: str) -> None:
    with running(data_dir) as client:
        made = new_room(client, level="facil", seed=3)
        browser = Browser(client, spy)
        browser.join(made["room"], made["token"])
        browser.play_first_legal()
        browser.close()
    db = sqlite3.connect(data_dir / "cuarenta.sqlite3")
    with db:
        db.execute(damage)
    db.close()
    with running(data_dir) as client:
        response = client.get(f"/api/rooms/{made['room']}", headers=bearer(made["token"]))
        assert response.status_code == 500 and "corrupt" in response.json()["detail"]
        browser = Browser(client, spy)
        reply = browser.error({"v": 1, "type": "join", "room": made["room"], "token": made["token"]})
        assert reply["code"] == "corrupt_room" and made["room"] in reply["message"]
        browser.send({"v": 1, "type": "ping"})  # the socket still works
        assert browser.recv()["type"] == "pong"
        other = new_room(client, level="facil")  # and so does the server
        assert browser.join(other["room"], other["token"])["type"] == "state"
        browser.close()


def test_the_database_is_versioned(tmp_path: Path) -> None:
    store = Store.in_dir(tmp_path / "d")
    assert store.schema_revision() == SCHEMA_REVISION
    store.close()
    db = sqlite3.connect(tmp_path / "d" / "cuarenta.sqlite3")
    with db:
        db.execute("UPDATE alembic_version SET version_num = 'z999'")  # a revision of a newer cuarenta
    db.close()
    with pytest.raises(StoreError, match="newer cuarenta"):
        create_app(tmp_path / "d")
    (tmp_path / "e").mkdir()
    (tmp_path / "e" / "cuarenta.sqlite3").write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(StoreError, match="not a usable cuarenta database"):
        create_app(tmp_path / "e")


def test_history_and_stats_follow_the_tokens(client: TestClient) -> None:
    assert client.post("/api/history", json={"tokens": ["nobody"]}).json() == {"games": [], "playing": []}
    stats = client.get("/api/stats").json()["levels"]
    assert all(v == {"played": 0, "won": 0, "caidas": 0, "limpias": 0} for v in stats.values())
    assert set(stats) == set(available_levels())
    zero = {"played": 0, "won": 0, "caidas": 0, "limpias": 0, "best_streak": 0}
    assert client.post("/api/stats", json={"tokens": []}).json() == {
        "levels": dict.fromkeys(available_levels(), zero),
        "all": zero,
    }
    # a new room is unfinished: its token's history lists it, another token's does not
    made = new_room(client, level="facil", rules={"preset": "basico"})
    playing = client.post("/api/history", json={"tokens": [made["token"], "nobody"]}).json()["playing"]
    assert [(p["room"], p["mesa"], p["moves"]) for p in playing] == [(made["room"], 1, 0)]
    assert client.post("/api/history", json={"tokens": ["nobody"]}).json()["playing"] == []
    # the stats' body is the history's: at most MAX_TOKENS tokens
    assert client.post("/api/stats", json={"tokens": ["x"] * 101}).status_code == 400


def test_record_download_errors(client: TestClient) -> None:
    made = new_room(client, level="facil")
    assert client.get("/api/games/nope/record", headers=bearer(made["token"])).status_code == 404
    assert client.get(f"/api/games/{made['room']}/record", headers=bearer("x")).status_code == 403
    assert client.get(f"/api/games/{made['room']}/record", headers=bearer(made["token"])).status_code == 409
    assert client.get(f"/api/games/{made['room']}/record").status_code == 401


# -- computer players ---------------------------------------------------------------------------------------
def test_with_workers_0_computer_players_think_on_a_thread_and_the_server_stays_responsive(
    data_dir: Path, spy: Spy, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--workers 0`` (in-process thinking, for tests and debugging) keeps thinking off the event loop;
    the worker processes of the default are tested in tests/test_thinking.py."""
    import asyncio

    from cuarenta.players.simple import FacilPlayer

    release = threading.Event()
    thinking = threading.Event()
    threads: list[tuple[str, bool]] = []
    original = FacilPlayer.choose

    def slow_choose(self: FacilPlayer, view: Any, legal: Any) -> Any:
        try:
            asyncio.get_running_loop()
            on_loop = True
        except RuntimeError:
            on_loop = False
        threads.append((threading.current_thread().name, on_loop))
        thinking.set()
        assert release.wait(20), "the test never released the computer player"
        return original(self, view, legal)

    monkeypatch.setattr(FacilPlayer, "choose", slow_choose)
    with running(data_dir, workers=0) as client:
        seed = 0
        while True:  # a room where the computer plays first
            made = new_room(client, level="facil", seed=seed)
            if server_room(client, made["room"]).game.turn == 1:
                break
            seed += 1
        browser = Browser(client, spy)
        state = browser.join(made["room"], made["token"])
        assert state["view"]["turn"] == 1 and state["legal"] == []
        assert thinking.wait(20)
        # while the computer thinks, the server answers
        browser.send({"v": 1, "type": "ping"})
        assert browser.recv() == {"v": 1, "type": "pong"}
        assert client.get("/api/health").status_code == 200
        release.set()
        after = browser.recv()
        assert after["type"] == "state" and after["state"] == state["state"] + 1
        assert after["events"][0]["kind"] == "play" and after["events"][0]["seat"] == 1
        assert threads and all(not on_loop for _, on_loop in threads)
        assert {name for name, _ in threads} == {"cuarenta-think_0"}
        browser.close()
    check_all(spy)


# -- hints --------------------------------------------------------------------------------------------------
def _position(hands: list[list[str]], table: list[str], last_drop: str | None = None) -> Game:
    from cuarenta import CARDS

    named = {c for h in hands for c in h} | set(table)
    rest = [str(c) for c in CARDS if str(c) not in named]
    return Game.from_position(
        Rules(),
        hands=hands,
        table=table,
        stock=[],
        turn=0,
        dealer=1,
        piles=[rest[:10], rest[10:]],
        last_drop=last_drop,
    )


def test_hints_mark_captures_caidas_limpias_and_risks() -> None:
    game = _position([["5h", "Kc", "Qd"], ["5s", "Js", "Qh"]], ["5d", "Jd"], last_drop="5d")
    # seat 1 holds 5s, Js, Qh (unseen by seat 0); piles hold the rest, seen
    legal = [str(m) for m in game.legal_moves()]
    hints = {h["card"]: h for h in seat_hints(game.view(0), legal)}
    assert list(hints) == ["5h", "Kc", "Qd"]
    assert hints["5h"] == {"card": "5h", "takes": True, "caida": True, "limpia": False, "warning": "limpia"}
    # 5h x5d leaves Jd alone, and a J is unseen: an easy limpia for the next player
    assert hints["Kc"]["takes"] is False and hints["Kc"]["warning"] is None  # every K is seen
    assert hints["Qd"]["warning"] == "caida"  # Qh is unseen
    assert seat_hints(game.view(1), []) == []  # not its turn: no hints


def test_hints_never_warn_on_the_last_card_of_a_hand() -> None:
    game = _position([["Kc"], ["Ks"]], ["3d"])
    legal = [str(m) for m in game.legal_moves()]
    assert seat_hints(game.view(0), legal)[0]["warning"] == "caida"
    # seat 1 is the dealer with one card and an empty stock: its play ends the hand
    game.play("Kc")
    legal = [str(m) for m in game.legal_moves()]
    assert game.turn == 1 and legal == ["Ks xKc"]
    assert seat_hints(game.view(1), legal)[0]["warning"] is None


# -- the protocol's parser ----------------------------------------------------------------------------------
def test_parse_client_message() -> None:
    message = parse_client_message('{"v": 1, "type": "join", "room": "r", "token": "t", "extra": 1}')
    assert message.type == "join"
    with pytest.raises(ProtocolError) as info:
        parse_client_message('{"v": 1, "type": "move", "move": "", "state": 1}')
    assert info.value.code == "bad_message" and "move" in info.value.message
