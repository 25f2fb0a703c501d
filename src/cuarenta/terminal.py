"""Deprecated: moved to :mod:`cuarenta.cli.terminal` (the terminal game belongs to the command line).

This old name keeps working and raises a :class:`DeprecationWarning` when imported;
import from :mod:`cuarenta.cli.terminal` instead (CHANGELOG.md, 0.2.0).
"""

from __future__ import annotations

import importlib
import warnings
from typing import Any

warnings.warn(
    "cuarenta.terminal moved to cuarenta.cli.terminal; import it from there"
    " (the old name will go in a later version)",
    DeprecationWarning,
    stacklevel=2,
)
_new = importlib.import_module("cuarenta.cli.terminal")


def __getattr__(name: str) -> Any:
    return getattr(_new, name)
