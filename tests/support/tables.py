"""Tables with friends in a test (docs/tables.md): a table made and a seat taken over HTTP, and
:class:`Seat`, a browser at a table that reads until the message it waits for.

    made = new_table(client, players=2, seats=["friend"])
    with Seat(client, spy) as ana, Seat(client, spy) as beto:
        ana.join(made["room"], made["token"])
        beto.join(made["room"], take_seat(client, made)["token"])
        play_out([ana, beto], first_state)
"""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from cuarenta.server.authority.model import Room
from cuarenta.server.protocol import ERROR_CODES
from cuarenta.server.wiring import TableRooms
from support.app import Browser


def new_table(client: TestClient, **body: Any) -> dict[str, Any]:
    body.setdefault("name", "Ana")
    response = client.post("/api/tables", json=body)
    assert response.status_code == 200, response.text
    answer = response.json()
    assert set(answer) == {"room", "seat", "token", "code", "invite"} and answer["seat"] == 0
    return answer


def take_seat(client: TestClient, made: dict[str, Any], name: str = "Beto", **body: Any) -> dict[str, Any]:
    response = client.post(
        f"/api/tables/{made['room']}/join", json={"invite": made["invite"], "name": name, **body}
    )
    assert response.status_code == 200, response.text
    return response.json()


def rooms_of(client: TestClient) -> TableRooms:
    rooms = client.app.state.rooms  # type: ignore[attr-defined]
    assert isinstance(rooms, TableRooms)
    return rooms


def room_of(client: TestClient, room_id: str) -> Room:
    return rooms_of(client).get(room_id)


class Seat(Browser):
    """A browser at a table: reads until the message it waits for, skipping others (kept in ``received``)."""

    def error(self, message: dict[str, Any] | str | bytes) -> dict[str, Any]:
        self.send(message)
        reply = self.until(lambda m: m["type"] == "error")
        assert reply["code"] in ERROR_CODES and reply["message"]
        return reply

    def join(self, room: str, token: str, **extra: Any) -> dict[str, Any]:
        self.send({"v": 1, "type": "join", "room": room, "token": token, **extra})
        return self.until(lambda m: m["type"] in ("state", "error"))

    def until(self, wanted: Any, limit: int = 400) -> dict[str, Any]:
        for _ in range(limit):
            message = self.recv()
            if wanted(message):
                return message
        raise AssertionError(f"not received in {limit} messages; the last: {self.received[-1]}")

    def play_turn(self) -> dict[str, Any]:
        """Wait for this seat's turn, play its first legal move, and read the state that follows."""
        last = self.last
        if last is None or not last["legal"]:
            last = self.until(lambda m: m["type"] == "state" and bool(m["legal"]))
        self.send({"v": 1, "type": "move", "move": last["legal"][0], "state": last["state"]})
        return self.until(lambda m: m["type"] == "state" and m["state"] > last["state"])

    def state_at_least(self, state: int) -> dict[str, Any]:
        if self.last is not None and self.last["state"] >= state:
            return self.last
        return self.until(lambda m: m["type"] == "state" and m["state"] >= state)


def play_out(seats: list[Seat], first: int, choose: Any = None) -> dict[str, Any]:
    """People only: play the first legal move (or ``choose(legal)``'s) of whoever is to move until the
    mesa is finished."""
    expected = first
    while True:
        states = [s.state_at_least(expected) for s in seats]
        assert len({st["state"] for st in states}) == 1, [st["state"] for st in states]
        if states[0]["status"] == "finished":
            return states[0]
        (mover,) = [s for s, st in zip(seats, states, strict=True) if st["legal"]]
        assert mover.last is not None
        legal = mover.last["legal"]
        move = legal[0] if choose is None else choose(legal)
        mover.send({"v": 1, "type": "move", "move": move, "state": mover.last["state"]})
        expected += 1
