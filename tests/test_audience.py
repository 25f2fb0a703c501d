"""What each audience may see, checked on :mod:`cuarenta.server.authority.audience`'s functions directly.

Over whole random mesas (2 and 4 seats, rooms and tables): after every action, each seat's view and
private part, its partner's, a spectator's, the public parts every socket shares and what the stored
history and the listings keep are checked against the cards hidden from that audience at that moment
(:func:`audience.hidden_cards`), the seeds, the tokens, the profiles and the invite code. Version 1's
``state`` and version 2's snapshot, made from these, are checked over sockets by tests/test_authority.py,
tests/test_wire.py and tests/test_server.py's spy.
"""

from __future__ import annotations

import itertools
import json
import random
import re
from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from cuarenta import Game
from cuarenta.server.authority import audience
from cuarenta.server.authority.model import Room, Seat, mesa_seed
from cuarenta.server.authority.wire.events import snapshot
from cuarenta.server.authority.wire.messages import encode
from support.examples import examples, full_run
from support.rooms import a_room

CARD = re.compile(r"\b(?:[2-7JQK]|A)[hdsc]\b")
SECRETS = ("secret-", "profile-", "the-invite-code")


def check(room: Room, seat: int | None, data: Any) -> None:
    """``data`` (told to ``seat``; ``None``: a spectator) names no hidden card, no seed before the mesa
    ends, no token, token hash, profile or invite code. The events before the current hand's first deal
    are left out of a list of events (they tell a hand whose cards are all played, or the dealer draw)."""
    if isinstance(data, str):  # an encoded message of the wire (msgspec reads it as json does, faster)
        data = msgspec.json.decode(data)
    if isinstance(data, dict) and isinstance(data.get("events"), list):
        events = data["events"]
        starts = [i for i, e in enumerate(events) if e.get("kind") == "deal" and e.get("deal") == 0]
        data = {**data, "events": events[starts[-1] :] if starts else events}
    text = msgspec.json.encode(data).decode()
    hidden = audience.hidden_cards(room.game, seat if room.started else None)
    leaked = sorted(hidden & set(CARD.findall(text)))
    assert not leaked, (seat, leaked, text[:300])
    if not room.game.is_over:
        assert str(mesa_seed(room.seed, room.mesa)) not in text
    for secret in (*SECRETS, *(s.token_hash or "-" for s in room.seats)):
        assert secret not in text, (secret, seat)


def check_everything(room: Room) -> None:
    players = room.players
    public, _ = audience.public_view(room)
    check(room, None, public)
    check(room, None, audience.public_top(room))
    check(room, None, audience.public_seats(room))
    check(room, None, audience.finished_seats(room))
    check(room, None, audience.table_info(room))
    history = audience.seat_view(room, None)["history"]
    check(room, None, {"events": history})
    check(room, None, audience.seat_view(room, None))
    check(room, None, encode(snapshot(room, None, 0, hints=False)))
    for seat in range(players):
        view = audience.seat_view(room, seat)
        assert "hand" not in view and view["seat"] == seat
        check(room, seat, view)
        private = audience.private_part(room, seat, hints=True, hand=True)
        check(room, seat, encode(private))
        assert private.hand == ([str(c) for c in room.game.hand(seat)] if room.started else [])
        if private.legal:
            assert room.game.turn == seat and room.started
        check(room, seat, encode(snapshot(room, seat, 0, hints=True)))
        if players == 4:  # a partner's hand is hidden from its partner like any other
            partner = (seat + 2) % 4
            assert {str(c) for c in room.game.hand(partner)} <= audience.hidden_cards(room.game, seat)


@settings(max_examples=examples(10), deadline=None)  # a whole mesa each, every position in CI
@given(
    seed=st.integers(min_value=0, max_value=2**40),
    players=st.sampled_from([2, 4]),
    table=st.booleans(),
)
def test_every_audience_sees_only_what_it_may(seed: int, players: int, table: bool) -> None:
    """Every position of the mesa in CI; in the quick loop every fifth and the last (a mesa of four seats
    is hundreds of plies, and each check encodes the whole history for every audience)."""
    room = a_room(seed, players, table)
    rng = random.Random(seed)
    stride = 1 if full_run() else 5
    for ply in itertools.count():
        if ply % stride == 0 or room.game.is_over:
            check_everything(room)
        if room.game.is_over:
            break
        room.game.play(rng.choice(room.game.legal_moves()))
        room.state += 1


def test_a_waiting_table_shows_no_hand_and_offers_no_move() -> None:
    room = a_room(5, 4, table=True, started=False)
    for seat in range(4):
        private = audience.private_part(room, seat, hints=True, hand=True)
        assert private.hand == [] and private.legal == [] and private.hints == []
    check_everything(room)


def test_what_everyone_knows_of_a_seat_and_a_table() -> None:
    person = Seat(0, "person", "Ana", None, "hash", "profile", code_hash="code")
    assert audience.seat_public(person) == {"seat": 0, "kind": "person", "name": "Ana"}
    left = Seat(1, "computer", "Beto", "facil", "hash", left=True)
    room = a_room(3, 2, table=True)
    room.seats[1] = left
    seats = audience.public_seats(room)
    assert seats[1] == {
        "seat": 1,
        "kind": "computer",
        "level": "facil",
        "name": "Beto",
        "team": 1,
        "left": True,
    }
    assert all("hash" not in json.dumps(s) for s in seats)
    info = audience.table_info(room)
    assert info is not None and "invite" not in info and info["championship"] == "c1"
    assert info["paused"] is False and info["pause_reason"] is None
    assert audience.table_info(a_room(3, 2, table=False)) is None


def test_the_events_are_described_once_per_mesa() -> None:
    room = a_room(8, 2, table=False)
    first = audience.wired_events(room)
    room.game.play(room.game.legal_moves()[0])
    again = audience.wired_events(room)
    assert again is first and len(again) == len(room.game.events)
    room.mesa, room.game = 2, Game.new(room.rules, mesa_seed(room.seed, 2))
    fresh = audience.wired_events(room)
    assert fresh is not first and len(fresh) == len(room.game.events)


def test_the_check_finds_a_leak() -> None:
    room = a_room(2, 4, table=True)
    partner_hand = [str(c) for c in room.game.hand(2)]
    for leak in (
        {"hand": partner_hand},
        {"stock": [str(room.game.stock[0])]},
        {"id": room.seats[1].token_hash},
    ):
        try:
            check(room, 0, leak)
        except AssertionError:
            continue
        raise AssertionError(f"not found: {leak}")
