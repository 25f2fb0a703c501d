"""The formats' pairings, as pure functions of pair ids: Swiss, knockout with byes, groups.

Nothing here knows the state of a championship: :class:`~cuarenta.championship.Championship` gives
each function the ranking, the scores and who met whom, and makes partidas of the pairings.

**Swiss** (:func:`swiss_first_round`, :func:`swiss_pairing`). Round 1 goes by seed: the pairs in
seeding order (:func:`seeding_order`), the top half against the bottom half, 1 v n/2+1, 2 v n/2+2 …
Later rounds are a maximum-weight matching (``networkx.max_weight_matching(maxcardinality=True)``) over
the active pairs in ranking order. The edge of two pairs weighs
``BIG − (score difference)² · K − (rank distance)²``, plus ``R`` if they have not met yet; the score is
the partidas won, ``K`` exceeds the rank-distance terms of a whole matching and ``R`` exceeds the weight
of a whole matching. So the matching

1. avoids rematches: when none can be avoided (after many rounds, or withdrawals), it makes the fewest
   rematches rather than fail (never a ``no_pairing`` error);
2. keeps pairs in their score group (a difference of one win costs more than any rank distance);
3. within a score group pairs neighbours in the ranking (1 v 2, 3 v 4; the square of the rank distance
   makes 1 v 3 and 2 v 4 beat 1 v 4 and 2 v 3).

With an odd count the bye is given before the matching: to the lowest-ranked pair with no bye yet for
which the others can still be paired without a rematch (if none, the lowest-ranked pair with no bye, or
the lowest-ranked of all). A bye is a partida won ``rules.chicas``–0, with 0–0 points.

>>> swiss_first_round(["a", "b", "c", "d", "e"])
([('a', 'c'), ('b', 'd')], 'e')
>>> swiss_pairing(["a", "b", "c", "d"], {"a": 1, "b": 1, "c": 0, "d": 0}, {frozenset("ab"), frozenset("cd")})
([('a', 'c'), ('b', 'd')], None)

**Knockout** (:func:`bracket_order`, :func:`knockout_slots`, :func:`next_slots`). The bracket has the next
power of two of slots; seed ``s`` goes to its standard place (1 v 16, 8 v 9 …: 1 and 2 can meet only in
the final) and the seeds beyond the number of pairs are byes, so the top seeds get them. The next round
is made of the winners in bracket order (the winner of matches 1 and 2 meet, of 3 and 4 …).

>>> bracket_order(8)
[1, 8, 4, 5, 2, 7, 3, 6]
>>> matches(knockout_slots(["s1", "s2", "s3", "s4", "s5", "s6"]))
[('s1', None), ('s4', 's5'), ('s2', None), ('s3', 's6')]

**Groups** (:func:`snake_groups`, :func:`round_robin`, :func:`crossover_slots`). The pairs in seeding order
are dealt into groups like a snake (A B C C B A A B C …); each group plays a round-robin by the circle
method (one pair fixed, the others turning; in a group of odd size one pair rests each round: a bye);
the first ``advance`` of each group go to a knockout with crossover seeding (A1 v B2, B1 v A2, C1 v D2 …).

>>> snake_groups(["1", "2", "3", "4", "5", "6", "7", "8"], 4)
[['1', '4', '5', '8'], ['2', '3', '6', '7']]
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Collection, Mapping, Sequence

import networkx as nx  # type: ignore[import-untyped]

from cuarenta.championship.model import Pair

Pairing = tuple[str, str | None]


def secret_order(secret: int, label: str, ids: Sequence[str]) -> list[str]:
    """``ids`` in a deterministic shuffle from the championship's secret (sha256 of secret, label, id).

    >>> secret_order(1, "seeding", ["p1", "p2", "p3"]) == secret_order(1, "seeding", ["p3", "p1", "p2"])
    True
    """
    return sorted(ids, key=lambda i: hashlib.sha256(f"{secret}:{label}:{i}".encode()).hexdigest())


def seeding_order(pairs: Sequence[Pair], secret: int) -> list[str]:
    """The active pairs' ids in seeding order: seeded pairs by seed, then the unseeded ones in a
    deterministic shuffle from the secret (:func:`secret_order`)."""
    active = [p for p in pairs if not p.withdrawn]
    seeded = sorted((p for p in active if p.seed is not None), key=lambda p: p.seed or 0)
    unseeded = secret_order(secret, "seeding", [p.id for p in active if p.seed is None])
    return [p.id for p in seeded] + unseeded


# -- Swiss --------------------------------------------------------------------------------------------------
def swiss_first_round(order: Sequence[str]) -> tuple[list[tuple[str, str]], str | None]:
    """Round 1: top half v bottom half of ``order`` (seeding order); an odd count: the last one rests."""
    ids = list(order)
    bye = ids.pop() if len(ids) % 2 else None
    half = len(ids) // 2
    return [(ids[i], ids[half + i]) for i in range(half)], bye


def _graph(ids: Sequence[str], met: Collection[frozenset[str]], scores: Mapping[str, int]) -> nx.Graph:
    n = len(ids)
    spread = max((scores.get(i, 0) for i in ids), default=0) - min((scores.get(i, 0) for i in ids), default=0)
    k = (n // 2 + 1) * n * n
    big = spread * spread * k + n * n + 1
    rematch_free = (n // 2 + 1) * big
    graph = nx.Graph()
    graph.add_nodes_from(ids)
    for a in range(n):
        for b in range(a + 1, n):
            x, y = ids[a], ids[b]
            diff = scores.get(x, 0) - scores.get(y, 0)
            weight = big - diff * diff * k - (b - a) ** 2
            if frozenset((x, y)) not in met:
                weight += rematch_free
            graph.add_edge(x, y, weight=weight)
    return graph


def _pairable(ids: Sequence[str], met: Collection[frozenset[str]]) -> bool:
    graph = nx.Graph()
    graph.add_nodes_from(ids)
    graph.add_edges_from(
        (ids[a], ids[b])
        for a in range(len(ids))
        for b in range(a + 1, len(ids))
        if frozenset((ids[a], ids[b])) not in met
    )
    return 2 * len(nx.max_weight_matching(graph, maxcardinality=True)) == len(ids)


def swiss_bye(ranking: Sequence[str], met: Collection[frozenset[str]], had_bye: Collection[str]) -> str:
    """The pair that rests this round (odd count): the lowest-ranked with no bye yet for which the others
    can still be paired without a rematch; else the lowest-ranked with no bye; else the lowest-ranked."""
    fresh = [p for p in reversed(ranking) if p not in had_bye]
    for candidate in fresh:
        if _pairable([p for p in ranking if p != candidate], met):
            return candidate
    return fresh[0] if fresh else ranking[-1]


def swiss_pairing(
    ranking: Sequence[str],
    scores: Mapping[str, int],
    met: Collection[frozenset[str]],
    had_bye: Collection[str] = (),
) -> tuple[list[tuple[str, str]], str | None]:
    """A later Swiss round: the pairings (the higher-ranked pair first, in ranking order) and the bye.

    ``ranking``: the active pairs, best first; ``scores``: partidas won; ``met``: the pairs of pairs that
    already met; ``had_bye``: the pairs that already had a bye. The method is the module's.
    """
    ids = list(ranking)
    bye = None
    if len(ids) % 2:
        bye = swiss_bye(ids, met, had_bye)
        ids.remove(bye)
    matching = nx.max_weight_matching(_graph(ids, met, scores), maxcardinality=True)
    place = {p: i for i, p in enumerate(ids)}
    pairs = [(a, b) if place[a] < place[b] else (b, a) for a, b in matching]
    return sorted(pairs, key=lambda ab: place[ab[0]]), bye


# -- knockout -----------------------------------------------------------------------------------------------
def bracket_order(size: int) -> list[int]:
    """The seeds (1-based) in the order of a bracket of ``size`` slots (a power of two)."""
    order = [1]
    while len(order) < size:
        n = 2 * len(order)
        order = [s for x in order for s in (x, n + 1 - x)]
    return order


def knockout_slots(order: Sequence[str]) -> list[str | None]:
    """The first round's slots of a knockout of ``order`` (best seed first): ``None`` is a bye."""
    size = 1 << max(1, math.ceil(math.log2(max(len(order), 2))))
    return [order[s - 1] if s <= len(order) else None for s in bracket_order(size)]


