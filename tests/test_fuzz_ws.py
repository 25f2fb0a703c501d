"""A hypothesis fuzz of the WebSocket protocol (docs/protocol.md): random and mutated messages.

Wrong types, huge numbers, unicode, deep nesting, wrong versions, bytes that are not UTF-8, truncated
JSON, and valid messages in wrong orders are sent to ``create_app`` through Starlette's TestClient
(the app's exceptions reach the test), then a few to a real uvicorn server over a real socket. For every
message: the server answers exactly once, with an ``error`` of a known code, a ``pong`` or a ``state``;
after an ``error`` nothing changed (the room's state counter, its game, its stored row and action log);
and at the end the socket still answers a ping. Bounded: a few seconds.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import httpx
import pytest
import uvicorn
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from websockets.sync.client import connect

from cuarenta.cli.serve import uvicorn_options
from cuarenta.game import Game
from cuarenta.rules import Rules
from cuarenta.server import create_app
from cuarenta.server.authority.model import Room, mesa_seed
from cuarenta.server.edge.ratelimits import Limits
from cuarenta.server.protocol import ERROR_CODES
from cuarenta.server.wiring import TableRooms as Rooms
from support.examples import examples
from support.ports import free_port

PING = {"v": 1, "type": "ping"}
FUZZ = settings(
    max_examples=examples(80),
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# -- strategies --------------------------------------------------------------------------------------------
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(10**40), max_value=10**40),
    st.sampled_from([0, 1, 2, -1, 2**31, 2**63, -(2**63), 10**300]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    st.sampled_from(
        ["", "ping", "join", "move", "next", "7h", "7h x7s", "claim 5s", "\u0000", "ñ𝄞", "\ud7ff"]
    ),
)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
FIELDS = ("v", "type", "room", "token", "move", "state")
#: A room seed whose first mesa the person (seat 0) starts.
PERSON_FIRST = next(s for s in range(100) if Game.new(Rules(), mesa_seed(s, 1)).turn == 0)


@dataclass(frozen=True)
class Target:
    """The room a fuzzed socket plays in: its id, the person's token, its state and legal moves."""

    room: str
    token: str
    state: int
    legal: tuple[str, ...]


def valid_messages(target: Target) -> st.SearchStrategy[dict[str, Any]]:
    moves = st.sampled_from([*target.legal, "7h", "Kc x3c+4d", "claim 5s,6h", "zz"])
    return st.one_of(
        st.just({"v": 1, "type": "join", "room": target.room, "token": target.token}),
        st.builds(
            lambda room, token: {"v": 1, "type": "join", "room": room, "token": token},
            st.sampled_from([target.room, "nope", "x" * 200]),
            st.sampled_from([target.token, "wrong", target.token + "x"]),
        ),
        st.builds(
            lambda move, state: {"v": 1, "type": "move", "move": move, "state": state},
            moves,
            st.sampled_from([target.state, target.state + 1, target.state - 1, 0, 10**20]),
        ),
        st.just({"v": 1, "type": "next"}),
        st.just(dict(PING)),
    )


@st.composite
def mutated(draw: st.DrawFn, target: Target) -> dict[str, Any] | list[Any]:
    message: dict[str, Any] = dict(draw(valid_messages(target)))
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        how = draw(st.sampled_from(["drop", "replace", "add", "version", "type", "nest"]))
        if how == "drop" and message:
            message.pop(draw(st.sampled_from(sorted(message))))
        elif how == "replace":
            message[draw(st.sampled_from(FIELDS))] = draw(json_values)
        elif how == "add":
            message[draw(st.text(max_size=10))] = draw(json_values)
        elif how == "version":
            message["v"] = draw(st.sampled_from([0, 3, "1", 1.0, True, None, [1], -1, 10**30]))
        elif how == "type":
            message["type"] = draw(st.sampled_from(["PING", "Join", "", "ping ", "move\u0000", 1, None]))
        elif how == "nest":
            return [message] if draw(st.booleans()) else [[message, message]]
    return message


def encoded(value: Any) -> st.SearchStrategy[str | bytes]:
    text = json.dumps(value, ensure_ascii=False)
    return st.one_of(
        st.just(text),
        st.just(text.encode("utf-8")),  # the same message as a binary frame
        st.builds(lambda cut: text[:cut], st.integers(min_value=0, max_value=max(0, len(text) - 1))),
        st.builds(lambda junk: text + junk, st.text(min_size=1, max_size=5)),
        st.just(f"  \n{text}\t "),
    )


