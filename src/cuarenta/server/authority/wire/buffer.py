"""The bounded buffer of a table's recent version-2 events, for clients that reconnect with ``since``.

Each entry is one event's public text, with the version it starts from (``base``) and the version it
brings the table to. A client at version ``since`` can be replayed the entries from the one whose base
is ``since`` on, if they follow each other without a gap; otherwise (the buffer no longer reaches back, or
the room was rebuilt and its buffer started afresh) it gets a snapshot.

>>> buffer = EventBuffer(3)
>>> for v in range(1, 6):
...     buffer.add(v - 1, v, f"e{v}")
>>> buffer.replay(3, 5)
['e4', 'e5']
>>> buffer.replay(5, 5)
[]
>>> buffer.replay(1, 5) is None  # e2 has left the buffer
True
"""

from __future__ import annotations

import itertools
from collections import deque
from dataclasses import dataclass
from typing import Final

#: Events kept per table. A reconnecting page is back within a second or two (it reconnects 0.5 s after
#: a close; a cluster node hands a table's sockets over with a close 1012), and a person away longer is
#: in the table's grace (60 s by default): 64 events span more than a minute of a 4-person table at a
#: move every 1-3 s (about 20-60 moves), for about 25 KB per table (an event's public part is ~400 bytes).
#: A client further behind gets one snapshot, which is no larger than the events it missed would be.
BUFFER_EVENTS: Final = 64


@dataclass(frozen=True, slots=True)
class Entry:
    """One event of the buffer: the version it starts from, the version it brings, its public text."""

    base: int
    version: int
    text: str


class EventBuffer:
    """The last ``size`` events of a table, oldest first."""

    def __init__(self, size: int = BUFFER_EVENTS) -> None:
        if size < 1:
            raise ValueError(f"the buffer must hold at least one event, not {size}")
        self._entries: deque[Entry] = deque(maxlen=size)

    def __len__(self) -> int:
        return len(self._entries)

    def add(self, base: int, version: int, text: str) -> None:
        """Keep an event (the oldest leaves when the buffer is full)."""
        self._entries.append(Entry(base, version, text))

    def replay(self, since: int, current: int) -> list[str] | None:
        """The texts of the events after version ``since``, in order, up to version ``current``; ``[]``
        when ``since`` is current; ``None`` when the buffer cannot bring a client from ``since`` to
        ``current`` (a snapshot is due)."""
        entries = list(self._entries)
        start = next((i for i, e in enumerate(entries) if e.base == since), None)
        if start is None:
            return [] if since == current and (not entries or entries[-1].version == current) else None
        chain = entries[start:]
        for before, after in itertools.pairwise(chain):
            if after.base != before.version:
                return None
        if chain[-1].version != current:
            return None
        return [e.text for e in chain]


__all__ = ["BUFFER_EVENTS", "Entry", "EventBuffer"]
