"""Rooms on the store (docs/storage.md): the action log written move by move, resume by replaying it,
corrupt logs, failed saves, practice rooms out of the statistics, and rooms leaving memory.

Everything goes through the real app (FastAPI's TestClient: HTTP and the WebSocket) on real SQLite
files; the computer players think in-process (``workers=0``) with no delay, so the tests are quick.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cuarenta import Game, Rules
from cuarenta.server import create_app
from cuarenta.server.authority.core import room_status
from cuarenta.server.authority.errors import RoomProblem
from cuarenta.server.authority.eventview import engine_view
from cuarenta.server.authority.model import Connection, Room, mesa_seed
from cuarenta.server.edge.ratelimits import Limits
from cuarenta.server.protocol import parse_client_message
from cuarenta.server.store import DB_NAME, Store, StoreError
from cuarenta.server.thinking import make_thinking
from cuarenta.server.wiring import TableRooms as Rooms

#: what a resumed room must show exactly as before
SAME = ("state", "mesa", "seat", "seats", "view", "legal", "hints", "status")


@contextlib.contextmanager
def serving(data_dir: Path) -> Iterator[TestClient]:
    # no rate limits: a test plays much faster than a person
    limits = Limits(ws_rate=1e6, ws_burst=10**6, rooms_per_minute=0)
    with TestClient(create_app(data_dir, bot_delay=0, workers=0, limits=limits)) as client:
        yield client


class Socket:
    """One browser socket of a seat."""

    def __init__(self, client: TestClient) -> None:
        self._cm: Any = client.websocket_connect("/ws")
        self.ws = self._cm.__enter__()
        self.last: dict[str, Any] = {}

    def close(self) -> None:
        self._cm.__exit__(None, None, None)

    def __enter__(self) -> Socket:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def recv(self) -> dict[str, Any]:
        message: dict[str, Any] = self.ws.receive_json()
        if message["type"] == "state":
            self.last = message
        return message

    def join(self, room: str, token: str) -> dict[str, Any]:
        self.ws.send_json({"v": 1, "type": "join", "room": room, "token": token})
        return self.recv()

    def my_turn(self) -> dict[str, Any]:
        """Read until this seat has legal moves or the mesa is over (the computer players move meanwhile)."""
        while not self.last["legal"] and self.last["status"] == "playing":
            assert self.recv()["type"] == "state", self.last
        return self.last

    def play(self, moves: int | None = None) -> dict[str, Any]:
        """Play the first legal move ``moves`` times (or to the end of the mesa); the state on this seat's
        turn (or the final one)."""
        while moves is None or moves > 0:
            state = self.my_turn()
            if state["status"] == "finished":
                break
            self.ws.send_json({"v": 1, "type": "move", "move": state["legal"][0], "state": state["state"]})
            reply = self.recv()
            assert reply["type"] == "state", reply
            moves = None if moves is None else moves - 1
        return self.my_turn()


def new_room(client: TestClient, **body: Any) -> tuple[str, str]:
    response = client.post("/api/rooms", json={"level": "facil", **body})
    assert response.status_code == 200, response.text
    return response.json()["room"], response.json()["token"]


def rooms_of(client: TestClient) -> Rooms:
    rooms: Rooms = client.app.state.rooms  # type: ignore[attr-defined]
    return rooms


def store_of(client: TestClient) -> Store:
    store: Store = client.app.state.store  # type: ignore[attr-defined]
    return store


def replayed(store: Store, room_id: str) -> Game:
    """The current mesa of a room as its stored log replays, computed here with the engine alone."""
    row = store.load_room(room_id)
    assert row is not None
    actions = store.load_actions(room_id, row.mesa)
    assert [seq for seq, _ in actions] == list(range(1, len(actions) + 1))
    return Game.replay(Rules.from_dict(json.loads(row.rules)), mesa_seed(json.loads(row.seed), row.mesa),
                       [a for _, a in actions])  # fmt: skip


def damage(data_dir: Path, *sql: str, room: str = "") -> None:
    """Change the database behind the server's back (a plain connection: foreign keys not enforced)."""
    conn = sqlite3.connect(data_dir / DB_NAME)
    with conn:
        for statement in sql:
            conn.execute(statement, {"room": room} if ":room" in statement else {})
    conn.close()


