"""Two games a seat cannot tell apart, for the tests that a computer judges from its view alone."""

from __future__ import annotations

import random

from cuarenta import CARDS, Game, Rules
from cuarenta.players import act, make_player


def swapped_worlds(shuffle: int = 3) -> tuple[Game, Game]:
    """Two games seat 0 cannot tell apart: the same four plays so far (by ``normal`` players, from a deck
    shuffled by ``shuffle``), but a card seat 1 still holds is swapped with one of the stock."""
    rules = Rules()
    deck = list(CARDS)
    random.Random(shuffle).shuffle(deck)
    hands = [deck[:5], deck[5:10]]
    stock = deck[10:]
    bots = [make_player("normal", s) for s in range(2)]
    first = Game.from_position(rules, hands=hands, stock=stock, turn=0, dealer=1)
    for _ in range(4):
        first.play(act(bots[first.turn], first))
    assert first.turn == 0
    held = first.hand(1)[0]
    other = stock[-1]
    swap = {held: other, other: held}
    second = Game.from_position(
        rules,
        hands=[[swap.get(c, c) for c in h] for h in hands],
        stock=[swap.get(c, c) for c in stock],
        turn=0,
        dealer=1,
    )
    for action in first.actions:
        second.play(action)
    assert first.view(0) == second.view(0) and first.hand(1) != second.hand(1)
    return first, second
