"""Typed events: what happened at the table, in order.

Every event has a ``kind`` (a stable string for JSON, logs and translations)
and ``to_dict()``; scoring events carry the ``team`` and the ``points``
actually added (after R19/R20), and a ``note`` when the rules reduced them.
None of them names a card that was hidden at the table: deals say only who
dealt, rondas only the rank, so the whole list can be shown to every seat.

>>> from cuarenta import Game, Rules
>>> game = Game.new(Rules(), seed=1)
>>> [e.kind for e in game.events][:2]
['dealer_draw', 'deal']
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar

from cuarenta.cards import RANK_CHARS, Card
from cuarenta.errors import READ_ERRORS, ViewError, brief, malformed
from cuarenta.moves import Claim, Move


def _jsonable(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, (Move, Claim)):
        return str(value)
    if isinstance(value, (tuple, list)):
        return [_jsonable(v) for v in value]
    return value


@dataclass(frozen=True)
class Event:
    """Base class of all events."""

    kind: ClassVar[str] = "event"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: ``{"kind": ..., field: value ...}`` with cards as text."""
        out: dict[str, Any] = {"kind": self.kind}
        for f in dataclasses.fields(self):
            out[f.name] = _jsonable(getattr(self, f.name))
        return out


@dataclass(frozen=True)
class DealerDraw(Event):
    """R4: each seat turned a card; the highest rank deals (ties drew again)."""

    kind: ClassVar[str] = "dealer_draw"
    draws: tuple[tuple[tuple[int, Card], ...], ...]  #: one round of (seat, card) per draw
    dealer: int


@dataclass(frozen=True)
class Deal(Event):
    """R5: a deal of five cards to every seat (the cards are not named)."""

    kind: ClassVar[str] = "deal"
    dealer: int
    hand: int  #: hands dealt in this mesa before this one
    deal: int  #: 0 for the first deal of a hand
    cut: int | None  #: where the deck was cut before the first deal of a hand


@dataclass(frozen=True)
class Ronda(Event):
    """R16: three cards of one rank in a deal, announced to the table."""

    kind: ClassVar[str] = "ronda"
    seat: int
    team: int
    rank: str
    points: int
    note: str | None = None


@dataclass(frozen=True)
class FourOfAKind(Event):
    """R17: four cards of one rank; wins the chica or scores like a ronda."""

    kind: ClassVar[str] = "four_of_a_kind"
    seat: int
    team: int
    rank: str
    points: int
    wins_chica: bool
    note: str | None = None


@dataclass(frozen=True)
class Play(Event):
    """A seat played a card (the move names what it took)."""

    kind: ClassVar[str] = "play"
    seat: int
    team: int
    move: Move


@dataclass(frozen=True)
class Caida(Event):
    """R13: took by igualdad the card the previous seat just dropped."""

    kind: ClassVar[str] = "caida"
    seat: int
    team: int
    card: Card  #: the card fallen on
    victim: int  #: the seat that dropped it
    points: int
    note: str | None = None


@dataclass(frozen=True)
class Limpia(Event):
    """R14: a capture that left the table empty."""

    kind: ClassVar[str] = "limpia"
    seat: int
    team: int
    points: int
    note: str | None = None


@dataclass(frozen=True)
class CaidaLimpia(Event):
    """R15: caída and limpia with the same card."""

    kind: ClassVar[str] = "caida_limpia"
    seat: int
    team: int
    card: Card
    victim: int
    points: int
    note: str | None = None


@dataclass(frozen=True)
class CaidaRonda(Event):
    """R18: a caída on a card of the ronda announced by the seat that dropped it."""

    kind: ClassVar[str] = "caida_ronda"
    seat: int
    team: int
    card: Card
    victim: int
    limpia: bool
    points: int
    note: str | None = None


@dataclass(frozen=True)
class ClaimMade(Event):
    """R12 (manual capture): forgotten cards claimed into the claimant's pile."""

    kind: ClassVar[str] = "claim"
    seat: int
    team: int
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class HandEnd(Event):
    """All cards of the hand played; leftovers on the table belong to nobody (R22)."""

    kind: ClassVar[str] = "hand_end"
    leftovers: tuple[Card, ...]
    pile_sizes: tuple[int, ...]


@dataclass(frozen=True)
class Carton(Event):
    """R23: points for the cards a team captured in the hand (one event per team)."""

    kind: ClassVar[str] = "carton"
    team: int
    cards: int
    points: int
    #: "carton" (20 cards or more), "carton_dos_por_dar" (the dealer's exactly 20 under dos por dar: 6 + 2),
    #: "most_cards", "dos_por_dar", or None
    reason: str | None
    note: str | None = None


@dataclass(frozen=True)
class ChicaWon(Event):
    """R24: a team reached the target (or won by R17, R21, or R25 with ``zapatero_wins_mesa``)."""

    kind: ClassVar[str] = "chica_won"
    team: int
    scores: tuple[int, ...]
    chica: int  #: chicas finished before this one
    reason: str  #: "target", "four_of_a_kind", "cuatro_caidas" or "zapatero" (R25, zapatero_wins_mesa)


@dataclass(frozen=True)
class Zapatero(Event):
    """R25: the losing team ended the chica with fewer than 10 points (0: platillo)."""

    kind: ClassVar[str] = "zapatero"
    team: int
    points: int
    platillo: bool


@dataclass(frozen=True)
class MesaWon(Event):
    """R26: a team won the mesa."""

    kind: ClassVar[str] = "mesa_won"
    team: int
    chicas: tuple[int, ...]
    reason: str  #: "chicas" or "zapatero"


def rank_name(rank: int) -> str:
    return RANK_CHARS[rank]


#: Every event class by its ``kind``.
EVENT_CLASSES: dict[str, type[Event]] = {
    cls.kind: cls
    for cls in (
        DealerDraw,
        Deal,
        Ronda,
        FourOfAKind,
        Play,
        Caida,
        Limpia,
        CaidaLimpia,
        CaidaRonda,
        ClaimMade,
        HandEnd,
        Carton,
        ChicaWon,
        Zapatero,
        MesaWon,
    )
}


def _field_value(name: str, value: Any) -> Any:
    """One field of an event dict back as the event holds it (cards, moves and tuples)."""
    if name == "card":
        return Card(value)
    if name in ("cards", "leftovers"):
        return tuple(Card(c) for c in value)
    if name == "move":
        return Move.parse(value)
    if name == "draws":
        return tuple(tuple((int(seat), Card(card)) for seat, card in draw) for draw in value)
    if isinstance(value, list):
        return tuple(value)
    return value


def event_from_dict(data: dict[str, Any]) -> Event:
    """The event written by :meth:`Event.to_dict` (the inverse; extra keys are ignored).

    >>> from cuarenta import Card
    >>> event = Caida(seat=1, team=1, card=Card("5s"), victim=0, points=2)
    >>> event_from_dict(event.to_dict()) == event
    True
    """
    if not isinstance(data, dict):
        raise ViewError.of(
            "event_malformed", reason=ViewError.of("dict_not_object", type=type(data).__name__)
        )
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in EVENT_CLASSES:
        raise ViewError.of("event_malformed", reason=ViewError.of("event_kind", kind=brief(kind)))
    cls = EVENT_CLASSES[kind]
    names = [f.name for f in dataclasses.fields(cls)]
    try:
        return cls(**{n: _field_value(n, data[n]) for n in names if n in data})
    except READ_ERRORS as exc:
        raise malformed(ViewError, "event_malformed", exc) from None
