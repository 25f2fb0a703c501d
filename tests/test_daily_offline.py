"""The deal of the day played offline (docs/daily.md "Offline"): a server hands out the offline deals of the
coming week (another seed than the online deal's, which stays secret), and keeps a result sent later only
once its record replays as a finished offline deal of that server and day; the offline results are ranked
among themselves, apart from the online ranking; the same record sent twice is one result.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cuarenta import Game
from cuarenta.daily import (
    DAILY_LEVEL,
    daily_rules,
    daily_seed,
    day_of,
    is_offline,
    offline_seed,
    result,
    today,
)
from cuarenta.record import GameRecord
from cuarenta.seeds import mesa_seed
from support.app import running


def secret_of(client: TestClient) -> bytes:
    return client.app.state.store.daily_secret()  # type: ignore[attr-defined,no-any-return]


def played(
    seed: str, *, pick: int = 0, seats: tuple[str, str] = ("Ana", f"bot:{DAILY_LEVEL}"), **rules: Any
) -> str:
    """The record text of a chica of ``seed`` played to its end (each side the ``pick``-th legal move), dealt
    as a room's first mesa is (the device's, the terminal's)."""
    game = Game.new(dataclasses.replace(daily_rules(), **rules), mesa_seed(seed, 1))
    while not game.is_over:
        game.play(game.legal_moves()[pick])
    return GameRecord.from_game(game, seats=seats).to_text()


def test_offline_seeds_are_their_own_and_say_their_day() -> None:
    day = datetime.date(2026, 12, 5)
    seed = offline_seed(b"a" * 32, day)
    assert is_offline(seed) and day_of(seed) == day and not is_offline(daily_seed(b"a" * 32, day))
    assert seed != offline_seed(b"b" * 32, day) != offline_seed(b"a" * 32, day + datetime.timedelta(1))
    assert not is_offline(12345) and not is_offline("dia/2026-12-05") and not is_offline("dia/x/sin/y")
    online = daily_seed(b"a" * 32, day).rsplit("/", 1)[1]
    assert online not in seed  # the online deal's hash is nowhere in the offline seed


def test_a_week_of_offline_deals_and_never_the_online_seed(tmp_path: Path) -> None:
    with running(tmp_path / "data", workers=0) as client:
        answer = client.get("/api/daily/offline")
        assert answer.status_code == 200, answer.text
        body = answer.json()
        days = [datetime.date.fromisoformat(d["day"]) for d in body["days"]]
        assert days == [today() + datetime.timedelta(days=n) for n in range(7)]
        secret = secret_of(client)
        assert [d["seed"] for d in body["days"]] == [offline_seed(secret, d) for d in days]
        assert body["level"] == DAILY_LEVEL and body["rules"] == daily_rules().to_dict()
        online = [daily_seed(secret, d) for d in days]
        assert not any(seed in answer.text or seed.rsplit("/", 1)[1] in answer.text for seed in online)
        assert client.get("/api/daily/offline").json() == body  # the same for everyone who asks


def test_a_result_sent_later_is_checked_kept_once_and_ranked_apart(tmp_path: Path) -> None:
    with running(tmp_path / "data", workers=0) as client:
        seed = offline_seed(secret_of(client), today())
        texts = [played(seed, pick=0), played(seed, pick=-1, seats=("Beto", f"bot:{DAILY_LEVEL}"))]
        results = [result(GameRecord.from_text(t).replay()) for t in texts]
        sent = client.post("/api/daily/offline", json={"record": texts[0]})
        assert sent.status_code == 200, sent.text
        first = sent.json()
        assert first["new"] is True and first["day"] == today().isoformat() and first["result"] == results[0]
        assert (first["place"], first["beats"], first["count"]) == (1, 1.0, 1)
        again = client.post("/api/daily/offline", json={"record": texts[0]}).json()
        assert again == {**first, "new": False}  # a retry after a lost answer: the same entry, not two
        second = client.post("/api/daily/offline", json={"record": texts[1], "name": "Bea"}).json()
        assert second["new"] is True and second["count"] == 2 and second["entry"] != first["entry"]
        ranking = client.get("/api/daily", params={"offline": "true", "entry": first["entry"]}).json()
        assert ranking["offline"] is True and ranking["count"] == 2
        assert [e["result"] for e in ranking["ranking"]] == sorted(results, reverse=True)
        assert {e["name"] for e in ranking["ranking"]} == {"Ana", "Bea"}  # a name given replaces the record's
        assert ranking["mine"]["you"] is True and ranking["mine"]["result"] == results[0]
        assert first["entry"] not in json.dumps(ranking["ranking"])  # no entry's id is listed
        online = client.get("/api/daily").json()
        assert online["offline"] is False and online["count"] == 0  # the online ranking is another


