"""What each audience may see: the one module that decides it, as functions over a room's plain data.

The audiences of a table and what each is told (docs/protocol.md, docs/tables.md):

* **a seat** (a person, or the device's player): the public part (:func:`public_view`, :func:`seat_view`,
  :func:`public_top`, the events of :func:`wired_events`) and its own private part (:func:`private_part`:
  its hand, its legal moves and their marks on its turn, its hints when it asks) — never another hand,
  the stock or a seed;
* **a partner**: a seat like any other; a partner's hand is hidden from its partner too
  (:func:`hidden_cards` names every hand but the seat's own);
* **a spectator** (``seat`` ``None``): the public part alone, no hand at all;
* **a log line** (the stored history of a finished mesa, the listing of tables):
  :func:`finished_seats` and :func:`table_info` — never a token, a token's hash, a profile or the
  invite code;
* **the device** (the host in the browser, docs/architecture.md "The device host") runs the same
  authority, so its seat is told exactly what a seat is told here.

Every function reads the room and returns new data; none sends anything (the wire does:
:mod:`cuarenta.server.authority.wire.sockets`). Only :func:`wired_events` keeps what it made on the room
(``Room.described``), so that every socket's message shares the events described once.

:func:`hidden_cards` says which cards an audience may not see at a moment: the tests check every message
of every audience against it (tests/test_audience.py, tests/test_authority.py, and over real sockets
tests/test_server.py's spy).

>>> from cuarenta import Game, Rules
>>> game = Game.new(Rules(), seed=3)
>>> len(hidden_cards(game, 0)) == len(game.hand(1)) + len(game.stock)
True
>>> hidden_cards(game, None) >= hidden_cards(game, 0)
True
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, Final

from cuarenta.cards import RANK_CHARS
from cuarenta.players.hints import seat_hints
from cuarenta.server.authority.eventview import describe_moves, marks, view_fields, wire_event
from cuarenta.server.authority.wire.messages import Private

if TYPE_CHECKING:
    from cuarenta.game import Game
    from cuarenta.server.authority.model import Room, Seat, TableOptions
    from cuarenta.view import SeatView

#: The view's fields that are not public (each audience has its own), and ``history``, sent as events.
PER_AUDIENCE: Final = ("seat", "team", "hand", "history")


def hidden_cards(game: Game, seat: int | None) -> frozenset[str]:
    """Every card ``seat`` may not see now: the other seats' hands (a partner's too) and the stock (for
    a spectator, ``None``, every hand and the stock)."""
    cards = [c for s in range(game.players) if s != seat for c in game.hand(s)] + game.stock
    return frozenset(str(c) for c in cards)


def seat_public(seat: Seat) -> dict[str, Any]:
    """What every seat may know about one seat (docs/protocol.md ``seats``): never a token, its hash, a
    seat code or a profile.

    >>> from cuarenta.server.authority.model import Seat
    >>> seat_public(Seat(1, "person", "Ana", token_hash="h", profile="p"))
    {'seat': 1, 'kind': 'person', 'name': 'Ana'}
    >>> seat_public(Seat(2, "computer", level="facil"))
    {'seat': 2, 'kind': 'computer', 'level': 'facil'}
    """
    if seat.kind == "person":
        return {"seat": seat.seat, "kind": "person", "name": seat.name}
    if seat.kind == "open":
        return {"seat": seat.seat, "kind": "open"}
    out: dict[str, Any] = {"seat": seat.seat, "kind": "computer", "level": seat.level}
    if seat.name:  # the computer's name (computer_names), or the name of a person who left
        out["name"] = seat.name
    return out


def table_public(options: TableOptions) -> dict[str, Any]:
    """What everyone at a table may know of its options (never the invite code); a championship's table
    also says its championship and partida, whether its judge paused it (and why) and whether a restart
    replaced it.

    >>> from cuarenta.server.authority.model import TableOptions
    >>> "invite" in table_public(TableOptions(invite="secret"))
    False
    """
    out: dict[str, Any] = {
        "creator": options.creator,
        "level": options.level,
        "grace": options.grace,
        "clock": options.clock,
        "lobby": options.lobby,
        "rated": options.rated,
    }
    if options.championship is not None:
        out["championship"], out["partida"] = options.championship, options.partida
        out["paused"], out["pause_reason"] = options.paused, options.pause_reason if options.paused else None
        out["replaced"] = options.replaced
    return out


def public_seats(room: Room) -> list[dict[str, Any]]:
    """Every seat as everyone may see it (docs/protocol.md ``seats``); at a table, with each person's
    presence (docs/tables.md). Never a token, a token's hash or a profile."""
    seats = [seat_public(s) for s in room.seats]
    if room.table is None:
        return seats
    here = {c.seat for c in room.connections}  # the seats with a socket here (Room.connected, at once)
    remote = room.remote
    for s, out in zip(room.seats, seats, strict=True):
        out["team"] = s.seat % 2
        if s.kind == "person":
            out["connected"] = s.seat in here or remote.get(s.seat, 0) > 0
            out["away"] = None if s.away_until is None else int(s.away_until * 1000)
            out["stand_in"] = s.stand_in
            out["left"] = False
        elif s.left:
            out["name"] = s.name
            out["left"] = True
        elif s.vacant:  # handed over by the creator: the computer plays it until someone new takes it
            out["name"] = s.name
            out["vacant"] = True
    return seats


