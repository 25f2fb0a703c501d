"""The table's authority (server/authority/, issue 16): what each audience sees, and the one rematch rule.

- :mod:`cuarenta.server.authority.audience` (through version 1's ``state`` as the edge makes it from a
  snapshot, :mod:`cuarenta.server.edge.version1`) is checked directly over many random games: every message of
  every audience (each seat, a spectator, a socket that joins late) against the cards hidden from it at
  that moment, and every seat list against the secrets of the seats;
- the rematch rule is one rule: a table whose last holdout closes the page starts the mesa the people
  present asked for (docs/tables.md: "an away person does not block the others"), over real sockets.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from cuarenta import Game, Rules
from cuarenta.server.authority import audience
from cuarenta.server.authority.messages import table_message
from cuarenta.server.authority.model import Connection, Room, Seat, TableOptions, mesa_seed
from cuarenta.server.authority.ports import hash_token
from cuarenta.server.authority.wire import sockets as wire
from cuarenta.server.authority.wire.messages import SharedMessage
from cuarenta.server.edge.version1 import SocketConnection, Version1
from support.app import running
from support.examples import examples, full_run
from support.spy import Spy, check_all, install_spy
from support.tables import Seat as Browser
from support.tables import new_table, play_out, take_seat
from support.version1 import state_for as v1_state

CARD = re.compile(r"\b(?:[2-7JQK]|A)[hdsc]\b")


def leaks(message: dict[str, Any], hidden: frozenset[str]) -> list[str]:
    """The hidden cards a message names (the events before the current hand's first deal, when a message
    spans the end of a hand, name cards of an earlier deal: tests/test_server.py's rule)."""
    message = dict(message)  # (a shallow copy: only its keys change)
    message.pop("room", None)
    events = message.get("events", [])
    starts = [i for i, e in enumerate(events) if e.get("kind") == "deal" and e.get("deal") == 0]
    if starts:
        message["events"] = events[starts[-1] :]
    text = json.dumps(message, ensure_ascii=False)
    return sorted(c for c in hidden if c in text)


def a_room(seed: int, players: int, table: bool) -> Room:
    rules = Rules.preset("a_todo_rigor", players=players)
    seats = [Seat(0, "person", "Ana", None, hash_token("secret-0"), "profile-0")]
    for s in range(1, players):
        if table and s % 2:
            seats.append(Seat(s, "person", f"P{s}", None, hash_token(f"secret-{s}"), f"profile-{s}"))
        else:
            seats.append(Seat(s, "computer", "", "normal"))
    options = TableOptions(invite="the-invite-code", grace=30.0) if table else None
    return Room(
        id="room",
        created="2026-12-02T00:00:00Z",
        level="normal",
        rules=rules,
        seed=seed,
        seats=seats,
        mesa=1,
        game=Game.new(rules, mesa_seed(seed, 1)),
        table=options,
    )


def check_message(room: Room, conn: Connection, message: dict[str, Any]) -> None:
    seat = conn.seat
    hidden = audience.hidden_cards(room.game, seat)
    assert not leaks(message, hidden), (seat, leaks(message, hidden))
    text = json.dumps(message)
    if not room.game.is_over:
        assert str(mesa_seed(room.seed, room.mesa)) not in text and f"/{room.seed}/" not in text
    for secret in ("secret-", "profile-", "the-invite-code", *(s.token_hash or "-" for s in room.seats)):
        assert secret not in text, f"{secret!r} sent to seat {seat}"
    view = message["view"]
    assert message["seat"] == seat == view["seat"]
    if seat is None:
        assert view["hand"] == [] and message["legal"] == [] and message["hints"] == []
    visible = set(view["hand"]) | set(view["table"])
    for move in message["legal"]:
        assert set(CARD.findall(move)) <= visible
    assert {h["card"] for h in message["hints"]} <= set(view["hand"])


@settings(max_examples=examples(25), deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**40),
    players=st.sampled_from([2, 4]),
    table=st.booleans(),
    late=st.integers(min_value=0, max_value=200),
)
def test_every_audience_is_sent_only_what_it_may_see(seed: int, players: int, table: bool, late: int) -> None:
    """A whole mesa played at random: after every action, each seat's socket, a spectator's (at a table)
    and a socket joining late with nothing shown yet are sent their state; none names a hidden card, a
    seed before the mesa ends, a token, a profile or the invite code."""
    room = a_room(seed, players, table)
    audiences: list[int | None] = [*range(players), *([None] if table else [])]
    conns = {a: Connection() for a in audiences}
    for a, conn in conns.items():
        conn.seat, conn.dealt = a, room.dealt
    rng = random.Random(seed)
    step = 0
    stride = 1 if full_run() else 5  # the quick loop: every fifth position, the late join and the last
    while True:
        if step % stride == 0 or room.game.is_over:
            for conn in conns.values():
                check_message(room, conn, v1_state(room, conn))
        if step == late:  # a socket that joins now, with nothing shown yet: every event of the mesa
            fresh = Connection()
            fresh.seat = rng.choice(audiences)
            check_message(room, fresh, v1_state(room, fresh))
        seats = json.dumps(audience.public_seats(room)) + json.dumps(audience.table_info(room))
        assert "secret" not in seats and "profile" not in seats and "the-invite-code" not in seats
        if room.game.is_over:
            break
        room.game.play(rng.choice(room.game.legal_moves()))
        room.state += 1
        step += 1


