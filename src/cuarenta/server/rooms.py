"""Rooms, seats and the turn loop of the web app: kept as an import path (the lead removes it at the end).

Everything moved to :mod:`cuarenta.server.authority`: the state (:mod:`~.authority.model`), the rules and
requests (:mod:`~.authority.core`), what each socket may see (:mod:`~.authority.redaction`), the stored
rows (:mod:`~.authority.rows`). :class:`Rooms` is the wired authority of one process
(:class:`cuarenta.server.tables.TableRooms`).
"""

from __future__ import annotations

from cuarenta.server.authority.computer import STORE_RETRY_SECONDS
from cuarenta.server.authority.core import room_status
from cuarenta.server.authority.errors import SEAT_LEFT, RoomProblem
from cuarenta.server.authority.model import (
    CLOSE_SOCKET,
    DEFAULT_IDLE_SECONDS,
    DEFAULT_MAX_ROOMS,
    LEVELS,
    Connection,
    Room,
    Seat,
    SharedMessage,
    TableOptions,
    available_levels,
    default_level,
    mesa_seed,
    now_text,
)
from cuarenta.server.authority.pace import PACE_FACTORS
from cuarenta.server.authority.rows import (
    CAIDA_KINDS,
    LIMPIA_KINDS,
    play_logged,
    room_from_row,
    store_problem,
)
from cuarenta.server.tables import TableRooms as Rooms

_room_from_row = room_from_row

__all__ = [
    "CAIDA_KINDS",
    "CLOSE_SOCKET",
    "DEFAULT_IDLE_SECONDS",
    "DEFAULT_MAX_ROOMS",
    "LEVELS",
    "LIMPIA_KINDS",
    "PACE_FACTORS",
    "SEAT_LEFT",
    "STORE_RETRY_SECONDS",
    "Connection",
    "Room",
    "RoomProblem",
    "Rooms",
    "Seat",
    "SharedMessage",
    "TableOptions",
    "available_levels",
    "default_level",
    "mesa_seed",
    "now_text",
    "play_logged",
    "room_status",
    "store_problem",
]
