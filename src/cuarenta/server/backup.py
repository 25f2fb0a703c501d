"""Backup and restore of the SQLite store: moved to :mod:`cuarenta.server.store.backup` (issue 16).

This module keeps the old import path working (the lead removes it at the end of the round)."""

from __future__ import annotations

from cuarenta.server.store.backup import *  # noqa: F403
from cuarenta.server.store.backup import __all__ as __all__
