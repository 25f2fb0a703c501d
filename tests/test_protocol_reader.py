"""The socket protocol's one table of message types and its reader (:mod:`cuarenta.server.protocol`), which
the server's ``/ws`` and the device host both use (issue 26, "one reader per message").

Every type is read into the authority's request and handed to its handler; a malformed message of each
type is refused with the code and the sentence the server gave before the reader was one (its sentences
were pydantic's: they are pinned here as they were).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from cuarenta.server.authority.model import Connection
from cuarenta.server.authority.requests import Advise, Join, Move, Plain, React, SetPace, Watch
from cuarenta.server.protocol import (
    MAX_MESSAGE_CHARS,
    MESSAGE_TYPES,
    MESSAGES,
    ClientMessage,
    ProtocolError,
    dispatch,
    parse_client_message,
)

#: One valid message of each type, and what it is read as.
VALID: dict[str, tuple[dict[str, Any], Any]] = {
    "join": (
        {"room": "r", "token": "t", "pace": "fast", "since": 4, "hints": True},
        Join(room="r", token="t", since=4, pace="fast", v=2, hints=True),
    ),
    "move": ({"move": "7h x3c+4d", "state": 3}, Move(move="7h x3c+4d", state=3)),
    "next": ({}, Plain()),
    "pace": ({"pace": "slow"}, SetPace(pace="slow")),
    "ping": ({}, Plain()),
    "watch": ({"room": "r", "since": 0}, Watch(room="r", v=2, since=0)),
    "react": ({"saying": "mosero"}, React(saying="mosero")),
    "rematch": ({}, Plain()),
    "advice": ({"state": 17}, Advise(state=17)),
}

#: A malformed message of each type that has fields, and the sentence of its ``bad_message`` (as the
#: server's pydantic models worded it).
MALFORMED: list[tuple[dict[str, Any], str]] = [
    ({"type": "advice"}, "malformed 'advice' message: state: Field required"),
    ({"type": "join", "token": "t"}, "malformed 'join' message: room: Field required"),
    (
        {"type": "join", "room": "r", "token": "t", "pace": "turbo"},
        "malformed 'join' message: pace: Input should be 'slow', 'normal' or 'fast'",
    ),
    (
        {"type": "join", "room": "r", "token": "t", "since": -1},
        "malformed 'join' message: since: Input should be greater than or equal to 0",
    ),
    (
        {"type": "join", "room": "r", "token": "t", "hints": 1},
        "malformed 'join' message: hints: Input should be a valid boolean",
    ),
    (
        {"type": "join", "room": "", "token": 5, "since": "x", "hints": None},
        "malformed 'join' message: room: String should have at least 1 character; token: Input should be a "
        "valid string; since: Input should be a valid integer",
    ),
    ({"type": "watch"}, "malformed 'watch' message: room: Field required"),
    (
        {"type": "watch", "room": "r", "since": 1.5},
        "malformed 'watch' message: since: Input should be a valid integer",
    ),
    ({"type": "move", "move": "7h"}, "malformed 'move' message: state: Field required"),
    (
        {"type": "move", "move": None, "state": None},
        "malformed 'move' message: move: Input should be a valid string; state: Input should be a valid "
        "integer",
    ),
    (
        {"type": "move", "move": "m" * 201, "state": 1},
        "malformed 'move' message: move: String should have at most 200 characters",
    ),
    (
        {"type": "move", "move": "7h", "state": True},
        "malformed 'move' message: state: Input should be a valid integer",
    ),
    ({"type": "pace"}, "malformed 'pace' message: pace: Field required"),
    (
        {"type": "pace", "pace": None},
        "malformed 'pace' message: pace: Input should be 'slow', 'normal' or 'fast'",
    ),
    (
        {"type": "pace", "pace": ["slow"]},
        "malformed 'pace' message: pace: Input should be 'slow', 'normal' or 'fast'",
    ),
    ({"type": "react"}, "malformed 'react' message: saying: Field required"),
    (
        {"type": "react", "saying": "s" * 41},
        "malformed 'react' message: saying: String should have at most 40 characters",
    ),
    ({"type": "react", "saying": ["a"]}, "malformed 'react' message: saying: Input should be a valid string"),
]

#: Messages refused before their fields are read: the envelope (size, JSON, ``v``, ``type``).
ENVELOPES: list[tuple[str | bytes, str, str]] = [
    (b"\xff", "bad_message", "the message is not UTF-8 text"),
    (
        "x" * (MAX_MESSAGE_CHARS + 1),
        "bad_message",
        f"the message is longer than {MAX_MESSAGE_CHARS} characters",
    ),
    ("not json", "bad_message", "the message is not JSON"),
    ("[1]", "bad_message", "the message must be a JSON object"),
    ('{"type": "ping"}', "bad_version", 'the message has no "v": send "v": 1 or "v": 2'),
    ('{"v": 3, "type": "ping"}', "bad_version", "this server speaks protocol versions 1 and 2, not 3"),
    ('{"v": true, "type": "ping"}', "bad_version", "this server speaks protocol versions 1 and 2, not True"),
    ('{"v": 1, "type": 3}', "bad_message", 'the message has no "type"'),
    (
        '{"v": 2, "type": "dance"}',
        "bad_message",
        "unknown message type 'dance': expected one of join, move, next, pace, ping, watch, react, rematch, "
        "advice",
    ),
]


def test_the_table_has_every_type_of_docs_protocol() -> None:
    assert set(MESSAGES) == set(VALID) == set(MESSAGE_TYPES)


@pytest.mark.parametrize("kind", sorted(VALID))
@pytest.mark.parametrize("v", [1, 2])
def test_a_valid_message_of_each_type_is_read_into_the_authoritys_request(kind: str, v: int) -> None:
    fields, request = VALID[kind]
    if isinstance(request, Join | Watch):
        request = type(request)(**{**request.__dict__, "v": v})
    text = json.dumps({"v": v, "type": kind, **fields, "unknown": [1]})  # a field no type reads is ignored
    assert parse_client_message(text) == ClientMessage(type=kind, v=v, request=request)
    assert parse_client_message(text.encode()) == parse_client_message(text)  # a binary frame alike


def test_optional_fields_take_their_defaults() -> None:
    join = parse_client_message('{"v": 1, "type": "join", "room": "r", "token": "t", "pace": null}')
    assert join.request == Join(room="r", token="t", since=None, pace=None, v=1, hints=False)
    watch = parse_client_message('{"v": 2, "type": "watch", "room": "r", "since": null}')
    assert watch.request == Watch(room="r", v=2, since=None)


def test_version_one_point_zero_is_read_as_one() -> None:
    """A JSON ``1.0`` is version 1 (as the server's pydantic models read it): the answers say ``"v": 1``."""
    message = parse_client_message('{"v": 1.0, "type": "join", "room": "r", "token": "t"}')
    assert message.v == 1 and isinstance(message.v, int)
    assert isinstance(message.request, Join) and type(message.request.v) is int


@pytest.mark.parametrize(
    ("fields", "sentence"), MALFORMED, ids=lambda x: x.get("type") if isinstance(x, dict) else ""
)
def test_a_malformed_message_of_each_type_is_refused_with_todays_sentence(
    fields: dict[str, Any], sentence: str
) -> None:
    with pytest.raises(ProtocolError) as info:
        parse_client_message(json.dumps({"v": 2, **fields}))
    assert (info.value.code, info.value.message) == ("bad_message", sentence)


def test_every_type_with_fields_has_a_malformed_case() -> None:
    with_fields = {kind for kind, shape in MESSAGES.items() if shape.fields}
    assert with_fields == {fields["type"] for fields, _ in MALFORMED}


def test_at_most_three_problems_are_named() -> None:
    with pytest.raises(ProtocolError) as info:
        parse_client_message('{"v": 2, "type": "join", "room": 1, "token": 2, "pace": 3, "since": -1}')
    assert info.value.message.count(":") == 4  # "malformed 'join' message:" and three problems
    assert "since" not in info.value.message


@pytest.mark.parametrize(("text", "code", "sentence"), ENVELOPES, ids=lambda x: str(x)[:20])
def test_an_envelope_is_refused_before_its_fields(text: str | bytes, code: str, sentence: str) -> None:
    with pytest.raises(ProtocolError) as info:
        parse_client_message(text)
    assert (info.value.code, info.value.message) == (code, sentence)


class Recorder:
    """A :class:`~cuarenta.server.protocol.Handlers` that notes each call."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, object]] = []

    def join(self, conn: Connection, message: object) -> None:
        self.calls.append(("join", message))

    def watch(self, conn: Connection, message: object) -> None:
        self.calls.append(("watch", message))

    def move(self, conn: Connection, message: object) -> None:
        self.calls.append(("move", message))

    def next_mesa(self, conn: Connection, message: object = None) -> None:
        self.calls.append(("next_mesa", message))

    def pace(self, conn: Connection, message: object) -> None:
        self.calls.append(("pace", message))

    def react(self, conn: Connection, message: object) -> None:
        self.calls.append(("react", message))

    def rematch(self, conn: Connection, message: object = None) -> None:
        self.calls.append(("rematch", message))

    def advice(self, conn: Connection, message: object) -> None:
        self.calls.append(("advice", message))


METHOD = {"next": "next_mesa"}


@pytest.mark.parametrize("kind", sorted(set(VALID) - {"ping"}))
def test_each_type_is_handed_to_its_handler_with_its_request(kind: str) -> None:
    fields, request = VALID[kind]
    message = parse_client_message(json.dumps({"v": 2, "type": kind, **fields}))
    handlers, conn = Recorder(), Connection()
    dispatch(handlers, conn, message)
    assert handlers.calls == [(METHOD.get(kind, kind), request)]
    assert conn.queue.empty()


def test_ping_is_answered_on_the_connection_itself() -> None:
    handlers, conn = Recorder(), Connection()
    dispatch(handlers, conn, parse_client_message('{"v": 2, "type": "ping"}'))
    assert handlers.calls == []
    assert conn.queue.get_nowait() == {"v": 2, "type": "pong"}  # the authority speaks version 2
