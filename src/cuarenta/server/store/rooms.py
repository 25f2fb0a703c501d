"""Rooms, their seats and their action logs: a new room, its seats' changes, and the queries
(docs/storage.md "The action log"); the save after every change is :mod:`~cuarenta.server.store.save`.
Each function takes the store first and is a method of :class:`cuarenta.server.store.Store`
(``store.insert_room(...)``).

>>> import tempfile, pathlib
>>> from cuarenta.server.store import ActionRow, Store
>>> with tempfile.TemporaryDirectory() as d:
...     store = Store.in_dir(pathlib.Path(d))
...     store.insert_room(RoomRow("r1", "t", "t", 2, "facil", "{}", "1", 1, 0, "playing",
...                               (SeatRow(0, "person", "Ana", None, "h"),)))
...     store.save_room("r1", updated="t", mesa=1, state=1, mesa_state=0, status="playing",
...                     actions=[ActionRow("r1", 1, 1, "7h", "t")], version=0)
...     store.load_actions("r1", 1), store.room_versions(["r1"])
...     store.close()
([(1, '7h')], {'r1': 1})
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from cuarenta.server.store.rows import RoomRow, SeatRow
from cuarenta.server.store.save import no_room
from cuarenta.server.store.schema import (
    actions_table,
    legacy_table,
    rooms_table,
    seats_table,
)

if TYPE_CHECKING:
    from cuarenta.server.store.database import Database


def insert_room(self: Database, room: RoomRow) -> None:
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
                    "code_hash": s.code_hash,
                    "former_hash": s.former_hash,
                    "former": s.former,
                    "vacant": s.vacant,
                }
                for s in room.seats
            ],
        )

    self._run_write(f"storing room {room.id}", write)


def save_seats(  # noqa: PLR0913 - the store port's signature (StorePort.save_seats), every field by name
    self: Database,
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
    table_options: str | None = None,
) -> None:
    """A table's seats changed (someone joined or left, a seat became a computer player) or it
    started: write every seat, ``started`` and the room's counters, in one transaction, or nothing
    (:class:`StoreError`). With ``version`` (the room's version the writer read) the write is a
    compare-and-set: :class:`StoreConflict` if the room has changed since (the version goes up by one
    on every write). ``seed`` (JSON, as :class:`RoomRow`'s) replaces the room's seed: a table is dealt
    when it starts; ``table_options`` (JSON) its options (a championship table paused by its judge)."""

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
        if table_options is not None:
            values["table_options"] = table_options
        changed = conn.execute(rooms_table.update().where(*where).values(**values))
        if changed.rowcount != 1:
            no_room(conn, room_id, version)
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
                    code_hash=seat.code_hash,
                    former_hash=seat.former_hash,
                    former=seat.former,
                    vacant=seat.vacant,
                )
            )

    self._run_write(f"saving the seats of room {room_id}", write)


def room_exists(self: Database, room_id: str) -> bool:
    with self._read(f"reading room {room_id}") as conn:
        found = conn.execute(sa.select(rooms_table.c.id).where(rooms_table.c.id == room_id)).first()
        return found is not None


def load_room(self: Database, room_id: str) -> RoomRow | None:
    """A stored room with its seats (not its log), or ``None`` if there is none with that id."""
    rows = _load_rooms(self, rooms_table.c.id == room_id)
    return rows[0] if rows else None


def waiting_table_rows(self: Database, limit: int) -> list[RoomRow]:
    """The tables listed in the lobby that have not started, newest first (at most ``limit``), with
    their seats: two queries, whatever ``limit`` (a waiting table has no log)."""
    r = rooms_table.c
    return _load_rooms(
        self,
        sa.and_(r.started == sa.false(), r.table_options.is_not(None)),
        order=r.created.desc(),
        limit=limit,
    )


def _load_rooms(
    self: Database, where: sa.ColumnElement[bool], order: Any = None, limit: int | None = None
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
            sa.select(
                s.room,
                s.seat,
                s.kind,
                s.name,
                s.level,
                s.token_hash,
                s.profile,
                s.left,
                s.code_hash,
                s.former_hash,
                s.former,
                s.vacant,
            )
            .where(s.room.in_(list(seats)))
            .order_by(s.room, s.seat)
        ).all():
            seats[seat.room].append(
                SeatRow(
                    *seat[1:7],
                    bool(seat.left),
                    seat.code_hash,
                    seat.former_hash,
                    seat.former,
                    bool(seat.vacant),
                )
            )
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


def load_actions(self: Database, room_id: str, mesa: int, after: int = 0) -> list[tuple[int, str]]:
    """The log of one mesa of a room: ``(seq, action)`` in order (those after ``seq`` ``after``)."""
    a = actions_table.c
    with self._read(f"reading the log of room {room_id}") as conn:
        rows = conn.execute(
            sa.select(a.seq, a.action).where(a.room == room_id, a.mesa == mesa, a.seq > after).order_by(a.seq)
        ).all()
        return [(int(seq), str(action)) for seq, action in rows]


def room_versions(self: Database, room_ids: Sequence[str]) -> dict[str, int]:
    """The stored version of each room of ``room_ids`` that exists (one query)."""
    ids = sorted(set(room_ids))
    if not ids:
        return {}
    r = rooms_table.c
    with self._read("reading room versions") as conn:
        rows = conn.execute(sa.select(r.id, r.version).where(r.id.in_(ids))).all()
        return {str(room_id): int(version) for room_id, version in rows}


def legacy_game(self: Database, room_id: str) -> str | None:
    """The saved game of a room that a migration could not turn into a log (kept, never dropped)."""
    with self._read(f"reading the saved game of room {room_id}") as conn:
        found = conn.execute(
            sa.select(legacy_table.c.game).where(legacy_table.c.room == room_id)
        ).scalar_one_or_none()
        return None if found is None else str(found)


def seat_of_token(self: Database, room_id: str, token_hash: str) -> int | None:
    """The seat whose token has this hash in the room, or ``None``."""
    found = token_seat(self, room_id, token_hash)
    return None if found is None else found[0]


def token_seat(self: Database, room_id: str, token_hash: str) -> tuple[int, bool] | None:
    """The seat whose token has this hash in the room and whether its person left the table for good
    (the token then only says so), or ``None``."""
    s = seats_table.c
    with self._read(f"reading the seats of room {room_id}") as conn:
        row = conn.execute(
            sa.select(s.seat, s.left).where(s.room == room_id, s.token_hash == token_hash)
        ).first()
        return None if row is None else (int(row.seat), bool(row.left))


def former_token_seat(self: Database, room_id: str, token_hash: str) -> tuple[int, str] | None:
    """The seat whose last replaced token has this hash in the room and why it was replaced
    (``reclaimed`` or ``handed``: docs/tables.md "Taking a seat back"), or ``None``."""
    s = seats_table.c
    with self._read(f"reading the seats of room {room_id}") as conn:
        row = conn.execute(
            sa.select(s.seat, s.former).where(s.room == room_id, s.former_hash == token_hash)
        ).first()
        return None if row is None else (int(row.seat), str(row.former or "reclaimed"))


def rooms_of_tokens(
    self: Database, token_hashes: Iterable[str], *, left: bool = True
) -> list[tuple[str, int]]:
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


__all__ = [
    "former_token_seat",
    "insert_room",
    "legacy_game",
    "load_actions",
    "load_room",
    "room_exists",
    "room_versions",
    "rooms_of_tokens",
    "save_seats",
    "seat_of_token",
    "token_seat",
    "waiting_table_rows",
]
