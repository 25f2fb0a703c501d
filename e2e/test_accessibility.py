"""Accessibility (issue 17, item 9): axe-core on every screen at 1280x800 and 360x740 (no violation of
impact serious or critical), a move and the dialogs by keyboard alone, the cards named for screen
readers, and colour never the only signal (hints, whose turn it is, presence).

axe-core is pinned in scripts/browser-packages.json and fetched by scripts/browser_packages.py
(e2e/a11y.py injects it; a missing copy fails with the command that fetches it).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator

import pytest
from a11y import DESKTOP, axe_context, check
from harness import (
    PHONE,
    STEP_TIMEOUT_MS,
    PageLog,
    Server,
    choose_first_option,
    close_summary,
    fix_seed,
    start_game,
    wait_step,
    watch_page,
)
from playwright.sync_api import Browser, BrowserContext, Page, expect

from cuarenta import Card
from cuarenta.i18n import card_name

#: the words of a seat's turn mark (page.a11y.turn), after its arrow
TURN_WORDS = {"es": "\u25b6le toca jugar:", "en": "\u25b6to play:"}
#: a custom table (basico, one chica to 40) with manual capture: the capture choice opens (e2e/test_play.py)
CHOICE_SEED = 2


class Pages:
    """Pages, each in a fresh context in which axe can run (bypass_csp); no script error allowed."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser
        self.contexts: list[BrowserContext] = []
        self.logs: list[PageLog] = []

    def new(self, size: dict[str, int] = DESKTOP) -> Page:
        context = axe_context(self.browser, size)
        self.contexts.append(context)
        page = context.new_page()
        self.logs.append(watch_page(page))
        return page

    def close(self) -> None:
        for context in self.contexts:
            context.close()
        errors = [e for log in self.logs for e in log.errors]
        assert not errors, f"script errors in the pages: {errors}"


@pytest.fixture
def pages(browser: Browser) -> Iterator[Pages]:
    made = Pages(browser)
    try:
        yield made
    finally:
        made.close()


def texts_ready(page: Page) -> None:
    expect(page.locator("body[data-texts=ready]")).to_be_attached()


def form_ready(page: Page) -> None:
    texts_ready(page)
    expect(page.get_by_test_id("start")).to_be_enabled()
    expect(page.get_by_test_id("preset").locator("option").first).to_be_attached()


# -- the pages beside the game ------------------------------------------------------------------
def test_rules_leaderboard_and_profile_pages(pages: Pages, server: Server) -> None:
    page = pages.new()
    for path in ("como-se-juega.html", "how-to-play.html", "leaderboard.html"):
        page.goto(server.url + path)
        texts_ready(page)
        check(page, path)
    me = server.post_json("api/profiles", {"name": "Ana"})
    page.add_init_script(f"localStorage.setItem('cuarenta.profile', {json.dumps(json.dumps(me))})")
    page.goto(server.url + f"profile.html#id={me['id']}")
    expect(page.get_by_test_id("profile-name")).to_have_text("Ana")
    check(page, "profile.html (this browser's own, with its rename form)")
    page.get_by_test_id("lang-switch").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    check(page, "profile.html in English")


# -- the puzzles: a puzzle answered, its ratings shown, the report form open -----------------------------
def test_the_puzzles_and_their_report_form(pages: Pages, server: Server) -> None:
    page = pages.new()
    page.goto(server.url)
    page.get_by_test_id("open-puzzles").click()
    expect(page.get_by_test_id("puzzle-hand")).to_be_visible()
    check(page, "a puzzle")
    page.get_by_test_id("puzzle-hand").locator("[data-card]").first.click()
    ways = page.get_by_test_id("puzzle-way")
    if ways.count():
        ways.first.click()
    expect(page.get_by_test_id("puzzle-solver-rating")).to_be_visible()
    page.get_by_test_id("puzzle-report").click()
    expect(page.get_by_test_id("puzzle-report-reason")).to_be_focused()
    check(page, "a puzzle answered (its ratings) with the report form open")


