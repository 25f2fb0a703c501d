"""Championships in the store (docs/championships.md "Running a championship"): functions over
:class:`~cuarenta.server.store.Store`, like :mod:`.profiles`.

A championship is its settings, its secret and its list of accepted actions (event-sourced: the library
replays them). Appending action ``seq`` is a compare-and-set: the primary key (championship, seq) refuses a
second row of the same number, so two server processes cannot both apply an action on the same state
(:class:`~cuarenta.server.store.StoreConflict`). Tokens and the registration code are kept as hashes only.

>>> import tempfile, pathlib
>>> from cuarenta.server.store import Store
>>> with tempfile.TemporaryDirectory() as d:
...     store = Store.in_dir(pathlib.Path(d))
...     insert_championship(store, ChampionshipRow("c1", "Copa", "{}", 7, "o", "j", "r"))
...     append_action(store, "c1", 1, {"kind": "start"})
...     try:
...         append_action(store, "c1", 1, {"kind": "start"})
...     except StoreConflict:
...         print("conflict")
...     action_count(store, "c1"), load_actions(store, "c1")
...     store.close()
conflict
(1, [{'kind': 'start'}])
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from cuarenta.server.store import Store, StoreConflict, StoreError, dumps
from cuarenta.server.store.profilerows import now_text
from cuarenta.server.store.schema import (
    championship_actions_table as actions_t,
)
from cuarenta.server.store.schema import (
    championship_pairs_table as pairs_t,
)
from cuarenta.server.store.schema import (
    championship_tables_table as tables_t,
)
from cuarenta.server.store.schema import (
    championships_table as champs_t,
)
from cuarenta.server.store.schema import (
    hall_entries_table as hall_t,
)
from cuarenta.server.store.schema import (
    rooms_table as rooms_t,
)


@dataclass(frozen=True)
class ChampionshipRow:
    """A stored championship: its id, name, settings (JSON text), secret and the hashes of its secrets."""

    id: str
    name: str
    settings: str
    secret: int
    organiser_hash: str
    judge_hash: str
    register_hash: str


@dataclass(frozen=True)
class PairRow:
    """A pair's token hash (``None`` for a computer pair) and a computer pair's level."""

    pair: str
    token_hash: str | None
    computer: str | None


def _write(store: Store, what: str, work: Any, *, conflict: bool = False) -> Any:
    """Run ``work(conn)`` in one write transaction; a refused key is :class:`StoreConflict` when
    ``conflict`` (a compare-and-set lost), else a :class:`StoreError`."""
    try:
        with store._write() as conn:
            return work(conn)
    except (sa.exc.IntegrityError, sqlite3.IntegrityError) as exc:
        if conflict:
            raise StoreConflict(f"{what}: another process stored it first") from None
        raise StoreError(f"the database refused {what}: {getattr(exc, 'orig', exc)}") from None
    except StoreError:
        raise
    except sa.exc.SQLAlchemyError as exc:
        raise StoreError(f"{what} failed: {exc}") from None


def _read(store: Store, what: str, work: Any) -> Any:
    with store._read(what) as conn:
        return work(conn)


def insert_championship(store: Store, row: ChampionshipRow) -> None:
    """Store a new championship (no action yet)."""
    when = now_text()
    values = {
        "id": row.id,
        "created": when,
        "updated": when,
        "name": row.name,
        "settings": row.settings,
        "secret": str(row.secret),
        "organiser_hash": row.organiser_hash,
        "judge_hash": row.judge_hash,
        "register_hash": row.register_hash,
    }
    _write(store, "storing a championship", lambda conn: conn.execute(champs_t.insert(), values))


def load_championship(store: Store, championship: str) -> ChampionshipRow | None:
    """The stored championship, or ``None``."""

    def work(conn: sa.Connection) -> ChampionshipRow | None:
        r = conn.execute(sa.select(champs_t).where(champs_t.c.id == championship)).first()
        if r is None:
            return None
        return ChampionshipRow(
            r.id, r.name, r.settings, int(r.secret), r.organiser_hash, r.judge_hash, r.register_hash
        )

    result: ChampionshipRow | None = _read(store, "reading a championship", work)
    return result


def action_count(store: Store, championship: str) -> int:
    """How many actions the championship has stored (its last ``seq``)."""
    query = sa.select(sa.func.max(actions_t.c.seq)).where(actions_t.c.championship == championship)
    found = _read(store, "reading a championship", lambda conn: conn.execute(query).scalar())
    return int(found or 0)


def load_actions(store: Store, championship: str) -> list[dict[str, Any]]:
    """The championship's actions in order, as dicts (``action_from_dict`` reads them)."""
    query = (
        sa.select(actions_t.c.seq, actions_t.c.action)
        .where(actions_t.c.championship == championship)
        .order_by(actions_t.c.seq)
    )
    rows = _read(store, "reading a championship's actions", lambda conn: conn.execute(query).all())
    for expected, row in enumerate(rows, start=1):
        if row.seq != expected:
            raise StoreError(
                f"championship {championship}: its actions jump from {expected - 1} to {row.seq}"
            )
    return [json.loads(row.action) for row in rows]


