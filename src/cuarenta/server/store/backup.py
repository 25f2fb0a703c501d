"""Backup and restore of the SQLite store (``cuarenta backup``, ``cuarenta restore``; docs/storage.md
"Backup and restore").

A backup is SQLite's online backup (:meth:`sqlite3.Connection.backup`) of the database, read on a read-only
connection: one consistent snapshot, taken while a server runs (readers never stop its writes in WAL
mode) and without touching the database's WAL. The copy is one self-contained file (rollback journal, no
WAL), checked with ``PRAGMA quick_check`` before it is given its name.

A restore checks the backup (``quick_check``, a cuarenta schema this version knows), refuses while a store
has the data directory's database open (the marker's lock, :func:`cuarenta.server.store.files.in_use`)
and, without ``force``, refuses to replace a sound database; whatever it replaces is moved aside, never
deleted. The marker then says the database was restored (and closed), so the next start opens it.

>>> import pathlib, tempfile
>>> from cuarenta.server.store import Store
>>> with tempfile.TemporaryDirectory() as d:
...     Store.in_dir(pathlib.Path(d, "data")).close()
...     made = backup(pathlib.Path(d, "data", DB_NAME), pathlib.Path(d, "copy.sqlite3"))
...     put = restore(pathlib.Path(d, "copy.sqlite3"), pathlib.Path(d, "fresh"))
...     made.rooms, made.revision == SCHEMA_REVISION, put.path.name, put.moved_aside
(0, True, 'cuarenta.sqlite3', None)
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from alembic.script import ScriptDirectory
from alembic.util.exc import CommandError

from cuarenta.server.store import (
    DB_NAME,
    LEGACY_USER_VERSION,
    SCHEMA_REVISION,
    StoreError,
    alembic_config,
)
from cuarenta.server.store import files as sqlite_files

#: What the commands say about a PostgreSQL database: its own tools do it (docs/storage.md).
POSTGRES_BACKUP: Final = (
    "a PostgreSQL database is backed up with its own tool, while the servers run: "
    "pg_dump --format=custom --file BACKUP.dump URL (and restored with pg_restore; docs/storage.md)"
)


class BackupError(StoreError):
    """A backup or restore that was refused or failed; nothing was changed. The message says why."""


@dataclass(frozen=True)
class Copied:
    """A backup made, or restored: where it is, the schema revision it has, and how many rooms it holds."""

    path: Path
    revision: str
    rooms: int
    size: int
    moved_aside: Path | None = None  #: restore: the database that was there before, kept under this name


def _read_only(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True)


def _revision(conn: sqlite3.Connection, what: Path) -> str:
    """The cuarenta schema revision of an open database, or :class:`BackupError` if it is not one this
    version can open."""
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "alembic_version" in tables:
        found = conn.execute("SELECT version_num FROM alembic_version").fetchone()
        revision = "" if found is None else str(found[0])
        try:
            ScriptDirectory.from_config(alembic_config()).get_revision(revision)
        except CommandError:
            raise BackupError(
                f"{what} was written by a newer cuarenta (schema revision {revision!r}; this version knows "
                f"up to {SCHEMA_REVISION}): restore it with that version"
            ) from None
        return revision
    if int(conn.execute("PRAGMA user_version").fetchone()[0]) == LEGACY_USER_VERSION and "rooms" in tables:
        return "v1"  # cuarenta 0.1's store: upgraded when a server opens it
    raise BackupError(f"{what} is not a cuarenta database (no cuarenta schema in it)")


def _rooms(conn: sqlite3.Connection) -> int:
    return int(conn.execute("SELECT count(*) FROM rooms").fetchone()[0])


def _checked(conn: sqlite3.Connection, what: Path) -> tuple[str, int]:
    """``quick_check``, the revision and the rooms of an open database (:class:`BackupError`)."""
    try:
        rows = [str(row[0]) for row in conn.execute("PRAGMA quick_check").fetchall()]
        if rows != ["ok"]:
            found = "; ".join(rows[:3]).replace("\n", " ")
            raise BackupError(
                f"{what} is not a usable cuarenta database: it is damaged (PRAGMA quick_check: {found})"
            )
        revision = _revision(conn, what)
        return revision, _rooms(conn)
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{what} is not a usable cuarenta database: it is damaged ({exc})") from None


def _copy(source: Path, target: Path) -> tuple[str, int]:
    """SQLite's online backup of ``source`` (read-only) into the new file ``target``, checked, on disk;
    ``target`` does not exist when this fails."""
    try:
        src = _read_only(source)
    except sqlite3.Error as exc:
        raise BackupError(f"cannot open {source}: {exc}") from None
    try:
        dst = sqlite3.connect(target)
        try:
            try:
                src.backup(dst)
            except sqlite3.DatabaseError as exc:
                raise BackupError(
                    f"{source} is not a usable cuarenta database: it is damaged ({exc})"
                ) from None
            dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
            found = _checked(dst, source)
        finally:
            dst.close()
        fd = os.open(target, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        return found
    except BaseException:
        for leftover in (target, sqlite_files.wal_path(target), sqlite_files.shm_path(target)):
            with contextlib.suppress(OSError):
                leftover.unlink()
        raise
    finally:
        src.close()


def backup(db: Path, out: Path, *, force: bool = False) -> Copied:
    """Copy the database ``db`` to the new file ``out`` (SQLite's online backup, safe while a server runs);
    ``force`` replaces an existing ``out``. :class:`BackupError` says why not; a failed backup leaves
    nothing behind."""
    if not db.is_file() or db.stat().st_size == 0:
        raise BackupError(f"there is no database to back up at {db}")
    if out.exists() and not force:
        raise BackupError(f"{out} exists already: give another name, or --force to replace it")
    if out.is_dir():
        raise BackupError(f"{out} is a folder: give the name of the backup file")
    if not out.parent.is_dir():
        raise BackupError(f"the folder {out.parent} does not exist")
    partial = out.with_name(f"{out.name}.partial-{os.getpid()}")
    revision, rooms = _copy(db, partial)
    os.replace(partial, out)
    return Copied(out, revision, rooms, out.stat().st_size)


def restore(source: Path, data_dir: Path, *, force: bool = False) -> Copied:
    """Make the backup ``source`` the database of ``data_dir`` (``DATA_DIR/cuarenta.sqlite3``).

    Refused (:class:`BackupError`, nothing changed) when the backup is not a sound cuarenta database of a
    schema this version knows, when a store has the data directory's database open (a running server:
    stop it first), or when a sound database is there and ``force`` is not given. A database that is
    there is moved aside (``cuarenta.sqlite3.replaced-TIME``), never deleted; the marker says the
    database was restored.
    """
    if not source.is_file() or source.stat().st_size == 0:
        raise BackupError(f"there is no backup at {source}")
    try:
        conn = _read_only(source)
    except sqlite3.Error as exc:
        raise BackupError(f"cannot open {source}: {exc}") from None
    try:
        _checked(conn, source)
    finally:
        conn.close()
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BackupError(f"cannot create the data directory {data_dir}: {exc}") from None
    target = data_dir / DB_NAME
    if sqlite_files.in_use(target):
        raise BackupError(
            f"{target} is open in a running cuarenta (a server, or a script): stop it, then restore"
        )
    there = target.is_file() and target.stat().st_size > 0
    if there and not force and sqlite_files.quick_check(target) is None:
        raise BackupError(
            f"{target} holds a database already: give --force to move it aside "
            f"({target.name}.replaced-TIME, not deleted) and restore the backup in its place"
        )
    partial = data_dir / f"{DB_NAME}.restoring-{os.getpid()}"
    revision, rooms = _copy(source, partial)
    try:
        moved = sqlite_files.move_aside(target, "replaced")
    except OSError as exc:
        partial.unlink(missing_ok=True)
        raise BackupError(f"cannot move {target} aside: {exc}") from None
    os.replace(partial, target)
    now = sqlite_files.utc_now()
    sqlite_files.write_marker(target, now, "closed", f"restored from {source.name} on {now}")
    return Copied(target, revision, rooms, target.stat().st_size, moved)


__all__ = ["POSTGRES_BACKUP", "BackupError", "Copied", "backup", "restore"]
