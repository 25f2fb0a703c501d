"""Requests and sockets of the test client from a chosen client address (rated play notes the network a
profile plays from: tests/test_fairplay.py, tests/test_championship_rated.py)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from fastapi.testclient import TestClient


@contextlib.contextmanager
def address(client: TestClient, host: str) -> Iterator[TestClient]:
    """Requests and sockets opened in the block come from client address ``host`` (the test client's
    transport gives every request the peer address it holds)."""
    transport: Any = client._transport  # starlette's _TestClientTransport
    before = transport.client
    transport.client = (host, 40000)
    try:
        yield client
    finally:
        transport.client = before


def profile_from(client: TestClient, host: str, name: str) -> dict[str, str]:
    """A new profile made from ``host``: its id and key."""
    with address(client, host):
        made = client.post("/api/profiles", json={"name": name})
    assert made.status_code == 200, made.text
    return {"id": made.json()["id"], "key": made.json()["key"]}
