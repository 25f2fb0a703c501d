"""The wiring: the one place that builds the server's authority, for one process or a cluster node.

:func:`build_authority` gives the :class:`~cuarenta.server.authority.core.Authority` its parts
(composition, nothing inherited): the store, the store's ratings
(:class:`~cuarenta.server.ratings.rating.StoreRatings`), and either the bus and scheduler of one process
(nobody else writes the store; the computer players think in a pool here) or, given a Redis client, a
cluster node's (:class:`~cuarenta.server.cluster.bus.RedisBus`: notices, presence, takeover;
:class:`~cuarenta.server.cluster.jobs.JobScheduler`: the computer's moves are jobs for ``cuarenta worker``
processes). ``create_app`` and ``cuarenta worker`` call it; whatever they build is one object, the
authority (``app.state.rooms``).

>>> import tempfile, pathlib
>>> from cuarenta.server.store import Store
>>> with tempfile.TemporaryDirectory() as d:
...     store = Store.in_dir(pathlib.Path(d))
...     authority = build_authority(store, ServerSettings(bot_delay=0, workers=0))
...     print(type(authority).__name__, authority.max_rooms == DEFAULT_MAX_ROOMS)
...     store.close()
Authority True

The cluster's modules need the ``cluster`` extra (Redis): they are imported only to build a node.
``TableRooms``, the name the edge has for that object, is :class:`Authority` itself now (it was a
subclass that added the ratings; ``build_authority`` adds them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

from cuarenta.server.authority.core import Authority
from cuarenta.server.authority.model import DEFAULT_MAX_ROOMS
from cuarenta.server.ratings.rating import StoreRatings
from cuarenta.server.settings import ServerSettings
from cuarenta.server.store import Store
from cuarenta.server.thinking import Thinking, make_thinking

if TYPE_CHECKING:
    from redis.asyncio import Redis

#: The server's authority, as the edge names it (``app.state.rooms``): :class:`Authority` itself.
TableRooms: TypeAlias = Authority


def build_authority(
    store: Store,
    settings: ServerSettings | None = None,
    *,
    thinking: Thinking | None = None,
    redis: Redis | None = None,
    node: str | None = None,
) -> Authority:
    """The authority over ``store``'s tables, wired with the store's ratings and ``settings``
    (:class:`~cuarenta.server.settings.ServerSettings`: ``bot_delay``, ``max_rooms``, ``workers``).

    Without ``redis`` it is the only process that writes the store, and its computer players think in
    ``thinking`` (default: ``settings.workers`` processes, :func:`~cuarenta.server.thinking.make_thinking`).
    With ``redis`` it is the cluster node ``node`` (default ``settings.node``): a
    :class:`~cuarenta.server.cluster.bus.RedisBus` on that client and a
    :class:`~cuarenta.server.cluster.jobs.JobScheduler`, and it never thinks itself (default ``thinking``:
    in-process, for the worker that plays the jobs). Call its ``open`` on the event loop before use and its
    ``close`` at the end.
    """
    settings = ServerSettings() if settings is None else settings
    ratings = StoreRatings(store)
    if redis is None:
        return Authority(
            store,
            settings.bot_delay,
            make_thinking(settings.workers) if thinking is None else thinking,
            max_rooms=settings.max_rooms or DEFAULT_MAX_ROOMS,
            ratings=ratings,
        )
    # the cluster's modules need the ``cluster`` extra (Redis): imported only for a cluster node
    from cuarenta.server.cluster.bus import RedisBus
    from cuarenta.server.cluster.jobs import JobScheduler

    bus = RedisBus(redis, node=settings.node if node is None else node)
    scheduler = JobScheduler(bus)
    authority = Authority(
        store,
        settings.bot_delay,
        make_thinking(0) if thinking is None else thinking,  # a node never thinks: the workers do
        max_rooms=settings.max_rooms or DEFAULT_MAX_ROOMS,
        bus=bus,
        scheduler=scheduler,
        ratings=ratings,
    )
    bus.bind(authority)
    scheduler.bind(authority)
    return authority


def redis_client(url: str) -> Redis:
    """A client of the Redis at ``url`` for a cluster node (the ``cluster`` extra: imported only here)."""
    from redis.asyncio import Redis

    return Redis.from_url(url, socket_connect_timeout=2, socket_timeout=5, health_check_interval=10)


__all__ = ["TableRooms", "build_authority", "redis_client"]
