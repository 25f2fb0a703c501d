"""The hints ("Ayudas") for the seat to move, from its view and legal moves only: one module for the
terminal's ``?`` and the page's Ayudas, so the same position always gets the same advice.

For each card in the hand (seed 001's help): the captures it can make, whether one of them is a
caída (R13) or a limpia (R14); and, beyond 001, a warning when every natural way of playing it would
leave the next player an *easy* caída or limpia: easy meaning that, from the cards this seat has not
seen, the next player more likely than not holds a card that does it (:data:`EASY`), or surely holds
one (an announced ronda). The facts come from
:class:`~cuarenta.players.knowledge.Knowledge`, which reads the view alone, so a hint can never reveal
a hidden card.

>>> from cuarenta import CARDS, Game, Rules
>>> named = ["7h", "Kc", "Ks", "Qh", "3c", "4d"]
>>> game = Game.from_position(Rules(), hands=[["7h", "Kc"], ["Ks", "Qh"]], table=["3c", "4d"], stock=[],
...     turn=0, dealer=1, piles=[[], [c for c in CARDS if str(c) not in named]])
>>> for hint in card_hints(game.view(0), game.legal_moves()):
...     print(hint.card, [str(m) for m in hint.captures], hint.caida, hint.limpia, hint.warning)
7h ['7h x3c+4d'] False True None
Kc [] False False caida
>>> seat_hints(game.view(0), game.legal_moves())[1]
{'card': 'Kc', 'takes': False, 'caida': False, 'limpia': False, 'warning': 'caida'}
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import comb
from typing import Any, Final

from cuarenta.captures import capture_options, table_code
from cuarenta.cards import NUM_RANKS, Card
from cuarenta.moves import Action, Move, parse_action
from cuarenta.players.knowledge import Knowledge
from cuarenta.view import SeatView, as_view

#: A chance at least this high that the next player can do it makes a warning.
EASY: Final = 0.5


def holds_any(wanted: int, unseen: int, hand_size: int) -> float:
    """Chance that a hand of ``hand_size`` cards drawn from ``unseen`` cards holds one of ``wanted``.

    >>> holds_any(3, 25, 5) > 0.5 > holds_any(2, 25, 5)
    True
    >>> holds_any(1, 5, 5)
    1.0
    """
    if wanted <= 0 or hand_size <= 0 or unseen <= 0:
        return 0.0
    hand_size = min(hand_size, unseen)
    return 1.0 - comb(unseen - wanted, hand_size) / comb(unseen, hand_size)


@dataclass(frozen=True)
class Risk:
    """What a way of playing a card is likely to leave the next player."""

    kind: str  #: "caida" (it may fall on the card dropped) or "limpia" (it may clear the table)
    chance: float  #: the chance the next player can do it (1.0 when an announced ronda makes it sure)
    table: tuple[Card, ...]  #: the table the play leaves
    ranks: tuple[int, ...]  #: the ranks that would do it
    unseen: int  #: cards of those ranks this seat has not seen


@dataclass(frozen=True)
class CardHint:
    """The hint for one card of the hand."""

    card: Card
    captures: tuple[Move, ...]  #: each capture it can make (with its whole escalera); empty: it takes nothing
    caida: bool  #: one of its captures is a caída (R13)
    limpia: bool  #: one of its captures is a limpia (R14)
    risk: Risk | None  #: set when every natural way of playing it leaves an easy caída or limpia

    @property
    def takes(self) -> bool:
        return bool(self.captures)

    @property
    def warning(self) -> str | None:
        """``"caida"`` or ``"limpia"`` when the card is risky, else ``None``."""
        return None if self.risk is None else self.risk.kind

    def to_dict(self) -> dict[str, Any]:
        """The wire form of the page's Ayudas (docs/protocol.md ``hints``)."""
        return {
            "card": str(self.card),
            "takes": self.takes,
            "caida": self.caida,
            "limpia": self.limpia,
            "warning": self.warning,
        }


