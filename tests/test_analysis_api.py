"""``GET /api/games/{room}/analysis`` (docs/protocol.md "Analysis"): the computer's analysis of a seat's
moves in a finished mesa, thought in the worker processes (never on the event loop), the same on the
server, on the device and in the terminal for the same record; refused while the mesa is in play, for a
wrong token, room or seat; a question a worker cannot answer fails the analysis, which is asked anew.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cuarenta import Game, GameRecord, Rules
from cuarenta.analysis import analyze, questions
from cuarenta.server.thinking import InProcessThinking, ThinkingError, ThinkRequest, WorkerPool
from cuarenta.server.thinking.analyses import Analyses
from cuarenta.server.thinking.request import value
from support.app import bearer, new_room, play_to_the_end, running
from support.device import device_page, finished

BODY = {"players": 2, "level": "facil", "practice": True, "seed": 20261206, "rules": {"preset": "basico"}}


def expected(record: GameRecord, seat: int) -> list[dict[str, Any]]:
    """The terminal's analysis of the record (``cuarenta analyze RECORD --seat N --json``: seed 0)."""
    return analyze(record, seat).to_dict()["decisions"]


def same_decisions(answer: dict[str, Any], record: GameRecord, seat: int) -> None:
    assert answer["status"] == "done" and answer["done"] == answer["total"]
    shown = answer["review"]["decisions"]
    for decision in shown:
        assert decision.pop("played_info")["move"] == decision["played"]
        assert decision.pop("best_info")["move"] == decision["best"]
    assert shown == expected(record, seat)


def poll(client: TestClient, url: str, auth: dict[str, str]) -> dict[str, Any]:
    """Ask until the analysis is done (or failed). A liveness bound of four minutes (alone it takes under a
    minute; a loaded 2-core machine running other suites beside it once took more than two)."""
    limit = time.monotonic() + 240
    while True:
        answer = client.get(url, headers=auth)
        assert answer.status_code == 200, answer.text
        data: dict[str, Any] = answer.json()
        assert 0 <= data["done"] <= data["total"]
        if data["status"] != "running":
            return data
        assert time.monotonic() < limit, f"still running after 240 s: {data['done']} of {data['total']} turns"
        time.sleep(0.2)


@pytest.mark.slow
def test_the_server_analyses_a_finished_mesa_in_its_workers(tmp_path: Path) -> None:
    with running(tmp_path / "data", workers=2) as client:
        made = new_room(client, **BODY)
        url, auth = f"/api/games/{made['room']}/analysis", bearer(made["token"])
        in_play = client.get(url, headers=auth)
        assert in_play.status_code == 409 and in_play.json()["code"] == "mesa_in_play"
        assert client.get(url).status_code == 401
        assert client.get(url, headers=bearer("x" * 32)).status_code == 403
        assert client.get("/api/games/nothere/analysis", headers=auth).status_code == 404
        play_to_the_end(client, made)
        pids = set(client.app.state.rooms.thinking.pids())  # type: ignore[attr-defined]
        first = client.get(url, headers=auth).json()
        assert (
            first["status"] == "running" and first["total"] > 0 and (first["seat"], first["mesa"]) == (0, 1)
        )
        data = poll(client, url, auth)
        record = GameRecord.from_text(client.get(f"/api/games/{made['room']}/record", headers=auth).text)
        same_decisions(data, record, 0)
        # the rival's moves too (thought as seat 0's were); a seat the mesa does not have is refused
        rival = client.get(url + "?seat=1", headers=auth).json()
        assert rival["status"] == "running" and rival["seat"] == 1 and rival["total"] > 0
        wrong = client.get(url + "?seat=2", headers=auth)
        assert wrong.status_code == 400 and wrong.json()["code"] == "bad_seat"
        assert client.get(url + "?seat=9", headers=auth).status_code == 400
        assert client.get(url + "?mesa=2", headers=auth).status_code == 404
        # it was thought in the worker processes, which are still the same ones
        assert pids and set(client.app.state.rooms.thinking.pids()) == pids  # type: ignore[attr-defined]


