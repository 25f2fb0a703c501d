"""SQLite's marker and file checks: moved to :mod:`cuarenta.server.store.files` (issue 16).

This module keeps the old import path working (the lead removes it at the end of the round)."""

from __future__ import annotations

from cuarenta.server.store.files import *  # noqa: F403
from cuarenta.server.store.files import __all__ as __all__
