"""The web app's messages (docs/protocol.md, version 1): parsing, validation and error codes.

Every message a browser sends is read by :func:`parse_client_message`, which
returns one of the pydantic models below or raises :class:`ProtocolError`
with the code of the table in docs/protocol.md. Messages the server sends are
built by the ``*_message`` functions, so their shape lives in one place.

>>> parse_client_message('{"v": 1, "type": "move", "move": "7h x3c+4d", "state": 3}')
MoveMessage(v=1, type='move', move='7h x3c+4d', state=3)
>>> parse_client_message('{"v": 3, "type": "ping"}')
Traceback (most recent call last):
...
cuarenta.server.protocol.ProtocolError: bad_version: this server speaks protocol versions 1 and 2, not 3
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, ValidationError

from cuarenta.server.authority.errors import TableError
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

#: Every protocol version a client may speak (version 2: docs/protocol.md "Version 2", authority/wire/).
PROTOCOL_VERSIONS: Final = (1, 2)
#: The largest message a browser may send, in characters (a move is a few dozen).
MAX_MESSAGE_CHARS: Final = 4096

#: Every error code a browser can receive, with what it means (docs/protocol.md).
ERROR_CODES: Final[dict[str, str]] = {
    "bad_message": "not JSON, no type, unknown type, missing or malformed fields",
    "bad_version": "v is not 1 or 2",
    "not_joined": "a move or next before a successful join",
    "unknown_room": "no such room",
    "bad_token": "the token is not a seat's token in that room",
    "corrupt_room": "the room's saved game cannot be read",
    "not_your_turn": "a move when it is another seat's turn",
    "stale": "state is older than the current state",
    "illegal_move": "the engine refused the move",
    "game_over": "a move after the mesa ended",
    "not_finished": "a next while the mesa is still in play",
    "rate_limited": "more messages than the rate limit allows: the socket is then closed (1008)",
    # tables with friends (docs/tables.md)
    "not_a_table": "watch or rematch in a room against the computer",
    "use_rematch": "next at a table: every person agrees with rematch instead",
    "too_fast": "a reaction sooner than the reaction limit allows (the socket stays open)",
    "not_started": "a move while the table waits for people",
    "seat_left": "the token of a seat whose person left the table for good",
    "seat_reclaimed": "the token of a seat its person took back on another device with the seat code",
    "seat_given": "the token of a seat the table's creator gave to someone new",
    "store_unavailable": "the move could not be stored: it was not made (try again)",
}


class ProtocolError(TableError):
    """A message that is refused: ``code`` is one of :data:`ERROR_CODES`, ``message`` says why.

    ``reason`` is the engine's error behind an ``illegal_move`` as ``{"code", "params"}`` (its
    text is ``error.<code>`` of the catalogue), so that the page can say it in the player's language.
    The authority refuses requests with its own :class:`~cuarenta.server.authority.errors.TableError`,
    of which this is the wire's kind (a code checked against :data:`ERROR_CODES`).
    """

    def __init__(self, code: str, message: str, reason: dict[str, Any] | None = None) -> None:
        if code not in ERROR_CODES:
            raise ValueError(f"unknown error code {code!r}")
        super().__init__(code, message, reason)


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
    model = _MODELS.get(kind)
    if model is None:
        raise ProtocolError(
            "bad_message", f"unknown message type {kind!r}: expected one of {', '.join(_MODELS)}"
        )
    try:
        message = model.model_validate(data)
    except ValidationError as exc:
        raise ProtocolError(
            "bad_message", f"malformed {kind!r} message: {_describe_validation(exc)}"
        ) from None
    assert isinstance(message, ClientMessage)
    return message


# -- server messages -----------------------------------------------------------------------------------
def error_message(code: str, message: str, reason: dict[str, Any] | None = None) -> dict[str, Any]:
    """``{"v": 1, "type": "error", "code": ..., "message": ...}``, with ``"reason": {"code", "params"}``
    when the engine's error is known (an ``illegal_move``)."""
    if code not in ERROR_CODES:
        raise ValueError(f"unknown error code {code!r}")
    out: dict[str, Any] = {"v": PROTOCOL_VERSION, "type": "error", "code": code, "message": message}
    if reason is not None:
        out["reason"] = reason
    return out


def pong_message() -> dict[str, Any]:
    return {"v": PROTOCOL_VERSION, "type": "pong"}


__all__ = [
    "ERROR_CODES",
    "MAX_MESSAGE_CHARS",
    "PACES",
    "PROTOCOL_VERSION",
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
