"""The parts of the web app's protocol (docs/protocol.md) that need no validation library: the error
codes, :class:`ProtocolError`, the envelope every browser message is read from (:func:`read_envelope`),
and the error and pong frames. :mod:`cuarenta.server.protocol` (the server's pydantic models) and
:mod:`cuarenta.device.messages` (the device host's plain reader) both build on it, so both refuse a
message with the same code and the same sentence.

>>> read_envelope('{"v": 2, "type": "ping"}')
({'v': 2, 'type': 'ping'}, 'ping')
>>> read_envelope('{"v": 3, "type": "ping"}')
Traceback (most recent call last):
...
cuarenta.server.protocolcore.ProtocolError: bad_version: this server speaks protocol versions 1 and 2, not 3
"""

from __future__ import annotations

import json
from typing import Any, Final

from cuarenta.server.authority.errors import TableError
from cuarenta.server.authority.messages import PROTOCOL_VERSION

#: Every protocol version a client may speak (version 2: docs/protocol.md "Version 2", authority/wire/).
PROTOCOL_VERSIONS: Final = (1, 2)
#: The largest message a browser may send, in characters (a move is a few dozen).
MAX_MESSAGE_CHARS: Final = 4096
#: The types of message a browser may send.
MESSAGE_TYPES: Final = ("join", "move", "next", "pace", "ping", "watch", "react", "rematch")

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
    "outcome_unknown": "the database stopped answering while it stored the move: it may have been made "
    "(ask for the state again before trying again; the state follows once the database answers)",
    # championships (docs/championships.md "Running a championship")
    "paused": "a move at a championship's table its judge paused",
    "table_replaced": "a move at a championship's table its judge's restart replaced (it is over)",
    "championship_table": "a rematch at a championship's table (a partida is one mesa)",
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


def read_envelope(text: str | bytes) -> tuple[dict[str, Any], str]:
    """A browser message's JSON object and its type, its size and version checked; raises
    :class:`ProtocolError` (``bad_message`` or ``bad_version``). Its fields are checked by the caller."""
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
    if kind not in MESSAGE_TYPES:
        raise ProtocolError(
            "bad_message", f"unknown message type {kind!r}: expected one of {', '.join(MESSAGE_TYPES)}"
        )
    return data, kind


def malformed(kind: str, problems: str) -> ProtocolError:
    """The refusal of a message of type ``kind`` whose fields are wrong (``problems``: ``field: why``)."""
    return ProtocolError("bad_message", f"malformed {kind!r} message: {problems}")


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
    "MESSAGE_TYPES",
    "PROTOCOL_VERSIONS",
    "ProtocolError",
    "error_message",
    "malformed",
    "pong_message",
    "read_envelope",
]
