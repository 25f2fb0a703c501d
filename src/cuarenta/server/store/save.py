"""The save of a room after a change (a move, a new mesa, a finished one): its counters updated, its
actions appended to the log and its finished mesas added, in one transaction — or nothing
(docs/storage.md "Writing"). With the version the writer read it is a compare-and-set
(:class:`~cuarenta.server.store.errors.StoreConflict`). Three forms: SQLite on the store's own
``sqlite3`` connection, PostgreSQL in one statement (:func:`pg_save`), and a transaction of several
statements for the rest. :func:`save_room` is a method of :class:`cuarenta.server.store.Store`.
"""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

import sqlalchemy as sa

from cuarenta.server.store.errors import StoreConflict, StoreError
from cuarenta.server.store.finished import finished_values
from cuarenta.server.store.rows import ActionRow, FinishedRow
from cuarenta.server.store.schema import FINISHED_COLUMNS, actions_table, finished_table, rooms_table

if TYPE_CHECKING:
    from cuarenta.server.store.database import Database


@dataclass(slots=True)
class RoomSave:
    """One save: the room, its new counters, the rows to append, and the version the writer read
    (``None``: no compare-and-set)."""

    room_id: str
    updated: str
    mesa: int
    state: int
    mesa_state: int
    status: str
    actions: Sequence[ActionRow] = ()
    finished: Sequence[FinishedRow] = ()
    version: int | None = None


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


