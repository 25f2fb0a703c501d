"""Deprecated: moved to :mod:`cuarenta.server.edge.app`; ``create_app`` is :func:`cuarenta.server.create_app`.

This old name keeps working and raises a :class:`DeprecationWarning` when imported (``uvicorn
cuarenta.server.app:create_app --factory`` still runs); import ``create_app`` from :mod:`cuarenta.server`
instead (CHANGELOG.md, issue 26).
"""

from __future__ import annotations

from cuarenta._moved import moved

__getattr__ = moved(
    "cuarenta.server.app", "cuarenta.server.edge.app", "import create_app from cuarenta.server"
)
