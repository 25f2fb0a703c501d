"""The HTTP status of each refusal of the authority (its ``code``): the one table the edge reads; and the
code of a refusal that names none, by its status (every error answer of the API is ``{"detail", "code"}``,
docs/protocol.md).

>>> from cuarenta.server.authority.errors import TableError
>>> http_status(TableError("bad_invite", "…")), http_status(TableError("seat_left", "…"))
(403, 410)
>>> http_status(TableError("something new", "…"))
500
>>> default_code(400), default_code(429), default_code(418)
('bad_input', 'rate_limited', 'error')
"""

from __future__ import annotations

from typing import Final

from cuarenta.server.authority.errors import TableError

#: The HTTP status of each code (docs/protocol.md, docs/tables.md): a damaged save is the server's fault
#: (500), a database that cannot be read just now is 503.
STATUS: Final[dict[str, int]] = {
    # a room that cannot be had
    "unknown_room": 404,
    "not_a_table": 404,
    "bad_token": 403,
    "seat_left": 410,
    "seat_reclaimed": 410,
    "seat_given": 410,
    "corrupt_room": 500,
    "store_unavailable": 503,
    "outcome_unknown": 503,
    # a table's requests
    "bad_invite": 403,
    "profile_required": 403,
    "not_creator": 403,
    "table_full": 409,
    "profile_seated": 409,
    "profile_differs": 409,
    "seat_not_open": 409,
    "name_taken": 409,
    "team_full": 409,
    "already_started": 409,
    "already_left": 409,
    "creator_stays": 409,
    "stale": 409,
    "not_started": 409,
    "seat_not_away": 409,
    "rated_table": 409,
    "not_a_person": 409,
    "wrong_code": 403,
    "bad_code": 400,
    "bad_seat": 400,
    "bad_team": 400,
    "unknown_level": 400,
    # a championship's tables and the championships API (docs/championships.md)
    "judge_runs_table": 409,
    "championship_seat": 403,
    "not_championship": 404,
    "paused": 409,
    "table_replaced": 409,
    "championship_table": 409,
    "unknown_championship": 404,
    "unknown_partida": 404,
    "bad_championship_token": 403,
    "wrong_state": 409,
    "bad_input": 400,
    "not_hall": 409,
    "no_partida": 409,
}
#: The old name of the room part of :data:`STATUS`.
PROBLEM_STATUS: Final = STATUS

#: The code of an error answer whose refusal names none (a framework's 404, a rate limit, a body too
#: large …), by its HTTP status: every error answer of the API carries a code (docs/protocol.md).
STATUS_CODES: Final[dict[int, str]] = {
    400: "bad_input",
    401: "no_token",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    408: "timeout",
    409: "conflict",
    410: "gone",
    413: "too_large",
    422: "bad_input",
    429: "rate_limited",
    500: "server_error",
    503: "unavailable",
}


def default_code(status: int) -> str:
    """The code of an error answer of ``status`` that names no code of its own (``"error"`` for a status
    :data:`STATUS_CODES` does not list)."""
    return STATUS_CODES.get(status, "error")


def http_status(error: TableError) -> int:
    """The HTTP status of a refusal (500 for a code the table does not know: a mistake of the server)."""
    own = getattr(error, "status", None)  # a championship's refusal carries its status
    if isinstance(own, int):
        return own
    return STATUS.get(error.code, 500)


__all__ = ["PROBLEM_STATUS", "STATUS", "STATUS_CODES", "default_code", "http_status"]
