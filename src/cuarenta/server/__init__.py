"""The web app's server (docs/architecture.md): the rooms and tables, the store, the computer players'
workers, the cluster, the HTTP/WebSocket edge (:mod:`cuarenta.server.edge`) and what it tells its operators
(:mod:`cuarenta.server.ops`).

:func:`create_app` builds the application; ``cuarenta serve`` runs it with uvicorn. Importing this package
loads nothing else: ``create_app`` (and FastAPI with it) is imported when it is first named (PEP 562), so
a worker process that imports ``cuarenta.server.worker`` never loads the web framework.

>>> import cuarenta.server
>>> cuarenta.server.create_app.__module__
'cuarenta.server.edge.app'
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


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
