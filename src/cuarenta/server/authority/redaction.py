"""What each audience may see: the one place that decides it (a seat, a spectator, the store's history).

Every message the authority queues for a socket is built here, from ``game.view(seat)`` of that socket's
seat (a spectator: the view with no hand), that seat's legal moves and hints on its turn, and the public
events; never a hidden card, never a seed. A seat's message is made once per change however many sockets
hold the seat, and its hints with it; spectators who have been sent the same events share one message.

:func:`hidden_cards` says which cards an audience may not see at a moment: the tests check every message
of every audience against it (tests/test_redaction.py, and over real sockets tests/test_server.py's spy).

>>> from cuarenta import Game, Rules
>>> game = Game.new(Rules(), seed=3)
>>> len(hidden_cards(game, 0)) == len(game.hand(1)) + len(game.stock)
True
>>> hidden_cards(game, None) >= hidden_cards(game, 0)
True
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from cuarenta.server.authority.eventview import view_fields
from cuarenta.server.authority.messages import state_message
from cuarenta.server.authority.wire import sockets as wire
from cuarenta.server.authority.wire.events import private_part
from cuarenta.server.authority.wire.messages import SharedMessage

if TYPE_CHECKING:
    from cuarenta.game import Game
    from cuarenta.server.authority.model import Connection, Room


def hidden_cards(game: Game, seat: int | None) -> frozenset[str]:
    """Every card ``seat`` may not see now: the other seats' hands and the stock (for a spectator,
    ``None``, every hand and the stock)."""
    cards = [c for s in range(game.players) if s != seat for c in game.hand(s)] + game.stock
    return frozenset(str(c) for c in cards)


def public_seats(room: Room) -> list[dict[str, Any]]:
    """Every seat as everyone may see it (docs/protocol.md ``seats``); at a table, with each person's
    presence (docs/tables.md). Never a token, a token's hash or a profile."""
    seats = [s.public() for s in room.seats]
    if room.table is None:
        return seats
    for s, out in zip(room.seats, seats, strict=True):
        out["team"] = s.seat % 2
        if s.kind == "person":
            out["connected"] = room.connected(s.seat)
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


def table_info(room: Room) -> dict[str, Any] | None:
    """The ``table`` field of a table's messages (docs/tables.md), or ``None`` for a room against the
    computer. Never the invite code."""
    if room.table is None:
        return None
    deadline = room.deadline
    running = deadline is not None and deadline[0] == room.state
    info = {
        **room.table.public(),
        "watchers": room.watchers(),
        "deadline": int(deadline[1] * 1000) if deadline is not None and running else None,
        "rematch": sorted(room.rematch),
    }
    return info


def state_for(room: Room, conn: Connection) -> dict[str, Any]:
    """The ``state`` message for a socket's seat, with the events it has not been sent yet; for a
    spectator's socket (no seat), the view of the table with no hand (docs/tables.md). Counts the events
    as sent on ``conn``."""
    seat = conn.seat
    game = room.game
    if conn.dealt != room.dealt:  # a new mesa, or a table that started and dealt anew
        conn.dealt, conn.sent = room.dealt, 0
    wired = room.wired_events()  # every event of the mesa with its sayings, made once each
    mesa_events = game.events
    events = [dict(wired[i]) for i in range(conn.sent, len(mesa_events))]
    conn.sent = len(mesa_events)
    view = game.view(0 if seat is None else seat)
    history = len(view.history)
    wire = dataclasses.replace(view, history=()).to_dict()  # the history from the events made once
    wire.update(view_fields(game))  # what the page shows and would otherwise work out (eventview)
    wire["history"] = [dict(event) for event in wired[len(mesa_events) - history :]]
    if seat is None:  # a spectator: everything of a view is public but the seat's own hand
        wire.update(seat=None, team=None, hand=[])
    elif not room.started:  # a table that waits has dealt nothing yet: it deals when it starts
        wire.update(hand=[])
    # the seat's legal moves, their marks and its hints: what version 2's private part holds
    private = None if seat is None else private_part(room, seat, hints=True, hand=False, view=view)
    return state_message(
        room=room.id,
        state=room.state,
        mesa=room.mesa,
        seat=seat,
        seats=public_seats(room),
        view=wire,
        # version 1 sends hints on the seat's turn, always (it has no message that turns them off)
        legal=[] if private is None else private.legal,
        moves=[] if private is None else private.moves,
        hints=[] if private is None else private.hints or [],
        events=events,
        status=room.status,
        table=table_info(room),
        event_count=len(mesa_events),
    )


def broadcast(room: Room) -> None:
    """Queue the new state for every socket in the room. Sockets of one audience (a seat, or the
    spectators) that have been sent the same events share one message, made once: a seat open in two
    tabs costs one view and one set of hints, a table with hundreds of spectators a few messages."""
    shared: dict[tuple[int | None, tuple[int, int], int], dict[str, Any]] = {}
    events = len(room.game.events)
    conns = list(room.connections)
    wire.broadcast(room, [c for c in conns if c.protocol == wire.WIRE_VERSION])  # version 2: its own frames
    for conn in conns:
        if conn.protocol == wire.WIRE_VERSION:
            continue
        key = (conn.seat, conn.dealt, conn.sent)
        message = shared.get(key)
        if message is None:
            message = shared[key] = SharedMessage(room.message_for(conn))
        else:  # what state_for does to the socket's count of events sent
            conn.dealt, conn.sent = room.dealt, events
        conn.send(message)


def finished_seats(room: Room) -> list[dict[str, Any]]:
    """The seats as the history of a finished mesa keeps them (public: anyone with a token of the room
    reads them)."""
    return public_seats(room)


__all__ = ["broadcast", "finished_seats", "hidden_cards", "public_seats", "state_for", "table_info"]
