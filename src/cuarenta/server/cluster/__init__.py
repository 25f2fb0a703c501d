"""Several server processes as one (docs/scaling.md): PostgreSQL holds the truth, Redis carries the news.

A cluster node is the same authority (:class:`~cuarenta.server.authority.core.Authority`) as one server,
given a Redis bus (:mod:`.bus`: notices, presence, the comparison with the database, takeover and
handback) and a scheduler that enqueues the computer's moves for the workers (:mod:`.jobs`). The table's
rules are the authority's: nothing here decides what a table does.
"""

from __future__ import annotations

from typing import Any

from redis.asyncio import Redis

from cuarenta.server.authority.model import Room
from cuarenta.server.cluster.bus import (
    ADOPT_BEFORE_SECONDS,
    ADOPT_SECONDS,
    CLOSE_RECONNECT,
    FRESH_SECONDS,
    HANDBACK_BATCH,
    HANDBACK_DELAY_SECONDS,
    HANDBACK_PAUSE_SECONDS,
    HEARTBEAT_SECONDS,
    JOB_DEDUPE_SECONDS,
    JOBS_GROUP,
    JOBS_STREAM,
    NODE_TTL_SECONDS,
    NODES_KEY,
    OUTBOX_MAX,
    PREFIX,
    RETRY_SECONDS,
    STARTS_KEY,
    STREAM_MAX,
    SWEEP_SECONDS,
    RedisBus,
    job_key,
    presence_key,
    remote_counts,
    room_channel,
)
from cuarenta.server.cluster.jobs import JobScheduler
from cuarenta.server.store import Store
from cuarenta.server.wiring import TableRooms


class ClusterRooms(TableRooms):
    """The authority of one cluster node, wired: the store's ratings, a :class:`RedisBus` on ``redis`` and
    a :class:`JobScheduler` (this node never thinks). ``node`` names the process (unique in the cluster).
    Call :meth:`open` on the event loop before use and :meth:`close` at the end."""

    def __init__(self, store: Store, *args: Any, redis: Redis, node: str, **kwargs: Any) -> None:
        bus = RedisBus(redis, node=node)
        scheduler = JobScheduler(bus)
        super().__init__(store, *args, bus=bus, scheduler=scheduler, **kwargs)
        bus.bind(self)
        scheduler.bind(self)
        self.cluster_bus = bus

    @property
    def redis(self) -> Redis:
        return self.cluster_bus.redis

    @property
    def node(self) -> str:
        return self.cluster_bus.node

    @property
    def redis_ok(self) -> bool:
        """Whether the last exchange with Redis worked (readiness, and the ``cuarenta_bus_up`` gauge)."""
        return self.cluster_bus.redis_ok

    def adopted(self) -> list[Room]:
        """The rooms with sockets here whose sockets came when a peer node was lost."""
        return self.cluster_bus.adopted()

    async def queue_depth(self) -> int:
        """Jobs waiting in the stream or taken and not finished (for the metrics)."""
        return await self.cluster_bus.queue_depth()


__all__ = [
    "ADOPT_BEFORE_SECONDS",
    "ADOPT_SECONDS",
    "CLOSE_RECONNECT",
    "FRESH_SECONDS",
    "HANDBACK_BATCH",
    "HANDBACK_DELAY_SECONDS",
    "HANDBACK_PAUSE_SECONDS",
    "HEARTBEAT_SECONDS",
    "JOBS_GROUP",
    "JOBS_STREAM",
    "JOB_DEDUPE_SECONDS",
    "NODES_KEY",
    "NODE_TTL_SECONDS",
    "OUTBOX_MAX",
    "PREFIX",
    "RETRY_SECONDS",
    "STARTS_KEY",
    "STREAM_MAX",
    "SWEEP_SECONDS",
    "ClusterRooms",
    "JobScheduler",
    "RedisBus",
    "job_key",
    "presence_key",
    "remote_counts",
    "room_channel",
]
