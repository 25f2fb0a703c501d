"""The public and private parts of a change of a table, for version 2 (docs/protocol.md, "Version 2").

:class:`WireState` follows one room: the public state it last told (the view's public fields, seats,
status, table information), the events of the mesa it has sent and each seat's last hand. Its
:meth:`WireState.build` makes the event of a change — only what changed, encoded once — and keeps it in
the room's :class:`~cuarenta.server.authority.wire.buffer.EventBuffer`; :func:`private_part` makes a
seat's part.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, Final

from cuarenta.players.hints import seat_hints
from cuarenta.server.authority.eventview import describe_moves, view_fields
from cuarenta.server.authority.wire.buffer import BUFFER_EVENTS, EventBuffer
from cuarenta.server.authority.wire.messages import WIRE_VERSION, Event, Private, encode

if TYPE_CHECKING:
    from cuarenta.server.authority.model import Room
    from cuarenta.view import SeatView

#: The view's fields that are not public (each audience has its own), and ``history``, sent as events.
PER_AUDIENCE: Final = ("seat", "team", "hand", "history")


def public_view(room: Room) -> tuple[dict[str, Any], int]:
    """The view's public fields (every seat's view has them alike) and the length of its history."""
    view = room.game.view(0)
    history = len(view.history)
    out = dataclasses.replace(view, history=(), hand=()).to_dict()
    out.update(view_fields(room.game))  # what the page shows and would otherwise work out (eventview)
    for key in PER_AUDIENCE:
        del out[key]
    return out, history


def public_top(room: Room) -> dict[str, Any]:
    """The public fields of a ``state`` beside its view: mesa, seats, status, table, event count."""
    top: dict[str, Any] = {
        "mesa": room.mesa,
        "seats": room.public_seats(),
        "status": room.status,
        "table": room.table_info(),
    }
    if room.table is not None:
        top["event_count"] = len(room.game.events)
    return top


def hand_of(room: Room, seat: int) -> list[str]:
    """A seat's hand as the wire has it (nothing before a table starts: it deals then)."""
    return [str(c) for c in room.game.hand(seat)] if room.started else []


def private_part(room: Room, seat: int, *, hints: bool, hand: bool, view: SeatView | None = None) -> Private:
    """A seat's private part now: its legal moves and their marks (on its turn), its hand if ``hand``,
    its hints if ``hints`` (computed from the seat's own view only: ``view``, if the caller has it).
    Version 1's ``state`` takes its ``legal``, ``moves`` and ``hints`` from here too."""
    game = room.game
    # a championship's table its judge paused (or a restart replaced) offers no move: nobody may play
    mine = room.started and not game.is_over and game.turn == seat and not room.halted
    actions = game.legal_moves() if mine else []
    legal = [str(a) for a in actions]
    moves = describe_moves(game, actions)  # as version 1's ``moves`` (eventview)
    return Private(
        legal=legal,
        moves=moves,
        hand=hand_of(room, seat) if hand else None,
        hints=(seat_hints(view or game.view(seat), legal) if mine else []) if hints else None,
    )


class WireState:
    """What version 2 last told a room's sockets, and the buffer of its recent events."""

    def __init__(self, room: Room, size: int = BUFFER_EVENTS) -> None:
        self.room_id = room.id
        self.version = room.state
        self.dealt = room.dealt  #: the game ``sent_events`` counts events of (Room.dealt)
        self.sent_events = len(room.game.events)
        self.view, self.history = public_view(room)
        self.top = public_top(room)
        self.hands = [hand_of(room, s) for s in range(room.players)]
        self.buffer = EventBuffer(size)
        #: the seats whose hand changed in the last event built
        self.new_hands: frozenset[int] = frozenset()

    def build(self, room: Room) -> str | None:
        """The public text of the change since the last one built (kept in the buffer), or ``None`` if
        nothing public changed."""
        view, history = public_view(room)
        top = public_top(room)
        wired = room.wired_events()
        # a new mesa, or a table that started: it dealt anew in the same mesa, and the events the
        # clients hold are of the waiting room's game (the event names the mesa: all its events come)
        new_mesa = room.dealt != self.dealt
        events = list(wired) if new_mesa else wired[self.sent_events :]
        hands = [hand_of(room, s) for s in range(room.players)]
        self.new_hands = frozenset(s for s in range(room.players) if hands[s] != self.hands[s])
        changed_view = {k: v for k, v in view.items() if self.view.get(k) != v}
        changed_top = {k: v for k, v in top.items() if self.top.get(k) != v}
        if new_mesa:
            changed_top["mesa"] = room.mesa
        if (
            room.state == self.version
            and not events
            and not changed_view
            and not changed_top
            and history == self.history
            and not self.new_hands
        ):
            return None
        event = Event(
            v=WIRE_VERSION,
            room=room.id,
            version=room.state,
            base=self.version,
            events=events,
            history=history,
            view=changed_view,
            mesa=changed_top.get("mesa"),
            seats=changed_top.get("seats"),
            status=changed_top.get("status"),
            table=changed_top.get("table"),
            event_count=changed_top.get("event_count"),
        )
        text = encode(event)
        self.buffer.add(self.version, room.state, text)
        self.version, self.dealt, self.sent_events = room.state, room.dealt, len(room.game.events)
        self.view, self.history, self.top, self.hands = view, history, top, hands
        return text


__all__ = ["PER_AUDIENCE", "WireState", "hand_of", "private_part", "public_top", "public_view"]
