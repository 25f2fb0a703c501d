"""SQLite only: the files beside the database, and the checks that keep the store from acknowledging what
it did not keep (docs/storage.md "Storage faults").

- **The marker** ``cuarenta.sqlite3.marker``, written when the store makes (or first finds) the database: it
  records that a database exists there, and whether the last store that used it closed it cleanly
  (``open`` while a store writes to it, ``closed`` after a clean close). A missing or empty database where
  the marker says one was made is a lost database, not a first run.
- **The WAL**: SQLite never removes ``cuarenta.sqlite3-wal`` after a crash, and the changes a crashed
  server acknowledged may be only there; a marker that says ``open`` beside a database without its WAL
  (or with an empty one: a read-only connection makes the file again) means the WAL was lost.
- **The file's identity** (``st_dev``, ``st_ino``) when the store opened it: a file deleted or replaced
  while the server runs is seen before a write is acknowledged.
- ``PRAGMA quick_check`` on a connection of its own, read-only (it never checkpoints or removes the WAL).

The functions here raise nothing of their own: they answer a problem's text (or ``None``), and the store
(:mod:`cuarenta.server.store.errors`) raises its errors.

>>> import tempfile, pathlib
>>> with tempfile.TemporaryDirectory() as d:
...     db = pathlib.Path(d) / "cuarenta.sqlite3"
...     first = start_problem(db)
...     _ = db.write_bytes(b"")
...     first, start_problem(db).kind
(None, 'empty')
"""

from __future__ import annotations

import contextlib
import datetime
import json
import os
import socket
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal

try:  # a shared lock on the marker while a store has the database open (not on Windows)
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

#: The marker's name is the database's with this added.
MARKER_SUFFIX: Final = ".marker"
#: The marker is one block of this many bytes (JSON padded with spaces), rewritten in place: a write of
#: one sector either happens or does not.
MARKER_BYTES: Final = 512
#: SQLite's own files beside the database.
WAL_SUFFIX: Final = "-wal"
SHM_SUFFIX: Final = "-shm"
#: SQLite's error codes of a damaged file (``database disk image is malformed``, ``file is not a database``).
CORRUPT_CODES: Final = frozenset({11, 26})
#: The most lines of ``PRAGMA quick_check`` a problem quotes.
QUICK_CHECK_LINES: Final = 3

Kind = Literal["missing", "empty", "damaged", "wal_lost"]


def utc_now() -> str:
    """The current UTC time as ``2026-12-01T06:05:32Z``."""
    return datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def marker_path(db: Path) -> Path:
    """The marker of a database: ``cuarenta.sqlite3.marker`` beside ``cuarenta.sqlite3``.

    >>> marker_path(Path("data/cuarenta.sqlite3")).name
    'cuarenta.sqlite3.marker'
    """
    return db.with_name(db.name + MARKER_SUFFIX)


def wal_path(db: Path) -> Path:
    """SQLite's write-ahead log beside the database."""
    return db.with_name(db.name + WAL_SUFFIX)


def shm_path(db: Path) -> Path:
    """SQLite's shared-memory index of the WAL beside the database."""
    return db.with_name(db.name + SHM_SUFFIX)


@dataclass(frozen=True)
class Marker:
    """What the marker says: when the database was made (or first found) here, whether it is ``open``
    (a store writes to it, or one did and did not close it cleanly) or ``closed``, and who changed that
    last. A marker that cannot be read says ``unknown`` (treated as ``open``).

    >>> Marker.from_bytes(Marker("2026-12-01T06:05:32Z", "closed").to_bytes()).state
    'closed'
    >>> Marker.from_bytes(b"garbage").state
    'unknown'
    """

    created: str
    state: Literal["open", "closed", "unknown"]
    changed: str = ""
    by: str = ""  #: "pid 123 on host"
    note: str = ""  #: how the database came to be: "made", "found", "restored from …", "made by --init"

    def to_bytes(self) -> bytes:
        text = json.dumps(
            {
                "format": 1,
                "what": "cuarenta: a database was made beside this file (docs/storage.md)",
                "created": self.created,
                "state": self.state,
                "changed": self.changed,
                "by": self.by,
                "note": self.note,
            },
            ensure_ascii=True,
        )
        data = text.encode("ascii")[: MARKER_BYTES - 1]
        return data.ljust(MARKER_BYTES - 1) + b"\n"

    @classmethod
    def from_bytes(cls, data: bytes) -> Marker:
        try:
            found = json.loads(data.decode("ascii"))
            state = found["state"]
            if state not in ("open", "closed"):
                raise ValueError(state)
            return cls(str(found["created"]), state, str(found.get("changed", "")), str(found.get("by", "")),
                       str(found.get("note", "")))  # fmt: skip
        except (ValueError, KeyError, TypeError, UnicodeDecodeError):
            return cls("an unknown time (the marker cannot be read)", "unknown")


