"""Puzzle ratings and reports of wrong puzzles (issue 29; docs/analysis.md "Puzzle ratings", migration
0009). The ratings are computed by the ratings service (:mod:`cuarenta.server.ratings.puzzles`); here they are
kept: a puzzle's current skill once someone has tried it, each solver's (keyed by the SHA-256 of the random
id the page keeps, :func:`~cuarenta.server.store.hash_token`), the first try of each puzzle by each solver,
and the reports.

>>> import tempfile, pathlib
>>> from cuarenta.server.store import Store
>>> def rate(puzzle, solver, solved):  # a toy rater: the winner gains 1
...     return (puzzle[0] - 1, puzzle[1]), (solver[0] + 1, solver[1])
>>> with tempfile.TemporaryDirectory() as d:
...     store = Store.in_dir(pathlib.Path(d))
...     first = record_try(store, "p1", (25.0, 4.0), (25.0, 8.0), "a" * 64, True, rate)
...     again = record_try(store, "p1", (25.0, 4.0), (25.0, 8.0), "a" * 64, False, rate)
...     (first.rated, first.puzzle_after, first.solver), (again.rated, again.puzzle_after, again.solver)
...     puzzle_skills(store), add_report(store, "p1", "the answer is wrong"), len(reports(store))
...     store.close()
((True, (24.0, 4.0), (26.0, 8.0)), (False, (24.0, 4.0), (26.0, 8.0)))
({'p1': (24.0, 4.0)}, 1, 1)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

import sqlalchemy as sa

from cuarenta.server.store import Store, StoreError
from cuarenta.server.store.profilerows import now_text, run_write
from cuarenta.server.store.schema import (
    puzzle_ratings_table,
    puzzle_reports_table,
    puzzle_solvers_table,
    puzzle_tries_table,
)

#: A rating as the store keeps it: ``(mu, sigma)``.
Skill = tuple[float, float]
#: How one try moves the ratings (the ratings service's): the puzzle's and the solver's skill before and
#: whether the solver solved it, to their skills after.
TryRater = Callable[[Skill, Skill, bool], tuple[Skill, Skill]]
#: The most reports :func:`reports` lists at once.
MAX_REPORTS: Final = 1000
#: How many times a first try is tried again when another process stored the same new row first.
_RETRIES: Final = 3


@dataclass(frozen=True)
class TryResult:
    """What a try did: whether it moved the ratings (a solver's first try of the puzzle), the puzzle's
    skill before and after (the same when it did not), and the solver's skill now."""

    rated: bool
    puzzle_before: Skill
    puzzle_after: Skill
    solver: Skill


@dataclass(frozen=True)
class ReportRow:
    """A report of a wrong puzzle."""

    id: int
    puzzle: str
    reason: str
    at: str


def _skill(conn: sa.Connection, table: sa.Table, key: sa.ColumnElement[bool]) -> Any:
    """The row of ``table`` at ``key``, locked for the transaction (``FOR UPDATE`` on PostgreSQL; SQLite's
    writes hold the database's write lock from their start), or ``None``."""
    c = table.c
    return conn.execute(sa.select(c.mu, c.sigma, c.tries, c.solved).where(key).with_for_update()).first()


def _put_skill(
    conn: sa.Connection,
    table: sa.Table,
    key: str,
    value: str,
    stored: Any,
    skill: Skill,
    won: int,
    when: str,
) -> None:
    """Write a puzzle's or a solver's skill after a rated try: its first row (one try, ``won`` of it), or
    its ``stored`` row moved on by one try."""
    if stored is None:
        conn.execute(
            table.insert(),
            {key: value, "mu": skill[0], "sigma": skill[1], "tries": 1, "solved": won, "updated": when},
        )
        return
    conn.execute(
        table.update()
        .where(table.c[key] == value)
        .values(mu=skill[0], sigma=skill[1], tries=stored.tries + 1, solved=stored.solved + won, updated=when)
    )


def record_try(
    store: Store,
    puzzle: str,
    start: Skill,
    solver_start: Skill,
    solver_hash: str,
    solved: bool,
    rate: TryRater,
) -> TryResult:
    """Store a solver's try of ``puzzle``: the first moves the puzzle's rating (``start`` when it has no
    row yet) and the solver's (``solver_start`` for a new solver) by ``rate``, in one transaction with
    the ``puzzle_tries`` row; any later try moves nothing and tells the ratings as they are."""
    r, s, t = puzzle_ratings_table.c, puzzle_solvers_table.c, puzzle_tries_table.c
    when = now_text()

    def work(conn: sa.Connection) -> TryResult:
        stored_puzzle = _skill(conn, puzzle_ratings_table, r.puzzle == puzzle)
        stored_solver = _skill(conn, puzzle_solvers_table, s.solver_hash == solver_hash)
        before = start if stored_puzzle is None else (stored_puzzle.mu, stored_puzzle.sigma)
        mine = solver_start if stored_solver is None else (stored_solver.mu, stored_solver.sigma)
        tried = conn.execute(
            sa.select(t.solved).where(t.solver_hash == solver_hash, t.puzzle == puzzle)
        ).first()
        if tried is not None:
            return TryResult(False, before, before, mine)
        after, now = rate(before, mine, solved)
        won = int(solved)
        _put_skill(conn, puzzle_solvers_table, "solver_hash", solver_hash, stored_solver, now, won, when)
        _put_skill(conn, puzzle_ratings_table, "puzzle", puzzle, stored_puzzle, after, 1 - won, when)
        conn.execute(
            puzzle_tries_table.insert(),
            {"solver_hash": solver_hash, "puzzle": puzzle, "solved": solved, "at": when},
        )
        return TryResult(True, before, after, now)

    for attempt in range(_RETRIES):
        try:
            result: TryResult = run_write(store, f"a try of puzzle {puzzle}", work)
            return result
        except StoreError:
            # another process stored the same new row first (the same solver's first try, or the first
            # row of this puzzle or solver): the next attempt reads what it stored
            if attempt == _RETRIES - 1:
                raise
    raise AssertionError("unreachable")  # pragma: no cover


def puzzle_skills(store: Store) -> dict[str, Skill]:
    """The skill of every puzzle someone has tried (the others have their shipped ratings)."""
    r = puzzle_ratings_table.c
    with store._read("reading the puzzles' ratings") as conn:
        return {
            str(row.puzzle): (row.mu, row.sigma) for row in conn.execute(sa.select(r.puzzle, r.mu, r.sigma))
        }


def add_report(store: Store, puzzle: str, reason: str) -> int:
    """Store a report that ``puzzle`` is wrong (``reason`` already checked); its number."""

    def work(conn: sa.Connection) -> int:
        made = conn.execute(
            puzzle_reports_table.insert().returning(puzzle_reports_table.c.id),
            {"puzzle": puzzle, "reason": reason, "at": now_text()},
        )
        return int(made.scalar_one())

    found: int = run_write(store, f"a report of puzzle {puzzle}", work)
    return found


def reports(store: Store, puzzle: str | None = None, limit: int = MAX_REPORTS) -> list[ReportRow]:
    """The reports of wrong puzzles, oldest first (of ``puzzle`` only, when given), at most ``limit``."""
    c = puzzle_reports_table.c
    query = sa.select(c.id, c.puzzle, c.reason, c.at).order_by(c.id).limit(limit)
    if puzzle is not None:
        query = query.where(c.puzzle == puzzle)
    with store._read("reading the puzzle reports") as conn:
        return [
            ReportRow(int(row.id), str(row.puzzle), str(row.reason), str(row.at))
            for row in conn.execute(query)
        ]


__all__ = [
    "MAX_REPORTS",
    "ReportRow",
    "Skill",
    "TryRater",
    "TryResult",
    "add_report",
    "puzzle_skills",
    "record_try",
    "reports",
]
