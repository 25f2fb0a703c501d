"""The codes of the socket protocol's package (docs/protocol.md): the error codes, :class:`ProtocolError`,
the limits of a browser's message and the error and pong frames. The messages a browser sends are read
by :mod:`cuarenta.server.protocol.reader` (its one table and reader, on the server and on the device).

>>> error_message("stale", "state 3 is older than 4")["code"]
'stale'
>>> ProtocolError("no_such_code", "…")
Traceback (most recent call last):
...
ValueError: unknown error code 'no_such_code'
"""

from __future__ import annotations

from typing import Any, Final

from cuarenta.server.authority.errors import TableError
from cuarenta.server.authority.messages import PROTOCOL_VERSION, error_frame

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
    "no_advice": "advice asked at a table with friends or in a championship (the computer's advice is for "
    "games against the computer)",
    "advice_failed": "the computer could not think about the advice asked for (ask again)",
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


def error_message(code: str, message: str, reason: dict[str, Any] | None = None) -> dict[str, Any]:
    """``{"v": 2, "type": "error", "code": ..., "message": ...}``, with ``"reason": {"code", "params"}``
    when the engine's error is known (an ``illegal_move``)."""
    if code not in ERROR_CODES:
        raise ValueError(f"unknown error code {code!r}")
    return error_frame(code, message, reason)


def pong_message() -> dict[str, Any]:
    return {"v": PROTOCOL_VERSION, "type": "pong"}


__all__ = [
    "ERROR_CODES",
    "MAX_MESSAGE_CHARS",
    "PROTOCOL_VERSIONS",
    "ProtocolError",
    "error_message",
    "pong_message",
]
