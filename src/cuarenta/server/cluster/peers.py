"""The other processes of a cluster as a node sees them (:mod:`cuarenta.server.cluster.bus`, "Presence",
"Takeover and handback").

Every node keeps its entry in a sorted set of live processes (``cuarenta:nodes``, refreshed every
:data:`~cuarenta.server.cluster.keys.HEARTBEAT_SECONDS`) and its start time in a hash: a peer whose
entry expired, or that started again meanwhile, is *lost*. The sockets that come to this node around
then were the lost node's (:meth:`Peers.adopted`); once a node appears again they are asked to reconnect
(close :data:`~cuarenta.server.cluster.keys.CLOSE_RECONNECT`), a batch at a time, and the proxy sends
each room where its hash names.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from redis.asyncio import Redis

from cuarenta.server.authority.model import Room
from cuarenta.server.cluster.keys import (
    ADOPT_BEFORE_SECONDS,
    ADOPT_SECONDS,
    CLOSE_RECONNECT,
    HANDBACK_BATCH,
    HANDBACK_DELAY_SECONDS,
    HANDBACK_PAUSE_SECONDS,
    NODE_TTL_SECONDS,
    NODES_KEY,
    STARTS_KEY,
    peer_kind,
    text,
)
from cuarenta.server.ops.metrics import PEER_KINDS

if TYPE_CHECKING:
    from cuarenta.server.authority.core import Authority

log = logging.getLogger("cuarenta.server")


class Peers:
    """Node ``node``'s view of the cluster's live processes, and the handback of adopted rooms.

    ``authority`` gives the authority whose rooms are in memory here (bound after the bus is made).
    """

    def __init__(self, redis: Redis, node: str, authority: Callable[[], Authority]) -> None:
        self.redis = redis
        self.node = node
        self._authority = authority
        self._started = time.time()  #: when this process started (its incarnation, for the others)
        self._starts: dict[str, float] = {}  #: the live peers' start times, as last read
        self._node_lost_at: float | None = None  #: when a peer node was last found lost
        self._arrived: dict[str, float] = {}  #: room → time.monotonic() its first socket here came
        self._handback: asyncio.Task[None] | None = None

    # -- the sockets of a room here ------------------------------------------------------------------------
    def arrived(self, room_id: str) -> None:
        """The first socket of ``room_id`` came to this node now."""
        self._arrived[room_id] = time.monotonic()

    def gone(self, room_id: str) -> None:
        """The last socket of ``room_id`` here left."""
        self._arrived.pop(room_id, None)

    # -- the heartbeat ---------------------------------------------------------------------------------------
    async def beat(self, known: set[str]) -> set[str]:
        """Refresh this node's entry and read the live processes: return them (this node among them),
        count them and those lost since ``known`` (the live ones as last read), and hand back the
        adopted rooms when a node appears after one was lost."""
        now = self._authority().wall()
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zadd(NODES_KEY, {self.node: now + NODE_TTL_SECONDS})
            pipe.hset(STARTS_KEY, self.node, repr(self._started))
            pipe.zremrangebyscore(NODES_KEY, "-inf", now - 60)
            pipe.zrangebyscore(NODES_KEY, now - 60, "+inf", withscores=True)
            pipe.hgetall(STARTS_KEY)
            *_, found, starts = await pipe.execute()
        entries = [(text(n), float(until)) for n, until in found]
        live = {n for n, until in entries if until >= now} | {self.node}
        expired = {n for n, until in entries if until < now}
        started = {text(n): float(when) for n, when in starts.items()}
        # a node killed and started again before its entry expired is a node lost too
        restarted = {
            n
            for n in live & known
            if n != self.node and n in started and self._starts.get(n, started[n]) != started[n]
        }
        self._starts = {n: started[n] for n in live if n in started}
        self._count(live, lost=((known & expired) - live) | restarted)
        joined = {n for n in (live - known) | restarted if peer_kind(n) == "node"}
        if joined and self._node_lost_at is not None:
            self._hand_back_later()
        return live

    def _count(self, live: set[str], lost: set[str]) -> None:
        """The peers gauge (the other live processes), and the peers lost: those this node knew alive whose
        entry expired (killed, or cut off from Redis), or that started again meanwhile (killed and
        restarted within the entry's life). A process that stops cleanly removes its entry and is not
        counted; after Redis restarted the set is empty, and nobody is counted either."""
        metrics = self._authority().metrics
        for kind in PEER_KINDS:
            metrics.peers.labels(kind=kind).set(sum(peer_kind(n) == kind for n in live if n != self.node))
        for name in sorted(lost):
            log.warning("node %s: %s stopped announcing itself", self.node, name)
            metrics.peers_lost.labels(kind=peer_kind(name)).inc()
            if peer_kind(name) == "node":
                self._node_lost_at = time.monotonic()

    # -- sockets back to a node that returns -----------------------------------------------------------------
    def adopted(self) -> list[Room]:
        """The rooms with sockets here whose sockets came when a peer node was lost (they were its)."""
        lost = self._node_lost_at
        if lost is None:
            return []
        since, until = lost - ADOPT_BEFORE_SECONDS, lost + ADOPT_SECONDS
        return [
            r
            for r in self._authority().rooms_in_memory()
            if r.connections and since <= self._arrived.get(r.id, -1.0) <= until
        ]

    def _hand_back_later(self) -> None:
        if self._handback is None or self._handback.done():
            self._handback = asyncio.get_running_loop().create_task(self._hand_back())

    async def _hand_back(self) -> None:
        """A node appeared after one was lost: the sockets of the rooms adopted then are asked to reconnect
        (close 1012), a batch at a time; the proxy sends each room to the node its hash names — some come
        back here, the others go to the node that appeared."""
        await asyncio.sleep(HANDBACK_DELAY_SECONDS)
        rooms = self.adopted()
        self._node_lost_at = None
        for room_id in [r.id for r in rooms]:
            self._arrived.pop(room_id, None)
        if rooms:
            log.warning("node %s: asking the sockets of %d rooms to reconnect", self.node, len(rooms))
        metrics = self._authority().metrics
        for start in range(0, len(rooms), HANDBACK_BATCH):
            for room in rooms[start : start + HANDBACK_BATCH]:
                for conn in list(room.connections):
                    conn.close(CLOSE_RECONNECT)
                    metrics.handed_back.inc()
            await asyncio.sleep(HANDBACK_PAUSE_SECONDS)

    def close(self) -> None:
        """Stop a handback under way."""
        if self._handback is not None:
            self._handback.cancel()


__all__ = ["Peers"]
