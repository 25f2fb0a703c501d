"""The database a store works on: opening it (SQLite's file checks, PostgreSQL's bounded engine), its
read and write transactions, and what a failure means (docs/storage.md "Storage faults").

:class:`Database` holds no query of its own: the queries of rooms, finished mesas and profiles are
functions of their modules, bound as methods of :class:`cuarenta.server.store.Store`.
"""

from __future__ import annotations

import functools
import logging
import sqlite3
import time
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final, Self, cast

import sqlalchemy as sa
from alembic.runtime.migration import MigrationContext
from alembic.util.exc import CommandError

from cuarenta.server.store import files as sqlite_files
from cuarenta.server.store.connect import (
    DB_NAME,
    MIN_SQLITE,
    FileGuard,
    database_url,
    sqlite_engine,
    sqlite_file,
)
from cuarenta.server.store.errors import (
    _START_ERRORS,
    StoreCorrupt,
    StoreError,
    StoreGone,
    StoreUnknown,
    store_failure,
)
from cuarenta.server.store.migrate import migrate
from cuarenta.server.store.pgwatch import bounded_engine
from cuarenta.server.store.writer import SqliteWriter

log = logging.getLogger("cuarenta.server")

#: What a store whose SQLite file was deleted or replaced says after why (it refuses from then on).
GONE_ADVICE: Final = "nothing more can be stored or read until it is restored and the server restarts"
#: The longest :meth:`Database.ping` lets its query run on PostgreSQL, in seconds.
PING_SECONDS: Final = 2.0
#: A write whose connection was lost (:meth:`Database.end_session`): seconds its session may go on to finish
#: the write by itself, seconds it then has to end once told to, and how often it is looked at.
END_GRACE_SECONDS: Final = 2.0
END_SECONDS: Final = 10.0
END_POLL_SECONDS: Final = 0.05


