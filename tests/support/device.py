"""A page on the device host (:mod:`cuarenta.device`), for the tests: it creates rooms over
``host.http``, plays over ``host.receive`` with the frames ``send`` delivers, and checks every frame
against the cards hidden from its seat when the frame was queued.

It imports only :mod:`cuarenta.device` and the authority's model (no FastAPI, pydantic, msgspec,
SQLAlchemy), so tests/test_device_imports.py runs it with those imports blocked.

    host, page = device_page()
    made = page.new_room({"level": "facil"})
    page.join(made["room"], made["token"])
    await page.play_until(lambda p: p.status == "finished")
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from cuarenta.device import DeviceHost
from cuarenta.server.authority.model import Connection

CARD = re.compile(r"[A2-7JQK][hsdc]")


@dataclass
class Queued:
    """A message the authority queued for a connection, with the cards hidden from its seat then."""

    message: dict[str, Any]
    seat: int | None
    hidden: frozenset[str]
    seeds: frozenset[str]
    finished: bool


@dataclass
class Watcher:
    """Every message queued for a connection (Connection.send), with what was secret at that moment."""

    queued: list[Queued] = field(default_factory=list)

    def check(self) -> int:
        """The no-hidden-card rule on every queued message (as tests/support/spy.py's): no card hidden from
        the seat and no seed before the mesa is finished; the number of messages checked."""
        for q in self.queued:
            message = json.loads(json.dumps(q.message))
            message.pop("room", None)
            events = message.get("events", [])
            starts = [i for i, e in enumerate(events) if e.get("kind") == "deal" and e.get("deal") == 0]
            if starts:  # a frame spanning a hand's end: the new deal's cards stand for other cards
                message["events"] = events[starts[-1] :]
            text = json.dumps(message, ensure_ascii=False)
            leaked = sorted(c for c in q.hidden if c in text)
            assert not leaked, f"hidden cards {leaked} sent to seat {q.seat}: {text[:300]}"
            if not q.finished:
                for seed in q.seeds:
                    assert len(seed) < 6 or seed not in text, f"seed {seed} sent before the mesa is finished"
        return len(self.queued)


@contextlib.contextmanager
def watching() -> Iterator[Watcher]:
    """Record what :meth:`Connection.send` is given for the length of a ``with`` block."""
    watcher = Watcher()
    original = Connection.send

    def send(self: Connection, message: dict[str, Any]) -> None:
        room = self.room
        if room is not None:
            game = room.game
            seat = self.seat
            cards = [c for s in range(game.players) if s != seat for c in game.hand(s)] + game.stock
            text = message.text if hasattr(message, "text") else json.dumps(message)
            watcher.queued.append(
                Queued(
                    json.loads(text),
                    seat,
                    frozenset(str(c) for c in cards),
                    frozenset({str(room.seed), str(game.seed)}),
                    game.is_over,
                )
            )
        original(self, message)

    Connection.send = send  # type: ignore[method-assign]
    try:
        yield watcher
    finally:
        Connection.send = original  # type: ignore[method-assign]


class Page:
    """One page (one connection) of a device host; ``frames`` holds every frame it was sent."""

    def __init__(self, host: DeviceHost, frames: dict[int, list[dict[str, Any]]]) -> None:
        self.host = host
        self._frames = frames
        self.conn = host.open()
        frames[self.conn] = []
        self.read = 0
        self.version = 0
        self.legal: list[str] = []
        self.status = ""
        self.mesa = 0
        self.snapshot: dict[str, Any] | None = None
        self.moves = 0

    @property
    def frames(self) -> list[dict[str, Any]]:
        return self._frames[self.conn]

    def http(self, method: str, path: str, body: Any = None, token: str | None = None) -> dict[str, Any]:
        text = None if body is None else json.dumps(body)
        answer: dict[str, Any] = json.loads(self.host.http(method, path, text, token))
        return answer

    def new_room(self, body: Mapping[str, Any]) -> dict[str, Any]:
        answer = self.http("POST", "api/rooms", dict(body))
        assert answer["status"] == 200, answer
        made: dict[str, Any] = answer["body"]
        return made

    def send(self, message: dict[str, Any]) -> None:
        self.host.receive(self.conn, json.dumps(message))
        self.take()

    def join(self, room: str, token: str, **extra: Any) -> None:
        self.send({"v": 2, "type": "join", "room": room, "token": token, **extra})

    def take(self) -> list[dict[str, Any]]:
        """The frames that came since the last call, applied."""
        new = self.frames[self.read :]
        self.read = len(self.frames)
        for f in new:
            if f["type"] == "snapshot":
                self.snapshot = f
            if f["type"] in ("snapshot", "event", "resumed"):
                self.version = f["version"]
                if f.get("private") is not None:
                    self.legal = f["private"]["legal"]
                if f.get("status"):
                    self.status = f["status"]
                if f.get("mesa"):
                    self.mesa = f["mesa"]
        return new

    async def play_until(
        self, done: Callable[[Page], bool], choose: Callable[[list[str]], str] = lambda legal: legal[0]
    ) -> None:
        """Play the seat's turns (``choose`` among the legal moves) until ``done``; the computer's moves
        come on the event loop."""
        for _ in range(200_000):
            self.take()
            if done(self):
                return
            if self.legal and self.status == "playing":
                move = choose(self.legal)
                self.legal = []
                self.send({"v": 2, "type": "move", "move": move, "state": self.version})
                self.moves += 1
            else:
                await asyncio.sleep(0.001)
        raise AssertionError("the game did not get there")


def device_page(
    saved: Mapping[str, str] | None = None, persisted: dict[str, str] | None = None, bot_delay: float = 0
) -> tuple[DeviceHost, Page]:
    """A device host (its rooms persisted into ``persisted``) and one page on it."""
    frames: dict[int, list[dict[str, Any]]] = {}
    keep = {} if persisted is None else persisted

    def persist(room: str, text: str | None) -> None:
        if text is None:
            keep.pop(room, None)
        else:
            keep[room] = text

    def send(conn: int, text: str) -> None:
        frames.setdefault(conn, []).append(json.loads(text))

    host = DeviceHost(saved=saved, send=send, persist=persist, bot_delay=bot_delay)
    return host, Page(host, frames)


def finished(page: Page) -> bool:
    return page.status == "finished"


__all__ = ["Page", "Watcher", "device_page", "finished", "watching"]
