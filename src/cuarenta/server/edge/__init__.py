"""The HTTP and WebSocket edge of the server (docs/architecture.md): the only part that imports FastAPI,
Starlette or uvicorn.

- :mod:`~cuarenta.server.edge.app`: :func:`create_app`, the wiring (routers, middleware, state);
- the routes, one module per group: :mod:`~cuarenta.server.edge.operations` (health, readiness,
  metrics), :mod:`~cuarenta.server.edge.options` (the form's options, the texts),
  :mod:`~cuarenta.server.edge.rooms`, :mod:`~cuarenta.server.edge.tables`,
  :mod:`~cuarenta.server.edge.profiles` (profiles, ratings, the leaderboard),
  :mod:`~cuarenta.server.edge.records` (history, records, stats), :mod:`~cuarenta.server.edge.qr`,
  :mod:`~cuarenta.server.edge.pages` (the page) and :mod:`~cuarenta.server.edge.sockets` (``/ws``, its
  loop and dispatch table);
- :mod:`~cuarenta.server.edge.deps`: tokens, rate limits of creation, errors as answers and frames;
- the defences: :mod:`~cuarenta.server.edge.security`, :mod:`~cuarenta.server.edge.ratelimits`,
  :mod:`~cuarenta.server.edge.limits`, :mod:`~cuarenta.server.edge.hosts`,
  :mod:`~cuarenta.server.edge.protocols` (uvicorn's connections).

Importing the package loads none of them (``create_app`` is imported when first named).

>>> from cuarenta.server.edge import create_app
>>> create_app.__name__
'create_app'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cuarenta.server.edge.app import create_app

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from cuarenta.server.edge.app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
