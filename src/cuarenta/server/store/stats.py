"""The statistics of one browser's games (``POST /api/stats``): per level and in all, from finished mesas.

>>> from cuarenta.server.store import FinishedRow
>>> def mesa(day: int, won: bool) -> FinishedRow:
...     return FinishedRow(room=f"r{day}", mesa=1, finished=f"2026-11-{day:02d}T12:00:00Z", level="facil",
...                        players=2, rules="{}", seats="[]", person_team=0, winner=0 if won else 1,
...                        chicas="[1,0]", chica_results="[]", caidas=2, limpias=1, record="")
>>> figures = stats_of([mesa(3, True), mesa(1, True), mesa(2, False), mesa(4, True)], ["facil", "normal"])
>>> figures["levels"]["facil"], figures["levels"]["normal"]["played"]
({'played': 4, 'won': 3, 'caidas': 8, 'limpias': 4, 'best_streak': 2}, 0)
>>> figures["all"]["best_streak"]
2
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from cuarenta.server.store import FinishedRow


def _figures(rows: Sequence[FinishedRow]) -> dict[str, int]:
    """Played, won, caídas and limpias of the person's team, and the longest run of mesas won in a row
    (``rows`` in the order they finished)."""
    best = run = 0
    for row in rows:
        run = run + 1 if row.winner == row.person_team else 0
        best = max(best, run)
    return {
        "played": len(rows),
        "won": sum(1 for row in rows if row.winner == row.person_team),
        "caidas": sum(row.caidas for row in rows),
        "limpias": sum(row.limpias for row in rows),
        "best_streak": best,
    }


def stats_of(rows: Iterable[FinishedRow], levels: Sequence[str]) -> dict[str, Any]:
    """Per level (every level of ``levels``, zeros when none was played, and any other level found) and in
    all. Practice mesas are not counted (docs/protocol.md)."""
    counted = sorted((r for r in rows if not r.practice), key=lambda r: (r.finished, r.room, r.mesa))
    by_level: dict[str, list[FinishedRow]] = {level: [] for level in levels}
    for row in counted:
        by_level.setdefault(row.level, []).append(row)
    return {
        "levels": {level: _figures(found) for level, found in by_level.items()},
        "all": _figures(counted),
    }


__all__ = ["stats_of"]
