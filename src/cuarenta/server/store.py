"""Persistence of rooms, seats, their action logs and finished mesas (SQLAlchemy Core, Alembic migrations).

The store takes a database URL. The default is one SQLite file,
``DATA_DIR/cuarenta.sqlite3`` (:meth:`Store.in_dir`); PostgreSQL works by URL
(``postgresql+psycopg://user@host/db``, with the ``psycopg`` driver installed).
Everything here is portable SQLAlchemy Core; what only SQLite needs is in the
functions marked *SQLite only* (connection pragmas, transaction handling, and
the schema number kept in ``PRAGMA user_version`` for older versions of cuarenta).

A room is stored as

- a row of ``rooms``: rules, seed (secret), mesa number, state counter, the
  state counter when the mesa began (``mesa_state``), status, ``practice``;
- its ``seats`` (tokens kept only as SHA-256 hashes, :func:`hash_token`);
- an append-only log, ``actions``: one row per action of a mesa, numbered
  ``seq`` = 1, 2 … in the engine's notation. Each row names the previous one
  (``prev``, a composite foreign key to the same mesa's row ``seq - 1``, with a
  CHECK that ``prev = seq - 1``), so the database itself refuses a duplicate
  (the primary key) and an out-of-order write (no row ``seq - 1`` yet);
- once a mesa is over, a row of ``finished`` with the project's record
  (:meth:`cuarenta.GameRecord.to_text`), for the history, the statistics and
  the record download.

A move appends one row and updates the room's counters: its cost does not
depend on the length of the mesa. The store knows nothing of the game: it keeps
text and numbers, and :mod:`cuarenta.server.rooms` replays the log with the
engine to resume a room (docs/storage.md).

The schema is made and upgraded by the Alembic migrations shipped in
``cuarenta/server/migrations`` (run when the store opens; no ``alembic.ini``).
A database written by the hand-written store of cuarenta 0.1 (``PRAGMA
user_version = 1``) is recognised, stamped as the baseline revision and
upgraded; one written by a newer cuarenta is refused rather than damaged.

>>> import tempfile, pathlib
>>> with tempfile.TemporaryDirectory() as d:
...     store = Store.in_dir(pathlib.Path(d))
...     store.schema_revision() == SCHEMA_REVISION, store.load_room("nope")
...     store.close()
(True, None)
"""

from __future__ import annotations

import logging
import sqlite3
import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util.exc import CommandError

from cuarenta.server import sqlite_files
from cuarenta.server.authority.ports import (
    ActionRow,
    FinishedRow,
    RoomRow,
    SeatRow,
    StoreConflict,
    StoreCorrupt,
    StoreError,
    dumps,
    hash_token,
)
from cuarenta.server.pgwatch import bounded_engine
from cuarenta.server.sqlite_files import is_corrupt

log = logging.getLogger("cuarenta.server")

#: The file name inside the data directory (the SQLite default).
DB_NAME: Final = "cuarenta.sqlite3"
#: The Alembic revision this code writes (the newest migration).
SCHEMA_REVISION: Final = "0006"
#: The revision that stands for the hand-written store's schema (``PRAGMA user_version = 1``).
BASELINE_REVISION: Final = "0001"
#: SQLite only: the ``user_version`` of the hand-written store, and the one written since the action
#: log (the hand-written store refuses a file whose number is higher than its own, so an older cuarenta
#: says "written by a newer cuarenta" instead of failing on a missing column).
LEGACY_USER_VERSION: Final = 1
USER_VERSION: Final = 2
#: The oldest SQLite library the migrations run on (``ALTER TABLE … DROP COLUMN``).
MIN_SQLITE: Final = (3, 35, 0)
#: PostgreSQL only: the advisory lock that makes concurrent migrations of one database take turns.
MIGRATION_LOCK: Final = 0x63756172  # "cuar"
#: Where the migrations are (shipped inside the package).
MIGRATIONS_DIR: Final = Path(__file__).resolve().parent / "migrations"
#: What a store whose SQLite file was deleted or replaced says after why (it refuses from then on).
GONE_ADVICE: Final = "nothing more can be stored or read until it is restored and the server restarts"
#: The longest :meth:`Store.ping` lets its query run on PostgreSQL, in seconds.
PING_SECONDS: Final = 2.0


