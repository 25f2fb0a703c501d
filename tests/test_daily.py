"""The deal of the day (docs/daily.md, docs/protocol.md "The deal of the day"): everyone who plays it gets
the same cards, hand after hand, against the same computer player; the day's seed never reaches a player
while the day lasts (not in an answer, a frame, or a record); the ranking compares each result with every
other of the day; the device, without a server, refuses it.
"""

from __future__ import annotations

import asyncio
import datetime
import json
from pathlib import Path

import pytest

from cuarenta import Game
from cuarenta.daily import DAILY_LEVEL, daily_rules, daily_seed, day_of, result, standing, today
from cuarenta.record import GameRecord
from cuarenta.server.answers import history
from support.app import bearer, play_to_the_end, running, server_room
from support.device import device_page


# -- the day's definition ----------------------------------------------------------------------------------
def test_every_hand_is_dealt_alike_whatever_was_played_before() -> None:
    """Two games of the day's seed played differently meet the same cards at the start of each hand."""
    seed = daily_seed(b"k" * 32, datetime.date(2026, 12, 5))
    hands: list[list[tuple[tuple[str, ...], ...]]] = []
    for pick in (0, -1):
        game = Game.new(daily_rules(), seed)
        starts, hand = [], -1
        while not game.is_over:
            if game.hand_number != hand and game.deal_number == 0 and not game.table:
                hand = game.hand_number
                starts.append(tuple(tuple(str(c) for c in game.hand(s)) for s in range(2)))
            game.play(game.legal_moves()[pick])
        hands.append(starts)
    shared = min(len(h) for h in hands)
    assert shared >= 2 and hands[0][:shared] == hands[1][:shared]


def test_a_day_s_seed_is_the_secret_s_and_the_day_s() -> None:
    day = datetime.date(2026, 12, 5)
    seed = daily_seed(b"a" * 32, day)
    assert day_of(seed) == day and day_of(12345) is None and day_of("dia/nope") is None
    assert seed != daily_seed(b"b" * 32, day) and seed != daily_seed(b"a" * 32, day + datetime.timedelta(1))
    assert "a" * 8 not in seed  # the key itself is not in it


def test_the_standing_counts_what_a_result_beats() -> None:
    assert standing(10, [10]) == (1, 1.0)
    assert standing(10, [10, 3, 3]) == (1, 1.0)
    assert standing(3, [10, 3, 3]) == (2, 0.25)  # beats nobody, ties one: a half of two
    assert standing(-5, [10, 3, -5]) == (3, 0.0)
    game = Game.new(daily_rules(), 1)
    with pytest.raises(ValueError, match="not over"):
        result(game)


# -- the server ---------------------------------------------------------------------------------------------
def test_two_people_play_the_same_deals_and_are_ranked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with running(tmp_path / "data", workers=0) as client:
        made = [client.post("/api/daily", json={"name": name}).json() for name in ("Ana", "Beto")]
        assert all(m["day"] == today().isoformat() and m["seat"] == 0 for m in made)
        rooms = [server_room(client, m["room"]) for m in made]
        assert rooms[0].game.hand(0) == rooms[1].game.hand(0) and rooms[0].game.seed == rooms[1].game.seed
        assert rooms[0].rules == daily_rules() and rooms[0].level == DAILY_LEVEL and not rooms[0].practice
        secret, dealt = str(rooms[0].seed), str(rooms[0].game.seed)  # the room's seed, and its mesa's
        assert day_of(secret) == today() and all(secret not in json.dumps(m) for m in made)
        before = client.get("/api/daily", params={"room": made[0]["room"]}).json()
        assert before["count"] == 0 and before["mine"] is None and before["today"] is True
        frames = play_to_the_end(client, made[0], pick=0) + play_to_the_end(client, made[1], pick=-1)
        assert not any(secret in json.dumps(f) or dealt in json.dumps(f) for f in frames)
        results = [result(server_room(client, m["room"]).game) for m in made]
        ranking = client.get("/api/daily", params={"room": made[1]["room"]}).json()
        assert ranking["count"] == 2 and ranking["level"] == DAILY_LEVEL
        assert [e["result"] for e in ranking["ranking"]] == sorted(results, reverse=True)
        assert {e["name"] for e in ranking["ranking"]} == {"Ana", "Beto"}
        mine = ranking["mine"]
        assert mine["name"] == "Beto" and mine["result"] == results[1] and mine["you"] is True
        assert mine["place"] == standing(results[1], results)[0]
        assert mine["beats"] == round(standing(results[1], results)[1], 4)
        assert "room" not in json.dumps(ranking["ranking"]) and secret not in json.dumps(ranking)
        # the record shows the seed: only once the day is over; the replay and the analysis at once
        auth = bearer(made[0]["token"])
        refused = client.get(f"/api/games/{made[0]['room']}/record", headers=auth)
        assert refused.status_code == 409 and refused.json()["code"] == "daily_today"
        replay = client.get(f"/api/games/{made[0]['room']}/replay", headers=auth)
        assert replay.status_code == 200 and secret not in replay.text and dealt not in replay.text
        tomorrow = today() + datetime.timedelta(days=1)
        monkeypatch.setattr(history, "today", lambda: tomorrow)
        record = client.get(f"/api/games/{made[0]['room']}/record", headers=auth)
        assert record.status_code == 200 and str(GameRecord.from_text(record.text).seed) == dealt
        # days that have no deal, and days that are not days
        assert client.get("/api/daily", params={"day": "2020-01-01"}).json()["code"] == "unknown_day"
        assert client.get("/api/daily", params={"day": "2026-13-45"}).status_code == 400
        assert client.post("/api/daily", json={"name": "x", "seed": 3}).status_code == 400


def test_the_device_has_no_deal_of_the_day() -> None:
    async def ask() -> dict[str, object]:
        host, page = device_page()
        answer = page.http("GET", "api/daily")
        await host.shutdown()
        return answer

    answer = asyncio.run(ask())
    assert answer["status"] == 404 and "need a server" in json.dumps(answer["body"])
