"""Moved: the request checks and headers to :mod:`cuarenta.server.edge.security`, the rate limits to
:mod:`cuarenta.server.edge.ratelimits`, the log filters to :mod:`cuarenta.server.ops.logs`. This module
re-exports their names for old imports (to be removed), each imported when first named, so that a name
of the standard-library modules (``client_key``, ``Limits``) does not load Starlette.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cuarenta.server.edge.ratelimits import (
        AddressLimiter,
        Limits,
        TokenBucket,
        client_key,
    )
    from cuarenta.server.edge.security import (
        MAX_BODY_BYTES,
        TOKEN_IN_ADDRESS,
        TOKEN_IN_SOCKET_ADDRESS,
        WS_MAX_FRAME_BYTES,
        Origins,
        RequestGuard,
        SecurityHeaders,
        content_security_policy,
        normal_origin,
        refuse,
        tokens_in_query,
    )
    from cuarenta.server.ops.logs import (
        REDACTED_PARAMETERS,
        TOKEN_PARAMETERS,
        RedactTokens,
        ThrottledLog,
        redact,
    )

_HOMES = {
    "MAX_BODY_BYTES": "cuarenta.server.edge.security",
    "TOKEN_IN_ADDRESS": "cuarenta.server.edge.security",
    "TOKEN_IN_SOCKET_ADDRESS": "cuarenta.server.edge.security",
    "WS_MAX_FRAME_BYTES": "cuarenta.server.edge.security",
    "Origins": "cuarenta.server.edge.security",
    "RequestGuard": "cuarenta.server.edge.security",
    "SecurityHeaders": "cuarenta.server.edge.security",
    "content_security_policy": "cuarenta.server.edge.security",
    "normal_origin": "cuarenta.server.edge.security",
    "refuse": "cuarenta.server.edge.security",
    "tokens_in_query": "cuarenta.server.edge.security",
    "AddressLimiter": "cuarenta.server.edge.ratelimits",
    "Limits": "cuarenta.server.edge.ratelimits",
    "TokenBucket": "cuarenta.server.edge.ratelimits",
    "client_key": "cuarenta.server.edge.ratelimits",
    "REDACTED_PARAMETERS": "cuarenta.server.ops.logs",
    "TOKEN_PARAMETERS": "cuarenta.server.ops.logs",
    "RedactTokens": "cuarenta.server.ops.logs",
    "ThrottledLog": "cuarenta.server.ops.logs",
    "redact": "cuarenta.server.ops.logs",
}

__all__ = [
    "MAX_BODY_BYTES",
    "REDACTED_PARAMETERS",
    "TOKEN_IN_ADDRESS",
    "TOKEN_IN_SOCKET_ADDRESS",
    "TOKEN_PARAMETERS",
    "WS_MAX_FRAME_BYTES",
    "AddressLimiter",
    "Limits",
    "Origins",
    "RedactTokens",
    "RequestGuard",
    "SecurityHeaders",
    "ThrottledLog",
    "TokenBucket",
    "client_key",
    "content_security_policy",
    "normal_origin",
    "redact",
    "refuse",
    "tokens_in_query",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)