@pytest.mark.slow
def test_the_device_analyses_as_the_terminal_does() -> None:
    async def play() -> tuple[list[dict[str, Any]], str]:
        host, page = device_page()
        made = page.new_room(BODY)
        page.join(made["room"], made["token"])
        path = f"api/games/{made['room']}/analysis"
        assert page.http("GET", path, token=made["token"])["status"] == 409
        await page.play_until(finished)
        seen = []
        for _ in range(10_000):
            answer = page.http("GET", path + "?seat=1", token=made["token"])
            assert answer["status"] == 200, answer
            seen.append(answer["body"])
            if answer["body"]["status"] != "running":
                break
            await asyncio.sleep(0.01)  # the page asks again; the host thinks in between
        for bad in ("x", "9" * 5000):  # (int() refuses 4,300 digits: a refusal, not a crash)
            wrong = page.http("GET", f"{path}?seat={bad}", token=made["token"])
            assert wrong["status"] == 400 and "from 0 to 3" in str(wrong["body"]), wrong
        record = page.http("GET", f"api/games/{made['room']}/record", token=made["token"])
        await host.shutdown()
        return seen, str(record["text"])

    seen, text = asyncio.run(play())
    record = GameRecord.from_text(text)
    assert [s["done"] for s in seen] == sorted(s["done"] for s in seen) and len(seen) > 2
    same_decisions(seen[-1], record, 1)


def finished_record(seed: int, plies: int) -> str:
    game = Game.new(Rules.preset("basico"), seed=seed)
    while len(game.actions) < plies:
        game.play(game.legal_moves()[-1])
    return GameRecord.from_game(game).to_text()


def test_a_worker_values_a_question_as_this_process_does() -> None:
    """The pool's worker processes answer a question's values, with no deadline, as :func:`value` does
    here; the request carries the seat's view only."""
    text = finished_record(5, 12)
    asked, _ = questions(GameRecord.from_text(text), 0)
    requests = [ThinkRequest.for_question(q, room="r", mesa=1, seed=0) for q in asked[:3]]

    async def ask() -> list[list[float]]:
        pool = WorkerPool(1)
        try:
            return [await pool.values(r) for r in requests]
        finally:
            await pool.close()

    assert ask and asyncio.run(ask()) == [value(r) for r in requests]
    assert all("hands" not in r.view and r.roots for r in requests)
    with pytest.raises(ValueError, match="not a legal action"):
        value(ThinkRequest(**{**requests[0].__dict__, "roots": ("Kh",)}))


class FailingThinking(InProcessThinking):
    """Thinking whose first ``fail`` questions fail, as a worker that keeps dying does."""

    def __init__(self, fail: int) -> None:
        super().__init__()
        self.fail = fail

    async def values(self, request: ThinkRequest) -> list[float]:
        if self.fail > 0:
            self.fail -= 1
            raise ThinkingError("the worker died")
        return await super().values(request)


def test_a_failed_analysis_says_so_once_and_is_asked_anew() -> None:
    text = finished_record(9, 10)

    async def run() -> list[str]:
        analyses = Analyses(FailingThinking(fail=1))
        said = [analyses.ask("r", 1, 0, text).status]
        while (now := analyses.ask("r", 1, 0, text)).status == "running":
            await asyncio.sleep(0.01)
        said += [now.status, analyses.ask("r", 1, 0, text).status]
        while (now := analyses.ask("r", 1, 0, text)).status == "running":
            await asyncio.sleep(0.01)
        said.append(now.status)
        await analyses.close()
        return said

    assert asyncio.run(run()) == ["running", "failed", "running", "done"]


class CountingThinking(InProcessThinking):
    """Thinking that counts the questions in its hands at once (each takes a moment, as a worker's does)."""

    def __init__(self) -> None:
        super().__init__()
        self.now = 0
        self.most = 0

    async def values(self, request: ThinkRequest) -> list[float]:
        self.now += 1
        self.most = max(self.most, self.now)
        try:
            await asyncio.sleep(0.01)
            return await super().values(request)
        finally:
            self.now -= 1


def test_many_analyses_at_once_keep_at_most_one_question_a_worker() -> None:
    """Three people ask at once: the questions in the workers' hands never exceed the analyses' parallel
    (one per worker), so the computer moves never wait behind more; every analysis still ends."""
    texts = [finished_record(seed, 12) for seed in (3, 4, 5)]

    async def run() -> tuple[int, list[str]]:
        thinking = CountingThinking()
        analyses = Analyses(thinking, parallel=2)
        for i, text in enumerate(texts):
            analyses.ask(f"r{i}", 1, 0, text)
        while analyses.running():
            await asyncio.sleep(0.01)
        statuses = [analyses.ask(f"r{i}", 1, 0, text).status for i, text in enumerate(texts)]
        await analyses.close()
        return thinking.most, statuses

    most, statuses = asyncio.run(run())
    assert most == 2 and statuses == ["done", "done", "done"]
