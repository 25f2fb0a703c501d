"""Deprecated: moved to :mod:`cuarenta.players.hints` (one hints module for the terminal and the page).

This old name keeps working and raises a :class:`DeprecationWarning` when imported;
import from :mod:`cuarenta.players.hints` instead (CHANGELOG.md, 0.2.0).
"""

from __future__ import annotations

import importlib
import warnings
from typing import Any

warnings.warn(
    "cuarenta.server.hints moved to cuarenta.players.hints; import it from there"
    " (the old name will go in a later version)",
    DeprecationWarning,
    stacklevel=2,
)
_new = importlib.import_module("cuarenta.players.hints")


def __getattr__(name: str) -> Any:
    return getattr(_new, name)
