"""The web app's server: FastAPI + WebSockets, rooms and seats, SQLite saves (docs/protocol.md).

:func:`create_app` builds the application; ``cuarenta serve`` runs it with uvicorn.
"""

from __future__ import annotations

from cuarenta.server.app import create_app

__all__ = ["create_app"]
