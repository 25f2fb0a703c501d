"""Helpers of the research interfaces' tests: random mesas and the hidden cards of a position dealt anew.

:func:`redeal_hidden` is the heart of the leak tests: it keeps everything a seat can see and
deals every card it cannot see (the other hands, the stock) anew, consistently: the same hand sizes,
the same stock size, the rondas announced still possible (an announcer keeps the cards of its ronda).
"""

from __future__ import annotations

import random

from cuarenta import Card, Game, Rules

#: Rules that between them exercise every flag of the observation's rules plane.
RULE_SETS = (
    Rules.preset("a_todo_rigor", players=2),
    Rules.preset("todo_dos", players=2),
    Rules.preset("basico", players=2),
    Rules.preset("a_todo_rigor", players=4),
    Rules.preset("campeonato", players=4),
    Rules.preset("a_todo_rigor", players=2).replace(capture="manual", chicas=1),
    Rules.preset("todo_dos", players=4).replace(capture="manual", caida_across_deals=True, chicas=1),
)


def redeal_hidden(game: Game, seat: int, rng: random.Random) -> Game:
    """``game`` with the cards ``seat`` cannot see dealt anew (same sizes, rondas kept)."""
    n = game.players
    keep: dict[int, list[Card]] = {s: [] for s in range(n)}
    for s, rank in game.rondas:  # the announcer keeps its ronda's cards: others may hold one at most
        if s != seat:
            keep[s] = [c for c in game.hand(s) if c >> 2 == rank]
    pool = [c for s in range(n) if s != seat for c in game.hand(s) if c not in keep[s]]
    pool += game.stock
    rng.shuffle(pool)
    hands: list[list[Card]] = []
    for s in range(n):
        if s == seat:
            hands.append(list(game.hand(s)))
            continue
        take = len(game.hand(s)) - len(keep[s])
        hands.append(keep[s] + pool[:take])
        del pool[:take]
    return Game.from_position(
        game.rules,
        hands=hands,
        table=game.table,
        stock=pool,
        turn=game.turn,
        dealer=game.dealer,
        scores=game.score,
        piles=[game.pile(0), game.pile(1)],
        last_drop=game.last_drop,
        chicas=game.chicas,
        rondas=game.rondas,
        seed=game.seed,
    )


def hidden_cards(game: Game, seat: int) -> tuple[tuple[int, ...], ...]:
    """What ``seat`` cannot see: every other hand and the stock, in order."""
    others = tuple(tuple(game.hand(s)) for s in range(game.players) if s != seat)
    return (*others, tuple(game.stock))
