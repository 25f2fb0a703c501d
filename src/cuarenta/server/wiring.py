"""The authority wired for one server process: :class:`TableRooms`, the object ``create_app`` builds.

:class:`TableRooms` is the :class:`~cuarenta.server.authority.core.Authority` with the store's ratings
(:class:`~cuarenta.server.ratings.rating.StoreRatings`) given as its ``ratings`` port; the table's rules
are the authority's (:mod:`cuarenta.server.authority`). A cluster node builds on it
(:class:`cuarenta.server.cluster.ClusterRooms`: a Redis bus and the workers' scheduler as well).
"""

from __future__ import annotations

from typing import Any

from cuarenta.server.authority.core import Authority
from cuarenta.server.ratings.rating import StoreRatings
from cuarenta.server.store import Store


class TableRooms(Authority):
    """The authority of one server process, wired with the store's ratings (the rest is
    :class:`~cuarenta.server.authority.core.Authority`)."""

    store: Store

    def __init__(self, store: Store, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("ratings", StoreRatings(store))
        super().__init__(store, *args, **kwargs)


__all__ = ["TableRooms"]
