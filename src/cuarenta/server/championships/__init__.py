"""The championships service (docs/championships.md "Running a championship"): the library's
:class:`~cuarenta.championship.Championship` over the store and the authority's tables.

- :mod:`~cuarenta.server.championships.service`: :class:`Championships`, every championship of the
  server: loading (replayed from the store), changes (stored before acknowledged), finished tables reported;
- :mod:`~cuarenta.server.championships.tables`: the tables of an online round's partidas, opened a few at a
  time, paused with the judge's decisions;
- :mod:`~cuarenta.server.championships.waits`: the walkover wait and its alerts;
- :mod:`~cuarenta.server.championships.hall`: the judge's score sheets in a hall;
- :mod:`~cuarenta.server.championships.access`: tokens, the registration code, a new pair's row;
- :mod:`~cuarenta.server.championships.loaded`: a championship in memory and what is read off its state;
- :mod:`~cuarenta.server.championships.problems`: the refusals (:class:`ChampionshipProblem`).

>>> from cuarenta.server.championships import Championships, ChampionshipProblem
>>> ChampionshipProblem("stale", "look again").code
'stale'
"""

from __future__ import annotations

from cuarenta.server.championships.loaded import Loaded
from cuarenta.server.championships.problems import (
    BAD_INPUT,
    HALL_BAD_INPUT,
    ChampionshipProblem,
    _refusal,
    hall_refusal,
)
from cuarenta.server.championships.service import DEFAULT_MAX_PAIRS, Championships
from cuarenta.server.championships.tables import OPENING_SLICE_SECONDS
from cuarenta.server.championships.waits import NO_SHOW, WAIT_CHECK_SECONDS

__all__ = [
    "BAD_INPUT",
    "DEFAULT_MAX_PAIRS",
    "HALL_BAD_INPUT",
    "NO_SHOW",
    "OPENING_SLICE_SECONDS",
    "WAIT_CHECK_SECONDS",
    "ChampionshipProblem",
    "Championships",
    "Loaded",
    "_refusal",
    "hall_refusal",
]
