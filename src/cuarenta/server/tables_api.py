"""Moved to :mod:`cuarenta.server.edge.tables`.

This module re-exports its names for old imports (to be removed).
"""

from cuarenta.server.edge.tables import (
    JoinTable,
    Lobby,
    NewTable,
    NewTableAnswer,
    SeatAnswer,
    TableInfo,
    router,
    rules_for,
)

__all__ = [
    "JoinTable",
    "Lobby",
    "NewTable",
    "NewTableAnswer",
    "SeatAnswer",
    "TableInfo",
    "router",
    "rules_for",
]
