"""The game on the device (issue 18; docs/web.md "Playing on the device"): the project's Python under
Pyodide in a Web Worker, in real Chromium.

- the static site of ``cuarenta site`` served by a plain static file server (no ``cuarenta serve``) plays
  a hand against the computer;
- the page of ``cuarenta serve`` offers "play on this device": the offline pack downloads with its
  progress, the service worker is active, and then, with the context offline, the page starts and plays a
  whole hand at each level, resumes the same hand after the page is closed, and a finished mesa is in the
  device history with a record the library replays.

The worker's frames to the page are recorded (an init script wraps ``Worker``) and checked as the
socket's are: no card the seat could not see. A room's seed is set the same way ``fix_seed`` does for the
server (the form sends ``"seed": null``): the init script adds it to the worker's ``POST api/rooms``.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from harness import (
    TIMEOUT_MS,
    PageLog,
    Server,
    hand_cards,
    new_context,
    play_first_card,
    start_game,
    static_server,
    table_cards,
    wait_step,
    watch_page,
)
from ondevice import DEVICE_STEP_MS, booted, build_pack, cuarenta
from playing import play
from playwright.sync_api import Browser, BrowserContext, Page, expect

from cuarenta.analysis.puzzles import shipped
from cuarenta.record import GameRecord

#: Records the worker's frames and answers (window.__frames) and adds a seed (and rules) to the rooms the
#: page creates on the device, as harness.fix_seed does for the server's.
WORKER_SPY = """
(() => {
  window.__frames = [];
  const Orig = window.Worker;
  window.Worker = class extends Orig {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (e) => {
        if (e.data && e.data.type === "frame") window.__frames.push(e.data.text);
      });
    }
    postMessage(m, ...rest) {
      const seed = window.localStorage.getItem("test.seed");
      if (m && m.type === "http" && m.method === "POST" && m.path === "api/rooms" && seed !== null) {
        const body = JSON.parse(m.body || "{}");
        body.seed = Number(seed);
        body.practice = true;
        const rules = window.localStorage.getItem("test.rules");
        if (rules) body.rules = { ...body.rules, preset: "custom", ...JSON.parse(rules) };
        m = { ...m, body: JSON.stringify(body) };
      }
      return super.postMessage(m, ...rest);
    }
  };
})();
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``cuarenta site DIR`` served by Python's plain static file server (no Cuarenta server)."""
    where = tmp_path_factory.mktemp("site") / "cuarenta"
    made = cuarenta("site", str(where))
    assert made.returncode == 0, made.stdout + made.stderr
    with static_server(where) as url:
        yield url


@pytest.fixture(scope="module")
def packed() -> None:
    """The offline pack built from this tree (``cuarenta pack``), so ``cuarenta serve`` offers it."""
    build_pack()


@pytest.fixture(scope="module")
def device_context(browser: Browser) -> Iterator[BrowserContext]:
    """One context for the module's visits (its service worker, Cache Storage and IndexedDB persist)."""
    ctx = new_context(browser, service_workers="allow")
    ctx.add_init_script(WORKER_SPY)
    try:
        yield ctx
    finally:
        ctx.close()


def _open(ctx: BrowserContext, url: str) -> tuple[Page, PageLog]:
    page = ctx.new_page()
    log = watch_page(page)
    page.goto(url)
    booted(page)
    return page, log


def _seed(page: Page, seed: int, rules: dict[str, Any] | None = None) -> None:
    page.evaluate(
        "([seed, rules]) => { localStorage.setItem('test.seed', String(seed));"
        " if (rules) localStorage.setItem('test.rules', JSON.stringify(rules));"
        " else localStorage.removeItem('test.rules'); }",
        [seed, rules],
    )


def _start(page: Page, level: str = "facil") -> None:
    """A new 1 vs 1 game from the form (as harness.start_game), after "Nueva partida" when a game is
    shown, confirming the new game when one is unfinished."""
    if page.get_by_test_id("new-game").is_hidden():
        page.get_by_test_id("nav-new").click()
    expect(page.locator("#new-game-form")).to_be_visible()
    page.get_by_test_id("player-name").fill("Ana")
    page.get_by_test_id("players-2").check()
    page.get_by_test_id(f"level-{level}").check()
    page.get_by_test_id("preset").select_option("a_todo_rigor")
    page.get_by_test_id("start-game").click()
    page.wait_for_function(
        "() => document.querySelector('#confirm-new').open || !document.querySelector('#screen-table').hidden"
    )
    if page.get_by_test_id("confirm-new").is_visible():
        page.get_by_test_id("confirm-new-start").click()
    page.wait_for_function(
        "() => !document.querySelector('#error').hidden"
        " || (!document.querySelector('#screen-table').hidden && document.querySelector('#hand .hand-card'))",
        timeout=60_000,
    )
    error = page.get_by_test_id("error")
    assert error.is_hidden(), f"the page shows an error: {error.inner_text()!r}"
    expect(page.get_by_test_id("hand-card").first).to_be_visible(timeout=60_000)


def _frames(page: Page) -> list[dict[str, Any]]:
    return [json.loads(t) for t in page.evaluate("window.__frames")]


def _no_hidden_card(frames: list[dict[str, Any]]) -> None:
    """Every hand in the worker's frames is the seat's own (seat 0): the others' are counts only."""
    for frame in frames:
        private = frame.get("private") or {}
        view = frame.get("view") or {}
        for key in ("hands", "deck", "hidden"):
            assert key not in view, (key, frame)
        hand = private.get("hand") if isinstance(private, dict) else None
        assert hand is None or isinstance(hand, list)
        assert "seed" not in json.dumps(frame.get("view", {})), frame


