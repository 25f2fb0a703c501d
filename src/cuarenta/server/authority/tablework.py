"""What the authority's table collaborators share: :class:`~.seating.Seating` (who sits where) and
:class:`~.tablelife.TableLife` (a table's start, pause and rewrite) each work on a :class:`TableContext`,
built once by the authority (:class:`~.core.Authority`, which :func:`cuarenta.server.wiring.build_authority`
builds): the authority itself as their :class:`TableHost`, the rooms in memory, the store, the bus, the
writes (:class:`~.saving.Saver`), the tells (:class:`~.announcer.Announcer`) and the wall clock.

>>> sorted(f.name for f in dataclasses.fields(TableContext))
['announcer', 'bus', 'cache', 'host', 'saver', 'store', 'wall']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Protocol

from cuarenta.server.authority.announcer import Announcer
from cuarenta.server.authority.cache import RoomCache
from cuarenta.server.authority.errors import TableError
from cuarenta.server.authority.model import Room
from cuarenta.server.authority.policy import TablePolicy
from cuarenta.server.authority.ports import Bus, StorePort
from cuarenta.server.authority.saving import Saver


class TableHost(Protocol):
    """What the table collaborators ask of the authority."""

    def get(self, room_id: str) -> Room:
        """A room, up to date (loaded if needed)."""

    def table(self, room_id: str) -> Room:
        """A table, up to date (``not_a_table`` for a room against the computer)."""

    def policy(self, room: Room) -> TablePolicy:
        """The policy of the room's table."""

    def start_table(self, room: Room) -> None:
        """Start a waiting table (its open seats become computers), stored before anyone is told."""

    def rematch_if_due(self, room: Room) -> bool:
        """Start the next mesa if the rematch rule says so now; whether it started."""

    def halt_problem(self, room: Room) -> TableError | None:
        """Why a halted table refuses a move, or ``None``."""

    def changed(self, room: Room) -> None:
        """A change stored here: tell the sockets here and the other processes."""

    def caught_up(self, room: Room) -> None:
        """The room was brought up to a version written elsewhere: tell the sockets here."""


@dataclasses.dataclass(frozen=True)
class TableContext:
    """The parts a table collaborator works with (module docstring). ``wall`` is the clock of the graces
    it starts (read at each use: a test may replace the authority's)."""

    host: TableHost
    cache: RoomCache
    store: StorePort
    bus: Bus
    saver: Saver
    announcer: Announcer
    wall: Callable[[], float]


class TablePart:
    """A table collaborator: the parts of its :class:`TableContext` as its own attributes."""

    def __init__(self, context: TableContext) -> None:
        self.context = context
        self.host = context.host
        self.cache = context.cache
        self.store = context.store
        self.bus = context.bus
        self.saver = context.saver
        self.announcer = context.announcer
        self.wall = context.wall


__all__ = ["TableContext", "TableHost", "TablePart"]
