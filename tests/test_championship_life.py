"""A championship table's life (issue 25 items 1, 2, 4; docs/championships.md): a walkover the committee
reversed is not given again by the server, a paused table says so to everyone at it (and offers no
move), and a table replaced by the judge's restart stops at once, its people and spectators told where
the partida goes on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from support.champ_server import app, bearer, in_loop, people_championship, start


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
