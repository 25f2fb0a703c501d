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

# One source: the figures are computed without the store (cuarenta.server.answers), so that the device
# host counts its games the same way.
from cuarenta.server.answers import stats_of

__all__ = ["stats_of"]
