"""Puzzle ratings that move with the people who try them (issue 29; docs/analysis.md "Puzzle ratings").

A solver's first try of a puzzle is a 1 vs 1 match between the solver and the puzzle: solved, the solver
won; missed, the puzzle did. openskill's Weng-Lin model (Plackett-Luce, as the mesas' ratings,
:mod:`cuarenta.server.ratings.mesa`) moves both. A rating is shown on the puzzles' own scale, where the
shipped puzzles' first ratings (1500 and 1800) live: ``1500 + 40 * (mu - 25)`` — the estimate itself, not a
cautious ordinal as the mesas' ratings (a newcomer shows 1500, a puzzle its shipped rating until tried).

- a solver starts at mu 25, sigma 25/3 (openskill's start): unsure, so the first tries move them most;
- a puzzle starts at the mu of its shipped rating with sigma 25/6 (:data:`PUZZLE_SIGMA`): its first rating
  is a guess from two computer levels, but one person's try should not throw it far;
- openskill's ``tau`` (25/300) keeps every sigma from shrinking to nothing, so ratings go on moving.

Only a solver's first try of a puzzle counts (the store's ``puzzle_tries``, :func:`record_try`): a puzzle
seen again is no test. :class:`PuzzleRatings` keeps the ratings of the puzzles tried in a cache refreshed
from the store at most every :data:`CACHE_SECONDS` (the other nodes of a cluster write the same database: a
change made on another node shows here within that time; this node's own changes at once).

>>> before = puzzle_start(1800)
>>> shown(before[0]), shown(SOLVER_START[0])
(1800, 1500)
>>> puzzle, solver = rate_try(before, SOLVER_START, solved=True)
>>> shown(puzzle[0]) < 1800 and shown(solver[0]) > 1500
True
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Final

from openskill.models import PlackettLuce

from cuarenta.server.store import Store, hash_token
from cuarenta.server.store.profilerows import START_MU, START_SIGMA
from cuarenta.server.store.puzzles import Skill, TryResult, puzzle_skills, record_try

#: The model: openskill's Weng-Lin with Plackett-Luce, mu 25, sigma 25/3 (its defaults; beta 25/6, tau
#: 25/300).
MODEL: Final = PlackettLuce(mu=START_MU, sigma=START_SIGMA)
#: A shown puzzle rating is ``RATING_BASE + RATING_SCALE * (mu - START_MU)``, rounded.
RATING_BASE: Final = 1500
RATING_SCALE: Final = 40
#: A new solver's skill (openskill's start: shown as 1500).
SOLVER_START: Final[Skill] = (START_MU, START_SIGMA)
#: A puzzle's sigma before anyone tried it (half a newcomer's: its shipped rating is an informed guess).
PUZZLE_SIGMA: Final = START_SIGMA / 2
#: At most this many seconds between two reads of the puzzles' ratings from the store.
CACHE_SECONDS: Final = 30.0


def shown(mu: float) -> int:
    """The rating shown for a skill of mean ``mu``.

    >>> shown(25.0), shown(32.5), shown(24.0)
    (1500, 1800, 1460)
    """
    return round(RATING_BASE + RATING_SCALE * (mu - START_MU))


def puzzle_start(rating: int) -> Skill:
    """The skill of a puzzle of shipped ``rating`` that nobody has tried."""
    return (START_MU + (rating - RATING_BASE) / RATING_SCALE, PUZZLE_SIGMA)


def rate_try(puzzle: Skill, solver: Skill, solved: bool) -> tuple[Skill, Skill]:
    """The puzzle's and the solver's skills after a first try (a 1 vs 1 match; solved: the solver won)."""
    rated = MODEL.rate(
        [[MODEL.rating(mu=solver[0], sigma=solver[1])], [MODEL.rating(mu=puzzle[0], sigma=puzzle[1])]],
        ranks=[0.0, 1.0] if solved else [1.0, 0.0],  # lower is better
    )
    (new_solver,), (new_puzzle,) = rated
    return (new_puzzle.mu, new_puzzle.sigma), (new_solver.mu, new_solver.sigma)


class PuzzleRatings:
    """The puzzles' current ratings on one server (``app.state.puzzle_ratings``): a try recorded, the
    ratings read for choosing and showing puzzles. Safe to share between threads."""

    def __init__(
        self, store: Store, *, seconds: float = CACHE_SECONDS, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.store = store
        self.seconds = seconds
        self._clock = clock
        self._lock = threading.Lock()
        self._ratings: dict[str, int] = {}
        self._read_at: float | None = None

    def current(self) -> dict[str, int]:
        """The shown rating of every puzzle someone has tried (at most :attr:`seconds` old)."""
        # read under the lock: a try's own change (below) is never overwritten by an older read
        with self._lock:
            now = self._clock()
            if self._read_at is None or now - self._read_at >= self.seconds:
                self._ratings = {pid: shown(mu) for pid, (mu, _) in puzzle_skills(self.store).items()}
                self._read_at = now
            return self._ratings

    def try_puzzle(self, puzzle: str, shipped: int, solver: str, solved: bool) -> TryResult:
        """Record ``solver``'s try of ``puzzle`` (shipped rating ``shipped``): the first moves both
        ratings. ``solver`` is the page's random id; only its hash is stored."""
        result = record_try(
            self.store, puzzle, puzzle_start(shipped), SOLVER_START, hash_token(solver), solved, rate_try
        )
        with self._lock:
            self._ratings = {**self._ratings, puzzle: shown(result.puzzle_after[0])}
        return result


__all__ = [
    "CACHE_SECONDS",
    "MODEL",
    "PUZZLE_SIGMA",
    "RATING_BASE",
    "RATING_SCALE",
    "SOLVER_START",
    "PuzzleRatings",
    "puzzle_start",
    "rate_try",
    "shown",
]
