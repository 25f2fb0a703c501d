"""How a chica and a mesa end (R24–R26): small immutable values kept by the game and shown in views.

>>> result = ChicaResult(winner=0, scores=(40, 8), reason="target", zapatero=True, platillo=False)
>>> ChicaResult.from_dict(result.to_dict()) == result
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cuarenta.errors import READ_ERRORS, ViewError, brief, malformed


@dataclass(frozen=True)
class ChicaResult:
    """How a chica ended (R24, R25)."""

    winner: int
    scores: tuple[int, ...]
    reason: str  #: "target", "four_of_a_kind", "cuatro_caidas" or "zapatero"
    zapatero: bool
    platillo: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "scores": list(self.scores),
            "reason": self.reason,
            "zapatero": self.zapatero,
            "platillo": self.platillo,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ChicaResult:
        """The result written by :meth:`to_dict` (:class:`~cuarenta.errors.ViewError` if it is not one)."""
        try:
            return cls(
                int(data["winner"]),
                tuple(int(s) for s in data["scores"]),
                _text(data["reason"]),
                bool(data["zapatero"]),
                bool(data["platillo"]),
            )
        except READ_ERRORS as exc:
            raise malformed(ViewError, "result_malformed", exc) from None


@dataclass(frozen=True)
class Outcome:
    """The end of a mesa (R26): the winning team and the chicas each team won."""

    winner: int
    chicas: tuple[int, ...]
    reason: str  #: "chicas", or "zapatero" with ``zapatero_wins_mesa`` (R25)

    def to_dict(self) -> dict[str, Any]:
        return {"winner": self.winner, "chicas": list(self.chicas), "reason": self.reason}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Outcome:
        """The outcome written by :meth:`to_dict` (:class:`~cuarenta.errors.ViewError` if it is not one)."""
        try:
            return cls(int(data["winner"]), tuple(int(c) for c in data["chicas"]), _text(data["reason"]))
        except READ_ERRORS as exc:
            raise malformed(ViewError, "result_malformed", exc) from None


def _text(value: object) -> str:
    if not isinstance(value, str):
        raise ViewError.of("result_reason", value=brief(value))
    return value
