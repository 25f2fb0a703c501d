"""``cuarenta worker``: a process that plays the computer's moves of a cluster (docs/scaling.md).

A node of the cluster (:mod:`cuarenta.server.cluster`) enqueues a *job* on the Redis stream
``cuarenta:moves`` whenever a computer is to move: the room, the room's version, the seat, the level and
the wall-clock time before which the move must not be made (the pace). Workers read the stream as one
consumer group (``workers``), so each job goes to one worker:

1. wait until the job's time;
2. load the room from the database (the truth) and check that it is still at the job's version with the
   seat to move — a job for a version that is gone is finished at once;
3. think (the seat's view only, exactly as in one process: :meth:`Authority.choose
   <cuarenta.server.authority.core.Authority.choose>`);
4. write the move with the room's compare-and-set; if another process changed the room meanwhile the
   write is refused and the job is finished (the new version has its own job);
5. acknowledge the job, and publish the move's notice (every node with sockets in the room tells them).

While a job is in hand the worker renews its claim every :data:`HOLD_SECONDS`; a worker that dies
(killed while thinking) stops renewing, and once the job has gone :data:`CLAIM_IDLE_SECONDS` without a
renewal another worker takes it over (``XAUTOCLAIM``, asked every :data:`POLL_SECONDS` at most, even by a
worker whose every slot is busy): :data:`TAKEOVER_SECONDS` at most after the holder died. A job whose
write fails because the database is away is left pending and taken again the same way. A move can
therefore be thought twice, never written twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import Any, Final

from redis.asyncio import Redis
from redis.exceptions import RedisError, ResponseError

from cuarenta.server.authority.errors import RoomProblem, TableError
from cuarenta.server.authority.ports import StoreError
from cuarenta.server.championships import Championships
from cuarenta.server.cluster import JOBS_GROUP, JOBS_STREAM
from cuarenta.server.settings import ServerSettings
from cuarenta.server.store import Store
from cuarenta.server.thinking import Thinking, make_thinking
from cuarenta.server.wiring import build_authority

log = logging.getLogger("cuarenta.worker")

#: A job nobody has renewed for this long is taken over by another worker.
CLAIM_IDLE_SECONDS: Final = 4.0
#: How often a worker renews its claim on the jobs it holds (a quarter of the above: three renewals may
#: be late before another worker takes a live worker's job, which would then be thought twice).
HOLD_SECONDS: Final = 1.0
#: The longest a worker goes without asking for abandoned jobs (its wait for new ones).
POLL_SECONDS: Final = 0.5
#: The most abandoned jobs taken over at once (beyond ``concurrency``: they were someone's already).
TAKEOVER_BATCH: Final = 16
#: The longest from a worker's death to another worker holding its jobs: the idle time, and a poll.
#: (The measured figure, by tests/test_cluster.py, is in docs/scaling.md.)
TAKEOVER_SECONDS: Final = CLAIM_IDLE_SECONDS + POLL_SECONDS
#: The longest pause a job may ask for (a guard against a wrong clock).
MAX_WAIT_SECONDS: Final = 30.0


class MoveWorker:
    """Take computer-move jobs from the cluster's stream and play them (module docstring).

    ``concurrency`` jobs are in hand at once (most of a job is its pause; the thinking itself runs on
    ``thinking``: by default one thread of this process, so run one worker per core). Its metrics (think
    time by level, moves) are ``self.rooms.metrics``.
    """

    def __init__(
        self,
        store: Store,
        redis: Redis,
        *,
        name: str,
        thinking: Thinking | None = None,
        concurrency: int = 8,
    ) -> None:
        if concurrency < 1:
            raise ValueError(f"concurrency must be 1 or more, not {concurrency}")
        self.name = name
        self.redis = redis
        self.concurrency = concurrency
        self.rooms = build_authority(
            store,
            ServerSettings(bot_delay=0.0),
            thinking=make_thinking(0) if thinking is None else thinking,
            redis=redis,
            node=f"worker/{name}",
        )
        # a championship's table whose last move is a computer's is finished here: it reports its result
        # (and rates a rated championship's partida) from this process, as a node would
        self.championships = Championships(self.rooms, store)
        self.played = 0  #: moves written
        self.dropped = 0  #: jobs finished without a move (their version was gone)

    async def ensure_group(self) -> None:
        """Create the stream's consumer group if it does not exist (a new or restarted Redis)."""
        try:
            await self.redis.xgroup_create(JOBS_STREAM, JOBS_GROUP, id="0", mkstream=True)
        except ResponseError as exc:
            if "BUSYGROUP" not in str(exc):
                raise

    async def run(self, stop: asyncio.Event) -> None:
        """Take and play jobs until ``stop`` is set; then finish the jobs in hand (at most a few
        seconds: a job cut short is taken over by another worker)."""
        await self.rooms.open()
        busy: set[asyncio.Task[None]] = set()
        grouped = False
        try:
            while not stop.is_set():
                free = self.concurrency - len(busy)
                try:
                    if not grouped:
                        await self.ensure_group()
                        grouped = True
                    entries = await self._take(free)
                    # every slot busy: look for abandoned jobs again soon. A job may have finished while
                    # the jobs were read (``busy`` then has a free slot, or is empty: asyncio.wait refuses
                    # an empty set, and the worker died of it, seen in tests/test_cluster_edges.py).
                    if not entries and busy and len(busy) >= self.concurrency:
                        await asyncio.wait(busy, timeout=POLL_SECONDS, return_when=asyncio.FIRST_COMPLETED)
                except (RedisError, OSError) as exc:
                    grouped = False  # Redis restarted: the group may be gone
                    log.warning("worker %s cannot read the jobs (%s); trying again", self.name, exc)
                    await asyncio.sleep(0.5)
                    continue
                for entry_id, fields in entries:
                    task = asyncio.create_task(self._job(entry_id, fields))
                    busy.add(task)
                    task.add_done_callback(busy.discard)
        finally:
            if busy:
                await asyncio.wait(busy, timeout=5)
            for task in busy:
                task.cancel()
            await self.championships.close()  # the results being reported are stored first
            await self.rooms.close()

    async def _take(self, free: int) -> list[tuple[Any, dict[Any, Any] | None]]:
        """Jobs to do: those abandoned by a worker that stopped renewing them (taken over even when every
        slot is busy: a job's slot is mostly its pause), then new ones for the free slots."""
        claimed = await self.redis.xautoclaim(
            JOBS_STREAM,
            JOBS_GROUP,
            self.name,
            min_idle_time=int(CLAIM_IDLE_SECONDS * 1000),
            count=max(free, TAKEOVER_BATCH),
        )
        entries: list[tuple[Any, dict[Any, Any] | None]] = list(claimed[1])
        if len(entries) < free:
            read: Any = await self.redis.xreadgroup(
                JOBS_GROUP,
                self.name,
                {JOBS_STREAM: ">"},
                count=free - len(entries),
                block=int(POLL_SECONDS * 1000),
            )
            for _stream, items in read or []:
                entries.extend(items)
        return entries

    async def _job(self, entry_id: Any, fields: dict[Any, Any] | None) -> None:
        done = asyncio.Event()
        hold = asyncio.create_task(self._hold(entry_id, done))
        try:
            raw = None if fields is None else fields.get(b"job", fields.get("job"))
            try:
                job = json.loads(raw) if raw is not None else None
                if not isinstance(job, dict):
                    raise ValueError("no job in the entry")
            except ValueError as exc:
                log.error("job %s cannot be read (%s): dropped", entry_id, exc)
                await self._finish(entry_id)
                return
            wait = min(MAX_WAIT_SECONDS, float(job.get("not_before", 0)) - time.time())
            if wait > 0:
                await asyncio.sleep(wait)
            try:
                played = await self.play(job)
            except StoreError as exc:  # the database is away: leave the job pending, it is taken again
                log.warning("job %s for room %s waits for the database: %s", entry_id, job.get("room"), exc)
                return
            if played:
                self.played += 1
            else:
                self.dropped += 1
            await self._finish(entry_id)
        except (RedisError, OSError) as exc:
            log.warning("job %s: Redis failed (%s); it will be taken again", entry_id, exc)
        finally:
            # The claim's renewal stops on ``done`` as well as on the cancel: a cancel that lands inside a
            # Redis call may come back as a Redis error, which the renewal ignores, and the job's slot
            # would then never be free again (seen in tests/test_cluster_edges.py: a worker of one slot
            # read no job after its first). The job never waits for it long.
            done.set()
            hold.cancel()
            await asyncio.wait({hold}, timeout=HOLD_SECONDS)

    async def _finish(self, entry_id: Any) -> None:
        await self.redis.xack(JOBS_STREAM, JOBS_GROUP, entry_id)
        await self.redis.xdel(JOBS_STREAM, entry_id)

    async def _hold(self, entry_id: Any, done: asyncio.Event) -> None:
        """Renew the claim on a job in hand, so no other worker takes it over while this one lives, until
        ``done`` is set."""
        while not done.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(done.wait(), HOLD_SECONDS)
            if done.is_set():
                return
            with contextlib.suppress(RedisError, OSError):
                await self.redis.xclaim(
                    JOBS_STREAM, JOBS_GROUP, self.name, min_idle_time=0, message_ids=[entry_id], justid=True
                )

    async def play(self, job: dict[str, Any]) -> bool:
        """Play one job's move if its room is still at its version (``True`` when a move was written).
        :class:`StoreError` when the database cannot be read or written (the job stays pending)."""
        rooms = self.rooms
        room_id, version, seat, level = (
            str(job["room"]),
            int(job["version"]),
            int(job["seat"]),
            str(job["level"]),
        )
        try:
            room = rooms.get(room_id)
        except RoomProblem as exc:
            log.warning("job for room %s dropped: %s", room_id, exc)
            return False
        game = room.game
        if room.version != version or not room.started or game.is_over or game.turn != seat or room.halted:
            return False  # gone, or a championship table paused or replaced since the job was made
        started = time.perf_counter()
        action = await rooms.choose(room, seat, level)
        thought = time.perf_counter() - started
        rooms.metrics.think_seconds.labels(level=level).observe(thought)
        if room.version != version:
            return False
        try:
            rooms.apply(room, action, by="computer")
        except TableError as exc:
            if exc.code == "stale":  # a person (or another worker) changed the room first
                return False
            if exc.code in ("store_unavailable", "outcome_unknown"):  # the job is taken again later
                raise StoreError(exc.message) from None
            log.error("the move %s of job for room %s was refused: %s", action, room_id, exc)
            return False
        return True


__all__ = ["CLAIM_IDLE_SECONDS", "HOLD_SECONDS", "POLL_SECONDS", "TAKEOVER_SECONDS", "MoveWorker"]
