"""The authority over a server's tables: one state machine, its rules, and what each socket may see.

=======================  ==================================================================================
module                   concern
=======================  ==================================================================================
:mod:`.core`             the pipeline: a change checked, applied, stored, told; its collaborators wired
:mod:`.cache`            the rooms in memory (bounded, least recently used first, idle ones leave)
:mod:`.opening`          new rooms and tables
:mod:`.tablelife`        a table's start, a judge's pause, a rewrite, a halt
:mod:`.seating`          tokens, seat codes, who sits where (join, reclaim, hand over, leave, reserved)
:mod:`.saving`           a change's write and its refusals, an unknown outcome settled, catching up
:mod:`.announcer`        what the sockets here are told, and the table's timer
:mod:`.sessions`         the socket requests: a move's checks, join, watch, leave, pace, reactions, votes
:mod:`.policy`           a table's policy: rematch, rated by whom, judged, reserved seats, finished hook
:mod:`.outcomes`         the seat a change gives, the refusals of a write
:mod:`.model`            rooms, seats, a table's options, sockets (the outbox)
:mod:`.audience`         what a seat, a partner, a spectator, a log line may see (the one place)
:mod:`.rows`             a room from its stored row and log (checked), the rows of a change
:mod:`.catchup`          a copy brought up to what another process stored (a notice, the store)
:mod:`.setup`            a table's options and seats, the seat a friend takes, the lobby
:mod:`.ports`            what it is given: the store, the bus, the scheduler, the ratings
:mod:`.bus`              the bus of one process
:mod:`.computer`         the computer players of one process (paced, thought in a pool)
:mod:`.seats`            2 or 4 players, tokens compared in constant time
:mod:`.clock`            presence: grace, stand-in, the turn clock
:mod:`.rematch`          the rematch rule
:mod:`.reactions`        reactions and their rate
:mod:`.pace`             the computer's pace
:mod:`.requests`         the requests it takes (typed, not the wire's)
:mod:`.messages`         the messages it sends (protocol version 1)
:mod:`.wire`             the one protocol it speaks (version 2): snapshot, events, the sockets' broadcast
:mod:`.errors`           its refusals: a code and a message
=======================  ==================================================================================

It imports neither the web stack (FastAPI, starlette, pydantic), nor a database library, nor Redis
(tests/test_layers.py). The cluster's adapters are in :mod:`cuarenta.server.cluster`.
"""

from __future__ import annotations

from cuarenta.server.authority.core import Authority, NewSeat, room_status
from cuarenta.server.authority.errors import RoomProblem, TableError
from cuarenta.server.authority.model import Connection, Room, Seat, TableOptions
from cuarenta.server.authority.policy import TablePolicies, TablePolicy

__all__ = [
    "Authority",
    "Connection",
    "NewSeat",
    "Room",
    "RoomProblem",
    "Seat",
    "TableError",
    "TableOptions",
    "TablePolicies",
    "TablePolicy",
    "room_status",
]
