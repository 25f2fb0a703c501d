"""A WebSocket of the server's ``/ws`` in a test, speaking protocol version 1 or 2: it sends each message
with its ``"v"`` and keeps every message it received (``frames``), in order."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

#: Sockets not closed yet (a failed test closes them before its server stops, or the server would wait).
OPEN: list[Socket] = []


class Socket:
    """One WebSocket; ``frames`` holds every message it received, in order."""

    def __init__(self, client: TestClient, version: int) -> None:
        self._cm: Any = client.websocket_connect("/ws")
        self.ws = self._cm.__enter__()
        OPEN.append(self)
        self.version = version
        self.frames: list[dict[str, Any]] = []

    def close(self) -> None:
        if self in OPEN:
            OPEN.remove(self)
            self._cm.__exit__(None, None, None)

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send_json({"v": self.version, **message})

    def recv(self) -> dict[str, Any]:
        message = self.ws.receive_json()
        assert message["v"] == self.version, message
        self.frames.append(message)
        return message

    def until(self, wanted: Any, limit: int = 2000) -> dict[str, Any]:
        for _ in range(limit):
            message = self.recv()
            if wanted(message):
                return message
        raise AssertionError(f"not received in {limit} messages; the last: {self.frames[-1]}")
