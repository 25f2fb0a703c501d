"""Tables with friends (docs/tables.md) over the real app: invite, seats, waiting room, presence and
grace, the computer standing in, the turn clock, spectators, reactions, rematch, and every refusal of
"How it must hold" — nobody acts for another, nothing hidden is sent, nothing half-applied.

Every message the server queues is checked by the spy (tests/support/spy.py) against the cards hidden from
its socket's seat (a spectator: every hand and the stock) when it was queued.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cuarenta import Rules
from cuarenta.server.authority.computer_names import NAMES
from cuarenta.server.edge.version1 import Version1
from cuarenta.server.protocol import ERROR_CODES
from support.app import bearer, running
from support.spy import Spy, check_all
from support.tables import Seat, new_table, play_out, room_of, rooms_of, take_seat

CARD_WORD = "7h"


# -- a whole mesa between two people, with a spectator ---------------------------------------------------
def test_two_people_play_a_whole_mesa_through_the_invite_and_a_spectator_sees_no_hand(
    tmp_path: Path, spy: Spy
) -> None:
    with running(tmp_path) as client:
        made = new_table(client, players=2, rules={"preset": "basico"}, seats=["friend"])
        info = client.get(f"/api/tables/{made['room']}").json()
        assert info["status"] == "waiting" and info["invite"] is None  # the invite only for a seat's holder
        assert [s["kind"] for s in info["seats"]] == ["person", "open"]
        own = client.get(f"/api/tables/{made['room']}", headers=bearer(made["token"])).json()
        assert own["invite"] == made["invite"] and own["seat"] == 0
        with Seat(client, spy) as ana, Seat(client, spy) as beto, Seat(client, spy) as watcher:
            first = ana.join(made["room"], made["token"])
            assert first["status"] == "waiting" and first["legal"] == [] and first["table"]["creator"] == 0
            joined = take_seat(client, made)
            assert joined["seat"] == 1 and joined["token"] != made["token"]
            started = ana.until(
                lambda m: m["type"] == "state" and m["status"] == "playing"
            )  # full: it starts
            beto.join(made["room"], joined["token"])
            watcher.send({"v": 1, "type": "watch", "room": made["room"]})
            seen = watcher.until(lambda m: m["type"] == "state")
            assert (
                seen["seat"] is None and seen["view"]["hand"] == [] and seen["legal"] == seen["hints"] == []
            )
            assert ana.until(lambda m: m["type"] == "table" and m["table"]["watchers"] == 1)
            end = play_out([ana, beto, watcher], started["state"])
            assert end["view"]["outcome"] is not None and end["view"]["hand"] == []
            assert (
                watcher.error({"v": 1, "type": "move", "move": CARD_WORD, "state": 0})["code"] == "not_joined"
            )
            for browser in (ana, beto, watcher):
                tokens = json.dumps(browser.received)
                assert made["token"] not in tokens or browser is ana
                assert joined["token"] not in tokens
                assert made["invite"] not in tokens  # the invite is only in the HTTP answers
        # every message was checked: at least a state per move for each of the three sockets (a mesa of
        # basico may end within a dozen moves; spectators' comings are told as a count, not one by one)
        moves = end["state"] - started["state"]
        assert check_all(spy) >= 3 * moves > 0
        # the finished mesa is in the history of both people, each from their own side
        for token, seat in ((made["token"], 0), (joined["token"], 1)):
            games = client.post("/api/history", json={"tokens": [token]}).json()["games"]
            assert len(games) == 1 and games[0]["won"] == (games[0]["winner"] == seat % 2)


# -- nobody acts for another ------------------------------------------------------------------------------
def test_tokens_seats_and_spectators_cannot_act_for_another(tmp_path: Path, spy: Spy) -> None:
    with running(tmp_path) as client:
        made = new_table(client, players=2, seats=["friend"])
        other = new_table(client, players=2, seats=["friend"])
        joined = take_seat(client, made)
        # a full table says so (and offers to watch); a wrong invite; an unknown table
        full = client.post(f"/api/tables/{made['room']}/join", json={"invite": made["invite"], "name": "Eva"})
        assert full.status_code == 409 and "watch" in full.json()["detail"]
        wrong = client.post(
            f"/api/tables/{other['room']}/join", json={"invite": made["invite"], "name": "Eva"}
        )
        assert wrong.status_code == 403
        assert client.post("/api/tables/nope/join", json={"invite": "x", "name": "Eva"}).status_code == 404
        with Seat(client, spy) as beto, Seat(client, spy) as tab2, Seat(client, spy) as stranger:
            # a guessed token, another table's token, a forged seat number in the join
            assert stranger.join(made["room"], "guessed-token")["code"] == "bad_token"
            assert stranger.join(made["room"], other["token"])["code"] == "bad_token"
            state = beto.join(
                made["room"], joined["token"], seat=0
            )  # the seat is the token's, whatever is sent
            assert state["seat"] == 1
            # a second tab on the same seat: both see the same; one move wins, the other is stale
            again = tab2.join(made["room"], joined["token"])
            assert again["seat"] == 1 and again["state"] == state["state"]
            with Seat(client, spy) as ana:
                ana.join(made["room"], made["token"])
                if ana.last is not None and ana.last["legal"]:  # Ana moves first: then it is Beto's turn
                    ana.send(
                        {"v": 1, "type": "move", "move": ana.last["legal"][0], "state": ana.last["state"]}
                    )
                turn = beto.last
                if turn is None or not turn["legal"]:
                    turn = beto.until(lambda m: m["type"] == "state" and bool(m["legal"]))
                assert tab2.state_at_least(turn["state"])["legal"] == turn["legal"]
                beto.send({"v": 1, "type": "move", "move": turn["legal"][0], "state": turn["state"]})
                after = beto.until(lambda m: m["type"] == "state" and m["state"] > turn["state"])
                assert tab2.state_at_least(after["state"])["view"] == after["view"]  # both tabs agree
                # the second tab clicks on the table it saw before: refused, nothing applied twice
                reply = tab2.error({"v": 1, "type": "move", "move": turn["legal"][0], "state": turn["state"]})
                assert reply["code"] == "stale"
                assert room_of(client, made["room"]).state == turn["state"] + 1
                # a move with one's own token on the other seat's turn
                reply = beto.error(
                    {"v": 1, "type": "move", "move": turn["legal"][0], "state": after["state"]}
                )
                assert reply["code"] in ("not_your_turn", "illegal_move")
        check_all(spy)


def test_the_creator_alone_changes_seats_and_starts(tmp_path: Path, spy: Spy) -> None:
    with running(tmp_path) as client:
        made = new_table(client, players=4, seats=["friend", "friend", "friend"], clock=30)
        joined = take_seat(client, made, team=0)  # Ana's partner
        assert joined["seat"] == 2
        room = made["room"]
        assert client.post(f"/api/tables/{room}/start", headers=bearer(joined["token"])).status_code == 403
        turned = client.post(
            f"/api/tables/{room}/seats/1", json={"level": "facil"}, headers=bearer(made["token"])
        )
        assert turned.status_code == 200
        computer = turned.json()["seats"][1]
        assert computer.pop("name") in NAMES  # a computer seat has its name (computer_names)
        assert computer == {"seat": 1, "team": 1, "kind": "computer", "level": "facil"}
        again = client.post(
            f"/api/tables/{room}/seats/1", json={"level": "facil"}, headers=bearer(made["token"])
        )
        assert again.status_code == 409
        with Seat(client, spy) as ana:
            waiting = ana.join(room, made["token"])
            assert waiting["status"] == "waiting"
            assert (
                ana.error({"v": 1, "type": "move", "move": "7h", "state": waiting["state"]})["code"]
                == "not_started"
            )
            started = client.post(f"/api/tables/{room}/start", headers=bearer(made["token"]))
            assert started.status_code == 200 and started.json()["status"] == "playing"
            assert [s["kind"] for s in started.json()["seats"]] == [
                "person",
                "computer",
                "person",
                "computer",
            ]
            assert client.post(f"/api/tables/{room}/start", headers=bearer(made["token"])).status_code == 409
            late = client.post(f"/api/tables/{room}/join", json={"invite": made["invite"], "name": "Eva"})
            assert late.status_code == 409
            state = ana.until(lambda m: m["type"] == "state" and m["status"] == "playing")
            assert state["table"]["clock"] == 30
        check_all(spy)


# -- presence, grace, the computer standing in, reconnection by event index -------------------------------
def test_an_away_person_gets_the_grace_then_the_computer_plays_until_they_come_back(
    tmp_path: Path, spy: Spy
) -> None:
    with running(tmp_path) as client:
        made = new_table(client, players=2, seats=["friend"], grace=1)
        joined = take_seat(client, made)
        with Seat(client, spy) as ana:
            ana.join(made["room"], made["token"])
            beto = Seat(client, spy)
            beto.join(made["room"], joined["token"])
            seen = beto.last
            assert seen is not None
            ana.until(lambda m: m["type"] == "table" and m["seats"][1]["connected"])
            beto.close()  # the tab closes
            away = ana.until(lambda m: m["type"] == "table" and not m["seats"][1]["connected"])
            assert away["seats"][1]["away"] is not None and not away["seats"][1]["stand_in"]
            # after the grace, the computer plays for Beto: the game goes on with Ana alone
            ana.until(lambda m: m["type"] == "table" and m["seats"][1]["stand_in"], limit=50)
            for _ in range(3):
                ana.play_turn()
            missed_from = seen["event_count"]
            # Beto comes back from the same browser: everything missed, by event index
            with Seat(client, spy) as back:
                state = back.join(made["room"], joined["token"], since=missed_from)
                room = room_of(client, made["room"])
                assert state["event_count"] == len(room.game.events)
                assert len(state["events"]) == state["event_count"] - missed_from > 0
                assert [e["kind"] for e in state["events"]] == [
                    e.kind for e in room.game.events[missed_from:]
                ]
                back_seat = ana.until(lambda m: m["type"] == "table" and m["seats"][1]["connected"])
                assert not back_seat["seats"][1]["stand_in"] and back_seat["seats"][1]["away"] is None
                assert not room.seats[1].stand_in
        check_all(spy)


def test_a_person_who_leaves_for_good_is_replaced_by_the_computer(tmp_path: Path, spy: Spy) -> None:
    with running(tmp_path) as client:
        made = new_table(client, players=2, seats=["friend"])
        joined = take_seat(client, made)
        with Seat(client, spy) as ana:
            ana.join(made["room"], made["token"])
            left = client.post(f"/api/tables/{made['room']}/leave", headers=bearer(joined["token"]))
            assert left.status_code == 200
            seat = left.json()["seats"][1]
            assert seat["kind"] == "computer" and seat["left"] and seat["name"] == "Beto"
            with Seat(client, spy) as beto:
                assert beto.join(made["room"], joined["token"])["code"] == "seat_left"
            again = client.post(f"/api/tables/{made['room']}/leave", headers=bearer(joined["token"]))
            assert again.status_code == 409
            # the token opens nothing any more: not the table, its invite, the room, nor a record
            for url in (f"/api/tables/{made['room']}", f"/api/rooms/{made['room']}"):
                answer = client.get(url, headers=bearer(joined["token"]))
                assert answer.status_code == 410 and "you left this table" in answer.json()["detail"]
                assert made["invite"] not in answer.text
            record = client.get(f"/api/games/{made['room']}/record", headers=bearer(joined["token"]))
            assert record.status_code == 410
            history = client.post("/api/history", json={"tokens": [joined["token"]]}).json()
            assert history["playing"] == []  # not a game to go on with
            assert client.post("/api/history", json={"tokens": [made["token"]]}).json()["playing"]
            # the computer plays seat 1: Ana's turn comes back
            for _ in range(2):
                ana.play_turn()
        check_all(spy)


def test_the_turn_clock_lets_the_computer_play_a_turn_that_ran_out(tmp_path: Path, spy: Spy) -> None:
    with running(tmp_path) as client:
        made = new_table(client, players=2, seats=["friend"], clock=30)
        rooms = rooms_of(client)
        room = rooms.get(made["room"])
        assert room.table is not None
        room.table = dataclasses.replace(room.table, clock=1)  # a second, for the test
        joined = take_seat(client, made)
        with Seat(client, spy) as ana, Seat(client, spy) as beto:
            ana.join(made["room"], made["token"])
            beto.join(made["room"], joined["token"])
            first = ana.last
            assert first is not None and first["table"]["deadline"] is not None
            started = time.time()
            # nobody moves: each turn runs out and the computer plays it, for either seat
            later = ana.until(lambda m: m["type"] == "state" and m["state"] >= first["state"] + 2, limit=50)
            assert time.time() - started >= 1.5
            assert later["table"]["deadline"] is not None
        check_all(spy)


# -- reactions and rematch ---------------------------------------------------------------------------------
def test_reactions_are_sayings_rate_limited_and_only_from_seats(tmp_path: Path, spy: Spy) -> None:
    with running(tmp_path) as client:
        made = new_table(client, players=2, seats=["friend"])
        joined = take_seat(client, made)
        with Seat(client, spy) as ana, Seat(client, spy) as beto, Seat(client, spy) as watcher:
            ana.join(made["room"], made["token"])
            beto.join(made["room"], joined["token"])
            watcher.send({"v": 1, "type": "watch", "room": made["room"]})
            watcher.until(lambda m: m["type"] == "state")
            beto.send({"v": 1, "type": "react", "saying": "mosero"})
            for browser in (ana, beto, watcher):
                got = browser.until(lambda m: m["type"] == "reaction")
                assert got == {"v": 1, "type": "reaction", "seat": 1, "saying": "mosero"}
            assert beto.error({"v": 1, "type": "react", "saying": "mosero"})["code"] == "too_fast"
            assert ana.error({"v": 1, "type": "react", "saying": "<b>hola</b>"})["code"] == "bad_message"
            assert watcher.error({"v": 1, "type": "react", "saying": "mosero"})["code"] == "not_joined"
            assert watcher.error({"v": 1, "type": "pace", "pace": "fast"})["code"] == "not_joined"
        check_all(spy)


def test_rematch_starts_another_mesa_once_everyone_present_agrees(tmp_path: Path, spy: Spy) -> None:
    with running(tmp_path) as client:
        made = new_table(client, players=2, rules={"preset": "basico"}, seats=["friend"])
        joined = take_seat(client, made)
        with Seat(client, spy) as ana, Seat(client, spy) as beto:
            start = ana.join(made["room"], made["token"])
            beto.join(made["room"], joined["token"])
            assert ana.error({"v": 1, "type": "rematch"})["code"] == "not_finished"
            play_out([ana, beto], start["state"])
            assert ana.error({"v": 1, "type": "next"})["code"] == "use_rematch"
            ana.send({"v": 1, "type": "rematch"})
            vote = beto.until(lambda m: m["type"] == "table" and m["table"]["rematch"] == [0])
            assert vote["status"] == "finished"
            beto.send({"v": 1, "type": "rematch"})
            for browser in (ana, beto):
                new = browser.until(lambda m: m["type"] == "state" and m["mesa"] == 2)
                assert new["status"] == "playing" and new["table"]["rematch"] == []
        check_all(spy)


# -- the lobby, the QR code, bad input ---------------------------------------------------------------------
def test_the_lobby_lists_public_tables_that_wait(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        public = new_table(client, players=4, lobby=True, name="Ana <b>")
        new_table(client, players=2, name="Privada")  # not in the lobby
        full = new_table(client, players=2, lobby=True, seats=["friend"], name="Llena")
        take_seat(client, full)
        tables = client.get("/api/lobby").json()["tables"]
        assert [t["room"] for t in tables] == [public["room"]]
        assert (
            tables[0]["host"] == "Ana <b>"
            and tables[0]["open"] == 3
            and tables[0]["invite"] == public["invite"]
        )


def test_the_qr_code_of_an_invite_link_is_an_svg(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        response = client.post("/api/qr", json={"text": "http://127.0.0.1:8000/#join=ROOM.INVITE"})
        assert response.status_code == 200 and response.headers["content-type"].startswith("image/svg+xml")
        assert response.text.lstrip().startswith("<?xml") or "<svg" in response.text[:200]
        assert client.post("/api/qr", json={"text": "x" * 2000}).status_code == 400


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({"players": 3}, "2 or 4"),
        ({"seats": ["friend", "friend"]}, "other seats"),
        ({"seats": ["wizard"]}, "each other seat"),
        ({"grace": 601}, "grace"),
        ({"grace": "30"}, "grace is a number of seconds"),  # not text that looks like one (schemathesis)
        ({"grace": True}, "grace is a number of seconds"),
        ({"level": ""}, "level"),  # not the default's stand-in: the schema lists the levels (schemathesis)
        ({"level": "wizard"}, "level"),
        ({"name": "   "}, "name"),
        ({"clock": 45}, "clock"),
        ({"name": ""}, "name"),
        ({"name": "a\x00b"}, "control"),
        ({"rules": {"preset": "nope"}}, "rules"),
        ({"players": 4, "rules": {"preset": "basico"}}, "rules"),
        ({"surprise": 1}, "surprise"),
    ],
)
def test_a_bad_table_is_refused_with_a_clear_reason(
    tmp_path: Path, body: dict[str, Any], fragment: str
) -> None:
    with running(tmp_path, workers=0) as client:
        response = client.post("/api/tables", json={"name": "Ana", **body})
        assert response.status_code == 400, response.text
        assert fragment in response.json()["detail"]
        assert client.get("/api/lobby").json()["tables"] == []


def test_every_table_error_code_is_reachable() -> None:
    table_codes = {"not_a_table", "use_rematch", "too_fast", "not_started", "seat_left"}
    assert table_codes <= set(ERROR_CODES)


# -- rated tables ------------------------------------------------------------------------------------------
def profile(client: TestClient, name: str) -> dict[str, str]:
    made = client.post("/api/profiles", json={"name": name})
    assert made.status_code == 200, made.text
    return {"id": made.json()["id"], "key": made.json()["key"]}


class ServerLog(logging.Handler):
    """The server's log records while a test runs, whatever the ``cuarenta`` logger's propagation (a test
    of ``cuarenta worker`` may have configured it not to reach pytest's capture): a failure can show them."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.lines: list[str] = []
        self.logger = logging.getLogger("cuarenta")

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(f"{record.levelname} {record.name}: {record.getMessage()} {record.exc_text or ''}")

    def __enter__(self) -> ServerLog:
        self.level_before = self.logger.level
        self.logger.setLevel(logging.INFO)
        self.logger.addHandler(self)
        return self

    def __exit__(self, *exc: object) -> None:
        self.logger.removeHandler(self)
        self.logger.setLevel(self.level_before)


def test_a_rated_table_updates_both_ratings_once_its_mesa_is_won(tmp_path: Path, spy: Spy) -> None:
    with running(tmp_path) as client, ServerLog() as server_log:
        ana, beto = profile(client, "Ana"), profile(client, "Beto")
        body = {"players": 2, "rules": {"preset": "basico"}, "seats": ["friend"], "rated": True}
        # refused: no profile, a wrong key, a computer seat, rules that are not a preset's
        assert client.post("/api/tables", json={"name": "Ana", **body}).status_code == 400
        wrong = {**ana, "key": beto["key"]}
        assert client.post("/api/tables", json={"name": "Ana", **body, "profile": wrong}).status_code == 403
        bot = {**body, "seats": ["normal"], "profile": ana}
        assert client.post("/api/tables", json={"name": "Ana", **bot}).status_code == 400
        custom = {**body, "rules": {"preset": "basico", "target": 30}, "profile": ana}
        assert client.post("/api/tables", json={"name": "Ana", **custom}).status_code == 400
        made = new_table(client, **body, profile=ana)
        url = f"/api/tables/{made['room']}/join"
        assert client.post(url, json={"invite": made["invite"], "name": "Beto"}).status_code == 403
        twice = client.post(url, json={"invite": made["invite"], "name": "Ana 2", "profile": ana})
        assert twice.status_code == 409  # one seat per profile
        joined = take_seat(client, made, profile=beto)
        with Seat(client, spy) as a, Seat(client, spy) as b:
            start = a.join(made["room"], made["token"])
            b.join(made["room"], joined["token"])
            assert start["table"]["rated"] is True
            end = play_out([a, b], start["state"])
        winner = end["view"]["outcome"]["winner"]
        # one browser made both profiles (the test client's one address): not rated against each other
        # (tests/test_fairplay.py plays from two addresses), but the mesa is on both profiles' pages
        for who, person in enumerate((ana, beto)):
            page = client.get(f"/api/profiles/{person['id']}").json()
            assert page["ratings"]["1v1"]["games"] == 0
            room = room_of(client, made["room"])
            seen = (room.mesa, room.recorded, [s.profile for s in room.seats], server_log.lines)
            assert len(page["games"]) == 1, seen
            (game,) = page["games"]
            assert game["won"] == (winner == who) and game["unrated"] == "shared_address"


def test_a_table_everyone_left_waits_instead_of_playing_itself_out(tmp_path: Path, spy: Spy) -> None:
    """When every person is away past the grace, the computers do not play the mesa out for them: the
    table waits, and goes on (the computer standing in for the others) once someone is back."""
    with running(tmp_path) as client:
        made = new_table(client, players=2, seats=["friend"], grace=0)
        joined = take_seat(client, made)
        room = room_of(client, made["room"])
        with Seat(client, spy) as ana, Seat(client, spy) as beto:
            ana.join(made["room"], made["token"])
            beto.join(made["room"], joined["token"])
        before = room.state
        deadline = time.monotonic() + 10
        while not all(s.stand_in for s in room.seats) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert all(s.stand_in for s in room.seats)  # both away, the grace (0 s) over
        # the computer players' task has stopped (or never started): nothing of theirs is under way, so
        # none can move unless a person comes back (before, they played the mesa out with no delay)
        deadline = time.monotonic() + 10
        while (task := room.bot_task) is not None and not task.done():
            assert time.monotonic() < deadline, "the computer players go on with nobody at the table"
            time.sleep(0.05)
        assert room.state == before and room.computer_to_move() is None
        with Seat(client, spy) as back:
            state = back.join(made["room"], made["token"], since=0)
            mine = bool(state["legal"])
            if mine:  # Ana's own turn first: she plays
                back.play_turn()
            # then the computer plays for Beto, who is still away
            moved = back.until(lambda m: m["type"] == "state" and m["state"] > before + int(mine))
            assert moved["events"] and moved["events"][0]["seat"] == 1
        check_all(spy)


# -- no card before it is yours ------------------------------------------------------------------------------
def hands_of(game: Any) -> list[list[str]]:
    return [sorted(str(c) for c in game.hand(s)) for s in range(game.players)]


@pytest.mark.parametrize(("players", "rated"), [(4, False), (4, True), (2, False), (2, True)])
def test_a_seat_hop_before_the_start_learns_no_card_of_the_deal(
    tmp_path: Path, spy: Spy, players: int, rated: bool
) -> None:
    """The attack of issue 15: take a seat of a waiting table, read its hand, leave, take another seat (an
    opponent's), read that one too — then the table starts and those hands are played. Now no seat of a
    waiting table is sent a card, and the table is dealt when it starts, from a seed chosen then: the
    hands a waiting table would have dealt are not the hands played."""
    from cuarenta.game import Game
    from cuarenta.server.authority.model import mesa_seed

    with running(tmp_path) as client:
        people = [profile(client, name) for name in ("Ana", "Eva", "Beto", "Cleo")] if rated else []
        extra: dict[str, Any] = {"rated": True, "profile": people[0]} if rated else {}
        preset = "campeonato" if rated and players == 4 else "basico" if players == 2 else "a_todo_rigor"
        made = new_table(client, players=players, rules={"preset": preset}, **extra)
        room = room_of(client, made["room"])
        stored = rooms_of(client).store.load_room(made["room"])
        assert stored is not None
        waiting_deal = hands_of(Game.new(room.rules, mesa_seed(json.loads(stored.seed), 1)))
        seen: list[str] = []
        with Seat(client, spy) as ana, Seat(client, spy) as eva:
            state = ana.join(made["room"], made["token"])
            assert state["status"] == "waiting" and state["view"]["hand"] == []
            # Eva hops: every open seat in turn, reading what each socket is sent, then leaving it
            hops = [1, 3] if players == 4 else []
            for seat in hops:
                took = take_seat(client, made, "Eva", seat=seat, **({"profile": people[1]} if rated else {}))
                state = eva.join(made["room"], took["token"])
                assert state["status"] == "waiting" and state["view"]["hand"] == [], state["view"]
                seen += state["view"]["hand"]
                left = client.post(f"/api/tables/{made['room']}/leave", headers=bearer(took["token"]))
                assert left.status_code == 200, left.text
                refused = eva.join(made["room"], took["token"])  # the left seat's token opens nothing
                assert refused["type"] == "error"
            assert seen == []
            # the seats are taken for good and the table starts (a full table starts by itself)
            tokens = [made["token"]]
            for i, seat in enumerate(range(1, players), start=1):
                proof = {"profile": people[i]} if rated else {}
                tokens.append(take_seat(client, made, f"P{seat}", seat=seat, **proof)["token"])
            ana.until(lambda m: m["type"] == "state" and m["status"] == "playing")
        assert room.started and room.game.actions == []
        dealt = hands_of(room.game)
        assert all(len(hand) == 5 for hand in dealt)
        assert dealt != waiting_deal  # dealt anew at the start (the same five cards again: about 1 in 10^5)
        again = rooms_of(client).store.load_room(made["room"])
        assert again is not None and json.loads(again.seed) == room.seed != json.loads(stored.seed)
        check_all(spy)


def test_a_waiting_deal_over_at_the_deal_neither_stops_the_table_nor_its_record(
    tmp_path: Path, spy: Spy, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A waiting table holds the deal it would have had, and about one in 600 of those is over at the deal
    (four of a kind wins the chica, R17, and *básico* plays one). Such a table, read back from the store
    while it waits, took the mesa as recorded already: the mesa it then played was never written to
    History. It starts, is played, and its mesa is recorded like any other."""
    from cuarenta.game import Game
    from cuarenta.server.authority import opening
    from cuarenta.server.authority.model import mesa_seed

    rules = Rules.preset("basico")
    over = next(s for s in range(10**5) if Game.new(rules, mesa_seed(s, 1)).is_over)
    seeds = iter([over])
    drawn = opening.secrets.randbelow
    monkeypatch.setattr(opening.secrets, "randbelow", lambda n: next(seeds, None) or drawn(n))
    with running(tmp_path) as client:
        made = new_table(client, players=2, rules={"preset": "basico"})
        rooms = rooms_of(client)
        assert room_of(client, made["room"]).game.is_over  # the deal it waits with is over
        rooms.cache.clear()  # it leaves memory (a restart, another node): read back from the store
        room = room_of(client, made["room"])
        assert room.status == "waiting" and room.recorded == 0
        with Seat(client, spy) as ana, Seat(client, spy) as beto:
            ana.join(made["room"], made["token"])
            beto.join(made["room"], take_seat(client, made, "Beto", seat=1)["token"])
            start = ana.until(lambda m: m["type"] == "state" and m["status"] == "playing")
            finished = play_out([ana, beto], start["state"])
        assert finished["status"] == "finished" and room.recorded == 1
        assert rooms.store.finished_mesa(made["room"], 1) is not None  # in History
        check_all(spy)


def test_spectators_coming_and_going_are_told_as_a_count_not_one_message_each(
    tmp_path: Path, spy: Spy, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 15: 300 spectators made every player receive 300 ``table`` messages. Spectators who come
    and go are told to the table as a count, at most once a second; a move's ``state`` is made once for
    all spectators who have seen the same events."""
    from cuarenta.server.authority.core import WATCHERS_SECONDS

    crowd = 30
    with running(tmp_path) as client:
        made = new_table(client, players=2, rules={"preset": "basico"}, seats=["friend"])
        joined = take_seat(client, made)
        with Seat(client, spy) as ana, Seat(client, spy) as beto:
            start = ana.join(made["room"], made["token"])
            beto.join(made["room"], joined["token"])
            watchers = [Seat(client, spy) for _ in range(crowd)]
            for w in watchers:
                w.send({"v": 1, "type": "watch", "room": made["room"]})
                w.until(lambda m: m["type"] == "state")
            told = ana.until(lambda m: m["type"] == "table" and m["table"]["watchers"] == crowd)
            assert told["table"]["watchers"] == crowd
            time.sleep(WATCHERS_SECONDS + 0.5)  # anything still due has been sent by now
            ana.send({"v": 1, "type": "ping"})
            ana.until(lambda m: m["type"] == "pong")
            tables = [m for m in ana.received if m["type"] == "table"]
            assert len(tables) <= 1 + round(crowd / 10), [m["table"]["watchers"] for m in tables]
            # a move: one state for every socket; the spectators' messages are one object, made once
            mover = ana if start["legal"] else beto
            before = len(spy.sent)
            made_for: list[int | None] = []
            make = Version1._message

            def counted(state: dict[str, Any], events: list[Any]) -> dict[str, Any]:
                made_for.append(state["seat"])
                return make(state, events)

            monkeypatch.setattr(Version1, "_message", staticmethod(counted))
            mover.play_turn()
            for w in watchers:
                w.until(lambda m: m["type"] == "state" and m["state"] > start["state"])
            sent = [s for s in spy.sent[before:] if s.message["type"] == "state" and s.seat is None]
            assert len(sent) == crowd and len({json.dumps(s.message) for s in sent}) == 1
            assert sorted(made_for, key=str)[:3] == [0, 1, None] and made_for.count(None) == 1
            monkeypatch.setattr(Version1, "_message", staticmethod(make))
            for w in watchers:
                w.close()
            gone = ana.until(lambda m: m["type"] == "table" and m["table"]["watchers"] == 0)
            assert gone["table"]["watchers"] == 0
        check_all(spy)
