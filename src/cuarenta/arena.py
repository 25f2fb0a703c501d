"""Deprecated: moved to :mod:`cuarenta.players.arena` (the arena sits with the computer players).

This old name keeps working and raises a :class:`DeprecationWarning` when imported;
import from :mod:`cuarenta.players.arena` instead (CHANGELOG.md, 0.2.0).
"""

from __future__ import annotations

from cuarenta._moved import moved

__getattr__ = moved("cuarenta.arena", "cuarenta.players.arena")