# -- the log -----------------------------------------------------------------------------------------------
def test_every_action_is_one_row_of_the_log_and_the_room_row_keeps_the_counters(tmp_path: Path) -> None:
    with serving(tmp_path) as client, Socket(client) as sock:
        room_id, token = new_room(client)
        sock.join(room_id, token)
        state = sock.play(4)
        room = rooms_of(client).get(room_id)
        store = store_of(client)
        log = store.load_actions(room_id, 1)
        assert [a for _, a in log] == [str(a) for a in room.game.actions]
        assert len(log) == state["state"] == room.state >= 4
        row = store.load_room(room_id)
        assert row is not None
        assert (row.mesa, row.state, row.mesa_state, row.status, row.practice) == (
            1,
            room.state,
            0,
            "playing",
            False,
        )
        assert replayed(store, room_id).state_summary() == room.game.state_summary()
    with sqlite3.connect(tmp_path / DB_NAME) as conn:  # the game is no longer kept as one JSON text
        assert "game" not in [c[1] for c in conn.execute("PRAGMA table_info(rooms)")]


def test_resume_replays_the_log(tmp_path: Path) -> None:
    with serving(tmp_path) as client, Socket(client) as sock:
        room_id, token = new_room(client)
        sock.join(room_id, token)
        before = sock.play(5)
        saved = rooms_of(client).get(room_id).game.to_json()
    with serving(tmp_path) as client, Socket(client) as sock:
        assert rooms_of(client).in_memory() == 0
        again = sock.join(room_id, token)
        assert rooms_of(client).get(room_id).game.to_json() == saved
        assert {k: again[k] for k in SAME} == {k: before[k] for k in SAME}
        sock.play(2)
        game = rooms_of(client).get(room_id).game
        assert replayed(store_of(client), room_id).state_summary() == game.state_summary()
        total = len(game.actions)
    # the log, not a copy of the game, is what a resume plays: cut its last action and the room is resumed
    # one action earlier
    store = Store.in_dir(tmp_path)
    cut = replayed(store, room_id)
    store.close()
    cut.pop()
    damage(tmp_path, f"DELETE FROM actions WHERE seq = {total}", "UPDATE rooms SET state = state - 1")
    with serving(tmp_path) as client, Socket(client) as sock:
        earlier = sock.join(room_id, token)
        assert earlier["state"] == total - 1
        assert without_sayings(earlier["view"]) == cut.view(0).to_dict()


def without_sayings(view: dict[str, Any]) -> dict[str, Any]:
    """A view as sent, less the sayings and the fields the server adds for the page (eventview)."""
    return engine_view(view)


@pytest.mark.parametrize(
    ("sql", "reason"),
    [
        (["DELETE FROM actions WHERE room = :room AND seq = 2"], "jumps from action 1 to 3"),
        (["UPDATE actions SET action = 'Kz' WHERE room = :room AND seq = 3"], "Kz"),
        (
            [
                "UPDATE actions SET action = (SELECT action FROM actions WHERE room = :room AND seq = 1) "
                "WHERE room = :room AND seq = 3"
            ],
            "action 3",
        ),
        (["UPDATE rooms SET state = state + 2 WHERE id = :room"], "does not match the log"),
        (["UPDATE rooms SET state = state - 1 WHERE id = :room"], "does not match the log"),
        (["UPDATE rooms SET mesa_state = 5 WHERE id = :room"], "does not match the log"),
        (["UPDATE rooms SET status = 'finished' WHERE id = :room"], "replays to 'playing'"),
        (["UPDATE rooms SET mesa = 2 WHERE id = :room"], "is not a count"),
        (["UPDATE rooms SET seed = '\"another\"' WHERE id = :room"], "action"),
    ],
)
def test_a_log_that_does_not_replay_is_a_corrupt_room(tmp_path: Path, sql: list[str], reason: str) -> None:
    with serving(tmp_path) as client, Socket(client) as sock:
        room_id, token = new_room(client)
        sock.join(room_id, token)
        sock.play(3)
        other_id, other_token = new_room(client)
    damage(tmp_path, *sql, room=room_id)
    with serving(tmp_path) as client, Socket(client) as sock:
        sock.ws.send_json({"v": 1, "type": "join", "room": room_id, "token": token})
        reply = sock.recv()
        assert reply["type"] == "error" and reply["code"] == "corrupt_room", reply
        assert room_id in reply["message"] and reason in reply["message"], reply["message"]
        with pytest.raises(RoomProblem, match="corrupt"):
            rooms_of(client).get(room_id)
        other = sock.join(other_id, other_token)
        assert other["type"] == "state", other  # the server and the socket go on


