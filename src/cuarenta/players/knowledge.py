"""What a seat knows, worked out from its view alone; and worlds consistent with it.

:class:`Knowledge` reads a seat's view (``game.view(seat)``): the seat's own cards, the
table, every card captured in this hand (captures are made face up, so the
hand's public history names them), and from those the *unseen* cards, which
lie in the other hands or in the stock. It also keeps what the announced
rondas reveal (a seat that announced a ronda of 7s still holds the 7s it has
not played in this deal).

:func:`sample_world` deals the unseen cards at random, respecting those
constraints, and returns a :class:`~cuarenta.Game` in which a search can play
on: a *determinization*.

>>> from cuarenta import Game, Rules
>>> game = Game.new(Rules(), seed=4)
>>> know = Knowledge.from_view(game.view(0))
>>> len(know.unseen), know.unseen_by_rank[0] + know.mine_by_rank[0] <= 4
(35, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from cuarenta.cards import CARDS, Card
from cuarenta.events import Deal, Play
from cuarenta.game import Game
from cuarenta.rules import Rules
from cuarenta.view import SeatView, as_view


@dataclass
class Knowledge:
    """Facts one seat can establish from its view."""

    seat: int
    players: int
    rules: Rules
    hand: list[Card]
    table: list[Card]
    last_drop: Card | None
    piles: list[list[Card]]  #: captured this hand, per team
    hand_sizes: list[int]
    stock_size: int
    scores: list[int]
    unseen: list[Card]  #: in other hands or the stock
    unseen_by_rank: list[int] = field(default_factory=list)
    mine_by_rank: list[int] = field(default_factory=list)
    table_by_rank: list[int] = field(default_factory=list)
    gone_by_rank: list[int] = field(default_factory=list)  #: captured this hand
    #: seat -> ranks it is known to hold, with how many of each (from rondas, minus cards played)
    known_held: dict[int, dict[int, int]] = field(default_factory=dict)
    #: cards each seat played in this hand, in order
    played: dict[int, list[Card]] = field(default_factory=dict)

    @classmethod
    def from_view(cls, view: SeatView) -> Knowledge:
        view = as_view(view)
        seat = view.seat
        n = view.players
        hand = list(view.hand)
        table = list(view.table)
        piles = [list(view.piles[0]), list(view.piles[1])]
        played: dict[int, list[Card]] = {s: [] for s in range(n)}
        played_this_deal: dict[int, list[Card]] = {s: [] for s in range(n)}
        for event in view.history:
            if isinstance(event, Play):
                played[event.seat].append(event.move.card)
                played_this_deal[event.seat].append(event.move.card)
            elif isinstance(event, Deal):
                played_this_deal = {s: [] for s in range(n)}
        seen = set(hand) | set(table) | set(piles[0]) | set(piles[1])
        unseen = [c for c in CARDS if c not in seen]
        known: dict[int, dict[int, int]] = {}
        for s, rank in view.rondas:
            if s == seat:
                continue
            left = 3 - sum(1 for c in played_this_deal[s] if c.rank == rank)
            if left > 0:
                known.setdefault(s, {})[rank] = left
        know = cls(
            seat=seat,
            players=n,
            rules=view.rules,
            hand=hand,
            table=table,
            last_drop=view.last_drop,
            piles=piles,
            hand_sizes=list(view.hand_sizes),
            stock_size=view.stock_size,
            scores=list(view.scores),
            unseen=unseen,
            known_held=known,
            played=played,
        )
        know.unseen_by_rank = _by_rank(unseen)
        know.mine_by_rank = _by_rank(hand)
        know.table_by_rank = _by_rank(table)
        know.gone_by_rank = _by_rank(piles[0] + piles[1])
        return know

    def deals_left(self) -> int:
        """Deals still to come in this hand after the current one."""
        return self.stock_size // (5 * self.players)


def _by_rank(cards: Sequence[Card]) -> list[int]:
    counts = [0] * 10
    for c in cards:
        counts[c >> 2] += 1
    return counts


def sample_world(
    view: SeatView,
    rng: random.Random,
    know: Knowledge | None = None,
    voids: dict[int, set[int]] | None = None,
) -> Game:
    """A full game consistent with ``view``: hidden cards dealt at random.

    Seats known to hold ronda cards get them; ``voids`` maps seats to ranks they
    are believed not to hold (an inference such as a caída let pass), kept away
    from them when possible — after a few failed tries the belief is dropped.
    Everything else is uniform. The world's later hands are dealt from a random
    seed.
    """
    know = know or Knowledge.from_view(view)
    hands, stock = sample_deal(know, rng, voids)
    return world_game(view, know, hands, stock, rng.randrange(2**31))


def sample_deal(
    know: Knowledge, rng: random.Random, voids: dict[int, set[int]] | None = None
) -> tuple[list[list[Card]], list[Card]]:
    """The hidden part of a world (:func:`sample_world`): every seat's hand and the stock."""
    n = know.players
    voids = voids or {}
    tries = 20 if voids else 1
    for attempt in range(tries + 1):
        strict = attempt < tries
        pool = list(know.unseen)
        rng.shuffle(pool)
        hands: list[list[Card]] = [[] for _ in range(n)]
        hands[know.seat] = list(know.hand)
        for s, ranks in know.known_held.items():
            for rank, count in ranks.items():
                for _ in range(count):
                    for i, c in enumerate(pool):
                        if c.rank == rank:
                            hands[s].append(pool.pop(i))
                            break
        order = sorted((s for s in range(n) if s != know.seat), key=lambda s: -len(voids.get(s, ())))
        ok = True
        for s in order:
            need = know.hand_sizes[s] - len(hands[s])
            void = voids.get(s, set()) - set(know.known_held.get(s, {})) if strict else set()
            allowed = [c for c in pool if c.rank not in void][:need]
            if len(allowed) < need:
                ok = False
                break
            hands[s].extend(allowed)
            taken = set(allowed)
            pool = [c for c in pool if c not in taken]
        if ok:
            return hands, pool
    raise AssertionError("unreachable: the last try has no constraints")  # pragma: no cover


def world_game(
    view: SeatView, know: Knowledge, hands: list[list[Card]], stock: list[Card], seed: int
) -> Game:
    """The world in which the seats hold ``hands`` and the stock is ``stock`` (:func:`sample_deal`), its
    later hands dealt from ``seed``."""
    assert view.turn is not None, "a world is sampled on a turn of the mesa in play"
    return Game.from_position(
        know.rules,
        hands=hands,
        table=know.table,
        stock=stock,
        turn=view.turn,
        dealer=view.dealer,
        scores=know.scores,
        piles=know.piles,
        last_drop=know.last_drop,
        chicas=view.chicas,
        rondas=view.rondas,
        seed=seed,
    )
