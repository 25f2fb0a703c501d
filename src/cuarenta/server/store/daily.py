"""The deal of the day in the store (docs/daily.md): the secret the days' seeds are derived from, and the
day's finished chicas, found by the day's seed (the index ``rooms_by_seed``). Each function takes the
store first and is a method of :class:`cuarenta.server.store.Store`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING

import sqlalchemy as sa

from cuarenta.server.store.errors import StoreError
from cuarenta.server.store.schema import finished_table, rooms_table, settings_table

if TYPE_CHECKING:
    from cuarenta.server.store.database import Database


@dataclass(frozen=True)
class DailyRow:
    """A finished deal of the day: its room, when it finished, its seats (JSON) and how its chica ended
    (JSON, the finished row's ``chica_results``)."""

    room: str
    finished: str
    seats: str
    chica_results: str


def daily_secret(self: Database) -> bytes:
    """The key the days' seeds are derived from (made by migration 0010, never sent)."""
    with self._read("reading the deal of the day's secret") as conn:
        value = conn.execute(
            sa.select(settings_table.c.value).where(settings_table.c.name == "daily_secret")
        ).scalar_one_or_none()
    if value is None:
        raise StoreError("the database has no daily_secret setting (schema revision 0010 makes it)")
    return bytes.fromhex(str(value))


def daily_rows(self: Database, seed: str) -> list[DailyRow]:
    """The finished first mesas of the rooms against the computer dealt from ``seed``, oldest first."""
    f, r = finished_table.c, rooms_table.c
    with self._read("reading the deal of the day") as conn:
        rows = conn.execute(
            sa.select(f.room, f.finished, f.seats, f.chica_results)
            .join(rooms_table, r.id == f.room)
            .where(r.seed == json.dumps(seed), r.table_options.is_(None), f.mesa == 1)  # the column is JSON
            .order_by(f.finished, f.room)
        ).all()
    return [DailyRow(str(x.room), str(x.finished), str(x.seats), str(x.chica_results)) for x in rows]


__all__ = ["DailyRow", "daily_rows", "daily_secret"]
