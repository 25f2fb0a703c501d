"""The messages the authority sends to a table's sockets besides its snapshots and events (docs/protocol.md,
version 2: ``table``, ``reaction``, ``pace``, ``advice``, and the ``error`` frame), as plain dicts.

The authority speaks one protocol, version 2 (its snapshots and events are built by
:mod:`cuarenta.server.authority.wire`); the edge's adapter of the deprecated version 1
(:mod:`cuarenta.server.edge.version1`) labels these ``"v": 1`` for a version-1 socket. The socket
protocol's package (:mod:`cuarenta.server.protocol`) reads what browsers send and re-exports these builders.

>>> reaction_message(2, "mosero")
{'v': 2, 'type': 'reaction', 'seat': 2, 'saying': 'mosero'}
"""

from __future__ import annotations

from typing import Any, Final, Literal

#: The protocol version the authority speaks (docs/protocol.md "Version 2"; the same as
#: :data:`cuarenta.server.authority.wire.WIRE_VERSION`).
PROTOCOL_VERSION: Final = 2
#: The status of a room's current mesa (``waiting``: a table that has not started).
Status = Literal["waiting", "playing", "finished"]
#: The computer's pace a browser may ask for (docs/protocol.md, "Computer players and pacing").
Pace = Literal["slow", "normal", "fast"]
#: Every pace, slowest first.
PACES: Final[tuple[Pace, ...]] = ("slow", "normal", "fast")


def error_frame(code: str, message: str, reason: dict[str, Any] | None = None) -> dict[str, Any]:
    """``{"v": 2, "type": "error", "code": ..., "message": ...}``: a refusal told to a socket, with
    ``"reason": {"code", "params"}`` when the engine's error is known (an ``illegal_move``). The code is
    not checked here: the socket protocol's :func:`~cuarenta.server.protocol.error_message` checks it
    against the protocol's codes and builds its frames with this.

    >>> error_frame("seat_reclaimed", "taken back")
    {'v': 2, 'type': 'error', 'code': 'seat_reclaimed', 'message': 'taken back'}
    """
    out: dict[str, Any] = {"v": PROTOCOL_VERSION, "type": "error", "code": code, "message": message}
    if reason is not None:
        out["reason"] = reason
    return out


def pace_message(pace: Pace, delay: float) -> dict[str, Any]:
    """``{"v": 2, "type": "pace", "pace": ..., "delay": seconds}``: the pace in effect in the room and the
    pause the server makes before each computer move there.

    >>> pace_message("fast", 0.2)["delay"]
    0.2
    """
    return {"v": PROTOCOL_VERSION, "type": "pace", "pace": pace, "delay": delay}


def table_message(
    *, room: str, status: Status, seats: list[dict[str, Any]], table: dict[str, Any]
) -> dict[str, Any]:
    """``table``: a table's seats and clock changed without a move (docs/tables.md)."""
    return {
        "v": PROTOCOL_VERSION,
        "type": "table",
        "room": room,
        "status": status,
        "seats": seats,
        "table": table,
    }


def reaction_message(seat: int, saying: str) -> dict[str, Any]:
    """``reaction``: a saying sent by the person at ``seat`` (docs/tables.md)."""
    return {"v": PROTOCOL_VERSION, "type": "reaction", "seat": seat, "saying": saying}


def advice_message(*, room: str, state: int, move: str, level: str) -> dict[str, Any]:
    """``advice``: the move the computer player of ``level`` would make for the asking seat at ``state``
    (docs/protocol.md "Advice"), sent to that socket alone.

    >>> advice_message(room="r", state=7, move="7h x3c+4d", level="experto")["move"]
    '7h x3c+4d'
    """
    return {
        "v": PROTOCOL_VERSION,
        "type": "advice",
        "room": room,
        "state": state,
        "move": move,
        "level": level,
    }


__all__ = [
    "PACES",
    "PROTOCOL_VERSION",
    "Pace",
    "Status",
    "advice_message",
    "error_frame",
    "pace_message",
    "reaction_message",
    "table_message",
]
