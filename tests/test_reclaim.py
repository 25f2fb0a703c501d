"""Taking a seat back from another device, and the creator handing an away person's seat to someone new
(docs/tables.md "Taking a seat back"), over the real app: the seat code is given to its holder only and
stored as a hash; it takes the seat back with a new token (the old one is told so and closed); wrong or
malformed codes change nothing; guesses are rate-limited; it survives a restart; the creator alone hands
over a seat, only an away person's, never at a rated table; someone new takes it in the middle of a game.

Every message the server queues is checked by the spy (tests/support/spy.py) against the cards hidden from
its socket's seat, and searched for every seat code.
"""

from __future__ import annotations

import logging
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from cuarenta.server.authority.codes import hash_code
from cuarenta.server.edge.deps import RECLAIMS_BURST, RECLAIMS_PER_TABLE_BURST
from cuarenta.server.edge.ratelimits import GuessLimiter, GuessLimits
from support.app import bearer, running
from support.sockets import Socket
from support.spy import Spy, check_all
from support.tables import Seat, new_table, room_of, take_seat

CODE = re.compile(r"^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$")


def reclaim(client: TestClient, made: dict[str, Any], code: str, invite: str | None = None) -> Any:
    return client.post(
        f"/api/tables/{made['room']}/reclaim", json={"invite": invite or made["invite"], "code": code}
    )


def seat_rows(path: Path, room: str) -> list[tuple[Any, ...]]:
    with sqlite3.connect(path / "cuarenta.sqlite3") as db:
        return db.execute("SELECT * FROM seats WHERE room = ? ORDER BY seat", (room,)).fetchall()


def started_pair(client: TestClient, spy: Spy) -> tuple[dict[str, Any], dict[str, Any], Seat, Seat]:
    """A 2-seat table of Ana (the creator) and Beto, both connected, playing."""
    made = new_table(client, players=2, seats=["friend"])
    joined = take_seat(client, made)
    ana, beto = Seat(client, spy), Seat(client, spy)
    ana.join(made["room"], made["token"])
    beto.join(made["room"], joined["token"])
    ana.until(lambda m: m["type"] == "table" and m["seats"][1]["connected"])
    return made, joined, ana, beto


def advance(client: TestClient, room_id: str, people: dict[int, Seat], watcher: Seat, moves: int) -> None:
    """Play until the table has gone ``moves`` states on: each person's turn by that person, the
    others' by the computer (``watcher`` reads the states meanwhile)."""
    room = room_of(client, room_id)
    target = room.state + moves
    while room.state < target and not room.game.is_over:
        now, turn = room.state, room.game.turn
        if turn in people:
            people[turn].play_turn()
        else:
            watcher.until(lambda m, now=now: m["type"] == "state" and m["state"] > now)


