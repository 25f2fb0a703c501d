"""SQLite persistence of rooms, seats and finished mesas (the stdlib :mod:`sqlite3`).

One file, ``DATA_DIR/cuarenta.sqlite3``. Its schema version is kept in
``PRAGMA user_version`` and upgraded step by step by :data:`MIGRATIONS`; a
file written by a newer version is refused rather than damaged. The store
knows nothing of the game: it keeps text (``Game.to_json()``, JSON options,
a record) and numbers, and :mod:`cuarenta.server.rooms` turns them into
objects. Tokens are kept only as SHA-256 hashes (:func:`hash_token`).

>>> import tempfile, pathlib
>>> with tempfile.TemporaryDirectory() as d:
...     store = Store(pathlib.Path(d) / "x.sqlite3")
...     store.schema_version(), store.load_room("nope")
...     store.close()
(1, None)
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

#: The file name inside the data directory.
DB_NAME: Final = "cuarenta.sqlite3"
#: The schema version this code writes.
SCHEMA_VERSION: Final = 1

#: SQL that takes the schema from version ``n - 1`` to version ``n``.
MIGRATIONS: Final[dict[int, tuple[str, ...]]] = {
    1: (
        """
        CREATE TABLE rooms (
            id TEXT PRIMARY KEY,
            created TEXT NOT NULL,
            updated TEXT NOT NULL,
            players INTEGER NOT NULL,
            level TEXT NOT NULL,
            rules TEXT NOT NULL,
            seed TEXT NOT NULL,
            mesa INTEGER NOT NULL,
            state INTEGER NOT NULL,
            status TEXT NOT NULL,
            game TEXT NOT NULL
        )
        """,
        """
        CREATE TABLE seats (
            room TEXT NOT NULL REFERENCES rooms(id),
            seat INTEGER NOT NULL,
            kind TEXT NOT NULL,
            name TEXT NOT NULL,
            level TEXT,
            token_hash TEXT,
            PRIMARY KEY (room, seat)
        )
        """,
        "CREATE INDEX seats_by_token ON seats(token_hash)",
        """
        CREATE TABLE finished (
            room TEXT NOT NULL REFERENCES rooms(id),
            mesa INTEGER NOT NULL,
            finished TEXT NOT NULL,
            level TEXT NOT NULL,
            players INTEGER NOT NULL,
            rules TEXT NOT NULL,
            seats TEXT NOT NULL,
            person_team INTEGER NOT NULL,
            winner INTEGER NOT NULL,
            chicas TEXT NOT NULL,
            chica_results TEXT NOT NULL,
            caidas INTEGER NOT NULL,
            limpias INTEGER NOT NULL,
            record TEXT NOT NULL,
            PRIMARY KEY (room, mesa)
        )
        """,
    ),
}


class StoreError(Exception):
    """The database cannot be opened or used; the message says why."""


def hash_token(token: str) -> str:
    """The stored form of a seat's secret token (tokens are long random strings, so a plain hash does)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class SeatRow:
    seat: int
    kind: str  #: "person" or "computer"
    name: str
    level: str | None  #: computer seats
    token_hash: str | None  #: person seats


@dataclass(frozen=True)
class RoomRow:
    """A room as stored: text and numbers only (decoded by the rooms module)."""

    id: str
    created: str
    updated: str
    players: int
    level: str
    rules: str  #: JSON of Rules.to_dict()
    seed: str  #: JSON of the room's seed (never sent to a browser)
    mesa: int  #: 1 for the first mesa
    state: int
    status: str
    game: str  #: Game.to_json() of the current mesa
    seats: tuple[SeatRow, ...]


@dataclass(frozen=True)
class FinishedRow:
    """A finished mesa, for the history, the statistics and the record download."""

    room: str
    mesa: int
    finished: str
    level: str
    players: int
    rules: str  #: JSON
    seats: str  #: JSON list of the public seat descriptions
    person_team: int
    winner: int
    chicas: str  #: JSON [team 0, team 1]
    chica_results: str  #: JSON list
    caidas: int
    limpias: int
    record: str  #: GameRecord text