class StoreGone(StoreError):
    """The SQLite file was deleted or replaced while the store had it open: a write went to a file nobody
    will read again, so it is refused (not acknowledged)."""


class DatabaseMissing(StoreError):
    """At start: the SQLite file is missing, but its marker says a database was made there."""


class DatabaseEmpty(StoreError):
    """At start: the SQLite file is empty (0 bytes)."""


class DatabaseDamaged(StoreCorrupt):
    """At start: the SQLite file is not SQLite, or ``PRAGMA quick_check`` found damage."""


class WalLost(StoreError):
    """At start: the last store did not close the database cleanly and its write-ahead log is missing
    (moves it acknowledged may be lost)."""


#: The error each problem of :func:`cuarenta.server.sqlite_files.start_problem` raises.
_START_ERRORS: Final[dict[str, type[StoreError]]] = {
    "missing": DatabaseMissing,
    "empty": DatabaseEmpty,
    "damaged": DatabaseDamaged,
    "wal_lost": WalLost,
}


def store_failure(exc: sa.exc.SQLAlchemyError, what: str) -> StoreError:
    """The store's error for a failed database call: :class:`StoreCorrupt` when the driver says the file
    or a row is damaged, else :class:`StoreError` (busy, locked, unreachable …). The message names
    ``what`` was being done and the driver's own words (never the SQL or its parameters).

    >>> damaged = sqlite3.DatabaseError("database disk image is malformed")
    >>> store_failure(sa.exc.DatabaseError("SELECT …", {}, damaged), "reading room r1")
    StoreCorrupt('reading room r1 failed: the database is damaged: database disk image is malformed')
    """
    orig = getattr(exc, "orig", None) or exc
    if is_corrupt(orig):
        return StoreCorrupt(f"{what} failed: the database is damaged: {orig}")
    return StoreError(f"{what} failed: {orig}")


def store_text(exc: BaseException) -> str:
    """A store's failure in words: a :class:`StoreError`'s message, or the driver's own (never the SQL or
    its parameters)."""
    if isinstance(exc, StoreError):
        return str(exc)
    return str(getattr(exc, "orig", None) or type(exc).__name__)


def unavailable_text(exc: BaseException) -> str:
    """The sentence of an HTTP 503 or a socket's ``store_unavailable`` error when the store fails
    (docs/protocol.md).

    >>> unavailable_text(StoreError("disk I/O error"))
    "the games' database cannot be used just now, so nothing was done (try again later): disk I/O error"
    """
    why = store_text(exc)
    return f"the games' database cannot be used just now, so nothing was done (try again later): {why}"


# -- the schema the code reads and writes (made by the migrations; a test compares the two) -----------------
metadata: Final = sa.MetaData()

