"""Computer players in worker processes: the server sends a view and receives an action (issue 7, item 6).

The server never runs a computer player's search. For each computer move it
builds a :class:`ThinkRequest` — only what that seat may know: the seat's view
(``game.view(seat).to_dict()``), the legal actions as text, the level, the seat
and the player's seed — and awaits the chosen action as text from a
:class:`WorkerPool`. A search that takes seconds then runs on another core (or
at a lower priority on a busy one) while the event loop goes on serving every
other room and socket.

Workers
    ``cuarenta serve --workers N`` starts ``N`` worker processes (default: one
    per core, :func:`default_workers`). Each is a plain ``python`` process that
    reads one JSON request per line on its standard input and writes one JSON
    reply per line on its standard output (:func:`worker_main`); it imports the
    engine and the players only, never the web framework, and runs at a lower
    CPU priority (``nice`` +10) so that the server process is served first when
    the cores are busy. ``--workers 0`` thinks in-process instead, on one
    dedicated thread (:class:`InProcessThinking`), for tests and debugging.

A seat's player lives in one worker
    A player may remember what it saw between turns (every player keeps at
    least its random generator's state), so each request is routed by a stable
    hash of (room, mesa, seat) to the same worker, which keeps the player object
    in a bounded LRU cache (:class:`PlayerCache`). The seat's player therefore
    sees the same views in the same order as it would in-process, and makes the
    same choices: ``--workers 0`` and ``--workers N`` play the same games (as long
    as no search is cut short by a busy machine: "A busy pool" below). The
    alternative — any worker, the player rebuilt from the views it needs — would
    balance load better but would lose what a player remembers, or replay every
    earlier turn's search. When a player is lost anyway (its worker crashed, or
    it left the cache), a fresh player of the same level and seed takes over:
    its moves stay legal and seeded, exactly as after a server restart.

A busy pool
    A room has at most one request in the pool at a time (its computers move one after another), so
    each worker's first-come-first-served queue takes the rooms in turn: a room with three computers
    does not get ahead of a table with one. What grows when the workers are saturated (many tables, or a
    machine busy with other work: the workers run at a lower priority) is each request's wait behind the
    others and its own search. So every request is given a time to think (``seconds``, on the wire):
    what is left of :data:`THINK_SECONDS` since it was asked, shared with the requests queued behind it
    (:func:`think_seconds`). A searching player (``dificil``) stops widening its search when that time is
    up (:attr:`cuarenta.players.base.Player.deadline`; one world at least). On a quiet machine a request
    that finds its worker free has time to spare and the player's node budget ends its search first, so
    it chooses as in-process; on a busy one the computer answers sooner, from fewer worlds.
    docs/performance.md, "A soak of mixed tables", measured it.

Failures
    A worker that dies (killed, out of memory, a crash) is replaced at once and
    the request it held is asked again of the new one, at most ``attempts``
    times; a request that takes longer than ``timeout`` seconds kills its worker
    the same way. Then :class:`ThinkingError` is raised and the room plays its
    first legal action (logged). A reply for a request nobody awaits any more
    (the room's task was cancelled) is dropped; the room itself drops an answer
    for a state that is no longer current (:mod:`cuarenta.server.authority.computer`).

>>> from cuarenta import Game, Rules
>>> game = Game.new(Rules(), seed=5)
>>> request = ThinkRequest.for_seat(game, room="r", mesa=1, seat=game.turn, level="facil")
>>> request.seed, request.key
('5/1', 'r/1/1')
>>> answer(request, PlayerCache()) in request.legal
True
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import os
import signal
import sys
import time
import zlib
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Protocol

from cuarenta.moves import parse_action
from cuarenta.players import Player, make_player
from cuarenta.view import SeatView

if TYPE_CHECKING:
    from cuarenta.game import Game

log = logging.getLogger("cuarenta.server")

#: Seconds one request may take before its worker is killed and the request asked again.
DEFAULT_TIMEOUT: Final = 120.0
#: How many workers may die on one request before :class:`ThinkingError`.
DEFAULT_ATTEMPTS: Final = 3
#: Players kept per worker (least recently used first out).
CACHE_SIZE: Final = 4096
#: CPU priority of the workers (added niceness): the server's event loop goes first on a busy machine.
WORKER_NICE: Final = 10
#: Seconds from a request to its answer that the pool aims at: a request thinks for what is left of
#: them when it reaches its worker, shared with those waiting behind it (:func:`think_seconds`). A
#: ``dificil`` move on a quiet 2-core machine takes 0.75 s at most (docs/performance.md).
THINK_SECONDS: Final = 2.0
#: Seconds a closing pool waits for its workers to leave before killing them.
CLOSE_GRACE: Final = 3.0

# What a worker process runs. ``cuarenta.server`` imports nothing when imported (its ``create_app`` is
# lazy), so the worker loads no web framework; this module imports only the engine and the players.
_BOOT: Final = """\
import sys
from cuarenta.server.thinking import worker_main
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


