"""The page speaks protocol version 2 (docs/protocol.md, "Version 2"; wire.js applies its frames): a page
that loses its socket in the middle of a hand comes back from the table's buffer of events (it is sent the
events it missed and ``resumed``, not a ``snapshot``), and what it shows after a whole hand is what a
version-1 join of the same seat is told."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from harness import PageLog, Server, local_storage, start_game
from playing import Seen, play_moves, seen
from playwright.sync_api import Page, WebSocketRoute
from websockets.sync.client import connect

WIRE_SEED = 31


@dataclass
class Sockets:
    """The page's sockets, each routed through the test: the frames each received and sent (parsed)."""

    routes: list[tuple[WebSocketRoute, WebSocketRoute]] = field(default_factory=list)
    received: list[list[dict[str, Any]]] = field(default_factory=list)
    sent: list[list[dict[str, Any]]] = field(default_factory=list)

    def route(self, ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()
        received: list[dict[str, Any]] = []
        sent: list[dict[str, Any]] = []
        self.routes.append((ws, server))
        self.received.append(received)
        self.sent.append(sent)

        def to_page(message: str | bytes) -> None:
            received.append(json.loads(message))
            ws.send(message)

        def to_server(message: str | bytes) -> None:
            sent.append(json.loads(message))
            server.send(message)

        server.on_message(to_page)
        ws.on_message(to_server)

    def drop(self) -> None:
        """Close the last socket on both sides, as a network that fails would."""
        ws, server = self.routes[-1]
        ws.close(code=4000, reason="the test drops the socket")
        server.close()


def wait_for(page: Page, what: Any, message: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not what():
        assert time.monotonic() < deadline, message
        page.wait_for_timeout(50)


def v1_join(server: Server, room: str, token: str) -> dict[str, Any]:
    """The ``state`` a version-1 join of the seat is sent (another socket of the same seat)."""
    with connect(server.url.replace("http", "ws", 1).rstrip("/") + "/ws?room=" + room) as ws:
        ws.send(json.dumps({"v": 1, "type": "join", "room": room, "token": token}))
        while True:
            msg = json.loads(ws.recv(timeout=30))
            if msg["type"] == "state":
                return msg


def as_shown(state: dict[str, Any]) -> Seen:
    """What the page would show of a version-1 ``state`` (e2e/playing.py :func:`seen`)."""
    view = state["view"]
    return Seen(
        state=state["state"],
        hand=list(view["hand"]),
        table=list(view["table"]),
        scores=(view["scores"][0], view["scores"][1]),
        counts={s: n for s, n in enumerate(view["hand_sizes"]) if s != state["seat"]},
        last_drop=view["last_drop"],
    )


def test_a_dropped_socket_resumes_from_the_buffer_and_shows_what_version_1_shows(
    page: Page, page_log: PageLog, own_server: Server
) -> None:
    sockets = Sockets()
    page.route_web_socket("**/ws*", sockets.route)
    start_game(page, own_server.url, players=2, level="facil", preset="a_todo_rigor", seed=WIRE_SEED)
    play_moves(page, 2)
    first = sockets.received[0]
    assert first[0]["type"] == "snapshot" and first[0]["v"] == 2, first[0]
    join = next(m for m in sockets.sent[0] if m["type"] == "join")
    assert join["v"] == 2 and join["hints"] is True and "since" not in join, join

    # a move, then the socket drops in the middle of the hand, while the computer answers
    before = len(first)
    page.get_by_test_id("hand-card").first.click()
    wait_for(page, lambda: any(m["type"] == "event" for m in first[before:]), "the move was not answered")
    applied = max(m["version"] for m in first if m["type"] in ("snapshot", "event"))
    sockets.drop()

    # the page opens a new socket and asks for what it missed since the last version it applied
    wait_for(page, lambda: len(sockets.received) > 1 and sockets.received[1], "the page did not come back")
    wait_for(page, lambda: any(m["type"] == "resumed" for m in sockets.received[1]), "no resumed came")
    rejoin = next(m for m in sockets.sent[1] if m["type"] == "join")
    assert rejoin["v"] == 2 and rejoin["since"] == applied, (rejoin, applied)
    again = sockets.received[1]
    assert not [m for m in again if m["type"] == "snapshot"], "the page was sent a snapshot, not the buffer"
    replayed = again[: next(i for i, m in enumerate(again) if m["type"] == "resumed")]
    assert all(m["type"] == "event" and "private" not in m for m in replayed), replayed
    versions = [applied] + [m["version"] for m in replayed]
    assert [m["base"] for m in replayed] == versions[:-1]  # from `since` on, one after the other

    # the page goes on, through the end of the hand and the next deal, and shows what version 1 tells
    def hand_number() -> int:
        frames = [m for socket in sockets.received for m in socket]
        views = [m["view"] for m in frames if m["type"] in ("snapshot", "event")]
        return max(v.get("hand_number", 0) for v in views)

    shown = play_moves(page, 1)
    while hand_number() < 1:
        shown = play_moves(page, 1)
    session = json.loads(local_storage(page)["cuarenta.session"])
    told = v1_join(own_server, session["room"], session["token"])
    assert told["view"]["hand_number"] >= 1, "a whole hand was played"
    assert shown == as_shown(told)
    assert seen(page) == shown
    assert not page_log.errors, page_log.errors
    assert not [m for socket in sockets.received for m in socket if m["type"] == "error"]
