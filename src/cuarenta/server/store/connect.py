"""Opening a database: the URL of a store, SQLite's engine and its file guard (the marker and the file's
identity, docs/storage.md "Storage faults"). PostgreSQL's engine is
:func:`~cuarenta.server.store.pgwatch.bounded_engine`.

>>> database_url("postgresql+psycopg://cuarenta@db.example/cuarenta").get_backend_name()
'postgresql'
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any, Final

import sqlalchemy as sa

from cuarenta.server.store import files as sqlite_files
from cuarenta.server.store.errors import StoreError

log = logging.getLogger("cuarenta.server")

#: The file name inside the data directory (the SQLite default).
DB_NAME: Final = "cuarenta.sqlite3"
#: The oldest SQLite library the migrations run on (``ALTER TABLE … DROP COLUMN``).
MIN_SQLITE: Final = (3, 35, 0)


#: What every SQLite connection of the store runs first: foreign keys enforced, the WAL, and ``NORMAL``
#: syncing (safe with the WAL: a crash loses no committed transaction, a power cut at most the last few).
SQLITE_PRAGMAS: Final = ("PRAGMA foreign_keys=ON", "PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL")


def configure_sqlite(dbapi_connection: Any) -> None:
    """Run :data:`SQLITE_PRAGMAS` on a new ``sqlite3`` connection (the engine's and the store's own
    writer's, :mod:`cuarenta.server.store.writer`)."""
    cursor = dbapi_connection.cursor()
    try:
        for pragma in SQLITE_PRAGMAS:
            cursor.execute(pragma)
    finally:
        cursor.close()


def sqlite_engine(url: sa.URL) -> sa.Engine:
    """SQLite only: an engine whose transactions really are transactions (DDL included), with WAL and
    foreign keys on every connection.

    Python's ``sqlite3`` driver opens a transaction only before INSERT/UPDATE/DELETE and never before DDL;
    here the driver's own transaction handling is off and SQLAlchemy sends ``BEGIN`` itself (the recipe of
    SQLAlchemy's SQLite documentation), so a migration is applied whole or not at all. SQLite enforces
    foreign keys only on connections that ask for it: every connection of the store does.
    """
    engine = sa.create_engine(url)

    @sa.event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # the driver sends no BEGIN; SQLAlchemy does (below)
        configure_sqlite(dbapi_connection)

    @sa.event.listens_for(engine, "begin")
    def _begin(conn: sa.Connection) -> None:
        # a write transaction takes the write lock at once: no "database is locked" half-way through
        mode = "IMMEDIATE" if conn.get_execution_options().get("cuarenta_write") else "DEFERRED"
        conn.exec_driver_sql(f"BEGIN {mode}")

    return engine


def sqlite_user_version(conn: sa.Connection) -> int:
    """SQLite only: ``PRAGMA user_version`` (the hand-written store's schema number)."""
    return int(conn.exec_driver_sql("PRAGMA user_version").scalar_one())


def database_url(target: str | Path) -> sa.URL:
    """The URL of a store: a URL as text, or the path of a SQLite file.

    >>> database_url(Path("/tmp/x.sqlite3")).render_as_string()
    'sqlite:////tmp/x.sqlite3'
    >>> database_url("postgresql+psycopg://cuarenta@db.example/cuarenta").get_backend_name()
    'postgresql'
    """
    if isinstance(target, Path):
        return sa.URL.create("sqlite", database=str(target))
    try:
        return sa.make_url(target)
    except sa.exc.ArgumentError as exc:
        raise StoreError(f"{target!r} is not a database URL (e.g. postgresql+psycopg://…): {exc}") from None


def sqlite_file(url: sa.URL) -> Path | None:
    """SQLite only: the file a URL names (``sqlite:///data/x.sqlite3``), or ``None`` (in memory, other
    databases)."""
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
        return None
    if url.database.startswith("file:"):
        return None
    return Path(url.database)


class FileGuard:
    """SQLite file only: the identity of the file a store opened, and its marker (open while the store
    writes; closed once a close leaves no WAL behind)."""

    def __init__(self, path: Path, opened: tuple[int, int], note: str) -> None:
        self.path = path
        self.opened = opened
        self.marker: sqlite_files.MarkerFile | None = None
        self.created = ""
        self.marked_open = False
        #: why the file is no longer the one opened, once seen (then the store refuses everything)
        self.gone: str | None = None
        found = sqlite_files.read_marker(path)
        self.created = sqlite_files.utc_now() if found is None or note == "made by --init" else found.created
        self.note = note if found is None or note == "made by --init" else found.note
        self.mark_open()

    def mark_open(self) -> None:
        if self.marker is None:
            self.marker = sqlite_files.MarkerFile(self.path)
        self.marker.write(self.created, "open", self.note)
        self.marked_open = True

    def release(self, engine: sa.Engine) -> None:
        """Close the engine's connections; the marker says ``closed`` when SQLite then removed the WAL
        (nobody else has the file open, and everything is in the database file) and the file is still
        the one opened."""
        engine.dispose()
        marker, self.marker = self.marker, None
        if marker is None:
            return
        try:
            if (
                self.marked_open
                and not sqlite_files.wal_path(self.path).exists()
                and sqlite_files.gone_or_replaced(self.path, self.opened) is None
            ):
                marker.write(self.created, "closed", self.note)
        except OSError as exc:  # pragma: no cover - a disk that refuses the marker
            log.warning("the marker of %s could not be written at close: %s", self.path, exc)
        finally:
            marker.close()
            self.marked_open = False


__all__ = [
    "DB_NAME",
    "MIN_SQLITE",
    "SQLITE_PRAGMAS",
    "FileGuard",
    "configure_sqlite",
    "database_url",
    "sqlite_engine",
    "sqlite_file",
    "sqlite_user_version",
]
