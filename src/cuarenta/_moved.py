"""A module that moved: its old name warns when imported and forwards every attribute to the new one.

Each old module is three lines (CHANGELOG.md says when it moved)::

    from cuarenta._moved import moved

    __getattr__ = moved("cuarenta.arena", "cuarenta.players.arena")
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable
from typing import Any


def moved(old: str, new: str, how: str = "import it from there") -> Callable[[str], Any]:
    """Warn (:class:`DeprecationWarning`, attributed to the importer of ``old``) that ``old`` moved to
    ``new``, and return the ``__getattr__`` for ``old`` that forwards every name to ``new``."""
    warnings.warn(
        f"{old} moved to {new}; {how} (the old name will go in a later version)",
        DeprecationWarning,
        stacklevel=3,  # past this function and the old module's body, as the old modules' own warn had 2
    )
    module = importlib.import_module(new)

    def forward(name: str) -> Any:
        return getattr(module, name)

    return forward


__all__ = ["moved"]
