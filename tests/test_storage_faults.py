"""Storage faults (docs/storage.md "Storage faults", "Backup and restore"): damaged, truncated, empty and
deleted SQLite files and a lost WAL, at the start and under a running server — all with real ``cuarenta
serve`` processes on real files, real HTTP and real WebSockets.

A server refuses to start on a file it cannot trust, with one sentence and exit code 1; a running server
answers a damaged room with ``corrupt_room`` (HTTP: the JSON body; socket: an ``error`` message, the socket
still open), refuses every write once its file is deleted, and nothing it acknowledged is lost silently:
the way back is a backup (``cuarenta backup`` / ``restore``), ``--init`` or ``--accept-lost-wal``.
"""

from __future__ import annotations

import gc
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from cuarenta.server.store import DB_NAME, Store, StoreGone
from cuarenta.server.store.files import marker_path, read_marker, wal_path
from support.app import bearer, running
from support.ports import free_port
from support.served import Served, program, serve_process

#: real `cuarenta serve` processes and damaged files: left out of the quick loop (pytest -m "not slow")
pytestmark = pytest.mark.slow

FAST = ("--bot-delay", "0", "--workers", "0")
PAGE = 4096


# -- helpers -------------------------------------------------------------------------------------------------
@contextmanager
def server(data: Path, *extra: str) -> Iterator[Served]:
    with serve_process(data.parent / "serve.log", "--data", str(data), *FAST, *extra) as served:
        yield served