raw_frames = st.one_of(
    st.text(max_size=200),
    st.binary(max_size=200),
    st.builds(lambda n: "[" * n + "]" * n, st.integers(min_value=500, max_value=2040)),  # deep nesting
    st.builds(lambda n: '{"a":' * n + "1" + "}" * n, st.integers(min_value=500, max_value=800)),
    st.builds(lambda n: "9" * n, st.integers(min_value=4000, max_value=4096)),  # a huge number
    st.builds(lambda n: '{"v": 1, "type": "ping", "x": ' + "1" * n + "}", st.integers(4000, 4100)),
    st.builds(lambda n: "x" * n, st.integers(min_value=4090, max_value=9000)),  # around the size limit
    st.sampled_from(["", "null", "true", "1e999", "NaN", '"ping"', "{}", "[]", '{"v":1}', "\ufeff{}"]),
)


def frames(target: Target) -> st.SearchStrategy[str | bytes]:
    return st.one_of(
        raw_frames,
        json_values.flatmap(encoded),
        mutated(target).flatmap(encoded),
        valid_messages(target).flatmap(encoded),
    )


# -- the room and what must not change ---------------------------------------------------------------------
def fresh_room(rooms: Rooms) -> tuple[Room, str]:
    """A 2-player practice room where the person (seat 0) moves first: no computer moves until it plays."""
    room, token = rooms.create(rules=Rules(), level="facil", seed=PERSON_FIRST, practice=True)
    assert room.game.turn == 0
    return room, token


#: the names of :func:`snapshot`'s fields, to say which one changed
SNAPSHOT: Final = (
    "game",
    "state",
    "mesa",
    "stored state",
    "stored status",
    "stored mesa",
    "actions",
    "sockets",
)


def snapshot(app: FastAPI, room: Room) -> tuple[Any, ...]:
    store = app.state.store
    row = store.load_room(room.id)
    assert row is not None
    return (
        room.game.to_json(),
        room.state,
        room.mesa,
        row.state,
        row.status,
        row.mesa,
        store.load_actions(room.id, row.mesa),
        len(room.connections),
    )


def check_reply(reply: Any, sent: str | bytes) -> None:
    assert isinstance(reply, dict) and reply.get("v") == 1, reply
    event(f"reply {reply.get('code', reply.get('type'))}")  # --hypothesis-show-statistics lists them
    assert reply["type"] in ("error", "pong", "state"), reply
    if reply["type"] == "error":
        assert reply["code"] in ERROR_CODES and reply["code"] != "rate_limited", reply
        assert isinstance(reply["message"], str) and reply["message"], reply
        assert set(reply) <= {"v", "type", "code", "message", "reason"}, reply


# -- in-process --------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    app = create_app(
        tmp_path_factory.mktemp("fuzz-ws") / "data",
        bot_delay=3600,  # after a legal move the computer would wait an hour: the room stays still
        workers=0,
        limits=Limits(ws_rate=1e6, ws_burst=10**6, rooms_per_minute=0),  # a table per example
    )
    with TestClient(app) as client:
        yield client


@given(data=st.data())
@FUZZ
def test_fuzzed_messages_never_crash_and_a_refused_one_changes_nothing(
    served: TestClient, data: st.DataObject
) -> None:
    app: FastAPI = served.app  # type: ignore[assignment]
    room, token = fresh_room(app.state.rooms)
    target = Target(room.id, token, room.state, tuple(str(m) for m in room.game.legal_moves()))
    joined = data.draw(st.booleans(), label="join first")
    messages = data.draw(st.lists(frames(target), min_size=1, max_size=6), label="messages")
    with served.websocket_connect("/ws") as ws:
        if joined:
            ws.send_json({"v": 1, "type": "join", "room": room.id, "token": token})
            assert ws.receive_json()["type"] == "state"
        for message in messages:
            before = snapshot(app, room)
            if isinstance(message, bytes):
                ws.send_bytes(message)
            else:
                ws.send_text(message)
            reply = ws.receive_json()
            check_reply(reply, message)
            if reply["type"] == "error":
                assert snapshot(app, room) == before, (message, reply)
            elif reply["type"] == "pong":
                assert snapshot(app, room)[:-1] == before[:-1]
            elif reply["room"] == room.id and reply["state"] != before[1]:
                # a legal move (or a join) went through: the room moved on, as it should; stop here
                assert reply["state"] == before[1] + 1 and reply["events"][0]["kind"] == "play"
                break
        ws.send_json(PING)
        assert ws.receive_json() == {"v": 1, "type": "pong"}  # the socket is still usable


