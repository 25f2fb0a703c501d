"""The messages the authority sends to a table's sockets (docs/protocol.md, version 1), as plain dicts.

The edge (:mod:`cuarenta.server.protocol`) reads what browsers send and re-exports these builders; the
authority builds what it sends with them, without the web stack.

>>> reaction_message(2, "mosero")
{'v': 1, 'type': 'reaction', 'seat': 2, 'saying': 'mosero'}
"""

from __future__ import annotations

from typing import Any, Final, Literal

#: The protocol version of docs/protocol.md.
PROTOCOL_VERSION: Final = 1
#: The status of a room's current mesa (``waiting``: a table that has not started).
Status = Literal["waiting", "playing", "finished"]
#: The computer's pace a browser may ask for (docs/protocol.md, "Computer players and pacing").
Pace = Literal["slow", "normal", "fast"]
#: Every pace, slowest first.
PACES: Final[tuple[Pace, ...]] = ("slow", "normal", "fast")


def pace_message(pace: Pace, delay: float) -> dict[str, Any]:
    """``{"v": 1, "type": "pace", "pace": ..., "delay": seconds}``: the pace in effect in the room and the
    pause the server makes before each computer move there.

    >>> pace_message("fast", 0.2)["delay"]
    0.2
    """
    return {"v": PROTOCOL_VERSION, "type": "pace", "pace": pace, "delay": delay}


def state_message(  # noqa: PLR0913 - one keyword per field of the state message (docs/protocol.md)
    *,
    room: str,
    state: int,
    mesa: int,
    seat: int | None,
    seats: list[dict[str, Any]],
    view: dict[str, Any],
    legal: list[str],
    moves: list[dict[str, Any]],
    hints: list[dict[str, Any]],
    events: list[dict[str, Any]],
    status: Status,
    table: dict[str, Any] | None = None,
    event_count: int | None = None,
) -> dict[str, Any]:
    """The ``state`` message of one seat (docs/protocol.md), or of a spectator (``seat`` ``None``).

    ``moves`` says what each of ``legal`` does (``{"move", "caida", "limpia"}``); every event of
    ``events`` and of ``view["history"]`` carries its ``"sayings"`` (keys of the catalogue). A table's
    messages also carry ``table`` and ``event_count`` (docs/tables.md).
    """
    extra: dict[str, Any] = {}
    if table is not None:
        extra = {"table": table, "event_count": event_count}
    return {
        "v": PROTOCOL_VERSION,
        "type": "state",
        "room": room,
        "state": state,
        "mesa": mesa,
        "seat": seat,
        "seats": seats,
        "view": view,
        "legal": legal,
        "moves": moves,
        "hints": hints,
        "events": events,
        "status": status,
        **extra,
    }


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


__all__ = [
    "PACES",
    "PROTOCOL_VERSION",
    "Pace",
    "Status",
    "pace_message",
    "reaction_message",
    "state_message",
    "table_message",
]
