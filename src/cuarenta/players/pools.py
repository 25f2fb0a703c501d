"""Where the arena's (and the self-play generator's) work runs: one process, worker processes, or Ray.

A *pool* is a small seam: ``pool.run(fn, items)`` calls the module-level function ``fn`` on every
item and yields ``(index, result)`` pairs as they finish (in any order); the caller puts the results
back in index order, so what a match or a self-play run produces never depends on the pool. Four
pools share the seam:

- :class:`SerialPool` runs everything in this process, in order;
- :class:`ProcessPool` (the default with ``jobs > 1``) uses the standard library's worker processes;
- :class:`RayPool` sends each item to Ray, as Ray tasks (``mode="tasks"``, the default) or through
  ``ray.util.multiprocessing.Pool`` (``mode="pool"``), on a local Ray (``address=None``) or a cluster
  (``"auto"``, ``"ray://host:10001"``).

Ray is imported only inside :class:`RayPool`, so the engine and the players keep running on the
standard library alone; without Ray the error says ``pip install 'cuarenta[research]'``.

>>> from operator import neg
>>> sorted(SerialPool().run(neg, [1, 2, 3]))
[(0, -1), (1, -2), (2, -3)]

Batches: a task should be well above 10 ms of work (Ray's advice), so callers group items with
:func:`batch_size`, which sizes a batch from the measured cost of one item.
"""

from __future__ import annotations

import math
import multiprocessing
import signal
import socket
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any, Final, Protocol, TypeVar

from cuarenta.errors import CuarentaError

T = TypeVar("T")
R = TypeVar("R")

#: The work one task should carry, in seconds: far above Ray's per-task overhead (about a millisecond,
#: docs/research.md) and Ray's advice of "well above 10 ms", small enough to share the work evenly.
TARGET_TASK_SECONDS: Final = 0.25
#: At least this many tasks per worker when there is enough work (a slow last task delays the end less).
TASKS_PER_WORKER: Final = 4

RESEARCH_EXTRA: Final = "pip install 'cuarenta[research]'"


class PoolError(CuarentaError, RuntimeError):
    """A pool that cannot run: Ray missing, or a Ray cluster that cannot be reached."""


def batch_size(items: int, workers: int, seconds_per_item: float) -> int:
    """How many items to put in one task: enough for :data:`TARGET_TASK_SECONDS` of work each, but no
    more than leaves :data:`TASKS_PER_WORKER` tasks to each worker.

    >>> batch_size(1000, 2, 0.007)   # facil vs facil: 7 ms a deal pair -> 36 pairs, a quarter second
    36
    >>> batch_size(100, 2, 0.007)    # a small match: 13 tasks of 8 pairs, still 56 ms each
    13
    >>> batch_size(100, 2, 4.0)      # dificil: one pair a task
    1
    """
    if items <= 0:
        return 1
    by_cost = math.ceil(TARGET_TASK_SECONDS / max(seconds_per_item, 1e-6))
    by_balance = math.ceil(items / (max(workers, 1) * TASKS_PER_WORKER))
    return max(1, min(by_cost, by_balance))


def batches(items: Sequence[T], size: int) -> list[list[T]]:
    """``items`` cut into consecutive batches of ``size`` (the last may be shorter).

    >>> batches([0, 1, 2, 3, 4], 2)
    [[0, 1], [2, 3], [4]]
    """
    return [list(items[i : i + size]) for i in range(0, len(items), max(size, 1))]


class Pool(Protocol):
    """The seam: run ``fn`` (a module-level function, so that it can be pickled) on every item."""

    @property
    def workers(self) -> int:
        """How many items run at once (it sizes the batches)."""
        ...

    def run(self, fn: Callable[[Any], R], items: Sequence[Any]) -> Iterator[tuple[int, R]]:
        """Yield ``(index, fn(items[index]))`` as each finishes; an error in ``fn`` is raised here."""
        ...


class SerialPool:
    """Everything in this process, in order."""

    workers = 1

    def run(self, fn: Callable[[Any], R], items: Sequence[Any]) -> Iterator[tuple[int, R]]:
        for index, item in enumerate(items):
            yield index, fn(item)


def _ignore_sigint() -> None:  # pragma: no cover - runs in worker processes
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class ProcessPool:
    """The standard library's worker processes (fork where there is fork); Ctrl-C or an error stops them."""

    def __init__(self, workers: int) -> None:
        self.workers = max(1, workers)

    def run(self, fn: Callable[[Any], R], items: Sequence[Any]) -> Iterator[tuple[int, R]]:
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        executor = ProcessPoolExecutor(
            max_workers=min(self.workers, max(len(items), 1)), mp_context=context, initializer=_ignore_sigint
        )
        ok = False
        try:
            futures: dict[Future[R], int] = {executor.submit(fn, item): i for i, item in enumerate(items)}
            pending = set(futures)
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    yield futures[future], future.result()
            ok = True
        finally:
            if ok:
                executor.shutdown(wait=True)
            else:
                # an error, Ctrl-C or a caller that stopped early: drop the queued work, stop the workers now
                processes = list((getattr(executor, "_processes", None) or {}).values())
                executor.shutdown(wait=False, cancel_futures=True)
                for process in processes:
                    process.terminate()


def import_ray() -> Any:
    """The ``ray`` module, or :class:`PoolError` saying which extra to install."""
    try:
        import ray
    except ModuleNotFoundError as exc:
        raise PoolError(f"Ray is not installed: {RESEARCH_EXTRA}") from exc
    return ray


