"""``GET /api/puzzles`` and ``POST /api/puzzles/{id}/answer`` (docs/protocol.md "Puzzles"): a puzzle as its
seat sees it, never with its answer; a move tried is told right or wrong with the answer and the reasons;
bad requests refused clearly; the device host answers the same.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cuarenta.analysis.puzzles import shipped
from cuarenta.device.host import DeviceHost
from cuarenta.moves import parse_action
from support.app import running


def test_a_puzzle_is_sent_as_its_seat_sees_it_and_answered_once_tried(tmp_path: Path) -> None:
    puzzles = shipped()
    with running(tmp_path / "data", workers=0) as client:
        first = client.get("/api/puzzles").json()
        assert first["id"] == puzzles[0].id and first["index"] == 0 and first["count"] == len(puzzles)
        assert "answer" not in json.dumps(first) and "values" not in first
        game = puzzles[0].game()
        assert first["seat"] == game.turn and first["hand"] == [str(c) for c in game.hand(game.turn)]
        assert sorted(first["unseen"]) == sorted(
            str(c) for c in game.hand(1 - game.turn)
        )  # counted, not told
        assert [m["move"] for m in first["moves"]] == [str(a) for a in game.legal_moves()]
        assert [p["move"] for p in first["plays"]] == [str(a) for a in game.actions]
        second = client.get("/api/puzzles", params={"after": first["id"]}).json()
        assert second["id"] == puzzles[1].id
        last = client.get("/api/puzzles", params={"after": puzzles[-1].id}).json()
        assert last["id"] == puzzles[0].id  # after the last, the first again
        hard = client.get("/api/puzzles", params={"rating": 1800}).json()
        assert hard["rating"] == 1800
        # a move tried: right (any suit of the answer's ranks) or wrong, with the answer and its reasons
        right = client.post(
            f"/api/puzzles/{first['id']}/answer", json={"move": str(puzzles[0].answer)}
        ).json()
        assert right == {
            "right": True,
            "answer": str(puzzles[0].answer),
            "values": [[str(a), round(v, 4)] for a, v in puzzles[0].values],
            "reasons": list(puzzles[0].reasons),
        }
        wrong_move = next(m["move"] for m in first["moves"] if not puzzles[0].solves(parse_action(m["move"])))
        wrong = client.post(f"/api/puzzles/{first['id']}/answer", json={"move": wrong_move}).json()
        assert wrong["right"] is False and wrong["answer"] == str(puzzles[0].answer)
        # refused clearly
        refusals: list[tuple[Any, int, str]] = [
            (client.get("/api/puzzles", params={"after": "nope"}), 404, "unknown_puzzle"),
            (client.get("/api/puzzles", params={"rating": -5}), 400, ""),
            (client.post("/api/puzzles/nope/answer", json={"move": "7h"}), 404, "unknown_puzzle"),
            (client.post(f"/api/puzzles/{first['id']}/answer", json={"move": "9z"}), 400, "bad_answer"),
            (client.post(f"/api/puzzles/{first['id']}/answer", json={"card": "7h"}), 400, ""),
        ]
        hand = set(first["hand"])
        outside = next(c for c in ("Ah", "2h", "3h", "4h", "5h", "6h", "7h") if c not in hand)
        refusals.append(
            (client.post(f"/api/puzzles/{first['id']}/answer", json={"move": outside}), 400, "bad_answer")
        )
        for response, status, code in refusals:
            assert response.status_code == status, response.text
            body = response.json()
            assert body["detail"] and (not code or body["code"] == code)


def test_the_device_answers_the_puzzles_as_the_server_does(tmp_path: Path) -> None:
    host = DeviceHost()
    asks = [("GET", "api/puzzles", None), ("GET", "api/puzzles?rating=1500", None)]
    first = shipped()[0]
    with running(tmp_path / "data", workers=0) as client:
        for method, path, _ in asks:
            device = json.loads(host.http(method, path, None, None))
            assert device["status"] == 200 and device["body"] == client.get("/" + path).json()
        body = {"move": str(first.answer)}
        device = json.loads(host.http("POST", f"api/puzzles/{first.id}/answer", json.dumps(body), None))
        assert device["body"] == client.post(f"/api/puzzles/{first.id}/answer", json=body).json()
        refused = json.loads(host.http("GET", "api/puzzles?after=nope", None, None))
        assert refused["status"] == 404 and refused["body"]["code"] == "unknown_puzzle"
