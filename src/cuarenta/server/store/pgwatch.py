"""A bound on every wait for PostgreSQL, so that a database that hangs is refused, never waited on.

A PostgreSQL server that is stopped (``SIGSTOP``, a frozen virtual machine, a storage that blocks) keeps
its connections open and its kernel goes on acknowledging what is sent to it: nothing answers, and nothing
fails. Its own ``statement_timeout`` cannot fire (the server does not run), libpq's TCP keepalives and
``tcp_user_timeout`` do not fire either (the kernel acknowledges), and psycopg waits for an answer for
ever — on a cluster node, on the event loop, so that every socket of the node waits with it (issue 15).

:func:`bounded_engine` makes the store's SQLAlchemy engine for a ``postgresql+psycopg`` URL with:

- libpq's ``connect_timeout`` (:data:`CONNECT_SECONDS`): a new connection that gets no answer fails;
- a :class:`Watchdog` thread: every call that waits for the server (a statement, the pool's ping, a commit
  or a rollback) is *armed* with a deadline (:data:`CALL_SECONDS`); one still waiting at its deadline has
  its socket shut down from the watchdog's thread, which wakes the waiting call with psycopg's "server
  closed the connection" error (SQLAlchemy then drops the connection: the store answers
  ``store_unavailable``);
- from then on the database counts as *hung*: every call fails at once (no one waits another
  :data:`CALL_SECONDS`) while a probe, in a thread of its own, tries the database every
  :data:`PROBE_SECONDS`; its first answer ends it.

The statements of a migration (from ``pg_advisory_xact_lock``, which every migration takes first, to its
commit) are not bounded: a migration of a large database may take long, and runs before the server
serves anyone.

What a shut socket means for the statement it carried: its transaction had not committed (the server's
backend, when it runs again, finds the connection gone and rolls back), unless the ``COMMIT`` itself was
on its way — then, as with any connection lost during a commit, the outcome is unknown to the client, and
the room's compare-and-set (docs/storage.md) keeps it from being applied twice.

>>> watchdog = Watchdog(seconds=0.5)
>>> watchdog.hung
False
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from typing import Any, Final

import sqlalchemy as sa

log = logging.getLogger("cuarenta.server")

#: The longest a call may wait for PostgreSQL's answer before its connection is shut, in seconds.
CALL_SECONDS: Final = 2.0
#: libpq's ``connect_timeout`` (whole seconds; libpq takes 2 as its least).
CONNECT_SECONDS: Final = 2
#: Seconds between two probes of a database that hung.
PROBE_SECONDS: Final = 0.5
#: Seconds a checkout waits for a free connection of the pool (SQLAlchemy's default is 30).
POOL_SECONDS: Final = 2.0
#: The statement that starts a migration (the store's advisory lock, migrate.py): from it to the commit, no
#: bound.
_MIGRATION_MARK: Final = "pg_advisory_xact_lock"


class Watchdog:
    """Deadlines of the calls in progress, and the thread that enforces them (module docstring).

    ``probe`` is called (in a thread of its own, as often as every :data:`PROBE_SECONDS`) once a call has
    been cut, until it returns without raising: then the database answers again.
    """

    def __init__(self, seconds: float = CALL_SECONDS, probe: Callable[[], None] | None = None) -> None:
        if not seconds > 0:
            raise ValueError(f"a call's bound is more than 0 seconds, not {seconds}")
        self.seconds = seconds
        self.probe = probe
        self.cut = 0  #: calls cut at their deadline so far
        self._lock = threading.Condition()
        self._armed: dict[int, tuple[float, int]] = {}  #: id(connection) → (deadline, its socket)
        self._exempt: set[int] = set()  #: connections inside a migration
        self._hung_since: float | None = None
        self._thread: threading.Thread | None = None
        self._probing = False
        self._local = threading.local()

    @property
    def hung(self) -> bool:
        """Whether a call was cut and the database has not answered since."""
        return self._hung_since is not None

    def refuse_if_hung(self) -> None:
        """Raise psycopg's ``OperationalError`` at once while the database counts as hung (not in the
        probe's own thread)."""
        since = self._hung_since
        if since is not None and not getattr(self._local, "probing", False):
            import psycopg  # deferred: psycopg is optional (PostgreSQL only)

            raise psycopg.OperationalError(
                f"the database has not answered for {time.monotonic() - since:.1f} s (a call got no "
                f"answer within {self.seconds:g} s): refused at once until it answers again"
            )

    def trip(self) -> None:
        """The database does not answer (a call was cut, or a new connection timed out)."""
        with self._lock:
            self._trip_locked()

    def _trip_locked(self) -> None:
        if self._hung_since is None:
            self._hung_since = time.monotonic()
            log.warning("the database does not answer: refusing its calls until it does")
        self._start_locked()
        self._lock.notify()

    @contextlib.contextmanager
    def call(self, connection: Any) -> Iterator[None]:
        """Bound one call of ``connection`` (a psycopg connection) to :attr:`seconds`."""
        self.refuse_if_hung()
        key = id(connection)
        if key in self._exempt:
            yield
            return
        fd = int(connection.pgconn.socket)
        with self._lock:
            # no wake-up of the watchdog's thread (a thread switch at every call): it looks again at least
            # every ``seconds``, and this deadline is ``seconds`` away, so it is seen in time (``_run``)
            self._armed[key] = (time.monotonic() + self.seconds, fd)
            self._start_locked()
        try:
            yield
        finally:
            with self._lock:
                self._armed.pop(key, None)

    def exempt(self, connection: Any, exempt: bool = True) -> None:
        """Leave ``connection``'s calls unbounded (a migration) until called again with ``False``."""
        with self._lock:
            if exempt:
                self._exempt.add(id(connection))
            else:
                self._exempt.discard(id(connection))

    def _start_locked(self) -> None:
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._run, name="cuarenta-pg-watchdog", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        with self._lock:
            while True:
                now = time.monotonic()
                for key, (deadline, fd) in list(self._armed.items()):
                    if deadline <= now:
                        del self._armed[key]
                        _shut(fd)
                        self.cut += 1
                        log.warning("a call to the database got no answer within %g s: cut", self.seconds)
                        self._trip_locked()
                if self._hung_since is not None and self.probe is not None and not self._probing:
                    self._probing = True
                    threading.Thread(target=self._probe, name="cuarenta-pg-probe", daemon=True).start()
                # the earliest deadline, and with none armed a look again after ``seconds``: a call armed
                # meanwhile (it does not wake this thread) has its deadline no earlier than that
                deadlines = [deadline for deadline, _ in self._armed.values()]
                self._lock.wait(max(0.01, min(deadlines) - now) if deadlines else self.seconds)

    def _probe(self) -> None:
        """Try the database until it answers; then it no longer counts as hung."""
        assert self.probe is not None
        self._local.probing = True
        try:
            while True:
                time.sleep(PROBE_SECONDS)
                try:
                    self.probe()
                except Exception:  # still away: the probe's own call is bounded like any other
                    continue
                with self._lock:
                    if self._hung_since is not None:
                        log.warning(
                            "the database answers again (after %.1f s)", time.monotonic() - self._hung_since
                        )
                    # both at once: a call cut between the two would otherwise find a probe still
                    # "running" that is about to end, and the database would count as hung for good
                    self._hung_since = None
                    self._probing = False
                    return
        finally:
            with self._lock:
                if self._probing:
                    self._probing = False
                    self._lock.notify()  # the watchdog's loop starts another probe if one is needed