def read_marker(db: Path) -> Marker | None:
    """The database's marker, or ``None`` when there is none."""
    try:
        return Marker.from_bytes(marker_path(db).read_bytes())
    except FileNotFoundError:
        return None


def _me() -> str:
    return f"pid {os.getpid()} on {socket.gethostname()}"


class MarkerFile:
    """The marker of a database a store has open: written in place (one block), with a shared lock held
    until :meth:`close` (so that ``cuarenta restore`` can tell that a store uses the database)."""

    def __init__(self, db: Path) -> None:
        self.path = marker_path(db)
        made = not self.path.exists()
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            if fcntl is not None:
                fcntl.flock(self.fd, fcntl.LOCK_SH)
            if made:
                _sync_dir(self.path.parent)
        except BaseException:
            os.close(self.fd)
            raise

    def read(self) -> Marker:
        return Marker.from_bytes(os.pread(self.fd, MARKER_BYTES, 0))

    def write(self, created: str, state: Literal["open", "closed"], note: str = "") -> None:
        os.pwrite(self.fd, Marker(created, state, utc_now(), _me(), note).to_bytes(), 0)
        os.ftruncate(self.fd, MARKER_BYTES)
        os.fsync(self.fd)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self.fd)  # the lock goes with it


def write_marker(db: Path, created: str, state: Literal["open", "closed"], note: str) -> None:
    """Write a database's marker (``cuarenta restore``: no store has it open)."""
    marker = MarkerFile(db)
    try:
        marker.write(created, state, note)
    finally:
        marker.close()


def in_use(db: Path) -> bool:
    """Whether a store (a running server, a script) holds the database's marker open: its shared lock
    stops an exclusive one. ``False`` where locks are not available (Windows) or there is no marker."""
    if fcntl is None:  # pragma: no cover - Windows
        return False
    try:
        fd = os.open(marker_path(db), os.O_RDONLY)
    except FileNotFoundError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False


