"""The requests a table's authority takes: plain typed values, not the wire's messages.

The edge reads a browser's message (:mod:`cuarenta.server.protocol`) and hands it over; the authority
reads only the fields below, so a wire message with those fields (the protocol's pydantic models) or one
of these dataclasses will do.

>>> Move(move="7h", state=3).state
3
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from cuarenta.server.authority.messages import Pace


class JoinRequest(Protocol):
    @property
    def room(self) -> str: ...
    @property
    def token(self) -> str: ...
    @property
    def since(self) -> int | None: ...
    @property
    def pace(self) -> Pace | None: ...
    @property
    def v(self) -> int: ...
    @property
    def hints(self) -> bool: ...


class WatchRequest(Protocol):
    @property
    def room(self) -> str: ...
    @property
    def v(self) -> int: ...
    @property
    def since(self) -> int | None: ...


class MoveRequest(Protocol):
    @property
    def move(self) -> str: ...
    @property
    def state(self) -> int: ...


class PaceRequest(Protocol):
    @property
    def pace(self) -> Pace: ...


class ReactRequest(Protocol):
    @property
    def saying(self) -> str: ...


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
class Plain:
    """A request with no field (``next``, ``rematch``)."""


__all__ = [
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
