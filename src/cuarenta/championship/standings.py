"""The standings of a championship, and the comparison of duplicate deals.

A pair's record counts every partida with a result: a won partida (a bye too: won ``rules.chicas``–0,
0–0 points), a lost one, the chicas and points for and against. The pairs are ranked by, in order:

1. **partidas won** (a bye and a walkover count as won);
2. **chicas difference** (chicas for − chicas against);
3. **points difference** (points for − points against);
4. **Buchholz** — Swiss only: the sum of the partidas won by the opponents met (a bye adds nothing; an
   opponent met by walkover counts); 0 in the other formats;
5. the **seed / registration order**: seeded pairs by seed, then the others in registration order.

In a knockout (and in the knockout after groups) the ranking starts with the **round reached** (the
champion first, then the other finalist, the semi-finalists …; ``reached`` counts the knockout rounds a
pair played, plus one for the champion; 0 for a pair that stayed in its group), then the order above.
Withdrawn pairs stay listed, marked ``withdrawn``, with what they played.

>>> from cuarenta.championship import Championship, Register, Report, Settings, Start
>>> champ = Championship.new(Settings("Copa"), secret=1)
>>> for name in ("Ases", "Reyes"):
...     _ = champ.apply(Register(name, (name + " 1", name + " 2")))
>>> (partida,) = champ.apply(Start())
>>> _ = champ.apply(Report(partida.id, chicas=(2, 1), points=(95, 60)))
>>> [(s.rank, s.name, s.won, s.chicas_for, s.points_for) for s in standings(champ)]
[(1, 'Ases', 1, 2, 95), (2, 'Reyes', 0, 1, 60)]
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cuarenta.championship.championship import Championship


@dataclass(frozen=True)
class Standing:
    """One pair's line of the standings (``reached``: knockout rounds played, ``None`` in a Swiss)."""

    rank: int
    pair: str
    name: str
    withdrawn: bool
    played: int
    won: int
    lost: int
    byes: int
    chicas_for: int
    chicas_against: int
    points_for: int
    points_against: int
    buchholz: int
    reached: int | None = None

    @property
    def chicas_difference(self) -> int:
        """The second tie-break: chicas for − chicas against."""
        return self.chicas_for - self.chicas_against

    @property
    def points_difference(self) -> int:
        """The third tie-break: points for − points against."""
        return self.points_for - self.points_against

    def to_dict(self) -> dict[str, Any]:
        """Every field, and the two differences the ranking reads (``chicas_difference``,
        ``points_difference``)."""
        return {
            **asdict(self),
            "chicas_difference": self.chicas_difference,
            "points_difference": self.points_difference,
        }


@dataclass
class _Line:
    played: int = 0
    won: int = 0
    lost: int = 0
    byes: int = 0
    chicas_for: int = 0
    chicas_against: int = 0
    points_for: int = 0
    points_against: int = 0


def tie_break_order(champ: Championship) -> dict[str, int]:
    """Each pair's place in the last tie-break: seeded pairs by seed, then registration order."""
    pairs = sorted(enumerate(champ.pairs), key=lambda ip: (ip[1].seed is None, ip[1].seed or 0, ip[0]))
    return {p.id: i for i, (_, p) in enumerate(pairs)}


def standings(champ: Championship) -> list[Standing]:
    """The pairs ranked by the module's tie-break order."""
    lines = {p.id: _Line() for p in champ.pairs}
    opponents: dict[str, list[str]] = {p.id: [] for p in champ.pairs}
    reached: dict[str, int] = {}
    knockout_from = champ.knockout_from
    for round_ in champ.rounds:
        for partida in round_:
            first, second = partida.pairs
            if knockout_from is not None and partida.round >= knockout_from:
                for pair in partida.pairs:
                    if pair is not None:
                        reached[pair] = partida.round - knockout_from + 1
            result = partida.result
            if result is None:
                continue
            if second is None:
                line = lines[first]
                line.played += 1
                line.won += 1
                line.byes += 1
                line.chicas_for += result.chicas[0]
                continue
            opponents[first].append(second)
            opponents[second].append(first)
            for side, pair in enumerate((first, second)):
                line = lines[pair]
                line.played += 1
                if result.winner == pair:
                    line.won += 1
                else:
                    line.lost += 1
                line.chicas_for += result.chicas[side]
                line.chicas_against += result.chicas[1 - side]
                line.points_for += result.points[side]
                line.points_against += result.points[1 - side]
    if knockout_from is not None and champ.status == "finished" and champ.champion is not None:
        reached[champ.champion] = reached.get(champ.champion, 0) + 1
    swiss = champ.settings.format == "swiss"
    buchholz = {p: sum(lines[o].won for o in opps) if swiss else 0 for p, opps in opponents.items()}
    order = tie_break_order(champ)
    by_id = {p.id: p for p in champ.pairs}

    def key(pair: str) -> tuple[int, ...]:
        line = lines[pair]
        return (
            -reached.get(pair, 0),
            -line.won,
            -(line.chicas_for - line.chicas_against),
            -(line.points_for - line.points_against),
            -buchholz[pair],
            order[pair],
        )

    ranked = sorted(lines, key=key)
    return [
        Standing(
            rank=i + 1,
            pair=pair,
            name=by_id[pair].name,
            withdrawn=by_id[pair].withdrawn,
            buchholz=buchholz[pair],
            reached=None if knockout_from is None else reached.get(pair, 0),
            **asdict(lines[pair]),
        )
        for i, pair in enumerate(ranked)
    ]


@dataclass(frozen=True)
class DuplicateComparison:
    """Two pairs that held the same cards at twin tables (the same seats of the same deals).

    ``seats``: ``"0-2"`` or ``"1-3"`` at the first table of the twin; ``points``: each pair's points
    in its partida; ``difference``: the first pair's minus the second's.
    """

    round: int
    tables: tuple[int, int]
    seats: str
    pairs: tuple[str, str]
    points: tuple[int, int]
    difference: int

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["tables"], data["pairs"], data["points"] = list(self.tables), list(self.pairs), list(self.points)
        return data


def duplicate_comparison(champ: Championship) -> list[DuplicateComparison]:
    """For each twin pair of tables whose two partidas were finished by a report, the pairs that held the
    same cards and their points difference (nothing when the championship's deals are not duplicate).

    At the first table of a twin the first pair sits at seats 0 and 2; at the second table the first pair
    sits at seats 1 and 3, so the pair at seats 0 and 2 of both tables held the same cards, and so did the
    pair at seats 1 and 3 of both.
    """
    if not champ.settings.duplicate:
        return []
    found: list[DuplicateComparison] = []
    for round_ in champ.rounds:
        tables = {p.table: p for p in round_ if p.pairs[1] is not None}
        for table, first in sorted(tables.items()):
            if first.twin is None or first.twin < table:
                continue
            second = tables[first.twin]
            if any(p.result is None or p.result.walkover for p in (first, second)):
                continue
            for seats, seat in (("0-2", 0), ("1-3", 1)):
                a, b = first.seats[seat], second.seats[seat]
                assert a is not None and b is not None and first.result and second.result
                pa = first.result.points[first.side(a)]
                pb = second.result.points[second.side(b)]
                found.append(
                    DuplicateComparison(first.round, (table, first.twin), seats, (a, b), (pa, pb), pa - pb)
                )
    return found


__all__ = ["DuplicateComparison", "Standing", "duplicate_comparison", "standings", "tie_break_order"]
