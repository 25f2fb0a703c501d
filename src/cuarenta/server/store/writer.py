"""SQLite file: the store's own connection for the writes of a move (docs/performance.md "Issue 26: the
move's save on the store's own connection").

A move's save (:func:`cuarenta.server.store.save.save_room`) is the server's most frequent write, made on
the event loop. Through SQLAlchemy it cost about seven times its two statements (the pool's checkout, the
``begin`` event, the commit and the checkin); here it is a plain ``sqlite3`` connection held by the store,
one ``BEGIN IMMEDIATE`` … ``COMMIT`` around the statements, one lock so that threads take turns. The file
checks stay where :meth:`~cuarenta.server.store.database.Database._write` has them: a store whose file was
deleted or replaced refuses before writing, and a write that committed to a file no longer at its path is
refused after (:class:`~cuarenta.server.store.errors.StoreGone`: nothing is acknowledged).

>>> import tempfile, pathlib
>>> with tempfile.TemporaryDirectory() as d:
...     writer = SqliteWriter(pathlib.Path(d) / "x.sqlite3")
...     with writer.transaction() as db:
...         _ = db.execute("CREATE TABLE t (n INTEGER)")
...     with writer.transaction() as db:
...         db.execute("SELECT count(*) FROM t").fetchone()
...     writer.close()
(0,)
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Final

from cuarenta.server.store.connect import configure_sqlite

#: Seconds a write waits for SQLite's write lock held by another connection (``sqlite3``'s and
#: SQLAlchemy's default: the store's other connections wait as long).
BUSY_SECONDS: Final = 5.0


class SqliteWriter:
    """One ``sqlite3`` connection to a store's file for its hot writes, opened on first use (and again after
    :meth:`close`, or after a failure that may have left it unusable). Safe to share between threads: a
    transaction holds the writer's lock."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None

    def connection(self) -> sqlite3.Connection:
        """The writer's connection, opened if it is not (for a trace of what it runs: tests)."""
        with self._lock:
            return self._connection()

    def _connection(self) -> sqlite3.Connection:
        db = self._db
        if db is None:
            # isolation_level None: the driver sends no BEGIN of its own; the transaction is ours (below).
            db = sqlite3.connect(
                self.path, timeout=BUSY_SECONDS, isolation_level=None, check_same_thread=False
            )
            try:
                configure_sqlite(db)  # as every connection of the store
            except BaseException:
                db.close()
                raise
            self._db = db
        return db

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """``BEGIN IMMEDIATE`` (the write lock taken at once), the block, ``COMMIT``; rolled back on any
        error. A ``sqlite3`` failure other than a refused row closes the connection: the next write opens
        a new one (a damaged or replaced file is not written through a connection that saw it fail)."""
        with self._lock:
            db = self._connection()
            try:
                db.execute("BEGIN IMMEDIATE")
                yield db
                db.execute("COMMIT")
            except BaseException as exc:
                try:
                    if db.in_transaction:
                        db.execute("ROLLBACK")
                except sqlite3.Error:
                    self._drop()
                    raise exc from None
                if isinstance(exc, sqlite3.Error) and not isinstance(exc, sqlite3.IntegrityError):
                    self._drop()
                raise

    def _drop(self) -> None:
        db, self._db = self._db, None
        if db is not None:
            with contextlib.suppress(sqlite3.Error):  # closing a connection that failed
                db.close()

    def close(self) -> None:
        """Close the connection (before the store's others: the last one closed removes the WAL)."""
        with self._lock:
            self._drop()


__all__ = ["BUSY_SECONDS", "SqliteWriter"]