rooms_table: Final = sa.Table(
    "rooms",
    metadata,
    sa.Column("id", sa.Text, primary_key=True),
    sa.Column("created", sa.Text, nullable=False),
    sa.Column("updated", sa.Text, nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("level", sa.Text, nullable=False),
    sa.Column("rules", sa.Text, nullable=False),
    sa.Column("seed", sa.Text, nullable=False),
    sa.Column("mesa", sa.Integer, nullable=False),
    sa.Column("state", sa.Integer, nullable=False),
    sa.Column("status", sa.Text, nullable=False),
    sa.Column("practice", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("mesa_state", sa.Integer, nullable=False, server_default=sa.text("0")),
    sa.Column("table_options", sa.Text),
    sa.Column("started", sa.Boolean, nullable=False, server_default=sa.true()),
    sa.Column("version", sa.Integer, nullable=False, server_default=sa.text("0")),
)

seats_table: Final = sa.Table(
    "seats",
    metadata,
    sa.Column("room", sa.Text, sa.ForeignKey("rooms.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.Text, nullable=False),
    sa.Column("name", sa.Text, nullable=False),
    sa.Column("level", sa.Text),
    sa.Column("token_hash", sa.Text),
    sa.Column("profile", sa.Text),
    sa.Column("left", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Index("seats_by_token", "token_hash"),
)

finished_table: Final = sa.Table(
    "finished",
    metadata,
    sa.Column("room", sa.Text, sa.ForeignKey("rooms.id"), primary_key=True),
    sa.Column("mesa", sa.Integer, primary_key=True),
    sa.Column("finished", sa.Text, nullable=False),
    sa.Column("level", sa.Text, nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("rules", sa.Text, nullable=False),
    sa.Column("seats", sa.Text, nullable=False),
    sa.Column("person_team", sa.Integer, nullable=False),
    sa.Column("winner", sa.Integer, nullable=False),
    sa.Column("chicas", sa.Text, nullable=False),
    sa.Column("chica_results", sa.Text, nullable=False),
    sa.Column("caidas", sa.Integer, nullable=False),
    sa.Column("limpias", sa.Integer, nullable=False),
    sa.Column("record", sa.Text, nullable=False),
    sa.Column("practice", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("team_counts", sa.Text),
)

actions_table: Final = sa.Table(
    "actions",
    metadata,
    sa.Column("room", sa.Text, sa.ForeignKey("rooms.id"), primary_key=True),
    sa.Column("mesa", sa.Integer, primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("prev", sa.Integer),
    sa.Column("action", sa.Text, nullable=False),
    sa.Column("at", sa.Text, nullable=False),
    sa.ForeignKeyConstraint(
        ["room", "mesa", "prev"], ["actions.room", "actions.mesa", "actions.seq"], name="actions_in_order"
    ),
    sa.CheckConstraint("(seq = 1 AND prev IS NULL) OR (seq > 1 AND prev = seq - 1)", name="actions_prev"),
)

legacy_table: Final = sa.Table(
    "legacy_games",
    metadata,
    sa.Column("room", sa.Text, sa.ForeignKey("rooms.id"), primary_key=True),
    sa.Column("game", sa.Text, nullable=False),
    sa.Column("problem", sa.Text, nullable=False),
)


# -- rows -------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class PlayingRow:
    """A room whose current mesa is still in play, for the history's list of unfinished games."""

    room: str
    created: str
    updated: str  #: the last change (a move, a new mesa)
    players: int
    level: str
    rules: str  #: JSON
    mesa: int
    moves: int  #: actions played in the current mesa
    practice: bool = False


_FINISHED_COLUMNS: Final = tuple(c.name for c in finished_table.columns)


#: The statement of every save, built once (SQLAlchemy then reuses its compiled form).
def _update_room(*where: sa.ColumnElement[bool]) -> sa.Update:
    """A room's counters after a change; the version goes up by one."""
    return (
        rooms_table.update()
        .where(rooms_table.c.id == sa.bindparam("room_id"), *where)
        .values(
            version=rooms_table.c.version + 1,
            updated=sa.bindparam("new_updated"),
            mesa=sa.bindparam("new_mesa"),
            state=sa.bindparam("new_state"),
            mesa_state=sa.bindparam("new_mesa_state"),
            status=sa.bindparam("new_status"),
        )
    )


#: The statements of every save, built once (SQLAlchemy then reuses their compiled form): the
#: compare-and-set (the version the writer read) and the unconditional one.
_UPDATE_ROOM: Final = _update_room(rooms_table.c.version == sa.bindparam("read"))
_UPDATE_ROOM_ANY: Final = _update_room()


# -- SQLite only ---------------------------------------------------------------------------------------------
def _sqlite_engine(url: sa.URL) -> sa.Engine:
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
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
        finally:
            cursor.close()

    @sa.event.listens_for(engine, "begin")
    def _begin(conn: sa.Connection) -> None:
        # a write transaction takes the write lock at once: no "database is locked" half-way through
        mode = "IMMEDIATE" if conn.get_execution_options().get("cuarenta_write") else "DEFERRED"
        conn.exec_driver_sql(f"BEGIN {mode}")

    return engine


def _sqlite_user_version(conn: sa.Connection) -> int:
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


def alembic_config(connection: sa.Connection | None = None) -> Config:
    """Alembic's configuration for the shipped migrations, built in code (no ``alembic.ini``).

    With a ``connection``, the migrations run on it, inside its transaction.
    """
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def _sqlite_file(url: sa.URL) -> Path | None:
    """SQLite only: the file a URL names (``sqlite:///data/x.sqlite3``), or ``None`` (in memory, other
    databases)."""
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
        return None
    if url.database.startswith("file:"):
        return None
    return Path(url.database)


class _FileGuard:
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


class Store:
    """The database of one server: a SQLite file (the default) or a PostgreSQL database by URL.

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
        self.path: Path | None = Path(target) if isinstance(target, Path) else _sqlite_file(self.url)
        where = str(target) if isinstance(target, Path) else self.url.render_as_string(hide_password=True)
        self._where = where
        #: SQLite file only: its marker and identity (docs/storage.md "Storage faults")
        self._guard: _FileGuard | None = None
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
                self.engine = _sqlite_engine(self.url)
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
            guard = _FileGuard(self.path, opened, note)
        except OSError as exc:
            self.engine.dispose()
            raise StoreError(f"cannot write the marker beside {self.path}: {exc}") from None
        self._guard = guard
        weakref.finalize(self, guard.release, self.engine)  # a store never closed still marks its close

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
    def in_dir(cls, data_dir: Path, *, init: bool = False, accept_lost_wal: bool = False) -> Store:
        """The SQLite store of a data directory, created with the directory if needed (``init`` and
        ``accept_lost_wal``: as for the store itself, docs/storage.md "Storage faults")."""
        try:
            data_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create the data directory {data_dir}: {exc}") from None
        return cls(data_dir / DB_NAME, init=init, accept_lost_wal=accept_lost_wal)

    # -- the schema ---------------------------------------------------------------------------------------
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
            with conn.begin():
                yield conn
        if guard is not None and self.file_problem() is not None:
            self._gone()

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
        """Make or upgrade the schema to :data:`SCHEMA_REVISION`, in one transaction.

        - an empty database gets every migration;
        - a file of the hand-written store (SQLite, ``user_version`` 1, no ``alembic_version``) is stamped
          as :data:`BASELINE_REVISION`, then upgraded (its saved games become action logs);
        - a database of a newer cuarenta (a revision this version does not know, or a higher
          ``user_version``) is refused with :class:`StoreError` and left untouched.
        """
        script = ScriptDirectory.from_config(alembic_config())
        with self._write() as conn:
            if self.url.get_backend_name() == "postgresql":
                # the processes of a cluster start together: one migrates, the others wait, then find the
                # schema at its revision (the lock is the transaction's)
                conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
            tables = set(sa.inspect(conn).get_table_names())
            user_version = _sqlite_user_version(conn) if self.sqlite else 0
            if "alembic_version" in tables:
                current = MigrationContext.configure(conn).get_current_revision()
                if current is not None:
                    try:
                        script.get_revision(current)
                    except CommandError:
                        raise StoreError(
                            f"{self._where} was written by a newer cuarenta (schema revision {current}; "
                            f"this version knows up to {SCHEMA_REVISION}): upgrade cuarenta or use "
                            "another database"
                        ) from None
                baseline = False
            elif user_version > LEGACY_USER_VERSION:
                raise StoreError(
                    f"{self._where} was written by a newer cuarenta (schema {user_version}; this version "
                    f"reads up to {USER_VERSION}): upgrade cuarenta or use another database"
                )
            elif user_version == LEGACY_USER_VERSION and "rooms" in tables:
                baseline = True
            elif tables:
                raise StoreError(
                    f"{self._where} is not a usable cuarenta database: it has tables "
                    f"({', '.join(sorted(tables))}) but no cuarenta schema version"
                )
            else:
                baseline = False
            config = alembic_config(conn)
            if baseline:
                command.stamp(config, BASELINE_REVISION)
            command.upgrade(config, "head")
            if self.sqlite:
                conn.exec_driver_sql(f"PRAGMA user_version = {USER_VERSION}")

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
        try:
            with self.engine.connect() as conn:
                conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
        except sa.exc.SQLAlchemyError as exc:
            log.warning("the checkpoint of %s at close failed: %s", self._where, getattr(exc, "orig", exc))
        guard.release(self.engine)

    # -- rooms ---------------------------------------------------------------------------------------------
    def insert_room(self, room: RoomRow) -> None:
        """Store a new room with its seats (its log is empty)."""

        def write(conn: sa.Connection) -> None:
            conn.execute(
                rooms_table.insert(),
                {
                    "id": room.id,
                    "created": room.created,
                    "updated": room.updated,
                    "players": room.players,
                    "level": room.level,
                    "rules": room.rules,
                    "seed": room.seed,
                    "mesa": room.mesa,
                    "state": room.state,
                    "status": room.status,
                    "practice": room.practice,
                    "mesa_state": room.mesa_state,
                    "table_options": room.table_options,
                    "started": room.started,
                    "version": room.version,
                },
            )
            conn.execute(
                seats_table.insert(),
                [
                    {
                        "room": room.id,
                        "seat": s.seat,
                        "kind": s.kind,
                        "name": s.name,
                        "level": s.level,
                        "token_hash": s.token_hash,
                        "profile": s.profile,
                        "left": s.left,
                    }
                    for s in room.seats
                ],
            )

        self._run_write(f"storing room {room.id}", write)

    def save_seats(
        self,
        room_id: str,
        *,
        updated: str,
        started: bool,
        status: str,
        state: int,
        mesa_state: int,
        seats: Sequence[SeatRow],
        version: int | None = None,
        seed: str | None = None,
    ) -> None:
        """A table's seats changed (someone joined or left, a seat became a computer player) or it
        started: write every seat, ``started`` and the room's counters, in one transaction, or nothing
        (:class:`StoreError`). With ``version`` (the room's version the writer read) the write is a
        compare-and-set: :class:`StoreConflict` if the room has changed since (the version goes up by one
        on every write). ``seed`` (JSON, as :class:`RoomRow`'s) replaces the room's seed: a table is dealt
        when it starts."""

        def write(conn: sa.Connection) -> None:
            r = rooms_table.c
            where = [r.id == room_id] if version is None else [r.id == room_id, r.version == version]
            values: dict[str, Any] = {
                "version": r.version + 1,
                "updated": updated,
                "started": started,
                "status": status,
                "state": state,
                "mesa_state": mesa_state,
            }
            if seed is not None:
                values["seed"] = seed
            changed = conn.execute(rooms_table.update().where(*where).values(**values))
            if changed.rowcount != 1:
                self._no_room(conn, room_id, version)
            c = seats_table.c
            for seat in seats:
                conn.execute(
                    seats_table.update()
                    .where(c.room == room_id, c.seat == seat.seat)
                    .values(
                        kind=seat.kind,
                        name=seat.name,
                        level=seat.level,
                        token_hash=seat.token_hash,
                        profile=seat.profile,
                        left=seat.left,
                    )
                )

        self._run_write(f"saving the seats of room {room_id}", write)

    def save_room(
        self,
        room_id: str,
        *,
        updated: str,
        mesa: int,
        state: int,
        mesa_state: int,
        status: str,
        actions: Sequence[ActionRow] = (),
        finished: Sequence[FinishedRow] = (),
        version: int | None = None,
    ) -> None:
        """After a change: append ``actions`` to the log, update the room's counters and add the rows of
        ``finished`` mesas — all in one transaction, or nothing (:class:`StoreError`).

        A move appends one row: the cost does not grow with the mesa. The database refuses an action row
        that repeats a ``seq`` or skips one. With ``version`` (the room's version the writer read) the
        write is a compare-and-set, checked before anything is appended: :class:`StoreConflict` if another
        writer changed the room first.
        """

        def write(conn: sa.Connection) -> None:
            values = {
                "room_id": room_id,
                "new_updated": updated,
                "new_mesa": mesa,
                "new_state": state,
                "new_mesa_state": mesa_state,
                "new_status": status,
            }
            if version is None:
                changed = conn.execute(_UPDATE_ROOM_ANY, values)
            else:
                changed = conn.execute(_UPDATE_ROOM, {**values, "read": version})
            if changed.rowcount != 1:
                self._no_room(conn, room_id, version)
            if actions:
                conn.execute(
                    actions_table.insert(),
                    [
                        {
                            "room": a.room,
                            "mesa": a.mesa,
                            "seq": a.seq,
                            "prev": a.seq - 1 if a.seq > 1 else None,
                            "action": a.action,
                            "at": a.at,
                        }
                        for a in actions
                    ],
                )
            if finished:
                conn.execute(finished_table.insert(), [_finished_values(f) for f in finished])

        self._run_write(f"saving room {room_id}", write)

    @staticmethod
    def _no_room(conn: sa.Connection, room_id: str, version: int | None) -> None:
        """A room update matched no row: the room is missing, or (a compare-and-set) it has moved on."""
        now = conn.execute(sa.select(rooms_table.c.version).where(rooms_table.c.id == room_id)).first()
        if now is None:
            raise StoreError(f"there is no room {room_id!r} to save")
        raise StoreConflict(
            f"room {room_id} changed meanwhile (version {now.version}, the writer read {version})"
        )

    def _run_write(self, what: str, write: Callable[[sa.Connection], None]) -> None:
        try:
            with self._write() as conn:
                write(conn)
        except StoreError:
            raise
        except sa.exc.IntegrityError as exc:
            raise StoreError(f"the database refused {what}: {exc.orig}") from None
        except sa.exc.SQLAlchemyError as exc:
            failure = store_failure(exc, what)
            self.damage_seen = self.damage_seen or isinstance(failure, StoreCorrupt)
            raise failure from None

    def room_exists(self, room_id: str) -> bool:
        with self._read(f"reading room {room_id}") as conn:
            found = conn.execute(sa.select(rooms_table.c.id).where(rooms_table.c.id == room_id)).first()
            return found is not None

    def load_room(self, room_id: str) -> RoomRow | None:
        """A stored room with its seats (not its log), or ``None`` if there is none with that id."""
        rows = self._load_rooms(rooms_table.c.id == room_id)
        return rows[0] if rows else None

    def waiting_table_rows(self, limit: int) -> list[RoomRow]:
        """The tables listed in the lobby that have not started, newest first (at most ``limit``), with
        their seats: two queries, whatever ``limit`` (a waiting table has no log)."""
        r = rooms_table.c
        return self._load_rooms(
            sa.and_(r.started == sa.false(), r.table_options.is_not(None)),
            order=r.created.desc(),
            limit=limit,
        )

    def _load_rooms(
        self, where: sa.ColumnElement[bool], order: Any = None, limit: int | None = None
    ) -> list[RoomRow]:
        r, s, lg = rooms_table.c, seats_table.c, legacy_table.c
        query = (
            sa.select(
                r.id,
                r.created,
                r.updated,
                r.players,
                r.level,
                r.rules,
                r.seed,
                r.mesa,
                r.state,
                r.status,
                r.practice,
                r.mesa_state,
                r.table_options,
                r.started,
                r.version,
                lg.problem,
            )
            .select_from(rooms_table.outerjoin(legacy_table, lg.room == r.id))
            .where(where)
        )
        if order is not None:
            query = query.order_by(order)
        if limit is not None:
            query = query.limit(limit)
        with self._read("reading rooms") as conn:
            rows = conn.execute(query).all()
            if not rows:
                return []
            seats: dict[str, list[SeatRow]] = {row.id: [] for row in rows}
            for seat in conn.execute(
                sa.select(s.room, s.seat, s.kind, s.name, s.level, s.token_hash, s.profile, s.left)
                .where(s.room.in_(list(seats)))
                .order_by(s.room, s.seat)
            ).all():
                seats[seat.room].append(SeatRow(*seat[1:7], bool(seat.left)))
            return [
                RoomRow(
                    id=row.id,
                    created=row.created,
                    updated=row.updated,
                    players=row.players,
                    level=row.level,
                    rules=row.rules,
                    seed=row.seed,
                    mesa=row.mesa,
                    state=row.state,
                    status=row.status,
                    practice=bool(row.practice),
                    mesa_state=row.mesa_state,
                    problem=row.problem,
                    table_options=row.table_options,
                    started=bool(row.started),
                    version=int(row.version),
                    seats=tuple(seats[row.id]),
                )
                for row in rows
            ]

    def load_actions(self, room_id: str, mesa: int, after: int = 0) -> list[tuple[int, str]]:
        """The log of one mesa of a room: ``(seq, action)`` in order (those after ``seq`` ``after``)."""
        a = actions_table.c
        with self._read(f"reading the log of room {room_id}") as conn:
            rows = conn.execute(
                sa.select(a.seq, a.action)
                .where(a.room == room_id, a.mesa == mesa, a.seq > after)
                .order_by(a.seq)
            ).all()
            return [(int(seq), str(action)) for seq, action in rows]

    def room_versions(self, room_ids: Sequence[str]) -> dict[str, int]:
        """The stored version of each room of ``room_ids`` that exists (one query)."""
        ids = sorted(set(room_ids))
        if not ids:
            return {}
        r = rooms_table.c
        with self._read("reading room versions") as conn:
            rows = conn.execute(sa.select(r.id, r.version).where(r.id.in_(ids))).all()
            return {str(room_id): int(version) for room_id, version in rows}

    def legacy_game(self, room_id: str) -> str | None:
        """The saved game of a room that a migration could not turn into a log (kept, never dropped)."""
        with self._read(f"reading the saved game of room {room_id}") as conn:
            found = conn.execute(
                sa.select(legacy_table.c.game).where(legacy_table.c.room == room_id)
            ).scalar_one_or_none()
            return None if found is None else str(found)

    def seat_of_token(self, room_id: str, token_hash: str) -> int | None:
        """The seat whose token has this hash in the room, or ``None``."""
        found = self.token_seat(room_id, token_hash)
        return None if found is None else found[0]

    def token_seat(self, room_id: str, token_hash: str) -> tuple[int, bool] | None:
        """The seat whose token has this hash in the room and whether its person left the table for good
        (the token then only says so), or ``None``."""
        s = seats_table.c
        with self._read(f"reading the seats of room {room_id}") as conn:
            row = conn.execute(
                sa.select(s.seat, s.left).where(s.room == room_id, s.token_hash == token_hash)
            ).first()
            return None if row is None else (int(row.seat), bool(row.left))

    def rooms_of_tokens(self, token_hashes: Iterable[str], *, left: bool = True) -> list[tuple[str, int]]:
        """(room, seat) of every seat whose token hash is given (``left=False``: not the seats whose person
        left the table for good)."""
        hashes = sorted(set(token_hashes))
        if not hashes:
            return []
        s = seats_table.c
        query = sa.select(s.room, s.seat).where(s.token_hash.in_(hashes))
        if not left:
            query = query.where(s.left == sa.false())
        with self._read("reading the seats of tokens") as conn:
            rows = conn.execute(query.order_by(s.room, s.seat)).all()
            return [(str(r), int(seat)) for r, seat in rows]

    # -- finished mesas ----------------------------------------------------------------------------------
    def finished_of_rooms(self, room_ids: Sequence[str]) -> list[FinishedRow]:
        """The finished mesas of some rooms, newest first."""
        ids = sorted(set(room_ids))
        if not ids:
            return []
        f = finished_table.c
        with self._read("reading finished mesas") as conn:
            rows = conn.execute(
                sa.select(finished_table)
                .where(f.room.in_(ids))
                .order_by(f.finished.desc(), f.room, f.mesa.desc())
            ).all()
            return [_finished_row(r) for r in rows]

    def playing_of_rooms(self, room_ids: Sequence[str]) -> list[PlayingRow]:
        """The rooms among ``room_ids`` whose current mesa is in play, most recently changed first."""
        ids = sorted(set(room_ids))
        if not ids:
            return []
        r = rooms_table.c
        with self._read("reading rooms in play") as conn:
            rows = conn.execute(
                sa.select(
                    r.id, r.created, r.updated, r.players, r.level, r.rules, r.mesa, r.state, r.mesa_state
                )
                .add_columns(r.practice)
                .where(r.id.in_(ids), r.status == "playing")
                .order_by(r.updated.desc(), r.id)
            ).all()
            return [
                PlayingRow(
                    room=str(row.id),
                    created=str(row.created),
                    updated=str(row.updated),
                    players=int(row.players),
                    level=str(row.level),
                    rules=str(row.rules),
                    mesa=int(row.mesa),
                    moves=max(0, int(row.state) - int(row.mesa_state)),
                    practice=bool(row.practice),
                )
                for row in rows
            ]

    def finished_mesa(self, room_id: str, mesa: int) -> FinishedRow | None:
        f = finished_table.c
        with self._read(f"reading mesa {mesa} of room {room_id}") as conn:
            row = conn.execute(sa.select(finished_table).where(f.room == room_id, f.mesa == mesa)).first()
            return None if row is None else _finished_row(row)

    def stats(self) -> dict[str, dict[str, int]]:
        """Per level: finished mesas played, won by the person's team, and that team's caídas and limpias.

        Practice mesas are not counted.
        """
        f = finished_table.c
        won = sa.func.sum(sa.case((f.winner == f.person_team, 1), else_=0))
        with self._read("reading the statistics") as conn:
            rows = conn.execute(
                sa.select(f.level, sa.func.count(), won, sa.func.sum(f.caidas), sa.func.sum(f.limpias))
                .where(f.practice == sa.false())
                .group_by(f.level)
                .order_by(f.level)
            ).all()
            return {
                str(level): {"played": int(n), "won": int(w), "caidas": int(c), "limpias": int(li)}
                for level, n, w, c, li in rows
            }


def _finished_values(f: FinishedRow) -> dict[str, Any]:
    return {name: getattr(f, name) for name in _FINISHED_COLUMNS}


def _finished_row(row: sa.Row[Any]) -> FinishedRow:
    values = row._mapping
    return FinishedRow(**{name: values[name] for name in _FINISHED_COLUMNS})


__all__ = [
    "BASELINE_REVISION",
    "DB_NAME",
    "SCHEMA_REVISION",
    "ActionRow",
    "DatabaseDamaged",
    "DatabaseEmpty",
    "DatabaseMissing",
    "FinishedRow",
    "PlayingRow",
    "RoomRow",
    "SeatRow",
    "Store",
    "StoreConflict",
    "StoreCorrupt",
    "StoreError",
    "StoreGone",
    "WalLost",
    "alembic_config",
    "database_url",
    "dumps",
    "hash_token",
    "store_failure",
    "store_text",
    "unavailable_text",
]