class Store:
    """The SQLite database of one data directory. Safe to share between threads (one lock)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.RLock()
        self._conn: sqlite3.Connection | None = None
        self._open()

    def _open(self) -> sqlite3.Connection:
        try:
            conn = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the database {self.path}: {exc}") from None
        self._conn = conn
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
            self._migrate()
        except sqlite3.DatabaseError as exc:
            conn.close()
            self._conn = None
            raise StoreError(f"{self.path} is not a usable cuarenta database: {exc}") from None
        except BaseException:
            conn.close()
            self._conn = None
            raise
        return conn

    @property
    def _db(self) -> sqlite3.Connection:
        """The connection, opened again after :meth:`close` (a server restarted in the same process)."""
        return self._conn if self._conn is not None else self._open()

    @classmethod
    def in_dir(cls, data_dir: Path) -> Store:
        """The store of a data directory, created with the directory if needed."""
        try:
            data_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create the data directory {data_dir}: {exc}") from None
        return cls(data_dir / DB_NAME)

    def _migrate(self) -> None:
        with self._lock:
            version = self.schema_version()
            if version > SCHEMA_VERSION:
                raise StoreError(
                    f"{self.path} was written by a newer cuarenta (schema {version}; "
                    f"this version reads up to {SCHEMA_VERSION}): upgrade cuarenta or use another --data"
                )
            for step in range(version + 1, SCHEMA_VERSION + 1):
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    for sql in MIGRATIONS[step]:
                        self._db.execute(sql)
                    self._db.execute(f"PRAGMA user_version = {step}")
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
                self._db.execute("COMMIT")

    def schema_version(self) -> int:
        row = self._db.execute("PRAGMA user_version").fetchone()
        return int(row[0])

    def close(self) -> None:
        """Close the connection (the next use opens it again)."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    # -- rooms ---------------------------------------------------------------------------------------
    def insert_room(self, room: RoomRow) -> None:
        """Store a new room with its seats."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute(
                    "INSERT INTO rooms (id, created, updated, players, level, rules, seed, mesa, state, "
                    "status, game) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        room.id,
                        room.created,
                        room.updated,
                        room.players,
                        room.level,
                        room.rules,
                        room.seed,
                        room.mesa,
                        room.state,
                        room.status,
                        room.game,
                    ),
                )
                self._db.executemany(
                    "INSERT INTO seats (room, seat, kind, name, level, token_hash) VALUES (?, ?, ?, ?, ?, ?)",
                    [(room.id, s.seat, s.kind, s.name, s.level, s.token_hash) for s in room.seats],
                )
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def save_room(
        self,
        room_id: str,
        *,
        updated: str,
        mesa: int,
        state: int,
        status: str,
        game: str,
        finished: FinishedRow | None = None,
    ) -> None:
        """Write a room's current mesa (after every move), and a finished mesa's history row, at once."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute(
                    "UPDATE rooms SET updated = ?, mesa = ?, state = ?, status = ?, game = ? WHERE id = ?",
                    (updated, mesa, state, status, game, room_id),
                )
                if finished is not None:
                    f = finished
                    self._db.execute(
                        f"INSERT OR REPLACE INTO finished ({self._FINISHED_COLUMNS}) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (
                            f.room,
                            f.mesa,
                            f.finished,
                            f.level,
                            f.players,
                            f.rules,
                            f.seats,
                            f.person_team,
                            f.winner,
                            f.chicas,
                            f.chica_results,
                            f.caidas,
                            f.limpias,
                            f.record,
                        ),
                    )
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def load_room(self, room_id: str) -> RoomRow | None:
        """A stored room, or ``None`` if there is none with that id."""
        with self._lock:
            row = self._db.execute(
                "SELECT id, created, updated, players, level, rules, seed, mesa, state, status, game "
                "FROM rooms WHERE id = ?",
                (room_id,),
            ).fetchone()
            if row is None:
                return None
            seats = self._db.execute(
                "SELECT seat, kind, name, level, token_hash FROM seats WHERE room = ? ORDER BY seat",
                (room_id,),
            ).fetchall()
        rid, created, updated, players, level, rules, seed, mesa, state, status, game = row
        return RoomRow(
            id=rid,
            created=created,
            updated=updated,
            players=players,
            level=level,
            rules=rules,
            seed=seed,
            mesa=mesa,
            state=state,
            status=status,
            game=game,
            seats=tuple(SeatRow(*s) for s in seats),
        )

    def seat_of_token(self, room_id: str, token_hash: str) -> int | None:
        """The seat whose token has this hash in the room, or ``None``."""
        with self._lock:
            row = self._db.execute(
                "SELECT seat FROM seats WHERE room = ? AND token_hash = ?", (room_id, token_hash)
            ).fetchone()
        return None if row is None else int(row[0])

    def rooms_of_tokens(self, token_hashes: Iterable[str]) -> list[tuple[str, int]]:
        """(room, seat) of every seat whose token hash is given."""
        hashes = sorted(set(token_hashes))
        if not hashes:
            return []
        marks = ",".join("?" * len(hashes))
        with self._lock:
            rows = self._db.execute(
                f"SELECT room, seat FROM seats WHERE token_hash IN ({marks}) ORDER BY room, seat", hashes
            ).fetchall()
        return [(str(r), int(s)) for r, s in rows]

    # -- finished mesas ------------------------------------------------------------------------------
    _FINISHED_COLUMNS: Final = (
        "room, mesa, finished, level, players, rules, seats, person_team, winner, chicas, chica_results, "
        "caidas, limpias, record"
    )

    def finished_of_rooms(self, room_ids: Sequence[str]) -> list[FinishedRow]:
        """The finished mesas of some rooms, newest first."""
        ids = sorted(set(room_ids))
        if not ids:
            return []
        marks = ",".join("?" * len(ids))
        with self._lock:
            rows = self._db.execute(
                f"SELECT {self._FINISHED_COLUMNS} FROM finished WHERE room IN ({marks}) "
                "ORDER BY finished DESC, room, mesa DESC",
                ids,
            ).fetchall()
        return [FinishedRow(*r) for r in rows]

    def finished_mesa(self, room_id: str, mesa: int) -> FinishedRow | None:
        with self._lock:
            row = self._db.execute(
                f"SELECT {self._FINISHED_COLUMNS} FROM finished WHERE room = ? AND mesa = ?", (room_id, mesa)
            ).fetchone()
        return None if row is None else FinishedRow(*row)

    def stats(self) -> dict[str, dict[str, int]]:
        """Per level: finished mesas played, won by the person's team, and that team's caídas and limpias."""
        with self._lock:
            rows = self._db.execute(
                "SELECT level, COUNT(*), SUM(winner = person_team), SUM(caidas), SUM(limpias) "
                "FROM finished GROUP BY level ORDER BY level"
            ).fetchall()
        return {
            str(level): {"played": int(n), "won": int(won), "caidas": int(c), "limpias": int(li)}
            for level, n, won, c, li in rows
        }


def dumps(value: Any) -> str:
    """Compact JSON for a column."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
