"""Protocol version 2 (docs/protocol.md, "Version 2") over real sockets of the app.

The strongest check that the events carry everything: a version-2 socket that applies its snapshot and
events reaches, at every version, exactly the ``state`` a version-1 socket of the same seat (or a
spectator) is sent at that version — whole mesas, 2 and 4 seats. Every frame of every audience is
checked against the cards hidden from it when it was queued. Reconnection with ``since`` gets exactly
the missed events from the buffer, or a snapshot beyond it; bad input gets a clear error.
"""

from __future__ import annotations

import copy
import json
import re
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cuarenta.server import create_app
from cuarenta.server.authority.model import Connection, Room
from cuarenta.server.authority.wire import BUFFER_EVENTS, EventBuffer, Frame
from cuarenta.server.edge.ratelimits import Limits
from support.examples import quick_first
from support.sockets import OPEN, Socket
from support.wire import Reducer, v1_states

CARD = re.compile(r"[A2-7JQK][hsdc]")


# -- what was queued, and the cards hidden from its socket then ---------------------------------------------
@dataclass
class Queued:
    seat: int | None
    message: dict[str, Any]
    hidden: frozenset[str]
    started: bool


@pytest.fixture
def queued(monkeypatch: pytest.MonkeyPatch) -> list[Queued]:
    """Every message queued for any socket (a version-2 frame as the text the socket sends)."""
    sent: list[Queued] = []
    original = Connection.send

    def send(self: Connection, message: dict[str, Any]) -> None:
        room: Room | None = self.room
        hidden: frozenset[str] = frozenset()
        if room is not None:
            game = room.game
            seat = self.seat if room.started else None
            cards = [c for s in range(game.players) if s != seat for c in game.hand(s)] + game.stock
            hidden = frozenset(str(c) for c in cards)
        data = json.loads(message.text) if isinstance(message, Frame) else json.loads(json.dumps(message))
        sent.append(Queued(self.seat, data, hidden, room is not None and room.started))
        original(self, message)

    monkeypatch.setattr(Connection, "send", send)
    return sent


def check_hidden(sent: list[Queued]) -> int:
    """No frame names a card hidden from its socket (events before the current hand's first deal, in a
    message that spans the end of a hand, tell cards all played by then: as tests/test_server.py)."""
    checked = 0
    for q in sent:
        message = copy.deepcopy(q.message)
        message.pop("room", None)
        events = message.get("events", [])
        starts = [i for i, e in enumerate(events) if e.get("kind") == "deal" and e.get("deal") == 0]
        if starts:
            message["events"] = events[starts[-1] :]
        text = json.dumps(message, ensure_ascii=False)
        leaked = sorted(c for c in q.hidden if c in text)
        assert not leaked, f"hidden cards {leaked} sent to seat {q.seat}: {text[:300]}"
        private = message.get("private")
        if q.seat is None:
            assert private is None, message
        elif private is not None and private.get("hints"):
            assert all(h["card"] not in q.hidden for h in private["hints"])
        checked += message.get("v") == 2
    return checked


# -- the app and its sockets ------------------------------------------------------------------------------
@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    limits = Limits(ws_rate=1e6, ws_burst=10**6, rooms_per_minute=0, sockets_per_address=0, http_per_minute=0)
    with TestClient(create_app(tmp_path / "data", bot_delay=0, limits=limits, workers=1)) as c:
        try:
            yield c
        finally:
            while OPEN:
                OPEN[-1].close()


def assert_same(v1: Socket, v2: Socket, *, hints: bool) -> int:
    """The version-2 socket reached, at every version, the version-1 socket's state."""
    reducer = Reducer()
    for frame in v2.frames:
        reducer.apply(frame)
    expected = v1_states(v1.frames, hints)
    assert expected, "the version-1 socket got no state"
    # at the version each socket joined, each was told the table as it was then (a spectator count …)
    joined = max(min(expected), min(reducer.states))
    for version, state in expected.items():
        if version <= joined:
            continue
        got = reducer.states.get(version)
        if not hints:
            got = None if got is None else {k: v for k, v in got.items() if k != "hints"}
        assert got == state, f"version {version}: {got} != {state}"
    return len(expected)


def past(version: int) -> Any:
    """Whether a message is a version-1 ``state`` later than ``version``."""
    return lambda m: m["type"] == "state" and m["state"] > version


def drain(sock: Socket, version: int) -> None:
    """Read until the socket has been told the finished mesa at ``version``."""
    if sock.version == 1:
        sock.until(lambda m: m["type"] == "state" and m["state"] == version)
        return
    sock.until(lambda m: m["type"] in ("event", "snapshot") and m["version"] == version)


