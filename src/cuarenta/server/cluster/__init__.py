"""Several server processes as one (docs/scaling.md): PostgreSQL holds the truth, Redis carries the news.

A cluster node is the same authority (:class:`~cuarenta.server.authority.core.Authority`) as one server,
built by :func:`cuarenta.server.wiring.build_authority` with a Redis client: it is given a Redis bus
(:mod:`.bus`: notices, presence, the comparison with the database, takeover and handback) and a scheduler
that enqueues the computer's moves for the workers (:mod:`.jobs`). The table's rules are the authority's:
nothing here decides what a table does.
"""

from __future__ import annotations

import warnings
from typing import Any

from redis.asyncio import Redis

from cuarenta.server.authority.core import Authority
from cuarenta.server.cluster.bus import RedisBus
from cuarenta.server.cluster.jobs import JobScheduler
from cuarenta.server.cluster.keys import (
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
    job_key,
    presence_key,
    remote_counts,
    room_channel,
)
from cuarenta.server.settings import ServerSettings
from cuarenta.server.store import Store
from cuarenta.server.thinking import Thinking, make_thinking
from cuarenta.server.wiring import build_authority


def ClusterRooms(
    store: Store,
    bot_delay: float = 0.8,
    thinking: Thinking | None = None,
    *,
    redis: Redis,
    node: str,
    **options: Any,
) -> Authority:
    """Deprecated: a cluster node's authority is :func:`cuarenta.server.wiring.build_authority` with a Redis
    client (``build_authority(store, ServerSettings(...), redis=client, node=...)``). This builds the same
    (``options``: ``max_rooms``), with a :class:`DeprecationWarning`."""
    warnings.warn(
        "cuarenta.server.cluster.ClusterRooms is deprecated: build a cluster node with "
        "cuarenta.server.wiring.build_authority(store, settings, redis=client, node=...)",
        DeprecationWarning,
        stacklevel=2,
    )
    settings = ServerSettings(bot_delay=bot_delay, max_rooms=options.pop("max_rooms", None), node=node)
    if options:
        raise TypeError(f"ClusterRooms takes no option {', '.join(sorted(options))}")
    return build_authority(
        store, settings, thinking=make_thinking(0) if thinking is None else thinking, redis=redis
    )


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