def test_the_static_site_plays_a_hand_with_no_server(browser: Browser, site: str) -> None:
    """``cuarenta site`` on a plain static server: the page starts the game on the device, says friends
    need a server, and plays a hand against the computer."""
    ctx = new_context(browser, service_workers="allow")
    ctx.add_init_script(WORKER_SPY)
    try:
        page, log = _open(ctx, site)
        expect(page.get_by_test_id("device-note")).to_be_visible()
        expect(page.get_by_test_id("mode-friends")).to_be_disabled()
        expect(page.get_by_test_id("device-friends")).to_be_visible()
        expect(page.get_by_test_id("device-toggle")).to_be_hidden()  # no server to go back to
        _seed(page, 7)
        # the puzzles come from the page's worker too (its host answers api/puzzles)
        page.get_by_test_id("open-puzzles").click()
        first = shipped()[0]
        expect(page.get_by_test_id("puzzle-where")).to_have_attribute("data-id", first.id, timeout=60_000)
        page.get_by_test_id("puzzle-hand").locator(f'[data-card="{first.answer.card}"]').click()  # type: ignore[union-attr]
        expect(page.get_by_test_id("puzzle-told")).to_have_attribute("data-right", "1", timeout=60_000)
        # no server: the shipped rating stays, nobody is rated, and a report is not offered
        rating = page.get_by_test_id("puzzle-rating")
        expect(rating).to_have_attribute("data-before", str(first.rating))
        expect(rating).to_have_attribute("data-after", str(first.rating))
        expect(page.get_by_test_id("puzzle-solver-rating")).to_have_count(0)
        expect(page.get_by_test_id("puzzle-report-offline")).to_be_visible()
        expect(page.get_by_test_id("puzzle-report")).to_have_count(0)
        page.get_by_test_id("nav-new").click()
        start_game(page, site, goto=False)
        # the expert's advice, thought in the page's worker (experto on the device's budget)
        assert wait_step(page, timeout=60_000) == "ready"
        page.get_by_test_id("advice-ask").click()
        advised = page.locator("#hand [data-testid=hand-card][data-advised='1']")
        expect(advised).to_have_count(1, timeout=60_000)
        expect(page.get_by_test_id("status")).to_have_attribute("data-advice", "true")
        answers = [f for f in _frames(page) if f.get("type") == "advice"]
        assert len(answers) == 1 and answers[0]["move"].split(" ")[0] == advised.get_attribute("data-card")
        assert play(page, timeout=DEVICE_STEP_MS) >= 1
        _no_hidden_card(_frames(page))
        assert not log.errors, log.errors
    finally:
        ctx.close()


def test_install_then_offline_play_resume_and_history(
    device_context: BrowserContext, packed: None, server: Server
) -> None:
    """From ``cuarenta serve``: choose "play on this device" (the pack downloads with its progress), then
    offline: a hand at each level, the same hand after closing the page, a finished mesa in the device
    history whose record the library replays."""
    ctx = device_context
    page = ctx.new_page()
    log = watch_page(page)
    page.goto(server.url)
    toggle = page.get_by_test_id("device-toggle")
    expect(toggle).to_be_visible()
    toggle.click()
    booted(page)  # the pack cached, the page reloaded on the device
    assert page.evaluate("navigator.serviceWorker.controller !== null") or page.evaluate(
        "navigator.serviceWorker.ready.then((r) => Boolean(r.active))"
    )
    manifest = page.evaluate("fetch(document.querySelector('link[rel=manifest]').href).then((r) => r.json())")
    assert manifest["display"] == "standalone" and manifest["icons"], manifest
    page.close()
    assert not log.errors, log.errors

    ctx.set_offline(True)
    try:
        # a hand at each level on a page opened offline (each boot of Pyodide costs seconds: one page plays
        # the three, as a person starting new games does)
        page, log = _open(ctx, server.url)
        # a whole hand at fácil; at normal and difícil three of the person's cards, each answered by the
        # computer (difícil under Pyodide thinks for seconds a move: a whole hand of it cost half a minute)
        for level, cards in (("facil", None), ("normal", 3), ("dificil", 3)):
            _seed(page, {"facil": 3, "normal": 4, "dificil": 5}[level])
            _start(page, level)
            assert play(page, cards=cards, timeout=DEVICE_STEP_MS) >= 1, level
        _no_hidden_card(_frames(page))

        # close mid-hand, open again: the same hand resumes
        _seed(page, 9)
        _start(page)
        assert wait_step(page, timeout=60_000) == "ready"
        play_first_card(page)
        assert wait_step(page, timeout=60_000) == "ready"
        before = (hand_cards(page), table_cards(page))
        page.close()
        assert not log.errors, log.errors
        page, log = _open(ctx, server.url)
        # the saved game resumes by itself, as on the server (app.js: main)
        assert wait_step(page, timeout=60_000) == "ready"
        assert (hand_cards(page), table_cards(page)) == before

        # a short mesa (one chica to 10) played to its end: in the history, its record downloads and replays
        _seed(page, 12, {"target": 10, "chicas": 1, "ronda_limit": None})
        _start(page)
        assert play(page, until="over", timeout=DEVICE_STEP_MS) >= 1
        page.get_by_test_id("nav-history").click()
        row = page.get_by_test_id("history-row").first
        expect(row).to_be_visible(timeout=TIMEOUT_MS)
        with page.expect_download() as download:
            row.get_by_test_id("history-record").click()
        text = Path(download.value.path()).read_text(encoding="utf-8")
        record = GameRecord.from_text(text)
        game = record.replay()
        assert game.is_over
        _no_hidden_card(_frames(page))
        page.close()
        assert not log.errors, log.errors
    finally:
        ctx.set_offline(False)
        with contextlib.suppress(Exception):
            ctx.clear_cookies()
