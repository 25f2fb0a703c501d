"""What one seat may know: :class:`SeatView`, an immutable value built by :meth:`cuarenta.Game.view`.

A view holds the seat's own hand; the table and the card just dropped; every
seat's card count and the stock's size; the cards each team captured this hand
(captures are made face up, so they are public); scores, chicas, the rondas
announced in this deal, what the seat may claim (manual capture, R12); the
public events of the current hand (typed events: deals name no card); and the
rules. Never another seat's cards, the stock's order or the seed.

>>> from cuarenta import Game, Rules
>>> game = Game.new(Rules(players=4), seed=8)
>>> view = game.view(2)
>>> view.seat, view.team, len(view.hand), view.hand_sizes, view.stock_size
(2, 0, 5, (5, 5, 5, 5), 20)
>>> [e.kind for e in view.history]
['deal']

:meth:`SeatView.to_dict` is the JSON form of the web protocol (docs/protocol.md)
and :meth:`SeatView.from_dict` reads it back:

>>> SeatView.from_dict(view.to_dict()) == view
True
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final

from cuarenta.cards import RANK_CHARS, Card
from cuarenta.errors import READ_ERRORS, ViewError, brief, malformed
from cuarenta.events import Event, event_from_dict
from cuarenta.moves import Move
from cuarenta.results import ChicaResult, Outcome
from cuarenta.rules import Rules, is_caida, is_limpia

#: Version of the view's JSON form (``to_dict``).
VIEW_VERSION: Final = 1


def as_view(view: SeatView | dict[str, Any]) -> SeatView:
    """A :class:`SeatView`; the 0.1 dict form is converted, with a ``DeprecationWarning``.

    For functions that took ``game.view(seat)`` when it was a dict (players' helpers, the hints).
    """
    if isinstance(view, SeatView):
        return view
    warnings.warn(
        "pass the SeatView of game.view(seat), not its dict form (SeatView.from_dict converts one)",
        DeprecationWarning,
        stacklevel=3,
    )
    return SeatView.from_dict(view)


def _cards(items: Any) -> tuple[Card, ...]:
    return tuple(Card(c) for c in items)


@dataclass(frozen=True)
class SeatView:
    """Everything ``seat`` may know at this moment (see the module docstring)."""

    seat: int
    players: int
    rules: Rules
    turn: int | None  #: the seat to move; ``None`` once the mesa is over
    dealer: int
    hand: tuple[Card, ...]  #: this seat's cards, in the order dealt
    hand_sizes: tuple[int, ...]  #: every seat's card count
    table: tuple[Card, ...]  #: in the order the cards were put there
    last_drop: Card | None  #: the card the previous seat just dropped, if a caída on it is possible (R13)
    stock_size: int
    piles: tuple[tuple[Card, ...], tuple[Card, ...]]  #: the cards each team captured this hand
    scores: tuple[int, int]
    chicas: tuple[int, int]
    hand_number: int  #: hands dealt in this mesa before the current one
    deal_number: int  #: 0 for the first deal of the hand
    rondas: tuple[tuple[int, int], ...]  #: (seat, rank index) of the rondas announced in this deal
    claimable: tuple[tuple[Card, ...], ...]  #: manual capture (R12): what the seat to move may claim
    history: tuple[Event, ...]  #: the public events of the current hand
    chica_results: tuple[ChicaResult, ...]
    outcome: Outcome | None

    # -- derived facts --------------------------------------------------------------------------
    @property
    def team(self) -> int:
        """R3: seats 0 and 2 are team 0, seats 1 and 3 team 1."""
        return self.seat & 1

    @property
    def pile_sizes(self) -> tuple[int, int]:
        return (len(self.piles[0]), len(self.piles[1]))

    @property
    def is_my_turn(self) -> bool:
        return self.turn == self.seat

    def is_caida(self, move: Move) -> bool:
        """R13: whether ``move`` falls on the card just dropped (see :meth:`cuarenta.Game.is_caida`)."""
        return is_caida(move, self.last_drop)

    def is_limpia(self, move: Move) -> bool:
        """R14: whether ``move`` leaves the table empty (see :meth:`cuarenta.Game.is_limpia`)."""
        return is_limpia(move, len(self.table))

    # -- the wire form ----------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The view as JSON-ready data (docs/protocol.md ``view``): cards as text, events as dicts."""
        return {
            "version": VIEW_VERSION,
            "seat": self.seat,
            "team": self.team,
            "players": self.players,
            "rules": self.rules.to_dict(),
            "turn": self.turn,
            "dealer": self.dealer,
            "hand": [str(c) for c in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "table": [str(c) for c in self.table],
            "last_drop": None if self.last_drop is None else str(self.last_drop),
            "stock_size": self.stock_size,
            "pile_sizes": list(self.pile_sizes),
            "piles": [[str(c) for c in p] for p in self.piles],
            "scores": list(self.scores),
            "chicas": list(self.chicas),
            "hand_number": self.hand_number,
            "deal_number": self.deal_number,
            "rondas": [{"seat": s, "rank": RANK_CHARS[r]} for s, r in self.rondas],
            "claimable": [[str(c) for c in opt] for opt in self.claimable],
            "history": [e.to_dict() for e in self.history],
            "chica_results": [r.to_dict() for r in self.chica_results],
            "outcome": None if self.outcome is None else self.outcome.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SeatView:
        """The view written by :meth:`to_dict`; :class:`~cuarenta.errors.ViewError` (a ``ValueError``)
        saying what is wrong if it is not one.

        >>> SeatView.from_dict({"version": 2})
        Traceback (most recent call last):
        ...
        cuarenta.errors.ViewError: not a view in the form SeatView.to_dict writes: its version is 2, not 1
        """
        if not isinstance(data, dict):
            raise ViewError.of(
                "view_malformed", reason=ViewError.of("dict_not_object", type=type(data).__name__)
            )
        if data.get("version") != VIEW_VERSION:
            reason = ViewError.of("dict_version", value=brief(data.get("version")), expected=VIEW_VERSION)
            raise ViewError.of("view_malformed", reason=reason)
        try:
            return cls._read(data)
        except READ_ERRORS as exc:
            raise malformed(ViewError, "view_malformed", exc) from None

    @classmethod
    def _read(cls, data: dict[str, Any]) -> SeatView:
        piles = tuple(_cards(p) for p in data["piles"])
        drop = data["last_drop"]
        outcome = data["outcome"]
        return cls(
            seat=int(data["seat"]),
            players=int(data["players"]),
            rules=Rules.from_dict(data["rules"]),
            turn=None if data["turn"] is None else int(data["turn"]),
            dealer=int(data["dealer"]),
            hand=_cards(data["hand"]),
            hand_sizes=tuple(int(n) for n in data["hand_sizes"]),
            table=_cards(data["table"]),
            last_drop=None if drop is None else Card(drop),
            stock_size=int(data["stock_size"]),
            piles=(piles[0], piles[1]),
            scores=(int(data["scores"][0]), int(data["scores"][1])),
            chicas=(int(data["chicas"][0]), int(data["chicas"][1])),
            hand_number=int(data["hand_number"]),
            deal_number=int(data["deal_number"]),
            rondas=tuple((int(r["seat"]), RANK_CHARS.index(r["rank"])) for r in data["rondas"]),
            claimable=tuple(_cards(opt) for opt in data["claimable"]),
            history=tuple(event_from_dict(e) for e in data["history"]),
            chica_results=tuple(ChicaResult.from_dict(r) for r in data["chica_results"]),
            outcome=None if outcome is None else Outcome.from_dict(outcome),
        )

    # -- the old dict interface (version 0.1), kept working with a warning ----------------------
    def __getitem__(self, key: str) -> Any:
        """Deprecated: ``view["hand"]`` reads the dict form; use the attributes or :meth:`to_dict`."""
        warnings.warn(
            "game.view(seat) is a SeatView now: use its attributes (view.hand) or view.to_dict()[key]",
            DeprecationWarning,
            stacklevel=2,
        )
        return self.to_dict()[key]

    def __iter__(self) -> Iterator[str]:
        """Deprecated: iterating a view gives the keys of its dict form, as the 0.1 dict did."""
        warnings.warn(
            "game.view(seat) is a SeatView now: iterate view.to_dict() for its keys",
            DeprecationWarning,
            stacklevel=2,
        )
        return iter(self.to_dict())
