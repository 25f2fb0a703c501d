"""Deprecated: moved to :mod:`cuarenta.players.arena` (the arena sits with the computer players).

This old name keeps working and raises a :class:`DeprecationWarning` when imported;
import from :mod:`cuarenta.players.arena` instead (CHANGELOG.md, 0.2.0).
"""

from __future__ import annotations

import importlib
import warnings
from typing import Any

warnings.warn(
    "cuarenta.arena moved to cuarenta.players.arena; import it from there"
    " (the old name will go in a later version)",
    DeprecationWarning,
    stacklevel=2,
)
_new = importlib.import_module("cuarenta.players.arena")


def __getattr__(name: str) -> Any:
    return getattr(_new, name)