@pytest.mark.parametrize(
    ("change", "status", "code"),
    [
        ("not a record", 400, "bad_record"),
        ("online seed", 400, "not_offline_daily"),
        ("another server", 400, "not_offline_daily"),
        ("other rules", 400, "not_offline_daily"),
        ("computer first", 400, "not_offline_daily"),
        ("another level", 400, "not_offline_daily"),
        ("not over", 400, "not_offline_daily"),
        ("tomorrow", 409, "not_yet"),
        ("the seed itself", 400, "not_offline_daily"),  # a chica is dealt from the mesa seed of the day's
    ],
)
def test_what_is_not_a_finished_offline_deal_is_refused_and_kept_nowhere(
    tmp_path: Path, change: str, status: int, code: str
) -> None:
    with running(tmp_path / "data", workers=0) as client:
        secret, day = secret_of(client), today()
        seed = offline_seed(secret, day)
        bot = f"bot:{DAILY_LEVEL}"
        text = {
            "not a record": lambda: "[Event nada]\n1. ?",
            "online seed": lambda: played(daily_seed(secret, day)),
            "another server": lambda: played(offline_seed(b"z" * 32, day)),
            "other rules": lambda: played(seed, target=30),
            "computer first": lambda: played(seed, seats=(bot, "Ana")),
            "another level": lambda: played(seed, seats=("Ana", "bot:normal")),
            "not over": lambda: _unfinished(seed),
            "tomorrow": lambda: played(offline_seed(secret, day + datetime.timedelta(1))),
            "the seed itself": lambda: _dealt_from(seed),
        }[change]()
        refused = client.post("/api/daily/offline", json={"record": text})
        assert refused.status_code == status, refused.text
        assert refused.json()["code"] == code and refused.json()["detail"]
        assert client.get("/api/daily", params={"offline": "true"}).json()["count"] == 0


def _unfinished(seed: str) -> str:
    game = Game.new(daily_rules(), mesa_seed(seed, 1))
    for _ in range(6):
        game.play(game.legal_moves()[0])
    return GameRecord.from_game(game, seats=("Ana", f"bot:{DAILY_LEVEL}")).to_text()


def _dealt_from(seed: str) -> str:
    game = Game.new(daily_rules(), seed)
    while not game.is_over:
        game.play(game.legal_moves()[0])
    return GameRecord.from_game(game, seats=("Ana", f"bot:{DAILY_LEVEL}")).to_text()


def test_a_device_rooms_record_of_the_offline_deal_is_taken(tmp_path: Path) -> None:
    """The device plays the offline deal in a room of its host (``POST api/daily``), dealt as every room's
    first mesa is: its record names that chica's seed, from which the server finds the day. Another server's
    offline deal is refused."""
    import asyncio

    from support.device import device_page, finished

    async def device_record(seed: str) -> str:
        host, page = device_page()
        made = page.http("POST", "api/daily", {"seed": seed, "name": "Ana"})["body"]
        page.join(made["room"], made["token"])
        await page.play_until(finished)
        text: str = page.http("GET", f"api/games/{made['room']}/record", token=made["token"])["text"]
        await host.shutdown()
        return text

    with running(tmp_path / "data", workers=0) as client:
        seed = offline_seed(secret_of(client), today())
        text = asyncio.run(device_record(seed))
        assert GameRecord.from_text(text).seed == mesa_seed(seed, 1)  # the terminal deals the same chica
        sent = client.post("/api/daily/offline", json={"record": text})
        assert sent.status_code == 200, sent.text
        mine = result(GameRecord.from_text(text).replay())
        assert sent.json()["day"] == today().isoformat() and sent.json()["result"] == mine
        other = asyncio.run(device_record(offline_seed(b"x" * 32, today())))
        refused = client.post("/api/daily/offline", json={"record": other})
        assert refused.status_code == 400 and refused.json()["code"] == "not_offline_daily"