class ThinkingError(Exception):
    """A computer player could not answer (its workers kept dying, it timed out, or it failed)."""


@dataclass(frozen=True)
class ThinkRequest:
    """What a computer seat is told on its turn: nothing it could not see at the table."""

    room: str
    mesa: int
    seat: int
    level: str
    seed: str  #: the player's seed (``"{mesa seed}/{seat}"``)
    view: dict[str, Any]  #: ``game.view(seat).to_dict()``
    legal: tuple[str, ...]  #: the legal actions, as text, in the engine's order
    #: the longest the player should think (wall-clock seconds, :func:`think_seconds`), or ``None``: its
    #: whole budget
    seconds: float | None = None

    @property
    def key(self) -> str:
        """The player this request is for: one per room, mesa and seat."""
        return f"{self.room}/{self.mesa}/{self.seat}"

    @classmethod
    def for_seat(cls, game: Game, *, room: str, mesa: int, seat: int, level: str) -> ThinkRequest:
        """The request for ``seat`` of ``game`` (whose turn it must be)."""
        if game.is_over or game.turn != seat:
            raise ValueError(f"it is not seat {seat}'s turn")
        return cls(
            room=room,
            mesa=mesa,
            seat=seat,
            level=level,
            seed=f"{game.seed}/{seat}",
            view=game.view(seat).to_dict(),
            legal=tuple(str(a) for a in game.legal_moves()),
        )

    def to_wire(self, request_id: int, seconds: float | None = None) -> dict[str, Any]:
        """The JSON request a worker reads (``seconds``: the time to think it is given, if any)."""
        wire = {
            "id": request_id,
            "room": self.room,
            "mesa": self.mesa,
            "seat": self.seat,
            "level": self.level,
            "seed": self.seed,
            "view": self.view,
            "legal": list(self.legal),
        }
        seconds = self.seconds if seconds is None else seconds
        if seconds is not None:
            wire["seconds"] = seconds
        return wire

    @classmethod
    def from_wire(cls, data: dict[str, Any]) -> ThinkRequest:
        """The request written by :meth:`to_wire` (``KeyError``/``TypeError``/``ValueError`` if not one)."""
        legal = data["legal"]
        if not isinstance(legal, list) or not all(isinstance(t, str) for t in legal):
            raise ValueError("legal must be a list of actions as text")
        seconds = data.get("seconds")
        if seconds is not None and (
            isinstance(seconds, bool) or not isinstance(seconds, int | float) or not seconds >= 0
        ):
            raise ValueError(f"seconds must be a number of seconds, 0 or more, not {seconds!r}")
        return cls(
            room=str(data["room"]),
            mesa=int(data["mesa"]),
            seat=int(data["seat"]),
            level=str(data["level"]),
            seed=str(data["seed"]),
            view=dict(data["view"]),
            legal=tuple(legal),
            seconds=None if seconds is None else float(seconds),
        )