def natural_moves(card: Card, moves: Sequence[Move]) -> list[Move]:
    """The ways of playing ``card`` worth judging: each base with its longest escalera, else the drop
    (in manual capture, R12, a shorter escalera only gives cards away)."""
    longest: dict[tuple[Card, ...], Move] = {}
    for m in moves:
        if m.card == card and m.base and (m.base not in longest or len(m.run) > len(longest[m.base].run)):
            longest[m.base] = m
    return list(longest.values()) or [Move(card)]


class _Table:
    """What the next player may do on the tables this seat can leave (computed once per turn)."""

    def __init__(self, view: SeatView, know: Knowledge) -> None:
        self.know = know
        self.two_only = view.rules.sum_cards == "two"
        seat = view.seat
        ends_deal = seat == view.dealer and len(view.hand) == 1
        self.ends_hand = ends_deal and view.stock_size == 0
        self.caida_possible = not ends_deal or view.rules.caida_across_deals
        self.next_seat = (seat + 1) % view.players
        self.next_hand = 5 if ends_deal else view.hand_sizes[self.next_seat]
        # a ronda the next player announced is in its hand (unless the deal ends: then it is gone)
        self.certain = {} if ends_deal else know.known_held.get(self.next_seat, {})

    def chance(self, ranks: Sequence[int]) -> tuple[float, int]:
        """The chance the next player holds a card of one of ``ranks``, and how many are unseen."""
        unseen = sum(self.know.unseen_by_rank[r] for r in ranks)
        if any(self.certain.get(r) for r in ranks):
            return 1.0, unseen
        return holds_any(unseen, len(self.know.unseen), self.next_hand), unseen

    def risk(self, move: Move, table: Sequence[Card]) -> Risk | None:
        """The easy caída or limpia ``move`` leaves the next player, if any (caída first)."""
        after = tuple(c for c in table if c not in move.taken) if move.base else (*table, move.card)
        if not after or self.ends_hand:
            return None
        if not move.base and self.caida_possible:
            rank = move.card.rank
            chance, unseen = self.chance([rank])
            if chance >= EASY:
                return Risk("caida", chance, after, (rank,), unseen)
        code = table_code(c.rank for c in after)
        clearing = tuple(
            rank
            for rank in range(NUM_RANKS)
            if self.know.unseen_by_rank[rank]
            and any(len(b) + len(run) == len(after) for b, run in capture_options(code, rank, self.two_only))
        )
        chance, unseen = self.chance(clearing)
        if clearing and chance >= EASY:
            return Risk("limpia", chance, after, clearing, unseen)
        return None


def card_hints(view: SeatView, legal: Sequence[Action | str]) -> list[CardHint]:
    """The hints of the seat of ``view`` on its turn, one per card of its hand, in hand order.

    ``legal`` are its legal actions (or their text). No legal moves, no hints.
    """
    if not legal:
        return []
    view = as_view(view)
    know = Knowledge.from_view(view)
    table = view.table
    moves = [a for a in (parse_action(a) if isinstance(a, str) else a for a in legal) if isinstance(a, Move)]
    look = _Table(view, know)
    out: list[CardHint] = []
    for card in view.hand:
        natural = natural_moves(card, moves)
        captures = tuple(m for m in natural if m.base)
        risks = [look.risk(m, table) for m in natural]
        risk: Risk | None = None
        if all(r is not None for r in risks):
            # every way of playing it is risky: report a caída first (the drop), else the first one
            risk = next((r for r in risks if r is not None and r.kind == "caida"), risks[0])
        out.append(
            CardHint(
                card=card,
                captures=captures,
                caida=any(view.is_caida(m) for m in captures),
                limpia=any(view.is_limpia(m) for m in captures),
                risk=risk,
            )
        )
    return out


def seat_hints(view: SeatView, legal: Sequence[Action | str]) -> list[dict[str, Any]]:
    """:func:`card_hints` in the wire form of the page's Ayudas (one dict per card)."""
    return [hint.to_dict() for hint in card_hints(view, legal)]


__all__ = ["EASY", "CardHint", "Risk", "card_hints", "holds_any", "natural_moves", "seat_hints"]
