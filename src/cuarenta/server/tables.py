"""Tables with friends (docs/tables.md): kept as an import path; the rules are the authority's.

:class:`TableRooms` is the :class:`~cuarenta.server.authority.core.Authority` of one server process with
the store's ratings (:mod:`cuarenta.server.rating`) wired in; everything else lives in
:mod:`cuarenta.server.authority`.
"""

from __future__ import annotations

from typing import Any

from cuarenta.server.authority.core import (
    CLOCKS,
    DEFAULT_GRACE,
    FRIEND,
    GRACE_MAX,
    LOBBY_MAX,
    WATCHERS_SECONDS,
    Authority,
    NewSeat,
)
from cuarenta.server.authority.errors import TableError
from cuarenta.server.authority.reactions import REACTION_SECONDS
from cuarenta.server.edge.statuses import PROBLEM_STATUS
from cuarenta.server.rating import StoreRatings
from cuarenta.server.store import Store

#: The old name of the authority's refusal (it carries a ``code``; the edge maps it to a status).
TableProblem = TableError


class TableRooms(Authority):
    """The authority of one server process, wired with the store's ratings (the rest is
    :class:`~cuarenta.server.authority.core.Authority`)."""

    store: Store

    def __init__(self, store: Store, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("ratings", StoreRatings(store))
        super().__init__(store, *args, **kwargs)


__all__ = [
    "CLOCKS",
    "DEFAULT_GRACE",
    "FRIEND",
    "GRACE_MAX",
    "LOBBY_MAX",
    "PROBLEM_STATUS",
    "REACTION_SECONDS",
    "WATCHERS_SECONDS",
    "NewSeat",
    "TableProblem",
    "TableRooms",
]
