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
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from redis.asyncio import Redis
from redis.asyncio.client import PubSub
from redis.exceptions import RedisError

from cuarenta.server.authority.errors import RoomProblem, TableError
from cuarenta.server.authority.model import Connection, Room
from cuarenta.server.authority.ports import StoreError, StorePort
from cuarenta.server.authority.rows import read_room, room_from_row
from cuarenta.server.ops.metrics import PEER_KINDS, Metrics
from cuarenta.server.protocol import error_message

if TYPE_CHECKING:
    from cuarenta.server.authority.core import Authority

log = logging.getLogger("cuarenta.server")

PREFIX: Final = "cuarenta"
#: The stream of computer-move jobs and its consumer group.
JOBS_STREAM: Final = f"{PREFIX}:moves"
JOBS_GROUP: Final = "workers"
#: The sorted set of live nodes (score: when the node's entry expires, wall-clock seconds).
NODES_KEY: Final = f"{PREFIX}:nodes"
#: The hash of when each process of the cluster started (a node restarted within its entry's life is seen).
STARTS_KEY: Final = f"{PREFIX}:started"
#: Seconds between a node's heartbeats, and how long its entry lives without one.
HEARTBEAT_SECONDS: Final = 2.0
NODE_TTL_SECONDS: Final = 6.0
#: Seconds between two comparisons of the rooms in memory with the database.
SWEEP_SECONDS: Final = 2.0
#: A job is enqueued once per room version within this many seconds (then again, if still needed).
JOB_DEDUPE_SECONDS: Final = 15
#: Seconds to wait before connecting to Redis again.
RETRY_SECONDS: Final = 0.5
#: The most notices kept for Redis while it does not answer (older ones are dropped: the sweep catches up).
OUTBOX_MAX: Final = 10_000
#: The most jobs kept in the stream (old, finished entries are trimmed).
STREAM_MAX: Final = 100_000
#: A room whose sockets came to this node from ``ADOPT_BEFORE_SECONDS`` before a peer node was found lost
#: to ``ADOPT_SECONDS`` after was that node's (the sockets come back within a second; the node counts as
#: lost only once its entry expired, NODE_TTL_SECONDS later).
ADOPT_BEFORE_SECONDS: Final = NODE_TTL_SECONDS + 2 * HEARTBEAT_SECONDS + 2.0
ADOPT_SECONDS: Final = 60.0
#: When a node appears, a node holding rooms adopted from a lost one asks their sockets to reconnect
#: through the proxy (which sends each room where its hash says): after this many seconds (the new node
#: is ready), this many rooms at a time, this many seconds apart.
HANDBACK_DELAY_SECONDS: Final = 3.0
HANDBACK_BATCH: Final = 10
HANDBACK_PAUSE_SECONDS: Final = 0.5
#: The close code of those sockets: 1012, "service restart" (the page reconnects after any close).
CLOSE_RECONNECT: Final = 1012
#: Seconds a room read from the database (or compared with it) counts as current for a socket's join
#: before its channel's subscription is confirmed (which compares it again): the two seats of a table
#: that join at once, the two checks of one join, cost one read, not four. Nothing else trusts it (a
#: worker reads the room of every job).
FRESH_SECONDS: Final = 0.5

#: Enqueue a job once per (room, version): set the key if absent, then add the job to the stream.
_ENQUEUE: Final = """
if redis.call('SET', KEYS[1], '1', 'NX', 'EX', ARGV[1]) then
  return redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[2], '*', 'job', ARGV[3])
end
return false
"""


def room_channel(room_id: str) -> str:
    """The Redis channel of a room's notices.

    >>> room_channel("abc")
    'cuarenta:room:abc'
    """
    return f"{PREFIX}:room:{room_id}"


def presence_key(room_id: str) -> str:
    """The Redis hash of a room's presence (sockets per node and seat, graces)."""
    return f"{PREFIX}:presence:{room_id}"


def job_key(room_id: str, version: int) -> str:
    """The key that makes a room version's job enqueued once."""
    return f"{PREFIX}:job:{room_id}:{version}"


def remote_counts(
    fields: dict[str, str], node: str, live: Iterable[str]
) -> tuple[dict[int | None, int], dict[int, float]]:
    """Read a presence hash: the sockets of *other* live nodes by seat (``None``: spectators), and the
    grace end of each away seat.

    >>> remote_counts({"n/a/0": "1", "n/b/1": "2", "n/b/w": "1", "n/dead/1": "5", "away/1": "17.5"},
    ...               node="a", live={"a", "b"})
    ({1: 2, None: 1}, {1: 17.5})
    """
    alive = set(live)
    counts: dict[int | None, int] = {}
    away: dict[int, float] = {}
    for name, value in fields.items():
        kind, _, rest = name.partition("/")
        if kind == "n":
            where, _, seat_text = rest.rpartition("/")
            if where == node or where not in alive:
                continue
            seat = None if seat_text == "w" else int(seat_text)
            counts[seat] = counts.get(seat, 0) + int(value)
        elif kind == "away":
            away[int(rest)] = float(value)
    return {k: v for k, v in counts.items() if v > 0}, away


