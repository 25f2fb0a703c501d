"""The store's write path (issue 16, docs/storage.md "Writing"): a move's save is one statement on
PostgreSQL and one transaction on SQLite; either way a stale version is refused with nothing written, a
refused row undoes the whole save, and several rows of one save are appended in order.

Each test runs on a SQLite file and on a throwaway PostgreSQL on a loopback port
(tests/cluster_support.py; skipped only where PostgreSQL is not installed).
"""

from __future__ import annotations

import itertools
import re
import socket
import tempfile
import threading
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
from cuarenta.server.store import ActionRow, RoomRow, SeatRow, Store, StoreConflict, StoreError, StoreUnknown
from cuarenta.server.store.pgwatch import Watchdog

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


@pytest.fixture(params=["sqlite", "postgresql"])
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


def test_a_move_is_one_statement_on_postgresql_and_one_transaction_on_sqlite(
    store: Store, tmp_path: Path
) -> None:
    """On PostgreSQL the compare-and-set, the log row and the room's counters go in one statement — one
    round trip, its own transaction, no ping of the connection before it (libpq's trace of what was sent);
    on SQLite, one transaction of an UPDATE and an INSERT (what ``sqlite3`` itself ran, from its trace),
    both on the store's own connection, SQLAlchemy's engine not used at all."""
    store.insert_room(a_room("r1"))
    move(store, "r1", [1], state=1, version=0)  # the writer's connection is made
    engine_calls: list[str] = []

    def note(_conn: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        engine_calls.append(statement)

    def checkout(*_args: Any) -> None:
        engine_calls.append("checkout")

    sa.event.listen(store.engine, "before_cursor_execute", note)
    sa.event.listen(store.engine, "checkout", checkout)
    try:
        if store.sqlite:
            assert store._writer is not None
            sent: list[str] = []
            store._writer.connection().set_trace_callback(sent.append)
            move(store, "r1", [2], state=2, version=1)
            store._writer.connection().set_trace_callback(None)
            assert [" ".join(s.split()[:2]) for s in sent] == [
                "BEGIN IMMEDIATE", "UPDATE rooms", "INSERT INTO", "COMMIT"
            ], sent  # fmt: skip
        else:
            assert store._pg_writer is not None
            pgconn = store._pg_writer.connection().pgconn
            trace = tmp_path / "libpq.trace"
            with trace.open("w") as out:
                pgconn.trace(out.fileno())
                try:
                    move(store, "r1", [2], state=2, version=1)
                finally:
                    pgconn.untrace()
            # libpq's trace: one line per protocol message, "F" what the client sent, then its length and type
            text = trace.read_text()
            sent_messages = re.findall(r"\tF\t\d+\t(\w+)", text)
            assert sent_messages.count("Sync") + sent_messages.count("Query") == 1, sent_messages
            parsed = re.findall(r"\tF\t\d+\tParse\t[^\n]*", text)
            assert all("WITH moved AS (UPDATE rooms" in p and "INSERT INTO actions" in p for p in parsed)
    finally:
        sa.event.remove(store.engine, "before_cursor_execute", note)
        sa.event.remove(store.engine, "checkout", checkout)
    assert engine_calls == []
    assert stored(store, "r1") == (2, 2, WHEN, "playing", [(1, "a1"), (2, "a2")])


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
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


@pytest.fixture
def pg_store(postgres: str) -> Iterator[tuple[Store, sa.Engine]]:
    """A store on the throwaway PostgreSQL, and an engine of the test's own (another writer, an operator)."""
    wipe = sa.create_engine(postgres)
    with wipe.begin() as conn:
        conn.exec_driver_sql("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
    made = Store(postgres)
    try:
        yield made, wipe
    finally:
        made.close()
        wipe.dispose()


def _writer_session(store: Store) -> int:
    assert store._pg_writer is not None
    return int(store._pg_writer.connection().info.backend_pid)


def _terminate(engine: sa.Engine, pid: int) -> None:
    with engine.begin() as conn:
        conn.exec_driver_sql(f"SELECT pg_terminate_backend({pid})")


def test_a_save_on_a_connection_the_database_closed_is_made_on_a_new_one(
    pg_store: tuple[Store, sa.Engine],
) -> None:
    """No ping before a save: a connection whose session the database ended while it was idle (a restart,
    an operator) is seen closed before anything is sent on it, and the save goes on a new one — stored
    once, acknowledged."""
    store, other = pg_store
    store.insert_room(a_room("r1"))
    move(store, "r1", [1], state=1, version=0)
    first = _writer_session(store)
    _terminate(other, first)
    time.sleep(0.2)  # the database's farewell reaches the idle connection's socket
    move(store, "r1", [2], state=2, version=1)
    assert _writer_session(store) != first
    assert stored(store, "r1") == (2, 2, WHEN, "playing", [(1, "a1"), (2, "a2")])


def _save_while_row_locked(store: Store, other: sa.Engine, then: str) -> BaseException | None:
    """Hold the room's row from another session, send a save (it waits for the row), end the save's
    session while it waits — its connection breaks with the statement sent — then run ``then`` in the
    holding transaction and commit. What the save raised, or ``None``."""
    outcome: list[BaseException | None] = []
    with other.connect() as conn, conn.begin():
        conn.exec_driver_sql("SELECT 1 FROM rooms WHERE id = 'r1' FOR UPDATE")
        pid = _writer_session(store)

        def save() -> None:
            try:
                move(store, "r1", [2], state=2, version=1)
                outcome.append(None)
            except BaseException as exc:  # handed to the test
                outcome.append(exc)

        thread = threading.Thread(target=save)
        thread.start()
        for _ in range(200):  # the save is waiting for the row
            waiting = conn.exec_driver_sql(
                f"SELECT 1 FROM pg_stat_activity WHERE pid = {pid} AND wait_event_type = 'Lock'"
            ).first()
            if waiting is not None:
                break
            time.sleep(0.01)
        else:
            pytest.fail("the save never waited for the row")
        conn.exec_driver_sql(f"SELECT pg_terminate_backend({pid})")
        time.sleep(0.2)  # the first try's connection broke; the second waits for the row in turn
        if then:
            conn.exec_driver_sql(then)
    thread.join(timeout=30)
    assert not thread.is_alive()
    return outcome[0]


def test_a_save_whose_connection_broke_is_sent_again_and_made_once(pg_store: tuple[Store, sa.Engine]) -> None:
    """A save's connection breaks once the statement was sent (its session ended while it waited): its
    outcome is not known, so the compare-and-set is sent again on a new connection; it writes (the first
    did not: the version had not moved), the move is stored once and acknowledged."""
    store, other = pg_store
    store.insert_room(a_room("r1"))
    move(store, "r1", [1], state=1, version=0)
    assert _save_while_row_locked(store, other, "") is None
    assert stored(store, "r1") == (2, 2, WHEN, "playing", [(1, "a1"), (2, "a2")])


def test_a_save_sent_again_after_another_writer_is_of_unknown_outcome(
    pg_store: tuple[Store, sa.Engine],
) -> None:
    """The same, but another writer moves the room on meanwhile: the save sent again is refused by the
    compare-and-set, and the store cannot tell whether the first try was the one that moved it — the
    outcome is unknown (``StoreUnknown``, to be found out by reading the room), never a success and never
    a plain refusal."""
    store, other = pg_store
    store.insert_room(a_room("r1"))
    move(store, "r1", [1], state=1, version=0)
    raised = _save_while_row_locked(
        store, other, "UPDATE rooms SET version = version + 1, updated = 'other' WHERE id = 'r1'"
    )
    assert isinstance(raised, StoreUnknown), raised
    assert "may or may not have been made" in str(raised)
    assert stored(store, "r1")[:3] == (2, 1, "other")
