"""What the page of tables with friends asks of the server besides docs/tables.md's own tests: a seat of a
table that still waits is resumed after a reload like any room (``GET /api/rooms/{room}``)."""

from __future__ import annotations

from pathlib import Path

from support.app import bearer, running


def test_a_waiting_tables_seat_is_resumed_like_a_room(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        made = client.post("/api/tables", json={"name": "Ana"}).json()
        response = client.get(f"/api/rooms/{made['room']}", headers=bearer(made["token"]))
        assert response.status_code == 200, response.text
        assert response.json()["status"] == "waiting" and response.json()["seat"] == 0