def save_room(  # noqa: PLR0913 - the store port's signature (StorePort.save_room), every counter by name
    self: Database,
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

    On PostgreSQL a save without ``finished`` rows — every move — is one statement, its own
    transaction (:func:`pg_save`): one round trip.
    """
    save = RoomSave(room_id, updated, mesa, state, mesa_state, status, actions, finished, version)
    if self.sqlite:
        _save_room_sqlite(self, save)
    elif not finished and self.url.get_backend_name() == "postgresql":
        _save_room_pg(self, save)
    else:
        _save_room_tx(self, save)


#: SQLite: the statements of a save in the driver's own form (``?``), sent to ``sqlite3`` as they are.
SQLITE_UPDATE: Final = (
    "UPDATE rooms SET version = version + 1, updated = ?, mesa = ?, state = ?, mesa_state = ?, status = ?"
    " WHERE id = ?"
)
SQLITE_UPDATE_CAS: Final = SQLITE_UPDATE + " AND version = ?"
SQLITE_INSERT: Final = "INSERT INTO actions (room, mesa, seq, prev, action, at) VALUES (?, ?, ?, ?, ?, ?)"
SQLITE_VERSION: Final = "SELECT version FROM rooms WHERE id = ?"
SQLITE_INSERT_FINISHED: Final = (
    f"INSERT INTO finished ({', '.join(FINISHED_COLUMNS)})"
    f" VALUES ({', '.join(':' + name for name in FINISHED_COLUMNS)})"
)


def _save_room_sqlite(self: Database, save: RoomSave) -> None:
    """:func:`save_room` on SQLite: one transaction on the store's own ``sqlite3`` connection
    (:meth:`~cuarenta.server.store.database.Database._sqlite_write`: ``BEGIN IMMEDIATE``, the file checks),
    its statements given to it as they are — SQLAlchemy's statement handling, then its connection and
    transaction, were most of a move's write (docs/performance.md)."""

    room_id, version = save.room_id, save.version
    counters = (save.updated, save.mesa, save.state, save.mesa_state, save.status, room_id)

    def write(db: sqlite3.Connection) -> None:
        if version is None:
            changed = db.execute(SQLITE_UPDATE, counters)
        else:
            changed = db.execute(SQLITE_UPDATE_CAS, (*counters, version))
        if changed.rowcount != 1:
            found = db.execute(SQLITE_VERSION, (room_id,)).fetchone()
            if found is None:
                raise StoreError(f"there is no room {room_id!r} to save")
            raise StoreConflict(_conflict(room_id, int(found[0]), version))
        if save.actions:
            db.executemany(
                SQLITE_INSERT,
                [
                    (a.room, a.mesa, a.seq, a.seq - 1 if a.seq > 1 else None, a.action, a.at)
                    for a in save.actions
                ],
            )
        if save.finished:
            db.executemany(SQLITE_INSERT_FINISHED, [finished_values(f) for f in save.finished])

    self._run_sqlite_write(f"saving room {room_id}", write)


def _save_room_tx(self: Database, save: RoomSave) -> None:
    """:func:`save_room` as a transaction of several statements (PostgreSQL with finished rows; a database
    that is neither SQLite nor PostgreSQL)."""

    room_id, version, actions, finished = save.room_id, save.version, save.actions, save.finished

    def write(conn: sa.Connection) -> None:
        values = {
            "room_id": room_id,
            "new_updated": save.updated,
            "new_mesa": save.mesa,
            "new_state": save.state,
            "new_mesa_state": save.mesa_state,
            "new_status": save.status,
        }
        if version is None:
            changed = conn.execute(_UPDATE_ROOM_ANY, values)
        else:
            changed = conn.execute(_UPDATE_ROOM, {**values, "read": version})
        if changed.rowcount != 1:
            no_room(conn, room_id, version)
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
            conn.execute(finished_table.insert(), [finished_values(f) for f in finished])

    self._run_write(f"saving room {room_id}", write)


@functools.lru_cache(maxsize=32)
def pg_save(cas: bool, rows: int) -> str:
    """PostgreSQL: the text of :func:`save_room` as one statement, for ``rows`` action rows (built once per
    count; psycopg prepares it on the server after its first few uses).

    ``moved`` is the room's update (the compare-and-set when ``cas``); ``logged`` appends the action rows
    only if it matched; the answer says what happened: the new version (``NULL``: nothing matched), the
    rows appended, and the room's version as the statement found it (``NULL``: no such room). The log's
    constraints are checked at the end of the statement, so rows ``n`` and ``n + 1`` may come in one
    save, and a refused row undoes the whole statement, the room's update with it.

    >>> "version = %(read)s" in pg_save(True, 1), "INSERT" in pg_save(False, 0)
    (True, False)
    """
    where = "id = %(room)s AND version = %(read)s" if cas else "id = %(room)s"
    moved = (
        "moved AS (UPDATE rooms SET version = version + 1, updated = %(updated)s, mesa = %(mesa)s,"
        " state = %(state)s, mesa_state = %(mesa_state)s, status = %(status)s"
        f" WHERE {where} RETURNING version)"
    )
    answer = " (SELECT version FROM rooms WHERE id = %(room)s) AS found"
    if rows == 0:
        return f"WITH {moved} SELECT (SELECT version FROM moved) AS written, 0 AS logged,{answer}"
    values = ", ".join(
        f"(%(r{i})s, %(m{i})s::integer, %(s{i})s::integer, %(p{i})s::integer, %(a{i})s, %(t{i})s)"
        for i in range(rows)
    )
    return (
        f"WITH {moved}, logged AS (INSERT INTO actions (room, mesa, seq, prev, action, at)"
        f" SELECT v.* FROM (VALUES {values}) AS v(room, mesa, seq, prev, action, at)"
        " WHERE EXISTS (SELECT FROM moved) RETURNING 1)"
        f" SELECT (SELECT version FROM moved) AS written, (SELECT count(*) FROM logged) AS logged,{answer}"
    )


def _save_room_pg(self: Database, save: RoomSave) -> None:
    """:func:`save_room` on PostgreSQL without finished rows: one statement, one round trip."""
    room_id, version, actions = save.room_id, save.version, save.actions
    params: dict[str, Any] = {
        "room": room_id,
        "read": version,
        "updated": save.updated,
        "mesa": save.mesa,
        "state": save.state,
        "mesa_state": save.mesa_state,
        "status": save.status,
    }
    for i, a in enumerate(actions):
        params[f"r{i}"] = a.room
        params[f"m{i}"] = a.mesa
        params[f"s{i}"] = a.seq
        params[f"p{i}"] = a.seq - 1 if a.seq > 1 else None
        params[f"a{i}"] = a.action
        params[f"t{i}"] = a.at
    row = self._run_statement(f"saving room {room_id}", pg_save(version is not None, len(actions)), params)
    if row.written is not None:
        return
    if row.found is None:
        raise StoreError(f"there is no room {room_id!r} to save")
    raise StoreConflict(_conflict(room_id, int(row.found), version))


def _conflict(room_id: str, found: int, version: int | None) -> str:
    if found == version:  # a concurrent write committed while this one waited for the room's row
        return f"room {room_id} changed meanwhile (a concurrent write moved it past version {version})"
    return f"room {room_id} changed meanwhile (version {found}, the writer read {version})"


def no_room(conn: sa.Connection, room_id: str, version: int | None) -> None:
    """A room update matched no row: the room is missing, or (a compare-and-set) it has moved on."""
    now = conn.execute(sa.select(rooms_table.c.version).where(rooms_table.c.id == room_id)).first()
    if now is None:
        raise StoreError(f"there is no room {room_id!r} to save")
    raise StoreConflict(_conflict(room_id, int(now.version), version))


__all__ = ["RoomSave", "pg_save", "save_room"]
