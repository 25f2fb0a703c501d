"""Moved to :mod:`cuarenta.server.edge.limits`.

This module re-exports its names for old imports (to be removed).
"""

from cuarenta.server.edge.limits import (
    EXPENSIVE,
    EXPENSIVE_COST,
    UNLIMITED,
    AddressLimits,
    AddressSlots,
    request_cost,
)

__all__ = [
    "EXPENSIVE",
    "EXPENSIVE_COST",
    "UNLIMITED",
    "AddressLimits",
    "AddressSlots",
    "request_cost",
]