def matches(slots: Sequence[str | None]) -> list[tuple[str | None, str | None]]:
    """The slots two by two: the matches of a knockout round."""
    return [(slots[i], slots[i + 1]) for i in range(0, len(slots), 2)]


def next_slots(winners: Sequence[str | None]) -> list[str | None]:
    """The next round's slots: the winners of the matches in bracket order (a slot nobody holds: ``None``)."""
    return list(winners)


# -- groups -------------------------------------------------------------------------------------------------
def group_count(pairs: int, group_size: int) -> int:
    """How many groups ``pairs`` pairs make with groups of at most ``group_size``."""
    return max(1, math.ceil(pairs / group_size))


def snake_groups(order: Sequence[str], group_size: int) -> list[list[str]]:
    """The pairs in seeding order dealt into groups like a snake (sizes differ by one at most)."""
    count = group_count(len(order), group_size)
    groups: list[list[str]] = [[] for _ in range(count)]
    for i, pair in enumerate(order):
        row, col = divmod(i, count)
        groups[col if row % 2 == 0 else count - 1 - col].append(pair)
    return groups


def round_robin(group: Sequence[str]) -> list[list[Pairing]]:
    """Every round of a round-robin by the circle method (``None``: the bye of an odd group).

    >>> round_robin(["a", "b", "c"])
    [[('a', None), ('b', 'c')], [('a', 'c'), (None, 'b')], [('a', 'b'), ('c', None)]]
    """
    ring: list[str | None] = [*group, None] if len(group) % 2 else list(group)
    m = len(ring)
    rounds: list[list[Pairing]] = []
    for _ in range(m - 1):
        rounds.append([(ring[i], ring[m - 1 - i]) for i in range(m // 2)])  # type: ignore[misc]
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds


def _at(ranking: Sequence[str], place: int) -> str | None:
    return ranking[place] if place < len(ranking) else None


def crossover_slots(rankings: Sequence[Sequence[str]], advance: int) -> list[str | None]:
    """The knockout's first-round slots from the groups' rankings (best first).

    With ``advance`` 2 and a power of two of groups: crossover seeding, A1 v B2, B1 v A2, C1 v D2, D1 v C2 …
    Otherwise the qualifiers ranked by place then group (A1, B1, … A2, B2 …) in a standard seeded bracket.

    >>> crossover_slots([["A1", "A2"], ["B1", "B2"]], 2)
    ['A1', 'B2', 'B1', 'A2']
    """
    count = len(rankings)
    if advance == 2 and count >= 2 and count & (count - 1) == 0:
        slots: list[str | None] = []
        for g in range(0, count, 2):
            a, b = rankings[g], rankings[g + 1]
            slots += [_at(a, 0), _at(b, 1), _at(b, 0), _at(a, 1)]
        return slots
    qualifiers = [r[place] for place in range(advance) for r in rankings if place < len(r)]
    return knockout_slots(qualifiers)


__all__ = [
    "Pairing",
    "bracket_order",
    "crossover_slots",
    "group_count",
    "knockout_slots",
    "matches",
    "next_slots",
    "round_robin",
    "secret_order",
    "seeding_order",
    "snake_groups",
    "swiss_bye",
    "swiss_first_round",
    "swiss_pairing",
]
