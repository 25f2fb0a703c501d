"""Deprecated: moved to :mod:`cuarenta.server.edge.app`; ``create_app`` is :func:`cuarenta.server.create_app`.

This old name keeps working and raises a :class:`DeprecationWarning` when imported (``uvicorn
cuarenta.server.app:create_app --factory`` still runs); import ``create_app`` from :mod:`cuarenta.server`
instead (CHANGELOG.md, issue 26).
"""

from __future__ import annotations

import importlib
import warnings
from typing import Any

warnings.warn(
    "cuarenta.server.app moved to cuarenta.server.edge.app; import create_app from cuarenta.server"
    " (the old name will go in a later version)",
    DeprecationWarning,
    stacklevel=2,
)
_new = importlib.import_module("cuarenta.server.edge.app")


def __getattr__(name: str) -> Any:
    return getattr(_new, name)
