"""The reader of the socket protocol's package (:mod:`cuarenta.server.protocol`): the messages a browser
sends on the socket (docs/protocol.md), one table of their types, read by one reader in plain Python,
used by the server's ``/ws`` (:mod:`cuarenta.server.edge.sockets`) and by the device host
(:class:`cuarenta.device.DeviceHost`, under Pyodide, with no pydantic) alike.

- :data:`MESSAGES`: each type a browser may send → its :class:`MessageType`: the fields it reads (in
  order, :mod:`cuarenta.server.protocol.fields`), the authority's request it becomes
  (:mod:`cuarenta.server.authority.requests`) and its handler, the :class:`Handlers` method that takes it.
- :func:`parse_client_message` reads one message: its envelope (size, JSON, ``v``, ``type``), then the
  fields of its type; it returns a :class:`ClientMessage` or raises :class:`ProtocolError` with the code
  of docs/protocol.md (``bad_message`` or ``bad_version``) and the same sentence on the server and on the
  device (each problem worded as pydantic words it, as the server always has).
- :func:`dispatch` hands a read message to its handler.

The codes, :class:`ProtocolError` and the error and pong frames are in
:mod:`cuarenta.server.protocol.codes`; the messages the server sends are built by the ``*_message``
functions of :mod:`cuarenta.server.authority.messages` (the package re-exports them).

>>> parse_client_message('{"v": 1, "type": "move", "move": "7h x3c+4d", "state": 3}')
ClientMessage(type='move', v=1, request=Move(move='7h x3c+4d', state=3))
>>> try:
...     parse_client_message('{"v": 2, "type": "pace", "pace": "x"}')
... except ProtocolError as exc:
...     print(exc.code, exc.message)
bad_message malformed 'pace' message: pace: Input should be 'slow', 'normal' or 'fast'
>>> parse_client_message('{"v": 3, "type": "ping"}')
Traceback (most recent call last):
...
cuarenta.server.protocol.codes.ProtocolError: bad_version: this server speaks protocol versions 1 and 2, not 3
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, Protocol

from cuarenta.server.authority.messages import PACES
from cuarenta.server.authority.model import Connection
from cuarenta.server.authority.requests import (
    AdviceRequest,
    Advise,
    Join,
    JoinRequest,
    Move,
    MoveRequest,
    PaceRequest,
    Plain,
    React,
    ReactRequest,
    SetPace,
    Watch,
    WatchRequest,
)
from cuarenta.server.protocol.codes import (
    MAX_MESSAGE_CHARS,
    PROTOCOL_VERSIONS,
    ProtocolError,
    pong_message,
)
from cuarenta.server.protocol.fields import Choice, Count, Field, Flag, Text, read_fields

#: The longest room id, token and move a message may carry.
TEXT_MAX: Final = 200
#: The longest saying of a reaction.
SAYING_MAX: Final = 40

#: What a message becomes: the authority's request.
Request = Advise | Join | Move | Plain | React | SetPace | Watch


# -- the table ----------------------------------------------------------------------------------------------
class Handlers(Protocol):
    """What takes the messages: the authority (:class:`~cuarenta.server.authority.Authority`), on the
    server and on the device (where ``react`` and ``rematch`` refuse: they need a server)."""

    def join(self, conn: Connection, message: JoinRequest) -> None: ...
    def watch(self, conn: Connection, message: WatchRequest) -> None: ...
    def move(self, conn: Connection, message: MoveRequest) -> None: ...
    def next_mesa(self, conn: Connection, message: object = None) -> None: ...
    def pace(self, conn: Connection, message: PaceRequest) -> None: ...
    def react(self, conn: Connection, message: ReactRequest) -> None: ...
    def rematch(self, conn: Connection, message: object = None) -> None: ...
    def advice(self, conn: Connection, message: AdviceRequest) -> None: ...


#: A handler: the :class:`Handlers`, the socket's connection and the message's request.
Handler = Callable[[Handlers, Connection, Any], None]


def _ping(_: Handlers, conn: Connection, __: object) -> None:
    """A keep-alive: answered at once with ``pong``, by the socket itself."""
    conn.send(pong_message())


@dataclass(frozen=True)
class MessageType:
    """One type of message: its ``fields`` (read in this order, as docs/protocol.md lists them), the
    ``request`` they make (called with the fields by name, and ``v`` when ``versioned``) and the
    ``handler`` that takes it."""

    fields: tuple[Field, ...]
    request: Callable[..., Request]
    handler: Handler
    versioned: bool = False


#: Every type of message a browser may send (docs/protocol.md "Browser → server").
MESSAGES: Final[dict[str, MessageType]] = {
    "join": MessageType(
        (
            Text("room", TEXT_MAX),
            Text("token", TEXT_MAX),
            Choice("pace", PACES, required=False, nullable=True),
            Count("since", required=False, nullable=True),
            Flag("hints"),
        ),
        Join,
        lambda to, conn, request: to.join(conn, request),
        versioned=True,
    ),
    "move": MessageType(
        (Text("move", TEXT_MAX), Count("state")), Move, lambda to, conn, request: to.move(conn, request)
    ),
    "next": MessageType((), Plain, lambda to, conn, request: to.next_mesa(conn, request)),
    "pace": MessageType((Choice("pace", PACES),), SetPace, lambda to, conn, request: to.pace(conn, request)),
    "ping": MessageType((), Plain, _ping),
    "watch": MessageType(
        (Text("room", TEXT_MAX), Count("since", required=False, nullable=True)),
        Watch,
        lambda to, conn, request: to.watch(conn, request),
        versioned=True,
    ),
    "react": MessageType(
        (Text("saying", SAYING_MAX),), React, lambda to, conn, request: to.react(conn, request)
    ),
    "rematch": MessageType((), Plain, lambda to, conn, request: to.rematch(conn, request)),
    "advice": MessageType((Count("state"),), Advise, lambda to, conn, request: to.advice(conn, request)),
}
#: The types of message a browser may send, in the order of the error that lists them.
MESSAGE_TYPES: Final = tuple(MESSAGES)


@dataclass(frozen=True)
class ClientMessage:
    """A browser's message, read: its ``type``, its protocol version ``v`` and the authority's request."""

    type: str
    v: int
    request: Request


# -- the reader ---------------------------------------------------------------------------------------------
def read_envelope(text: str | bytes) -> tuple[dict[str, Any], str]:
    """A browser message's JSON object and its type, its size and version checked; raises
    :class:`ProtocolError` (``bad_message`` or ``bad_version``). Its fields are read by
    :func:`parse_client_message`."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError("bad_message", "the message is not UTF-8 text") from None
    if len(text) > MAX_MESSAGE_CHARS:
        raise ProtocolError("bad_message", f"the message is longer than {MAX_MESSAGE_CHARS} characters")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # JSONDecodeError, or a number too long to read
        raise ProtocolError("bad_message", "the message is not JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "the message must be a JSON object")
    version = data.get("v")
    if version not in PROTOCOL_VERSIONS or isinstance(version, bool):
        if "v" not in data:
            raise ProtocolError("bad_version", 'the message has no "v": send "v": 1 or "v": 2')
        raise ProtocolError("bad_version", f"this server speaks protocol versions 1 and 2, not {version!r}")
    kind = data.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("bad_message", 'the message has no "type"')
    if kind not in MESSAGES:
        raise ProtocolError(
            "bad_message", f"unknown message type {kind!r}: expected one of {', '.join(MESSAGE_TYPES)}"
        )
    return data, kind


def malformed(kind: str, problems: str) -> ProtocolError:
    """The refusal of a message of type ``kind`` whose fields are wrong (``problems``: ``field: why``)."""
    return ProtocolError("bad_message", f"malformed {kind!r} message: {problems}")


def parse_client_message(text: str | bytes) -> ClientMessage:
    """Read one browser message (module docstring); raises :class:`ProtocolError` (``bad_message`` or
    ``bad_version``), naming up to three of its fields' problems. Fields a type does not read are
    ignored."""
    data, kind = read_envelope(text)
    version = int(data["v"])  # 1.0 is 1, as the server has always read it
    shape = MESSAGES[kind]
    values, problems = read_fields(data, shape.fields)
    if problems:
        raise malformed(kind, "; ".join(problems[:3]))
    if shape.versioned:
        values["v"] = version
    return ClientMessage(type=kind, v=version, request=shape.request(**values))


def dispatch(handlers: Handlers, conn: Connection, message: ClientMessage) -> None:
    """Hand a read message to its type's handler (``ping`` is answered on ``conn`` itself)."""
    MESSAGES[message.type].handler(handlers, conn, message.request)


__all__ = [
    "MESSAGES",
    "MESSAGE_TYPES",
    "SAYING_MAX",
    "TEXT_MAX",
    "ClientMessage",
    "Handler",
    "Handlers",
    "MessageType",
    "Request",
    "dispatch",
    "malformed",
    "parse_client_message",
    "read_envelope",
]