def test_valid_messages_in_wrong_orders() -> None:
    """Orders a fuzz rarely finds: a move and next before join, join twice, a stale move after a good one."""
    import tempfile

    with (
        tempfile.TemporaryDirectory() as tmp,
        TestClient(create_app(Path(tmp), bot_delay=3600, workers=0)) as client,
    ):
        app: FastAPI = client.app  # type: ignore[assignment]
        room, token = fresh_room(app.state.rooms)
        legal = [str(m) for m in room.game.legal_moves()]
        with client.websocket_connect("/ws") as ws:
            before = snapshot(app, room)
            for early in ({"v": 1, "type": "move", "move": legal[0], "state": 0}, {"v": 1, "type": "next"}):
                ws.send_json(early)
                assert ws.receive_json()["code"] == "not_joined"
            assert snapshot(app, room) == before
            for _ in range(2):  # joining twice is allowed and changes nothing in the room
                ws.send_json({"v": 1, "type": "join", "room": room.id, "token": token})
                assert ws.receive_json()["type"] == "state"
            assert snapshot(app, room)[:-1] == before[:-1]
            ws.send_json({"v": 1, "type": "move", "move": legal[0], "state": 0})
            moved = ws.receive_json()
            assert moved["type"] == "state" and moved["state"] == 1
            after = snapshot(app, room)
            for late in (
                {"v": 1, "type": "move", "move": legal[0], "state": 0},  # the same move again: stale
                {"v": 1, "type": "move", "move": legal[-1], "state": 1},  # the computer's turn
                {"v": 1, "type": "next"},  # the mesa is in play
            ):
                ws.send_json(late)
                assert ws.receive_json()["code"] in ("stale", "not_your_turn", "not_finished")
            assert snapshot(app, room) == after


# -- a real server, real sockets ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def real(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, FastAPI, httpx.Client]]:
    """The app under uvicorn with ``cuarenta serve``'s settings (64 KiB frames), on loopback, in a thread."""
    app = create_app(
        tmp_path_factory.mktemp("fuzz-real") / "data",
        bot_delay=3600,
        workers=0,
        # a room per example; each socket keeps the default limits, but the examples' sockets all come from
        # one address, quicker than a person: the address's budget across sockets (tests/test_limits.py) is
        # lifted
        limits=Limits(rooms_per_minute=0, http_per_minute=0, address_rate=1e6, address_burst=10**6),
    )
    options = uvicorn_options("warning")
    config = uvicorn.Config(app, host="127.0.0.1", port=free_port(), lifespan="on", **options)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="fuzz-uvicorn", daemon=True)
    thread.start()
    try:
        for _ in range(600):
            if server.started:
                break
            threading.Event().wait(0.05)
        assert server.started, "uvicorn did not start"
        with httpx.Client(base_url=f"http://127.0.0.1:{config.port}", timeout=20) as http:
            yield f"ws://127.0.0.1:{config.port}/ws", app, http
    finally:
        server.should_exit = True
        thread.join(timeout=20)


def real_room(http: httpx.Client, app: FastAPI) -> tuple[Room, str]:
    """A practice room made over HTTP (so on the server's own loop) where the person moves first."""
    made = http.post("/api/rooms", json={"seed": PERSON_FIRST, "practice": True}).json()
    room: Room = app.state.rooms.get(made["room"])
    assert room.game.turn == 0
    return room, made["token"]


