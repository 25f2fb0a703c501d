"""Nothing lost: the real ``cuarenta serve`` killed with SIGKILL in the middle of a hand at a table of two
people, started again on the same data, loses no move either person saw acknowledged, applies none twice,
and both people take their seats again with their tokens and play on (docs/tables.md, docs/storage.md).
"""

from __future__ import annotations

import json
import signal
import subprocess
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from support.ports import free_port
from support.served import serve_process

#: real `cuarenta serve` processes: left out of the quick loop (pytest -m "not slow")
pytestmark = pytest.mark.slow


@contextmanager
def serve(data: Path, port: int) -> Iterator[subprocess.Popen[bytes]]:
    """``cuarenta serve`` on ``port`` with ``data``, until /api/health answers; stopped at the end."""
    options = ["--data", str(data), "--bot-delay", "0", "--workers", "0"]
    with serve_process(data.parent / "serve.log", *options, port=port) as served:
        yield served.proc


class Person:
    """One person's socket: the last state it saw."""

    def __init__(self, ws: ClientConnection, room: str, token: str) -> None:
        self.ws = ws
        self.ws.send(json.dumps({"v": 1, "type": "join", "room": room, "token": token}))
        self.last = self.until(lambda m: m["type"] == "state")

    def at(self, state: int) -> dict[str, Any]:
        """The state message numbered ``state`` (the last one seen, or read until it comes)."""
        if self.last["state"] == state:
            return self.last
        return self.until(lambda m: m["type"] == "state" and m["state"] == state)

    def until(self, wanted: Any) -> dict[str, Any]:
        for _ in range(500):
            message: dict[str, Any] = json.loads(self.ws.recv(timeout=30))
            if message["type"] == "state":
                self.last = message
            if wanted(message):
                return message
        raise AssertionError("the message never came")


def test_a_server_killed_mid_hand_loses_no_acknowledged_move(tmp_path: Path) -> None:
    data, port = tmp_path / "data", free_port()
    base, url = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}/ws"
    with serve(data, port) as proc, ExitStack() as stack:
        made = httpx.post(
            f"{base}/api/tables", json={"name": "Ana", "players": 2, "seats": ["friend"]}
        ).json()
        joined = httpx.post(
            f"{base}/api/tables/{made['room']}/join", json={"invite": made["invite"], "name": "Beto"}
        ).json()
        first, second = stack.enter_context(connect(url)), stack.enter_context(connect(url))
        people = [Person(first, made["room"], made["token"]), Person(second, made["room"], joined["token"])]
        acknowledged = people[0].last["state"]
        for _ in range(7):  # a few moves, each acknowledged to its mover by the next state
            (mover,) = [p for p in people if p.at(acknowledged)["legal"]]
            move = {"v": 1, "type": "move", "move": mover.last["legal"][0], "state": acknowledged}
            mover.ws.send(json.dumps(move))
            acknowledged += 1
            for p in people:
                p.at(acknowledged)
        seen = people[0].last
        # in the middle of a hand: cards held, fewer than a deal's (the server's deal is random: a first
        # hand can end as it is dealt, four of a kind winning the chica (R17), and the moves are the next's)
        assert seen["status"] == "playing" and 0 < sum(seen["view"]["hand_sizes"]) < 10, seen["view"]
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        stack.close()
    with serve(data, port), connect(url) as first, connect(url) as second:
        back = [Person(first, made["room"], made["token"]), Person(second, made["room"], joined["token"])]
        for person, before in zip(back, (seen, None), strict=True):
            assert person.last["state"] == acknowledged  # every acknowledged move, none twice
            if before is not None:
                assert person.last["view"] == before["view"]
        # and the game goes on
        (mover,) = [p for p in back if p.last["legal"]]
        mover.ws.send(
            json.dumps({"v": 1, "type": "move", "move": mover.last["legal"][0], "state": acknowledged})
        )
        assert mover.until(lambda m: m["type"] in ("state", "error"))["state"] == acknowledged + 1