class PlayerCache:
    """The players a worker keeps, one per (room, mesa, seat), the least recently used leaving first.

    >>> cache = PlayerCache(size=1)
    >>> from cuarenta import Game, Rules
    >>> game = Game.new(Rules(), seed=2)
    >>> request = ThinkRequest.for_seat(game, room="a", mesa=1, seat=game.turn, level="facil")
    >>> cache.player(request) is cache.player(request), cache.made
    (True, 1)
    """

    def __init__(self, size: int = CACHE_SIZE, make: Callable[[str, str], Player] = make_player) -> None:
        if size < 1:
            raise ValueError(f"a player cache holds at least 1 player, not {size}")
        self.size = size
        self._make = make  #: a new player of a level, seeded (the device's is cuarenta.device.device_player)
        self.made = 0  #: players built so far (a measure of cache misses)
        self._players: OrderedDict[str, tuple[str, str, Player]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._players)

    def player(self, request: ThinkRequest) -> Player:
        """The request's player: the one that answered this seat before, or a new one."""
        key = request.key
        found = self._players.get(key)
        if found is not None and found[0] == request.level and found[1] == request.seed:
            self._players.move_to_end(key)
            return found[2]
        player = self._make(request.level, request.seed)
        if player.sees_all:
            raise ValueError(f"level {request.level!r} needs hidden cards: it cannot play from a view")
        player.start(request.seat, SeatView.from_dict(request.view).rules)
        self.made += 1
        self._players[key] = (request.level, request.seed, player)
        self._players.move_to_end(key)
        while len(self._players) > self.size:
            self._players.popitem(last=False)
        return player


def answer(request: ThinkRequest, cache: PlayerCache) -> str:
    """The action (as text) the request's player chooses; raises if the request is not sound."""
    view = SeatView.from_dict(request.view)
    if view.seat != request.seat or view.turn != request.seat:
        raise ValueError(
            f"the view is seat {view.seat}'s with seat {view.turn} to move, not seat {request.seat}"
        )
    if not request.legal:
        raise ValueError("no legal action to choose from")
    legal = [parse_action(text) for text in request.legal]
    player = cache.player(request)
    if request.seconds is None:
        return str(player.choose(view, legal))
    player.deadline = time.monotonic() + request.seconds
    try:
        return str(player.choose(view, legal))
    finally:
        player.deadline = None


def think_seconds(waited: float, behind: int, *, target: float = THINK_SECONDS) -> float:
    """The time to think given to a request as it reaches its worker: what is left of ``target`` seconds
    after it ``waited`` in the queue, shared with the ``behind`` requests queued after it (each of them
    will get its share in turn). Never below 0: a player given 0 answers from the least it can search.

    >>> think_seconds(0.0, 0)
    2.0
    >>> think_seconds(0.5, 2)
    0.5
    >>> think_seconds(3.0, 9)
    0.0
    """
    if waited < 0 or behind < 0 or target <= 0:
        raise ValueError(f"waited ({waited}) and behind ({behind}) are 0 or more, target ({target}) above 0")
    return max(0.0, target - waited) / (1 + behind)


# -- the worker process ------------------------------------------------------------------------------------
def worker_main(nice: int = WORKER_NICE) -> None:  # pragma: no cover - runs in the worker processes
    """Answer requests, one JSON object per line on stdin, until stdin closes."""
    channel = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # anything a player prints goes to stderr, never into the replies
    sys.stdout = sys.stderr
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the server, which closes the workers
    if nice:
        with contextlib.suppress(OSError):
            os.nice(nice)
    cache = PlayerCache()
    for line in sys.stdin:
        request_id: Any = None
        try:
            data = json.loads(line)
            request_id = data["id"]
            reply = {"id": request_id, "action": answer(ThinkRequest.from_wire(data), cache)}
        except Exception as exc:  # a bad request or a failing player: say so, keep serving
            reply = {"id": request_id, "error": f"{type(exc).__name__}: {exc}"}
        channel.write(json.dumps(reply) + "\n")
        channel.flush()