#: Seconds to wait for a Ray address to answer before saying it cannot be reached.
CONNECT_TIMEOUT: Final = 5.0


def check_address(address: str, timeout: float = CONNECT_TIMEOUT) -> None:
    """Raise :class:`PoolError` unless ``address`` (``host:port`` or ``ray://host:port``) accepts a TCP
    connection within ``timeout`` seconds (Ray itself retries for minutes before it gives up).

    >>> check_address("ray://no-port")
    Traceback (most recent call last):
    ...
    cuarenta.players.pools.PoolError: 'ray://no-port' is not a Ray address: give 'auto', 'host:port' or 'ray://host:port'
    """
    rest = address.removeprefix("ray://")
    host, _, port = rest.rpartition(":")
    if not host or not port.isdigit():
        raise PoolError(f"{address!r} is not a Ray address: give 'auto', 'host:port' or 'ray://host:port'")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as exc:
        raise PoolError(f"cannot reach the Ray cluster at {address!r}: {exc}") from None


def ray_connect(address: str | None = None) -> Any:
    """Start a local Ray (``address`` ``None``, ``""`` or ``"local"``) or join a cluster, unless this
    process is already connected; the ``ray`` module. A cluster that cannot be reached is a
    :class:`PoolError` naming the address."""
    ray = import_ray()
    local = address in (None, "", "local")
    if not local and address != "auto":
        check_address(str(address))
    if ray.is_initialized():
        return ray
    try:
        if local:
            ray.init(include_dashboard=False, log_to_driver=False, configure_logging=False)
        else:
            ray.init(address=address, log_to_driver=False, configure_logging=False)
    except Exception as exc:  # Ray raises ConnectionError, ValueError, RuntimeError … by cause
        where = "a local Ray" if local else f"the Ray cluster at {address!r}"
        raise PoolError(f"cannot start or reach {where}: {type(exc).__name__}: {exc}") from None
    return ray


class RayPool:
    """Ray tasks (``mode="tasks"``) or ``ray.util.multiprocessing.Pool`` (``mode="pool"``).

    Joins ``address`` (``None``: a local Ray on this machine's CPUs, ``"auto"``: the cluster this
    machine belongs to, ``"ray://host:10001"``: Ray Client) on first use, or uses the Ray this process
    is already connected to. ``workers`` (default: the cluster's CPUs) only sizes the batches; Ray
    schedules the tasks. Every node needs the same ``cuarenta`` installed (or a ``runtime_env``).
    """

    def __init__(self, address: str | None = None, workers: int | None = None, mode: str = "tasks") -> None:
        if mode not in ("tasks", "pool"):
            raise PoolError(f"mode={mode!r}: choose 'tasks' or 'pool'")
        self.address = address
        self.mode = mode
        self._workers = workers

    def connect(self) -> Any:
        return ray_connect(self.address)

    @property
    def workers(self) -> int:
        if self._workers is None:
            ray = self.connect()
            self._workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        return self._workers

    def run(self, fn: Callable[[Any], R], items: Sequence[Any]) -> Iterator[tuple[int, R]]:
        ray = self.connect()
        if self.mode == "pool":
            yield from self._run_pool(fn, items)
            return
        remote = ray.remote(_call)
        refs = {remote.remote(fn, i, item): i for i, item in enumerate(items)}
        pending = list(refs)
        try:
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                for ref in done:
                    yield ray.get(ref)
            pending = []
        finally:
            for ref in pending:  # an error or a caller that stopped early
                ray.cancel(ref, force=True)

    def _run_pool(self, fn: Callable[[Any], R], items: Sequence[Any]) -> Iterator[tuple[int, R]]:
        from ray.util.multiprocessing import Pool as RayMpPool

        pool = RayMpPool(processes=self._workers)
        try:
            yield from pool.imap_unordered(_call_tuple, [(fn, i, item) for i, item in enumerate(items)])
        finally:
            pool.terminate()  # type: ignore[no-untyped-call]


def _call(fn: Callable[[Any], R], index: int, item: Any) -> tuple[int, R]:
    """``fn(item)`` tagged with its index (what a Ray task runs)."""
    return index, fn(item)


def _call_tuple(args: tuple[Callable[[Any], R], int, Any]) -> tuple[int, R]:
    fn, index, item = args
    return index, fn(item)


def make_pool(jobs: int = 1, ray: str | bool | None = None, mode: str = "tasks") -> Pool:
    """The pool for a command line: Ray when ``ray`` is given (``True`` or ``"local"``: a local Ray, else
    an address), else worker processes for ``jobs > 1`` (0: one per CPU), else this process.

    >>> type(make_pool(1)).__name__, type(make_pool(2)).__name__, make_pool(2).workers
    ('SerialPool', 'ProcessPool', 2)
    """
    if ray is not None and ray is not False:
        address = None if ray is True or ray in ("", "local") else str(ray)
        return RayPool(address, workers=jobs if jobs > 1 else None, mode=mode)
    workers = jobs or multiprocessing.cpu_count()
    return ProcessPool(workers) if workers > 1 else SerialPool()


def in_order(results: Iterable[tuple[int, R]], count: int) -> list[R]:
    """Results yielded as ``(index, result)`` in any order, put back in index order.

    >>> in_order([(1, "b"), (0, "a")], 2)
    ['a', 'b']
    """
    out: dict[int, R] = dict(results)
    missing = [i for i in range(count) if i not in out]
    if missing:
        raise PoolError(f"the pool returned no result for items {missing[:5]}")
    return [out[i] for i in range(count)]
