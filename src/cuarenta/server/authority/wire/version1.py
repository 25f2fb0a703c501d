"""Version 1 of the socket (docs/protocol.md; deprecated): its ``state`` messages, made from version 2's.

The authority builds what a socket may see once, as version 2 has it (:mod:`.events`: a snapshot, whose
parts :mod:`cuarenta.server.authority.audience` decides). A socket that joined or watches with version 1
is sent its ``state`` as :func:`state_from_snapshot` turns that snapshot into version 1's message: the
seat's hand back in the view, its legal moves, their marks and its hints at the top. This module is the
only place that knows version 1's ``state``; when version 1 is retired it goes, and nothing else changes.

>>> from cuarenta.server.authority.wire.messages import Private, Snapshot
>>> snap = Snapshot(v=2, room="r", version=3, mesa=1, seat=0, seats=[], view={"seat": 0}, events=[],
...                 status="playing", private=Private(legal=["7h"], moves=[], hand=["7h"], hints=[]))
>>> state = state_from_snapshot(snap)
>>> state["v"], state["type"], state["state"], state["view"]["hand"], state["legal"]
(1, 'state', 3, ['7h'], ['7h'])
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from cuarenta.server.authority.messages import state_message
from cuarenta.server.authority.wire.events import snapshot
from cuarenta.server.authority.wire.messages import SharedMessage, Snapshot

if TYPE_CHECKING:
    from cuarenta.server.authority.messages import Status
    from cuarenta.server.authority.model import Connection, Room


def state_from_snapshot(snap: Snapshot) -> dict[str, Any]:
    """Version 1's ``state`` message of a version-2 snapshot made with hints (version 1 sends a seat its
    hints on its turn, always): the seat's hand goes back into the view (a spectator's is empty), its
    ``legal``, ``moves`` and ``hints`` to the top."""
    private = snap.private
    view = dict(snap.view)
    view["hand"] = [] if private is None or private.hand is None else private.hand
    return state_message(
        room=snap.room,
        state=snap.version,
        mesa=snap.mesa,
        seat=snap.seat,
        seats=snap.seats,
        view=view,
        legal=[] if private is None else private.legal,
        moves=[] if private is None else private.moves,
        hints=[] if private is None else private.hints or [],
        events=snap.events,
        status=cast("Status", snap.status),  # a room's status (Room.status)
        table=snap.table,
        event_count=snap.event_count,
    )


def state_for(room: Room, conn: Connection) -> dict[str, Any]:
    """The version-1 ``state`` message for a socket's seat (a spectator's: no hand), with the events it
    has not been sent yet. Counts the events as sent on ``conn``."""
    if conn.dealt != room.dealt:  # a new mesa, or a table that started and dealt anew
        conn.dealt, conn.sent = room.dealt, 0
    snap = snapshot(room, conn.seat, conn.sent, hints=True)
    conn.sent = len(room.game.events)
    return state_from_snapshot(snap)


def broadcast(room: Room, conns: list[Connection]) -> None:
    """Queue the new ``state`` for the room's version-1 sockets ``conns``. Sockets of one audience (a seat,
    or the spectators) that have been sent the same events share one message, made once: a seat open in
    two tabs costs one view and one set of hints, a table with hundreds of spectators a few messages."""
    shared: dict[tuple[int | None, tuple[int, int], int], dict[str, Any]] = {}
    events = len(room.game.events)
    for conn in conns:
        key = (conn.seat, conn.dealt, conn.sent)
        message = shared.get(key)
        if message is None:
            message = shared[key] = SharedMessage(state_for(room, conn))
        else:  # what state_for does to the socket's count of events sent
            conn.dealt, conn.sent = room.dealt, events
        conn.send(message)


__all__ = ["broadcast", "state_for", "state_from_snapshot"]