# -- single-player: the form, tips, settings, the table, a choice, a summary, the result, history ----
def test_every_screen_of_a_game_against_the_computer(pages: Pages, server: Server) -> None:
    page = pages.new()
    page.goto(server.url)
    form_ready(page)
    check(page, "the new-game form (against the computer)")
    page.get_by_test_id("tips-open-new").click()
    expect(page.get_by_test_id("tips")).to_be_visible()
    check(page, "the tips")
    page.get_by_test_id("tips-close").click()
    page.get_by_test_id("settings-toggle").click()
    expect(page.get_by_test_id("sound-toggle")).to_be_visible()
    check(page, "the settings, open")
    page.keyboard.press("Escape")
    page.get_by_test_id("custom-rules").locator("summary").click()
    expect(page.get_by_test_id("opt-capture")).to_be_visible()
    check(page, "the new-game form with all the options")
    page.get_by_test_id("custom-rules").locator("summary").click()  # closed again: start_game opens it

    fix_seed(page, CHOICE_SEED)
    start_game(page, server.url, preset="basico", goto=False, options={"capture": "manual"})
    expect(page.get_by_test_id("ayudas-intro")).to_be_visible()
    check(page, "the table (single-player, Ayudas explained)")
    seen: set[str] = set()
    deadline = time.monotonic() + 300
    while True:
        assert time.monotonic() < deadline, f"the mesa did not end in time (seen: {sorted(seen)})"
        kind = wait_step(page)
        if kind == "over":
            break
        if kind not in seen:
            seen.add(kind)
            if kind != "ready":
                check(page, {"choice": "the capture choice", "summary": "the end-of-hand summary"}[kind])
        if kind == "choice":
            choose_first_option(page)
        elif kind == "summary":
            close_summary(page)
        else:
            page.get_by_test_id("hand-card").and_(page.locator(":not([aria-disabled=true])")).first.click()
    assert {"choice", "summary"} <= seen, seen
    expect(page.get_by_test_id("result")).to_be_visible()
    check(page, "the result panel")
    page.get_by_test_id("nav-history").click()
    expect(page.get_by_test_id("history")).to_be_visible()
    expect(page.get_by_test_id("stats")).not_to_be_empty()
    check(page, "history and statistics")
    page.get_by_test_id("lang-switch").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    check(page, "history and statistics in English")


# -- with friends: the form, the waiting room, the join page, the table, a spectator -------------------
def test_every_screen_of_a_table_with_friends(pages: Pages, server: Server) -> None:
    ana = pages.new()
    beto = pages.new(PHONE)
    ana.goto(server.url)
    form_ready(ana)
    ana.get_by_test_id("mode-friends").check()
    ana.get_by_test_id("player-name").fill("Ana")
    ana.get_by_test_id("players-4").check()
    ana.get_by_test_id("mode-quick").check()
    ana.get_by_test_id("friend-seat-1").select_option("facil")  # 2 and 3 stay open: Beto waits too
    check(ana, "the new-game form (with friends, 2 vs 2)")
    ana.get_by_test_id("start").click()
    expect(ana.get_by_test_id("waiting-room")).to_be_visible()
    expect(ana.get_by_test_id("invite-qr").locator("svg")).to_have_count(1)
    check(ana, "the waiting room")
    link = str(ana.get_by_test_id("invite-link").get_attribute("href"))
    beto.goto(link)
    expect(beto.get_by_test_id("join-form")).to_be_visible()
    check(beto, "the join page")
    beto.get_by_test_id("join-name").fill("Beto")
    beto.get_by_test_id("join-team-0").check()
    beto.get_by_test_id("join-submit").click()
    expect(beto.get_by_test_id("waiting-room")).to_be_visible()
    check(beto, "the waiting room (a friend's)")
    ana.get_by_test_id("table-start").click()
    for page in (ana, beto):
        expect(page.get_by_test_id("hand-card").first).to_be_visible(timeout=STEP_TIMEOUT_MS)
    check(ana, "the table with friends")
    # presence in words beside its coloured dot (a person's seat, connected)
    expect(ana.get_by_test_id("presence-2")).to_have_attribute("data-presence", "connected")
    expect(ana.get_by_test_id("presence-2")).to_have_text(re.compile(r"conectad"))
    # whose turn it is: an arrow and words on the one seat that plays
    expect(ana.locator(".seat.is-turn")).to_have_count(1)
    expect(ana.locator(".seat.is-turn").get_by_test_id("turn-mark")).to_contain_text("le toca jugar")
    check(beto, "the table with friends (a phone)")
    room = json.loads(str(ana.evaluate("() => localStorage.getItem('cuarenta.session')")))["room"]
    watcher = pages.new()
    watcher.goto(server.url + f"#watch={room}")
    expect(watcher.get_by_test_id("table-screen")).to_be_visible()
    expect(watcher.get_by_test_id("seat-hand").first).to_be_visible()
    expect(watcher.get_by_test_id("ayudas-intro")).to_be_hidden()  # for a person at the table only
    check(watcher, "the table, watched by a spectator")


