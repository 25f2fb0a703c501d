"""A bound on every wait for PostgreSQL: moved to :mod:`cuarenta.server.store.pgwatch` (issue 16).

This module keeps the old import path working (the lead removes it at the end of the round)."""

from __future__ import annotations

from cuarenta.server.store.pgwatch import *  # noqa: F403
from cuarenta.server.store.pgwatch import __all__ as __all__
