"""The deal of the day in the store (docs/daily.md): the secret the days' seeds are derived from, the
day's finished chicas, found by the day's seed (the index ``rooms_by_seed``), and the results played
offline and sent later (``daily_offline``, migration 0011). Each function takes the store first and is a
method of :class:`cuarenta.server.store.Store`.

>>> import tempfile, pathlib
>>> from cuarenta.server.store import Store
>>> row = OfflineRow("e1", "2026-12-05", "Ana", 40, 22, 18, "2026-12-06T10:00:00Z", "ab" * 32, "…")
>>> with tempfile.TemporaryDirectory() as d:
...     store = Store.in_dir(pathlib.Path(d))
...     first = store.add_daily_offline(row)
...     again = store.add_daily_offline(dataclasses.replace(row, id="e2"))  # the same record: the same entry
...     (first[1], again[0].id, again[1]), [r.result for r in store.daily_offline_rows("2026-12-05")]
...     store.close()
((True, 'e1', False), [18])
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING

import sqlalchemy as sa

from cuarenta.server.store.errors import StoreError
from cuarenta.server.store.schema import daily_offline_table, finished_table, rooms_table, settings_table

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


@dataclass(frozen=True)
class OfflineRow:
    """A result of the deal of the day played offline and sent later (the table ``daily_offline``)."""

    id: str
    day: str
    name: str
    score0: int
    score1: int
    result: int
    received: str
    digest: str
    record: str


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


def add_daily_offline(self: Database, row: OfflineRow) -> tuple[OfflineRow, bool]:
    """Keep an offline result: ``(row, True)``; or, for a record kept before (its ``digest``), that
    result as it was kept and ``False`` (a result sent again after a lost answer is the same result)."""
    c = daily_offline_table.c

    try:
        with self._write() as conn:
            kept = conn.execute(sa.select(daily_offline_table).where(c.digest == row.digest)).first()
            if kept is not None:
                return OfflineRow(*kept), False
            conn.execute(daily_offline_table.insert(), dataclasses.asdict(row))
        return row, True
    except sa.exc.IntegrityError:  # the same record, kept by another process in the meantime: that one
        with self._read("reading an offline result of the deal of the day") as conn:
            kept = conn.execute(sa.select(daily_offline_table).where(c.digest == row.digest)).first()
        if kept is None:
            raise StoreError("the database refused an offline result of the deal of the day") from None
        return OfflineRow(*kept), False
    except sa.exc.SQLAlchemyError as exc:
        raise self._write_failure(exc, "keeping an offline result of the deal of the day") from None


def daily_offline_rows(self: Database, day: str) -> list[OfflineRow]:
    """The offline results of ``day`` (``YYYY-MM-DD``), in the order they came."""
    c = daily_offline_table.c
    with self._read("reading the offline results of the deal of the day") as conn:
        rows = conn.execute(
            sa.select(daily_offline_table).where(c.day == day).order_by(c.received, c.id)
        ).all()
    return [OfflineRow(*r) for r in rows]


__all__ = ["DailyRow", "OfflineRow", "add_daily_offline", "daily_offline_rows", "daily_rows", "daily_secret"]
