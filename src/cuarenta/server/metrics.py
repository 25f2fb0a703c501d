"""Moved to :mod:`cuarenta.server.ops.metrics`.

This module re-exports its names for old imports (to be removed).
"""

from cuarenta.server.ops.metrics import (
    CONTENT_TYPE,
    DIRECTIONS,
    LATENCY_BUCKETS,
    MOVERS,
    NAMESPACE,
    PEER_KINDS,
    THINK_BUCKETS,
    Metrics,
    Mover,
)

__all__ = [
    "CONTENT_TYPE",
    "DIRECTIONS",
    "LATENCY_BUCKETS",
    "MOVERS",
    "NAMESPACE",
    "PEER_KINDS",
    "THINK_BUCKETS",
    "Metrics",
    "Mover",
]
