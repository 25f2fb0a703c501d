"""The store (``cuarenta.server.store``, docs/storage.md): its schema, the action log's constraints, practice
rows, and opening databases — on real SQLite files.

The log's guarantees are the database's own: each refusal is checked through the store *and* with plain
SQL on a connection of its own, so no Python check stands in for a constraint.

The tests marked by the ``store`` fixture also run on PostgreSQL when ``CUARENTA_TEST_POSTGRES_URL`` names
an empty database that they may wipe (``postgresql+psycopg://user@host/db``, with ``psycopg`` installed;
docs/storage.md). The v1 migration and the file checks are SQLite's alone.
"""

from __future__ import annotations

import os
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

from cuarenta.server.store import (
    DB_NAME,
    SCHEMA_REVISION,
    USER_VERSION,
    ActionRow,
    FinishedRow,
    RoomRow,
    SeatRow,
    Store,
    StoreConflict,
    StoreError,
    database_url,
    metadata,
)

WHEN = "2026-11-30T12:00:00Z"


POSTGRES = os.environ.get("CUARENTA_TEST_POSTGRES_URL")


@pytest.fixture(params=["sqlite", "postgresql"] if POSTGRES else ["sqlite"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "postgresql":
        assert POSTGRES is not None
        wipe = sa.create_engine(POSTGRES)
        with wipe.begin() as conn:
            conn.exec_driver_sql("DROP SCHEMA public CASCADE")
            conn.exec_driver_sql("CREATE SCHEMA public")
        wipe.dispose()
        made = Store(POSTGRES)
    else:
        made = Store.in_dir(tmp_path / "data")
    yield made
    made.close()


def a_room(room_id: str = "r1", *, practice: bool = False) -> RoomRow:
    return RoomRow(
        id=room_id,
        created=WHEN,
        updated=WHEN,
        players=2,
        level="facil",
        rules='{"preset":"a_todo_rigor"}',
        seed="7",
        mesa=1,
        state=0,
        status="playing",
        practice=practice,
        seats=(SeatRow(0, "person", "Ana", None, "h0"), SeatRow(1, "computer", "", "facil", None)),
    )


def finished(room: str, mesa: int, *, won: bool, practice: bool, level: str = "facil") -> FinishedRow:
    return FinishedRow(
        room=room,
        mesa=mesa,
        finished=WHEN,
        level=level,
        players=2,
        rules="{}",
        seats="[]",
        person_team=0,
        winner=0 if won else 1,
        chicas="[1,0]",
        chica_results="[]",
        caidas=3,
        limpias=1,
        record="(record)",
        practice=practice,
    )


def append(store: Store, room: str, *seqs: int, state: int | None = None) -> None:
    rows = [ActionRow(room, 1, seq, f"action {seq}", WHEN) for seq in seqs]
    store.save_room(
        room, updated=WHEN, mesa=1, state=state if state is not None else max(seqs), mesa_state=0,
        status="playing", actions=rows,
    )  # fmt: skip


def raw(store: Store) -> sqlite3.Connection:
    """A plain connection to the store's file, with foreign keys on (as every connection of the store)."""
    assert store.path is not None
    conn = sqlite3.connect(store.path, isolation_level=None)
    conn.execute("PRAGMA foreign_keys=ON")
    return conn


#: How each database words the refusals (SQLite, then PostgreSQL).
REFUSED = {
    "foreign key": r"FOREIGN KEY constraint failed|violates foreign key constraint",
    "check": r"CHECK constraint failed|violates check constraint",
    "unique": r"UNIQUE constraint failed|duplicate key value violates unique constraint",
}


def refused(store: Store, sql: str, kind: str) -> None:
    """Plain SQL on a connection of its own, in its own transaction: the database must refuse it."""
    with pytest.raises(sa.exc.IntegrityError) as caught, store.engine.begin() as conn:
        conn.exec_driver_sql(sql)
    assert re.search(REFUSED[kind], str(caught.value.orig)), caught.value.orig


# -- the schema ------------------------------------------------------------------------------------------
def test_the_migrations_make_exactly_the_schema_the_code_uses(store: Store) -> None:
    with store.engine.connect() as conn:
        context = MigrationContext.configure(
            conn, opts={"compare_type": True, "compare_server_default": True}
        )
        assert compare_metadata(context, metadata) == []
        tables = set(sa.inspect(conn).get_table_names())
    assert tables == {
        "alembic_version", "rooms", "seats", "finished", "actions", "legacy_games",
        "profiles", "ratings", "rated_mesas", "profile_addresses", "settings",
        "championships", "championship_actions", "championship_pairs", "championship_tables", "hall_entries",
        "puzzle_ratings", "puzzle_solvers", "puzzle_tries", "puzzle_reports", "daily_offline",
    }  # fmt: skip
    assert store.schema_revision() == SCHEMA_REVISION
    if store.sqlite:
        with raw(store) as conn:
            assert conn.execute("PRAGMA user_version").fetchone()[0] == USER_VERSION
            assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_opening_again_changes_nothing_and_the_store_works_after_close(store: Store) -> None:
    store.insert_room(a_room())
    append(store, "r1", 1, 2)
    store.close()  # a server stopped in-process; the next use opens new connections
    assert store.load_actions("r1", 1) == [(1, "action 1"), (2, "action 2")]
    again = Store(store.path if store.path is not None else store.url.render_as_string(hide_password=False))
    assert again.schema_revision() == SCHEMA_REVISION
    assert again.load_room("r1") == store.load_room("r1")
    again.close()


def test_a_room_round_trips(store: Store) -> None:
    room = a_room(practice=True)
    store.insert_room(room)
    assert store.load_room("r1") == room
    assert store.room_exists("r1") and not store.room_exists("r2")
    assert store.load_room("r2") is None
    assert store.seat_of_token("r1", "h0") == 0 and store.seat_of_token("r1", "nope") is None
    assert store.rooms_of_tokens(["h0", "zz"]) == [("r1", 0)] and store.rooms_of_tokens([]) == []
    store.save_room("r1", updated="later", mesa=2, state=9, mesa_state=9, status="finished")
    loaded = store.load_room("r1")
    assert loaded is not None
    assert (loaded.updated, loaded.mesa, loaded.state, loaded.mesa_state, loaded.status, loaded.practice) == (
        "later", 2, 9, 9, "finished", True,
    )  # fmt: skip
    with pytest.raises(StoreError, match="no room 'r9'"):
        store.save_room("r9", updated=WHEN, mesa=1, state=1, mesa_state=0, status="playing")
    with pytest.raises(StoreError, match="refused"):
        store.insert_room(a_room())  # the same id again


# -- the action log --------------------------------------------------------------------------------------
def test_the_database_refuses_a_duplicate_or_out_of_order_action(store: Store) -> None:
    store.insert_room(a_room())
    append(store, "r1", 1, 2, 3)
    # through the store: seq 5 after seq 3, a second seq 3, a first row that is not seq 1
    with pytest.raises(StoreError, match="refused"):
        append(store, "r1", 5)
    with pytest.raises(StoreError, match="refused"):
        append(store, "r1", 3)
    with pytest.raises(StoreError, match="refused"):
        store.save_room(
            "r1", updated=WHEN, mesa=2, state=4, mesa_state=3, status="playing",
            actions=[ActionRow("r1", 2, 2, "7h", WHEN)],
        )  # fmt: skip
    # with plain SQL: the constraints are the database's own
    insert = "INSERT INTO actions (room, mesa, seq, prev, action, at) VALUES ('r1', 1, {}, {}, 'x', 'now')"
    refused(store, insert.format(5, 4), "foreign key")  # seq 5 after seq 3: there is no row 4 to follow
    refused(store, insert.format(5, 3), "check")  # a row that skips one cannot name the last as its previous
    refused(store, insert.format(3, 2), "unique")  # a second seq 3
    refused(store, insert.format(1, 0), "check")  # the first row follows nothing
    refused(store, insert.format(1, "NULL").replace("'r1'", "'nobody'"), "foreign key")  # no such room
    refused(store, "DELETE FROM actions WHERE seq = 2", "foreign key")  # a row others follow stays
    with store.engine.begin() as conn:
        conn.exec_driver_sql(insert.format(4, 3))  # the next one in order is accepted
        conn.exec_driver_sql("DELETE FROM actions WHERE seq = 4")
    assert store.load_actions("r1", 1) == [(1, "action 1"), (2, "action 2"), (3, "action 3")]
    append(store, "r1", 4)
    assert [seq for seq, _ in store.load_actions("r1", 1)] == [1, 2, 3, 4]
    with pytest.raises(StoreError, match="refused"):
        append(store, "r1", 4)  # a second seq 4


def test_a_refused_save_changes_nothing(store: Store) -> None:
    store.insert_room(a_room())
    append(store, "r1", 1, 2)
    before = store.load_room("r1")
    # rows 3 and 4 are fine, 6 is not: nothing of the save is written, counters included
    with pytest.raises(StoreError):
        store.save_room(
            "r1", updated="later", mesa=1, state=6, mesa_state=0, status="finished",
            actions=[ActionRow("r1", 1, s, "x", WHEN) for s in (3, 4, 6)],
            finished=[finished("r1", 1, won=True, practice=False)],
        )  # fmt: skip
    assert store.load_room("r1") == before
    assert [seq for seq, _ in store.load_actions("r1", 1)] == [1, 2]
    assert store.finished_mesa("r1", 1) is None


def test_mesas_have_separate_logs(store: Store) -> None:
    store.insert_room(a_room())
    append(store, "r1", 1, 2)
    store.save_room(
        "r1", updated=WHEN, mesa=2, state=4, mesa_state=3, status="playing",
        actions=[ActionRow("r1", 2, 1, "Ah", WHEN)],
    )  # fmt: skip
    assert store.load_actions("r1", 1) == [(1, "action 1"), (2, "action 2")]
    assert store.load_actions("r1", 2) == [(1, "Ah")]
    assert store.load_actions("r1", 3) == []


# -- finished mesas and practice -------------------------------------------------------------------------
def test_practice_mesas_are_marked_and_never_counted(store: Store) -> None:
    store.insert_room(a_room("real"))
    store.insert_room(a_room("practice", practice=True))
    store.save_room(
        "real", updated=WHEN, mesa=1, state=0, mesa_state=0, status="finished",
        finished=[finished("real", 1, won=True, practice=False),
                  finished("real", 2, won=False, practice=False)],
    )  # fmt: skip
    store.save_room(
        "practice", updated=WHEN, mesa=1, state=0, mesa_state=0, status="finished",
        finished=[finished("practice", 1, won=True, practice=True),
                  finished("practice", 2, won=True, practice=True, level="dificil")],
    )  # fmt: skip
    assert store.stats() == {"facil": {"played": 2, "won": 1, "caidas": 6, "limpias": 2}}
    rows = store.finished_of_rooms(["practice", "real"])
    assert {(r.room, r.mesa, r.practice) for r in rows} == {
        ("real", 1, False), ("real", 2, False), ("practice", 1, True), ("practice", 2, True),
    }  # fmt: skip
    assert store.finished_mesa("practice", 2) == finished(
        "practice", 2, won=True, practice=True, level="dificil"
    )


# -- opening databases -----------------------------------------------------------------------------------
def test_a_database_of_a_newer_cuarenta_is_refused_and_left_alone(tmp_path: Path) -> None:
    Store.in_dir(tmp_path / "a").close()
    path = tmp_path / "a" / DB_NAME
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE alembic_version SET version_num = 'f00d'")
    before = path.read_bytes()
    with pytest.raises(StoreError, match=r"newer cuarenta \(schema revision f00d; this version knows up to"):
        Store(path)
    assert path.read_bytes() == before
    # a file whose user_version is beyond the hand-written store's, without Alembic's table
    (tmp_path / "b").mkdir()
    with sqlite3.connect(tmp_path / "b" / DB_NAME) as conn:
        conn.execute("PRAGMA user_version = 7")
    with pytest.raises(StoreError, match="newer cuarenta"):
        Store.in_dir(tmp_path / "b")


def test_files_that_are_not_cuarenta_databases_are_refused(tmp_path: Path) -> None:
    (tmp_path / "junk").write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(StoreError, match="not a usable cuarenta database"):
        Store(tmp_path / "junk")
    with sqlite3.connect(tmp_path / "other.sqlite3") as conn:
        conn.execute("CREATE TABLE notes (x TEXT)")
    with pytest.raises(StoreError, match=r"not a usable cuarenta database: it has tables \(notes\)"):
        Store(tmp_path / "other.sqlite3")
    (tmp_path / "file").write_text("x")
    with pytest.raises(StoreError, match="cannot create the data directory"):
        Store.in_dir(tmp_path / "file" / "data")
    with pytest.raises(StoreError, match=r"cannot open the database .*unable to open database file"):
        Store(tmp_path / "missing" / "folder" / DB_NAME)
    with pytest.raises(StoreError, match="is not a database URL"):
        Store("no url at all")
    with pytest.raises(StoreError, match="cannot open the database"):
        Store("nosuchdialect://host/db")


def test_database_urls() -> None:
    assert database_url(Path("data") / DB_NAME).render_as_string() == "sqlite:///data/cuarenta.sqlite3"
    url = database_url("postgresql+psycopg://cuarenta:secret@db.example:5432/cuarenta")
    assert (url.get_backend_name(), url.get_driver_name(), url.database) == (
        "postgresql",
        "psycopg",
        "cuarenta",
    )


def test_a_write_is_a_compare_and_set_on_the_room_version(store: Store) -> None:
    """Two writers that read the same version: the first write wins, the second is refused as a conflict
    and writes nothing (docs/scaling.md)."""
    store.insert_room(a_room())
    read = store.load_room("r1")
    assert read is not None and read.version == 0
    first = ActionRow("r1", 1, 1, "f", WHEN)
    store.save_room(
        "r1",
        updated=WHEN,
        mesa=1,
        state=1,
        mesa_state=0,
        status="playing",
        actions=[first],
        version=read.version,
    )
    with pytest.raises(StoreConflict, match="changed meanwhile"):
        store.save_room(
            "r1",
            updated="later",
            mesa=1,
            state=1,
            mesa_state=0,
            status="playing",
            actions=[ActionRow("r1", 1, 1, "g", "later")],
            version=read.version,
        )
    with pytest.raises(StoreConflict):
        store.save_seats(
            "r1",
            updated="later",
            started=True,
            status="playing",
            state=1,
            mesa_state=0,
            seats=[],
            version=read.version,
        )
    after = store.load_room("r1")
    assert after is not None and (after.version, after.state, after.updated) == (1, 1, WHEN)
    assert store.load_actions("r1", 1) == [(1, "f")]
    assert store.load_actions("r1", 1, after=1) == []
    assert store.room_versions(["r1", "nope"]) == {"r1": 1}
    with pytest.raises(StoreError, match="no room"):  # a missing room is not a conflict
        store.save_room("r9", updated=WHEN, mesa=1, state=1, mesa_state=0, status="playing", version=0)
