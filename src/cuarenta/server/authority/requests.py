"""The requests a table's authority takes: plain typed values, not the wire's messages.

The socket protocol's one reader (:mod:`cuarenta.server.protocol`, on the server and on the device) reads
a browser's message into one of these and hands it to the authority; tests and benchmarks build them
directly. ``JoinRequest``, ``MoveRequest`` … are the names the authority's methods take them by.

>>> Move(move="7h", state=3).state
3
"""

from __future__ import annotations

from dataclasses import dataclass

from cuarenta.server.authority.messages import Pace


@dataclass(frozen=True)
class Join:
    """Seat a socket: the room, the seat's token, the events already shown (``since``; version 2: the
    last version applied), a pace, the protocol version ``v`` and (version 2) whether to send hints."""

    room: str
    token: str
    since: int | None = None
    pace: Pace | None = None
    v: int = 1
    hints: bool = False


@dataclass(frozen=True)
class Watch:
    """Follow a table as a spectator (version 2: ``since`` the last version applied)."""

    room: str
    v: int = 1
    since: int | None = None


@dataclass(frozen=True)
class Move:
    """Play an action (the engine's notation) on the state the client saw."""

    move: str
    state: int


@dataclass(frozen=True)
class SetPace:
    """The computer's pace in the socket's room."""

    pace: Pace


@dataclass(frozen=True)
class React:
    """A saying, as a reaction, to the table."""

    saying: str


@dataclass(frozen=True)
class Advise:
    """Ask what the strongest computer player would play for the socket's seat at ``state`` (its turn)."""

    state: int


@dataclass(frozen=True)
class Plain:
    """A request with no field (``next``, ``rematch``)."""


#: The names the authority's methods take the requests by (each request has one shape: its dataclass).
JoinRequest = Join
WatchRequest = Watch
MoveRequest = Move
PaceRequest = SetPace
ReactRequest = React
AdviceRequest = Advise


__all__ = [
    "AdviceRequest",
    "Advise",
    "Join",
    "JoinRequest",
    "Move",
    "MoveRequest",
    "PaceRequest",
    "Plain",
    "React",
    "ReactRequest",
    "SetPace",
    "Watch",
    "WatchRequest",
]
