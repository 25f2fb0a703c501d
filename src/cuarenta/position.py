"""Checking a position given by hand (:meth:`cuarenta.Game.from_position`).

A position is valid when it could occur in a real game: every one of the 40
cards exactly once, hand sizes that match the seat to move and the dealer
(R5, R6), a stock that is a whole number of deals, scores in play. Anything
else raises :class:`~cuarenta.PositionError` naming what is wrong.

>>> from cuarenta import Rules
>>> check_position(Rules(), hands=[["7h"], ["7h"]], table=[], stock=[], turn=0, dealer=1)
Traceback (most recent call last):
...
cuarenta.errors.PositionError: cards given twice: 7h (hands[0], hands[1])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from cuarenta.cards import CARDS, NUM_CARDS, NUM_RANKS, RANK_CHARS, Card, parse_rank
from cuarenta.errors import CardParseError, PositionError, brief
from cuarenta.rules import Rules


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def card_list(value: object, what: str) -> list[Card]:
    """Parse cards (text or indices) for a position field, naming the field in errors.

    >>> card_list("7h 3c", "table"), card_list(["Kc", 0], "stock")
    ([Card('7h'), Card('3c')], [Card('Kc'), Card('Ah')])
    >>> card_list(5, "table")
    Traceback (most recent call last):
    ...
    cuarenta.errors.PositionError: table: give a list of cards (like ["7h", "3c"]), not 5
    """
    if isinstance(value, str):
        value = value.replace(",", " ").split()
    if not isinstance(value, Iterable) or isinstance(value, dict | bytes | bytearray):
        raise PositionError.of("position_not_cards", field=what, value=brief(value))
    out = []
    for item in value:
        try:
            out.append(Card(item))
        except CardParseError as exc:
            raise PositionError.of("position_card", field=what, reason=exc) from None
    return out


def _pair(value: object, what: str) -> tuple[int, int]:
    """Two whole numbers (team 0, team 1)."""
    if (
        not isinstance(value, Sequence)
        or isinstance(value, str)
        or len(value) != 2
        or not all(_is_int(v) for v in value)
    ):
        raise PositionError.of("position_pair", field=what, value=brief(value))
    return value[0], value[1]


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


def _check_every_card_once(places: list[tuple[str, list[Card]]]) -> None:
    """Every card of the deck is in exactly one place (a hand, the table, the stock, a pile)."""
    seen: dict[Card, str] = {}
    dupes: list[str] = []
    for where, cards in places:
        for c in cards:
            if c in seen:
                dupes.append(f"{c} ({seen[c]}, {where})")
            else:
                seen[c] = where
    if dupes:
        raise PositionError.of("position_cards_twice", cards=", ".join(dupes))
    missing = [str(c) for c in CARDS if c not in seen]
    if missing:
        raise PositionError.of("position_cards_missing", cards=" ".join(missing))


def _check_deal(
    n: int, turn: int, dealer: int, stock_l: list[Card], hand_lists: list[list[Card]]
) -> tuple[list[int], int]:
    """The seats, the stock and the hands agree with a deal under way: each seat's plays so far, and
    their sum."""
    per_deal = 5 * n
    dealt = NUM_CARDS - len(stock_l)
    if dealt <= 0 or dealt % per_deal:
        raise PositionError.of("position_stock", stock=len(stock_l), players=n, per_deal=per_deal)
    played = [5 - len(h) for h in hand_lists]
    if any(p < 0 for p in played):
        raise PositionError.of("position_hand_over_5")
    k = sum(played)
    if k == per_deal:
        raise PositionError.of("position_hands_empty")
    first = (dealer + 1) % n
    for s in range(n):
        i = (s - first) % n
        expect = (k - i + n - 1) // n if k > i else 0
        if played[s] != expect:
            raise PositionError.of(
                "position_hand_size",
                dealer=dealer,
                first=first,
                plays=k,
                seat=s,
                want=5 - expect,
                got=5 - played[s],
            )
    if turn != (first + k) % n:
        raise PositionError.of("position_turn", turn=turn, plays=k, seat=(first + k) % n)
    return played, k


def _check_marks(
    rules: Rules, scores: Sequence[int], chicas: Sequence[int]
) -> tuple[tuple[int, int], tuple[int, int]]:
    """The scores and chicas of each team, each within what the rules allow before the mesa is decided."""
    score_pair = _pair(scores, "scores")
    chica_pair = _pair(chicas, "chicas")
    for sc in score_pair:
        if sc < 0 or sc % 2 or sc >= rules.target:
            raise PositionError.of("position_score", value=sc, last=rules.target - 2)
    if rules.zapatero_winner(score_pair) is not None:
        raise PositionError.of("position_zapatero_decided", scores=f"{score_pair[0]}-{score_pair[1]}")
    for ch in chica_pair:
        if not 0 <= ch < rules.chicas:
            raise PositionError.of("position_chicas", value=ch, last=rules.chicas - 1)
    return score_pair, chica_pair


def _check_drop(rules: Rules, last_drop: str | int | None, table_l: list[Card], k: int) -> Card | None:
    """The card last dropped, if any: on the table, and not carried into a new deal unless the rules
    say so."""
    drop: Card | None = None
    if last_drop is not None:
        try:
            drop = Card(last_drop)
        except CardParseError as exc:
            raise PositionError.of("position_card", field="last_drop", reason=exc) from None
        if drop not in table_l:
            raise PositionError.of("position_drop_off_table", card=drop)
        if k == 0 and not rules.caida_across_deals:
            raise PositionError.of("position_drop_new_deal")
    return drop


def check_position(  # noqa: PLR0913 - the keyword-only parts of Game.from_position
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
    if not isinstance(rules, Rules):
        raise PositionError.of("not_rules", value=type(rules).__name__)
    n = rules.players
    if not isinstance(hands, Sequence) or isinstance(hands, str):
        raise PositionError.of("position_hands_list", value=brief(hands))
    if len(hands) != n:
        raise PositionError.of("position_hands_count", players=n, got=len(hands))
    hand_lists = [card_list(h, f"hands[{i}]") for i, h in enumerate(hands)]
    table_l = card_list(table, "table")
    stock_l = card_list(stock, "stock")
    if not isinstance(piles, Sequence) or isinstance(piles, str) or len(piles) != 2:
        raise PositionError.of("position_piles", value=brief(piles))
    pile_l = [card_list(p, f"piles[{i}]") for i, p in enumerate(piles)]
    places = [(f"hands[{i}]", h) for i, h in enumerate(hand_lists)]
    places += [("table", table_l), ("stock", stock_l)]
    places += [(f"piles[{i}]", p) for i, p in enumerate(pile_l)]
    _check_every_card_once(places)
    for name, seat in (("turn", turn), ("dealer", dealer)):
        if not _is_int(seat) or not 0 <= seat < n:
            raise PositionError.of("position_seat", field=name, value=brief(seat), last=n - 1)
    played, k = _check_deal(n, turn, dealer, stock_l, hand_lists)
    if rules.capture != "manual":
        ranks = [c >> 2 for c in table_l]
        if len(set(ranks)) != len(ranks):
            raise PositionError.of("position_table_pairs")
    score_pair, chica_pair = _check_marks(rules, scores, chicas)
    drop = _check_drop(rules, last_drop, table_l, k)
    ronda_l = _rondas(rondas, n, hand_lists, stock_l, played)
    return Position(
        hands=hand_lists,
        table=table_l,
        stock=stock_l,
        piles=pile_l,
        scores=score_pair,
        chicas=chica_pair,
        turn=turn,
        dealer=dealer,
        last_drop=drop,
        deal_number=(NUM_CARDS - len(stock_l)) // (5 * n) - 1,
        rondas=tuple(ronda_l),
    )


def _rondas(
    rondas: object, n: int, hands: list[list[Card]], stock: list[Card], played: list[int]
) -> tuple[tuple[int, int], ...]:
    """Check the rondas announced in this deal (R16): each a (seat, rank) that could have been dealt.

    A seat holds at most one ronda in a deal, a rank makes at most one; the seat must still hold the
    ronda's cards it has not played in this deal, and no more than one card of that rank may be in the
    other hands or the stock (three were dealt to it).
    """
    if isinstance(rondas, str) or not isinstance(rondas, Iterable):
        raise PositionError.of("position_rondas", value=brief(rondas))
    found: list[tuple[int, int]] = []
    for item in rondas:
        try:
            seat_r, rank_r = item
            rank_i = parse_rank(rank_r) if isinstance(rank_r, str) else rank_r
        except (TypeError, ValueError):
            raise PositionError.of("position_ronda", value=brief(item)) from None
        if not _is_int(seat_r) or not 0 <= seat_r < n or not _is_int(rank_i) or not 0 <= rank_i < NUM_RANKS:
            raise PositionError.of("position_ronda", value=brief(item))
        rank_char = RANK_CHARS[rank_i]
        if any(s == seat_r for s, _ in found):
            raise PositionError.of("position_ronda_seat_twice", seat=seat_r)
        if any(r == rank_i for _, r in found):
            raise PositionError.of("position_ronda_rank_twice", rank=rank_char)
        held = sum(1 for c in hands[seat_r] if c >> 2 == rank_i)
        elsewhere = sum(1 for s in range(n) if s != seat_r for c in hands[s] if c >> 2 == rank_i)
        elsewhere += sum(1 for c in stock if c >> 2 == rank_i)
        if elsewhere > 1 or held + played[seat_r] < 3:
            raise PositionError.of("position_ronda_impossible", seat=seat_r, rank=rank_char)
        found.append((seat_r, rank_i))
    return tuple(found)