def refused_start(data: Path, *extra: str) -> str:
    """``cuarenta serve`` on ``data`` must refuse to start: exit code 1, one line ``Error: …`` (returned)."""
    done = subprocess.run(
        [program(), "serve", "--port", str(free_port()), "--data", str(data), *FAST, *extra],
        capture_output=True,
        text=True,
        timeout=120,
        env=dict(os.environ, PYTHONIOENCODING="utf-8"),
    )
    assert done.returncode == 1, (done.returncode, done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
    return lines[0]


def new_room(base: str) -> dict[str, Any]:
    made = httpx.post(f"{base}/api/rooms", json={"players": 2, "level": "facil"}, timeout=30)
    assert made.status_code == 200, made.text
    body: dict[str, Any] = made.json()
    return body


def room_status(base: str, made: dict[str, Any]) -> httpx.Response:
    return httpx.get(
        f"{base}/api/rooms/{made['room']}", headers={"Authorization": f"Bearer {made['token']}"}, timeout=30
    )


class Seat:
    """A person's socket in a room: join, play the first legal move, read the answers."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.last: dict[str, Any] = {}

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps({"v": 1, **message}))

    def recv(self) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.recv(timeout=30))
        if message["type"] == "state":
            self.last = message
        return message

    def join(self, made: dict[str, Any]) -> dict[str, Any]:
        self.send({"type": "join", "room": made["room"], "token": made["token"]})
        return self.recv()

    def my_turn(self) -> dict[str, Any]:
        while not self.last["legal"]:
            self.recv()
        return self.last

    def move(self) -> dict[str, Any]:
        """Play the first legal move on this seat's turn: the server's answer (a state or an error)."""
        state = self.my_turn()
        self.send({"type": "move", "move": state["legal"][0], "state": state["state"]})
        return self.recv()


def played(served: Served, made: dict[str, Any], moves: int) -> int:
    """Join the room, play ``moves`` moves of the person, and answer the state counter once it is the
    person's turn again (every one of those moves acknowledged)."""
    with connect(served.ws) as ws:
        seat = Seat(ws)
        seat.join(made)
        for _ in range(moves):
            assert seat.move()["type"] == "state"
        return int(seat.my_turn()["state"])


def stored_state(data: Path, room: str) -> int | None:
    """The room's state counter in the database, read on a read-only connection of the test's own."""
    conn = sqlite3.connect((data / DB_NAME).resolve().as_uri() + "?mode=ro", uri=True)
    try:
        row = conn.execute("SELECT state FROM rooms WHERE id = ?", (room,)).fetchone()
    finally:
        conn.close()
    return None if row is None else int(row[0])


def checkpoint(db: Path) -> None:
    """Move everything of the WAL into the database file (SQLite's own checkpoint, as a server does)."""
    conn = sqlite3.connect(db)
    try:
        busy, _, _ = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        assert busy == 0
    finally:
        conn.close()


def garble_pages_of(db: Path, text: str) -> list[int]:
    """Overwrite with noise every page of the database file (page 1, the header, excepted) that holds
    ``text``; the numbers of those pages."""
    data = bytearray(db.read_bytes())
    needle = text.encode()
    pages = sorted({i // PAGE for i in range(len(data)) if data.startswith(needle, i)} - {0})
    assert pages, f"{text!r} is not in {db}"
    noise = bytes((i * 151 + 7) % 256 for i in range(PAGE))
    with db.open("r+b") as f:
        for page in pages:
            f.seek(page * PAGE)
            f.write(noise)
    return [p + 1 for p in pages]


def made_and_stopped(data: Path, moves: int = 2) -> tuple[dict[str, Any], int]:
    """A database made by a real server that played ``moves`` moves in a room, then stopped cleanly."""
    with server(data) as served:
        made = new_room(served.base)
        state = played(served, made, moves)
    assert marker_state(data) == "closed"
    assert not wal_path(data / DB_NAME).exists()  # the clean stop checkpointed and removed the WAL
    return made, state


def marker_state(data: Path) -> str:
    marker = read_marker(data / DB_NAME)
    assert marker is not None, f"no marker beside {data / DB_NAME}"
    return marker.state


def aside(data: Path, label: str) -> list[Path]:
    """The database files moved aside with ``label`` (their WAL and shared-memory files left out)."""
    return sorted(
        p
        for p in data.iterdir()
        if p.name.startswith(f"{DB_NAME}.{label}-") and not p.name.endswith(("-wal", "-shm"))
    )


# -- at the start --------------------------------------------------------------------------------------------
def test_a_first_run_makes_the_database_and_its_marker_and_a_restart_finds_them(tmp_path: Path) -> None:
    data = tmp_path / "data"
    made, state = made_and_stopped(data)
    marker = read_marker(data / DB_NAME)
    assert marker is not None and marker.note == "made"
    with server(data) as served:  # no flag: the database is found sound and resumed
        assert room_status(served.base, made).json()["status"] == "playing"
        assert marker_state(data) == "open"
    again = read_marker(data / DB_NAME)
    assert again is not None and again.created == marker.created and again.state == "closed"
    assert stored_state(data, made["room"]) == state


def test_a_garbled_page_is_refused_at_start_and_init_moves_the_file_aside(tmp_path: Path) -> None:
    data = tmp_path / "data"
    made, _ = made_and_stopped(data)
    pages = garble_pages_of(data / DB_NAME, made["room"])
    damaged = (data / DB_NAME).read_bytes()
    error = refused_start(data)
    assert f"{data / DB_NAME} is not a usable cuarenta database: it is damaged (PRAGMA quick_check:" in error
    assert "restore a backup (cuarenta restore BACKUP --data" in error and "--init" in error
    assert (data / DB_NAME).read_bytes() == damaged  # a refused start changes nothing
    assert len(pages) >= 1
    with server(data, "--init") as served:
        assert room_status(served.base, made).status_code == 404  # a new, empty database
        new_room(served.base)
    kept = aside(data, "damaged")
    assert len(kept) == 1 and kept[0].read_bytes() == damaged  # moved aside, never deleted
    marker = read_marker(data / DB_NAME)
    assert marker is not None and marker.note == "made by --init"


def test_a_truncated_file_is_refused_at_start(tmp_path: Path) -> None:
    data = tmp_path / "data"
    made_and_stopped(data, moves=4)
    db = data / DB_NAME
    whole = db.read_bytes()
    with db.open("r+b") as f:
        f.truncate(len(whole) // 2)
    error = refused_start(data)
    assert "is not a usable cuarenta database: it is damaged" in error


def test_a_zero_byte_file_is_refused_at_start_with_or_without_a_marker(tmp_path: Path) -> None:
    data = tmp_path / "data"
    made_and_stopped(data)
    (data / DB_NAME).write_bytes(b"")
    error = refused_start(data)
    assert f"the database {data / DB_NAME} is empty (0 bytes), but the marker {DB_NAME}.marker says" in error
    # an empty file where no server ever made a database is refused too: it is not a new database
    other = tmp_path / "other"
    other.mkdir()
    (other / DB_NAME).write_bytes(b"")
    error = refused_start(other)
    assert "is empty (0 bytes): it is not a cuarenta database" in error
    with server(other, "--init"):
        pass
    assert len(aside(other, "damaged")) == 1 and aside(other, "damaged")[0].stat().st_size == 0


def test_a_deleted_file_is_refused_at_start(tmp_path: Path) -> None:
    data = tmp_path / "data"
    made_and_stopped(data)
    (data / DB_NAME).unlink()
    error = refused_start(data)
    assert f"the database {data / DB_NAME} is missing, but the marker" in error
    assert not (data / DB_NAME).exists()  # not silently made again


def test_a_wal_deleted_after_a_crash_is_refused_at_start(tmp_path: Path) -> None:
    data = tmp_path / "data"
    made, before = made_and_stopped(data)
    with server(data) as served:
        after = played(served, made, 3)  # acknowledged: in the WAL only
        assert after > before and wal_path(data / DB_NAME).exists()
        served.proc.send_signal(signal.SIGKILL)
        served.proc.wait(timeout=30)
    assert marker_state(data) == "open"
    wal_path(data / DB_NAME).unlink()
    (data / f"{DB_NAME}-shm").unlink(missing_ok=True)
    error = refused_start(data)
    assert f"the database's write-ahead log {DB_NAME}-wal is missing or empty" in error
    assert "moves it acknowledged may be lost" in error and "--accept-lost-wal" in error
    with server(data, "--accept-lost-wal") as served:  # the loss accepted: the database as it was
        assert room_status(served.base, made).status_code == 200
    assert stored_state(data, made["room"]) == before


def test_a_wal_kept_after_a_crash_loses_nothing(tmp_path: Path) -> None:
    data = tmp_path / "data"
    made, before = made_and_stopped(data)
    with server(data) as served:
        after = played(served, made, 3)
        served.proc.send_signal(signal.SIGKILL)
        served.proc.wait(timeout=30)
    with server(data):  # no flag needed: SQLite recovers the WAL
        pass
    assert stored_state(data, made["room"]) == after > before


# -- while the server runs -----------------------------------------------------------------------------------
def test_a_page_garbled_under_a_running_server_makes_the_room_corrupt_room(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with server(data, "--max-rooms", "1") as served:
        made = new_room(served.base)
        new_room(served.base)  # the first room leaves memory (at most one is kept)
        assert httpx.get(f"{served.base}/readyz", timeout=30).status_code == 200
        checkpoint(data / DB_NAME)
        garble_pages_of(data / DB_NAME, made["room"])
        answer = room_status(served.base, made)
        assert answer.status_code == 500
        assert answer.headers["content-type"] == "application/json"
        detail = answer.json()["detail"]
        assert f"room {made['room']} cannot be resumed: its save is damaged" in detail, detail
        assert "malformed" in detail
        with connect(served.ws) as ws:
            seat = Seat(ws)
            error = seat.join(made)
            assert error["type"] == "error" and error["code"] == "corrupt_room", error
            seat.send({"type": "ping"})  # the socket is still open and answers
            assert seat.recv()["type"] == "pong"
        deadline = time.monotonic() + 30  # the damage seen makes /readyz run quick_check at once
        while (ready := httpx.get(f"{served.base}/readyz", timeout=30)).status_code != 503:
            assert time.monotonic() < deadline, ready.text
            time.sleep(0.2)
        assert "is damaged (PRAGMA quick_check:" in ready.json()["checks"]["store"]
        assert httpx.get(f"{served.base}/healthz", timeout=30).status_code == 200


def test_no_route_answers_a_bare_internal_server_error_on_a_damaged_file(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with server(data, "--max-rooms", "1") as served:
        made = new_room(served.base)
        new_room(served.base)
        profile = httpx.post(f"{served.base}/api/profiles", json={"name": "Ana"}, timeout=30).json()
        checkpoint(data / DB_NAME)
        db = data / DB_NAME
        with db.open("r+b") as f:  # every page but the header's: nothing of the database reads
            f.seek(PAGE)
            f.write(bytes((i * 151 + 7) % 256 for i in range(db.stat().st_size - PAGE)))
        bearer = {"Authorization": f"Bearer {made['token']}"}
        base = served.base
        tokens = {"tokens": [made["token"]]}
        answers = {
            "new room": httpx.post(f"{base}/api/rooms", json={"players": 2}, timeout=30),
            "room": httpx.get(f"{base}/api/rooms/{made['room']}", headers=bearer, timeout=30),
            "record": httpx.get(f"{base}/api/games/{made['room']}/record", headers=bearer, timeout=30),
            "history": httpx.post(f"{base}/api/history", json=tokens, timeout=30),
            "stats": httpx.get(f"{base}/api/stats", timeout=30),
            "browser stats": httpx.post(f"{base}/api/stats", json=tokens, timeout=30),
            "new table": httpx.post(f"{base}/api/tables", json={"players": 2, "name": "Ana"}, timeout=30),
            "table": httpx.get(f"{base}/api/tables/{made['room']}", timeout=30),
            "join": httpx.post(f"{base}/api/tables/{made['room']}/join", json={"invite": "x", "name": "B"}),
            "start": httpx.post(f"{base}/api/tables/{made['room']}/start", headers=bearer, timeout=30),
            "lobby": httpx.get(f"{base}/api/lobby", timeout=30),
            "new profile": httpx.post(f"{base}/api/profiles", json={"name": "Beto"}, timeout=30),
            "profile": httpx.get(f"{base}/api/profiles/{profile['id']}", timeout=30),
            "leaderboard": httpx.get(f"{base}/api/leaderboard", timeout=30),
        }
        for what, answer in answers.items():
            assert answer.status_code in (500, 503), (what, answer.status_code, answer.text)
            assert answer.headers["content-type"] == "application/json", (what, answer.text)
            detail = answer.json()["detail"]
            assert isinstance(detail, str) and ("damaged" in detail or "database" in detail), (what, detail)
        assert answers["new room"].status_code == 503
        assert answers["new room"].json()["detail"].startswith("the games' database cannot be used just now")
        with connect(served.ws) as ws:
            seat = Seat(ws)
            error = seat.join(made)
            assert error["type"] == "error" and error["code"] == "corrupt_room", error
            seat.send({"type": "ping"})
            assert seat.recv()["type"] == "pong"
    assert "Traceback" not in served.log()


def test_a_file_deleted_under_a_running_server_refuses_every_write_and_a_backup_brings_it_back(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    backup = tmp_path / "before.sqlite3"
    with server(data) as served:
        made = new_room(served.base)
        with connect(served.ws) as ws:
            seat = Seat(ws)
            seat.join(made)
            assert seat.move()["type"] == "state"
            backed_up = int(seat.my_turn()["state"])
            done = subprocess.run(
                [program(), "backup", str(backup), "--data", str(data)], capture_output=True, text=True,
                timeout=120,
            )  # fmt: skip
            assert done.returncode == 0, done.stderr
            assert f"Copia / backup: {backup} (1 rooms, schema" in done.stdout
            assert seat.move()["type"] == "state"  # acknowledged after the backup
            state = seat.my_turn()
            (data / DB_NAME).unlink()  # the file is deleted under the running server
            seat.send({"type": "move", "move": state["legal"][0], "state": state["state"]})
            refused = seat.recv()
            assert refused["type"] == "error" and refused["code"] == "store_unavailable", refused
            assert "is gone (it was deleted while the server ran)" in refused["message"]
            seat.send({"type": "ping"})
            assert seat.recv()["type"] == "pong"
        created = httpx.post(f"{served.base}/api/rooms", json={"players": 2}, timeout=30)
        assert created.status_code == 503 and "is gone" in created.json()["detail"], created.text
        table = httpx.post(f"{served.base}/api/tables", json={"players": 2, "name": "Ana"}, timeout=30)
        assert table.status_code == 503 and "is gone" in table.json()["detail"], table.text
        ready = httpx.get(f"{served.base}/readyz", timeout=30)
        assert ready.status_code == 503 and "is gone" in ready.json()["checks"]["store"]
    assert not (data / DB_NAME).exists()  # the stop made no database again
    error = refused_start(data)
    assert "is missing, but the marker" in error
    done = subprocess.run(
        [program(), "restore", str(backup), "--data", str(data)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    with server(data) as served, connect(served.ws) as ws:  # as the backup had it; play goes on from there
        seat = Seat(ws)
        assert seat.join(made)["state"] == backed_up
        assert seat.move()["type"] == "state"
        now = int(seat.my_turn()["state"])
    assert stored_state(data, made["room"]) == now > backed_up


def test_a_deleted_file_refuses_moves_rooms_tables_and_profiles_under_a_running_server(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    with server(data) as served:
        made = new_room(served.base)
        with connect(served.ws) as ws:
            seat = Seat(ws)
            seat.join(made)
            assert seat.move()["type"] == "state"
            state = seat.my_turn()
            (data / DB_NAME).unlink()
            for _ in range(2):  # refused, and the room did not move on: the same move is refused again
                seat.send({"type": "move", "move": state["legal"][0], "state": state["state"]})
                refused = seat.recv()
                assert refused["type"] == "error" and refused["code"] == "store_unavailable", refused
                assert "is gone (it was deleted while the server ran)" in refused["message"]
        for path, body in (
            ("/api/rooms", {"players": 2}),
            ("/api/tables", {"players": 2, "name": "Ana"}),
            ("/api/profiles", {"name": "Ana"}),
        ):
            answer = httpx.post(served.base + path, json=body, timeout=30)
            assert answer.status_code == 503, (path, answer.status_code, answer.text)
            assert answer.json()["detail"].startswith("the games' database cannot be used just now"), path
    assert not (data / DB_NAME).exists()
    assert "is missing, but the marker" in refused_start(data)


def test_a_file_replaced_under_the_app_refuses_writes_and_readyz(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with running(data, workers=0) as client:
        made = client.post("/api/rooms", json={"players": 2}).json()
        other = tmp_path / "other"
        Store.in_dir(other).close()
        os.replace(other / DB_NAME, data / DB_NAME)  # another database takes the path: a new inode
        answer = client.post("/api/rooms", json={"players": 2})
        assert answer.status_code == 503 and "was replaced by another file" in answer.json()["detail"]
        ready = client.get("/readyz")
        assert ready.status_code == 503 and "was replaced by another file" in ready.json()["checks"]["store"]
        assert client.get(f"/api/rooms/{made['room']}", headers=bearer(made["token"])).status_code == 200


def test_readyz_runs_quick_check_on_its_interval_and_never_waits_for_it(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with running(data, workers=0, integrity_seconds=0.2) as client:
        client.post("/api/rooms", json={"players": 2})
        assert client.get("/readyz").json() == {"ready": True, "checks": {"store": "ok"}}
        checkpoint(data / DB_NAME)
        db = data / DB_NAME
        with db.open("r+b") as f:
            f.seek(PAGE)
            f.write(b"\x07" * PAGE * 3)
        deadline = time.monotonic() + 30  # no read met the damage: the interval finds it
        while (ready := client.get("/readyz")).status_code != 503:
            assert time.monotonic() < deadline, ready.text
            time.sleep(0.1)
        assert "is damaged (PRAGMA quick_check:" in ready.json()["checks"]["store"]


def test_a_row_that_does_not_decode_is_corrupt_room(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with running(data, workers=0, max_rooms=1) as client:
        made = client.post("/api/rooms", json={"players": 2}).json()
        client.post("/api/rooms", json={"players": 2})  # the first room leaves memory
        with sqlite3.connect(data / DB_NAME) as conn:  # text that is not UTF-8
            conn.execute("UPDATE rooms SET rules = CAST(x'ff00fe' AS TEXT) WHERE id = ?", (made["room"],))
        answer = client.get(f"/api/rooms/{made['room']}", headers=bearer(made["token"]))
        assert answer.status_code == 500, answer.text
        assert "cannot be resumed: its save is damaged" in answer.json()["detail"]
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"v": 1, "type": "join", "room": made["room"], "token": made["token"]})
            error = ws.receive_json()
            assert error["type"] == "error" and error["code"] == "corrupt_room", error
            ws.send_json({"v": 1, "type": "ping"})
            assert ws.receive_json()["type"] == "pong"


def test_the_marker_says_closed_only_when_the_last_store_closed_the_file(tmp_path: Path) -> None:
    data = tmp_path / "data"
    first = Store.in_dir(data)
    second = Store.in_dir(data)  # a script beside a server: both have the file open
    assert marker_state(data) == "open"
    first.close()
    assert marker_state(data) == "open" and wal_path(data / DB_NAME).exists()  # the second still writes
    second.close()
    assert marker_state(data) == "closed" and not wal_path(data / DB_NAME).exists()
    third = Store.in_dir(data)  # a store reused after close() marks the file open at its first write
    third.close()
    assert marker_state(data) == "closed"
    third.insert_room(a_room("r1"))
    assert marker_state(data) == "open"
    third.close()
    assert marker_state(data) == "closed"
    forgotten = Store.in_dir(data)  # a store never closed: marked closed when it is collected
    forgotten.insert_room(a_room("r2"))
    del forgotten
    gc.collect()
    assert marker_state(data) == "closed"
    Store.in_dir(data).close()  # and the next start opens it with no flag


def test_a_write_to_a_deleted_file_raises_store_gone_after_its_commit(tmp_path: Path) -> None:
    store = Store.in_dir(tmp_path)
    store.insert_room(a_room("r1"))
    (tmp_path / DB_NAME).unlink()
    with pytest.raises(StoreGone, match=r"is gone .*nothing more can be stored"):
        store.insert_room(a_room("r2"))
    with pytest.raises(StoreGone):
        store.ping()
    store.close()
    assert marker_state(tmp_path) == "open"  # the file is gone: the marker does not say it closed well


def a_room(room_id: str) -> Any:
    from cuarenta.server.store import RoomRow, SeatRow

    return RoomRow(
        id=room_id, created="2026-12-01T00:00:00Z", updated="2026-12-01T00:00:00Z", players=2, level="facil",
        rules='{"preset":"a_todo_rigor"}', seed="7", mesa=1, state=0, status="playing",
        seats=(SeatRow(0, "person", "Ana", None, "h0"), SeatRow(1, "computer", "", "facil", None)),
    )  # fmt: skip


# -- backup and restore --------------------------------------------------------------------------------------
def test_a_backup_taken_while_playing_restores_into_a_fresh_data_dir_and_plays_on(tmp_path: Path) -> None:
    data, fresh = tmp_path / "data", tmp_path / "fresh"
    copy = tmp_path / "copy.sqlite3"
    with server(data) as served:
        made = new_room(served.base)
        with connect(served.ws) as ws:
            seat = Seat(ws)
            seat.join(made)
            for _ in range(3):
                assert seat.move()["type"] == "state"
            state = int(seat.my_turn()["state"])
            done = subprocess.run(
                [program(), "backup", str(copy), "--data", str(data)], capture_output=True, text=True,
                timeout=120,
            )  # fmt: skip
            assert done.returncode == 0, done.stderr
            assert seat.move()["type"] == "state"  # the server plays on while and after the copy is made
    assert not wal_path(copy).exists() and sqlite3.connect(copy).execute(
        "PRAGMA journal_mode"
    ).fetchone() == ("delete",)
    done = subprocess.run(
        [program(), "restore", str(copy), "--data", str(fresh)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert f"Restaurada / restored: {fresh / DB_NAME} (1 rooms, schema" in done.stdout
    marker = read_marker(fresh / DB_NAME)
    assert marker is not None and marker.note.startswith("restored from copy.sqlite3")
    with server(fresh) as served, connect(served.ws) as ws:
        seat = Seat(ws)
        assert seat.join(made)["state"] == state  # the room resumes as the backup had it
        assert seat.move()["type"] == "state"  # a move is accepted …
        after = int(seat.my_turn()["state"])
    assert stored_state(fresh, made["room"]) == after > state  # … and stored


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([program(), *args], capture_output=True, text=True, timeout=120)


def test_restore_refuses_what_it_must_and_keeps_what_it_replaces(tmp_path: Path) -> None:
    data, other = tmp_path / "data", tmp_path / "other"
    Store.in_dir(data).close()
    Store.in_dir(other).close()
    copy = tmp_path / "copy.sqlite3"
    assert run_cli("backup", str(copy), "--data", str(data)).returncode == 0
    again = run_cli("backup", str(copy), "--data", str(data))
    assert again.returncode == 1 and "exists already: give another name, or --force" in again.stderr
    # a sound database is not replaced without --force; with it, it is moved aside
    kept = run_cli("restore", str(copy), "--data", str(other))
    assert kept.returncode == 1 and "holds a database already: give --force" in kept.stderr
    before = (other / DB_NAME).read_bytes()
    assert run_cli("restore", str(copy), "--data", str(other), "--force").returncode == 0
    replaced = aside(other, "replaced")
    assert len(replaced) == 1 and replaced[0].read_bytes() == before
    # never under a running server
    with server(other):
        busy = run_cli("restore", str(copy), "--data", str(other), "--force")
        assert busy.returncode == 1 and "is open in a running cuarenta" in busy.stderr
    # a damaged backup, a newer one, and something that is not a backup are refused
    damaged = tmp_path / "damaged.sqlite3"
    shutil.copy(copy, damaged)
    with damaged.open("r+b") as f:
        f.seek(PAGE)
        f.write(b"\x07" * PAGE)
    bad = run_cli("restore", str(damaged), "--data", str(tmp_path / "x"))
    assert bad.returncode == 1 and "is damaged" in bad.stderr, bad.stderr
    newer = tmp_path / "newer.sqlite3"
    shutil.copy(copy, newer)
    with sqlite3.connect(newer) as conn:
        conn.execute("UPDATE alembic_version SET version_num = 'f00d'")
    refused = run_cli("restore", str(newer), "--data", str(tmp_path / "x"))
    assert refused.returncode == 1 and "written by a newer cuarenta" in refused.stderr
    junk = tmp_path / "junk"
    junk.write_bytes(b"not sqlite " * 500)
    nothing = run_cli("restore", str(junk), "--data", str(tmp_path / "x"))
    assert nothing.returncode == 1 and "not a usable cuarenta database" in nothing.stderr
    assert not (tmp_path / "x" / DB_NAME).exists()
    # PostgreSQL: its own tools, said in one sentence
    pg = run_cli("backup", str(tmp_path / "pg"), "--database", "postgresql+psycopg://u@db.example/cuarenta")
    assert pg.returncode == 1 and "pg_dump" in pg.stderr and "pg_restore" in pg.stderr


def test_restore_needs_no_force_over_an_empty_or_damaged_file(tmp_path: Path) -> None:
    data = tmp_path / "data"
    Store.in_dir(data).close()
    copy = tmp_path / "copy.sqlite3"
    assert run_cli("backup", str(copy), "--data", str(data)).returncode == 0
    (data / DB_NAME).write_bytes(b"")
    assert run_cli("restore", str(copy), "--data", str(data)).returncode == 0
    assert len(aside(data, "replaced")) == 1
    store = Store.in_dir(data)  # the restored database opens with no flag
    store.close()
    assert marker_path(data / DB_NAME).exists()


def test_store_in_memory_refuses_the_sqlite_flags_on_postgresql() -> None:
    with pytest.raises(Exception, match="--init and --accept-lost-wal are for the SQLite file"):
        Store("postgresql+psycopg://u@db.example/cuarenta", init=True)