# -- the code: given to its holder only ---------------------------------------------------------------------
def test_every_person_gets_a_code_that_no_other_socket_log_or_column_ever_holds(
    tmp_path: Path, spy: Spy, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    with running(tmp_path) as client:
        made = new_table(client, players=4, seats=["friend", "friend", "normal"])
        beto = take_seat(client, made, "Beto")
        cata = take_seat(client, made, "Cata")
        codes = [made["code"], beto["code"], cata["code"]]
        assert all(CODE.match(c) for c in codes) and len(set(codes)) == 3
        with Seat(client, spy) as a, Seat(client, spy) as b, Seat(client, spy) as c, Seat(client, spy) as w:
            start = a.join(made["room"], made["token"])
            b.join(made["room"], beto["token"])
            c.join(made["room"], cata["token"])
            w.send({"v": 1, "type": "watch", "room": made["room"]})
            w.until(lambda m: m["type"] == "state")
            advance(client, made["room"], {0: a, 1: b, 2: c}, w, 8)  # a few turns each
            assert start["status"] == "playing"
            # the public facts and each seat's own facts: never a code
            texts = [client.get(f"/api/tables/{made['room']}").text]
            texts += [
                client.get(f"/api/tables/{made['room']}", headers=bearer(x["token"])).text
                for x in (made, beto, cata)
            ]
            texts += [client.get(f"/api/rooms/{made['room']}", headers=bearer(made["token"])).text]
        sent = [str(s.message) for s in spy.sent]
        assert len(sent) > 20
        logged = [r.getMessage() for r in caplog.records]
        for code in codes:
            for form in (code, code.replace("-", "")):
                assert not any(form in text for text in sent + texts + logged), form
        # the store keeps the hash only
        rows = seat_rows(tmp_path, made["room"])
        assert not any(code in str(rows) or code.replace("-", "") in str(rows) for code in codes)
        with running(tmp_path) as again:
            stored = room_of(again, made["room"])
            assert [s.code_hash for s in stored.seats[:3]] == [hash_code(made["room"], c) for c in codes]
            assert stored.seats[3].code_hash is None  # a computer has no code
        check_all(spy)


# -- taking the seat back ------------------------------------------------------------------------------------
def test_the_code_takes_the_seat_back_with_a_new_token_and_the_old_device_is_told_and_closed(
    tmp_path: Path, spy: Spy
) -> None:
    with running(tmp_path) as client:
        made, joined, ana, beto = started_pair(client, spy)
        room = room_of(client, made["room"])
        hand = sorted(str(c) for c in room.game.hand(1))
        back = reclaim(client, made, joined["code"].lower().replace("-", " "))  # typed loosely
        assert back.status_code == 200, back.text
        answer = back.json()
        assert answer["room"] == made["room"] and answer["seat"] == 1
        assert answer["token"] != joined["token"] and CODE.match(answer["code"])
        assert answer["code"] != joined["code"]
        # the old device: told why, then its socket is closed
        told = beto.until(lambda m: m["type"] == "error")
        assert told["code"] == "seat_reclaimed" and "another device" in told["message"]
        assert told["v"] == 1  # in the socket's own version
        with pytest.raises(WebSocketDisconnect):
            beto.until(lambda m: False, limit=5)
        beto.close()
        # the old token and the old code are refused from now on
        with Seat(client, spy) as old:
            assert old.join(made["room"], joined["token"])["code"] == "seat_reclaimed"
        for url in (f"/api/tables/{made['room']}", f"/api/rooms/{made['room']}"):
            refused = client.get(url, headers=bearer(joined["token"]))
            assert refused.status_code == 410 and refused.json()["code"] == "seat_reclaimed"
        assert reclaim(client, made, joined["code"]).json()["code"] == "wrong_code"
        # the new browser plays on as Beto: the same seat, name and hand
        with Seat(client, spy) as phone:
            state = phone.join(made["room"], answer["token"])
            assert state["seat"] == 1 and state["seats"][1]["name"] == "Beto"
            assert sorted(state["view"]["hand"]) == hand
            ana.until(lambda m: m["type"] == "table" and m["seats"][1]["connected"])
            advance(client, made["room"], {0: ana, 1: phone}, ana, 4)
        ana.close()
        check_all(spy)


def test_a_version_2_socket_is_told_its_seat_was_taken_back_in_version_2(tmp_path: Path, spy: Spy) -> None:
    """The authority tells a replaced socket why in the protocol it speaks (it once labelled this one
    frame ``"v": 1`` for every socket)."""
    with running(tmp_path) as client:
        made, joined, ana, beto = started_pair(client, spy)
        beto.close()
        tablet = Socket(client, 2)  # asserts that every frame it receives is labelled version 2
        try:
            tablet.send({"type": "join", "room": made["room"], "token": joined["token"]})
            assert tablet.until(lambda m: m["type"] == "snapshot")["seat"] == 1
            assert reclaim(client, made, joined["code"]).status_code == 200
            told = tablet.until(lambda m: m["type"] == "error")
            assert (
                told
                == {
                    "v": 2,
                    "type": "error",
                    "code": "seat_reclaimed",
                    "message": told["message"],
                }
                and "another device" in told["message"]
            )
        finally:
            tablet.close()
        ana.close()


def test_a_wrong_or_malformed_code_or_invite_is_refused_clearly_and_changes_nothing(
    tmp_path: Path, spy: Spy
) -> None:
    with running(tmp_path) as client:
        made, joined, ana, beto = started_pair(client, spy)
        before = seat_rows(tmp_path, made["room"])
        version = room_of(client, made["room"]).version
        wrong = "ZZZZ-ZZZZ" if joined["code"] != "ZZZZ-ZZZZ" else "YYYY-YYYY"
        cases = [
            (reclaim(client, made, wrong), 403, "wrong_code"),
            (reclaim(client, made, "K7QX-2M9"), 400, "bad_code"),  # seven characters
            (reclaim(client, made, "K7QX-2M9U"), 400, "bad_code"),  # U is no code's
            (reclaim(client, made, joined["code"], invite="not-the-invite"), 403, "bad_invite"),
        ]
        for answer, status, code in cases:
            assert answer.status_code == status, answer.text
            assert answer.json()["code"] == code and answer.json()["detail"]
            assert "token" not in answer.json()
        assert seat_rows(tmp_path, made["room"]) == before
        assert room_of(client, made["room"]).version == version
        advance(client, made["room"], {0: ana, 1: beto}, ana, 2)  # both still play
        assert client.get(f"/api/tables/{made['room']}", headers=bearer(joined["token"])).status_code == 200
        ana.close()
        beto.close()
        check_all(spy)


def test_guessing_codes_is_rate_limited_even_for_the_right_code(tmp_path: Path, spy: Spy) -> None:
    with running(tmp_path) as client:
        made = new_table(client, players=2, seats=["friend"])
        joined = take_seat(client, made)
        wrong = "ZZZZ-ZZZZ" if joined["code"] != "ZZZZ-ZZZZ" else "YYYY-YYYY"
        for _ in range(RECLAIMS_BURST):
            assert reclaim(client, made, wrong).status_code == 403
        limited = reclaim(client, made, joined["code"])
        assert limited.status_code == 429 and int(limited.headers["Retry-After"]) >= 1
        assert "too many tries" in limited.json()["detail"]
        # nothing was taken: Beto's token still holds the seat
        assert client.get(f"/api/tables/{made['room']}", headers=bearer(joined["token"])).status_code == 200


def test_wrong_codes_from_many_addresses_do_not_lock_the_owner_out(tmp_path: Path, spy: Spy) -> None:
    """Issue 25: five addresses holding the invite link sent 25 wrong codes a minute, and the owner, with
    the right code, got 429 for as long as they went on (every try counted at the table, right or wrong).
    Now only wrong codes count, and a table guessed at from many addresses still answers an address that
    has not guessed there: each guesser is throttled, the owner takes the seat back."""
    with running(tmp_path) as client:
        made = new_table(client, players=2, seats=["friend"])
        joined = take_seat(client, made)
        wrong = "ZZZZ-ZZZZ" if joined["code"] != "ZZZZ-ZZZZ" else "YYYY-YYYY"
        app = client.app
        guessers = [TestClient(app, client=(f"198.51.100.{i}", 4000 + i)) for i in range(1, 6)]
        answers: dict[int, list[int]] = {i: [] for i in range(len(guessers))}
        for _ in range(RECLAIMS_BURST + 1):  # in turns, as five people would
            for i, guesser in enumerate(guessers):
                answer = reclaim(guesser, made, wrong)
                answers[i].append(answer.status_code)
                if answer.status_code == 429:
                    assert int(answer.headers["Retry-After"]) >= 1
        # the owner, on a phone of their own, takes the seat back while they go on
        owner = TestClient(app, client=("203.0.113.9", 4100))
        back = reclaim(owner, made, joined["code"])
        assert back.status_code == 200, back.text
        assert back.json()["seat"] == 1
        assert sum(a.count(403) for a in answers.values()) > RECLAIMS_PER_TABLE_BURST  # past the table's
        # every guesser is throttled: its next wrong code (and its next right one) is not looked at
        assert all(a[-1] == 429 for a in answers.values()), answers
        assert reclaim(guessers[0], made, back.json()["code"]).status_code == 429
        old = client.get(f"/api/tables/{made['room']}", headers=bearer(joined["token"]))
        assert old.status_code == 410 and old.json()["code"] == "seat_reclaimed"
        assert (
            client.get(f"/api/tables/{made['room']}", headers=bearer(back.json()["token"])).status_code == 200
        )
        check_all(spy)


def test_a_right_code_spends_no_try(tmp_path: Path, spy: Spy) -> None:
    """The owner going back and forth between two devices is never throttled: only wrong codes count."""
    with running(tmp_path) as client:
        made = new_table(client, players=2, seats=["friend"])
        code = take_seat(client, made)["code"]
        for _ in range(2 * RECLAIMS_BURST):
            answer = reclaim(client, made, code)
            assert answer.status_code == 200, answer.text
            code = answer.json()["code"]
        check_all(spy)


@pytest.mark.slow  # 288,000 guesses simulated
def test_a_table_answers_a_bounded_number_of_wrong_codes_whatever_the_addresses() -> None:
    """The arithmetic of docs/tables.md "Taking a seat back": two hours of guesses from 400 addresses,
    each trying every 10 s, are answered at most GuessLimits.most_guesses(120) times; with fewer
    addresses than ``guarded_addresses`` the owner's address is answered all along."""
    now = [0.0]
    limits = GuessLimits()
    for many in (400, limits.guarded_addresses - 1):
        guesses, answered, owner_refused = GuessLimiter(limits, clock=lambda: now[0]), 0, 0
        addresses = [f"10.{i // 250}.{i % 250}.1" for i in range(many)]
        for step in range(12 * 60):  # 10 s a step
            now[0] = step * 10.0
            for address in addresses:
                ticket = guesses.take("t", address)
                if ticket is not None:
                    ticket.wrong()
                    answered += 1
            ticket = guesses.take("t", "192.0.2.77")  # the owner, typing the right code
            if ticket is None:
                owner_refused += 1
            else:
                ticket.right()
        assert answered <= limits.most_guesses(120), (many, answered)
        if many < limits.guarded_addresses:
            assert owner_refused == 0
    # the odds of docs/tables.md: a day of guessing at a 4-seat table, 40-bit codes
    assert limits.most_guesses(24 * 60) * 4 / 2**40 < 2e-7


def test_a_code_and_the_replaced_token_survive_a_restart(tmp_path: Path, spy: Spy) -> None:
    with running(tmp_path) as client:
        made = new_table(client, players=2, seats=["friend"])
        joined = take_seat(client, made)
    with running(tmp_path) as client:  # a new server process on the same database
        answer = reclaim(client, made, joined["code"])
        assert answer.status_code == 200, answer.text
        taken = answer.json()
    with running(tmp_path) as client:
        assert client.get(f"/api/tables/{made['room']}", headers=bearer(taken["token"])).status_code == 200
        old = client.get(f"/api/tables/{made['room']}", headers=bearer(joined["token"]))
        assert old.status_code == 410 and old.json()["code"] == "seat_reclaimed"
        with Seat(client, spy) as phone:
            assert phone.join(made["room"], taken["token"])["seat"] == 1
        assert reclaim(client, made, taken["code"]).status_code == 200  # the new code, after a restart
        check_all(spy)


def test_a_seat_without_a_code_may_ask_for_one(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        made = new_table(client, players=2, seats=["friend"])
        joined = take_seat(client, made)
        url = f"/api/tables/{made['room']}/code"
        assert client.post(url).status_code == 401
        assert client.post(url, headers=bearer("nope")).status_code == 403
        fresh = client.post(url, headers=bearer(joined["token"]))
        assert fresh.status_code == 200 and set(fresh.json()) == {"room", "seat", "code"}
        assert fresh.json()["seat"] == 1 and fresh.json()["code"] != joined["code"]
        assert reclaim(client, made, joined["code"]).json()["code"] == "wrong_code"  # the old one is gone
        assert reclaim(client, made, fresh.json()["code"]).json()["seat"] == 1


# -- handing a seat over -------------------------------------------------------------------------------------
def test_the_creator_alone_hands_over_an_away_persons_seat_and_someone_new_takes_it_mid_game(
    tmp_path: Path, spy: Spy
) -> None:
    with running(tmp_path) as client:
        waits = new_table(client, players=4, seats=["friend", "friend", "normal"])
        take_seat(client, waits)
        waiting = client.post(f"/api/tables/{waits['room']}/seats/1/handover", headers=bearer(waits["token"]))
        assert waiting.status_code == 409 and waiting.json()["code"] == "not_started"
        made = new_table(client, players=4, seats=["friend", "friend", "normal"], grace=0)
        beto = take_seat(client, made, "Beto")
        cata = take_seat(client, made, "Cata")
        url = f"/api/tables/{made['room']}/seats/1/handover"
        with Seat(client, spy) as a, Seat(client, spy) as c:
            a.join(made["room"], made["token"])
            c.join(made["room"], cata["token"])
            b = Seat(client, spy)
            b.join(made["room"], beto["token"])
            here = client.post(url, headers=bearer(made["token"]))
            assert here.status_code == 409 and here.json()["code"] == "seat_not_away"  # Beto is connected
            b.close()  # Beto's phone dies
            a.until(lambda m: m["type"] == "table" and not m["seats"][1]["connected"])
            before = seat_rows(tmp_path, made["room"])
            refusals = [
                (client.post(url, headers=bearer(cata["token"])), 403, "not_creator"),
                (client.post(url, headers=bearer("not-a-token")), 403, "bad_token"),
                (client.post(url.replace("/1/", "/0/"), headers=bearer(made["token"])), 409, "not_a_person"),
                (client.post(url.replace("/1/", "/3/"), headers=bearer(made["token"])), 409, "not_a_person"),
                (client.post(url.replace("/1/", "/2/"), headers=bearer(made["token"])), 409, "seat_not_away"),
            ]
            for answer, status, code in refusals:
                assert answer.status_code == status, answer.text
                assert answer.json()["code"] == code
            assert seat_rows(tmp_path, made["room"]) == before
            given = client.post(url, headers=bearer(made["token"]))
            assert given.status_code == 200, given.text
            seat = given.json()["seats"][1]
            assert seat["kind"] == "computer" and seat["vacant"] and seat["name"] == "Beto"
            told = a.until(lambda m: m["type"] == "table" and m["seats"][1].get("vacant"))
            assert told["seats"][1]["name"] == "Beto"
            # Beto's token and code open nothing now, and say why
            old = client.get(f"/api/tables/{made['room']}", headers=bearer(beto["token"]))
            assert old.status_code == 410 and old.json()["code"] == "seat_given"
            assert reclaim(client, made, beto["code"]).json()["code"] == "wrong_code"
            # the computer plays the seat: the game goes on with the two people
            room = room_of(client, made["room"])
            start = room.state
            advance(client, made["room"], {0: a, 2: c}, a, 6)
            assert room.seats[1].kind == "computer" and room.state >= start + 6
            # someone new takes it with the invite, in the middle of the game, with a name
            public = client.get(f"/api/tables/{made['room']}").json()
            assert public["status"] == "playing" and public["seats"][1]["vacant"]
            # not under a name the table has (the computer's, or a person's in other letters): nobody is
            # renamed in the middle of a mesa, and no log line could mean two seats
            before = seat_rows(tmp_path, made["room"])
            for taken in (public["seats"][3]["name"], " cata "):
                same = client.post(
                    f"/api/tables/{made['room']}/join", json={"invite": made["invite"], "name": taken}
                )
                assert same.status_code == 409 and same.json()["code"] == "name_taken", same.text
            assert seat_rows(tmp_path, made["room"]) == before
            dani = take_seat(client, made, "Dani")
            assert dani["seat"] == 1 and CODE.match(dani["code"])
            full = client.post(
                f"/api/tables/{made['room']}/join", json={"invite": made["invite"], "name": "Eva"}
            )
            assert full.status_code == 409 and full.json()["code"] == "table_full"
            with Seat(client, spy) as d:
                state = d.join(made["room"], dani["token"])
                room = room_of(client, made["room"])
                assert state["seat"] == 1 and state["seats"][1]["name"] == "Dani"
                assert sorted(state["view"]["hand"]) == sorted(str(x) for x in room.game.hand(1))
                assert not room.seats[1].stand_in and room.seats[1].kind == "person"
                a.until(lambda m: m["type"] == "table" and m["seats"][1]["connected"])
                advance(client, made["room"], {0: a, 1: d, 2: c}, a, 4)
            # the old token is still told its seat was given away
            with Seat(client, spy) as old_phone:
                assert old_phone.join(made["room"], beto["token"])["code"] == "seat_given"
        check_all(spy)


def test_a_rated_tables_seat_is_never_handed_over(tmp_path: Path, spy: Spy) -> None:
    with running(tmp_path) as client:
        profiles = [client.post("/api/profiles", json={"name": n}).json() for n in ("Ana", "Beto")]
        ana, beto = ({"id": p["id"], "key": p["key"]} for p in profiles)
        made = new_table(
            client, players=2, rules={"preset": "basico"}, seats=["friend"], rated=True, profile=ana
        )
        joined = take_seat(client, made, profile=beto)
        with Seat(client, spy) as a:
            a.join(made["room"], made["token"])
            refused = client.post(
                f"/api/tables/{made['room']}/seats/1/handover", headers=bearer(made["token"])
            )
            assert refused.status_code == 409 and refused.json()["code"] == "rated_table"
            assert "rated" in refused.json()["detail"]
        assert client.get(f"/api/tables/{made['room']}", headers=bearer(joined["token"])).status_code == 200
        check_all(spy)
