"""The computer's advice (docs/protocol.md "Advice"): a person asks, on its turn in a game against the
computer, what ``experto`` would play; the answer is thought where the computer players think, from the
seat's view alone, and reaches the asking socket only."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cuarenta import Game, Rules
from cuarenta.moves import parse_action
from cuarenta.players.experto import ExpertoPlayer
from cuarenta.server.authority.advice import ADVICE_LEVEL, Advisor, advice_problem
from cuarenta.server.authority.model import Connection, Room, Seat, TableOptions, mesa_seed
from cuarenta.server.authority.requests import Advise
from cuarenta.server.protocol import ERROR_CODES
from cuarenta.server.thinking import ThinkingError, ThinkRequest
from cuarenta.view import SeatView
from support.app import new_room, running, server_room
from support.sockets import Socket
from support.spy import Spy, check_all
from support.tables import new_table, take_seat


class Player(Socket):
    """The page's socket (version 2) at a seat: ``at`` is the table's version it was last told, ``legal``
    its seat's legal moves then (empty when it is not its turn)."""

    def __init__(self, client: TestClient) -> None:
        super().__init__(client, 2)
        self.at = 0
        self.legal: list[str] = []

    def __enter__(self) -> Player:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def recv(self) -> dict[str, Any]:
        message = super().recv()
        if message["type"] in ("snapshot", "event", "resumed"):
            self.at = message["version"]
            private = message.get("private")
            if private is not None:
                self.legal = private["legal"]
        return message

    def my_turn(self) -> None:
        """Read until this seat is to move."""
        while not self.legal:
            self.recv()

    def error(self, message: dict[str, Any]) -> dict[str, Any]:
        self.send(message)
        reply = self.until(lambda m: m["type"] == "error")
        assert reply["code"] in ERROR_CODES and reply["message"]
        return reply


def joined(client: TestClient, made: dict[str, Any]) -> Player:
    sock = Player(client)
    sock.send({"type": "join", "room": made["room"], "token": made["token"], "hints": True})
    sock.until(lambda m: m["type"] == "snapshot")
    return sock


def test_a_person_is_advised_what_experto_would_play_from_its_own_view(tmp_path: Path, spy: Spy) -> None:
    # workers=0: thought on the server's own thread, with no time limit, as a local experto thinks
    with running(tmp_path, workers=0) as client:
        made = new_room(client, level="facil", players=2)
        with joined(client, made) as sock:
            sock.my_turn()
            game = server_room(client, made["room"]).game
            view, legal = game.view(0), game.legal_moves()
            sock.send({"type": "advice", "state": sock.at})
            advice = sock.until(lambda m: m["type"] == "advice")
            assert advice == {
                "v": 2,
                "type": "advice",
                "room": made["room"],
                "state": sock.at,
                "move": advice["move"],
                "level": ADVICE_LEVEL,
            }
            assert advice["move"] in sock.legal
            # the seat's own experto, seeded as the server seeds it, from the view alone: the same move
            local = ExpertoPlayer(f"{game.seed}/0/advice/{sock.at}")
            local.start(0, view.rules)
            assert advice["move"] == str(local.choose(SeatView.from_dict(view.to_dict()), legal))
            # it is advice, not a move: the table waits for the person
            assert server_room(client, made["room"]).game.legal_moves() == legal
            sock.send({"type": "move", "move": advice["move"], "state": sock.at})
            sock.until(lambda m: m["type"] == "event")
    check_all(spy)


def test_advice_is_refused_off_turn_on_an_old_state_and_before_a_join(tmp_path: Path, spy: Spy) -> None:
    with running(tmp_path) as client:
        made = new_room(client, level="facil", players=2)
        with Player(client) as stranger:  # a socket that has not joined is answered as version 1's are
            stranger.send({"type": "advice", "state": 0})
            assert stranger.ws.receive_json()["code"] == "not_joined"
        with joined(client, made) as sock:
            assert sock.error({"type": "advice"})["code"] == "bad_message"
            assert sock.error({"type": "advice", "state": -1})["code"] == "bad_message"
            sock.my_turn()
            now = sock.at
            assert sock.error({"type": "advice", "state": now + 1})["code"] == "stale"
            sock.send({"type": "move", "move": sock.legal[0], "state": now})
            sock.until(lambda m: m["type"] == "event" and m["version"] == now + 1)
            room = server_room(client, made["room"])
            if not room.game.is_over and room.game.turn != 0:
                problem = sock.error({"type": "advice", "state": room.state})["code"]
                assert problem in ("not_your_turn", "stale")  # the computer may have moved already
            # every refusal left the socket usable: it is advised on its next turn (with the workers)
            sock.my_turn()
            sock.send({"type": "advice", "state": sock.at})
            advice = sock.until(lambda m: m["type"] == "advice")
            assert advice["move"] in sock.legal and advice["state"] == sock.at
    check_all(spy)


