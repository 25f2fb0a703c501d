"""The computer's pace (docs/protocol.md, "Computer players and pacing"): a browser chooses ``slow``,
``normal`` or ``fast`` with ``join`` or a ``pace`` message; the server pauses ``bot_delay`` times the pace's
factor before each computer move in that room, says so with a ``pace`` message, and a change of pace
applies to a pause under way.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cuarenta.server.authority.pace import PACE_FACTORS
from cuarenta.server.authority.requests import Join, SetPace
from cuarenta.server.protocol import PACES, parse_client_message
from support.app import Browser, new_room, running, server_room
from support.spy import Spy, check_all


def computer_first(client: TestClient) -> dict[str, Any]:
    """A practice room whose first move is the computer's (seat 1)."""
    seed = 0
    while True:
        made = new_room(client, level="facil", seed=seed)
        if server_room(client, made["room"]).game.turn == 1:
            return made
        seed += 1


def test_the_paces_are_ordered_and_normal_is_the_servers_delay() -> None:
    assert PACES == ("slow", "normal", "fast")
    assert set(PACE_FACTORS) == set(PACES)
    assert PACE_FACTORS["slow"] > PACE_FACTORS["normal"] == 1 > PACE_FACTORS["fast"] > 0


def test_pace_messages_are_read_and_bad_ones_refused() -> None:
    message = parse_client_message('{"v": 1, "type": "pace", "pace": "slow"}')
    assert message.type == "pace" and message.request == SetPace(pace="slow")
    join = parse_client_message('{"v": 1, "type": "join", "room": "r", "token": "t", "pace": "fast"}')
    assert isinstance(join.request, Join) and join.request.pace == "fast"
    plain = parse_client_message('{"v": 1, "type": "join", "room": "r", "token": "t"}')
    assert isinstance(plain.request, Join) and plain.request.pace is None
    for bad in ('{"v": 1, "type": "pace"}', '{"v": 1, "type": "pace", "pace": "turbo"}'):
        with pytest.raises(Exception, match="bad_message"):
            parse_client_message(bad)


def test_join_with_a_pace_sets_it_and_the_server_says_its_delay(data_dir: Path, spy: Spy) -> None:
    with running(data_dir, bot_delay=0.04) as client:
        made = new_room(client, level="facil")
        browser = Browser(client, spy)
        browser.send({"v": 1, "type": "join", "room": made["room"], "token": made["token"], "pace": "slow"})
        assert browser.recv()["type"] == "state"
        assert browser.recv() == {"v": 1, "type": "pace", "pace": "slow", "delay": pytest.approx(0.1)}
        assert server_room(client, made["room"]).pace == "slow"
        delays = {}
        for pace in ("fast", "normal", "slow"):
            browser.send({"v": 1, "type": "pace", "pace": pace})
            reply = browser.recv()
            while reply["type"] == "state":  # a computer move may come in between
                reply = browser.recv()
            assert reply["type"] == "pace" and reply["pace"] == pace
            delays[pace] = reply["delay"]
        # the computer's move comes later at slow than at normal, and later at normal than at fast
        assert delays == pytest.approx({"slow": 0.1, "normal": 0.04, "fast": 0.01})
        assert delays["slow"] > delays["normal"] > delays["fast"] > 0
        browser.close()
    check_all(spy)


def test_a_join_without_pace_gets_no_pace_message_and_keeps_normal(data_dir: Path, spy: Spy) -> None:
    with running(data_dir) as client:
        made = new_room(client, level="facil")
        browser = Browser(client, spy)
        assert browser.join(made["room"], made["token"])["type"] == "state"
        browser.send({"v": 1, "type": "ping"})
        assert browser.recv() == {"v": 1, "type": "pong"}  # no pace message came before the pong
        assert server_room(client, made["room"]).pace == "normal"
        browser.close()


def test_pace_before_join_is_refused(data_dir: Path, spy: Spy) -> None:
    with running(data_dir) as client:
        browser = Browser(client, spy)
        assert browser.error({"v": 1, "type": "pace", "pace": "fast"})["code"] == "not_joined"
        assert browser.error({"v": 1, "type": "pace", "pace": "turbo"})["code"] == "bad_message"
        browser.close()


def test_every_socket_of_the_room_is_told_the_new_pace(data_dir: Path, spy: Spy) -> None:
    with running(data_dir, bot_delay=1000) as client:  # the computer never moves during this test
        made = computer_first(client)
        first, second = Browser(client, spy), Browser(client, spy)
        first.join(made["room"], made["token"])
        second.join(made["room"], made["token"])
        first.send({"v": 1, "type": "pace", "pace": "fast"})
        for browser in (first, second):
            assert browser.recv() == {"v": 1, "type": "pace", "pace": "fast", "delay": 250}
        first.close()
        second.close()


def test_a_change_of_pace_applies_to_the_computers_pause_under_way(
    data_dir: Path, spy: Spy, monkeypatch: pytest.MonkeyPatch
) -> None:
    # normal is 1000 s, slow 2500 s: the computer waits for ever unless the faster pace cuts its pause
    monkeypatch.setitem(PACE_FACTORS, "fast", 0.0)
    with running(data_dir, bot_delay=1000) as client:
        made = computer_first(client)
        browser = Browser(client, spy)
        browser.send({"v": 1, "type": "join", "room": made["room"], "token": made["token"], "pace": "slow"})
        state = browser.recv()
        assert state["type"] == "state" and state["view"]["turn"] == 1 and state["legal"] == []
        assert browser.recv()["pace"] == "slow"
        browser.send({"v": 1, "type": "pace", "pace": "fast"})
        assert browser.recv() == {"v": 1, "type": "pace", "pace": "fast", "delay": 0}
        moved = browser.recv()  # the computer's move, at once (without the change: in 2500 s)
        assert moved["type"] == "state" and moved["state"] == state["state"] + 1
        assert moved["events"][0]["kind"] == "play" and moved["events"][0]["seat"] == 1
        browser.close()
    check_all(spy)
