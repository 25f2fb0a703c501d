"""Protocol version 2 of the web app's socket (docs/protocol.md, "Version 2"), beside version 1.

A version-2 socket gets one ``snapshot`` after its ``join``/``watch``, then one versioned ``event`` per
change of the table: the event's public part is built and encoded once for the whole table
(:mod:`.events`), and each seat's frame is that text spliced with the seat's small private part (its hand
when it changed, its legal moves with their caída/limpia marks, its hints when asked). Spectators share
one frame. A reconnecting client sends ``since`` and receives the events it missed from a bounded buffer
(:mod:`.buffer`), or a fresh snapshot. The message types are in :mod:`.messages`; the hooks the rooms
call are in :mod:`.sockets`.
"""

from __future__ import annotations

from cuarenta.server.authority.wire.buffer import BUFFER_EVENTS, EventBuffer
from cuarenta.server.authority.wire.messages import WIRE_VERSION, Frame

__all__ = ["BUFFER_EVENTS", "WIRE_VERSION", "EventBuffer", "Frame"]
