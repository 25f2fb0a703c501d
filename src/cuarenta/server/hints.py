"""Deprecated: moved to :mod:`cuarenta.players.hints` (one hints module for the terminal and the page).

This old name keeps working and raises a :class:`DeprecationWarning` when imported;
import from :mod:`cuarenta.players.hints` instead (CHANGELOG.md, 0.2.0).
"""

from __future__ import annotations

from cuarenta._moved import moved

__getattr__ = moved("cuarenta.server.hints", "cuarenta.players.hints")
