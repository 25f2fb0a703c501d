"""The web app's messages (docs/protocol.md, version 1): parsing, validation and error codes.

The codes, :class:`ProtocolError` and the checks of a message's envelope are in
:mod:`cuarenta.server.protocolcore` (shared with the device host, which has no pydantic).
Every message a browser sends is read by :func:`parse_client_message`, which
returns one of the pydantic models below or raises :class:`ProtocolError`
with the code of the table in docs/protocol.md. Messages the server sends are
built by the ``*_message`` functions, so their shape lives in one place.

>>> parse_client_message('{"v": 1, "type": "move", "move": "7h x3c+4d", "state": 3}')
MoveMessage(v=1, type='move', move='7h x3c+4d', state=3)
>>> parse_client_message('{"v": 3, "type": "ping"}')
Traceback (most recent call last):
...
cuarenta.server.protocolcore.ProtocolError: bad_version: this server speaks protocol versions 1 and 2, not 3
"""

from __future__ import annotations

from typing import Annotated, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, ValidationError

from cuarenta.server.authority.messages import (
    PACES,
    PROTOCOL_VERSION,
    Pace,
    Status,
    pace_message,
    reaction_message,
    state_message,
    table_message,
)
from cuarenta.server.protocolcore import (
    ERROR_CODES,
    MAX_MESSAGE_CHARS,
    PROTOCOL_VERSIONS,
    ProtocolError,
    error_message,
    malformed,
    pong_message,
    read_envelope,
)

_Text = Annotated[StrictStr, Field(min_length=1, max_length=200)]


class _Message(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)

    v: Literal[1, 2]


class JoinMessage(_Message):
    """Take a seat in a room with that seat's token (and, optionally, set the computer's pace there)."""

    type: Literal["join"]
    room: _Text
    token: _Text
    pace: Pace | None = None
    #: version 1: events of the current mesa the browser has shown: the answer's ``events`` start there
    #: (docs/tables.md); version 2: the last ``version`` the client applied (docs/protocol.md "Version 2")
    since: Annotated[StrictInt, Field(ge=0)] | None = None
    #: version 2 only: send this seat's hints (version 1 always has them)
    hints: StrictBool = False


class WatchMessage(_Message):
    """Follow a table as a spectator: no seat, no token, no hidden card (docs/tables.md)."""

    type: Literal["watch"]
    room: _Text
    #: version 2 only: the last ``version`` the spectator applied (docs/protocol.md "Version 2")
    since: Annotated[StrictInt, Field(ge=0)] | None = None


class ReactMessage(_Message):
    """A traditional saying as a reaction, shown at the sender's seat (docs/tables.md)."""

    type: Literal["react"]
    saying: Annotated[StrictStr, Field(min_length=1, max_length=40)]


class RematchMessage(_Message):
    """Agree to another mesa with the same seats, once the mesa is finished (docs/tables.md)."""

    type: Literal["rematch"]


class MoveMessage(_Message):
    """An action in the engine's notation, against the ``state`` number the browser last saw."""

    type: Literal["move"]
    move: Annotated[StrictStr, Field(min_length=1, max_length=200)]
    state: Annotated[StrictInt, Field(ge=0)]


class NextMessage(_Message):
    """Start a new mesa in the same room once the current one is finished."""

    type: Literal["next"]


class PaceMessage(_Message):
    """The computer's pace in the socket's room: the pause before each computer move."""

    type: Literal["pace"]
    pace: Pace


class PingMessage(_Message):
    """Keep-alive; answered by ``pong``."""

    type: Literal["ping"]


ClientMessage = (
    JoinMessage
    | MoveMessage
    | NextMessage
    | PaceMessage
    | PingMessage
    | WatchMessage
    | ReactMessage
    | RematchMessage
)

_MODELS: Final[dict[str, type[_Message]]] = {
    "join": JoinMessage,
    "move": MoveMessage,
    "next": NextMessage,
    "pace": PaceMessage,
    "ping": PingMessage,
    "watch": WatchMessage,
    "react": ReactMessage,
    "rematch": RematchMessage,
}


def _describe_validation(exc: ValidationError) -> str:
    """The first problems of a pydantic error, as one readable sentence."""
    parts = []
    for err in exc.errors()[:3]:
        where = ".".join(str(p) for p in err.get("loc", ())) or "message"
        parts.append(f"{where}: {err.get('msg', 'invalid')}")
    return "; ".join(parts)


def parse_client_message(text: str | bytes) -> ClientMessage:
    """Read one browser message; raises :class:`ProtocolError` (``bad_message`` or ``bad_version``)."""
    data, kind = read_envelope(text)  # the checks shared with the device host (protocolcore)
    model = _MODELS[kind]
    try:
        message = model.model_validate(data)
    except ValidationError as exc:
        raise malformed(kind, _describe_validation(exc)) from None
    assert isinstance(message, ClientMessage)
    return message


__all__ = [
    "ERROR_CODES",
    "MAX_MESSAGE_CHARS",
    "PACES",
    "PROTOCOL_VERSION",
    "PROTOCOL_VERSIONS",
    "ClientMessage",
    "JoinMessage",
    "MoveMessage",
    "NextMessage",
    "Pace",
    "PaceMessage",
    "PingMessage",
    "ProtocolError",
    "ReactMessage",
    "RematchMessage",
    "Status",
    "WatchMessage",
    "error_message",
    "pace_message",
    "parse_client_message",
    "pong_message",
    "reaction_message",
    "state_message",
    "table_message",
]