def test_advice_is_refused_at_a_table_with_friends(tmp_path: Path, spy: Spy) -> None:
    with running(tmp_path) as client:
        made = new_table(client, players=2, seats=["friend"])
        joined_seat = take_seat(client, made)
        with joined(client, made) as ana, joined(client, {**made, "token": joined_seat["token"]}) as beto:
            room = server_room(client, made["room"])
            first = ana if room.game.turn == 0 else beto
            first.my_turn()
            reply = first.error({"type": "advice", "state": first.at})
            assert reply["code"] == "no_advice" and "friends" in reply["message"]
    check_all(spy)


def computer_room(seed: int, *, table: bool = False) -> Room:
    """A room of one person (seat 0) against ``normal`` (or, with ``table``, a table of two people)."""
    rules = Rules.preset("a_todo_rigor", players=2)
    other = Seat(1, "person", "Beto", None) if table else Seat(1, "computer", "", "normal")
    return Room(
        id="room",
        created="2026-12-05T00:00:00Z",
        level="normal",
        rules=rules,
        seed=seed,
        seats=[Seat(0, "person", "Ana", None), other],
        mesa=1,
        game=Game.new(rules, mesa_seed(seed, 1)),
        table=TableOptions(invite="the-invite-code") if table else None,
    )


# -- the advisor on its own: the answer reaches only the asker, and only while the question stands --------
class GatedThinking:
    """Thinking that answers the first legal action once the test opens the gate (a stand-in for a worker
    that is slow, so that the table can move on meanwhile)."""

    workers = 0

    def __init__(self) -> None:
        self.gate = asyncio.Event()
        self.asked: list[ThinkRequest] = []
        self.fail = False

    async def choose(self, request: ThinkRequest) -> str:
        self.asked.append(request)
        await self.gate.wait()
        if self.fail:
            raise ThinkingError("the worker died")
        return request.legal[0]

    def pids(self) -> list[int]:
        return []

    async def close(self) -> None:
        return None


def sent(conn: Connection) -> list[dict[str, Any]]:
    out = []
    while not conn.queue.empty():
        out.append(conn.queue.get_nowait())
    return out


@pytest.mark.parametrize("moved_on", [False, True])
def test_an_answer_for_a_state_the_table_left_is_dropped(moved_on: bool) -> None:
    async def scenario() -> tuple[list[dict[str, Any]], list[dict[str, Any]], int]:
        thinking = GatedThinking()
        advisor = Advisor(thinking)  # type: ignore[arg-type]
        room = computer_room(seed=11)
        asker, other = Connection(), Connection()
        for conn in (asker, other):
            conn.room, conn.seat = room, room.game.turn
        advisor.ask(asker, Advise(state=room.state))
        advisor.ask(asker, Advise(state=room.state))  # the same question: thought about once
        await asyncio.sleep(0)
        if moved_on:
            room.game.play(room.game.legal_moves()[0])
            room.state += 1
        thinking.gate.set()
        for _ in range(5):
            await asyncio.sleep(0)
        await advisor.close()
        return sent(asker), sent(other), len(thinking.asked)

    to_asker, to_other, thought = asyncio.run(scenario())
    assert thought == 1 and to_other == []
    if moved_on:
        assert to_asker == []
    else:
        assert [m["type"] for m in to_asker] == ["advice"]


def test_a_player_that_fails_is_told_to_the_asker_alone() -> None:
    async def scenario() -> tuple[list[dict[str, Any]], Advisor]:
        thinking = GatedThinking()
        thinking.fail = True
        advisor = Advisor(thinking)  # type: ignore[arg-type]
        room = computer_room(seed=3)
        asker = Connection()
        asker.room, asker.seat = room, room.game.turn
        advisor.ask(asker, Advise(state=room.state))
        assert advisor.pending() == 1
        thinking.gate.set()
        for _ in range(5):
            await asyncio.sleep(0)
        return sent(asker), advisor

    to_asker, advisor = asyncio.run(scenario())
    assert [(m["type"], m["code"]) for m in to_asker] == [("error", "advice_failed")]
    assert to_asker[0]["code"] in ERROR_CODES and advisor.pending() == 0


def test_the_rules_of_advice() -> None:
    room = computer_room(seed=4)
    seat = room.game.turn
    assert advice_problem(room, seat, room.state) is None
    assert advice_problem(room, 1 - seat, room.state).code == "not_your_turn"  # type: ignore[union-attr]
    assert advice_problem(room, seat, room.state + 1).code == "stale"  # type: ignore[union-attr]
    table = computer_room(seed=4, table=True)
    assert advice_problem(table, table.game.turn, table.state).code == "no_advice"  # type: ignore[union-attr]
    game = Game.new(Rules(), seed=4)
    while not game.is_over:
        game.play(game.legal_moves()[0])
    over = type(room)(**{**room.__dict__, "game": game})
    assert advice_problem(over, seat, over.state).code == "game_over"  # type: ignore[union-attr]
    assert parse_action(str(room.game.legal_moves()[0]))  # the advice is a move in the engine's notation
