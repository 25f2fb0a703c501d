"""Moved to :mod:`cuarenta.server.ops.health`.

This module re-exports its names for old imports (to be removed).
"""

from cuarenta.server.ops.health import (
    INTEGRITY_SECONDS,
    READY_SECONDS,
    IntegrityCheck,
    Probe,
    Readiness,
    redis_probe,
    store_probe,
)

__all__ = [
    "INTEGRITY_SECONDS",
    "READY_SECONDS",
    "IntegrityCheck",
    "Probe",
    "Readiness",
    "redis_probe",
    "store_probe",
]