# -- the tests --------------------------------------------------------------------------------------------
#: Short mesas: one chica; in fours, manual capture (claims, ``claimable``) too.
RULES: dict[int, dict[str, Any]] = {2: {"preset": "basico"}, 4: {"preset": "campeonato", "chicas": 1}}


#: The rooms' seeds (practice rooms): a random deal now and then ended the mesa on the deal or within a
#: few moves (``four_of_a_kind: wins_chica``, one chica), and these tests failed on a game too short to
#: compare (seen twice in one CI run). A fixed deal is the same long game every run.
SEEDS: dict[int, int] = {2: 1, 4: 1}


def new_room(client: TestClient, players: int) -> dict[str, Any]:
    body = {
        "players": players,
        "level": "facil",
        "rules": RULES[players],
        "name": "Ana",
        "seed": SEEDS[players],
        "practice": True,
    }
    response = client.post("/api/rooms", json=body)
    assert response.status_code == 200, response.text
    return dict(response.json())


def play_out(player: Socket) -> dict[str, Any]:
    """A version-1 socket plays its seat's first legal move whenever it is its turn, to the mesa's end."""
    last = player.until(lambda m: m["type"] == "state")
    while last["status"] == "playing":
        if last["legal"]:
            player.send({"type": "move", "move": last["legal"][0], "state": last["state"]})
        last = player.until(lambda m: m["type"] == "state" and (m["legal"] or m["status"] != "playing"))
    return last


@pytest.mark.parametrize("players", [2, 4])
def test_a_version_2_socket_reaches_every_state_a_version_1_socket_is_sent(
    client: TestClient, queued: list[Queued], players: int
) -> None:
    made = new_room(client, players)
    join = {"type": "join", "room": made["room"], "token": made["token"]}
    plain, helped, player = Socket(client, 2), Socket(client, 2), Socket(client, 1)
    plain.send(join)
    helped.send({**join, "hints": True})
    plain.until(lambda m: m["type"] == "snapshot")
    helped.until(lambda m: m["type"] == "snapshot")
    player.send(join)
    end = play_out(player)
    for sock in (plain, helped):
        drain(sock, end["state"])
    assert assert_same(player, plain, hints=False) > 20
    assert assert_same(player, helped, hints=True) > 20
    assert not any("hints" in (f.get("private") or {}) for f in plain.frames)
    assert any((f.get("private") or {}).get("hints") for f in helped.frames)
    assert check_hidden(queued) > 40
    for sock in (plain, helped, player):
        sock.close()


#: A table's seeds: the waiting room's game (dealt when the table is made) and the game it deals anew when
#: the last friend sits down, in the same mesa. 10 deals a ronda (three events), 1 and 2 none (two), and
#: each draws another dealer: whatever a socket was sent of the waiting room's game is replaced, never kept.
TABLE_SEEDS = [(10, 1), (1, 10), (1, 2)]


@pytest.mark.parametrize(("waiting", "dealt"), quick_first(TABLE_SEEDS))
def test_a_table_of_four_with_spectators_of_both_versions(
    client: TestClient, queued: list[Queued], monkeypatch: pytest.MonkeyPatch, waiting: int, dealt: int
) -> None:
    seeds = [waiting, dealt]  # the table's seed when it is made, then when it starts (authority/core.py)
    real = secrets.randbelow
    monkeypatch.setattr(secrets, "randbelow", lambda n: seeds.pop(0) if seeds else real(n))
    body = {"players": 4, "name": "Ana", "rules": RULES[4], "seats": ["friend", "facil", "facil"]}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 200, response.text
    made = response.json()
    watch = {"type": "watch", "room": made["room"]}
    early1, early2 = Socket(client, 1), Socket(client, 2)
    early1.send(watch)
    early2.send(watch)
    early1.until(lambda m: m["type"] == "state")
    early2.until(lambda m: m["type"] == "snapshot")
    friend = client.post(f"/api/tables/{made['room']}/join", json={"invite": made["invite"], "name": "Beto"})
    assert friend.status_code == 200, friend.text
    seats = {0: made["token"], friend.json()["seat"]: friend.json()["token"]}
    players = {s: Socket(client, 1) for s in seats}
    mirrors = {s: Socket(client, 2) for s in seats}
    for s, token in seats.items():
        mirrors[s].send({"type": "join", "room": made["room"], "token": token, "hints": True})
        mirrors[s].until(lambda m: m["type"] == "snapshot")
        players[s].send({"type": "join", "room": made["room"], "token": token})
        players[s].until(lambda m: m["type"] == "state")
    late1, late2 = Socket(client, 1), Socket(client, 2)
    late1.send(watch)
    late2.send(watch)
    room = client.app.state.rooms.get(made["room"])  # type: ignore[attr-defined]
    assert not seeds and room.seed == dealt, "the table was not made and started on the test's seeds"
    started = room.mesa_state
    last: dict[int, dict[str, Any]] = {s: p.frames[-1] for s, p in players.items()}
    while True:  # whoever is to move plays; the computers play in between
        target = room.state
        for s, p in players.items():
            if last[s]["state"] < target:
                last[s] = p.until(past(target - 1))
        if room.game.is_over and room.state == target:
            break
        movers = [s for s, m in last.items() if m["state"] == target and m["legal"]]
        if movers:
            m = last[movers[0]]
            players[movers[0]].send({"type": "move", "move": m["legal"][0], "state": m["state"]})
        s, p = next(iter(players.items()))
        last[s] = p.until(past(target))
    final = room.state
    for sock in [early1, early2, late1, late2, *mirrors.values()]:
        drain(sock, final)
    for s in seats:
        assert assert_same(players[s], mirrors[s], hints=True) > 20
    assert assert_same(early1, early2, hints=True) > 20
    assert assert_same(late1, late2, hints=True) > 20
    assert check_hidden(queued) > 100
    # a spectator there before the start was sent every event of the game that was played, once, and
    # nothing of the waiting room's game after it was replaced
    told = [
        e["kind"]
        for m in early1.frames
        if m["type"] == "state" and m["state"] >= started
        for e in m["events"]
    ]
    assert told == [e.kind for e in room.game.events]
    for sock in [early1, early2, late1, late2, *mirrors.values(), *players.values()]:
        sock.close()


