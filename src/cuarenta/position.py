"""Checking a position given by hand (:meth:`cuarenta.Game.from_position`).

A position is valid when it could occur in a real game: every one of the 40
cards exactly once, hand sizes that match the seat to move and the dealer
(R5, R6), a stock that is a whole number of deals, scores in play. Anything
else raises :class:`~cuarenta.PositionError` naming what is wrong.

>>> from cuarenta import Rules
>>> check_position(Rules(), hands=[["7h"], ["7h"]], table=[], stock=[], turn=0, dealer=1)
Traceback (most recent call last):
...
cuarenta.errors.PositionError: cards given twice: 7h (hands[0] and hands[1])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from cuarenta.cards import CARDS, NUM_CARDS, RANK_CHARS, Card
from cuarenta.errors import CardParseError, PositionError
from cuarenta.rules import Rules


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def card_list(value: Iterable[str | int] | str, what: str) -> list[Card]:
    """Parse cards (text or indices) for a position field, naming the field in errors."""
    if isinstance(value, str):
        value = value.replace(",", " ").split()
    out = []
    for item in value:
        try:
            out.append(Card(item))
        except CardParseError as exc:
            raise PositionError(f"{what}: {exc}") from None
    return out


@dataclass(frozen=True)
class Position:
    """A checked position, ready for the game to take over."""

    hands: list[list[Card]]
    table: list[Card]
    stock: list[Card]
    piles: list[list[Card]]
    scores: tuple[int, int]
    chicas: tuple[int, int]
    turn: int
    dealer: int
    last_drop: Card | None
    deal_number: int
    rondas: tuple[tuple[int, int], ...]

    def to_dict(self) -> dict[str, Any]:
        """The position as :meth:`~cuarenta.Game.from_position` keyword arguments (JSON-ready)."""
        return {
            "hands": [[str(c) for c in h] for h in self.hands],
            "table": [str(c) for c in self.table],
            "stock": [str(c) for c in self.stock],
            "turn": self.turn,
            "dealer": self.dealer,
            "scores": list(self.scores),
            "piles": [[str(c) for c in p] for p in self.piles],
            "last_drop": None if self.last_drop is None else str(self.last_drop),
            "chicas": list(self.chicas),
            "rondas": [[s, RANK_CHARS[r]] for s, r in self.rondas],
        }


def check_position(
    rules: Rules,
    *,
    hands: Sequence[Iterable[str | int]],
    table: Iterable[str | int] = (),
    stock: Iterable[str | int] = (),
    turn: int,
    dealer: int,
    scores: Sequence[int] = (0, 0),
    piles: Sequence[Iterable[str | int]] = ((), ()),
    last_drop: str | int | None = None,
    chicas: Sequence[int] = (0, 0),
    rondas: Iterable[tuple[int, str | int]] = (),
) -> Position:
    """Check the arguments of :meth:`~cuarenta.Game.from_position`; see there."""
    n = rules.players
    if not isinstance(hands, Sequence) or isinstance(hands, str):
        raise PositionError("hands: give one list of cards per seat")
    if len(hands) != n:
        raise PositionError(f"hands: {n} players need {n} hands, got {len(hands)}")
    hand_lists = [card_list(h, f"hands[{i}]") for i, h in enumerate(hands)]
    table_l = card_list(table, "table")
    stock_l = card_list(stock, "stock")
    if len(piles) != 2:
        raise PositionError(f"piles: one pile per team (2), got {len(piles)}")
    pile_l = [card_list(p, f"piles[{i}]") for i, p in enumerate(piles)]
    seen: dict[Card, str] = {}
    dupes: list[str] = []
    places = [(f"hands[{i}]", h) for i, h in enumerate(hand_lists)]
    places += [("table", table_l), ("stock", stock_l)]
    places += [(f"piles[{i}]", p) for i, p in enumerate(pile_l)]
    for where, cards in places:
        for c in cards:
            if c in seen:
                dupes.append(f"{c} ({seen[c]} and {where})")
            else:
                seen[c] = where
    if dupes:
        raise PositionError("cards given twice: " + ", ".join(dupes))
    missing = [str(c) for c in CARDS if c not in seen]
    if missing:
        raise PositionError(
            f"every one of the 40 cards must be placed exactly once; missing: {' '.join(missing)}"
        )
    for name, seat in (("turn", turn), ("dealer", dealer)):
        if not _is_int(seat) or not 0 <= seat < n:
            raise PositionError(f"{name}={seat!r} is not a seat (0..{n - 1})")
    per_deal = 5 * n
    dealt = NUM_CARDS - len(stock_l)
    if dealt <= 0 or dealt % per_deal:
        raise PositionError(
            f"stock: {len(stock_l)} undealt cards is impossible; with {n} players "
            f"the stock holds a multiple of {per_deal} cards below 40"
        )
    played = [5 - len(h) for h in hand_lists]
    if any(p < 0 for p in played):
        raise PositionError("hands: a seat holds more than 5 cards")
    k = sum(played)
    if k == per_deal:
        raise PositionError(
            "hands: every hand is empty; a position needs a seat to move (deal the next cards)"
        )
    first = (dealer + 1) % n
    for s in range(n):
        i = (s - first) % n
        expect = (k - i + n - 1) // n if k > i else 0
        if played[s] != expect:
            raise PositionError(
                f"hands: with dealer {dealer}, seat {first} plays first; after {k} plays "
                f"in this deal seat {s} should hold {5 - expect} cards, not {5 - played[s]}"
            )
    if turn != (first + k) % n:
        raise PositionError(f"turn={turn}: after {k} plays in this deal it is seat {(first + k) % n}'s turn")
    if rules.capture != "manual":
        ranks = [c >> 2 for c in table_l]
        if len(set(ranks)) != len(ranks):
            raise PositionError(
                "table: with automatic capture the table never holds two cards of one rank "
                "(the second would have taken the first)"
            )
    if len(scores) != 2 or len(chicas) != 2:
        raise PositionError("scores and chicas hold one number per team (2)")
    for sc in scores:
        if not isinstance(sc, int) or isinstance(sc, bool) or sc < 0 or sc % 2 or sc >= rules.target:
            raise PositionError(f"scores: {sc!r} is not a score in play (even, 0..{rules.target - 2})")
    for ch in chicas:
        if not isinstance(ch, int) or isinstance(ch, bool) or not 0 <= ch < rules.chicas:
            raise PositionError(f"chicas: {ch!r} is not a number of chicas won (0..{rules.chicas - 1})")
    drop: Card | None = None
    if last_drop is not None:
        try:
            drop = Card(last_drop)
        except CardParseError as exc:
            raise PositionError(f"last_drop: {exc}") from None
        if drop not in table_l:
            raise PositionError(f"last_drop {drop} must be on the table")
        if k == 0 and not rules.caida_across_deals:
            raise PositionError(
                "last_drop: no caída crosses a deal (caida_across_deals is off), "
                "and nobody has played in this deal yet"
            )
    ronda_l: list[tuple[int, int]] = []
    for item in rondas:
        try:
            seat_r, rank_r = item
            rank_i = RANK_CHARS.index(str(rank_r).upper()) if isinstance(rank_r, str) else int(rank_r)
        except (TypeError, ValueError):
            raise PositionError(f"rondas: {item!r} is not a (seat, rank) pair") from None
        if not _is_int(seat_r) or not 0 <= seat_r < n or not 0 <= rank_i < 10:
            raise PositionError(f"rondas: {item!r} is not a (seat, rank) pair")
        ronda_l.append((seat_r, rank_i))
    return Position(
        hands=hand_lists,
        table=table_l,
        stock=stock_l,
        piles=pile_l,
        scores=(scores[0], scores[1]),
        chicas=(chicas[0], chicas[1]),
        turn=turn,
        dealer=dealer,
        last_drop=drop,
        deal_number=dealt // per_deal - 1,
        rondas=tuple(ronda_l),
    )
