"""Moved to :mod:`cuarenta.server.ops.gcpolicy`.

This module re-exports its names for old imports (to be removed).
"""

from cuarenta.server.ops.gcpolicy import (
    FULL_EVERY,
    RECLAIM_EVERY,
    GcPolicy,
)

__all__ = [
    "FULL_EVERY",
    "RECLAIM_EVERY",
    "GcPolicy",
]
