"""Moved to :mod:`cuarenta.server.edge.options`.

This module re-exports its names for old imports (to be removed).
"""

from cuarenta.server.edge.options import (
    NAME_MAX_CHARS,
    NAME_PATTERN,
    OPTIONAL_NAME_PATTERN,
    OTHER_VALUE_KEYS,
    PLAYER_COUNTS,
    QUICK_PRESET,
    known_level,
    labels,
    option_entry,
    options_payload,
    router,
    templates,
    texts_body,
)

__all__ = [
    "NAME_MAX_CHARS",
    "NAME_PATTERN",
    "OPTIONAL_NAME_PATTERN",
    "OTHER_VALUE_KEYS",
    "PLAYER_COUNTS",
    "QUICK_PRESET",
    "known_level",
    "labels",
    "option_entry",
    "options_payload",
    "router",
    "templates",
    "texts_body",
]
