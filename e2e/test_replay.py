"""The replay of a finished mesa in the page (issue 29, docs/web.md "Replay"), at 1280×800 and 360×740:
from History, step by step with the buttons and the keyboard, to a deal, one seat's hand or every hand;
each step shows the record's table and hands at that ply (checked against ``cuarenta.replay``).
"""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

from harness import PageLog, Server, play_over_socket
from playwright.sync_api import Page, expect

from cuarenta import Game, GameRecord, Rules, catalogue
from cuarenta.analysis import Review, analyze
from cuarenta.replay import Replay

#: What History says of a file longer than a record can be.
TOO_BIG = catalogue.text("page.replay.too_big", "es")
ROOM = {"players": 2, "level": "facil", "practice": True, "seed": 4, "rules": {"preset": "basico"}}


def finished_mesa(server: Server) -> tuple[dict[str, Any], GameRecord]:
    """A practice room played to its end over the real server's socket (the first legal move each turn),
    and its record."""
    request = urllib.request.Request(
        server.url + "api/rooms", data=json.dumps(ROOM).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        made = json.loads(answer.read())
    play_over_socket(server, made["room"], made["token"])
    get = urllib.request.Request(
        server.url + f"api/games/{made['room']}/record", headers={"Authorization": f"Bearer {made['token']}"}
    )
    with urllib.request.urlopen(get, timeout=30) as answer:
        return made, GameRecord.from_text(answer.read().decode())


def shown_cards(page: Page, testid: str) -> list[str]:
    return (
        page.get_by_test_id(testid).locator("[data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
    )


def check_step(page: Page, replay: Replay, ply: int, seats: list[int]) -> None:
    """The page shows ply ``ply`` as the record has it: where, the table, the hands of ``seats``."""
    expect(page.get_by_test_id("replay-where")).to_have_attribute("data-ply", str(ply))
    game = replay.goto(ply).game
    assert shown_cards(page, "replay-table") == [str(c) for c in game.table]
    for seat in seats:
        assert shown_cards(page, f"replay-hand-{seat}") == [str(c) for c in game.hand(seat)]
    before = len(replay.goto(ply - 1).game.events) if ply else 0
    assert page.get_by_test_id("replay-events").locator("li").count() == len(game.events) - before


def test_a_finished_mesa_is_replayed_from_history(sized: tuple[Page, PageLog], server: Server) -> None:
    made, record = finished_mesa(server)
    replay = Replay(record)
    page, log = sized
    page.goto(server.url)
    expect(page.get_by_test_id("start")).to_be_enabled()
    games = [{"room": made["room"], "token": made["token"], "seat": 0, "players": 2, "level": "facil"}]
    page.evaluate("g => localStorage.setItem('cuarenta.games', JSON.stringify(g))", games)
    page.get_by_test_id("nav-history").click()
    page.get_by_test_id("history-replay").click()
    expect(page.get_by_test_id("replay")).to_be_visible()
    expect(page.get_by_test_id("replay-where")).to_contain_text(f"Jugada 0 de {replay.last}")
    check_step(page, replay, 0, [0])
    expect(page.get_by_test_id("replay-hand-1")).to_have_count(0)  # one seat's hand unless asked
    # the buttons (a tap on a phone)
    for ply in (1, 2, 3):
        page.get_by_test_id("replay-next").click()
        check_step(page, replay, ply, [0])
    page.get_by_test_id("replay-prev").click()
    check_step(page, replay, 2, [0])
    # the keyboard
    page.keyboard.press("End")
    check_step(page, replay, replay.last, [0])
    expect(page.get_by_test_id("replay-next")).to_be_disabled()
    page.keyboard.press("ArrowLeft")
    check_step(page, replay, replay.last - 1, [0])
    page.keyboard.press("Home")
    check_step(page, replay, 0, [0])
    expect(page.get_by_test_id("replay-prev")).to_be_disabled()
    # a deal, every hand, another seat
    third = replay.marks[2]
    page.get_by_test_id("replay-deal").select_option(str(third.ply))
    check_step(page, replay, third.ply, [0])
    expect(page.get_by_test_id("replay-where")).to_contain_text(
        f"mano {third.hand + 1}, reparto {third.deal + 1}"
    )
    page.get_by_test_id("replay-open").check()
    check_step(page, replay, third.ply, [0, 1])
    page.get_by_test_id("replay-open").uncheck()
    page.get_by_test_id("replay-seat").select_option("1")
    check_step(page, replay, third.ply, [1])
    expect(page.get_by_test_id("replay-hand-0")).to_have_count(0)
    # in English the words change, the step stays
    page.get_by_test_id("lang-switch").click()
    expect(page.get_by_test_id("replay-where")).to_contain_text(f"Play {third.ply} of {replay.last}")
    # nothing scrolls sideways, on a phone either
    assert page.evaluate("document.scrollingElement.scrollWidth") <= page.viewport_size["width"]  # type: ignore[index]
    assert not log.errors, log.errors


#: The mesa analysed, played and analysed here once for both sizes (the server keeps its analysis too).
ANALYSED: dict[str, tuple[dict[str, Any], GameRecord, list[Review]]] = {}


def test_a_finished_mesa_is_analysed_beside_its_replay(sized: tuple[Page, PageLog], server: Server) -> None:
    """From History, "analizar": the replay opens and the analysis of the person's seat comes, thought by the
    server's workers: the moves it grades are the terminal's (``cuarenta analyze``: same seed), each with a
    button to its position; then the rival's, and the words in English."""
    if server.url not in ANALYSED:
        made, record = finished_mesa(server)
        ANALYSED[server.url] = made, record, [analyze(record, 0), analyze(record, 1)]
    made, record, (review, rival_review) = ANALYSED[server.url]
    replay = Replay(record)
    graded = [d for d in review.decisions if d.grade]
    page, log = sized
    page.goto(server.url)
    expect(page.get_by_test_id("start")).to_be_enabled()
    games = [{"room": made["room"], "token": made["token"], "seat": 0, "players": 2, "level": "facil"}]
    page.evaluate("g => localStorage.setItem('cuarenta.games', JSON.stringify(g))", games)
    page.get_by_test_id("nav-history").click()
    page.get_by_test_id("history-analysis").click()
    expect(page.get_by_test_id("replay")).to_be_visible()
    panel = page.get_by_test_id("analysis")
    expect(panel).to_be_visible()
    expect(panel).to_have_attribute("data-status", "done", timeout=180_000)
    lines = page.get_by_test_id("analysis-line")
    assert lines.evaluate_all("els => els.map(e => Number(e.dataset.ply))") == [d.ply for d in graded]
    assert lines.evaluate_all("els => els.map(e => e.dataset.grade)") == [d.grade for d in graded]
    summary = page.get_by_test_id("analysis-summary")
    expect(summary).to_contain_text(
        f"{len(review.decisions)} decisiones con elección y {review.forced} jugadas"
    )
    if graded:
        lines.first.get_by_test_id("analysis-show").click()
        check_step(page, replay, graded[0].ply, [0])
        expect(lines.first).to_contain_text(f"jugada {graded[0].ply + 1}")
    # the rival's moves: another seat, then its analysis
    page.get_by_test_id("replay-seat").select_option("1")
    expect(panel).to_have_count(0)
    page.get_by_test_id("replay-analyse").click()
    expect(panel).to_have_attribute("data-status", "done", timeout=180_000)
    rival = [d.ply for d in rival_review.decisions if d.grade]
    assert lines.evaluate_all("els => els.map(e => Number(e.dataset.ply))") == rival
    page.get_by_test_id("lang-switch").click()
    expect(summary).to_contain_text("decisions with a choice")
    assert page.evaluate("document.scrollingElement.scrollWidth") <= page.viewport_size["width"]  # type: ignore[index]
    assert not log.errors, log.errors


def test_a_record_file_is_replayed_from_history(
    sized: tuple[Page, PageLog], server: Server, tmp_path: Path
) -> None:
    """History's "Abrir una partida guardada": a record file the person holds (here one played elsewhere),
    step by step; no analysis is offered (it has no room: `cuarenta analyze` reads the file)."""
    game = Game.new(Rules.preset("basico"), seed=13)
    while not game.is_over:
        game.play(game.legal_moves()[0])
    record = GameRecord.from_game(game)
    path = tmp_path / "mesa.cuarenta"
    path.write_text(record.to_text(), encoding="utf-8")
    replay = Replay(record)
    page, log = sized
    page.goto(server.url)
    expect(page.get_by_test_id("start")).to_be_enabled()
    page.get_by_test_id("nav-history").click()
    page.get_by_test_id("history-open-record").set_input_files(str(path))
    expect(page.get_by_test_id("replay")).to_be_visible()
    check_step(page, replay, 0, [0])
    page.keyboard.press("End")
    check_step(page, replay, replay.last, [0])
    expect(page.get_by_test_id("replay-analyse")).to_have_count(0)
    # a file that is not a record: the page says why, nothing else changes
    bad = tmp_path / "notes.cuarenta"
    bad.write_text("these are not moves", encoding="utf-8")
    page.get_by_test_id("nav-history").click()
    page.get_by_test_id("history-open-record").set_input_files(str(bad))
    expect(page.get_by_test_id("replay-error")).to_be_visible()
    expect(page.get_by_test_id("error-text")).to_contain_text("not a record")
    # a file longer than the server reads (api/options' record_max_chars) is refused before it is sent
    long = tmp_path / "long.cuarenta"
    long.write_text("é" * 60_001, encoding="utf-8")  # 60,001 characters in 120,002 bytes
    page.locator("#error .error-close").click()
    expect(page.get_by_test_id("error")).to_be_hidden()
    page.get_by_test_id("history-open-record").set_input_files(str(long))
    expect(page.get_by_test_id("error-text")).to_contain_text(TOO_BIG)
    # the browser logs the refused request itself; nothing else went wrong
    refused = [e for e in log.errors if "status of 400" in e]
    assert len(refused) == 1
    log.errors.remove(refused[0])
    assert not log.errors, log.errors
