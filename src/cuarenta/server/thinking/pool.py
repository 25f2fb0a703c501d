"""The pool of worker processes (:class:`WorkerPool`): a seat's requests go to one worker, a dead or stuck
worker is replaced and its request asked again, a busy pool gives each request its share of the time to
think (:mod:`cuarenta.server.thinking` tells the whole story)."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import math
import os
import signal
import sys
import zlib
from collections import deque
from dataclasses import dataclass
from typing import Any, Final

from cuarenta.server.thinking.port import ThinkingError
from cuarenta.server.thinking.process import READY, WORKER_NICE
from cuarenta.server.thinking.request import THINK_SECONDS, ThinkRequest, think_seconds

log = logging.getLogger("cuarenta.server")

#: Seconds one request may take before its worker is killed and the request asked again.
DEFAULT_TIMEOUT: Final = 120.0
#: Seconds a new worker process may take to load before it is taken for a broken one (a request's
#: :attr:`WorkerPool.timeout` starts once the worker said it is ready).
START_TIMEOUT: Final = 60.0
#: How many workers may die on one request before :class:`ThinkingError`.
DEFAULT_ATTEMPTS: Final = 3
#: Seconds a closing pool waits for its workers to leave before killing them.
CLOSE_GRACE: Final = 3.0

# What a worker process runs. ``cuarenta.server`` imports nothing when imported (its ``create_app`` is
# lazy), so the worker loads no web framework; this package imports only the engine and the players.
_BOOT: Final = """\
import sys
from cuarenta.server.thinking.process import worker_main
worker_main(int(sys.argv[1]))
"""


def default_workers() -> int:
    """One worker per core this process may use, at least one.

    The cores are those it may run on (``os.sched_getaffinity``), fewer if a cgroup quota
    (``/sys/fs/cgroup/cpu.max``, as containers set it) allows less: a container given 2 cores
    of a 64-core host starts 2 workers, not 64.
    """
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        cores = os.cpu_count() or 1
    quota = _cgroup_cores()
    if quota is not None:
        cores = min(cores, quota)
    return max(1, cores)


def _cgroup_cores(path: str = "/sys/fs/cgroup/cpu.max") -> int | None:
    """The cores a cgroup v2 CPU quota allows (rounded up), or None when there is no quota."""
    try:
        with open(path, encoding="ascii") as file:
            quota, period = file.read().split()[:2]
        if quota == "max":
            return None
        return max(1, -(-int(quota) // int(period)))
    except (OSError, ValueError):
        return None


def _chances(values: Any, count: int) -> bool:
    """Whether a worker's ``values`` are ``count`` chances: finite numbers (about 0 to 1: the search adds a
    tie-break of a few ten-thousandths, so a lost chica may be valued a hair below 0)."""
    return (
        isinstance(values, list)
        and len(values) == count
        and all(isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) for v in values)
    )


@dataclass(eq=False)
class _Job:
    id: int
    request: ThinkRequest
    future: asyncio.Future[Any]  #: the action (a move) or the values (a question)
    asked: float  #: when it was asked (the loop's clock)
    tries: int = 0


class _Worker:
    """One slot of the pool: its current process, its queue of requests, the task that feeds it."""

    def __init__(self, index: int) -> None:
        self.index = index
        self.process: asyncio.subprocess.Process | None = None
        self.queue: deque[_Job] = deque()
        self.wakeup = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.started = 0  #: processes started in this slot (1 + replacements)
        self.silent_deaths = 0  #: processes in a row that died before answering anything
        self.closed = False  #: the pool is closing: no new process, no new request


class WorkerPool:
    """``workers`` worker processes; a seat's requests always go to the same one (see the module doc).
    ``think``: the seconds from a request to its answer the pool aims at (:data:`THINK_SECONDS`, "A busy
    pool" in the module doc); :attr:`given` keeps what the last requests were given.

    Started on first use, on the running event loop; every method must be called from that loop.
    """

    def __init__(
        self,
        workers: int,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        attempts: int = DEFAULT_ATTEMPTS,
        nice: int = WORKER_NICE,
        think: float = THINK_SECONDS,
    ) -> None:
        if workers < 1:
            raise ValueError(f"a worker pool has 1 worker or more, not {workers}")
        if timeout <= 0 or attempts < 1:
            raise ValueError("timeout must be positive and attempts 1 or more")
        if not think > 0:
            raise ValueError(f"think must be more than 0 seconds, not {think}")
        self.workers = workers
        self.timeout = timeout
        self.attempts = attempts
        self.nice = nice
        self.think = think  #: :data:`THINK_SECONDS`
        #: the last requests sent: (requests queued behind it then, seconds it was given to think)
        self.given: deque[tuple[int, float]] = deque(maxlen=1000)
        self._ids = itertools.count(1)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._slots: list[_Worker] = []

    # -- the public face ------------------------------------------------------------------------------------
    async def choose(self, request: ThinkRequest) -> str:
        answered: str = await self._ask(request)
        return answered

    async def values(self, request: ThinkRequest) -> list[float]:
        answered: list[float] = await self._ask(request)
        return answered

    async def _ask(self, request: ThinkRequest) -> Any:
        slot = self._slot(request.key)
        loop = asyncio.get_running_loop()
        job = _Job(next(self._ids), request, loop.create_future(), loop.time())
        slot.queue.append(job)
        slot.wakeup.set()
        return await job.future  # cancelling the caller cancels the job: its reply will be dropped

    def pids(self) -> list[int]:
        return [s.process.pid for s in self._slots if s.process is not None and s.process.returncode is None]

    def restarts(self) -> int:
        """Worker processes started to replace one that died."""
        return sum(max(0, s.started - 1) for s in self._slots)

    async def close(self) -> None:
        slots, self._slots, self._loop = self._slots, [], None
        for slot in slots:
            slot.closed = True
            slot.wakeup.set()
            if slot.task is not None:
                slot.task.cancel()
            self._fail_queued(slot, "the server is stopping")
        tasks = [slot.task for slot in slots if slot.task is not None]
        if tasks:
            _, pending = await asyncio.wait(tasks, timeout=CLOSE_GRACE)
            if pending:  # a task still waits on its worker: the worker goes, and the task with it
                log.warning("%d thinking workers did not stop when asked; killing them", len(pending))
                for slot in slots:
                    self._kill(slot.process)
                await asyncio.wait(pending, timeout=CLOSE_GRACE)
        await asyncio.gather(*(self._stop(slot.process) for slot in slots if slot.process is not None))

    # -- inside ---------------------------------------------------------------------------------------------
    def _slot(self, key: str) -> _Worker:
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            if self._loop is not None:  # a new event loop (tests): the old one's workers are unreachable
                self._abandon()
            self._loop = loop
            self._slots = [_Worker(i) for i in range(self.workers)]
            for slot in self._slots:
                slot.task = loop.create_task(self._serve(slot), name=f"thinking-worker-{slot.index}")
        return self._slots[zlib.crc32(key.encode()) % self.workers]

    def _abandon(self) -> None:
        for slot in self._slots:
            slot.closed = True
            self._kill(slot.process)
        self._slots = []

    @staticmethod
    def _kill(process: asyncio.subprocess.Process | None) -> None:
        if process is not None and process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(process.pid, signal.SIGKILL)

    async def _serve(self, slot: _Worker) -> None:
        """Keep a live process in the slot and feed it the slot's requests, one at a time."""
        while not slot.closed:
            try:
                process = await asyncio.create_subprocess_exec(
                    sys.executable,
                    "-c",
                    _BOOT,
                    str(self.nice),
                    stdin=asyncio.subprocess.PIPE,
                    stdout=asyncio.subprocess.PIPE,
                    start_new_session=True,  # Ctrl-C at a terminal stops the server, which stops its workers
                )
            except OSError as exc:
                log.error("cannot start a thinking worker: %s", exc)
                self._fail_queued(slot, f"no worker process could be started: {exc}")
                await asyncio.sleep(1.0)
                continue
            slot.process = process
            slot.started += 1
            answered = False
            try:
                answered = await self._feed(slot, process)
            finally:
                if process.returncode is None:
                    with contextlib.suppress(ProcessLookupError):
                        process.kill()
            with contextlib.suppress(ProcessLookupError):
                await process.wait()
            if slot.closed:
                return
            log.warning(
                "thinking worker %d (pid %d) stopped with code %s; starting another",
                slot.index,
                process.pid,
                process.returncode,
            )
            slot.silent_deaths = 0 if answered else slot.silent_deaths + 1
            if slot.silent_deaths >= self.attempts:
                # Workers that die before answering anything (they cannot start: a broken install, no
                # memory) would be replaced forever while the requests wait: fail them, then slow down.
                self._fail_queued(
                    slot, f"{slot.silent_deaths} worker processes in a row died before answering"
                )
                await asyncio.sleep(min(5.0, 0.25 * slot.silent_deaths))

    async def _feed(self, slot: _Worker, process: asyncio.subprocess.Process) -> bool:
        """Send requests to ``process`` and settle them until the process is gone or stuck.

        Returns whether the process answered at least one request."""
        assert process.stdin is not None and process.stdout is not None
        if not await self._ready(slot, process):
            return False
        died = asyncio.ensure_future(process.wait())
        answered = False
        try:
            while True:
                waiting = asyncio.ensure_future(self._next(slot))
                await asyncio.wait((waiting, died), return_when=asyncio.FIRST_COMPLETED)
                if not waiting.done():  # the process died while idle: replace it now, not at the next move
                    waiting.cancel()
                    return answered
                job = waiting.result()
                if job is None:  # the pool is closing
                    return answered
                if died.done():
                    slot.queue.appendleft(job)
                    return answered
                if not await self._settle(slot, process, job):
                    return answered
                answered = True
        finally:
            died.cancel()

    async def _ready(self, slot: _Worker, process: asyncio.subprocess.Process) -> bool:
        """Wait for a new worker's :data:`READY` line, at most :data:`START_TIMEOUT`; False if none came."""
        assert process.stdout is not None
        try:
            async with asyncio.timeout(START_TIMEOUT):
                line = await process.stdout.readline()
        except (TimeoutError, ConnectionError, OSError, ValueError) as exc:
            log.warning("thinking worker %d (pid %d) did not start: %r", slot.index, process.pid, exc)
            return False
        if line.decode("utf-8", "replace") != READY:
            pid, said = process.pid, line[:200]
            log.warning("thinking worker %d (pid %d) did not start: it said %r", slot.index, pid, said)
            return False
        return True

    async def _settle(self, slot: _Worker, process: asyncio.subprocess.Process, job: _Job) -> bool:
        """Ask ``process`` for ``job``'s answer; False if the process failed (then the job is asked again)."""
        assert process.stdin is not None and process.stdout is not None
        job.tries += 1
        try:
            process.stdin.write(self._line(slot, job))
            await process.stdin.drain()
            # asyncio.timeout, not asyncio.wait_for: on Python 3.11 wait_for may swallow a cancellation
            # that meets the reply, and the pool's close() would then wait on this task for ever
            async with asyncio.timeout(self.timeout):
                line = await process.stdout.readline()
        except TimeoutError:
            self._retry(slot, job, f"no answer within {self.timeout:g} s")
            return False
        except (ConnectionError, OSError, ValueError) as exc:  # a broken pipe, or an over-long line
            self._retry(slot, job, f"the worker's pipe failed: {exc}")
            return False
        if not line:
            self._retry(slot, job, "the worker process died")
            return False
        try:
            reply = json.loads(line)
            if reply.get("id") != job.id:
                raise ValueError(f"a reply to request {reply.get('id')!r}, not {job.id}")
        except (ValueError, AttributeError) as exc:
            self._retry(slot, job, f"the worker answered nonsense: {exc}")
            return False
        if job.future.done():
            return True  # nobody waits for it any more: dropped
        if job.request.roots is None and isinstance(reply.get("action"), str):
            job.future.set_result(reply["action"])
        elif job.request.roots is not None and _chances(reply.get("values"), len(job.request.roots)):
            job.future.set_result([float(v) for v in reply["values"]])
        else:
            error = reply.get("error") or f"unreadable values {reply.get('values')!r}"
            job.future.set_exception(
                ThinkingError(f"the {job.request.level} player of {job.request.key}: {error}")
            )
        return True

    def _line(self, slot: _Worker, job: _Job) -> bytes:
        """The request as the worker reads it, now that it goes, with its time to think
        (:func:`think_seconds`: what is left of :attr:`think`, shared with the requests behind it)."""
        if job.request.roots is not None:  # a question of the analysis: its whole budget, always
            return (json.dumps(job.request.to_wire(job.id), separators=(",", ":")) + "\n").encode()
        behind = sum(1 for j in slot.queue if not j.future.done())
        waited = max(0.0, asyncio.get_running_loop().time() - job.asked)
        seconds = think_seconds(waited, behind, target=self.think)
        self.given.append((behind, seconds))
        wire = job.request.to_wire(job.id, seconds)
        return (json.dumps(wire, separators=(",", ":")) + "\n").encode()

    async def _next(self, slot: _Worker) -> _Job | None:
        """The slot's next request still awaited, or None once the pool is closing."""
        while not slot.closed:
            while slot.queue:
                job = slot.queue.popleft()
                if not job.future.done():
                    return job
            slot.wakeup.clear()
            await slot.wakeup.wait()
        return None

    def _retry(self, slot: _Worker, job: _Job, reason: str) -> None:
        """The worker failed on ``job``: ask again of the next process, or give up after ``attempts``."""
        if job.future.done():
            return
        if job.tries >= self.attempts:
            job.future.set_exception(ThinkingError(f"{job.request.key}: {reason} ({job.tries} tries)"))
        else:
            log.warning("thinking worker %d: %s; asking %s again", slot.index, reason, job.request.key)
            slot.queue.appendleft(job)

    def _fail_queued(self, slot: _Worker, reason: str) -> None:
        while slot.queue:
            job = slot.queue.popleft()
            if not job.future.done():
                job.future.set_exception(ThinkingError(reason))

    async def _stop(self, process: asyncio.subprocess.Process) -> None:
        """Close the worker's input (it leaves), then kill it if it has not left in time."""
        if process.returncode is None:
            if process.stdin is not None:
                process.stdin.close()
            try:
                async with asyncio.timeout(CLOSE_GRACE):
                    await process.wait()
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
                await process.wait()


__all__ = [
    "CLOSE_GRACE",
    "DEFAULT_ATTEMPTS",
    "DEFAULT_TIMEOUT",
    "START_TIMEOUT",
    "WorkerPool",
    "default_workers",
]
