"""The values of a championship of pairs: pairs, partidas, results and the judge's decisions.

Every value is a frozen dataclass with ``to_dict()``; the one mutable state is
:class:`~cuarenta.championship.Championship`, which replaces these values as actions arrive.

>>> pair = Pair("p1", "Los Ases", ("Ana", "Beto"))
>>> pair.to_dict()
{'id': 'p1', 'name': 'Los Ases', 'players': ['Ana', 'Beto'], 'seed': None, 'withdrawn': False}
>>> check_name("  Ana  ", "player")
'Ana'
>>> partida = Partida("r1t1", 1, 1, ("p1", "p2"), ("p1", "p2", "p1", "p2"), deal_seed=7)
>>> partida.status
'running'
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any, Final, Literal

from cuarenta.championship.errors import RegistrationError
from cuarenta.errors import brief, clip

#: The longest name of a player or a pair.
MAX_NAME: Final = 40
#: The longest reason of a judge's decision or a committee's review.
MAX_REASON: Final = 500

PartidaStatus = Literal["running", "paused", "finished", "bye"]
#: The kinds of a judge's decision (a walkover comes from the ``Walkover`` action, the others from
#: ``Decide``).
DECISION_KINDS: Final = ("walkover", "pause", "resume", "restart", "note", "penalty")


def check_name(value: object, what: str) -> str:
    """A name of a player or a pair (``what``), stripped: 1–40 characters, no control characters.

    >>> check_name("\\tLos Ases ", "pair")
    'Los Ases'
    >>> check_name("", "pair")
    Traceback (most recent call last):
    ...
    cuarenta.championship.errors.RegistrationError: the pair's name must have 1 to 40 characters, not ''
    """
    if not isinstance(value, str):
        raise RegistrationError.of("name_not_text", what=what, value=brief(value))
    name = value.strip()
    if not 1 <= len(name) <= MAX_NAME:
        raise RegistrationError.of("name_length", what=what, value=clip(name), most=MAX_NAME)
    if any(unicodedata.category(c).startswith("C") for c in name):
        raise RegistrationError.of("name_control", what=what, value=brief(name))
    return name


def check_reason(value: object, what: str = "reason") -> str:
    """A decision's or a review's reason (or a judge's name: ``what="by"``): stripped, 1–500 characters."""
    if not isinstance(value, str) or not 1 <= len(value.strip()) <= MAX_REASON:
        raise RegistrationError.of("reason_text", what=what, value=brief(value), most=MAX_REASON)
    return value.strip()


@dataclass(frozen=True)
class Pair:
    """A registered pair: its id (``p1``, ``p2`` … in registration order), name, two players, seed."""

    id: str
    name: str
    players: tuple[str, str]
    seed: int | None = None
    withdrawn: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "players": list(self.players),
            "seed": self.seed,
            "withdrawn": self.withdrawn,
        }


@dataclass(frozen=True)
class Result:
    """A finished partida: the winning pair's id, chicas and points in the order of the partida's
    ``pairs``, whether it was a walkover, and who recorded it (``"report"``, ``"bye"``, ``"withdrawal"``
    or the judge's name).

    A bye and a walkover are won ``rules.chicas``–0 with 0–0 points.
    """

    winner: str
    chicas: tuple[int, int]
    points: tuple[int, int]
    walkover: bool = False
    by: str = "report"

    def to_dict(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "chicas": list(self.chicas),
            "points": list(self.points),
            "walkover": self.walkover,
            "by": self.by,
        }


@dataclass(frozen=True)
class Partida:
    """One partida (a mesa of ``rules.chicas`` chicas to win) of a round at a table.

    ``pairs``: the first pair and the second (``None``: a bye). ``seats``: the pair id at each seat 0..3,
    the first pair at 0 and 2 unless swapped at a duplicate twin (a bye's empty seats are ``None``).
    ``deal_seed``: the seed of the mesa's deals (0 for a bye: nothing is dealt). ``twin``: the table
    whose partida holds the same cards (duplicate deals), else ``None``.
    """

    id: str
    round: int
    table: int
    pairs: tuple[str, str | None]
    seats: tuple[str | None, str | None, str | None, str | None]
    deal_seed: int
    twin: int | None = None
    result: Result | None = None
    paused: bool = False

    @property
    def status(self) -> PartidaStatus:
        """``"bye"``, ``"finished"``, ``"paused"`` or ``"running"``."""
        if self.pairs[1] is None:
            return "bye"
        if self.result is not None:
            return "finished"
        return "paused" if self.paused else "running"

    @property
    def is_open(self) -> bool:
        """Running or paused: waiting for its result."""
        return self.status in ("running", "paused")

    def side(self, pair: str) -> int:
        """0 or 1: where ``pair`` is in :attr:`pairs`."""
        return self.pairs.index(pair)

    def opponent(self, pair: str) -> str | None:
        """The other pair (``None`` for a bye)."""
        return self.pairs[1 - self.side(pair)]

    def to_dict(self, *, seed: bool = True) -> dict[str, Any]:
        """The partida as JSON-ready data; ``seed=False`` leaves the deal seed out."""
        data: dict[str, Any] = {
            "id": self.id,
            "round": self.round,
            "table": self.table,
            "pairs": list(self.pairs),
            "seats": list(self.seats),
            "twin": self.twin,
            "status": self.status,
            "result": None if self.result is None else self.result.to_dict(),
        }
        if seed:
            data["deal_seed"] = self.deal_seed
        return data


@dataclass(frozen=True)
class Decision:
    """A judge's decision (Juez de Aguas, seed 002) and its review by the committee, if any.

    ``index``: its number in the championship (0, 1 …); ``partida``: its partida's id or ``None``;
    ``kind``: one of :data:`DECISION_KINDS`; a walkover's ``winner``. ``reviewed_by`` and
    ``review_reason`` are set by a review; ``reversed_by`` too when the review reversed it.
    """

    index: int
    partida: str | None
    kind: str
    reason: str
    by: str
    reversed_by: str | None = None
    review_reason: str | None = None
    reviewed_by: str | None = None
    winner: str | None = None

    @property
    def reviewed(self) -> bool:
        return self.reviewed_by is not None

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "partida": self.partida,
            "kind": self.kind,
            "reason": self.reason,
            "by": self.by,
            "winner": self.winner,
            "reviewed_by": self.reviewed_by,
            "reversed_by": self.reversed_by,
            "review_reason": self.review_reason,
        }


__all__ = [
    "DECISION_KINDS",
    "MAX_NAME",
    "MAX_REASON",
    "Decision",
    "Pair",
    "Partida",
    "PartidaStatus",
    "Result",
    "check_name",
    "check_reason",
]
