"""Finished mesas and the rooms still in play: the history, the statistics and the record download read
these (docs/storage.md "Finished mesas and practice rooms"). Each function takes the store first and is a
method of :class:`cuarenta.server.store.Store`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from cuarenta.server.store.rows import FinishedRow, PlayingRow
from cuarenta.server.store.schema import FINISHED_COLUMNS, finished_table, rooms_table

if TYPE_CHECKING:
    from cuarenta.server.store.database import Database


def finished_of_rooms(self: Database, room_ids: Sequence[str]) -> list[FinishedRow]:
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
        return [finished_row(r) for r in rows]


def playing_of_rooms(self: Database, room_ids: Sequence[str]) -> list[PlayingRow]:
    """The rooms among ``room_ids`` whose current mesa is in play, most recently changed first."""
    ids = sorted(set(room_ids))
    if not ids:
        return []
    r = rooms_table.c
    with self._read("reading rooms in play") as conn:
        rows = conn.execute(
            sa.select(r.id, r.created, r.updated, r.players, r.level, r.rules, r.mesa, r.state, r.mesa_state)
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


def finished_mesa(self: Database, room_id: str, mesa: int) -> FinishedRow | None:
    f = finished_table.c
    with self._read(f"reading mesa {mesa} of room {room_id}") as conn:
        row = conn.execute(sa.select(finished_table).where(f.room == room_id, f.mesa == mesa)).first()
        return None if row is None else finished_row(row)


def stats(self: Database) -> dict[str, dict[str, int]]:
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


def finished_values(f: FinishedRow) -> dict[str, Any]:
    return {name: getattr(f, name) for name in FINISHED_COLUMNS}


def finished_row(row: sa.Row[Any]) -> FinishedRow:
    values = row._mapping
    return FinishedRow(**{name: values[name] for name in FINISHED_COLUMNS})


__all__ = [
    "finished_mesa",
    "finished_of_rooms",
    "finished_row",
    "finished_values",
    "playing_of_rooms",
    "stats",
]
