"""A rating table of computer players: a round robin on duplicate deals, Bradley–Terry, bootstrap intervals.

:func:`round_robin` plays every pairing of the named players with
:func:`~cuarenta.players.arena.run_match` (the same seed for every pairing, so every pairing plays
the same deals); :func:`rating_table` fits a Bradley–Terry model to the chicas won and lost and
gives each player an Elo-scale rating, ``400 · log10(strength)``, with the first player named at 0.

The fit is Hunter's MM algorithm (2004) on the win counts, with one virtual drawn chica (half a win
each way) added to every pairing so that a player that won every chica still has a finite rating.

The 95% intervals are a *bootstrap over deal pairs*: each pairing's deal pairs (the unit of the
duplicate design: the two games of a pair share their cards) are drawn again with replacement,
the model refitted, ``boot`` times, and the 2.5th and 97.5th percentiles of each rating kept. The
resampling is seeded, so the table is the same every time.

>>> results = round_robin(["aleatorio", "facil"], chicas=8, seed=1)
>>> table = rating_table(["aleatorio", "facil"], results, boot=50)
>>> [(row.name, row.wins, row.chicas) for row in table]
[('facil', 8, 8), ('aleatorio', 0, 8)]
>>> round(table[0].elo), table[1].elo   # 8.5 to 0.5: 400 · log10(17)
(492, 0.0)
>>> table[0].low <= table[0].elo <= table[0].high
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from cuarenta.players.arena import ArenaError, MatchResult, percentile, run_match
from cuarenta.players.pools import Pool
from cuarenta.rules import Rules

#: Virtual chicas added to every pairing, split half and half (keeps all-win records finite).
PRIOR_CHICAS: Final = 1.0
#: Bootstrap resamples for the intervals.
BOOT: Final = 1000


@dataclass(frozen=True)
class Rating:
    """One row of the table: the Elo-scale rating, its 95% interval, and the chicas behind it."""

    name: str
    elo: float
    low: float
    high: float
    chicas: int
    wins: int

    @property
    def score(self) -> float:
        return self.wins / self.chicas if self.chicas else 0.0

    def to_dict(self) -> dict[str, float | int | str]:
        return {
            "name": self.name,
            "elo": round(self.elo, 1),
            "low": round(self.low, 1),
            "high": round(self.high, 1),
            "chicas": self.chicas,
            "wins": self.wins,
        }


def bradley_terry(
    n: int, games: Mapping[tuple[int, int], tuple[float, float]], iterations: int = 10_000, tol: float = 1e-10
) -> list[float]:
    """Elo-scale ratings (player 0 at 0) from ``games[(i, j)] = (wins of i, wins of j)``, with
    :data:`PRIOR_CHICAS` added to every pairing that was played.

    >>> [round(r) for r in bradley_terry(2, {(0, 1): (25.5, 74.5)})]
    [0, 184]
    """
    wins = [0.0] * n
    pairs: dict[tuple[int, int], float] = {}
    for (i, j), (wi, wj) in games.items():
        wins[i] += wi + PRIOR_CHICAS / 2
        wins[j] += wj + PRIOR_CHICAS / 2
        key = (min(i, j), max(i, j))
        pairs[key] = pairs.get(key, 0.0) + wi + wj + PRIOR_CHICAS
    gamma = [1.0] * n
    for _ in range(iterations):
        new = []
        for i in range(n):
            denom = sum(
                c / (gamma[i] + gamma[j if k == i else k]) for (k, j), c in pairs.items() if i in (k, j)
            )
            new.append(wins[i] / denom if denom else gamma[i])
        mean = math.exp(sum(math.log(g) for g in new) / n)
        new = [g / mean for g in new]
        change = max(abs(math.log(a / b)) for a, b in zip(new, gamma, strict=True))
        gamma = new
        if change < tol:
            break
    return [400.0 * math.log10(g / gamma[0]) for g in gamma]


def _pair_wins(result: MatchResult) -> list[int]:
    """How many of the two games of each deal pair A won (0, 1 or 2), in pair order."""
    wins: dict[int, int] = {}
    for game in result.games:
        wins[game.pair] = wins.get(game.pair, 0) + (game.winner == "A")
    return [wins[p] for p in sorted(wins)]


def rating_table(
    names: Sequence[str], results: Sequence[MatchResult], boot: int = BOOT, seed: int = 0
) -> list[Rating]:
    """The ratings of ``names`` (the first at 0) from the matches in ``results``, strongest first."""
    index = {name: i for i, name in enumerate(names)}
    if len(index) != len(names):
        raise ArenaError(f"a player is named twice: {list(names)}")
    per_pairing: list[tuple[int, int, list[int]]] = []
    for result in results:
        if result.a not in index or result.b not in index:
            raise ArenaError(f"{result.a} vs {result.b}: not among {list(names)}")
        per_pairing.append((index[result.a], index[result.b], _pair_wins(result)))

    def fit(samples: Sequence[tuple[int, int, Sequence[int]]]) -> list[float]:
        games: dict[tuple[int, int], tuple[float, float]] = {}
        for i, j, pair_wins in samples:
            won = sum(pair_wins)
            before = games.get((i, j), (0.0, 0.0))
            games[(i, j)] = (before[0] + won, before[1] + 2 * len(pair_wins) - won)
        return bradley_terry(len(names), games)

    point = fit(per_pairing)
    rng = random.Random(f"ratings/{seed}")
    draws: list[list[float]] = [[] for _ in names]
    for _ in range(boot):
        resampled = [(i, j, rng.choices(w, k=len(w))) for i, j, w in per_pairing]
        for k, value in enumerate(fit(resampled)):
            draws[k].append(value)
    chicas = [0] * len(names)
    wins = [0] * len(names)
    for i, j, pair_wins in per_pairing:
        won = sum(pair_wins)
        chicas[i] += 2 * len(pair_wins)
        chicas[j] += 2 * len(pair_wins)
        wins[i] += won
        wins[j] += 2 * len(pair_wins) - won
    rows = [
        Rating(
            name=name,
            elo=point[k],
            low=percentile(draws[k], 2.5) if boot else math.nan,
            high=percentile(draws[k], 97.5) if boot else math.nan,
            chicas=chicas[k],
            wins=wins[k],
        )
        for k, name in enumerate(names)
    ]
    return sorted(rows, key=lambda r: -r.elo)


def chicas_of(a: str, b: str, chicas: int, chicas_for: Mapping[str, int]) -> int:
    """The chicas of pairing ``a``–``b``: the fewest that ``chicas_for`` gives either player, else ``chicas``.

    >>> slow = {"dificil": 140}
    >>> chicas_of("dificil", "facil", 1000, slow), chicas_of("normal", "facil", 1000, slow)
    (140, 1000)
    """
    given = [chicas_for[n] for n in (a, b) if n in chicas_for]
    return min(given) if given else chicas


def round_robin(  # noqa: PLR0913 - the matches' settings, by name
    names: Sequence[str],
    chicas: int,
    seed: int = 0,
    *,
    players: int = 2,
    rules: str | Rules = "a_todo_rigor",
    chicas_for: Mapping[str, int] | None = None,
    jobs: int = 1,
    pool: Pool | None = None,
    done: Callable[[MatchResult], None] | None = None,
) -> list[MatchResult]:
    """Every pairing of ``names`` (the earlier named is A), each a :func:`run_match` on seed ``seed``."""
    results = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            n = chicas_of(a, b, chicas, chicas_for or {})
            result = run_match(a, b, n, players, rules, seed, jobs, pool=pool)
            results.append(result)
            if done is not None:
                done(result)
    return results