# -- the server side ---------------------------------------------------------------------------------------
class Thinking(Protocol):
    """Where the server's computer players think: :class:`WorkerPool` or :class:`InProcessThinking`."""

    @property
    def workers(self) -> int:
        """Worker processes (0: in-process)."""
        ...

    async def choose(self, request: ThinkRequest) -> str:
        """The action the request's player chooses, as text; :class:`ThinkingError` if none came."""
        ...

    def pids(self) -> list[int]:
        """The process ids of the live workers."""
        ...

    async def close(self) -> None:
        """Stop thinking: the workers leave (a later :meth:`choose` starts new ones)."""
        ...


def make_thinking(workers: int | None = None) -> Thinking:
    """``workers`` worker processes (``None``: one per core); 0 thinks in-process, on one thread."""
    count = default_workers() if workers is None else workers
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise ValueError(f"workers must be a whole number, 0 or more, not {workers!r}")
    if count == 0:
        return InProcessThinking()
    return WorkerPool(count)


class InProcessThinking:
    """Players think in this process, on one dedicated thread (``--workers 0``: tests, debugging)."""

    workers = 0

    def __init__(self, make: Callable[[str, str], Player] = make_player) -> None:
        self.cache = PlayerCache(make=make)
        self._executor: ThreadPoolExecutor | None = None

    async def choose(self, request: ThinkRequest) -> str:
        if self._executor is None:
            self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cuarenta-think")
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor, answer, request, self.cache)
        except Exception as exc:
            raise ThinkingError(f"the {request.level} player of {request.key} failed: {exc}") from exc

    def pids(self) -> list[int]:
        return []

    async def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


class InlineThinking:
    """Players think on the event loop itself, with no thread and no process: for the device host under
    Pyodide, which has neither (docs/architecture.md "The device host"). The same player cache and the
    same :func:`answer` as :class:`InProcessThinking`, so the same request gets the same action; the loop
    waits while the player thinks (a difícil move takes a moment; nothing else runs meanwhile)."""

    workers = 0

    def __init__(self, make: Callable[[str, str], Player] = make_player) -> None:
        self.cache = PlayerCache(make=make)

    async def choose(self, request: ThinkRequest) -> str:
        await asyncio.sleep(0)  # let what is queued (the frames of the last move) go out first
        try:
            return answer(request, self.cache)
        except Exception as exc:
            raise ThinkingError(f"the {request.level} player of {request.key} failed: {exc}") from exc

    def pids(self) -> list[int]:
        return []

    async def close(self) -> None:
        """Nothing to stop."""


@dataclass(eq=False)
class _Job:
    id: int
    request: ThinkRequest
    future: asyncio.Future[str]
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
        if isinstance(reply.get("action"), str):
            job.future.set_result(reply["action"])
        else:
            error = reply.get("error")
            job.future.set_exception(
                ThinkingError(f"the {job.request.level} player of {job.request.key}: {error}")
            )
        return True

    def _line(self, slot: _Worker, job: _Job) -> bytes:
        """The request as the worker reads it, now that it goes, with its time to think
        (:func:`think_seconds`: what is left of :attr:`think`, shared with the requests behind it)."""
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
    "CACHE_SIZE",
    "DEFAULT_ATTEMPTS",
    "DEFAULT_TIMEOUT",
    "THINK_SECONDS",
    "InProcessThinking",
    "InlineThinking",
    "PlayerCache",
    "ThinkRequest",
    "Thinking",
    "ThinkingError",
    "WorkerPool",
    "answer",
    "default_workers",
    "make_thinking",
    "think_seconds",
    "worker_main",
]