def append_action(
    store: Store,
    championship: str,
    seq: int,
    action: dict[str, Any],
    *,
    pair: PairRow | None = None,
    unmap: str | None = None,
) -> str | None:
    """Append action ``seq`` (a compare-and-set: :class:`StoreConflict` if it is stored already), with a
    new pair's row in the same transaction when the action registers one, and, when the action is a
    restart, the partida ``unmap``'s table mapping deleted in it and that table marked ``replaced`` (its
    options, and its version up by one: every process' copy of it reads it again and stops; its next
    table is opened after). Returns the room so replaced, if any."""
    when = now_text()

    def work(conn: sa.Connection) -> str | None:
        replaced = None
        conn.execute(
            actions_t.insert(),
            {"championship": championship, "seq": seq, "action": dumps(action), "at": when},
        )
        if pair is not None:
            conn.execute(
                pairs_t.insert(),
                {
                    "championship": championship,
                    "pair": pair.pair,
                    "token_hash": pair.token_hash,
                    "computer": pair.computer,
                },
            )
        if unmap is not None:
            mapped = (tables_t.c.championship == championship) & (tables_t.c.partida == unmap)
            replaced = conn.execute(sa.select(tables_t.c.room).where(mapped)).scalar()
            conn.execute(tables_t.delete().where(mapped))
            if replaced is not None:
                _mark_replaced(conn, replaced, when)
        conn.execute(champs_t.update().where(champs_t.c.id == championship).values(updated=when))
        return replaced

    found: str | None = _write(
        store, f"storing action {seq} of championship {championship}", work, conflict=True
    )
    return found


def _mark_replaced(conn: sa.Connection, room: str, when: str) -> None:
    """Mark a championship table ``replaced`` in its stored options (``TableOptions.replaced``), its
    version up by one (a compare-and-set writer of the room finds it changed and reads it again)."""
    options = conn.execute(sa.select(rooms_t.c.table_options).where(rooms_t.c.id == room)).scalar()
    if options is None:
        return
    data = json.loads(options)
    data["replaced"] = True
    conn.execute(
        rooms_t.update()
        .where(rooms_t.c.id == room)
        .values(table_options=dumps(data), version=rooms_t.c.version + 1, updated=when)
    )


def load_pairs(store: Store, championship: str) -> dict[str, PairRow]:
    """The pairs' rows by pair id."""
    query = sa.select(pairs_t).where(pairs_t.c.championship == championship)
    rows = _read(store, "reading a championship's pairs", lambda conn: conn.execute(query).all())
    return {r.pair: PairRow(r.pair, r.token_hash, r.computer) for r in rows}


def map_table(store: Store, championship: str, partida: str, room: str) -> str:
    """Map the partida to its table ``room`` unless it has one already (a restart unmaps the earlier one
    with its decision): the first process to map it wins. Returns the partida's room, this one or the
    one another process mapped first (cluster-safe: the key is the championship and the partida)."""
    row = {"championship": championship, "partida": partida, "room": room, "opened": now_text()}
    try:
        _write(
            store,
            f"storing the table of partida {partida}",
            lambda conn: conn.execute(tables_t.insert(), row),
            conflict=True,
        )
    except StoreConflict:
        mapped = load_tables(store, championship).get(partida)
        if mapped is None:  # unmapped again meanwhile (a restart): map this one
            return map_table(store, championship, partida, room)
        return mapped[0]
    return room


def load_tables(store: Store, championship: str) -> dict[str, tuple[str, str]]:
    """Each partida's table: ``{partida: (room, opened)}``."""
    query = sa.select(tables_t).where(tables_t.c.championship == championship)
    rows = _read(store, "reading a championship's tables", lambda conn: conn.execute(query).all())
    return {r.partida: (r.room, r.opened) for r in rows}


def running_championships(store: Store) -> list[str]:
    """The championships with a table still being played or waiting (a mapped room not finished): those
    whose walkover waits a new process checks from its start."""
    query = (
        sa.select(tables_t.c.championship)
        .join(rooms_t, rooms_t.c.id == tables_t.c.room)
        .where(rooms_t.c.status != "finished")
        .distinct()
        .order_by(tables_t.c.championship)
    )
    rows = _read(store, "reading the running championships", lambda conn: conn.execute(query).all())
    return [r.championship for r in rows]


def append_entry(store: Store, championship: str, partida: str, seq: int, entry: dict[str, Any]) -> None:
    """Append the hall sheet's entry ``seq`` (1, 2 …) of a partida: a compare-and-set, as actions."""
    values = {"championship": championship, "partida": partida, "seq": seq, "entry": dumps(entry)}
    _write(
        store,
        f"storing entry {seq} of partida {partida}",
        lambda c: c.execute(hall_t.insert(), values),
        conflict=True,
    )


def remove_entry(store: Store, championship: str, partida: str, seq: int) -> None:
    """Delete the hall sheet's last entry ``seq`` (an undo); :class:`StoreConflict` if it is gone."""

    def work(conn: sa.Connection) -> None:
        done = conn.execute(
            hall_t.delete().where(
                (hall_t.c.championship == championship)
                & (hall_t.c.partida == partida)
                & (hall_t.c.seq == seq)
            )
        )
        if done.rowcount != 1:
            raise StoreConflict(f"entry {seq} of partida {partida} was undone by another process")

    _write(store, f"undoing entry {seq} of partida {partida}", work, conflict=True)


def load_entries(store: Store, championship: str) -> dict[str, list[dict[str, Any]]]:
    """Every hall partida's entries in order: ``{partida: [entry dicts]}``."""
    query = (
        sa.select(hall_t.c.partida, hall_t.c.entry)
        .where(hall_t.c.championship == championship)
        .order_by(hall_t.c.partida, hall_t.c.seq)
    )
    rows = _read(store, "reading a championship's hall sheets", lambda conn: conn.execute(query).all())
    out: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        out.setdefault(r.partida, []).append(json.loads(r.entry))
    return out


__all__ = [
    "ChampionshipRow",
    "PairRow",
    "action_count",
    "append_action",
    "append_entry",
    "insert_championship",
    "load_actions",
    "load_championship",
    "load_entries",
    "load_pairs",
    "load_tables",
    "map_table",
    "remove_entry",
    "running_championships",
]
