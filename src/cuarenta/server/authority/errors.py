"""The authority's errors: a code and a message, never an HTTP status (the edge chooses that).

:class:`TableError` is every refusal of a table's authority: a request that breaks a rule, a room that
cannot be had, a change the store did not take. Its ``code`` is what the edge maps to an HTTP status
(:mod:`cuarenta.server.edge.statuses`) or sends in a WebSocket ``error`` frame (docs/protocol.md).

>>> error = TableError("not_your_turn", "it is seat 1's turn, not seat 0's")
>>> error.code, error.message, error.reason
('not_your_turn', "it is seat 1's turn, not seat 0's", None)
>>> isinstance(RoomProblem("unknown_room", "there is no room 'x'"), TableError)
True
"""

from __future__ import annotations

from typing import Any, Final


class TableError(Exception):
    """A request refused by the authority: ``code`` says which rule (docs/protocol.md, docs/tables.md),
    ``message`` says why in words; ``reason`` is the engine's error behind an ``illegal_move`` as
    ``{"code", "params"}`` (the page words it with ``error.<code>``).

    ``pending`` is what an ``outcome_unknown`` refusal was about to give, when there is something to give
    (a seat and its token: :meth:`~cuarenta.server.authority.core.Authority.found_out`)."""

    pending: Any = None

    def __init__(self, code: str, message: str, reason: dict[str, Any] | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.reason = reason


class RoomProblem(TableError):
    """A room that cannot be had: ``unknown_room``, ``not_a_table``, ``bad_token``, ``seat_left``,
    ``seat_reclaimed``, ``seat_given``,
    ``corrupt_room`` or ``store_unavailable`` (a room that cannot be read)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(code, message)


#: What the token of a person who left a table for good is told (``seat_left``), wherever it is used.
SEAT_LEFT: Final = "you left this table: the computer plays your seat now, and your token opens nothing"

#: What the replaced token of a seat is told, by why it was replaced (docs/tables.md "Taking a seat back").
SEAT_TAKEN: Final[dict[str, tuple[str, str]]] = {
    "reclaimed": (
        "seat_reclaimed",
        "your seat was taken back on another device with its seat code: this device's key opens nothing now",
    ),
    "handed": (
        "seat_given",
        "the table's creator gave your seat to someone else while you were away: this key opens nothing now",
    ),
}

#: Every code a :class:`TableError` of the HTTP requests of tables may carry besides :class:`RoomProblem`'s
#: (the edge maps each to a status: :mod:`cuarenta.server.edge.statuses`).
TABLE_CODES: Final[dict[str, str]] = {
    "bad_invite": "the invite code is not the table's",
    "table_full": "no open seat, or the table has started",
    "profile_required": "a rated table is joined with a profile",
    "profile_seated": "that profile holds a seat at this table already",
    "profile_differs": "a rated championship's seat is sat again with the profile that took it",
    "bad_seat": "not a seat of this table",
    "seat_not_open": "that seat is taken",
    "bad_team": "not a team (0 or 1)",
    "team_full": "the team has no open seat",
    "unknown_level": "not a computer level of this server",
    "not_creator": "only the table's creator may do that",
    "already_started": "the table has started already",
    "already_left": "the person left this table already",
    "creator_stays": "the creator cannot leave a table that waits",
    "stale": "another server process changed the table first",
    "bad_code": "not a seat code (8 letters and digits)",
    "wrong_code": "the code is no seat's code at this table",
    "seat_not_away": "the seat's person is at the table (or it is no person's seat)",
    "rated_table": "a rated table's seat cannot be handed to someone else",
    "not_a_person": "the seat is not held by a person",
    "store_unavailable": "the change could not be stored, so it was not made",
    "outcome_unknown": "the database stopped answering while it stored the change: it may have been made",
}

__all__ = ["SEAT_LEFT", "SEAT_TAKEN", "TABLE_CODES", "RoomProblem", "TableError"]
