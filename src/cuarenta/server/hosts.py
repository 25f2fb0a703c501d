"""Moved to :mod:`cuarenta.server.edge.hosts`.

This module re-exports its names for old imports (to be removed).
"""

from cuarenta.server.edge.hosts import (
    SERVER_NAME_OPTION,
    BadServerName,
    HostCheck,
    ServerNames,
    host_of,
    normal_name,
)

__all__ = [
    "SERVER_NAME_OPTION",
    "BadServerName",
    "HostCheck",
    "ServerNames",
    "host_of",
    "normal_name",
]
