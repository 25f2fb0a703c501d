"""A championship table's life (issue 25 items 1, 2, 4; docs/championships.md): a walkover the committee
reversed is not given again by the server, a paused table says so to everyone at it (and offers no
move), and a table replaced by the judge's restart stops at once, its people and spectators told where
the partida goes on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from support.champ_server import app, bearer, in_loop, people_championship, start, until
from support.spy import Spy, check_all
from support.tables import Seat
from support.wire import Reducer


def public(client: TestClient, cid: str) -> dict[str, Any]:
    found: dict[str, Any] = client.get(f"/api/championships/{cid}").json()
    return found


def service(client: TestClient) -> Any:
    return client.app.state.championships  # type: ignore[attr-defined]


def sit(client: TestClient, cid: str, token: str, player: int) -> dict[str, Any]:
    answer = client.post(f"/api/championships/{cid}/sit", json={"player": player}, headers=bearer(token))
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


# -- item 2: the committee's reversal of a walkover sticks ---------------------------------------------------
def test_a_reversed_walkover_is_not_given_again_by_the_server_and_a_second_reversal_does_not_loop(
    tmp_path: Path,
) -> None:
    with app(tmp_path) as client:
        made, tokens = people_championship(client, 4, rounds=2, wait_minutes=1)
        cid = made["championship"]
        start(client, made)
        first = public(client, cid)["rounds"][0][0]
        seated = first["pairs"][0]  # both of its players sit; the other pair never comes
        for player in (0, 1):
            sit(client, cid, tokens[int(seated[1:]) - 1], player)
        championships = service(client)
        championships.wall = lambda: 4102444800.0  # 2100-01-01: the wait is long over
        in_loop(client, championships.check_waits)
        decisions = public(client, cid)["decisions"]
        assert [(d["kind"], d["by"], d["winner"]) for d in decisions] == [("walkover", "server", seated)]
        organiser, judge = bearer(made["organiser"]), bearer(made["judge"])

        reversed_ = client.post(
            f"/api/championships/{cid}/decisions/0/review",
            json={"reverse": True, "reason": "la pareja llegó a tiempo"},
            headers=organiser,
        )
        assert reversed_.status_code == 200, reversed_.text
        for _ in range(3):  # the server looks again and again: the reversal stands
            in_loop(client, championships.check_waits)
        described = public(client, cid)
        assert [d["kind"] for d in described["decisions"]] == ["walkover"]
        assert described["rounds"][0][0]["status"] == "running"
        board = client.get(f"/api/championships/{cid}/board", headers=judge).json()
        assert board["tables"][0]["alerts"] == ["walkover_due"]  # the judge is told, and decides

        # the judge may decide again; the committee reverses again; the server still gives nothing
        again = client.post(
            f"/api/championships/{cid}/partidas/{first['id']}/walkover",
            json={"winner": seated, "reason": "no llegaron"},
            headers=judge,
        )
        assert again.status_code == 200, again.text
        undone = client.post(
            f"/api/championships/{cid}/decisions/1/review",
            json={"reverse": True, "reason": "sí llegaron"},
            headers=organiser,
        )
        assert undone.status_code == 200, undone.text
        in_loop(client, championships.check_waits)
        described = public(client, cid)
        assert [(d["kind"], d["by"]) for d in described["decisions"]] == [
            ("walkover", "server"),
            ("walkover", "judge"),
        ]
        assert described["rounds"][0][0]["status"] == "running"


# -- sockets of version 1 (support.tables.Seat) and 2 (below) at a championship's table ----------------------
class Frames:
    """A version-2 socket (docs/protocol.md "Version 2"): joins or watches, and holds the version-1 state
    its frames add up to (support.wire.Reducer); ``frames`` keeps every frame it read."""

    def __init__(self, client: TestClient) -> None:
        self._cm: Any = client.websocket_connect("/ws")
        self.ws = self._cm.__enter__()
        self.reducer = Reducer()
        self.frames: list[dict[str, Any]] = []

    def __enter__(self) -> Frames:
        return self

    def __exit__(self, *_: object) -> None:
        self._cm.__exit__(None, None, None)

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send_json(message)

    def until(self, wanted: Any, limit: int = 400) -> dict[str, Any]:
        """Read frames until ``wanted(frame, state)``; the frame."""
        for _ in range(limit):
            frame = self.ws.receive_json()
            assert frame["v"] == 2
            self.frames.append(frame)
            self.reducer.apply(frame)
            if wanted(frame, self.reducer.state):
                return frame
        raise AssertionError(f"not received in {limit} frames; the last: {self.frames[-1]}")


def people_against_computers(client: TestClient) -> tuple[dict[str, str], str, list[dict[str, Any]]]:
    """A one-round championship: Ana and Beto (p1) against a computer pair, both sat (the table plays)."""
    made, (ases,) = people_championship(client, 1, rounds=1)
    cid = made["championship"]
    answer = client.post(
        f"/api/championships/{cid}/pairs",
        json={"name": "Reyes", "players": ["Ca", "Do"], "computer": "facil"},
        headers=bearer(made["organiser"]),
    )
    assert answer.status_code == 200, answer.text
    start(client, made)
    return made, ases, [sit(client, cid, ases, player) for player in (0, 1)]


def decide(client: TestClient, made: dict[str, str], decision: str, reason: str) -> dict[str, Any]:
    answer = client.post(
        f"/api/championships/{made['championship']}/partidas/r1t1/decisions",
        json={"decision": decision, "reason": reason},
        headers=bearer(made["judge"]),
    )
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def a_persons_turn(client: TestClient, room: str, seats: list[dict[str, Any]]) -> int:
    """Wait until Ana or Beto is to move (the computers move at once: bot_delay 0); which of the two."""
    table = client.app.state.rooms.table  # type: ignore[attr-defined]
    until(lambda: table(room).computer_to_move() is None)
    return [s["seat"] for s in seats].index(table(room).game.turn)


# -- item 4: a paused table says so, to everyone at it, and offers no move ---------------------------------
def test_a_paused_table_tells_every_seat_and_spectator_and_offers_no_move_until_resumed(
    tmp_path: Path, spy: Spy
) -> None:
    with app(tmp_path) as client:
        made, _, seats = people_against_computers(client)
        room = seats[0]["room"]
        with Seat(client, spy) as ana, Frames(client) as beto, Frames(client) as watcher:
            ana.join(room, seats[0]["token"])  # version 1
            beto.send({"v": 2, "type": "join", "room": room, "token": seats[1]["token"], "hints": True})
            beto.until(lambda f, s: f["type"] == "snapshot")
            watcher.send({"v": 2, "type": "watch", "room": room})
            watcher.until(lambda f, s: f["type"] == "snapshot")
            mover = a_persons_turn(client, room, seats)

            decide(client, made, "pause", "sonó un teléfono")
            told = {"paused": True, "pause_reason": "sonó un teléfono"}
            said = ana.until(lambda m: m["type"] == "state" and m["table"]["paused"])
            assert {k: said["table"][k] for k in told} == told and said["legal"] == said["hints"] == []
            for socket in (beto, watcher):
                socket.until(lambda f, s: bool(s.get("table", {}).get("paused")))
                state = socket.reducer.state
                assert {k: state["table"][k] for k in told} == told and state["legal"] == []
            assert beto.reducer.state["hints"] == []
            # a page that (re)joins the paused table learns it from its snapshot: no move offered
            with Frames(client) as again:
                token = seats[mover]["token"]
                again.send({"v": 2, "type": "join", "room": room, "token": token, "hints": True})
                snapshot = again.until(lambda f, s: f["type"] == "snapshot")
                assert snapshot["table"]["paused"] is True and snapshot["private"]["legal"] == []

            decide(client, made, "resume", "ya está")
            resumed = ana.until(lambda m: m["type"] == "state" and not m["table"]["paused"])
            assert resumed["table"]["pause_reason"] is None
            beto.until(lambda f, s: s.get("table", {}).get("paused") is False)
            watcher.until(lambda f, s: s.get("table", {}).get("paused") is False)
            offered = resumed["legal"] if mover == 0 else beto.reducer.state["legal"]
            assert offered  # the person whose turn it was may play again
        check_all(spy)


# -- item 1: a restart stops the old table at once, and says where the partida goes on ----------------------
def test_a_restart_stops_the_old_table_at_once_and_tells_its_people_and_spectators(
    tmp_path: Path, spy: Spy
) -> None:
    with app(tmp_path) as client:
        made, ases, seats = people_against_computers(client)
        cid = made["championship"]
        old_id = seats[0]["room"]
        rooms = client.app.state.rooms  # type: ignore[attr-defined]
        with (
            Seat(client, spy) as ana,
            Seat(client, spy) as fan,
            Frames(client) as beto,
            Frames(client) as watcher,
        ):
            ana.join(old_id, seats[0]["token"])  # version 1
            beto.send({"v": 2, "type": "join", "room": old_id, "token": seats[1]["token"], "hints": True})
            beto.until(lambda f, s: f["type"] == "snapshot")
            watcher.send({"v": 2, "type": "watch", "room": old_id})
            watcher.until(lambda f, s: f["type"] == "snapshot")
            fan.send({"v": 1, "type": "watch", "room": old_id})
            fan.until(lambda m: m["type"] == "state")
            mover = a_persons_turn(client, old_id, seats)

            new_id = decide(client, made, "restart", "se vio una carta")["room"]
            assert new_id not in (None, old_id)
            told = {"replaced": True, "championship": cid, "partida": "r1t1"}
            said = ana.until(lambda m: m["type"] == "state" and m["table"]["replaced"])
            assert {k: said["table"][k] for k in told} == told and said["legal"] == []
            assert fan.until(lambda m: m["type"] == "state" and m["table"]["replaced"])["legal"] == []
            for socket in (beto, watcher):
                socket.until(lambda f, s: bool(s.get("table", {}).get("replaced")))
                assert {k: socket.reducer.state["table"][k] for k in told} == told
                assert socket.reducer.state["legal"] == []

            # its moves are refused with a code of their own, and nothing of it changes any more
            old = rooms.table(old_id)
            before = (old.game.to_json(), old.state)
            last = ana.last if mover == 0 else None
            if last is not None:
                move = {"v": 1, "type": "move", "move": last["view"]["hand"][0], "state": old.state}
                assert ana.error(move)["code"] == "table_replaced"
            else:
                beto.send({"v": 2, "type": "move", "move": "Ah", "state": old.state})
                refused = beto.until(lambda f, s: f["type"] == "error")
                assert refused["code"] == "table_replaced"
            assert old.computer_to_move() is None and (old.game.to_json(), old.state) == before
            # the pair sits again: at the partida's new table
            assert sit(client, cid, ases, 0)["room"] == new_id
        check_all(spy)
    # a new process on the same data: the old table is still over
    with app(tmp_path) as client, Seat(client, spy) as ana:
        state = ana.join(old_id, seats[1]["token"])
        assert state["table"]["replaced"] is True and state["legal"] == []
        rooms = client.app.state.rooms  # type: ignore[attr-defined]
        assert rooms.table(old_id).computer_to_move() is None
        assert client.get(f"/api/championships/{cid}").json()["tables"]["r1t1"] == new_id
