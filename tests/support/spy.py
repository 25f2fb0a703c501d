"""The spy on every message the server queues for a socket, and the no-hidden-card rule.

Every message the server queues for a socket is recorded by a spy on :meth:`Connection.send`, together
with the cards hidden from that socket's seat *at that moment* (the other hands and the stock, read from
the server's own game); :func:`check_all` checks, on every message, that none of those cards and no seed
appears in it. The ``spy`` fixture of tests/conftest.py installs it for a test.
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass, field
from typing import Any

import pytest

from cuarenta import Game
from cuarenta.server.authority.model import Connection, Room

CARD = re.compile(r"[A2-7JQK][hsdc]")


@dataclass
class Sent:
    """One message queued for a socket, with what was secret from its seat when it was queued."""

    conn: int
    seat: int | None
    message: dict[str, Any]
    hidden: frozenset[str]
    seeds: frozenset[str]
    finished: bool


@dataclass
class Spy:
    sent: list[Sent] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def of(self, conn: int) -> list[dict[str, Any]]:
        with self.lock:
            return [s.message for s in self.sent if s.conn == conn]


def hidden_from(game: Game, seat: int | None) -> frozenset[str]:
    """Every card ``seat`` may not see now: the other seats' hands and the stock (for a spectator,
    ``None``, every hand and the stock)."""
    cards = [c for s in range(game.players) if s != seat for c in game.hand(s)] + game.stock
    return frozenset(str(c) for c in cards)


def install_spy(monkeypatch: pytest.MonkeyPatch) -> Spy:
    """Record every message queued for a socket, with the cards hidden from its seat at that moment."""
    spy = Spy()
    original = Connection.send

    def send(self: Connection, message: dict[str, Any]) -> None:
        room: Room | None = self.room
        if room is not None:  # a spectator (no seat) may see no hand at all, nor a seat of a waiting table
            hidden = hidden_from(room.game, self.seat if room.started else None)
            seeds = frozenset({str(room.seed), str(room.game.seed)})
            finished = room.game.is_over
        else:
            hidden, seeds, finished = frozenset(), frozenset(), False
        with spy.lock:
            spy.sent.append(
                Sent(id(self), self.seat, json.loads(json.dumps(message)), hidden, seeds, finished)
            )
        original(self, message)

    monkeypatch.setattr(Connection, "send", send)
    return spy


def check_no_hidden_card(sent: Sent) -> None:
    """The no-hidden-card rule on one message (and no seed before the mesa is finished).

    The whole message is searched for every card hidden from the seat when it was sent — except the
    events *before* the current hand's first deal, when a message spans the end of a hand: those tell
    the end of a hand whose 40 cards had all been played (nothing of it was hidden any more), or the
    dealer draw (R4, a separate shuffle shown to everyone); the new hand is dealt from a new shuffle,
    and the same card names then stand for cards of another deal.
    """
    message = json.loads(json.dumps(sent.message))
    message.pop("room", None)  # a random id, not a card
    if isinstance(message.get("table"), dict):
        message["table"].pop("championship", None)  # a championship's table names its random id too
    events = message.get("events", [])
    starts = [i for i, e in enumerate(events) if e.get("kind") == "deal" and e.get("deal") == 0]
    if starts:
        message["events"] = events[starts[-1] :]
    text = json.dumps(message, ensure_ascii=False)
    leaked = sorted(c for c in sent.hidden if c in text)
    assert not leaked, f"hidden cards {leaked} sent to seat {sent.seat}: {text[:300]}"
    if not sent.finished:
        # (a mesa's seed has about 19 digits; a short room seed such as 7 cannot be told from other numbers)
        for seed in sent.seeds:
            assert len(seed) < 6 or seed not in text, f"seed {seed} sent before the mesa is finished"
    if message.get("type") == "state":
        view = message["view"]
        assert message["seat"] == sent.seat == view["seat"]
        # the own hand is the only hand in the view; the legal moves and hints name only visible cards
        visible = set(view["hand"]) | set(view["table"])
        for move in message["legal"]:
            assert set(CARD.findall(move)) <= visible
        for m in message["moves"]:  # what the server says of each legal move (eventview): visible cards
            named = [m.get("card"), *m.get("taken", []), *m.get("leaves", []), *m.get("claim", [])]
            assert {c for c in named if c is not None} <= visible
        assert {h["card"] for h in message["hints"]} <= set(view["hand"])


def check_all(spy: Spy) -> int:
    with spy.lock:
        sent = list(spy.sent)
    for s in sent:
        check_no_hidden_card(s)
    return len(sent)
