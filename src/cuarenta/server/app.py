"""Moved to :mod:`cuarenta.server.edge.app`.

This module re-exports its names for old imports (to be removed), except that
``cuarenta.server.app.create_app`` is public and stays.
"""

from cuarenta.server.edge.app import (
    GZIP_MINIMUM_BYTES,
    MAX_TOKENS,
    OPENAPI_URL,
    STATIC_DIR,
    TOKEN_IN_ADDRESS,
    create_app,
    rules_of,
)

__all__ = [
    "GZIP_MINIMUM_BYTES",
    "MAX_TOKENS",
    "OPENAPI_URL",
    "STATIC_DIR",
    "TOKEN_IN_ADDRESS",
    "create_app",
    "rules_of",
]
