"""The statistics of one browser's games (``POST /api/stats``): per level and in all, from finished mesas
(:func:`cuarenta.server.answers.stats_of`, re-exported here: its doctest shows an example)."""

from __future__ import annotations

# One source: the figures are computed without the store (cuarenta.server.answers), so that the device
# host counts its games the same way.
from cuarenta.server.answers import stats_of

__all__ = ["stats_of"]
