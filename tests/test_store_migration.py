"""Upgrading a database of cuarenta 0.1's hand-written store (schema 1) to the action log (docs/storage.md).

The v1 files are real: ``scripts/v1_store.py`` keeps that store's code as it was (its DDL, its writes)
and plays rooms the way the old server saved them — created, moves played, mesas finished, ``next``,
2v2 — then the current server opens the file. Nothing may be lost: every room resumes to the same game
at the same state counter, finished mesas keep their rows and records, statistics and history answer
as before, and a room whose old save does not replay is kept and reported, never dropped.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import sqlite3
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cuarenta import Game, GameRecord
from cuarenta.server import create_app
from cuarenta.server.authority.errors import RoomProblem
from cuarenta.server.edge.ratelimits import Limits
from cuarenta.server.store import DB_NAME, SCHEMA_REVISION, USER_VERSION, Store
from cuarenta.server.wiring import TableRooms as Rooms

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "v1_store.py"


def load_v1() -> ModuleType:
    spec = importlib.util.spec_from_file_location("cuarenta_v1_store", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


v1 = load_v1()


@contextlib.contextmanager
def serving(data_dir: Path) -> Iterator[TestClient]:
    limits = Limits(ws_rate=1e6, ws_burst=10**6, rooms_per_minute=0)
    with TestClient(create_app(data_dir, bot_delay=0, workers=0, limits=limits)) as client:
        yield client


def table(path: Path, sql: str) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def columns(path: Path, name: str) -> list[str]:
    return [c[1] for c in table(path, f"PRAGMA table_info({name})")]


@pytest.fixture
def v1_dir(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    data = tmp_path / "data"
    data.mkdir()
    rooms = v1.write_sample(data / DB_NAME)
    return data, rooms


def join(client: TestClient, room: str, token: str) -> dict[str, Any]:
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"v": 1, "type": "join", "room": room, "token": token})
        message: dict[str, Any] = ws.receive_json()
    return message


def test_the_v1_sample_is_what_the_old_store_wrote(v1_dir: tuple[Path, dict[str, Any]]) -> None:
    data, rooms = v1_dir
    path = data / DB_NAME
    assert table(path, "PRAGMA user_version") == [(1,)]
    assert "game" in columns(path, "rooms")
    assert {r[0] for r in table(path, "SELECT name FROM sqlite_master WHERE type = 'table'")} == {
        "rooms",
        "seats",
        "finished",
    }
    saved = dict(table(path, "SELECT id, game FROM rooms"))
    for room in rooms.values():  # the old save: the whole game, as JSON
        assert saved[room.id] == room.game.to_json()
    assert rooms["second"].mesa == 2 and rooms["finished"].game.is_over and rooms["pair"].rules.players == 4


def test_a_v1_database_is_migrated_with_nothing_lost(v1_dir: tuple[Path, dict[str, Any]]) -> None:
    data, rooms = v1_dir
    path = data / DB_NAME
    finished_before = table(path, f"SELECT {v1.FINISHED_COLUMNS} FROM finished ORDER BY room, mesa")
    seats_before = table(path, "SELECT * FROM seats ORDER BY room, seat")
    rooms_before = table(
        path, "SELECT id, created, players, level, rules, seed, mesa, state, status FROM rooms ORDER BY id"
    )
    with serving(data) as client:
        # the schema: upgraded, the old column gone (its content now the log)
        store: Store = client.app.state.store  # type: ignore[attr-defined]
        assert store.schema_revision() == SCHEMA_REVISION
        assert table(path, "PRAGMA user_version") == [(USER_VERSION,)]
        assert "game" not in columns(path, "rooms")
        # every room and seat kept; finished mesas unchanged
        assert (
            table(
                path,
                "SELECT id, created, players, level, rules, seed, mesa, state, status FROM rooms ORDER BY id",
            )
            == rooms_before
        )
        seat_columns = "room, seat, kind, name, level, token_hash"
        assert table(path, f"SELECT {seat_columns} FROM seats ORDER BY room, seat") == seats_before
        # the columns of later revisions: no table options, no profile, nobody left
        assert table(path, "SELECT DISTINCT table_options, started FROM rooms") == [(None, 1)]
        assert table(path, 'SELECT DISTINCT profile, "left" FROM seats') == [(None, 0)]
        assert (
            table(path, f"SELECT {v1.FINISHED_COLUMNS} FROM finished ORDER BY room, mesa") == finished_before
        )
        assert table(path, "SELECT COUNT(*) FROM finished WHERE practice") == [(0,)]
        # every room resumes to the very game the old server held, at the same state counter
        server_rooms: Rooms = client.app.state.rooms  # type: ignore[attr-defined]
        for old in rooms.values():
            room = server_rooms.get(old.id)
            assert room.game.to_json() == old.game.to_json(), old.id
            assert (room.mesa, room.state, room.status) == (
                old.mesa,
                old.state,
                "finished" if old.game.is_over else "playing",
            )
            assert [a for _, a in store.load_actions(old.id, old.mesa)] == [str(a) for a in old.game.actions]
            message = join(client, old.id, old.token)
            assert (
                message["type"] == "state" and message["state"] == old.state and message["mesa"] == old.mesa
            )
        second = store.load_room("second")
        assert second is not None and second.mesa_state == rooms["second"].state - 5
        # history, records and statistics answer from the kept rows
        token_hashes = {hashlib.sha256(r.token.encode()).hexdigest(): r.id for r in rooms.values()}
        assert {room for room, _ in store.rooms_of_tokens(token_hashes)} == set(rooms)
        history = store.finished_of_rooms(list(rooms))
        assert {(f.room, f.mesa) for f in history} == {("finished", 1), ("second", 1)}
        for f in history:
            assert GameRecord.from_text(f.record).replay().is_over
        record = store.finished_mesa("finished", 1)
        assert record is not None
        assert (
            GameRecord.from_text(record.record).replay().state_summary()
            == rooms["finished"].game.state_summary()
        )
        levels = client.get("/api/stats").json()["levels"]
        wins = sum(1 for f in finished_before if f[8] == f[7])
        assert levels["facil"] == {
            "played": 2,
            "won": wins,
            "caidas": sum(f[11] for f in finished_before),
            "limpias": sum(f[12] for f in finished_before),
        }
        # and the game goes on: a move in a migrated room appends to its log
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"v": 1, "type": "join", "room": "playing", "token": rooms["playing"].token})
            state = ws.receive_json()
            while not state["legal"]:
                state = ws.receive_json()
            ws.send_json({"v": 1, "type": "move", "move": state["legal"][0], "state": state["state"]})
            assert ws.receive_json()["state"] == state["state"] + 1
        assert len(store.load_actions("playing", 1)) >= rooms["playing"].state + 1
    # opened again: nothing more to do, nothing changed
    with serving(data) as client:
        assert client.app.state.store.schema_revision() == SCHEMA_REVISION  # type: ignore[attr-defined]
        assert join(client, "fresh", rooms["fresh"].token)["state"] == 0


def test_a_v1_room_whose_save_does_not_replay_is_kept_and_reported(
    v1_dir: tuple[Path, dict[str, Any]],
) -> None:
    data, rooms = v1_dir
    path = data / DB_NAME
    broken = '{"format": "cuarenta-game", "version": 1, "rules"'  # cut short
    elsewhere = Game.new(rooms["pair"].rules, seed=999).to_json()  # a good game, but not this room's mesa
    with contextlib.closing(sqlite3.connect(path)) as conn, conn:
        conn.execute("UPDATE rooms SET game = ? WHERE id = 'playing'", (broken,))
        conn.execute("UPDATE rooms SET game = ? WHERE id = 'pair'", (elsewhere,))
    with serving(data) as client:
        store: Store = client.app.state.store  # type: ignore[attr-defined]
        server_rooms: Rooms = client.app.state.rooms  # type: ignore[attr-defined]
        assert store.legacy_game("playing") == broken and store.legacy_game("pair") == elsewhere
        for room_id, reason in (("playing", "not valid JSON"), ("pair", "not mesa 1 of the room")):
            with pytest.raises(RoomProblem, match="could not be turned into an action log") as problem:
                server_rooms.get(room_id)
            assert problem.value.code == "corrupt_room" and reason in problem.value.message
            message = join(client, room_id, rooms[room_id].token)
            assert message["code"] == "corrupt_room" and room_id in message["message"]
            assert store.load_room(room_id) is not None  # kept, with its seats
            assert (
                store.seat_of_token(room_id, hashlib.sha256(rooms[room_id].token.encode()).hexdigest()) == 0
            )
        for room_id in ("fresh", "finished", "second"):  # the others are fine
            assert server_rooms.get(room_id).game.to_json() == rooms[room_id].game.to_json()


def test_a_failed_migration_leaves_the_v1_file_as_it_was(
    v1_dir: tuple[Path, dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    data, rooms = v1_dir
    path = data / DB_NAME
    everything = "SELECT type, name, sql FROM sqlite_master ORDER BY name"
    schema_before = table(path, everything)
    rooms_before = table(path, "SELECT * FROM rooms ORDER BY id")
    original = Game.replay
    calls = []

    def replay(*args: Any, **kwargs: Any) -> Game:
        calls.append(1)
        if len(calls) == 3:  # half-way through the rooms: a crash, not a bad save
            raise RuntimeError("the machine stopped (a test)")
        return original(*args, **kwargs)

    monkeypatch.setattr(Game, "replay", staticmethod(replay))
    with pytest.raises(RuntimeError, match="machine stopped"):
        Store.in_dir(data)
    assert table(path, everything) == schema_before  # no new table, column or version row
    assert table(path, "SELECT * FROM rooms ORDER BY id") == rooms_before
    assert table(path, "PRAGMA user_version") == [(1,)]
    monkeypatch.setattr(Game, "replay", original)
    store = Store.in_dir(data)  # the next start migrates it whole
    assert store.schema_revision() == SCHEMA_REVISION
    assert [a for _, a in store.load_actions("playing", 1)] == [str(a) for a in rooms["playing"].game.actions]
    store.close()


def test_the_v1_writer_script_refuses_to_overwrite(tmp_path: Path) -> None:
    out = tmp_path / "v1.sqlite3"
    assert v1.main([str(out)]) == 0 and out.is_file()
    assert v1.main([str(out)]) == 1
    assert v1.main([]) == 2
