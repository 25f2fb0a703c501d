"""The bus of one server process: nobody else to tell, every copy in memory is the truth.

>>> bus = LocalBus()
>>> bus.trusts("any room")
True
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cuarenta.server.authority.model import Connection, Room


class LocalBus:
    """:class:`~cuarenta.server.authority.ports.Bus` of one process: requests run at once, changes go to
    nobody else."""

    def trusts(self, room_id: str) -> bool:
        return True

    def read(self, room_id: str) -> None:
        return None

    def others_write(self) -> bool:
        return False

    def joining(self, room_id: str) -> AbstractContextManager[None]:
        return contextlib.nullcontext()

    def gate(self, conn: Connection, room_id: str | None, run: Callable[[], None]) -> None:
        run()

    def followed(self, room: Room) -> None:
        return None

    def leaving(self, conn: Connection, keep: Room | None) -> None:
        return None

    def left(self, room: Room) -> None:
        return None

    def stored(self, room: Room, appended: tuple[int, int] | None) -> None:
        return None

    def reacted(self, room: Room, seat: int, saying: str) -> None:
        return None

    def voted(self, room: Room, seat: int) -> None:
        return None

    async def open(self) -> None:
        return None

    async def close(self) -> None:
        return None


__all__ = ["LocalBus"]
