"""The bus of a cluster node (docs/scaling.md): PostgreSQL holds the truth, Redis carries the news.

``cuarenta serve --database postgresql+psycopg://… --redis redis://…`` runs one *node* of a cluster.
Every node keeps, for each room that has a socket on it, a copy of the room in memory, and every copy
follows the room's stored log:

Exactly one change per version
    Every write of a room (an action, a new mesa, a change of seats) is a compare-and-set on the room's
    ``version`` in the database (:class:`~cuarenta.server.store.StoreConflict`). Two nodes that get a move
    for the same state at once both try; one write succeeds, the other is refused, reloads the room and
    answers ``stale`` — as a second tab of the same seat is answered in one process.

Fan-out
    After a write the node publishes a *notice* on the room's Redis channel (``cuarenta:room:ID``): the new
    version and, for moves, the actions appended. A node with sockets in that room is subscribed; it plays
    the actions on its copy (or, when it missed a version, reloads the room from the database), then
    sends its own sockets their ``state`` messages. Redis only carries news: a lost notice costs time,
    never a move — every node also compares its rooms' versions with the database every
    :data:`SWEEP_SECONDS` and after Redis comes back, and catches up.

Presence
    Which seats have a socket, on which node, is kept in a Redis hash per room (``cuarenta:presence:ID``,
    fields ``n/NODE/SEAT`` = sockets, ``away/SEAT`` = when the seat's grace ends), beside a sorted set of
    live nodes (``cuarenta:nodes``, refreshed every :data:`HEARTBEAT_SECONDS`): the sockets of a node that
    stops (killed) stop counting once its entry expires (:data:`NODE_TTL_SECONDS`).

Computer players
    When a computer is to move, the node puts a *job* on a Redis stream (``cuarenta:moves``, consumer
    group ``workers``): the room, the version it is for, the seat, the level and the time before which
    it must not be played (the pace). ``cuarenta worker`` processes (:mod:`cuarenta.server.worker`) take
    the jobs; a job is enqueued once per version (a key with a lifetime, :data:`JOB_DEDUPE_SECONDS`), a
    worker that dies leaves its job pending and another takes it over, and the move is written with the
    same compare-and-set: a job for a version that is gone changes nothing.

Takeover and handback
    A join whose room is not in memory waits while one reader thread reads the room (the sockets of a
    dead node arrive all at once: their reads on the event loop held every other socket back); a node
    that took a lost node's rooms over asks their sockets to reconnect (close :data:`CLOSE_RECONNECT`)
    once that node is back, and the proxy sends each room where its hash names.

Timers
    The grace and the turn clock run on every node that holds the table; what they do when they fire is
    idempotent (mark a seat as played by the computer, enqueue the job of this version), so the move they
    cause is made once, whichever nodes fire.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from redis.asyncio import Redis
from redis.asyncio.client import PubSub
from redis.exceptions import RedisError

from cuarenta.server.authority.model import Connection, Room
from cuarenta.server.authority.ports import StoreError, StorePort
from cuarenta.server.cluster.keys import (
    ENQUEUE,
    FRESH_SECONDS,
    HEARTBEAT_SECONDS,
    JOB_DEDUPE_SECONDS,
    JOBS_GROUP,
    JOBS_STREAM,
    OUTBOX_MAX,
    RETRY_SECONDS,
    STREAM_MAX,
    SWEEP_SECONDS,
    job_key,
    room_channel,
    text,
)
from cuarenta.server.cluster.peers import Peers
from cuarenta.server.cluster.presence import Presence
from cuarenta.server.cluster.reader import RoomReader
from cuarenta.server.ops.metrics import Metrics

if TYPE_CHECKING:
    from cuarenta.server.authority.core import Authority

log = logging.getLogger("cuarenta.server")


class RedisBus:
    """The :class:`~cuarenta.server.authority.ports.Bus` of a cluster node (module docstring): notices on
    Redis channels, presence in Redis hashes (:class:`~cuarenta.server.cluster.presence.Presence`), the
    live peers and the handback (:class:`~cuarenta.server.cluster.peers.Peers`), the reads a join waits
    for (:class:`~cuarenta.server.cluster.reader.RoomReader`), the comparison of its rooms with the
    database.

    ``redis`` is the client of the cluster's Redis; ``node`` names this process (unique in the cluster).
    """

    def __init__(self, redis: Redis, *, node: str) -> None:
        self._authority: Authority | None = None
        self.redis = redis
        self.node = node
        self._live: set[str] = set()  #: rooms whose channel this node is subscribed to (confirmed)
        self._wanted: set[str] = set()  #: rooms whose channel it should be subscribed to
        self._outbox: list[tuple[str, dict[str, Any]]] = []  #: notices to publish, in order
        self._jobs: dict[tuple[str, int], dict[str, Any]] = {}  #: jobs to enqueue
        self._presence_dirty: set[str] = set()  #: rooms whose presence this node must write
        self._presence_stale: set[str] = set()  #: rooms whose presence another node changed (to read)
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._bus: bool | None = None  #: whether the last exchange with Redis worked (None: none yet)
        self._lost_once = False  #: Redis has been lost at least once (a later success is a reconnect)
        self._checked: dict[str, float] = {}  #: room → time.monotonic() of its last read from the database
        self._joining: str | None = None  #: the room of the socket join being made (its read is trusted)
        self._confirmed: set[str] = set()  #: rooms newly subscribed: to compare with the database
        self._confirm_wake = asyncio.Event()
        self.presence = Presence(redis, node, lambda: self.a)
        self.peers = Peers(redis, node, lambda: self.a)
        self.reader = RoomReader(lambda: self.a, self._current, self._was_read)

    def bind(self, authority: Authority) -> None:
        """The authority whose rooms this bus carries the news of (before :meth:`open`)."""
        self._authority = authority

    @property
    def a(self) -> Authority:
        assert self._authority is not None, "RedisBus.bind was not called"
        return self._authority

    @property
    def metrics(self) -> Metrics:
        return self.a.metrics

    @property
    def store(self) -> StorePort:
        return self.a.store

    # -- the Bus port ------------------------------------------------------------------------------------
    def trusts(self, room_id: str) -> bool:
        """A room this node follows is kept current by the notices; the room of the socket join under way,
        read less than :data:`FRESH_SECONDS` ago, is trusted too (its subscription, once confirmed,
        compares it again). Any other room is compared with the database first."""
        return room_id in self._live or (room_id == self._joining and self._current(room_id))

    def read(self, room_id: str) -> None:
        self._checked[room_id] = time.monotonic()

    def _was_read(self, room_id: str, when: float) -> None:
        """``room_id`` was read from the database (or compared with it) at ``when`` (monotonic)."""
        self._checked[room_id] = when

    def others_write(self) -> bool:
        """The other nodes and the workers write the same database."""
        return True

    @contextlib.contextmanager
    def joining(self, room_id: str) -> Iterator[None]:
        self._joining = room_id
        try:
            yield
        finally:
            self._joining = None

    def gate(self, conn: Connection, room_id: str | None, run: Callable[[], None]) -> None:
        self.reader.gate(conn, room_id, run)

    def followed(self, room: Room) -> None:
        """A socket joined ``room`` here: subscribe to its notices and tell the others of the socket."""
        if room.id not in self._wanted:  # its first socket here
            self.peers.arrived(room.id)
        self._presence_dirty.add(room.id)
        self._wanted.add(room.id)
        self._wake.set()

    def leaving(self, conn: Connection, keep: Room | None) -> None:
        if keep is None:  # the socket closed: what it asked is dropped
            self.reader.drop(conn)

    def left(self, room: Room) -> None:
        self._presence_dirty.add(room.id)
        if not room.connections:
            self._wanted.discard(room.id)
            self.peers.gone(room.id)
        self._wake.set()

    def stored(self, room: Room, appended: tuple[int, int] | None) -> None:
        """A change this node stored: every other node is told (the actions of a move, when they follow
        the version before; else only the version, and they read the database)."""
        notice: dict[str, Any] = {"kind": "change", "version": room.version}
        if appended is not None:
            mesa, logged = appended
            if mesa == room.mesa and 0 <= logged <= room.logged == len(room.game.actions):
                notice.update(
                    mesa=room.mesa,
                    state=room.state,
                    after=logged,
                    actions=[str(a) for a in room.game.actions[logged:]],
                )
        self._notify(room, notice)

    def reacted(self, room: Room, seat: int, saying: str) -> None:
        self._notify(room, {"kind": "reaction", "seat": seat, "saying": saying})

    def voted(self, room: Room, seat: int) -> None:
        self._notify(room, {"kind": "rematch", "mesa": room.mesa, "seat": seat})

    def enqueue(self, room: Room, job: dict[str, Any]) -> None:
        """Put a computer-move job of the room's current version on the stream (once per version)."""
        self._jobs[(room.id, room.version)] = job
        self._wake.set()

    def _current(self, room_id: str) -> bool:
        """Whether the copy in memory may be used without asking the database: its notices are followed,
        or it was read a moment ago."""
        if self.a.room_in_memory(room_id) is None:
            return False
        if room_id in self._live:
            return True
        return time.monotonic() - self._checked.get(room_id, -FRESH_SECONDS) < FRESH_SECONDS

    def _notify(self, room: Room, notice: dict[str, Any]) -> None:
        self._outbox.append((room.id, {**notice, "node": self.node}))
        self._wake.set()

    def _on_notice(self, room_id: str, notice: dict[str, Any]) -> None:
        """A notice of another node (or this node's own, which changes nothing)."""
        self.metrics.bus_messages.labels(direction="received").inc()
        room = self.a.room_in_memory(room_id)
        if room is None or notice.get("node") == self.node:
            return
        kind = notice.get("kind")
        if kind == "change":
            version = int(notice["version"])
            if version <= room.version:
                return
            actions = notice.get("actions")
            followed = actions is not None and self.a.follow(
                room,
                version=version,
                mesa=int(notice.get("mesa", -1)),
                after=int(notice.get("after", -1)),
                state=int(notice.get("state", -1)),
                actions=[str(a) for a in actions],
            )
            if not followed:
                self.a.catch_up(room)
        elif kind == "presence":  # read by the publisher, with the others of its round (one pipeline)
            self._presence_stale.add(room_id)
            self._wake.set()
        elif kind == "reaction":
            self.a.tell_reaction(room, int(notice["seat"]), str(notice["saying"]))
        elif kind == "rematch" and notice.get("mesa") == room.mesa:
            self.a.vote(room, int(notice["seat"]), here=False)

    @property
    def redis_ok(self) -> bool:
        """Whether the last exchange with Redis worked (readiness, and the ``cuarenta_bus_up`` gauge)."""
        return bool(self._bus)

    @redis_ok.setter
    def redis_ok(self, ok: bool) -> None:
        was, self._bus = self._bus, ok
        if was is ok:
            return
        self.metrics.bus_up.set(1 if ok else 0)
        if was is True:  # lost: counted once per outage, however many exchanges fail during it
            self.metrics.bus_outages.inc()
        elif was is False and ok and self._lost_once:
            self.metrics.bus_reconnects.inc()
        if not ok:
            self._lost_once = True

    # -- lifecycle ---------------------------------------------------------------------------------------
    async def open(self) -> None:
        """Start the node's tasks: the listener, the publisher, the heartbeat and the sweeper."""
        loop = asyncio.get_running_loop()
        for name, run in (
            ("listen", self._listen),
            ("publish", self._publish),
            ("heartbeat", self._heartbeat),
            ("sweep", self._sweep),
            ("confirm", self._confirm),
        ):
            self._tasks.append(loop.create_task(run(), name=f"cluster-{name}"))

    async def close(self) -> None:
        self.peers.close()
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks.clear()
        with contextlib.suppress(RedisError, OSError):
            await self.presence.forget_node()
        await self.redis.aclose()
        self.reader.close()

    async def queue_depth(self) -> int:
        """Jobs waiting in the stream or taken and not finished (for the metrics)."""
        try:
            groups = await self.redis.xinfo_groups(JOBS_STREAM)
        except RedisError:
            return 0
        for group in groups:
            if group.get("name") in (JOBS_GROUP, JOBS_GROUP.encode()):
                return int(group.get("lag") or 0) + int(group.get("pending") or 0)
        return 0

    async def _listen(self) -> None:
        """Receive the notices of the rooms with sockets here; (re)subscribe as rooms come and go, and
        after Redis comes back (then every followed room is compared with the database)."""
        while True:
            pubsub: PubSub = self.redis.pubsub()
            try:
                subscribed: set[str] = set()
                self._live.clear()
                while True:
                    wanted = {r for r in self._wanted if self.a.room_in_memory(r) is not None}
                    add, drop = wanted - subscribed, subscribed - wanted
                    if add:
                        await pubsub.subscribe(*(room_channel(r) for r in add))
                        subscribed |= add
                    if drop:
                        await pubsub.unsubscribe(*(room_channel(r) for r in drop))
                        subscribed -= drop
                        self._live -= drop
                    if not subscribed:
                        await asyncio.sleep(0.2)
                        self.redis_ok = bool(await self.redis.ping())
                        continue
                    message = await pubsub.get_message(timeout=0.2)
                    self.redis_ok = True
                    while message is not None:
                        self._dispatch(message)
                        message = await pubsub.get_message(timeout=0)
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as exc:
                self.redis_ok = False
                log.warning("node %s lost Redis (%s); subscribing again", self.node, exc)
                await asyncio.sleep(RETRY_SECONDS)
            finally:
                with contextlib.suppress(RedisError, OSError, RuntimeError):
                    await pubsub.aclose()  # type: ignore[no-untyped-call, unused-ignore]  # typed from redis 8.2

    def _dispatch(self, message: dict[str, Any]) -> None:
        kind = text(message.get("type"))
        channel = text(message.get("channel"))
        room_id = channel.rpartition(":")[2]
        if kind == "subscribe":  # from now on no notice is missed: catch up with the database once
            self._live.add(room_id)
            if self.a.room_in_memory(room_id) is not None:
                self._confirmed.add(room_id)  # compared by _confirm, with the others of its round
                self._confirm_wake.set()
                self._presence_dirty.add(room_id)
                self._wake.set()
        elif kind == "unsubscribe":
            self._live.discard(room_id)
        elif kind == "message":
            try:
                notice = json.loads(message["data"])
                self._on_notice(room_id, notice)
            except (ValueError, KeyError, TypeError):
                log.exception("a notice of room %s could not be read", room_id)

    async def _publish(self) -> None:
        """Publish the notices, enqueue the jobs and write the presence this node has made, in order."""
        script = self.redis.register_script(ENQUEUE)
        while True:
            await self._wake.wait()
            self._wake.clear()
            outbox, self._outbox = self._outbox, []
            jobs, self._jobs = self._jobs, {}
            dirty, self._presence_dirty = self._presence_dirty, set()
            stale, self._presence_stale = self._presence_stale, set()
            try:
                if outbox or jobs:  # one round trip for the notices and the jobs of this round
                    async with self.redis.pipeline(transaction=False) as pipe:
                        for room_id, notice in outbox:
                            pipe.publish(room_channel(room_id), json.dumps(notice))
                        for (room_id, version), job in jobs.items():
                            await script(
                                keys=[job_key(room_id, version), JOBS_STREAM],
                                args=[JOB_DEDUPE_SECONDS, STREAM_MAX, json.dumps(job)],
                                client=pipe,
                            )
                        await pipe.execute()
                    self.metrics.bus_messages.labels(direction="published").inc(len(outbox))
                if dirty:
                    await self.presence.write(dirty)  # reads those rooms' presence back too
                if stale - dirty:
                    await self.presence.read(stale - dirty)
                self.redis_ok = True
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as exc:
                # kept for the next round (a notice published twice changes nothing: a node ignores a
                # version it has); past OUTBOX_MAX the oldest go: the sweep catches up from the database
                self.redis_ok = False
                self._outbox = (outbox + self._outbox)[-OUTBOX_MAX:]
                self._jobs = {**jobs, **self._jobs}
                self._presence_dirty |= dirty
                self._presence_stale |= stale
                log.warning("node %s could not reach Redis (%s): will catch up", self.node, exc)
                await asyncio.sleep(RETRY_SECONDS)
                self._wake.set()

    async def _heartbeat(self) -> None:
        """Keep this node's entry among the live nodes; notice nodes that stopped (:class:`Peers`)."""
        while True:
            try:
                live = await self.peers.beat(self.presence.nodes)
                if live != self.presence.nodes:
                    self.presence.nodes = live
                    await self.presence.read([r.id for r in self.a.rooms_in_memory()])
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError):
                pass
            await asyncio.sleep(HEARTBEAT_SECONDS)

    def adopted(self) -> list[Room]:
        """The rooms with sockets here whose sockets came when a peer node was lost (they were its)."""
        return self.peers.adopted()

    async def _confirm(self) -> None:
        """Compare the rooms whose subscription was just confirmed with the database (one query in a
        thread for a round of them) and catch up those that changed before it."""
        while True:
            await self._confirm_wake.wait()
            self._confirm_wake.clear()
            ids, self._confirmed = self._confirmed, set()
            rooms = [r for r in (self.a.room_in_memory(i) for i in sorted(ids)) if r is not None]
            if not rooms:
                continue
            try:
                stored = await asyncio.to_thread(self.store.room_versions, [r.id for r in rooms])
            except StoreError as exc:  # the sweep compares them again within SWEEP_SECONDS
                log.warning("node %s cannot reach the database: %s", self.node, exc)
                continue
            for room in rooms:
                if stored.get(room.id, room.version) > room.version:
                    self.a.catch_up(room)

    async def _sweep(self) -> None:
        """Every :data:`SWEEP_SECONDS`: catch up with the database the rooms whose notices were missed,
        write this node's presence again (after Redis came back it is empty) and re-enqueue the jobs of
        rooms where a computer is to move."""
        was_ok = True
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            followed = [r for r in self.a.rooms_in_memory() if r.connections]
            self._checked = {r: t for r, t in self._checked.items() if self.a.room_in_memory(r) is not None}
            try:  # in a thread: the loop serves the sockets meanwhile
                stored = await asyncio.to_thread(self.store.room_versions, [r.id for r in followed])
            except StoreError as exc:
                log.warning("node %s cannot reach the database: %s", self.node, exc)
                continue
            for room in followed:
                if stored.get(room.id, room.version) > room.version:  # a version is never undone
                    self.a.catch_up(room)
                self.a.kick(room)
            with contextlib.suppress(RedisError, OSError):
                self.metrics.queue_depth.set(await self.queue_depth())
            if self.redis_ok and not was_ok:
                self._presence_dirty |= {r.id for r in followed}
            was_ok = self.redis_ok
            self._wake.set()


__all__ = ["RedisBus"]
