"""Helpers of the championship server tests: the real app on a data directory, tokens, computer pairs,
and a bounded wait for the computers' tables (a bound on tries, never a timed assertion)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from cuarenta.server.edge.app import create_app


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def app(tmp_path: Path) -> TestClient:
    return TestClient(create_app(tmp_path, bot_delay=0, workers=0))


def until(check: Any, tries: int = 4000) -> Any:
    """Wait for the computers' tables (no timed assertion: a bound on tries only)."""
    for _ in range(tries):
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError("the championship did not get there")


def computer_championship(client: TestClient, pairs: int, **settings: Any) -> dict[str, str]:
    """A championship of ``pairs`` computer pairs (``facil``) named Pareja 0, Pareja 1 …"""
    made = client.post("/api/championships", json={"name": "Copa", **settings}).json()
    for i in range(pairs):
        answer = client.post(
            f"/api/championships/{made['championship']}/pairs",
            json={"name": f"Pareja {i}", "players": [f"A{i}", f"B{i}"], "computer": "facil"},
            headers=bearer(made["organiser"]),
        )
        assert answer.status_code == 200, answer.text
    return made


def people_championship(client: TestClient, pairs: int, **settings: Any) -> tuple[dict[str, str], list[str]]:
    """A championship of ``pairs`` pairs of people registered with the code: its tokens and the pairs'."""
    made = client.post("/api/championships", json={"name": "Copa", **settings}).json()
    tokens = []
    for i in range(pairs):
        answer = client.post(
            f"/api/championships/{made['championship']}/pairs",
            json={"name": f"Pareja {i}", "players": [f"A{i}", f"B{i}"], "code": made["register"]},
        )
        assert answer.status_code == 200, answer.text
        tokens.append(answer.json()["token"])
    return made, tokens


def seed_all(client: TestClient, made: dict[str, str], pairs: int) -> None:
    """Seed p1, p2 … as 1, 2 …"""
    for i in range(1, pairs + 1):
        answer = client.post(
            f"/api/championships/{made['championship']}/pairs/p{i}/seed",
            json={"seed": i},
            headers=bearer(made["organiser"]),
        )
        assert answer.status_code == 200, answer.text


def start(client: TestClient, made: dict[str, str]) -> list[str]:
    answer = client.post(
        f"/api/championships/{made['championship']}/start", headers=bearer(made["organiser"])
    )
    assert answer.status_code == 200, answer.text
    opened: list[str] = answer.json()["opened"]
    return opened


def in_loop(client: TestClient, work: Any, *args: Any) -> Any:
    """Run ``work(*args)`` in the app's event loop thread (the authority is not thread-safe)."""
    portal = client.portal
    assert portal is not None
    return portal.call(work, *args)
