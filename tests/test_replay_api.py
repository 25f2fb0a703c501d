"""``GET /api/games/{room}/replay`` (docs/protocol.md "Replay"): a finished mesa step by step for the page,
the same on the server and on the device; refused while the mesa is in play, for a wrong token or room.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from cuarenta import Game, GameRecord, Rules
from cuarenta.replay import Replay
from cuarenta.server.answers import replay_frames
from support.app import bearer, new_room, play_to_the_end, running
from support.device import device_page, finished

BODY = {"players": 2, "level": "normal", "practice": True, "seed": 20261205, "rules": {"preset": "basico"}}


def check_steps(answer: dict[str, Any], record: GameRecord) -> None:
    """Every step is the record's table at that ply, and its events are the mesa's up to then."""
    replay = Replay(record)
    assert answer["actions"] == [str(a) for a in record.actions]
    assert len(answer["steps"]) == replay.last + 1
    for step in answer["steps"]:
        game = replay.goto(step["ply"]).game
        state = game.state_summary()
        assert step["hands"] == state["hands"] and step["table"] == state["table"]
        assert step["scores"] == state["scores"] and step["last_drop"] == state["last_drop"]
        assert (step["hand"], step["deal"], step["turn"]) == (game.hand_number, game.deal_number, game.turn)
        assert step["events"] == len(game.events)
        assert [e["kind"] for e in answer["events"][: step["events"]]] == [e.kind for e in game.events]
    assert answer["steps"][-1]["events"] == len(answer["events"])


def test_a_finished_mesa_is_replayed_and_one_in_play_is_refused(tmp_path: Path) -> None:
    with running(tmp_path / "data", workers=0) as client:
        made = new_room(client, **BODY)
        url, auth = f"/api/games/{made['room']}/replay", bearer(made["token"])
        in_play = client.get(url, headers=auth)
        assert in_play.status_code == 409 and in_play.json()["code"] == "mesa_in_play"
        assert client.get(url).status_code == 401
        assert client.get(url, headers=bearer("x" * 32)).status_code == 403
        assert client.get("/api/games/nothere/replay", headers=auth).status_code == 404
        play_to_the_end(client, made)
        answer = client.get(url, headers=auth)
        assert answer.status_code == 200, answer.text
        data = answer.json()
        record = GameRecord.from_text(client.get(f"/api/games/{made['room']}/record", headers=auth).text)
        assert (data["room"], data["mesa"], data["seat"], data["players"]) == (made["room"], 1, 0, 2)
        assert data["outcome"] == record.replay().outcome.to_dict()  # type: ignore[union-attr]
        check_steps(data, record)
        assert client.get(url + "?mesa=2", headers=auth).status_code == 404
        assert client.get(url + "?mesa=0", headers=auth).status_code == 400


def test_the_device_replays_as_the_server_does() -> None:
    async def play() -> tuple[dict[str, Any], str]:
        host, page = device_page()
        made = page.new_room(BODY)
        page.join(made["room"], made["token"])
        refused = page.http("GET", f"api/games/{made['room']}/replay", token=made["token"])
        assert refused["status"] == 409
        await page.play_until(finished)
        answer = page.http("GET", f"api/games/{made['room']}/replay?mesa=1", token=made["token"])
        record = page.http("GET", f"api/games/{made['room']}/record?mesa=1", token=made["token"])
        await host.shutdown()
        assert answer["status"] == 200
        return answer["body"], str(record["text"])

    data, text = asyncio.run(play())
    record = GameRecord.from_text(text)
    check_steps(data, record)
    assert {k: v for k, v in data.items() if k not in ("room", "names")} == {
        "mesa": 1,
        "seat": 0,
        **replay_frames(record),
    }


def test_a_record_the_person_holds_is_replayed_and_a_bad_one_refused(tmp_path: Path) -> None:
    """``POST /api/replay``: a finished mesa's record text (a file dropped on the page) step by step, as a
    room's replay gives it; a record of a mesa in play is refused (every card is shown only once it is over),
    and text that is not a record says why. The device's host answers the same."""
    game = Game.new(Rules.preset("basico"), seed=9)
    while not game.is_over:
        game.play(game.legal_moves()[-1])
    record = GameRecord.from_game(game, seats=("Ana", None))
    text = record.to_text()
    running_game = Game.new(Rules.preset("basico"), seed=9)
    for _ in range(7):
        running_game.play(running_game.legal_moves()[0])
    unfinished = GameRecord.from_game(running_game).to_text()
    with running(tmp_path / "data", workers=0) as client:
        answer = client.post("/api/replay", json={"record": text})
        assert answer.status_code == 200, answer.text
        data = answer.json()
        assert data["names"] == ["Ana", None] and data["room"] is None
        check_steps(data, record)
        assert {k: v for k, v in data.items() if k not in ("room", "mesa", "seat", "names")} == replay_frames(
            record
        )
        in_play = client.post("/api/replay", json={"record": unfinished})
        assert in_play.status_code == 409 and in_play.json()["code"] == "mesa_in_play"
        broken = client.post("/api/replay", json={"record": text.replace(str(record.actions[5]), "Zz", 1)})
        assert broken.status_code == 400 and broken.json()["code"] == "bad_record"
        assert "not a record this game can replay" in broken.json()["detail"]
        assert client.post("/api/replay", json={"record": ""}).status_code == 400
        assert client.post("/api/replay", json={"text": text}).status_code == 400

    async def on_the_device() -> list[dict[str, Any]]:
        host, page = device_page()
        answers = [page.http("POST", "api/replay", body={"record": t}) for t in (text, unfinished, "x")]
        await host.shutdown()
        return answers

    device = asyncio.run(on_the_device())
    assert [a["status"] for a in device] == [200, 409, 400]
    assert device[0]["body"] == data