def _shut(fd: int) -> None:
    """Shut a connection's socket down (both ways) from another thread: its pending read returns at once.
    The descriptor itself stays its owner's (a duplicate is shut, then closed)."""
    with contextlib.suppress(OSError):
        duplicate = socket.socket(fileno=os.dup(fd))
        try:
            duplicate.shutdown(socket.SHUT_RDWR)
        finally:
            duplicate.close()


def _connection_classes(watchdog: Watchdog) -> tuple[Any, Any]:
    """psycopg's connection and cursor classes with every wait for the server bounded by ``watchdog``."""
    import psycopg  # deferred (here and in this module): psycopg is optional, for PostgreSQL only

    class WatchedCursor(psycopg.Cursor[Any]):
        def execute(self, query: Any, *args: Any, **kwargs: Any) -> Any:
            if isinstance(query, str) and _MIGRATION_MARK in query:
                watchdog.exempt(self.connection)
            with watchdog.call(self.connection):
                return super().execute(query, *args, **kwargs)

        def executemany(self, query: Any, *args: Any, **kwargs: Any) -> Any:
            with watchdog.call(self.connection):
                return super().executemany(query, *args, **kwargs)

    class WatchedConnection(psycopg.Connection[Any]):
        def commit(self) -> None:
            try:
                with watchdog.call(self):
                    super().commit()
            finally:
                watchdog.exempt(self, False)

        def rollback(self) -> None:
            try:
                with watchdog.call(self):
                    super().rollback()
            finally:
                watchdog.exempt(self, False)

    return WatchedConnection, WatchedCursor