def finished_seats(room: Room) -> list[dict[str, Any]]:
    """The seats as the stored history of a finished mesa keeps them (public: anyone with a token of the
    room reads them)."""
    return public_seats(room)


def table_info(room: Room) -> dict[str, Any] | None:
    """The ``table`` field of a table's messages (docs/tables.md), or ``None`` for a room against the
    computer. Never the invite code."""
    if room.table is None:
        return None
    deadline = room.deadline
    running = deadline is not None and deadline[0] == room.state
    return {
        **table_public(room.table),
        "watchers": room.watchers(),
        "deadline": int(deadline[1] * 1000) if deadline is not None and running else None,
        "rematch": sorted(room.rematch),
    }


def wired_events(room: Room) -> list[dict[str, Any]]:
    """Every event of the room's current mesa as the wire has it (``to_dict()`` with its ``sayings`` and
    what :func:`~cuarenta.server.authority.eventview.wire_event` adds): public, each made once and kept on
    the room until the mesa changes, so that every socket's message shares them (copied shallowly)."""
    events = room.game.events
    if room.described_dealt != room.dealt or len(room.described) > len(events):
        room.described, room.described_dealt = [], room.dealt
    sayings = room.sayings.update(room.game)  # the keys of every event of the mesa, computed once each
    for i in range(len(room.described), len(events)):
        room.described.append(wire_event(room.game, i, sayings[i]))
    return room.described


def public_view(room: Room) -> tuple[dict[str, Any], int]:
    """The view's public fields (every seat's view has them alike, a spectator's too) and the length of
    its history (the current hand's events, sent as events)."""
    view = room.game.view(0)
    history = len(view.history)
    out = dataclasses.replace(view, history=(), hand=()).to_dict()
    out.update(view_fields(room.game))  # what the page shows and would otherwise work out (eventview)
    for key in PER_AUDIENCE:
        del out[key]
    return out, history


#: The kinds of event after which a change's public fields are read from its events
#: (:func:`fields_from_events`): a play or a claim, and what they score. Any other kind (a deal, the end
#: of a hand, of a chica or of the mesa) may change any field of the view: it is read whole then.
MOVE_KINDS: Final = frozenset({"play", "claim"})
SCORE_KINDS: Final = frozenset({"caida", "limpia", "caida_limpia"})
RONDA_KINDS: Final = frozenset({"ronda", "four_of_a_kind", "caida_ronda"})


