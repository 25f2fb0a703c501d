"""The rooms an authority keeps in memory: a bounded cache, least recently used first (docs/storage.md).

:class:`RoomCache` holds at most ``max_rooms`` rooms and lets idle ones go (``idle_seconds``), the least
recently used first — never one the authority says is in use (a socket, a computer player at work, a
timer running, a write being found out: the ``in_use`` it is given). A room that left memory stays in the
store; the authority reads it again when it is asked for.

>>> from cuarenta.server.authority.cache import RoomCache
>>> cache = RoomCache(max_rooms=2, idle_seconds=60.0, in_use=lambda room: False)
>>> cache.count(), cache.find("nope")
(0, None)
"""

from __future__ import annotations

import time
from collections.abc import Callable

from cuarenta.server.authority.model import DEFAULT_IDLE_SECONDS, DEFAULT_MAX_ROOMS, Room


class RoomCache:
    """The rooms in memory (module docstring). ``clock`` is the clock of :attr:`idle_seconds` (a test may
    replace it); ``forget`` is told the id of every room that leaves memory."""

    def __init__(
        self,
        *,
        max_rooms: int = DEFAULT_MAX_ROOMS,
        idle_seconds: float = DEFAULT_IDLE_SECONDS,
        in_use: Callable[[Room], bool],
        forget: Callable[[str], None] = lambda room_id: None,
    ) -> None:
        if isinstance(max_rooms, bool) or not isinstance(max_rooms, int) or max_rooms < 1:
            raise ValueError(f"max_rooms must be a whole number of rooms, 1 or more, not {max_rooms!r}")
        if not idle_seconds > 0:
            raise ValueError(f"idle_seconds must be more than 0 seconds, not {idle_seconds}")
        self.max_rooms = max_rooms
        self.idle_seconds = idle_seconds
        self.clock: Callable[[], float] = time.monotonic
        self.in_use = in_use
        self.forget = forget
        self.rooms: dict[str, Room] = {}  #: least recently used first

    def find(self, room_id: str) -> Room | None:
        """The room ``room_id`` if it is in memory (never loaded for it, not touched)."""
        return self.rooms.get(room_id)

    def __contains__(self, room_id: object) -> bool:
        return room_id in self.rooms

    def count(self) -> int:
        """How many rooms are in memory now."""
        return len(self.rooms)

    def all(self) -> list[Room]:
        """The rooms in memory, least recently used first."""
        return list(self.rooms.values())

    def touch(self, room: Room) -> None:
        """``room`` was used now: it becomes the most recently used (and is kept if it was not)."""
        room.last_used = self.clock()
        self.rooms.pop(room.id, None)
        self.rooms[room.id] = room

    def remember(self, room: Room) -> None:
        """Keep ``room`` (new, or read from the store), then make room for it (:meth:`evict`)."""
        self.touch(room)
        self.evict(keep=room)

    def evict(self, keep: Room | None = None) -> int:
        """Forget rooms (they stay in the store): idle ones, and the least recently used beyond
        :attr:`max_rooms`; never one in use, nor ``keep``. Returns how many left memory."""
        now = self.clock()
        gone: list[str] = []
        busy: list[Room] = []
        left = len(self.rooms)
        for room in self.rooms.values():
            if left <= self.max_rooms and now - room.last_used < self.idle_seconds:
                break
            if room is keep:
                continue
            if self.in_use(room):
                busy.append(room)
                continue
            gone.append(room.id)
            left -= 1
        for room_id in gone:
            del self.rooms[room_id]
            self.forget(room_id)
        for room in busy:
            self.touch(room)
        return len(gone)

    def clear(self) -> None:
        """Forget every room (the server stops)."""
        for room_id in list(self.rooms):
            del self.rooms[room_id]
            self.forget(room_id)


__all__ = ["RoomCache"]
