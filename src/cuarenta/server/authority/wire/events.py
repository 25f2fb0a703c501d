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
    fields_from_events,
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
    """What version 2 last told a room's sockets, and the buffer of its recent events.

    :meth:`build` makes each change's public part from the change itself: the kinds of the engine's new
    events name the view's fields they may change and carry their values
    (:func:`~cuarenta.server.authority.audience.fields_from_events`: a play's event says the table and the
    sizes it left; a caída or a limpia changes the scores), and only those are compared; the seats whose
    hand changed are the seats that played. A change the events do not describe so (a deal, the end of a
    hand, a new mesa or game, a change without events) reads the whole public view, as
    :meth:`build_whole` always does (the tests check that both write the same events).
    """

    def __init__(self, room: Room, size: int = BUFFER_EVENTS) -> None:
        self.room_id = room.id
        self.version = room.state
        self.dealt = room.dealt  #: the game ``sent_events`` counts events of (Room.dealt)
        self.game = room.game  #: the game object last told (a room's game may be replaced: a refresh)
        self.sent_events = len(room.game.events)
        self.view, self.history = public_view(room)
        self.top = public_top(room)
        self.hands = [hand_of(room, s) for s in range(room.players)]
        self.buffer = EventBuffer(size)
        #: the seats whose hand changed in the last event built
        self.new_hands: frozenset[int] = frozenset()

    def build(self, room: Room) -> str | None:
        """The public text of the change since the last one built (kept in the buffer), or ``None`` if
        nothing public changed (the class docstring says how it is made)."""
        return self._build(room, whole=False)

    def build_whole(self, room: Room) -> str | None:
        """:meth:`build`, the public view read whole and compared field by field (the reference the
        tests compare :meth:`build` with)."""
        return self._build(room, whole=True)

    def _build(self, room: Room, *, whole: bool) -> str | None:
        game = room.game
        wired = wired_events(room)
        # a new mesa, or a table that started: it dealt anew in the same mesa, and the events the
        # clients hold are of the waiting room's game (the event names the mesa: all its events come)
        new_mesa = room.dealt != self.dealt
        events = list(wired) if new_mesa else wired[self.sent_events :]
        follow = not whole and not new_mesa and game is self.game and events
        fields = fields_from_events(game, events) if follow else None
        if fields is None:
            view, history = public_view(room)
            changed_view = {k: v for k, v in view.items() if self.view.get(k) != v}
            hands = [hand_of(room, s) for s in range(room.players)]
            new_hands = frozenset(s for s in range(room.players) if hands[s] != self.hands[s])
        else:
            changed_view = {k: fields[k] for k in self.view if k in fields and fields[k] != self.view[k]}
            view = {**self.view, **changed_view}
            history = len(game.hand_events())
            hands = list(self.hands)
            for seat in {e["seat"] for e in events if e["kind"] == "play"}:
                hands[seat] = hand_of(room, seat)
            new_hands = frozenset(s for s in range(room.players) if hands[s] != self.hands[s])
        self.new_hands = new_hands
        top = public_top(room)
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
        self.version, self.dealt, self.sent_events = room.state, room.dealt, len(game.events)
        self.game = game
        self.view, self.history, self.top, self.hands = view, history, top, hands
        return text


__all__ = ["WireState", "snapshot"]