def _sync_dir(folder: Path) -> None:
    """Make a new name in ``folder`` durable (POSIX; nothing to do elsewhere)."""
    with contextlib.suppress(OSError, AttributeError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def identity(db: Path) -> tuple[int, int] | None:
    """The file's (``st_dev``, ``st_ino``), or ``None`` when there is no file at the path."""
    try:
        st = os.stat(db)
    except FileNotFoundError:
        return None
    return st.st_dev, st.st_ino


def gone_or_replaced(db: Path, opened: tuple[int, int]) -> str | None:
    """Why the database file at ``db`` is no longer the one opened (``opened``), or ``None`` when it is.

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as d:
    ...     db = pathlib.Path(d) / "x"
    ...     _ = db.write_bytes(b"1")
    ...     opened = identity(db)
    ...     same = gone_or_replaced(db, opened)
    ...     db.unlink()
    ...     same, gone_or_replaced(db, opened).startswith("the database file")
    (None, True)
    """
    try:
        now = identity(db)
    except OSError as exc:
        return f"the database file {db} cannot be checked: {exc}"
    if now is None:
        return f"the database file {db} is gone (it was deleted while the server ran)"
    if now != opened:
        return f"the database file {db} was replaced by another file while the server ran"
    return None


def is_corrupt(exc: BaseException) -> bool:
    """Whether a driver error says the file or a row is damaged (not that it is busy, locked or gone).

    >>> is_corrupt(sqlite3.DatabaseError("database disk image is malformed"))
    True
    >>> is_corrupt(sqlite3.OperationalError("database is locked"))
    False
    """
    if getattr(exc, "sqlite_errorcode", None) in CORRUPT_CODES:
        return True
    text = str(exc)
    return any(
        words in text for words in ("disk image is malformed", "file is not a database", "Could not decode")
    )


def quick_check(db: Path) -> str | None:
    """``PRAGMA quick_check`` of the file, on a read-only connection of its own (it reads the WAL too,
    and never checkpoints or removes it): ``None`` when it says ``ok``, else what it found (its first
    lines, or the error that stopped it). Its cost grows with the file (it reads every page once)."""
    try:
        conn = sqlite3.connect(db.resolve().as_uri() + "?mode=ro", uri=True)
    except sqlite3.Error as exc:
        return f"it cannot be opened: {exc}"
    try:
        rows = [str(row[0]) for row in conn.execute("PRAGMA quick_check").fetchall()]
    except sqlite3.Error as exc:
        return str(exc)
    finally:
        conn.close()
    if rows == ["ok"]:
        return None
    lines = [line for row in rows for line in row.splitlines() if line and not line.startswith("***")]
    more = f" … ({len(lines) - QUICK_CHECK_LINES} more)" if len(lines) > QUICK_CHECK_LINES else ""
    return "; ".join(lines[:QUICK_CHECK_LINES]) + more


@dataclass(frozen=True)
class StartProblem:
    """Why a store must not open a database file as it is: ``missing`` (the marker says one was made),
    ``empty`` (0 bytes), ``damaged`` (not SQLite, or ``PRAGMA quick_check`` failed) or ``wal_lost`` (the
    marker says a store did not close it cleanly, and its WAL is not there); ``message`` is the sentence
    for people (how to go on included)."""

    kind: Kind
    message: str


def _ways(db: Path, afresh: str) -> str:
    return (
        f"restore a backup (cuarenta restore BACKUP --data {db.parent}, docs/storage.md) or start afresh "
        f"with --init ({afresh})"
    )


def start_problem(db: Path, *, accept_lost_wal: bool = False) -> StartProblem | None:
    """What is wrong with the database file ``db`` before a store opens it, or ``None``: a new database
    (no file, no marker) and a sound one are fine. ``accept_lost_wal`` lets a database whose WAL was lost
    open as it is (its other checks still apply)."""
    marker = read_marker(db)
    try:
        size = db.stat().st_size
    except FileNotFoundError:
        size = None
    try:  # a WAL that a read-only connection made again after the real one was lost is empty
        wal = wal_path(db).stat().st_size > 0
    except FileNotFoundError:
        wal = False
    made = f"the marker {marker_path(db).name} says one was made there on {marker.created}" if marker else ""
    if size is None:
        if marker is None:
            return None  # a first run
        return StartProblem(
            "missing", f"the database {db} is missing, but {made}: " + _ways(db, "a new, empty database")
        )
    if marker is not None and marker.state != "closed" and not wal and not accept_lost_wal:
        return StartProblem(
            "wal_lost",
            f"the database's write-ahead log {wal_path(db).name} is missing or empty, although the last "
            f"server that used {db} did not stop cleanly ({marker_path(db).name} says {marker.state!r}): "
            "moves it acknowledged may be lost, since they were only there; restore a backup (cuarenta "
            f"restore BACKUP --data {db.parent}, docs/storage.md), or start with --accept-lost-wal to go on "
            "with the database as it is",
        )
    if size == 0:
        what = f"the database {db} is empty (0 bytes)"
        return StartProblem(
            "empty",
            (f"{what}, but {made}: " if marker else f"{what}: it is not a cuarenta database; ")
            + _ways(db, "the empty file is moved aside"),
        )
    found = quick_check(db)
    if found is not None:
        return StartProblem(
            "damaged",
            f"{db} is not a usable cuarenta database: it is damaged (PRAGMA quick_check: {found}); "
            + _ways(db, f"the damaged file is moved aside to {db.name}.damaged-TIME, not deleted"),
        )
    return None


def move_aside(db: Path, label: str) -> Path | None:
    """Rename the database and its WAL and shared-memory files to ``NAME.LABEL-TIME`` (``-wal``, ``-shm``)
    beside it, never deleting them; the new path of the database (``None`` when only SQLite's own files
    were there, moved all the same: a stale WAL must never meet a new database)."""
    stamp = utc_now().replace("-", "").replace(":", "")
    target = db.with_name(f"{db.name}.{label}-{stamp}")
    n = 1
    while target.exists():  # pragma: no cover - twice in one second
        n += 1
        target = db.with_name(f"{db.name}.{label}-{stamp}-{n}")
    moved: Path | None = None
    for source, suffix in ((db, ""), (wal_path(db), WAL_SUFFIX), (shm_path(db), SHM_SUFFIX)):
        if source.exists():
            os.replace(source, target.with_name(target.name + suffix))
            if not suffix:
                moved = target
    _sync_dir(db.parent)
    return moved


__all__ = [
    "MARKER_SUFFIX",
    "Marker",
    "MarkerFile",
    "StartProblem",
    "gone_or_replaced",
    "identity",
    "in_use",
    "is_corrupt",
    "marker_path",
    "move_aside",
    "quick_check",
    "read_marker",
    "shm_path",
    "start_problem",
    "utc_now",
    "wal_path",
    "write_marker",
]
