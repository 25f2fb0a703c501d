"""The store: persistence of rooms, seats, their action logs, finished mesas and profiles (SQLAlchemy Core,
Alembic migrations).

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
text and numbers, and the authority (:mod:`cuarenta.server.authority.rows`) replays the log with the
engine to resume a room (docs/storage.md).

The schema is made and upgraded by the Alembic migrations shipped in
``cuarenta/server/migrations`` (run when the store opens; no ``alembic.ini``).
A database written by the hand-written store of cuarenta 0.1 (``PRAGMA
user_version = 1``) is recognised, stamped as the baseline revision and
upgraded; one written by a newer cuarenta is refused rather than damaged.

The package's modules (docs/storage.md "The store's modules"):

- :mod:`~cuarenta.server.store.schema`: the tables; :mod:`~cuarenta.server.store.rows`: the rows;
- :mod:`~cuarenta.server.store.rooms`: rooms, seats and logs; :mod:`~cuarenta.server.store.save`: the
  compare-and-set save after every change (the write path);
- :mod:`~cuarenta.server.store.finished`: finished mesas, statistics;
- :mod:`~cuarenta.server.store.profiles`: profiles and ratings (a browser's statistics from its finished
  mesas are :func:`cuarenta.server.answers.history.stats_of`, shared with the device);
- :mod:`~cuarenta.server.store.database`: opening, transactions, faults;
  :mod:`~cuarenta.server.store.connect`: URLs, SQLite's engine and file guard;
  :mod:`~cuarenta.server.store.pgwatch`: PostgreSQL's bounded waits;
  :mod:`~cuarenta.server.store.files`: SQLite's marker and file checks;
- :mod:`~cuarenta.server.store.migrate` and ``migrations/``: the schema's revisions;
  :mod:`~cuarenta.server.store.backup`: ``cuarenta backup`` and ``restore``;
- :mod:`~cuarenta.server.store.errors`: the errors.

>>> import tempfile, pathlib
>>> with tempfile.TemporaryDirectory() as d:
...     store = Store.in_dir(pathlib.Path(d))
...     store.schema_revision() == SCHEMA_REVISION, store.load_room("nope")
...     store.close()
(True, None)
"""

from __future__ import annotations

from cuarenta.server.store import daily as _daily
from cuarenta.server.store import finished as _finished
from cuarenta.server.store import rooms as _rooms
from cuarenta.server.store import save as _save
from cuarenta.server.store.connect import DB_NAME, MIN_SQLITE, database_url
from cuarenta.server.store.database import GONE_ADVICE, PING_SECONDS, Database
from cuarenta.server.store.errors import (
    DatabaseDamaged,
    DatabaseEmpty,
    DatabaseMissing,
    StoreConflict,
    StoreCorrupt,
    StoreError,
    StoreGone,
    StoreUnknown,
    WalLost,
    store_failure,
    store_text,
    unavailable_text,
)
from cuarenta.server.store.migrate import (
    BASELINE_REVISION,
    LEGACY_USER_VERSION,
    MIGRATION_LOCK,
    MIGRATIONS_DIR,
    SCHEMA_REVISION,
    USER_VERSION,
    alembic_config,
)
from cuarenta.server.store.rows import ActionRow, FinishedRow, PlayingRow, RoomRow, SeatRow, dumps, hash_token
from cuarenta.server.store.schema import (
    actions_table,
    finished_table,
    legacy_table,
    metadata,
    rooms_table,
    seats_table,
)


class Store(Database):
    """The database of one server: a SQLite file (the default) or a PostgreSQL database by URL.

    Safe to share between threads: every method takes a connection from the engine's pool for its own
    transaction. ``target`` is a URL (text) or the path of a SQLite file; the schema is made or upgraded
    when the store opens (:meth:`migrate`). The queries are the functions of
    :mod:`~cuarenta.server.store.rooms`, :mod:`~cuarenta.server.store.save` and
    :mod:`~cuarenta.server.store.finished`, bound here as methods.
    """

    # rooms, seats and logs (the write path: insert_room, save_seats, save_room)
    insert_room = _rooms.insert_room
    save_seats = _rooms.save_seats
    save_room = _save.save_room
    room_exists = _rooms.room_exists
    load_room = _rooms.load_room
    waiting_table_rows = _rooms.waiting_table_rows
    load_actions = _rooms.load_actions
    room_versions = _rooms.room_versions
    legacy_game = _rooms.legacy_game
    seat_of_token = _rooms.seat_of_token
    token_seat = _rooms.token_seat
    former_token_seat = _rooms.former_token_seat
    rooms_of_tokens = _rooms.rooms_of_tokens
    # finished mesas
    finished_of_rooms = _finished.finished_of_rooms
    playing_of_rooms = _finished.playing_of_rooms
    finished_mesa = _finished.finished_mesa
    stats = _finished.stats
    # the deal of the day (docs/daily.md)
    daily_secret = _daily.daily_secret
    daily_rows = _daily.daily_rows
    add_daily_offline = _daily.add_daily_offline
    daily_offline_rows = _daily.daily_offline_rows


__all__ = [
    "BASELINE_REVISION",
    "DB_NAME",
    "GONE_ADVICE",
    "LEGACY_USER_VERSION",
    "MIGRATIONS_DIR",
    "MIGRATION_LOCK",
    "MIN_SQLITE",
    "PING_SECONDS",
    "SCHEMA_REVISION",
    "USER_VERSION",
    "ActionRow",
    "Database",
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
    "StoreUnknown",
    "WalLost",
    "actions_table",
    "alembic_config",
    "database_url",
    "dumps",
    "finished_table",
    "hash_token",
    "legacy_table",
    "metadata",
    "rooms_table",
    "seats_table",
    "store_failure",
    "store_text",
    "unavailable_text",
]
