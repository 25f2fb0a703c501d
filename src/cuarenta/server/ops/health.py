"""The checks of ``GET /readyz`` (docs/operations.md "Endpoints"): the store and, when the app has one,
the Redis client.

The store's check is ``SELECT 1`` (:meth:`Store.ping`: on a SQLite file also that the file at its path is
still the one the store opened) and, on a SQLite file, the last result of ``PRAGMA quick_check``
(:class:`IntegrityCheck`): run in a thread at most every :data:`INTEGRITY_SECONDS`, or at once after a
read or write found the file damaged, never awaited by the request (it reads the whole file).

Each check runs for :data:`READY_SECONDS` at most, off the event loop's own work (the store's query in a
thread; an asyncio Redis client's ``PING`` as a task), and a check is never run twice at once: while the
last one has not answered (a database that hangs), a new request waits for that one instead of starting
another thread, so a probe every few seconds cannot pile up threads.

>>> import asyncio
>>> async def fine() -> None: ...
>>> async def broken() -> None:
...     raise ConnectionError("connection refused")
>>> asyncio.run(Probe(fine).check()), asyncio.run(Probe(broken).check())
('ok', 'ConnectionError: connection refused')
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable
from typing import Any, Final

from cuarenta.server.settings import INTEGRITY_SECONDS
from cuarenta.server.store import Store, StoreError

#: The longest each check may take, in seconds (then it counts as failed).
READY_SECONDS: Final = 2.0


def _retrieve(future: asyncio.Future[Any]) -> None:
    """Read a finished check's outcome (nobody may be waiting for it any more: no "never retrieved")."""
    if not future.cancelled():
        future.exception()


class Probe:
    """One check: ``start()`` begins it (an awaitable that raises when the dependency does not answer)."""

    def __init__(self, start: Callable[[], Awaitable[object]], timeout: float = READY_SECONDS) -> None:
        self.start = start
        self.timeout = timeout
        self._running: asyncio.Future[object] | None = None

    async def check(self) -> str:
        """``ok``, or why not: the error's text, or that the check did not answer in time."""
        running = self._running
        if running is None or running.done():
            running = self._running = asyncio.ensure_future(self.start())
            running.add_done_callback(_retrieve)
        try:
            await asyncio.wait_for(asyncio.shield(running), self.timeout)
        except TimeoutError:
            return f"no answer within {self.timeout:g} s"
        except StoreError as exc:
            return str(exc)
        except Exception as exc:  # the client's errors: connection refused, authentication, …
            return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        return "ok"


def store_probe(store: Store) -> Probe:
    """``SELECT 1`` on the store (:meth:`Store.ping`), in a thread."""
    return Probe(lambda: asyncio.to_thread(store.ping, READY_SECONDS))


class IntegrityCheck:
    """``PRAGMA quick_check`` of a SQLite store (:meth:`Store.quick_check`), at most every ``every``
    seconds — or at once after the store found damage (``store.damage_seen``) — in a thread; a request
    gets the last result and never waits for a check (on a large file one takes seconds). The first
    result is the store's own check at start (a damaged file is refused there). ``every`` 0: never again.

    >>> import asyncio, pathlib, tempfile
    >>> from cuarenta.server.store import Store
    >>> with tempfile.TemporaryDirectory() as d:
    ...     store = Store.in_dir(pathlib.Path(d))
    ...     asyncio.run(IntegrityCheck(store).result())
    ...     store.close()
    'ok'
    """

    def __init__(self, store: Store, every: float = INTEGRITY_SECONDS) -> None:
        self.store = store
        self.every = every
        self.last = "ok"
        self.at = time.monotonic()
        self._running: asyncio.Future[None] | None = None

    def _due(self) -> bool:
        if self._running is not None and not self._running.done():
            return False
        if self.store.damage_seen:
            return True
        return self.every > 0 and time.monotonic() - self.at >= self.every

    def _check(self) -> None:
        found = self.store.quick_check()
        self.last, self.at = ("ok" if found is None else found), time.monotonic()

    async def result(self) -> str:
        """``ok`` or what the last check found; starts a check in a thread when one is due."""
        if self.store.sqlite and self.store.path is not None and self._due():
            self._running = asyncio.ensure_future(asyncio.to_thread(self._check))
            self._running.add_done_callback(_retrieve)
        return self.last


def redis_probe(redis: Any) -> Probe:
    """``PING``: an asyncio client (``redis.asyncio``) is awaited on the loop, a synchronous one asked in a
    thread."""
    if inspect.iscoroutinefunction(getattr(redis, "execute_command", None)):
        return Probe(lambda: redis.ping())
    return Probe(lambda: asyncio.to_thread(redis.ping))


class Readiness:
    """The checks of one app: its store, and the Redis client ``redis_of()`` returns when there is one
    (read at each check, so a client set on the app after it was made is checked too)."""

    def __init__(
        self, store: Store, redis_of: Callable[[], Any], integrity_seconds: float = INTEGRITY_SECONDS
    ) -> None:
        self.store = store_probe(store)
        self.integrity = IntegrityCheck(store, integrity_seconds)
        self.redis_of = redis_of
        self._redis: tuple[Any, Probe] | None = None

    async def check(self) -> tuple[bool, dict[str, str]]:
        """Whether every check answered, and each check's answer (``ok`` or why not)."""
        probes = {"store": self.store}
        redis = self.redis_of()
        if redis is not None:
            if self._redis is None or self._redis[0] is not redis:
                self._redis = (redis, redis_probe(redis))
            probes["redis"] = self._redis[1]
        answers = await asyncio.gather(*(probe.check() for probe in probes.values()))
        checks = dict(zip(probes, answers, strict=True))
        if checks["store"] == "ok":
            checks["store"] = await self.integrity.result()
        return all(answer == "ok" for answer in checks.values()), checks


__all__ = [
    "INTEGRITY_SECONDS",
    "READY_SECONDS",
    "IntegrityCheck",
    "Probe",
    "Readiness",
    "redis_probe",
    "store_probe",
]