def test_a_reconnect_with_since_gets_exactly_the_missed_events_or_a_snapshot(
    client: TestClient, queued: list[Queued]
) -> None:
    made = new_room(client, 2)
    join = {"type": "join", "room": made["room"], "token": made["token"]}
    watcher, player = Socket(client, 2), Socket(client, 1)
    watcher.send(join)
    first = watcher.until(lambda m: m["type"] == "snapshot")
    player.send(join)
    state = player.until(lambda m: m["type"] == "state")

    def my_turn() -> None:
        """Read until the person is to move (a finished mesa: the next one, the person's ``next``)."""
        nonlocal state
        while not state["legal"]:
            if state["status"] == "finished":
                player.send({"type": "next"})
            state = player.until(lambda m: m["type"] == "state")

    def play(moves: int) -> int:
        nonlocal state
        for _ in range(moves):
            my_turn()
            player.send({"type": "move", "move": state["legal"][0], "state": state["state"]})
            state = player.until(past(state["state"]))
        my_turn()  # the computer plays: the table then waits for the person
        return int(state["state"])

    since = play(3)
    now = play(4)
    drain(watcher, now)
    events = {f["version"]: f for f in watcher.frames if f["type"] == "event"}
    missed = [{k: v for k, v in f.items() if k != "private"} for v, f in events.items() if v > since]
    back = Socket(client, 2)
    back.send({**join, "since": since})
    resumed = back.until(lambda m: m["type"] in ("resumed", "snapshot"))
    assert resumed["type"] == "resumed" and resumed["version"] == now
    assert back.frames[:-1] == missed  # exactly the missed events, public parts, in order
    assert resumed["private"]["hand"] and "legal" in resumed["private"]
    reducer = Reducer()
    for frame in [first, *[f for f in watcher.frames if f["version"] <= since and f["type"] == "event"]]:
        reducer.apply(frame)
    told = v1_states(player.frames)
    assert reducer.state["legal"] == told[since]["legal"] != []  # the person was to move at since
    for frame in back.frames:
        reducer.apply(frame)
        # never a move of another version on offer: while the missed events replay, none (the person
        # played meanwhile: the moves held were spent); with resumed, the seat's own at the version
        assert reducer.state["legal"] in ([], told[reducer.state["state"]]["legal"]), frame["type"]
    assert reducer.state["legal"] == told[now]["legal"] != []
    full = Reducer()
    for frame in watcher.frames:
        full.apply(frame)
    assert reducer.states[now] == full.states[now]  # the resumed client holds what the watcher holds
    # nothing missed: only resumed
    again = Socket(client, 2)
    again.send({**join, "since": now})
    assert again.recv()["type"] == "resumed"
    # beyond the buffer: a snapshot
    far = play(BUFFER_EVENTS // 2 + 2)
    gone = Socket(client, 2)
    gone.send({**join, "since": since})
    snapshot = gone.recv()
    assert snapshot["type"] == "snapshot" and snapshot["version"] == far
    check_hidden(queued)
    for sock in (watcher, player, back, again, gone):
        sock.close()


def test_bad_since_hints_and_versions_get_a_clear_error(client: TestClient) -> None:
    made = new_room(client, 2)
    join = {"type": "join", "room": made["room"], "token": made["token"]}
    sock = Socket(client, 2)

    def refused(message: dict[str, Any], version: int = 1) -> dict[str, Any]:
        # a join refused before it took is answered in version 1, as a message the server cannot read
        sock.ws.send_json(message)
        error = sock.ws.receive_json()
        assert error["type"] == "error" and error["v"] == version, error
        return dict(error)

    error = refused({"v": 2, **join, "since": 10**6})
    assert error["code"] == "bad_message"
    assert "since 1000000 is ahead of the table, whose version is 0" in error["message"]
    assert "since" in refused({"v": 2, **join, "since": -1})["message"]
    assert "hints" in refused({"v": 2, **join, "hints": "yes"})["message"]
    error = refused({"v": 3, **join})
    assert error["code"] == "bad_version" and "versions 1 and 2, not 3" in error["message"]
    sock.send(join)  # nothing was half-applied: the join works
    assert sock.recv()["type"] == "snapshot"
    sock.send({"type": "ping"})
    assert sock.recv() == {"v": 2, "type": "pong"}
    sock.send({"type": "move", "move": "Zz", "state": 0})  # after a join: errors in version 2
    assert sock.recv()["code"] in ("illegal_move", "not_your_turn")
    assert refused({"v": 2, **join, "since": 99}, version=2)["code"] == "bad_message"
    sock.send({"type": "ping"})  # the socket still follows its seat in version 2
    assert sock.recv()["type"] == "pong"
    sock.close()


def test_the_buffer_replays_only_a_chain_without_a_gap() -> None:
    buffer = EventBuffer(4)
    buffer.add(0, 1, "a")
    buffer.add(1, 3, "b")  # a node that caught up two versions at once
    buffer.add(3, 4, "c")
    assert buffer.replay(1, 4) == ["b", "c"]
    assert buffer.replay(2, 4) is None  # version 2 was never a step here: a snapshot
    assert buffer.replay(4, 4) == []
    assert buffer.replay(0, 5) is None  # the buffer does not reach the current version
    with pytest.raises(ValueError, match="at least one"):
        EventBuffer(0)
    assert CARD.fullmatch("7h")


def test_a_message_for_the_whole_table_is_encoded_once_per_version() -> None:
    """A ``table`` or ``reaction`` message told to every socket of a table is one message of version 2
    (the authority speaks no other), made and encoded once; the edge labels it ``"v": 1`` once for all
    the version-1 sockets (and those that have not joined), however many there are."""
    from cuarenta.server.authority.wire.messages import SharedMessage
    from cuarenta.server.edge.version1 import SocketConnection, Version1

    message = SharedMessage({"v": 2, "type": "table", "status": "playing"})
    conns = [SocketConnection() for _ in range(4)]
    conns[0].protocol = conns[1].protocol = 2  # joined in version 2 (authority/wire)
    conns[2].version1, conns[3].version1 = Version1(), Version1()
    for conn in conns:
        conn.send(message)
    sent = [conn.queue.get_nowait() for conn in conns]
    assert sent[0] is sent[1] is message
    assert sent[2] is sent[3] and isinstance(sent[2], SharedMessage)
    assert json.loads(sent[2].text) == {"v": 1, "type": "table", "status": "playing"}
    assert message["v"] == 2  # the version-2 sockets' message is untouched


def test_a_refused_watch_or_join_leaves_a_socket_as_it_was(client: TestClient) -> None:
    """A version-1 socket at its seat asks to watch a room that does not exist, then to join in version 2
    with a wrong token: both are refused, and the socket still follows its seat in version 1 — its next move
    is answered with its ``state`` (a refused request once reset the socket's version-1 adapter, and the
    move went through with no answer)."""
    made = new_room(client, 2)
    sock = Socket(client, 1)
    sock.send({"type": "join", "room": made["room"], "token": made["token"]})
    last = sock.until(lambda m: m["type"] == "state" and bool(m["legal"]))
    sock.send({"type": "watch", "room": "nope"})
    assert sock.until(lambda m: m["type"] == "error")["code"] == "unknown_room"
    sock.ws.send_json({"v": 2, "type": "join", "room": made["room"], "token": "not-the-token"})
    refused = sock.until(lambda m: m["type"] == "error")
    assert refused["code"] == "bad_token" and refused["v"] == 1, refused
    sock.send({"type": "move", "move": last["legal"][0], "state": last["state"]})
    moved = sock.until(lambda m: m["type"] in ("state", "error"))
    assert moved["type"] == "state" and moved["state"] > last["state"], moved
    assert last["legal"][0] not in moved["view"]["hand"]
    sock.close()
