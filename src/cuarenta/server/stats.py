"""The statistics of one browser's games: moved to :mod:`cuarenta.server.store.stats` (issue 16).

This module keeps the old import path working (the lead removes it at the end of the round)."""

from __future__ import annotations

from cuarenta.server.store.stats import *  # noqa: F403
from cuarenta.server.store.stats import __all__ as __all__
