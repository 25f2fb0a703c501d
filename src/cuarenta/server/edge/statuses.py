"""The one mapping from refusal codes to HTTP statuses: every refusal the API answers (a room's, a table's,
a profile's, a championship's) gets its status here, from its ``code`` (:data:`STATUS`) or, for the open
sets of codes of the championship library and of the hall's sheet, from its ``kind``
(:data:`KIND_STATUS`); and the code of an answer that names none, by its status (every error answer of
the API is ``{"detail", "code"}``, docs/protocol.md). The edge's routes (:mod:`cuarenta.server.edge.deps`)
and the device host read it.

>>> from cuarenta.server.authority.errors import TableError
>>> http_status(TableError("bad_invite", "…")), http_status(TableError("seat_left", "…"))
(403, 410)
>>> http_status(TableError("something new", "…"))
500
>>> status_of("unknown_profile"), status_of("points_too_high", "bad_input"), status_of("x", default=400)
(404, 400, 400)
>>> default_code(400), default_code(429), default_code(418)
('bad_input', 'rate_limited', 'error')
"""

from __future__ import annotations

from typing import Final, Literal, Protocol

#: What kind of refusal a code of an open set is (the championship library's, the hall sheet's codes).
Kind = Literal["bad_input", "not_found", "wrong_state"]

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
    "rated_computer": 409,
    "championship_full": 409,
    # profiles (docs/ratings.md)
    "unknown_profile": 404,
    "bad_key": 403,
}
#: The status of a refusal by its :data:`Kind`, for codes :data:`STATUS` cannot list (a championship's
#: library and hall sheet name their own: a field out of range is bad input, a ronda out of order a wrong
#: state).
KIND_STATUS: Final[dict[str, int]] = {"bad_input": 400, "not_found": 404, "wrong_state": 409}

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


class Refused(Protocol):
    """A refusal: its ``code`` (and, for a code of an open set, its :data:`Kind`, ``kind``)."""

    @property
    def code(self) -> str: ...


def status_of(code: str, kind: Kind | None = None, *, default: int = 500) -> int:
    """The HTTP status of a refusal's ``code``; of its ``kind`` when it has one; else ``default`` (500: a
    code nobody mapped is a mistake of the server)."""
    if kind is not None:
        return KIND_STATUS[kind]
    return STATUS.get(code, default)


def http_status(error: Refused, *, default: int = 500) -> int:
    """The HTTP status of a refusal (:func:`status_of` its ``code`` and ``kind``)."""
    return status_of(error.code, getattr(error, "kind", None), default=default)


__all__ = [
    "KIND_STATUS",
    "PROBLEM_STATUS",
    "STATUS",
    "STATUS_CODES",
    "Kind",
    "Refused",
    "default_code",
    "http_status",
    "status_of",
]
