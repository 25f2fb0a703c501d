"""Resume after a real restart: ``cuarenta serve`` as a subprocess, stopped and started again on the same
data directory, a real WebSocket; the room comes back by replaying its action log (docs/storage.md)."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from cuarenta import Game, Rules
from cuarenta.server.authority.model import mesa_seed
from cuarenta.server.store import DB_NAME, Store
from support.served import serve_process

#: real `cuarenta serve` processes: left out of the quick loop (pytest -m "not slow")
pytestmark = pytest.mark.slow

#: what a resumed room must show exactly as before
SAME = ("state", "mesa", "seat", "seats", "view", "legal", "hints", "status")


@contextlib.contextmanager
def serve(data: Path) -> Iterator[str]:
    """``cuarenta serve`` on a free port until the block ends (then stopped as a service stop would)."""
    options = ["--data", str(data), "--bot-delay", "0", "--workers", "0"]
    with serve_process(data.parent / "serve.log", *options) as served:
        yield served.base


class Seat:
    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.last: dict[str, Any] = {}

    def recv(self) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.recv(timeout=30))
        assert message["type"] in ("state", "pong"), message
        if message["type"] == "state":
            self.last = message
        return message

    def join(self, room: str, token: str) -> dict[str, Any]:
        self.ws.send(json.dumps({"v": 1, "type": "join", "room": room, "token": token}))
        return self.recv()

    def play(self, moves: int) -> dict[str, Any]:
        """Play the first legal move ``moves`` times; the state when it is this seat's turn again."""
        for _ in range(moves):
            while not self.last["legal"]:
                self.recv()
            self.ws.send(
                json.dumps(
                    {"v": 1, "type": "move", "move": self.last["legal"][0], "state": self.last["state"]}
                )
            )
            self.recv()
        while not self.last["legal"]:
            self.recv()
        return self.last


def stored_game(data: Path, room: str) -> tuple[int, Game]:
    """The room's state counter and its mesa replayed from the stored log, read with the store alone."""
    store = Store.in_dir(data)
    try:
        row = store.load_room(room)
        assert row is not None
        log = store.load_actions(room, row.mesa)
        assert [seq for seq, _ in log] == list(range(1, len(log) + 1))
        seed = mesa_seed(json.loads(row.seed), row.mesa)
        return row.state, Game.replay(Rules.from_dict(json.loads(row.rules)), seed, [a for _, a in log])
    finally:
        store.close()


def test_a_room_resumes_after_a_real_restart_by_replaying_its_log(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with serve(data) as base:
        made = httpx.post(f"{base}/api/rooms", json={"players": 2, "level": "facil"}).json()
        with connect(base.replace("http", "ws") + "/ws") as ws:
            seat = Seat(ws)
            seat.join(made["room"], made["token"])
            before = seat.play(6)
    assert (data / DB_NAME).is_file()
    state, game = stored_game(data, made["room"])
    assert state == before["state"] == len(game.actions) >= 6  # one log row per action, nothing else
    assert game.view(0).to_dict()["hand"] == before["view"]["hand"]
    with serve(data) as base, connect(base.replace("http", "ws") + "/ws") as ws:
        seat = Seat(ws)
        again = seat.join(made["room"], made["token"])
        assert {k: again[k] for k in SAME} == {k: before[k] for k in SAME}
        after = seat.play(2)
        assert after["state"] >= before["state"] + 2
    state, game = stored_game(data, made["room"])
    assert state == after["state"] == len(game.actions)
    assert game.view(0).to_dict()["hand"] == after["view"]["hand"]