def session_of(connection: Any) -> tuple[int, int]:
    """The database session of a psycopg connection, as PostgreSQL's ``pg_stat_activity`` names it: its
    backend's process id and the client's port (-1 over a Unix socket). Read when the connection is made
    (no round trip), so that the session of a connection lost during a write can be found afterwards."""
    port = -1
    with contextlib.suppress(OSError, ValueError):
        duplicate = socket.socket(fileno=os.dup(int(connection.pgconn.socket)))
        try:
            address = duplicate.getsockname()
            if isinstance(address, tuple):
                port = int(address[1])
        finally:
            duplicate.close()
    return int(connection.info.backend_pid), port


def bounded_engine(url: sa.URL, **options: Any) -> sa.Engine:
    """The SQLAlchemy engine of a PostgreSQL URL, every wait for the server bounded (module docstring).

    With another driver than psycopg 3 only libpq's ``connect_timeout`` and the pool's timeout apply.
    ``options`` go to :func:`sqlalchemy.create_engine` (e.g. ``pool_pre_ping=True``).
    """
    if url.get_driver_name() != "psycopg":
        return sa.create_engine(
            url, connect_args={"connect_timeout": CONNECT_SECONDS}, pool_timeout=POOL_SECONDS, **options
        )
    import psycopg  # deferred: psycopg is optional (PostgreSQL only)

    watchdog = Watchdog()
    connection_class, cursor_class = _connection_classes(watchdog)
    engine = sa.create_engine(url, pool_timeout=POOL_SECONDS, **options)

    @sa.event.listens_for(engine, "do_connect")
    def _connect(_dialect: Any, _record: Any, cargs: Any, cparams: dict[str, Any]) -> Any:
        watchdog.refuse_if_hung()
        cparams.setdefault("connect_timeout", CONNECT_SECONDS)
        cparams["cursor_factory"] = cursor_class
        try:
            connection = connection_class.connect(*cargs, **cparams)
        except psycopg.OperationalError as exc:
            if "timeout" in str(exc).lower():  # it accepts connections but does not answer them
                watchdog.trip()
            raise
        connection.cuarenta_session = session_of(connection)
        return connection

    def probe() -> None:
        with engine.connect() as conn:
            conn.exec_driver_sql("SELECT 1").scalar_one()

    watchdog.probe = probe
    _WATCHDOGS[engine] = watchdog
    return engine


def watchdog_of(engine: sa.Engine) -> Watchdog | None:
    """The :class:`Watchdog` of an engine made by :func:`bounded_engine` (``None`` for another)."""
    return _WATCHDOGS.get(engine)


_WATCHDOGS: weakref.WeakKeyDictionary[sa.Engine, Watchdog] = weakref.WeakKeyDictionary()


__all__ = [
    "CALL_SECONDS",
    "CONNECT_SECONDS",
    "POOL_SECONDS",
    "PROBE_SECONDS",
    "Watchdog",
    "bounded_engine",
    "session_of",
    "watchdog_of",
]
