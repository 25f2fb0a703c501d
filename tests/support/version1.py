"""Version 1's ``state`` of a room for a socket, made as the edge makes it (server/edge/version1.py): the
seat's version-2 snapshot, turned into version 1's message by the socket's adapter."""

from __future__ import annotations

from typing import Any

from cuarenta.server.authority.model import Connection, Room
from cuarenta.server.authority.wire.events import snapshot
from cuarenta.server.authority.wire.messages import Frame, encode
from cuarenta.server.edge.version1 import Version1


def state_for(room: Room, conn: Connection) -> dict[str, Any]:
    """The ``state`` a version-1 socket of ``conn``'s seat is sent now, with the events it has not been
    sent yet (counted on ``conn``, as a join counts them)."""
    if conn.dealt != room.dealt:  # a new mesa, or a table that started and dealt anew
        conn.dealt, conn.sent = room.dealt, 0
    frame = Frame(encode(snapshot(room, conn.seat, conn.sent, hints=True)))
    conn.sent = len(room.game.events)
    [state] = Version1().translate(frame, room)
    return state


__all__ = ["state_for"]
