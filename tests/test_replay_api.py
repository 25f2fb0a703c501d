"""``GET /api/games/{room}/replay`` (docs/protocol.md "Replay"): a finished mesa step by step for the page,
the same on the server and on the device; refused while the mesa is in play, for a wrong token or room.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from cuarenta import GameRecord
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
