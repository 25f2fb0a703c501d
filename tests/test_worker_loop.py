"""The loop of ``cuarenta worker`` (:class:`cuarenta.server.worker.MoveWorker`) on a real Redis.

A worker of one slot died (``ValueError: Set of Tasks/Futures is empty``) when its only job finished while
it was reading the stream: it then waited on an empty set of jobs. The cluster test that found it
(tests/test_cluster_edges.py, a dead worker's job taken over) failed about one run in ten; here the race
is forced: the job finishes during the read, every time.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from redis.asyncio import Redis

from cuarenta.server.store import Store
from cuarenta.server.worker import MoveWorker
from support import cluster as cs

cs.require()

pytestmark = [pytest.mark.slow, pytest.mark.timeout(60)]


class RacingWorker(MoveWorker):
    """A worker whose reads of the stream are scripted: one job first, then reads during which that job
    finishes (the race), then a few more reads before it is told to stop."""

    def __init__(self, store: Store, redis: Redis, stop: asyncio.Event) -> None:
        super().__init__(store, redis, name="racer", concurrency=1)
        self.stop = stop
        self.reads: list[int] = []  #: the free slots of each read
        self.jobs = 0
        self.finish = asyncio.Event()

    async def _take(self, free: int) -> list[tuple[Any, dict[Any, Any] | None]]:
        self.reads.append(free)
        if len(self.reads) == 1:
            return [("1-0", None)]
        if len(self.reads) == 2:  # the slot is busy; its job ends while this read waits on Redis
            self.finish.set()
            await asyncio.sleep(0.05)
            await self.redis.ping()
            return []
        if len(self.reads) >= 5:
            self.stop.set()
        await asyncio.sleep(0.01)
        return []

    async def _job(self, entry_id: Any, fields: dict[Any, Any] | None) -> None:
        self.jobs += 1
        await self.finish.wait()


def test_a_job_that_ends_while_the_worker_reads_does_not_stop_the_worker(
    services: tuple[cs.Postgres, cs.RedisServer], tmp_path: Path
) -> None:
    """The worker's only job ends during a read of the stream; the worker reads again (its slot free)
    instead of dying, and stops when told."""
    _, redis_server = services
    if redis_server.proc is None:
        redis_server.start()
    store = Store(f"sqlite:///{tmp_path / 'games.sqlite3'}")

    async def run() -> RacingWorker:
        client = Redis.from_url(redis_server.url)
        stop = asyncio.Event()
        worker = RacingWorker(store, client, stop)
        try:
            await asyncio.wait_for(worker.run(stop), 20)
        finally:
            await client.aclose()
        return worker

    try:
        worker = asyncio.run(run())
    finally:
        store.close()
    assert worker.jobs == 1
    # read 1 took the job; read 2 found the slot busy (and the job ended meanwhile); reads 3 on: free again
    assert worker.reads[:2] == [1, 0], worker.reads
    assert len(worker.reads) >= 5 and set(worker.reads[2:]) == {1}, worker.reads
