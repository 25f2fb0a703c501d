"""The table on a phone (issue 17, docs/web.md "The table on a phone (issue 17)"): while playing, the score,
the felt with the table cards, the hand, whose turn it is and the last play are inside the viewport with
nothing scrolled, on phones held both ways and on a desktop, in single-player and at a table with friends;
the reactions open from one button into a tray; "Dejar la mesa" is in the table menu; the waiting room
shows the invite link, its copy button and its QR code in the first screen.

What is played: at each of the five viewports, one whole hand at a 2 vs 2 table with three people (each in
a browser context of their own, all at that viewport) and a computer, every page checked after every move
it sees; and one whole hand in single-player 2 vs 2 (the fuller board). That is ten hands; a hand of a
table with friends takes the longest (three people's turns are polled), well under a minute here.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from harness import (
    STEP_JS,
    STEP_TIMEOUT_MS,
    PageLog,
    Server,
    choose_first_option,
    close_summary,
    join_table,
    make_table,
    new_context,
    play_first_card,
    seated_context,
    start_game,
    state_number,
    wait_step,
    watch_page,
)
from playwright.sync_api import Browser, BrowserContext, Page, expect

from cuarenta.server.authority.computer_names import NAMES

#: The viewports of the issue: two phones upright, a desktop, two phones on their side.
VIEWPORTS = [(360, 740), (390, 844), (1280, 800), (740, 360), (844, 390)]
IDS = [f"{w}x{h}" for w, h in VIEWPORTS]

#: What a player needs while playing, each by its hook: every one inside the viewport, nothing scrolled.
#: The seats' turn marks (``.seat.is-turn``) are checked too, when a seat has the turn.
NEEDED = {
    "score": "#scoreboard",
    "team-0": "[data-testid=team-0]",
    "team-1": "[data-testid=team-1]",
    "score-0": "[data-testid=score-0]",
    "score-1": "[data-testid=score-1]",
    "table": "[data-testid=table]",
    "felt": "#felt",
    "hand": "[data-testid=hand]",
    "status": "[data-testid=status]",
    "last-play": "[data-testid=last-play]",
    "controls": "#controls",
}

_FITS_JS = """
(needed) => {
  const W = innerWidth, H = innerHeight, bad = [];
  if (scrollX !== 0 || scrollY !== 0) bad.push(`scrolled to ${scrollX},${scrollY}`);
  if (document.scrollingElement.scrollWidth > W) bad.push(`${document.scrollingElement.scrollWidth} px wide`);
  const boxes = Object.entries(needed).map(([name, sel]) => [name, document.querySelector(sel)]);
  document.querySelectorAll('.seat.is-turn').forEach((n, i) => boxes.push([`turn mark ${i}`, n]));
  for (const [name, node] of boxes) {
    if (!node) { bad.push(`${name}: missing`); continue; }
    if (name === 'last-play' && node.hidden) continue; // no play yet in this hand: nothing to show
    const r = node.getBoundingClientRect();
    if (r.width === 0 && r.height === 0 && name !== 'table') { bad.push(`${name}: not laid out`); continue; }
    const [x0, y0, x1, y1] = [r.left, r.top, r.right, r.bottom].map(Math.round);
    if (r.top < -0.5 || r.left < -0.5 || r.bottom > H + 0.5 || r.right > W + 0.5)
      bad.push(`${name}: ${x0},${y0}–${x1},${y1}`);
  }
  // what took the height, for the failure's message
  const blocks = ['#scoreboard', '.board', '#felt', '[data-testid=status]', '#my-area', '#controls'];
  const parts = bad.length === 0 ? [] : blocks
    .map((sel) => [sel, document.querySelector(sel)?.getBoundingClientRect()])
    .map(([sel, r]) => `${sel} ${r ? `${Math.round(r.top)}–${Math.round(r.bottom)}` : 'missing'}`);
  const texts = document.querySelectorAll('.seat-extra, .status, #table-wait, .watchers');
  const extras = bad.length === 0 ? [] : [...texts]
    .map((n) => n.innerText.trim()).filter(Boolean);
  return { bad, lastPlay: !document.querySelector('#last-play').hidden, parts, extras };
}
"""


def check_fits(page: Page, where: str) -> bool:
    """Every element of NEEDED (and the seat with the turn) inside the viewport; the page not scrolled.
    Returns whether the last play was shown (it is, once the hand's first card is played)."""
    seen = page.evaluate(_FITS_JS, NEEDED)
    size = page.viewport_size
    shots = os.environ.get("CUARENTA_E2E_SHOTS")
    if seen["bad"] and shots:
        page.screenshot(path=str(Path(shots) / f"layout-{size['width']}x{size['height']}.png"))
    assert not seen["bad"], f"{where} at {size}: {seen['bad']} ({seen['parts']}; texts {seen['extras']})"
    return bool(seen["lastPlay"])


# -- the table through the API (harness.make_table, join_table, seated_context) -------------------------


class Person:
    def __init__(
        self, browser: Browser, server: Server, answer: dict[str, Any], size: tuple[int, int]
    ) -> None:
        self.context = seated_context(browser, answer, *size)
        self.page = self.context.new_page()
        self.log: PageLog = watch_page(self.page)
        self.page.goto(server.url)
        self.checked = -1  #: the last state number checked

    def close(self) -> None:
        errors = list(self.log.errors)
        self.context.close()
        assert not errors, f"script errors in the page: {errors}"


def step(page: Page) -> str | None:
    kind = page.evaluate(STEP_JS)
    if kind == "error":
        raise AssertionError(f"the page shows an error: {page.get_by_test_id('error').inner_text()!r}")
    return str(kind) if kind else None


def dialog_open(page: Page) -> bool:
    return bool(page.evaluate("() => Boolean(document.querySelector('dialog[open]'))"))


# -- a whole hand at a table with friends, at each viewport ---------------------------------------------
@pytest.mark.parametrize("size", VIEWPORTS, ids=IDS)
def test_a_whole_hand_with_friends_fits_one_screen(
    browser: Browser, server: Server, size: tuple[int, int]
) -> None:
    made = make_table(server, players=4, seats=["friend", "friend", "facil"])
    answers = [made, join_table(server, made, "Beto"), join_table(server, made, "Caro")]
    people = [Person(browser, server, a, size) for a in answers]
    try:
        for p in people:
            expect(p.page.get_by_test_id("hand-card").first).to_be_visible(timeout=STEP_TIMEOUT_MS)
            # the reactions and the leaving are one button and a menu, not rows under the hand
            expect(p.page.get_by_test_id("reactions-open")).to_be_visible()
            expect(p.page.get_by_test_id("reactions")).to_be_hidden()
            expect(p.page.get_by_test_id("leave-table")).to_be_hidden()
        summaries: set[int] = set()
        checks = shown = 0
        end = time.monotonic() + 240
        while summaries != {0, 1, 2}:
            assert time.monotonic() < end, "the hand did not end in time"
            for i, p in enumerate(people):
                kind = step(p.page)
                if kind == "summary":
                    summaries.add(i)
                    continue
                if i in summaries or dialog_open(p.page):
                    if kind == "choice":
                        choose_first_option(p.page)
                    continue
                state = state_number(p.page)
                if state != p.checked:  # a move (anyone's) since the last look: the page still fits
                    shown += check_fits(p.page, f"{['Ana', 'Beto', 'Caro'][i]}, state {state}")
                    p.checked = state
                    checks += 1
                if kind == "ready":
                    play_first_card(p.page)
            people[0].page.wait_for_timeout(50)
        assert checks >= 30, checks  # a hand is 40 cards: every page was checked along the way
        assert shown >= checks * 2 // 3, (shown, checks)  # with the last play in sight, most of the time
        for p in people:
            assert not p.log.server_errors(), p.log.server_errors()
    finally:
        for p in people:
            p.close()


# -- a whole hand in single-player (2 vs 2 against the computer), at each viewport ----------------------
@pytest.mark.parametrize("size", VIEWPORTS, ids=IDS)
def test_a_whole_hand_alone_fits_one_screen(browser: Browser, base_url: str, size: tuple[int, int]) -> None:
    context = new_context(browser, *size)
    page = context.new_page()
    log = watch_page(page)
    try:
        start_game(page, base_url, players=4, seed=11)
        moves = shown = 0
        while True:
            kind = wait_step(page)
            if kind == "ready":
                shown += check_fits(page, f"my turn {moves + 1}")
                before = state_number(page)
                play_first_card(page)
                moves += 1
                # after my move is shown (the table's state moves on), before the next one
                page.wait_for_function(
                    "(n) => Number(document.querySelector('#screen-table').dataset.state) > n"
                    " || document.querySelector('dialog[open]')",
                    arg=before,
                )
                if not dialog_open(page):
                    shown += check_fits(page, f"after my move {moves}")
            elif kind == "choice":
                choose_first_option(page)
            elif kind == "summary":
                break
            else:
                raise AssertionError("the mesa ended before the hand did")
        assert moves == 10, moves  # 2 vs 2: 5 cards a deal, two deals
        assert shown >= moves, shown  # the last play in sight in most of the 20 looks
        close_summary(page)
        assert not log.errors, log.errors
    finally:
        context.close()


#: A crowded table: the cards of the table and the hand, cloned until the felt holds ``n`` (the layout is
#: the page's own; only the number of cards is made up, as a hand where nobody captures can make it).
_CROWD_JS = """
(n) => {
  const box = document.querySelector('#table-cards');
  const model = box.querySelector('.table-card') || document.querySelector('#hand .card');
  while (box.children.length < n) {
    const card = model.cloneNode(true);
    card.className = 'card table-card';
    card.removeAttribute('data-last-drop');
    card.querySelector('.badge')?.remove();
    box.append(card);
  }
  return box.children.length;
}
"""


#: The longest names the computer players are given (authority/computer_names.py), in every place a name is
#: shown at the table: the scoreboard's teams and the seats' panels. The names depend on the room's id, so
#: a random game gets short or long ones; the crowded table is checked with the longest, the worst case
#: (a 2 vs 2 of long names once pushed the buttons 12 px off 360x740).
_LONG_NAMES_JS = """
(names) => {
  const longest = [...names].sort((a, b) => b.length - a.length);
  document.querySelectorAll('#scoreboard .team-name').forEach((n, i) => {
    n.textContent = `${longest[2 * i]} y ${longest[2 * i + 1]}`;
  });
  document.querySelectorAll('.board .seat:not(.seat-bottom) .seat-name').forEach((n, i) => {
    n.textContent = longest[i];
  });
  return document.querySelectorAll('#scoreboard .team-name').length;
}
"""


@pytest.mark.parametrize("size", VIEWPORTS, ids=IDS)
def test_a_crowded_table_still_fits_one_screen(
    browser: Browser, base_url: str, size: tuple[int, int]
) -> None:
    """13 to 24 cards on the table, 2 vs 2 (the seats' panels take the most room): the felt draws them
    smaller and nothing leaves the screen (a random deal with 13 once pushed the buttons off 360x740)."""
    context = new_context(browser, *size)
    page = context.new_page()
    try:
        start_game(page, base_url, players=4, seed=11)
        assert wait_step(page) == "ready"
        for n in (13, 18, 24):
            assert page.evaluate(_CROWD_JS, n) == n
            check_fits(page, f"{n} cards on the table")
        assert page.evaluate(_LONG_NAMES_JS, list(NAMES)) == 2
        check_fits(page, "24 cards on the table and the longest names")
    finally:
        context.close()


# -- the reactions' tray and the table menu --------------------------------------------------------------
def test_the_reactions_tray_and_the_table_menu(browser: Browser, server: Server) -> None:
    made = make_table(server, players=2, seats=["friend"], rules={"preset": "basico"})
    beto = join_table(server, made, "Beto")
    ana, bob = Person(browser, server, made, (360, 740)), Person(browser, server, beto, (360, 740))
    try:
        page = ana.page
        opener = page.get_by_test_id("reactions-open")
        tray = page.get_by_test_id("reactions")
        expect(opener).to_be_visible(timeout=STEP_TIMEOUT_MS)
        expect(opener).to_have_accessible_name("Reacciones")
        expect(opener).to_have_attribute("aria-expanded", "false")
        expect(tray).to_be_hidden()
        # one button opens the tray: the six sayings and the mute switch, inside the screen
        opener.click()
        expect(tray).to_be_visible()
        expect(opener).to_have_attribute("aria-expanded", "true")
        pills = tray.get_by_test_id("reaction")
        expect(pills).to_have_count(6)
        expect(tray.get_by_test_id("mute-reactions")).to_be_visible()
        for i in range(6):
            expect(pills.nth(i)).to_be_in_viewport(ratio=1)
        expect(pills.first).to_be_focused()  # the keyboard is in the tray
        # Escape closes it and gives the focus back to the button
        page.keyboard.press("Escape")
        expect(tray).to_be_hidden()
        expect(opener).to_be_focused()
        expect(opener).to_have_attribute("aria-expanded", "false")
        # by keyboard: Enter opens, Tab reaches a saying, Enter sends it; the tray closes after the send
        page.keyboard.press("Enter")
        expect(tray).to_be_visible()
        page.keyboard.press("Tab")
        expect(pills.nth(1)).to_be_focused()
        expect(pills.nth(1)).to_have_attribute("data-saying", "mosero")
        page.keyboard.press("Enter")
        expect(tray).to_be_hidden()
        bubble = bob.page.locator('[data-seat-extra="0"] [data-testid=reaction-bubble]')
        expect(bubble).to_have_text("¡Mosero!")
        assert any(json.loads(m).get("type") == "react" for m in ana.log.sent)
        # a tap outside closes it too
        opener.click()
        expect(tray).to_be_visible()
        page.get_by_test_id("scoreboard").click()
        expect(tray).to_be_hidden()

        # the table menu: "Dejar la mesa", the tips and the legend are in it, not on the table
        menu = page.get_by_test_id("table-menu")
        leave = page.get_by_test_id("leave-table")
        expect(leave).to_be_hidden()
        expect(page.get_by_test_id("tips-open-table")).to_be_hidden()
        page.get_by_test_id("table-menu-toggle").click()
        expect(menu).to_have_attribute("open", "")
        expect(leave).to_be_visible()
        expect(leave).to_be_in_viewport(ratio=1)
        assert page.locator("#table-menu-items [data-testid=leave-table]").count() == 1
        expect(page.locator("#table-menu-items [data-testid=tips-open-table]")).to_be_visible()
        expect(page.locator("#table-menu-items [data-testid=marks-legend]")).to_be_visible()
        page.keyboard.press("Escape")
        expect(menu).not_to_have_attribute("open", "")
        expect(page.get_by_test_id("table-menu-toggle")).to_be_focused()
        # opening the tray closes the menu (and the other way round)
        page.get_by_test_id("table-menu-toggle").click()
        expect(leave).to_be_visible()
        opener.click()
        expect(tray).to_be_visible()
        expect(leave).to_be_hidden()
        page.get_by_test_id("table-menu-toggle").click()
        expect(tray).to_be_hidden()
        expect(leave).to_be_visible()
        # a spectator has neither the reactions nor "Dejar la mesa"
        watcher = new_context(browser, 360, 740)
        try:
            w = watcher.new_page()
            w.goto(f"{server.url}#watch={made['room']}")
            expect(w.get_by_test_id("spectating")).to_be_visible()
            assert (
                w.get_by_test_id("reactions-open").count() == 0
                or w.get_by_test_id("reactions-open").is_hidden()
            )
            w.get_by_test_id("table-menu-toggle").click()
            expect(w.get_by_test_id("tips-open-table")).to_be_visible()
            assert w.get_by_test_id("leave-table").count() == 0 or w.get_by_test_id("leave-table").is_hidden()
        finally:
            watcher.close()
    finally:
        ana.close()
        bob.close()


def test_the_table_menu_in_single_player_has_the_tips_and_no_leaving(page: Page, base_url: str) -> None:
    start_game(page, base_url, preset="basico", seed=4)
    expect(page.get_by_test_id("reactions-open")).to_have_count(0)
    page.get_by_test_id("table-menu-toggle").click()
    expect(page.get_by_test_id("tips-open-table")).to_be_visible()
    assert page.get_by_test_id("leave-table").count() == 0
    page.get_by_test_id("tips-open-table").click()
    expect(page.get_by_test_id("tips")).to_be_visible()


# -- the waiting room ----------------------------------------------------------------------------------
SHARE_JS = """
navigator.share = (data) => { window.__shared = data; return Promise.resolve(); };
"""


def open_waiting_room(
    browser: Browser,
    server: Server,
    size: tuple[int, int],
    players: int,
    prepare: Callable[[BrowserContext], None],
) -> tuple[BrowserContext, Page]:
    seats = ["friend"] if players == 2 else ["friend", "friend", "facil"]
    made = make_table(server, players=players, seats=seats)
    context = seated_context(browser, made, *size)
    prepare(context)
    page = context.new_page()
    page.goto(server.url)
    expect(page.get_by_test_id("waiting-room")).to_be_visible()
    expect(page.locator("[data-testid=invite-qr] svg")).to_be_visible()
    return context, page


@pytest.mark.parametrize("players", [2, 4], ids=["1v1", "2v2"])
@pytest.mark.parametrize("size", VIEWPORTS, ids=IDS)
def test_the_waiting_room_shows_the_link_and_its_qr_first(
    browser: Browser, server: Server, size: tuple[int, int], players: int
) -> None:
    context, page = open_waiting_room(browser, server, size, players, lambda c: None)
    try:
        for hook in ("invite-link", "invite-copy", "invite-qr"):
            expect(page.get_by_test_id(hook)).to_be_in_viewport(ratio=1)
        box = page.locator("[data-testid=invite-qr] svg").bounding_box()
        assert box is not None and box["width"] >= 96 and box["height"] >= 96, box  # big enough to scan
        assert page.evaluate("() => scrollY") == 0
        # no Web Share API in this browser: no share button
        expect(page.get_by_test_id("invite-share")).to_be_hidden()
    finally:
        context.close()


def test_the_share_button_uses_the_share_sheet_where_there_is_one(browser: Browser, server: Server) -> None:
    context, page = open_waiting_room(browser, server, (360, 740), 4, lambda c: c.add_init_script(SHARE_JS))
    try:
        share = page.get_by_test_id("invite-share")
        expect(share).to_be_visible()
        expect(share).to_be_in_viewport(ratio=1)
        share.click()
        page.wait_for_function("() => window.__shared !== undefined")
        shared = page.evaluate("() => window.__shared")
        assert shared["url"] == page.get_by_test_id("invite-link").get_attribute("href")
        assert "#join=" in shared["url"]
    finally:
        context.close()