def test_a_move_that_cannot_be_stored_is_refused_and_undone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A move is acknowledged only once stored: a failed write refuses it (``store_unavailable``), the
    game is as before, and the same move goes through once the store works again."""
    with serving(tmp_path) as client:
        rooms, store = rooms_of(client), store_of(client)
        original = store.save_room
        failing = False

        def save_room(*args: Any, **kwargs: Any) -> None:
            if failing:
                raise StoreError("the disk is full (a test)")
            original(*args, **kwargs)

        monkeypatch.setattr(store, "save_room", save_room)
        room_id, token = new_room(client)
        with Socket(client) as sock:
            sock.join(room_id, token)
            state = sock.my_turn()
            room = rooms.get(room_id)
            before = (room.state, room.game.state_summary(), len(room.game.actions))
            stored = store.load_actions(room_id, 1)
            failing = True
            move = state["legal"][0]
            sock.ws.send_json({"v": 1, "type": "move", "move": move, "state": state["state"]})
            reply = sock.recv()
            assert reply["type"] == "error" and reply["code"] == "store_unavailable", reply
            assert "disk is full" in reply["message"]
            assert (room.state, room.game.state_summary(), len(room.game.actions)) == before
            assert store.load_actions(room_id, 1) == stored
            failing = False
            sock.ws.send_json({"v": 1, "type": "move", "move": move, "state": state["state"]})
            after = sock.recv()
            assert after["type"] == "state" and after["state"] == state["state"] + 1, after
            sock.my_turn()  # the computer has answered (nobody moves while the two are compared)
            assert [a for _, a in store.load_actions(room_id, 1)][len(stored)] == move
            assert replayed(store, room_id).state_summary() == rooms.get(room_id).game.state_summary()


def test_a_whole_mesa_then_next_keeps_the_finished_row_and_starts_a_new_log(tmp_path: Path) -> None:
    with serving(tmp_path) as client, Socket(client) as sock:
        room_id, token = new_room(client, rules={"preset": "basico"})
        sock.join(room_id, token)
        final = sock.play()
        assert final["status"] == "finished"
        store, room = store_of(client), rooms_of(client).get(room_id)
        first = room.game
        assert [a for _, a in store.load_actions(room_id, 1)] == [str(a) for a in first.actions]
        row = store.finished_mesa(room_id, 1)
        assert row is not None and not row.practice and row.winner == first.outcome.winner  # type: ignore[union-attr]
        sock.ws.send_json({"v": 1, "type": "next"})
        assert sock.recv()["mesa"] == 2
        sock.play(2)
    with serving(tmp_path) as client, Socket(client) as sock:
        again = sock.join(room_id, token)
        assert again["mesa"] == 2 and again["state"] == len(first.actions) + 1 + len(
            store.load_actions(room_id, 2)
        )
        stored = store_of(client).load_room(room_id)
        assert stored is not None and stored.mesa_state == len(first.actions) + 1
        assert store_of(client).load_actions(room_id, 1) == store.load_actions(room_id, 1)  # append-only


# -- practice rooms ------------------------------------------------------------------------------------------
def test_practice_rooms_are_marked_and_stay_out_of_the_statistics(tmp_path: Path) -> None:
    with serving(tmp_path) as client:
        rooms = rooms_of(client)
        with pytest.raises(ValueError, match="only for a practice room"):
            rooms.create(rules=Rules.preset("basico"), level="facil", seed=5)
        practice, practice_token = rooms.create(
            rules=Rules.preset("basico"), level="facil", seed=5, practice=True
        )
        assert practice.game.seed == mesa_seed(5, 1)
        assert room_status(practice)["practice"] is True
        real_id, real_token = new_room(client, rules={"preset": "basico"})
        assert room_status(rooms.get(real_id))["practice"] is False
        for room_id, token in ((practice.id, practice_token), (real_id, real_token)):
            with Socket(client) as sock:
                sock.join(room_id, token)
                assert sock.play()["status"] == "finished"
        store = store_of(client)
        assert store.finished_mesa(practice.id, 1).practice is True  # type: ignore[union-attr]
        assert store.finished_mesa(real_id, 1).practice is False  # type: ignore[union-attr]
        stats = client.get("/api/stats").json()["levels"]["facil"]
        real = rooms.get(real_id).game
        assert stats["played"] == 1 and stats["won"] == int(real.outcome.winner == 0)  # type: ignore[union-attr]
    with serving(tmp_path) as client:  # the mark is stored: still a practice room after a restart
        assert room_status(rooms_of(client).get(practice.id))["practice"] is True
        assert client.get("/api/stats").json()["levels"]["facil"]["played"] == 1


# -- rooms in memory ------------------------------------------------------------------------------------
def test_rooms_in_memory_stay_bounded_and_an_evicted_room_comes_back_the_same(tmp_path: Path) -> None:
    with serving(tmp_path) as client:
        rooms = rooms_of(client)
        rooms.max_rooms = 4
        first_id, first_token = new_room(client)
        with Socket(client) as sock:
            sock.join(first_id, first_token)
            before = sock.play(3)
            game_before = rooms.get(first_id).game.to_json()
        counts = []
        for _ in range(10):
            new_room(client)
            counts.append(rooms.in_memory())
        assert max(counts) == 4 and first_id not in rooms._rooms
        with Socket(client) as sock:
            again = sock.join(first_id, first_token)  # loaded again from the store
            assert {k: again[k] for k in SAME} == {k: before[k] for k in SAME}
            assert rooms.get(first_id).game.to_json() == game_before
            after = sock.play(1)
            assert after["state"] > before["state"]
            assert rooms.in_memory() == 4
            for _ in range(5):  # a room with a socket is never evicted
                new_room(client)
            assert first_id in rooms._rooms
        assert (
            replayed(store_of(client), first_id).state_summary() == rooms.get(first_id).game.state_summary()
        )


def test_what_leaves_memory_and_what_stays(tmp_path: Path) -> None:
    store = Store.in_dir(tmp_path)

    async def scenario() -> None:
        rooms = Rooms(store, bot_delay=0, thinking=make_thinking(0), max_rooms=2, idle_seconds=60)
        now = [1000.0]
        rooms.clock = lambda: now[0]

        def make() -> Room:
            room, _ = rooms.create(rules=Rules(), level="facil")
            now[0] += 1
            return room

        with_socket = make()
        with_socket.connections.add(Connection())
        with_bot = make()
        bot = asyncio.get_running_loop().create_task(asyncio.sleep(3600))
        with_bot.bot_task = bot
        with_timer = make()
        timer = asyncio.get_running_loop().create_task(asyncio.sleep(3600))
        with_timer.timer_task = timer  # a table's grace or turn clock under way
        newest = make()
        # over the bound, but every other room is in use (and so counts as used just now)
        assert set(rooms._rooms) == {with_socket.id, with_bot.id, with_timer.id, newest.id}
        fifth = make()  # the least recently used room not in use leaves: ``newest``
        assert set(rooms._rooms) == {with_socket.id, with_bot.id, with_timer.id, fifth.id}
        assert next(iter(rooms._rooms)) == fifth.id  # the rooms in use were touched after it was asked for
        bot.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await bot
        timer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await timer
        assert rooms.evict() == 2 and rooms.in_memory() == 2  # nothing runs now: the two least recent go
        assert set(rooms._rooms) == {with_socket.id, with_bot.id}
        # idle: unused for idle_seconds, a room leaves memory even under the bound
        rooms.max_rooms = 10
        now[0] = with_bot.last_used + 59
        assert rooms.evict() == 0
        now[0] = with_bot.last_used + 61
        assert rooms.evict() == 1 and set(rooms._rooms) == {with_socket.id}  # the socket's room stays
        # and comes back, the same game
        back = rooms.get(with_bot.id)
        assert back is not with_bot and back.game.state_summary() == with_bot.game.state_summary()
        assert back.game.to_json() == with_bot.game.to_json()
        await rooms.close()

    asyncio.run(scenario())
    store.close()


def test_bad_bounds_are_refused(tmp_path: Path) -> None:
    store = Store.in_dir(tmp_path)
    for bad in ({"max_rooms": 0}, {"max_rooms": 2.5}, {"max_rooms": True}, {"idle_seconds": 0}):
        with pytest.raises(ValueError, match=r"max_rooms|idle_seconds"):
            Rooms(store, thinking=make_thinking(0), **bad)  # type: ignore[arg-type]
    store.close()


def test_a_socket_join_of_a_refused_message_does_not_load_rooms(tmp_path: Path) -> None:
    with serving(tmp_path) as client:
        message = parse_client_message(json.dumps({"v": 1, "type": "join", "room": "nope", "token": "x"}))
        conn = Connection()
        with pytest.raises(Exception, match="no room"):
            rooms_of(client).join(conn, message.request)  # type: ignore[arg-type]
        assert rooms_of(client).in_memory() == 0


def test_a_socket_moving_to_another_room_never_loses_the_room_it_joins(tmp_path: Path) -> None:
    with serving(tmp_path) as client:
        rooms = rooms_of(client)
        first, first_token = new_room(client)
        second, second_token = new_room(client)
        rooms.max_rooms = 1
        rooms.evict()
        with Socket(client) as sock:
            sock.join(first, first_token)
            sock.play(1)
            assert second not in rooms._rooms
            # the second room is loaded while the first still has the socket; leaving the first must not
            # evict the room being joined (two copies of one room would then be played)
            joined = sock.join(second, second_token)
            assert joined["type"] == "state" and set(rooms._rooms) == {second}
            room = rooms.get(second)
            assert any(conn.room is room for conn in room.connections)
            sock.play(1)
            assert [a for _, a in store_of(client).load_actions(second, 1)] == [
                str(a) for a in room.game.actions
            ]


class MoveBetweenReads:
    """The store as another server process sees it: a move is stored (``sneak``) between the first read
    of a room's row and the read of its log (a cluster's race)."""

    def __init__(self, store: Store, sneak: Any) -> None:
        self.store, self.sneak, self.rows = store, sneak, 0

    def load_room(self, room_id: str) -> Any:
        self.rows += 1
        return self.store.load_room(room_id)

    def load_actions(self, room_id: str, mesa: int, after: int = 0) -> list[tuple[int, str]]:
        if self.sneak is not None:
            sneak, self.sneak = self.sneak, None
            sneak()
        return self.store.load_actions(room_id, mesa, after)


def test_a_move_stored_between_the_reads_of_a_room_and_its_log_is_read_again_not_corrupt(
    tmp_path: Path,
) -> None:
    from cuarenta.server.authority.rows import read_room, room_from_row

    with serving(tmp_path) as client, Socket(client) as sock:
        room_id, token = new_room(client)
        sock.join(room_id, token)
        sock.play(2)
        store = store_of(client)
        # the race, as two plain reads meet it: the row is a move behind its log
        racing = MoveBetweenReads(store, lambda: sock.play(1))
        row = racing.load_room(room_id)
        assert row is not None
        with pytest.raises(RoomProblem, match="does not match the log"):
            room_from_row(row, racing.load_actions(room_id, row.mesa))
        # read_room reads the row again: the two agree, and the room is the one in play
        racing = MoveBetweenReads(store, lambda: sock.play(1))
        found = read_room(racing, room_id)
        assert found is not None and racing.rows == 2
        room = room_from_row(*found)
        assert room.game.to_json() == rooms_of(client).get(room_id).game.to_json()


class MoveBeforeEveryLog(MoveBetweenReads):
    """A table so busy that a move is stored between every read of its row and its log."""

    def load_actions(self, room_id: str, mesa: int, after: int = 0) -> list[tuple[int, str]]:
        if self.sneak is not None:
            self.sneak()
        return self.store.load_actions(room_id, mesa, after)


def test_a_room_whose_moves_outrun_every_read_is_read_as_its_row_says_not_corrupt(tmp_path: Path) -> None:
    """A cluster node reading a busy table on a loaded machine (issue 25 item 18: a championship's
    ``GET`` answered ``corrupt_room``): every read of its log is a move ahead of its row, so the row's
    version changes between the reads; the room is the one at the last row's version."""
    from cuarenta.server.authority.rows import READ_AGAIN, read_room, room_from_row

    with serving(tmp_path) as client, Socket(client) as sock:
        room_id, token = new_room(client)
        sock.join(room_id, token)
        sock.play(2)
        store = store_of(client)
        racing = MoveBeforeEveryLog(store, lambda: sock.play(1))
        found = read_room(racing, room_id)
        assert found is not None and racing.rows == READ_AGAIN
        row, log = found
        room = room_from_row(row, log)  # not corrupt: the log as it was at the row's version
        assert room.state == row.state and room.version == row.version
        assert len(room.game.actions) < len(store.load_actions(room_id, row.mesa))
