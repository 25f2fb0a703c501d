"""The store's write path (issue 16, docs/storage.md "Writing"): a move's save is one statement on
PostgreSQL and one transaction on SQLite; either way a stale version is refused with nothing written, a
refused row undoes the whole save, and several rows of one save are appended in order.

Each test runs on a SQLite file and on a throwaway PostgreSQL on a loopback port
(tests/cluster_support.py; skipped only where PostgreSQL is not installed).
"""

from __future__ import annotations

import itertools
import socket
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cluster_support as cs
from cuarenta.server.store import ActionRow, RoomRow, SeatRow, Store, StoreConflict, StoreError
from cuarenta.server.store.pgwatch import Watchdog
from support.examples import examples

WHEN = "2026-12-02T01:00:00Z"
ROOMS = itertools.count(1)


@pytest.fixture(scope="module")
def postgres() -> Iterator[str]:
    if cs.pg_bin() is None:
        pytest.skip("PostgreSQL is not installed (scripts/test.sh installs it)")
    pg = cs.Postgres(Path(tempfile.mkdtemp(prefix="cuarenta-writes-")))
    try:
        yield pg.url
    finally:
        pg.remove()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])  # a real PostgreSQL
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "postgresql":
        url = request.getfixturevalue("postgres")
        wipe = sa.create_engine(url)
        with wipe.begin() as conn:
            conn.exec_driver_sql("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
        wipe.dispose()
        made = Store(url)
    else:
        made = Store.in_dir(tmp_path / "data")
    yield made
    made.close()


def a_room(room_id: str) -> RoomRow:
    seats = (SeatRow(0, "person", "Ana", None, "h0"), SeatRow(1, "computer", "", "facil", None))
    return RoomRow(room_id, WHEN, WHEN, 2, "facil", "{}", "7", 1, 0, "playing", seats)


def move(store: Store, room_id: str, seqs: list[int], *, state: int, version: int | None,
         when: str = WHEN) -> None:  # fmt: skip
    store.save_room(
        room_id, updated=when, mesa=1, state=state, mesa_state=0, status="playing", version=version,
        actions=[ActionRow(room_id, 1, seq, f"a{seq}", when) for seq in seqs],
    )  # fmt: skip


def stored(store: Store, room_id: str) -> tuple[Any, ...]:
    row = store.load_room(room_id)
    assert row is not None
    return row.version, row.state, row.updated, row.status, store.load_actions(room_id, 1)


def test_a_move_is_one_statement_on_postgresql_and_one_transaction_on_sqlite(store: Store) -> None:
    """On PostgreSQL the compare-and-set, the log row and the room's counters go in one statement (one
    round trip, its own transaction); on SQLite, one transaction of an UPDATE and an INSERT (what
    ``sqlite3`` itself ran, from its trace) on the store's own connection, SQLAlchemy's engine not used."""
    store.insert_room(a_room("r1"))
    move(store, "r1", [1], state=1, version=0)  # the writer's connection is made
    sent: list[str] = []
    engine_calls: list[str] = []

    def note(_conn: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        sent.append(statement)

    def checkout(*_args: Any) -> None:
        engine_calls.append("checkout")

    sa.event.listen(store.engine, "before_cursor_execute", note)
    sa.event.listen(store.engine, "checkout", checkout)
    try:
        if store.sqlite:
            assert store._writer is not None
            store._writer.connection().set_trace_callback(sent.append)
            try:
                move(store, "r1", [2], state=2, version=1)
            finally:
                store._writer.connection().set_trace_callback(None)
        else:
            move(store, "r1", [2], state=2, version=1)
    finally:
        sa.event.remove(store.engine, "before_cursor_execute", note)
        sa.event.remove(store.engine, "checkout", checkout)
    if store.sqlite:
        assert [" ".join(s.split()[:2]) for s in sent] == [
            "BEGIN IMMEDIATE", "UPDATE rooms", "INSERT INTO", "COMMIT"
        ], sent  # fmt: skip
        assert engine_calls == []
    else:
        assert len(sent) == 1, sent
        assert sent[0].startswith("WITH moved AS (UPDATE rooms") and "INSERT INTO actions" in sent[0]
    assert stored(store, "r1") == (2, 2, WHEN, "playing", [(1, "a1"), (2, "a2")])


@settings(
    max_examples=examples(12), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(rows=st.integers(0, 3), off=st.sampled_from([-1, 1, 5]), data=st.data())
def test_a_stale_save_is_refused_and_writes_nothing(
    store: Store, rows: int, off: int, data: st.DataObject
) -> None:
    """A save whose version is not the room's is a :class:`StoreConflict`, whatever it carries: the room's
    row and its log stay as they were."""
    room_id = f"r{next(ROOMS)}"
    store.insert_room(a_room(room_id))
    move(store, room_id, [1, 2], state=2, version=0)
    before = stored(store, room_id)
    with pytest.raises(StoreConflict, match="changed meanwhile"):
        move(store, room_id, list(range(3, 3 + rows)), state=2 + rows, version=1 + off, when="later")
    assert stored(store, room_id) == before
    move(store, room_id, list(range(3, 3 + rows)), state=2 + rows, version=1)  # the right version: written
    assert stored(store, room_id)[:2] == (2, 2 + rows)
    assert [seq for seq, _ in stored(store, room_id)[4]] == list(range(1, 3 + rows))


def test_a_refused_row_undoes_the_whole_save(store: Store) -> None:
    """The database refuses a repeated or skipped ``seq``; the room's update of the same save is undone
    with it (one statement on PostgreSQL, one transaction on SQLite)."""
    store.insert_room(a_room("r1"))
    move(store, "r1", [1], state=1, version=0)
    before = stored(store, "r1")
    for seqs in ([1], [3], [2, 4], [2, 2]):
        with pytest.raises(StoreError, match="the database refused saving room r1"):
            move(store, "r1", seqs, state=1 + len(seqs), version=1, when="later")
        assert stored(store, "r1") == before, seqs
    with pytest.raises(StoreError, match="there is no room 'r9'"):
        move(store, "r9", [1], state=1, version=0)
    with pytest.raises(StoreError, match="there is no room 'r9'"):
        move(store, "r9", [1], state=1, version=None)
    move(store, "r1", [2, 3, 4], state=4, version=None)  # without a version: unconditional
    assert stored(store, "r1") == (2, 4, WHEN, "playing", [(1, "a1"), (2, "a2"), (3, "a3"), (4, "a4")])


def test_the_watchdog_cuts_a_call_armed_while_its_thread_idles() -> None:
    """Arming a call does not wake the watchdog's thread (a thread switch at every statement); it still
    cuts a call that gets no answer at the call's deadline. A real socket pair stands for the connection:
    the "server" end never answers."""
    ours, theirs = socket.socketpair()
    ours.settimeout(30)  # a watchdog that never cuts fails the test here, it does not hang it
    connection = SimpleNamespace(pgconn=SimpleNamespace(socket=ours.fileno()))
    watchdog = Watchdog(seconds=0.3)
    try:
        with watchdog.call(connection):  # starts the thread, which then idles: nothing is armed
            pass
        time.sleep(0.1)
        with watchdog.call(connection):
            answer = ours.recv(1)  # waits for an answer; the watchdog shuts the socket at the deadline
        assert answer == b""
        assert watchdog.cut == 1 and watchdog.hung
    finally:
        ours.close()
        theirs.close()
