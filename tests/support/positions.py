"""Positions and event helpers for the rule tests.

The main one is :func:`position`: it builds a :meth:`Game.from_position` where a test names only the
cards that matter (hands, table, the start of the stock, some pile cards) and every other card is
filled in for it: first into the stock (spread so that no filled deal gives anyone a ronda), then
into the two teams' piles. The seat to move is worked out from the hand sizes unless given.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import pytest

from cuarenta import CARDS, Card, Game, IllegalMoveError, Rules
from cuarenta.events import Event

CardsSpec = str | Iterable[str | int]


def cards(spec: CardsSpec) -> list[Card]:
    """Cards from text (``"7h 3c"``) or from an iterable of cards/texts."""
    return Card.parse_many(spec) if isinstance(spec, str) else [Card(c) for c in spec]


def _fill_stock(stock: list[Card | None], filler: list[Card]) -> None:
    """Put filler cards in the empty stock slots, never making three of a rank in one seat's five
    cards (so a filled deal never scores a ronda the test did not ask for)."""
    for card in filler:
        for i, slot in enumerate(stock):
            if slot is not None:
                continue
            chunk = stock[(i // 5) * 5 : (i // 5) * 5 + 5]
            if sum(1 for c in chunk if c is not None and c.rank == card.rank) < 2:
                stock[i] = card
                break
        else:
            raise AssertionError(f"cannot place {card} in the stock without making a ronda")


def position(  # noqa: PLR0913 - Game.from_position's keyword-only parts, and the sizes it fills in
    rules: Rules | None = None,
    *,
    hands: Sequence[CardsSpec],
    table: CardsSpec = (),
    stock: CardsSpec = (),
    stock_size: int | None = None,
    piles: Sequence[CardsSpec] = ((), ()),
    pile_sizes: tuple[int | None, int | None] | None = None,
    turn: int | None = None,
    dealer: int = 1,
    scores: Sequence[int] = (0, 0),
    last_drop: str | None = None,
    chicas: Sequence[int] = (0, 0),
    rondas: Iterable[tuple[int, str]] = (),
    seed: int | str = 0,
) -> Game:
    """A :meth:`Game.from_position` naming only the cards that matter.

    ``stock`` is the start of the stock in dealing order (the first five cards go to the seat on the
    dealer's right); ``stock_size`` its full length (default: ``len(stock)``), the rest is filled.
    ``pile_sizes`` fixes how many cards each team's pile holds (``None`` for one team: the rest);
    by default the remaining cards are shared out alternately.
    """
    rules = rules or Rules()
    n = rules.players
    hand_l = [cards(h) for h in hands]
    table_l = cards(table)
    stock_named = cards(stock)
    pile_l = [cards(p) for p in piles]
    named = [c for h in hand_l for c in h] + table_l + stock_named + [c for p in pile_l for c in p]
    assert len(set(named)) == len(named), f"a card is named twice: {named}"
    filler = [c for c in CARDS if c not in set(named)]
    size = len(stock_named) if stock_size is None else stock_size
    assert size >= len(stock_named)
    stock_slots: list[Card | None] = [*stock_named, *([None] * (size - len(stock_named)))]
    need = size - len(stock_named)
    # spread the filled stock cards: take every rank from the filler in turn
    by_rank: dict[int, list[Card]] = {}
    for c in filler:
        by_rank.setdefault(c.rank, []).append(c)
    spread: list[Card] = []
    while any(by_rank.values()):
        for r in sorted(by_rank):
            if by_rank[r]:
                spread.append(by_rank[r].pop(0))
    to_stock = spread[:need]
    rest = [c for c in filler if c not in set(to_stock)]
    _fill_stock(stock_slots, to_stock)
    full_stock = [c for c in stock_slots if c is not None]
    if pile_sizes is None:
        for i, c in enumerate(rest):
            pile_l[i % 2].append(c)
    else:
        a, b = pile_sizes
        if a is None:
            assert b is not None
            a = len(pile_l[0]) + len(rest) - (b - len(pile_l[1]))
        give0 = a - len(pile_l[0])
        assert 0 <= give0 <= len(rest), f"cannot make pile 0 hold {a} cards"
        pile_l[0].extend(rest[:give0])
        pile_l[1].extend(rest[give0:])
        if b is not None:
            assert len(pile_l[1]) == b, f"pile 1 would hold {len(pile_l[1])} cards, not {b}"
    if turn is None:
        k = sum(5 - len(h) for h in hand_l)
        turn = (dealer + 1 + k) % n
    return Game.from_position(
        rules,
        hands=hand_l,
        table=table_l,
        stock=full_stock,
        turn=turn,
        dealer=dealer,
        scores=scores,
        piles=pile_l,
        last_drop=last_drop,
        chicas=chicas,
        rondas=rondas,
        seed=seed,
    )


def kinds(events: Iterable[Event]) -> list[str]:
    """The kinds of events, in order."""
    return [e.kind for e in events]


def of_kind(events: Iterable[Event], kind: str) -> list[Any]:
    """The events of one kind, in order."""
    return [e for e in events if e.kind == kind]


def one(events: Iterable[Event], kind: str) -> Any:
    """The single event of a kind (fails if there is not exactly one)."""
    found = of_kind(events, kind)
    assert len(found) == 1, f"expected one {kind!r} event, got {kinds(events)}"
    return found[0]


def deal_points(events: Sequence[Event]) -> tuple[int, int]:
    """Points scored by rondas / four of a kind after the last hand_end or chica_won in ``events``.

    Tests that play through the end of a hand use it to discount whatever the next hand's first
    deal (dealt from the seed) happened to give.
    """
    start = 0
    for i, e in enumerate(events):
        if e.kind in ("hand_end", "chica_won"):
            start = i
    pts = [0, 0]
    for e in events[start:]:
        if e.kind in ("ronda", "four_of_a_kind"):
            pts[e.team] += e.points  # type: ignore[attr-defined]
    return pts[0], pts[1]


def assert_illegal(game: Game, action: Any, *fragments: str) -> str:
    """``game.play(action)`` raises IllegalMoveError mentioning ``fragments`` and changes nothing."""
    before = game.to_json()
    moves_before = [str(m) for m in game.legal_moves()]
    with pytest.raises(IllegalMoveError) as info:
        game.play(action)
    message = str(info.value)
    assert isinstance(info.value, ValueError)
    for fragment in fragments:
        assert fragment.lower() in message.lower(), f"{fragment!r} not in {message!r}"
    assert game.to_json() == before
    assert [str(m) for m in game.legal_moves()] == moves_before
    return message


def legal(game: Game) -> list[str]:
    """The legal actions as text."""
    return [str(m) for m in game.legal_moves()]
