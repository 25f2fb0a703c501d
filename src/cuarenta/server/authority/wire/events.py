"""Version 2's messages of a table (docs/protocol.md, "Version 2"): its snapshot and its events.

:func:`snapshot` makes what a seat or a spectator is sent first. :class:`WireState` follows one room: the
public state it last told (the view's public fields, seats, status, table information), the events of the
mesa it has sent and each seat's last hand. Its :meth:`WireState.build` makes the event of a change —
only what changed, encoded once — and keeps it in the room's
:class:`~cuarenta.server.authority.wire.buffer.EventBuffer`. What each audience may see in them is
decided by :mod:`cuarenta.server.authority.audience`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cuarenta.server.authority.audience import (
    hand_of,
    private_part,
    public_seats,
    public_top,
    public_view,
    seat_view,
    table_info,
    wired_events,
)
from cuarenta.server.authority.wire.buffer import BUFFER_EVENTS, EventBuffer
from cuarenta.server.authority.wire.messages import WIRE_VERSION, Event, Snapshot, encode

if TYPE_CHECKING:
    from cuarenta.server.authority.model import Room


def snapshot(room: Room, seat: int | None, since_event: int, *, hints: bool) -> Snapshot:
    """Everything ``seat`` (``None``: a spectator) may see now, at the room's version: the public part,
    the mesa's events from index ``since_event`` on (described once: copied shallowly), and the seat's
    whole private part (its hand always, its hints if ``hints``)."""
    game = room.game
    view = None if seat is None else game.view(seat)
    wired = wired_events(room)
    table = table_info(room)
    return Snapshot(
        v=WIRE_VERSION,
        room=room.id,
        version=room.state,
        mesa=room.mesa,
        seat=seat,
        seats=public_seats(room),
        view=seat_view(room, seat, view),
        events=[dict(wired[i]) for i in range(since_event, len(game.events))],
        status=room.status,
        private=None if seat is None else private_part(room, seat, hints=hints, hand=True, view=view),
        table=table,
        event_count=None if table is None else len(game.events),
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
        wired = wired_events(room)
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


__all__ = ["WireState", "snapshot"]
