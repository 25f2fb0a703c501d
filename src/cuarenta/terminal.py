"""Deprecated: moved to :mod:`cuarenta.cli.terminal` (the terminal game belongs to the command line).

This old name keeps working and raises a :class:`DeprecationWarning` when imported;
import from :mod:`cuarenta.cli.terminal` instead (CHANGELOG.md, 0.2.0).
"""

from __future__ import annotations

from cuarenta._moved import moved

__getattr__ = moved("cuarenta.terminal", "cuarenta.cli.terminal")
