"""The web app in a test: a server on a data directory (FastAPI's TestClient, real worker processes),
a browser's WebSocket that checks what it received against the spy, and small HTTP helpers.

    with running(tmp_path / "data") as client, Browser(client, spy) as browser:
        made = new_room(client)
        browser.join(made["room"], made["token"])
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import anyio
from fastapi.testclient import TestClient

from cuarenta.server import create_app
from cuarenta.server.authority.model import Room
from cuarenta.server.edge.ratelimits import Limits
from cuarenta.server.protocol import ERROR_CODES
from support.spy import Spy

#: Seconds a browser waits for its next message before the test fails saying what it holds (a socket the
#: server stopped writing to would otherwise block the test until pytest-timeout, with nothing to read).
RECV_SECONDS: Final = 120.0

#: Browsers not closed yet (a failed test closes them before its server stops, or the server would wait).
OPEN: list[Browser] = []


@contextlib.contextmanager
def running(data_dir: Path, bot_delay: float = 0, **options: Any) -> Iterator[TestClient]:
    """A server on ``data_dir`` for the length of a ``with`` block; its sockets are closed first.

    The tests play far faster than a person: the rate limits (tests/test_security.py) are lifted.
    Computer players think in two worker processes (``cuarenta serve``'s default is one per core)."""
    options.setdefault(
        "limits",
        Limits(ws_rate=1e6, ws_burst=10**6, rooms_per_minute=0, sockets_per_address=0, http_per_minute=0),
    )
    options.setdefault("workers", 2)  # real worker processes, as many whatever the machine's cores
    with TestClient(create_app(data_dir, bot_delay=bot_delay, **options)) as client:
        try:
            yield client
        finally:
            for browser in [b for b in OPEN if b.client is client]:
                browser.close()


# -- a browser ----------------------------------------------------------------------------------------------
class Browser:
    """One WebSocket with the messages it received; checks them against what the server recorded."""

    def __init__(self, client: TestClient, spy: Spy) -> None:
        self.client = client
        self.spy = spy
        self._cm: Any = client.websocket_connect("/ws")
        self.ws = self._cm.__enter__()
        OPEN.append(self)
        self.received: list[dict[str, Any]] = []
        self.last: dict[str, Any] | None = None

    def close(self) -> None:
        if self._cm is not None:
            cm, self._cm = self._cm, None
            OPEN.remove(self)
            cm.__exit__(None, None, None)

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def send(self, message: dict[str, Any] | str | bytes) -> None:
        if isinstance(message, bytes):
            self.ws.send_bytes(message)
        elif isinstance(message, str):
            self.ws.send_text(message)
        else:
            self.ws.send_json(message)

    def recv(self) -> dict[str, Any]:
        message: dict[str, Any] = self._receive_json()
        assert message["v"] == 1
        self.received.append(message)
        if message["type"] == "state":
            self.last = message
        return message

    def join(self, room: str, token: str) -> dict[str, Any]:
        self.send({"v": 1, "type": "join", "room": room, "token": token})
        return self.recv()

    def _receive_json(self) -> Any:
        """The socket's next message, as ``receive_json`` reads it, waiting at most :data:`RECV_SECONDS`:
        past that the test fails with what this browser received and what the server holds of it."""
        ws = self.ws

        async def within() -> Any:
            with anyio.fail_after(RECV_SECONDS):
                return await ws._send_rx.receive()

        try:
            message = ws.portal.call(within)
        except TimeoutError:
            raise AssertionError(self._silence()) from None
        ws._raise_on_close(message)
        return json.loads(message["text"])

    def _silence(self) -> str:
        """What a browser that waited in vain knows, and the server's rooms in memory (the diagnosis)."""
        rooms = getattr(self.client.app.state, "rooms", None)  # type: ignore[attr-defined]
        held = []
        for room in rooms.cache.all() if rooms is not None else []:
            conns = [(c.seat, c.queue.qsize()) for c in room.connections]
            held.append(
                f"room {room.id}: status {room.status}, state {room.state}, seats "
                f"{[(s.kind, s.away_until is not None, s.stand_in) for s in room.seats]}, "
                f"sockets (seat, queued) {conns}"
            )
        last = [(m.get("type"), m.get("status"), m.get("state")) for m in self.received[-5:]]
        return (
            f"no message in {RECV_SECONDS:.0f} s; this browser received {len(self.received)}, the last "
            f"{last}; the server holds: {held or 'no room'}"
        )

    def until_my_turn_or_end(self) -> dict[str, Any]:
        """Read state messages until this seat has legal moves or the mesa is finished."""
        assert self.last is not None
        while not self.last["legal"] and self.last["status"] == "playing":
            message = self.recv()
            assert message["type"] == "state", message
        return self.last

    def play_first_legal(self) -> dict[str, Any]:
        state = self.until_my_turn_or_end()
        assert state["status"] == "playing"
        self.send({"v": 1, "type": "move", "move": state["legal"][0], "state": state["state"]})
        reply = self.recv()
        assert reply["type"] == "state", reply
        return reply

    def error(self, message: dict[str, Any] | str | bytes) -> dict[str, Any]:
        self.send(message)
        reply = self.recv()
        assert reply["type"] == "error", reply
        assert reply["code"] in ERROR_CODES and reply["message"]
        return reply


def seen_by_server(spy: Spy, browser: Browser) -> list[dict[str, Any]]:
    """The messages the server queued for this browser's socket (the socket is found by its first message)."""
    with spy.lock:
        conns = list(dict.fromkeys(s.conn for s in spy.sent))
    for conn in conns:
        messages = spy.of(conn)
        if messages[: len(browser.received)] == browser.received and messages:
            return messages
    raise AssertionError("no socket of the server sent what this browser received")


def new_room(client: TestClient, **body: Any) -> dict[str, Any]:
    """A room made over HTTP; a chosen ``seed`` makes it a practice room (the only kind that may have one)."""
    if "seed" in body:
        body.setdefault("practice", True)
    response = client.post("/api/rooms", json=body)
    assert response.status_code == 200, response.text
    answer = response.json()
    assert set(answer) == {"room", "seat", "token"} and answer["seat"] == 0
    return answer


def play_to_the_end(client: TestClient, made: dict[str, Any], pick: int = 0) -> list[dict[str, Any]]:
    """Play the room ``made`` (``POST /api/rooms``'s answer) to its end over a version-2 socket, the person
    always choosing the legal move at ``pick`` (0: the first; -1: the last); every frame received."""
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"v": 2, "type": "join", "room": made["room"], "token": made["token"]})
        version, legal, status = 0, [], "playing"
        frames = []
        while status == "playing":
            frame = ws.receive_json()
            frames.append(frame)
            if frame["type"] in ("snapshot", "event"):
                version = frame["version"]
                if frame.get("private") is not None:
                    legal = frame["private"]["legal"]
                status = frame.get("status") or status
            if legal and status == "playing":
                ws.send_json({"v": 2, "type": "move", "move": legal[pick], "state": version})
                legal = []
    return frames


def bearer(token: str) -> dict[str, str]:
    """The header that carries a seat's token (never the address)."""
    return {"Authorization": f"Bearer {token}"}


def server_room(client: TestClient, room: str) -> Room:
    rooms = client.app.state.rooms  # type: ignore[attr-defined]
    found: Room = rooms.get(room)
    return found