class RedisBus:
    """The :class:`~cuarenta.server.authority.ports.Bus` of a cluster node (module docstring): notices on
    Redis channels, presence in Redis hashes, the comparison of its rooms with the database.

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
        self._fields: dict[str, dict[str, str]] = {}  #: the last presence hash read, per room
        self._nodes: set[str] = {node}  #: live nodes as last read
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._bus: bool | None = None  #: whether the last exchange with Redis worked (None: none yet)
        self._lost_once = False  #: Redis has been lost at least once (a later success is a reconnect)
        self._checked: dict[str, float] = {}  #: room → time.monotonic() of its last read from the database
        self._joining: str | None = None  #: the room of the socket join being made (its read is trusted)
        self._arrived: dict[str, float] = {}  #: room → time.monotonic() its first socket here came
        self._node_lost_at: float | None = None  #: when a peer node was last found lost
        self._started = time.time()  #: when this process started (its incarnation, for the others)
        self._starts: dict[str, float] = {}  #: the live peers' start times, as last read
        self._handback: asyncio.Task[None] | None = None
        self._joins: dict[Connection, _Pending] = {}  #: sockets whose join waits for its room's read
        #: rooms being read in the reader thread (one read for every socket of the room)
        self._loading: dict[str, asyncio.Future[tuple[float, Any]]] = {}
        #: one thread for those reads: more would take the interpreter's lock from the loop in turn
        self._reader: ThreadPoolExecutor | None = None
        self._confirmed: set[str] = set()  #: rooms newly subscribed: to compare with the database
        self._confirm_wake = asyncio.Event()

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
        self._after_read(conn, room_id, run)

    def followed(self, room: Room) -> None:
        """A socket joined ``room`` here: subscribe to its notices and tell the others of the socket."""
        if room.id not in self._wanted:  # its first socket here
            self._arrived[room.id] = time.monotonic()
        self._presence_dirty.add(room.id)
        self._wanted.add(room.id)
        self._wake.set()

    def leaving(self, conn: Connection, keep: Room | None) -> None:
        pending = self._joins.get(conn)
        if pending is not None and keep is None:  # the socket closed: what it asked is dropped
            del self._joins[conn]
            if pending.task is not None:
                pending.task.cancel()

    def left(self, room: Room) -> None:
        self._presence_dirty.add(room.id)
        if not room.connections:
            self._wanted.discard(room.id)
            self._arrived.pop(room.id, None)
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

    def _apply_presence(self, room: Room, fields: dict[str, str]) -> None:
        remote, away = remote_counts(fields, self.node, self._nodes)
        self.a.presence_changed(room, remote, away)

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
        if self._handback is not None:
            self._handback.cancel()
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks.clear()
        with contextlib.suppress(RedisError, OSError):
            await self._forget_node()
        await self.redis.aclose()
        if self._reader is not None:
            self._reader.shutdown(wait=False, cancel_futures=True)
            self._reader = None

    async def _forget_node(self) -> None:
        """Remove this node's sockets from every presence hash it wrote (a clean stop)."""
        for room_id, room in [(r.id, r) for r in self.a.rooms_in_memory()]:
            fields = [f"n/{self.node}/{'w' if s is None else s}" for s in self._seat_keys(room)]
            if fields:
                await self.redis.hdel(presence_key(room_id), *fields)
        await self.redis.zrem(NODES_KEY, self.node)

    # -- finding rooms ----------------------------------------------------------------------------------
    def _after_read(self, conn: Connection, room_id: str | None, run: Callable[[], None]) -> None:
        """Run a socket's request now, or — when its room is to be read first (``room_id``: a join or a
        watch), or an earlier request of the socket waits for that — once the read is done."""
        pending = self._joins.get(conn)
        if pending is None and (room_id is None or self._current(room_id)):
            run()  # a TableError goes back to the socket handler, as in one process
            return
        if pending is None:
            pending = self._joins[conn] = _Pending()
            pending.task = asyncio.get_running_loop().create_task(self._settle(conn, pending))
        pending.queue.append((room_id, run))

    async def _settle(self, conn: Connection, pending: _Pending) -> None:
        """Run the socket's waiting requests in order, each join after its room's read."""
        try:
            while pending.queue:
                room_id, run = pending.queue.pop(0)
                if room_id is not None and not self._current(room_id):
                    await self._read_room(room_id)
                try:
                    run()
                except TableError as exc:
                    self.metrics.refused.labels(code=exc.code).inc()
                    conn.send(error_message(exc.code, exc.message, exc.reason))
                except StoreError as exc:
                    self.metrics.refused.labels(code="store_unavailable").inc()
                    conn.send(error_message("store_unavailable", f"the room cannot be read now: {exc}"))
        finally:
            if self._joins.get(conn) is pending:
                del self._joins[conn]

    async def _read_room(self, room_id: str) -> None:
        """Read a room from the database in a thread and keep it in memory (or, if it is in memory
        already, compare its version). A failed read leaves it to the request itself, which reads
        again on the loop and says why (an unknown or damaged room), as in one process."""
        load = self._loading.get(room_id)
        if load is None:
            room = self.a.room_in_memory(room_id)
            if self._reader is None:
                self._reader = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cuarenta-read")
            load = asyncio.get_running_loop().run_in_executor(
                self._reader, self._read_in_thread, room_id, room is not None
            )
            load.add_done_callback(lambda _: self._loading.pop(room_id, None))
            load.add_done_callback(lambda f: f.cancelled() or f.exception())  # read below, or by nobody
            self._loading[room_id] = load
        try:
            asked, found = await asyncio.shield(load)
        except (RoomProblem, StoreError):
            return
        room = self.a.room_in_memory(room_id)
        if isinstance(found, tuple):
            if room is None:
                try:
                    fresh = room_from_row(*found)  # the replay, on the loop: a fraction of a millisecond
                except RoomProblem:
                    return
                self.a.keep(fresh)
                self._checked[room_id] = asked
        elif room is not None:  # a version: the copy in memory is behind it, or current
            if found is not None and found > room.version:
                self.a.catch_up(room)
            self._checked[room_id] = asked

    def _read_in_thread(self, room_id: str, version_only: bool) -> tuple[float, Any]:
        """(In the reader thread.) When the read began, and the room's row and log — or, for a room in
        memory, its stored version only."""
        began = time.monotonic()
        if version_only:
            return began, self.store.room_versions([room_id]).get(room_id)
        found = read_room(self.store, room_id)
        if found is None:
            raise RoomProblem("unknown_room", f"there is no room {room_id!r}")
        return began, found

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

    # -- presence ------------------------------------------------------------------------------------------
    @staticmethod
    def _seat_keys(room: Room) -> set[int | None]:
        return {None, *range(room.players)}

    def _local_counts(self, room: Room) -> dict[int | None, int]:
        counts: dict[int | None, int] = {}
        for c in room.connections:
            counts[c.seat] = counts.get(c.seat, 0) + 1
        return counts

    async def _write_presence(self, room_ids: Iterable[str]) -> None:
        """Write this node's sockets of some rooms, and the graces it started, then tell the others."""
        async with self.redis.pipeline(transaction=False) as pipe:
            told: list[str] = []
            for room_id in room_ids:
                room = self.a.room_in_memory(room_id)
                key = presence_key(room_id)
                if room is None:  # it left memory: none of its sockets is here any more
                    pipe.hdel(key, *(f"n/{self.node}/{s}" for s in ("w", 0, 1, 2, 3)))
                    continue
                counts = self._local_counts(room)
                for seat in self._seat_keys(room):
                    field = f"n/{self.node}/{'w' if seat is None else seat}"
                    if counts.get(seat):
                        pipe.hset(key, field, counts[seat])
                    else:
                        pipe.hdel(key, field)
                for s in room.seats:
                    # only the node that holds the person's socket ends a grace: another node's idea of
                    # who is connected elsewhere may be a moment old
                    if s.kind == "person" and counts.get(s.seat):
                        pipe.hdel(key, f"away/{s.seat}")
                    elif s.kind == "person" and s.away_until is not None and not room.connected(s.seat):
                        pipe.hsetnx(key, f"away/{s.seat}", repr(s.away_until))
                pipe.expire(key, 24 * 3600)
                pipe.publish(room_channel(room_id), json.dumps({"kind": "presence", "node": self.node}))
                told.append(room_id)
            await pipe.execute()
        await self._read_presence(told)

    async def _read_presence(self, room_ids: Iterable[str]) -> None:
        """Read the presence of some rooms and apply it: other nodes' sockets, graces, stand-ins."""
        ids = [r for r in room_ids if self.a.room_in_memory(r) is not None]
        if not ids:
            return
        async with self.redis.pipeline(transaction=False) as pipe:
            for room_id in ids:
                pipe.hgetall(presence_key(room_id))
            hashes = await pipe.execute()
        for room_id, raw in zip(ids, hashes, strict=True):
            room = self.a.room_in_memory(room_id)
            if room is None:
                continue
            fields = {_text(k): _text(v) for k, v in raw.items()}
            self._fields[room_id] = fields
            self._apply_presence(room, fields)

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
        kind = _text(message.get("type"))
        channel = _text(message.get("channel"))
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
        script = self.redis.register_script(_ENQUEUE)
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
                    await self._write_presence(dirty)  # reads those rooms' presence back too
                if stale - dirty:
                    await self._read_presence(stale - dirty)
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
        """Keep this node's entry among the live nodes; notice nodes that stopped."""
        while True:
            try:
                now = self.a.wall()
                async with self.redis.pipeline(transaction=False) as pipe:
                    pipe.zadd(NODES_KEY, {self.node: now + NODE_TTL_SECONDS})
                    pipe.hset(STARTS_KEY, self.node, repr(self._started))
                    pipe.zremrangebyscore(NODES_KEY, "-inf", now - 60)
                    pipe.zrangebyscore(NODES_KEY, now - 60, "+inf", withscores=True)
                    pipe.hgetall(STARTS_KEY)
                    *_, found, starts = await pipe.execute()
                entries = [(_text(n), float(until)) for n, until in found]
                live = {n for n, until in entries if until >= now} | {self.node}
                expired = {n for n, until in entries if until < now}
                started = {_text(n): float(when) for n, when in starts.items()}
                # a node killed and started again before its entry expired is a node lost too
                restarted = {
                    n
                    for n in live & self._nodes
                    if n != self.node and n in started and self._starts.get(n, started[n]) != started[n]
                }
                self._starts = {n: started[n] for n in live if n in started}
                self._count_peers(live, lost=((self._nodes & expired) - live) | restarted)
                joined = {n for n in (live - self._nodes) | restarted if _peer_kind(n) == "node"}
                if joined and self._node_lost_at is not None:
                    self._hand_back_later()
                if live != self._nodes:
                    self._nodes = live
                    await self._read_presence([r.id for r in self.a.rooms_in_memory()])
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError):
                pass
            await asyncio.sleep(HEARTBEAT_SECONDS)

    def _count_peers(self, live: set[str], lost: set[str]) -> None:
        """The peers gauge (the other live processes), and the peers lost: those this node knew alive whose
        entry expired (killed, or cut off from Redis), or that started again meanwhile (killed and
        restarted within the entry's life). A process that stops cleanly removes its entry and is not
        counted; after Redis restarted the set is empty, and nobody is counted either."""
        for kind in PEER_KINDS:
            self.metrics.peers.labels(kind=kind).set(
                sum(_peer_kind(n) == kind for n in live if n != self.node)
            )
        for name in sorted(lost):
            log.warning("node %s: %s stopped announcing itself", self.node, name)
            self.metrics.peers_lost.labels(kind=_peer_kind(name)).inc()
            if _peer_kind(name) == "node":
                self._node_lost_at = time.monotonic()

    # -- sockets back to a node that returns ---------------------------------------------------------------
    def adopted(self) -> list[Room]:
        """The rooms with sockets here whose sockets came when a peer node was lost (they were its)."""
        lost = self._node_lost_at
        if lost is None:
            return []
        since, until = lost - ADOPT_BEFORE_SECONDS, lost + ADOPT_SECONDS
        return [
            r
            for r in self.a.rooms_in_memory()
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
        for start in range(0, len(rooms), HANDBACK_BATCH):
            for room in rooms[start : start + HANDBACK_BATCH]:
                for conn in list(room.connections):
                    conn.close(CLOSE_RECONNECT)
                    self.metrics.handed_back.inc()
            await asyncio.sleep(HANDBACK_PAUSE_SECONDS)

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


@dataclass(eq=False)
class _Pending:
    """A socket's requests that wait for a room's read: (room to read first or None, the request)."""

    queue: list[tuple[str | None, Callable[[], None]]] = field(default_factory=list)
    task: asyncio.Task[None] | None = None


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _peer_kind(name: str) -> str:
    """A cluster process's kind by its name among the live nodes (workers announce ``worker/NAME``).

    >>> _peer_kind("worker/w1"), _peer_kind("server1")
    ('worker', 'node')
    """
    return "worker" if name.startswith("worker/") else "node"


__all__ = [
    "CLOSE_RECONNECT",
    "FRESH_SECONDS",
    "HANDBACK_DELAY_SECONDS",
    "HEARTBEAT_SECONDS",
    "JOBS_GROUP",
    "JOBS_STREAM",
    "NODE_TTL_SECONDS",
    "SWEEP_SECONDS",
    "RedisBus",
    "job_key",
    "presence_key",
    "remote_counts",
    "room_channel",
]
