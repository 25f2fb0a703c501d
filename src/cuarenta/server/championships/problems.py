"""The refusals of the championships service: a code, a sentence, its kind (the HTTP status's) and the
params of its words.

>>> from cuarenta.championship.errors import StateError
>>> _refusal(StateError("no", code="pair_unknown")).kind
'not_found'
"""

from __future__ import annotations

from typing import Any, Final

from cuarenta.championship.errors import ChampionshipError
from cuarenta.championship.hall import HallError
from cuarenta.errors import render
from cuarenta.server.authority.errors import TableError
from cuarenta.server.edge.statuses import Kind

#: The hall's refusals of an entry's own fields (400, bad input); its other refusals are about the
#: sheet's state (409): a cartón too early, a ronda out of order …
HALL_BAD_INPUT: Final = frozenset(
    {
        "hall_not_object",
        "hall_entry_kind",
        "hall_entry_keys",
        "hall_entry_missing",
        "hall_not_an_entry",
        "hall_seat",
        "hall_team",
        "hall_carton_counts",
        "hall_carton_total",
        "hall_limpia_flag",
    }
)
#: The library's errors that are bad input (400); the others are a wrong state (409).
BAD_INPUT: Final = ("SettingsError", "ActionError", "RegistrationError")


class ChampionshipProblem(TableError):
    """A refused championship request: a code (the library's, the hall sheet's, or the service's of
    :data:`~cuarenta.server.edge.statuses.STATUS`), a sentence, the ``kind`` of a code of the library or
    the hall sheet (``bad_input``, ``not_found``, ``wrong_state``: its HTTP status is
    :data:`~cuarenta.server.edge.statuses.KIND_STATUS`'s), and the ``params`` of its words when it has some
    (the page says ``error.<code>`` with them in its own language).

    >>> ChampionshipProblem("stale", "look again").code
    'stale'
    """

    def __init__(
        self, code: str, message: str, kind: Kind | None = None, params: dict[str, Any] | None = None
    ) -> None:
        super().__init__(code, message)
        self.kind = kind
        self.params = params


def _refusal(exc: ChampionshipError) -> ChampionshipProblem:
    """A refusal of the library as the API's: its code, sentence and params; 400 for bad input, else 409."""
    bad = type(exc).__name__ in BAD_INPUT or exc.code.startswith(("chicas", "points", "result", "reason"))
    if exc.code in ("pair_unknown", "partida_unknown", "decision_unknown"):
        return ChampionshipProblem(exc.code, str(exc), "not_found", exc.params)
    return ChampionshipProblem(exc.code, str(exc), "bad_input" if bad else "wrong_state", exc.params)


def hall_refusal(exc: HallError) -> ChampionshipProblem:
    """A refused entry of the hall's sheet as the API's: the refusal's own code and params (an entry not
    in the form ``Entry.to_dict`` writes: the code of what is wrong in it), 400 for an entry's own fields,
    else 409.

    >>> from cuarenta.championship.hall import entry_from_dict
    >>> try:
    ...     entry_from_dict({"kind": "carton", "cards": [30, 9], "leftovers": 0})
    ... except HallError as exc:
    ...     problem = hall_refusal(exc)
    >>> problem.code, problem.kind, problem.params["total"]
    ('hall_carton_total', 'bad_input', 39)
    """
    code, params = exc.code, exc.params
    reason = params.get("reason")
    if code == "hall_entry_malformed" and isinstance(reason, dict) and isinstance(reason.get("code"), str):
        code, params = reason["code"], dict(reason.get("params") or {})
    kind: Kind = "bad_input" if code in HALL_BAD_INPUT else "wrong_state"
    return ChampionshipProblem(code, render(code, params, "en"), kind, params)


__all__ = ["BAD_INPUT", "HALL_BAD_INPUT", "ChampionshipProblem", "hall_refusal"]