@given(data=st.data())
@settings(
    max_examples=examples(30),
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_fuzzed_frames_over_a_real_socket(
    real: tuple[str, FastAPI, httpx.Client], data: st.DataObject
) -> None:
    url, app, http = real
    room, token = real_room(http, app)
    target = Target(room.id, token, room.state, tuple(str(m) for m in room.game.legal_moves()))
    messages = data.draw(st.lists(frames(target), min_size=1, max_size=5), label="messages")
    with connect(url) as ws:
        for message in messages:
            before = snapshot(app, room)
            ws.send(message)
            reply = json.loads(ws.recv(timeout=20))
            check_reply(reply, message)
            if reply["type"] == "error":
                assert snapshot(app, room) == before, (message, reply)
            elif reply["type"] == "state" and reply["state"] != before[1]:
                break  # a legal move went through
        ws.send(json.dumps(PING))
        assert json.loads(ws.recv(timeout=20)) == {"v": 1, "type": "pong"}


def test_a_real_socket_survives_fragments_and_control_frames(real: tuple[str, FastAPI, httpx.Client]) -> None:
    url = real[0]
    with connect(url) as ws:
        ws.send(iter(['{"v": 1, ', '"type": ', '"ping"}']))  # one message in three frames
        assert json.loads(ws.recv(timeout=20)) == {"v": 1, "type": "pong"}
        ws.ping(b"\x00" * 125).wait(timeout=20)  # a control frame with the largest payload
        ws.send(iter([b'{"v": 1, "type"', b': "ping"}']))  # binary fragments
        assert json.loads(ws.recv(timeout=20)) == {"v": 1, "type": "pong"}
        ws.send(iter(["é" * 3000, "é" * 3000]))  # 6000 characters, 12000 bytes: over the protocol's size
        assert json.loads(ws.recv(timeout=20))["code"] == "bad_message"
        ws.send(json.dumps(PING))
        assert json.loads(ws.recv(timeout=20)) == {"v": 1, "type": "pong"}


# -- tables with friends: the new messages ------------------------------------------------------------------
JOIN: Final = {"v": 1, "type": "join"}


def table_messages(target: Target) -> st.SearchStrategy[dict[str, Any]]:
    """The messages of docs/tables.md, right and wrong, plus those of a seat."""
    sayings = st.sampled_from(["mosero", "dos_por_guapo", "<b>", "", "x" * 41, "MOSERO"])
    return st.one_of(
        valid_messages(target),
        st.builds(
            lambda room: {"v": 1, "type": "watch", "room": room}, st.sampled_from([target.room, "nope", ""])
        ),
        st.builds(lambda saying: {"v": 1, "type": "react", "saying": saying}, sayings),
        st.just({"v": 1, "type": "rematch"}),
        st.builds(
            lambda since: {
                "v": 1,
                "type": "join",
                "room": target.room,
                "token": target.token,
                "since": since,
            },
            st.sampled_from([0, 1, 3, 10**6, -1, "2", None]),
        ),
    )


def table_frames(target: Target) -> st.SearchStrategy[str | bytes]:
    return st.one_of(
        table_messages(target).flatmap(encoded),
        mutated(target).flatmap(encoded),
        raw_frames,
    )


@given(data=st.data())
@FUZZ
def test_fuzzed_table_messages_never_crash_and_a_refused_one_changes_nothing(
    served: TestClient, data: st.DataObject
) -> None:
    app: FastAPI = served.app  # type: ignore[assignment]
    rooms = app.state.rooms
    made = served.post("/api/tables", json={"name": "Ana", "seats": ["normal"]}).json()  # starts at once
    room = rooms.get(made["room"])
    assert room.started and room.table is not None
    # (the table's deal is the server's random one: its legal moves are not drawn from, so that every
    # example draws the same way; the fuzz of rooms above plays legal moves)
    target = Target(room.id, made["token"], room.state, ())
    messages = data.draw(st.lists(table_frames(target), min_size=1, max_size=5), label="messages")
    with served.websocket_connect("/ws") as ws:
        if data.draw(st.booleans(), label="join first"):
            ws.send_json({"v": 1, "type": "join", "room": room.id, "token": made["token"]})
            assert ws.receive_json()["type"] == "state"
        for message in messages:
            before = snapshot(app, room)
            if isinstance(message, bytes):
                ws.send_bytes(message)
            else:
                ws.send_text(message)
            ws.send_json(PING)
            replies = []
            while (reply := ws.receive_json()) != {"v": 1, "type": "pong"}:
                assert reply.get("v") == 1 and reply["type"] in ("error", "state", "table", "reaction"), reply
                if reply["type"] == "error":
                    assert reply["code"] in ERROR_CODES and reply["code"] != "rate_limited", reply
                replies.append(reply)
            event(f"replies {sorted({r.get('code', r['type']) for r in replies})}")
            moved = [r for r in replies if r["type"] == "state" and r["state"] != before[1]]
            if moved:  # a legal move went through: the room moved on by one, as it should; stop here
                assert moved[0]["state"] == before[1] + 1
                break
            after = snapshot(app, room)
            changed = [name for name, a, b in zip(SNAPSHOT, before, after, strict=True) if a != b]
            assert changed in ([], ["sockets"]), (changed, message, replies)  # (sockets may come and go)