def test_one_message_per_seat_however_many_sockets_hold_it() -> None:
    """Two sockets of one seat and two spectators with the same events are sent one message each, made
    once: version 2's public part is built once, each seat's private part once, the spectators share one
    frame; version 1's ``state`` made from them is made once per audience too."""
    room = a_room(11, 2, table=True)
    for version in (2, 1):
        sockets = [SocketConnection() for _ in range(4)]
        for conn, seat in zip(sockets, [0, 0, None, None], strict=True):
            conn.room, conn.seat = room, seat
            conn.version1 = Version1() if version == 1 else None
            room.connections.add(conn)
            wire.first_message(room, conn, None, True)
            conn.queue.get_nowait()
        told = SharedMessage(  # the table's seats and spectators, as the authority tells them (_tell_table)
            table_message(
                room=room.id,
                status=room.status,
                seats=audience.public_seats(room),
                table=audience.table_info(room) or {},
            )
        )
        for conn in sockets:
            conn.send(told)
            conn.queue.get_nowait()
        room.game.play(room.game.legal_moves()[0])
        room.state += 1
        wire.broadcast(room)
        sent = [conn.queue.get_nowait() for conn in sockets]
        if version == 2:
            assert sent[0].text == sent[1].text and sent[2] is sent[3]
        else:
            assert sent[0]["type"] == "state" and sent[0]["state"] == room.state
            assert sent[0] is sent[1] and sent[2] is sent[3] and sent[0] is not sent[2]
        for conn in sockets:
            room.connections.discard(conn)


def test_an_away_holdout_does_not_block_a_rematch_the_others_asked_for(
    tmp_path: Path, monkeypatch: Any
) -> None:
    """Ana asks for another mesa; Beto closes the page without answering: the mesa starts for Ana (a
    rematch needs every *connected* person's agreement). Before issue 16 the rule was asked only when a
    vote came, so the table waited for Beto, who was not there."""
    spy: Spy = install_spy(monkeypatch)
    with running(tmp_path) as client:
        made = new_table(client, players=2, rules={"preset": "basico"}, seats=["friend"], grace=600)
        joined = take_seat(client, made)
        with Browser(client, spy) as ana:
            with Browser(client, spy) as beto:
                start = ana.join(made["room"], made["token"])
                beto.join(made["room"], joined["token"])
                play_out([ana, beto], start["state"])
                ana.send({"v": 1, "type": "rematch"})
                beto.until(lambda m: m["type"] == "table" and m["table"]["rematch"] == [0])
            # Beto's socket closed: either the new mesa comes, or the table only says he is away
            seen = ana.until(
                lambda m: (
                    (m["type"] == "state" and m["mesa"] == 2)
                    or (m["type"] == "table" and not m["seats"][1]["connected"])
                )
            )
            assert seen["type"] == "state", f"the table waited for Beto, who is away: {seen}"
            assert seen["status"] == "playing" and seen["table"]["rematch"] == []
            assert not seen["seats"][1]["connected"]
    check_all(spy)


def test_every_refusal_of_a_table_request_has_an_http_status() -> None:
    """The authority refuses with codes only; the edge's one table (server/edge/statuses.py) gives each code
    an HTTP status, and the wire's codes (docs/protocol.md) cover those a socket can be sent."""
    from cuarenta.server.authority.errors import TABLE_CODES
    from cuarenta.server.edge.statuses import STATUS
    from cuarenta.server.protocol import ERROR_CODES

    authority = Path(__file__).resolve().parents[1] / "src/cuarenta/server/authority"
    source = "\n".join(p.read_text() for p in sorted(authority.rglob("*.py")))  # core and its collaborators
    raised = set(re.findall(r'(?:TableError|RoomProblem)\(\s*"(\w+)"', source))
    assert {"bad_token", "judge_runs_table", "paused", "stale"} <= raised  # the search finds them
    assert raised <= set(STATUS) | set(ERROR_CODES), raised - set(STATUS) - set(ERROR_CODES)
    assert set(TABLE_CODES) <= set(STATUS)  # every HTTP refusal of a table maps to a status
