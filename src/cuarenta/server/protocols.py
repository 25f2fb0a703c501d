"""Moved to :mod:`cuarenta.server.edge.protocols`.

This module re-exports its names for old imports (to be removed).
"""

from cuarenta.server.edge.protocols import (
    BODY_TIMEOUT,
    CONNECTIONS_PER_ADDRESS,
    HEADER_TIMEOUT,
    BadProxyAddress,
    ConnectionGuard,
    GuardedH11Protocol,
    guarded_protocol,
    proxy_networks,
    raw_answer,
)

__all__ = [
    "BODY_TIMEOUT",
    "CONNECTIONS_PER_ADDRESS",
    "HEADER_TIMEOUT",
    "BadProxyAddress",
    "ConnectionGuard",
    "GuardedH11Protocol",
    "guarded_protocol",
    "proxy_networks",
    "raw_answer",
]
