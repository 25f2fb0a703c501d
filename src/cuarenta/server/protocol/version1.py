"""Version 1 of the socket protocol (docs/protocol.md; deprecated): its ``state`` message, which only the
edge's adapter (:mod:`cuarenta.server.edge.version1`) makes, from the version-2 frames the authority sends.
Every other message of version 1 is version 2's labelled ``"v": 1``.

Retiring version 1 deletes this module and the adapter.
"""

from __future__ import annotations

from typing import Any, Final

from cuarenta.server.authority.messages import Status

#: The deprecated protocol version a socket may still join with (docs/protocol.md "Deprecation of version 1").
VERSION1: Final = 1


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
    """Version 1's ``state`` message of one seat (docs/protocol.md), or of a spectator (``seat`` ``None``).

    ``moves`` says what each of ``legal`` does (``{"move", "caida", "limpia"}``); every event of
    ``events`` and of ``view["history"]`` carries its ``"sayings"`` (keys of the catalogue). A table's
    messages also carry ``table`` and ``event_count`` (docs/tables.md).

    >>> state_message(room="r", state=3, mesa=1, seat=0, seats=[], view={}, legal=[], moves=[], hints=[],
    ...               events=[], status="playing")["v"]
    1
    """
    extra: dict[str, Any] = {}
    if table is not None:
        extra = {"table": table, "event_count": event_count}
    return {
        "v": VERSION1,
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


__all__ = ["VERSION1", "state_message"]