class Database:
    """The database of one server: a SQLite file (the default) or a PostgreSQL database by URL — its
    engine, its transactions and its faults (the queries are in :mod:`~cuarenta.server.store.rooms`,
    :mod:`~cuarenta.server.store.save`, :mod:`~cuarenta.server.store.finished` and
    :mod:`~cuarenta.server.store.profiles`;
    :class:`~cuarenta.server.store.Store` binds them).

    Safe to share between threads: every method takes a connection from the engine's pool for its own
    transaction. ``target`` is a URL (text) or the path of a SQLite file; the schema is made or upgraded
    when the store opens (:meth:`migrate`).
    """

    def __init__(self, target: str | Path, *, init: bool = False, accept_lost_wal: bool = False) -> None:
        self.url = database_url(target)
        self.sqlite = self.url.get_backend_name() == "sqlite"
        if (init or accept_lost_wal) and not self.sqlite:
            raise StoreError(
                "--init and --accept-lost-wal are for the SQLite file of --data; a PostgreSQL database is "
                "made with createdb and restored with pg_restore (docs/storage.md)"
            )
        self.path: Path | None = Path(target) if isinstance(target, Path) else sqlite_file(self.url)
        where = str(target) if isinstance(target, Path) else self.url.render_as_string(hide_password=True)
        self._where = where
        #: SQLite file only: its marker and identity (docs/storage.md "Storage faults")
        self._guard: FileGuard | None = None
        #: SQLite file only: the store's own connection for a move's save (:meth:`_sqlite_write`)
        self._writer: SqliteWriter | None = None
        #: where ``init`` moved a damaged, empty or stale database aside, if it did
        self.moved_aside: Path | None = None
        #: a read or write found the file damaged since the last :meth:`quick_check` (``/readyz`` then
        #: checks at once instead of waiting for its interval)
        self.damage_seen = False
        try:
            if self.sqlite:
                if sqlite3.sqlite_version_info < MIN_SQLITE:
                    raise StoreError(
                        f"this Python's SQLite library is {sqlite3.sqlite_version}; cuarenta needs "
                        f"{'.'.join(map(str, MIN_SQLITE))} or newer"
                    )
                fresh = self._check_file(init=init, accept_lost_wal=accept_lost_wal)
                self.engine = sqlite_engine(self.url)
            else:  # every wait for the server bounded: a database that hangs is refused (pgwatch.py)
                self.engine = bounded_engine(self.url, pool_pre_ping=True)
        except (sa.exc.SQLAlchemyError, ImportError) as exc:
            raise StoreError(f"cannot open the database {where}: {exc}") from None
        try:
            self.migrate()
        except StoreError:
            self.engine.dispose()
            raise
        except sa.exc.OperationalError as exc:  # cannot be reached, opened or locked: not a wrong file
            self.engine.dispose()
            raise StoreError(f"cannot open the database {where}: {exc.orig}") from None
        except sa.exc.DatabaseError as exc:
            self.engine.dispose()
            raise StoreError(f"{where} is not a usable cuarenta database: {exc.orig}") from None
        except (sa.exc.SQLAlchemyError, CommandError) as exc:
            self.engine.dispose()
            raise StoreError(f"cannot open the database {where}: {exc}") from None
        except BaseException:
            self.engine.dispose()
            raise
        if self.sqlite and self.path is not None:
            self._open_guard(fresh)

    # -- SQLite only: the file, its marker and its identity (docs/storage.md "Storage faults") -------------
    def _check_file(self, *, init: bool, accept_lost_wal: bool) -> str:
        """Refuse a database file that is missing, empty, damaged or lost its WAL (one of the
        :class:`StoreError` kinds, with the sentence saying how to go on); with ``init``, move such a file
        aside and start a new database instead. Returns the marker's note for this opening."""
        path = self.path
        if path is None:
            return "made"
        problem = sqlite_files.start_problem(path, accept_lost_wal=accept_lost_wal)
        if problem is None:
            return "found" if sqlite_files.read_marker(path) is None and path.exists() else "made"
        if not init:
            raise _START_ERRORS[problem.kind](problem.message)
        try:
            self.moved_aside = sqlite_files.move_aside(path, "damaged")
        except OSError as exc:
            raise StoreError(f"cannot move {path} aside for --init: {exc}") from None
        log.warning(
            "--init: %s; it was moved aside to %s and a new database is made", problem.message,
            self.moved_aside,
        )  # fmt: skip
        return "made by --init"

    def _open_guard(self, note: str) -> None:
        """After the schema is in place: remember the file's identity and mark the database ``open``."""
        assert self.path is not None
        opened = sqlite_files.identity(self.path)
        if opened is None:  # pragma: no cover - deleted between the migration and now
            self.engine.dispose()
            raise StoreGone(f"the database file {self.path} is gone (deleted while it was opened)")
        try:
            guard = FileGuard(self.path, opened, note)
        except OSError as exc:
            self.engine.dispose()
            raise StoreError(f"cannot write the marker beside {self.path}: {exc}") from None
        self._guard = guard
        self._writer = SqliteWriter(self.path)
        # a store never closed still marks its close
        weakref.finalize(self, _release, guard, self.engine, self._writer)

    def file_problem(self) -> str | None:
        """SQLite file only: why the file at the store's path is no longer the one it opened (deleted,
        replaced by another file), or ``None``. Once seen, the store keeps refusing (:meth:`_gone`)."""
        guard = self._guard
        if guard is None:
            return None
        if guard.gone is None:
            found = sqlite_files.gone_or_replaced(guard.path, guard.opened)
            if found is not None:
                guard.gone = f"{found}: {GONE_ADVICE}"
        return guard.gone

    def _gone(self) -> None:
        """Refuse once the file was seen deleted or replaced: a write that went to the unlinked file must
        never come back through a read of it (a refused move would reappear)."""
        guard = self._guard
        if guard is not None and guard.gone is not None:
            raise StoreGone(guard.gone)

    def quick_check(self) -> str | None:
        """SQLite file only: ``PRAGMA quick_check`` on a read-only connection of its own (``GET /readyz``,
        at most every few seconds: it reads the whole file): ``None`` when it finds nothing, else what it
        found. Other databases: ``None``."""
        if not self.sqlite or self.path is None:
            return None
        self.damage_seen = False
        found = sqlite_files.quick_check(self.path)
        return (
            None
            if found is None
            else f"the database file {self._where} is damaged (PRAGMA quick_check: {found})"
        )

    @property
    def where(self) -> str:
        """Where the games are kept, for people: the SQLite file, or the URL without its password."""
        return self._where

    @classmethod
    def in_dir(cls, data_dir: Path, *, init: bool = False, accept_lost_wal: bool = False) -> Self:
        """The SQLite store of a data directory, created with the directory if needed (``init`` and
        ``accept_lost_wal``: as for the store itself, docs/storage.md "Storage faults")."""
        try:
            data_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create the data directory {data_dir}: {exc}") from None
        return cls(data_dir / DB_NAME, init=init, accept_lost_wal=accept_lost_wal)

    # -- transactions -------------------------------------------------------------------------------------
    @contextmanager
    def _write(self) -> Iterator[sa.Connection]:
        """A write transaction (committed at the end of the block, rolled back on any error).

        SQLite file: once committed, the path must still name the file the store opened, or the write
        went to a file nobody will read again: :class:`StoreGone`, so that nothing is acknowledged.
        """
        guard = self._guard
        if guard is not None:
            self._gone()
            if not guard.marked_open:
                guard.mark_open()  # the first write after close(): a crash from now on leaves the WAL
        with self.engine.connect() as conn:
            conn.execution_options(cuarenta_write=True)
            with conn.begin() as transaction:
                yield conn
                session = self._session(conn)
                try:
                    transaction.commit()
                except sa.exc.DBAPIError as exc:
                    if exc.connection_invalidated:  # lost while the database had the COMMIT
                        raise self._unknown(exc, "the commit", session) from None
                    raise
        if guard is not None and self.file_problem() is not None:
            self._gone()

    @contextmanager
    def _sqlite_write(self) -> Iterator[sqlite3.Connection]:
        """SQLite file only: a write transaction on the store's own ``sqlite3`` connection
        (:class:`~cuarenta.server.store.writer.SqliteWriter`: no SQLAlchemy around it), with the same file
        checks as :meth:`_write` before and after."""
        guard, writer = self._guard, self._writer
        assert guard is not None and writer is not None
        self._gone()
        if not guard.marked_open:
            guard.mark_open()  # the first write after close(): a crash from now on leaves the WAL
        with writer.transaction() as db:
            yield db
        if self.file_problem() is not None:
            self._gone()

    def _run_sqlite_write(self, what: str, write: Callable[[sqlite3.Connection], None]) -> None:
        """:meth:`_run_write` for a write on the store's own ``sqlite3`` connection (:meth:`_sqlite_write`);
        a store without one (SQLite in memory) runs it through the engine's connection."""
        try:
            if self._writer is None:
                with self._write() as conn:
                    write(cast(sqlite3.Connection, conn.connection.dbapi_connection))
            else:
                with self._sqlite_write() as db:
                    write(db)
        except StoreError:
            raise
        except (sa.exc.SQLAlchemyError, sqlite3.Error) as exc:
            raise self._write_failure(exc, what) from None

    @contextmanager
    def _read(self, what: str) -> Iterator[sa.Connection]:
        """A connection for reading; a failure is :class:`StoreCorrupt` (damaged file or row) or
        :class:`StoreError` (:func:`store_failure`), never the driver's own error."""
        self._gone()
        try:
            with self.engine.connect() as conn:
                yield conn
        except sa.exc.SQLAlchemyError as exc:
            failure = store_failure(exc, what)
            self.damage_seen = self.damage_seen or isinstance(failure, StoreCorrupt)
            raise failure from None
        except ValueError as exc:  # a stored value that does not read as its column's type
            raise StoreCorrupt(f"{what} failed: the database is damaged: {exc}") from None

    def migrate(self) -> None:
        """Make or upgrade the schema to :data:`~cuarenta.server.store.migrate.SCHEMA_REVISION`, in one
        transaction (:func:`cuarenta.server.store.migrate.migrate`)."""
        with self._write() as conn:
            migrate(conn, self._where)

    def schema_revision(self) -> str | None:
        """The Alembic revision of the database (:data:`SCHEMA_REVISION` once opened)."""
        with self.engine.connect() as conn:
            return MigrationContext.configure(conn).get_current_revision()

    def ping(self, timeout: float = PING_SECONDS) -> None:
        """Check that the database answers a trivial query (``SELECT 1``), or raise :class:`StoreError`
        saying why not (``GET /readyz``). On PostgreSQL the query may run ``timeout`` seconds at most; a
        SQLite file must still be the one the store opened (:class:`StoreGone`: a pooled connection to a
        deleted or replaced file would go on answering, and every write to it would be lost).
        """
        problem = self.file_problem()
        if problem is None and self.sqlite and self.path is not None and not self.path.exists():
            problem = f"the database file {self._where} is gone"
        if problem is not None:
            raise StoreGone(problem)
        try:
            with self.engine.connect() as conn:
                if self.url.get_backend_name() == "postgresql":
                    milliseconds = max(1, int(timeout * 1000))
                    conn.exec_driver_sql(f"SET LOCAL statement_timeout = {milliseconds}")
                conn.execute(sa.text("SELECT 1")).scalar_one()
        except sa.exc.SQLAlchemyError as exc:
            raise StoreError(
                f"the database {self._where} does not answer: {getattr(exc, 'orig', exc)}"
            ) from None

    def close(self) -> None:
        """Close the pooled connections (the next use opens new ones: a server restarted in-process).

        SQLite file: the WAL is checkpointed into the database first (``PRAGMA wal_checkpoint(TRUNCATE)``),
        and once SQLite has removed it (this was the last connection) the marker says ``closed``.
        """
        guard = self._guard
        if guard is None:
            self.engine.dispose()
            return
        if self._writer is not None:
            self._writer.close()  # its transactions are all committed: the checkpoint below sees them
        try:
            with self.engine.connect() as conn:
                conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
        except sa.exc.SQLAlchemyError as exc:
            log.warning("the checkpoint of %s at close failed: %s", self._where, getattr(exc, "orig", exc))
        _release(guard, self.engine, self._writer)

    def _run_write(self, what: str, write: Callable[[sa.Connection], None]) -> None:
        """Run ``write`` in one write transaction (:meth:`_write`); a failure is a :class:`StoreError`
        (:class:`StoreUnknown` when the connection was lost during the commit: it may have been made)."""
        try:
            with self._write() as conn:
                write(conn)
        except StoreUnknown as exc:
            raise StoreUnknown(f"{what}: {exc}") from None
        except StoreError:
            raise
        except (
            sa.exc.SQLAlchemyError,
            sqlite3.Error,
        ) as exc:  # sqlite3's own: statements sent to it directly
            raise self._write_failure(exc, what) from None

    def _run_statement(self, what: str, sql: str, params: dict[str, Any]) -> sa.Row[Any]:
        """PostgreSQL: one statement that is its own transaction (autocommit: no ``BEGIN`` and no
        ``COMMIT`` round trip; PostgreSQL applies a statement whole or not at all), and its one row of
        answer. A failure is a :class:`StoreError`, and nothing of the statement was applied — except
        :class:`StoreUnknown`: the connection was lost once the statement was sent, and the database may
        have run and committed it (a database frozen with the statement in its socket runs it when it
        wakes up)."""
        try:
            with self.engine.connect() as conn:
                conn = conn.execution_options(isolation_level="AUTOCOMMIT")
                session = self._session(conn)
                try:
                    return conn.exec_driver_sql(sql, params).one()
                except sa.exc.DBAPIError as exc:
                    if exc.connection_invalidated:
                        raise self._unknown(exc, what, session) from None
                    raise
        except sa.exc.SQLAlchemyError as exc:
            raise self._write_failure(exc, what) from None

    # -- a write whose outcome is unknown (PostgreSQL: the connection lost while the database had it) -------
    @staticmethod
    def _session(conn: sa.Connection) -> tuple[int, int] | None:
        """The database session of a connection in use (PostgreSQL through the bounded engine: read when
        the connection was made, :func:`~cuarenta.server.store.pgwatch.session_of`), else ``None``."""
        found = getattr(conn.connection.dbapi_connection, "cuarenta_session", None)
        return found if isinstance(found, tuple) else None

    def _unknown(self, exc: sa.exc.DBAPIError, what: str, session: tuple[int, int] | None) -> StoreUnknown:
        """The connection was lost while the database had a write (``what``): its outcome is unknown until
        its session has ended (:meth:`end_session`, the error's ``finish``) and the data is read."""
        return StoreUnknown(
            f"{what}: the connection to the database was lost while the database had the write, so it may "
            f"or may not have been made: {getattr(exc, 'orig', None) or exc}",
            finish=None if session is None else functools.partial(self.end_session, *session),
        )

    def end_session(self, pid: int, port: int, *, grace: float = END_GRACE_SECONDS) -> None:
        """Wait until the database session of backend ``pid`` and client port ``port`` (a connection lost
        while it had a write) runs no statement any more: it may finish on its own within ``grace``
        seconds (its write may commit: a database frozen with the statement in hand runs it when it wakes
        up), else it is ended (``pg_terminate_backend``: what it had not committed is rolled back). From
        then on the write's outcome is final, and a read of the data says it. :class:`StoreError` while
        the database does not answer, or if the session does not end within :data:`END_SECONDS`."""
        busy = (
            "SELECT 1 FROM pg_stat_activity WHERE pid = %(pid)s AND client_port = %(port)s"
            " AND state IS DISTINCT FROM 'idle'"
        )
        params = {"pid": pid, "port": port}
        try:
            with self.engine.connect() as conn:
                conn = conn.execution_options(isolation_level="AUTOCOMMIT")
                started = time.monotonic()
                ended = False
                while conn.exec_driver_sql(busy, params).first() is not None:
                    waited = time.monotonic() - started
                    if waited >= grace and not ended:
                        conn.exec_driver_sql(
                            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                            " WHERE pid = %(pid)s AND client_port = %(port)s",
                            params,
                        )
                        ended = True
                    if waited >= grace + END_SECONDS:
                        raise StoreError(f"the session {pid} of a lost write did not end: outcome unknown")
                    time.sleep(END_POLL_SECONDS)
        except sa.exc.SQLAlchemyError as exc:
            raise store_failure(exc, f"ending the session {pid} of a lost write") from None

    def _write_failure(self, exc: Exception, what: str) -> StoreError:
        if isinstance(exc, sa.exc.IntegrityError | sqlite3.IntegrityError):
            return StoreError(f"the database refused {what}: {getattr(exc, 'orig', None) or exc}")
        failure = store_failure(exc, what)
        self.damage_seen = self.damage_seen or isinstance(failure, StoreCorrupt)
        return failure


def _release(guard: FileGuard, engine: sa.Engine, writer: SqliteWriter | None) -> None:
    """Close a SQLite store's connections, its own writer's first, then mark the file closed
    (:meth:`FileGuard.release`)."""
    if writer is not None:
        writer.close()
    guard.release(engine)


__all__ = ["END_GRACE_SECONDS", "END_POLL_SECONDS", "END_SECONDS", "GONE_ADVICE", "PING_SECONDS", "Database"]
