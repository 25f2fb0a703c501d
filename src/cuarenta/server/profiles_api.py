"""Moved to :mod:`cuarenta.server.edge.profiles`.

This module re-exports its names for old imports (to be removed).
"""

from cuarenta.server.edge.profiles import (
    MAX_KEY_CHARS,
    MAX_LEADERBOARD,
    NAME_PATTERN,
    ProfileName,
    limit_profile_creation,
    profile_key,
    profile_page,
    router,
)

__all__ = [
    "MAX_KEY_CHARS",
    "MAX_LEADERBOARD",
    "NAME_PATTERN",
    "ProfileName",
    "limit_profile_creation",
    "profile_key",
    "profile_page",
    "router",
]