def fields_from_events(game: Game, events: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The public fields of the view that ``events`` (a change's new events, wired: :func:`wired_events`)
    may have changed, with their values now as :func:`public_view` writes them; ``None`` when one of them
    may change any field (:data:`MOVE_KINDS` and the scoring kinds are followed).

    A play or a claim says the table, the card just dropped, the piles' and hands' sizes it left
    (its ``after``); the turn and what may be claimed are the game's; the piles' cards are read only when
    cards were taken, the scores only after a scoring event, the rondas only after a ronda's.

    >>> from cuarenta import Game, Rules
    >>> game = Game.new(Rules(), seed=3)
    >>> _ = game.play(game.legal_moves()[0])
    >>> draw, deal, play = (wire_event(game, i, []) for i in range(3))
    >>> sorted(fields_from_events(game, [play]))
    ['claimable', 'hand_sizes', 'last_drop', 'pile_sizes', 'table', 'turn']
    >>> fields_from_events(game, [deal]) is None
    True
    """
    out: dict[str, Any] = {}
    piles = scores = rondas = False
    for event in events:
        kind = event["kind"]
        if kind in MOVE_KINDS:
            out.update(event["after"])  # table, last_drop, pile_sizes, hand_sizes as the move left them
            piles = piles or kind == "claim" or bool(event["taken"])
        elif kind in SCORE_KINDS:
            scores = True
        elif kind in RONDA_KINDS:
            scores = rondas = True
        else:
            return None
    if out:
        out["turn"] = None if game.is_over else game.turn
        out["claimable"] = [[str(c) for c in option] for option in game.claimable]
    if piles:
        out["piles"] = [[str(c) for c in game.pile(team)] for team in (0, 1)]
    if scores:
        out["scores"] = list(game.score)
        out["score_marks"] = [marks(s) for s in game.score]
    if rondas:
        out["rondas"] = [{"seat": s, "rank": RANK_CHARS[r]} for s, r in game.rondas]
    return out


def seat_view(room: Room, seat: int | None, view: SeatView | None = None) -> dict[str, Any]:
    """The ``view`` of a snapshot for ``seat`` (``None``: a spectator): its seat and team, the public
    fields and the current hand's events as ``history`` — never a hand (a seat's own hand is in its
    private part). ``view`` is ``room.game.view(seat)`` if the caller has it."""
    game = room.game
    if view is None:
        view = game.view(0 if seat is None else seat)
    out = dataclasses.replace(view, history=(), hand=()).to_dict()
    del out["hand"]
    out.update(view_fields(game))  # what the page shows and would otherwise work out (eventview)
    wired = wired_events(room)
    history = len(view.history)
    out["history"] = [dict(event) for event in wired[len(game.events) - history :]]
    if seat is None:  # a spectator: everything of a view is public but the seat's own hand
        out.update(seat=None, team=None)
    return out


def public_top(room: Room) -> dict[str, Any]:
    """The public fields of a snapshot beside its view: mesa, seats, status, table, event count."""
    top: dict[str, Any] = {
        "mesa": room.mesa,
        "seats": public_seats(room),
        "status": room.status,
        "table": table_info(room),
    }
    if room.table is not None:
        top["event_count"] = len(room.game.events)
    return top


def hand_of(room: Room, seat: int) -> list[str]:
    """A seat's hand as it may see it (nothing before a table starts: it deals then)."""
    return [str(c) for c in room.game.hand(seat)] if room.started else []


def private_part(room: Room, seat: int, *, hints: bool, hand: bool, view: SeatView | None = None) -> Private:
    """A seat's private part now: its legal moves and their marks (on its turn), its hand if ``hand``,
    its hints if ``hints`` (computed from the seat's own view only: ``view``, if the caller has it)."""
    game = room.game
    # a championship's table its judge paused (or a restart replaced) offers no move: nobody may play
    mine = room.started and not game.is_over and game.turn == seat and not room.halted
    actions = game.legal_moves() if mine else []
    legal = [str(a) for a in actions]
    return Private(
        legal=legal,
        moves=describe_moves(game, actions, legal) if actions else [],  # what each move does (eventview)
        hand=hand_of(room, seat) if hand else None,
        hints=(seat_hints(view or game.view(seat), legal) if mine else []) if hints else None,
    )


__all__ = [
    "MOVE_KINDS",
    "PER_AUDIENCE",
    "RONDA_KINDS",
    "SCORE_KINDS",
    "fields_from_events",
    "finished_seats",
    "hand_of",
    "hidden_cards",
    "private_part",
    "public_seats",
    "public_top",
    "public_view",
    "seat_public",
    "seat_view",
    "table_info",
    "table_public",
    "wired_events",
]