# -- the keyboard alone -----------------------------------------------------------------------------
def tab_to(page: Page, selector: str, limit: int = 80, key: str = "Tab") -> None:
    """Press Tab until the element matching ``selector`` has the focus (at most ``limit`` times)."""
    for _ in range(limit):
        if page.evaluate("(s) => document.activeElement?.matches(s) ?? false", selector):
            return
        page.keyboard.press(key)
    raise AssertionError(f"Tab never reached {selector}")


def test_a_game_by_keyboard_alone(pages: Pages, server: Server) -> None:
    """Start a game, open and close the tips and the settings, play a card: Tab, Enter, Space, Escape."""
    page = pages.new()
    fix_seed(page, 11)
    page.goto(server.url)
    form_ready(page)
    # the tips: opened with Enter, closed with Escape, the focus back where it was
    tab_to(page, "[data-testid=tips-open-new]")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("tips")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("tips")).to_be_hidden()
    # the settings: opened with Space, a choice with the arrows, closed with Escape
    tab_to(page, "[data-testid=settings-toggle]")
    page.keyboard.press("Space")
    expect(page.get_by_test_id("settings")).to_have_attribute("open", "")
    tab_to(page, "[data-testid=sound-toggle]")
    page.keyboard.press("Space")
    expect(page.get_by_test_id("sound-toggle")).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("Space")
    expect(page.get_by_test_id("sound-toggle")).to_have_attribute("aria-pressed", "false")
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("settings")).not_to_have_attribute("open", "")
    # the form: a name typed, then Tab to the start button and Enter
    tab_to(page, "[data-testid=player-name]")
    page.keyboard.type("Ana")
    tab_to(page, "[data-testid=start]")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("table-screen")).to_be_visible()
    assert wait_step(page) == "ready"
    # the Ayudas' explanation, dismissed by keyboard, gives the focus to the switch
    tab_to(page, "[data-testid=ayudas-intro-close]")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("ayudas-intro")).to_be_hidden()
    expect(page.get_by_test_id("ayudas-toggle")).to_be_focused()
    # a card of the hand, reached by Tab (backwards from the switch) and played with Space
    state = page.get_by_test_id("table-screen").get_attribute("data-state")
    tab_to(page, "#hand [data-testid=hand-card]", key="Shift+Tab")
    card = str(page.evaluate("() => document.activeElement.dataset.card"))
    page.keyboard.press("Space")
    kind = wait_step(page)
    if kind == "choice":
        page.keyboard.press("Enter")
        kind = wait_step(page)
    assert kind in ("ready", "summary")
    expect(page.get_by_test_id("table-screen")).not_to_have_attribute("data-state", str(state))
    expect(page.locator(f'#hand [data-testid=hand-card][data-card="{card}"]')).to_have_count(0)


# -- names and signals beside colour ------------------------------------------------------------------
def test_cards_are_named_and_colour_is_never_the_only_signal(pages: Pages, server: Server) -> None:
    page = pages.new()
    start_game(page, server.url, preset="basico", seed=11)
    assert wait_step(page) == "ready"
    for lang in ("es", "en"):
        # every card the page shows is named in words, as the Python twin names it (cuarenta.i18n.card_name)
        for selector in ("#hand [data-testid=hand-card]", "#table-cards [data-testid=table-card]"):
            for node in page.locator(selector).all():
                code = str(node.get_attribute("data-card"))
                expect(node).to_have_accessible_name(re.compile("^" + re.escape(card_name(Card(code), lang))))
        # whose turn it is: said in words, not only by a colour
        expect(page.get_by_test_id("status")).to_have_text(re.compile(r"\S"))
        # and on the seat: an arrow beside the outline, with words (one seat only: the person's)
        expect(page.get_by_test_id("turn-mark")).to_have_count(1)
        mine = page.locator("#my-info .seat.is-turn")
        expect(mine.get_by_test_id("turn-mark")).to_have_text(TURN_WORDS[lang])
        expect(mine.get_by_test_id("turn-mark").locator("[aria-hidden=true]")).to_be_visible()
        # the hints: a badge with words and the card's name saying it (never only an outline's colour)
        for node in page.locator("#hand .hand-card.hint-takes, #hand .hand-card.hint-caida").all():
            expect(node.locator(".badge").first).to_have_text(re.compile(r"\S"))
            name = str(node.get_attribute("aria-label"))
            assert ". " in name, name
        if lang == "es":
            page.get_by_test_id("lang-switch").click()
            expect(page.locator("html")).to_have_attribute("lang", "en")
