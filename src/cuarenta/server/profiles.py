"""Anonymous profiles and their ratings: moved to :mod:`cuarenta.server.store.profiles` (issue 16).

This module keeps the old import path working (the lead removes it at the end of the round)."""

from __future__ import annotations

from cuarenta.server.store.profiles import *  # noqa: F403
from cuarenta.server.store.profiles import __all__ as __all__
from cuarenta.server.store.schema import profiles_table as profiles_table
from cuarenta.server.store.schema import rated_mesas_table as rated_mesas_table
from cuarenta.server.store.schema import ratings_table as ratings_table
