"""The table's words and their room (issue 25, item 15; docs/web.md "Names at the table").

- A person who gave no name is spoken to: their own moves are in the second person in the log, the strip
  and the bubble ("Juegas 7♠ y no llevas nada", "You play 7♠ …"), their name is "Tú" ("Don Lucho y tú"
  at 4), never "Jugador" told in the third person.
- The rematch line joins names as the language does ("Ana y Beto quieren otra mesa") and tells the voter
  who has not agreed yet ("Falta Carla").
- A team's name is never cut (it wraps), at 1280x800 and on phones held both ways.
- A spectator's result headline is neither a win's colour nor a loss's.
- The new-game form's choices keep their words inside their cards at 360 px.
- A spectator's table menu (☰) is in the first screen, on landscape phones too.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from harness import (
    PHONE,
    STEP_JS,
    STEP_TIMEOUT_MS,
    People,
    Server,
    choose_first_option,
    close_summary,
    join_table,
    make_table,
    new_context,
    play_first_card,
    seated_context,
    start_game,
    watch_page,
)
from playing import play_moves
from playwright.sync_api import Browser, Page, expect

#: A chica to 10 and one chica a mesa: a table with friends plays its mesa in a few minutes.
SHORT: dict[str, Any] = {"target": 10, "ronda_limit": None, "chicas": 1}


def move_on(page: Page) -> str | None:
    """Do what the page needs of its person now (play the first card, take the first option, close a
    summary); returns what that was (``STEP_JS``), or None when it is someone else's turn."""
    kind = page.evaluate(STEP_JS)
    if kind == "ready":
        play_first_card(page)
    elif kind == "choice":
        choose_first_option(page)
    elif kind == "summary":
        close_summary(page)
    elif kind == "error":
        raise AssertionError(page.get_by_test_id("error").inner_text())
    return str(kind) if kind else None


def log_lines(page: Page) -> list[str]:
    """The log's sentences (it may be folded on a phone)."""
    return [
        str(t).strip() for t in page.eval_on_selector_all("#log .log-text", "n => n.map(e => e.textContent)")
    ]


# -- a person with no name is spoken to -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("size", "players"),
    [((1280, 800), 2), ((PHONE["width"], PHONE["height"]), 4)],
    ids=["1v1-1280", "2v2-360"],
)
def test_a_person_with_no_name_is_spoken_to(
    browser: Browser, base_url: str, size: tuple[int, int], players: int
) -> None:
    context = new_context(browser, width=size[0], height=size[1])
    try:
        page = context.new_page()
        log = watch_page(page)
        start_game(page, base_url, players=players, preset="a_todo_rigor", seed=21, name="")
        play_moves(page, 4)
        lines = log_lines(page)
        mine = [line for line in lines if line.startswith("Juegas ")]
        assert len(mine) >= 4, lines  # each of the person's plays, in the second person
        assert not [line for line in lines if "Jugador" in line or "Tú juega" in line], lines
        strip = page.locator("#last-play-line .last-play-text")
        assert strip.inner_text() in lines
        team = page.get_by_test_id("team-0").locator(".team-name")
        partner = page.get_by_test_id("seat-2").locator(".seat-name") if players == 4 else None
        if partner is not None:
            expect(team).to_have_text(f"{partner.inner_text()} y tú")
        else:
            expect(team).to_have_text("Tú")
        # in English too
        page.get_by_test_id("lang-switch").click()
        expect(page.locator("html")).to_have_attribute("lang", "en")
        lines = log_lines(page)
        assert len([line for line in lines if line.startswith("You play ")]) >= 4, lines
        assert not [line for line in lines if "Player" in line], lines
        assert not log.errors, log.errors
    finally:
        context.close()


# -- the rematch line ---------------------------------------------------------------------------------------
def test_the_rematch_line_joins_the_names_and_says_who_is_missing(browser: Browser, server: Server) -> None:
    """Three people and a computer finish a short mesa; Ana and Beto ask for another: Carla (on a phone)
    reads "Ana y Beto quieren otra mesa", and Ana reads that Beto wants one and that Carla is missing."""
    made = make_table(
        server, players=4, seats=["friend", "friend", "facil"], rules={"preset": "custom", **SHORT}
    )
    answers = [made, join_table(server, made, "Beto"), join_table(server, made, "Carla")]
    sizes = [(1280, 800), (1280, 800), (PHONE["width"], PHONE["height"])]
    contexts = [seated_context(browser, a, *size) for a, size in zip(answers, sizes, strict=True)]
    try:
        pages = []
        for context in contexts:
            page = context.new_page()
            page.goto(server.url)
            expect(page.get_by_test_id("hand-card").first).to_be_visible(timeout=STEP_TIMEOUT_MS)
            pages.append(page)
        end = time.monotonic() + 300
        while not all(p.evaluate(STEP_JS) == "over" for p in pages):
            assert time.monotonic() < end, "the mesa did not end in time"
            for page in pages:
                move_on(page)
            pages[0].wait_for_timeout(50)  # the others' turns and the computer's: look again
        ana, beto, carla = pages
        ana.locator("#result [data-testid=continue]").click()
        beto.locator("#result [data-testid=continue]").click()
        expect(carla.get_by_test_id("rematch-status")).to_have_text("Ana y Beto quieren otra mesa")
        expect(ana.get_by_test_id("rematch-status")).to_have_text("Beto quiere otra mesa · Falta Carla")
        expect(beto.get_by_test_id("rematch-status")).to_have_text("Ana quiere otra mesa · Falta Carla")
        beto.get_by_test_id("lang-switch").click()
        expect(beto.get_by_test_id("rematch-status")).to_have_text(
            "Ana wants another mesa · Carla has not agreed yet"
        )
    finally:
        for context in contexts:
            context.close()


# -- names and words in their room ---------------------------------------------------------------------------
_CUT_JS = """(sel) => [...document.querySelectorAll(sel)].filter((n) => n.offsetParent).map((n) => {
  const box = n.getBoundingClientRect();
  const range = document.createRange();
  range.selectNodeContents(n);
  const text = range.getBoundingClientRect();
  const out = text.left < box.left - 1 || text.right > box.right + 1 || n.scrollWidth > n.clientWidth + 1;
  return out ? `${n.textContent.trim()}: text ${text.left}–${text.right} in ${box.left}–${box.right}` : null;
}).filter(Boolean)"""

LANDSCAPE = [(740, 360), (844, 390)]


@pytest.mark.parametrize(
    "size", [(1280, 800), (PHONE["width"], PHONE["height"]), *LANDSCAPE], ids=["1280", "360", "740", "844"]
)
def test_team_names_are_never_cut(browser: Browser, base_url: str, size: tuple[int, int]) -> None:
    context = new_context(browser, width=size[0], height=size[1])
    try:
        page = context.new_page()
        start_game(page, base_url, players=4, preset="a_todo_rigor", seed=5, name="María de los Ángeles")
        names = page.locator("#teams .team-name")
        expect(names).to_have_count(2)
        expect(names.first).to_contain_text("María de los Ángeles y ")
        assert page.evaluate(_CUT_JS, "#teams .team-name") == []
        assert "ellipsis" not in page.locator("#teams .team-name").first.evaluate(
            "n => getComputedStyle(n).textOverflow"
        )
    finally:
        context.close()


_OUTSIDE_JS = """() => [...document.querySelectorAll('.choice')].filter((n) => n.offsetParent)
  .flatMap((card) => {
  const r = card.getBoundingClientRect();
  const css = getComputedStyle(card);
  const px = (v) => parseFloat(v) || 0;
  const left = r.left + px(css.borderLeftWidth) + px(css.paddingLeft);
  const right = r.right - px(css.borderRightWidth) - px(css.paddingRight);
  return [...card.querySelectorAll('.choice-main, .choice-sub')].map((n) => {
    const range = document.createRange();
    range.selectNodeContents(n);
    const text = range.getBoundingClientRect();
    return text.left < left - 0.5 || text.right > right + 0.5
      ? `${n.textContent.trim()}: ${text.left}–${text.right} in its card's ${left}–${right}` : null;
  });
}).filter(Boolean)"""


@pytest.mark.parametrize("size", [(PHONE["width"], PHONE["height"]), (1280, 800)], ids=["360", "1280"])
def test_the_forms_choices_keep_their_words_inside(
    people: People, base_url: str, size: tuple[int, int]
) -> None:
    """Every word of a choice ("Contra la computadora", "Partida rápida" …) inside its card's padding."""
    page = people.page(width=size[0], height=size[1])
    page.goto(base_url)
    expect(page.get_by_test_id("start")).to_be_enabled()
    for mode in ("mode-computer", "mode-friends"):
        for players in ("players-2", "players-4"):
            page.get_by_test_id(mode).check()
            page.get_by_test_id(players).check()
            assert page.evaluate(_OUTSIDE_JS) == [], (mode, players)


# -- a spectator ---------------------------------------------------------------------------------------------
def test_a_spectators_menu_is_in_the_first_screen(browser: Browser, server: Server) -> None:
    """A spectator of a 2 vs 2 table: the table menu (☰) inside the screen at every size, landscape phones
    too (a spectator has no hand to keep room for)."""
    made = make_table(server, players=4, seats=["facil", "facil", "facil"], name="Carla")
    carla = seated_context(browser, made)
    watchers = []
    try:
        page = carla.new_page()
        page.goto(server.url)
        expect(page.get_by_test_id("hand-card").first).to_be_visible(timeout=STEP_TIMEOUT_MS)
        for width, height in [*LANDSCAPE, (PHONE["width"], PHONE["height"]), (1280, 800)]:
            context = new_context(browser, width=width, height=height)
            watchers.append(context)
            watcher = context.new_page()
            watcher.goto(f"{server.url}#watch={made['room']}")
            expect(watcher.get_by_test_id("spectating")).to_be_visible()
            menu = watcher.get_by_test_id("table-menu-toggle")
            expect(menu).to_be_visible()
            box = menu.bounding_box()
            assert box is not None
            assert box["y"] >= 0 and box["y"] + box["height"] <= height + 0.5, (width, height, box)
            assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, (width, height, box)
    finally:
        for context in watchers:
            context.close()
        carla.close()


def test_a_spectators_result_is_neither_won_nor_lost(browser: Browser, server: Server) -> None:
    """The result of a short mesa, watched: the headline in the ink's colour (no `data-won`), while the
    player's own keeps a win's or a loss's."""
    made = make_table(server, players=2, seats=["facil"], rules={"preset": "custom", **SHORT})
    ana = seated_context(browser, made)
    watcher = new_context(browser, width=PHONE["width"], height=PHONE["height"])
    try:
        page = ana.new_page()
        page.goto(server.url)
        expect(page.get_by_test_id("hand-card").first).to_be_visible(timeout=STEP_TIMEOUT_MS)
        spectator = watcher.new_page()
        spectator.goto(f"{server.url}#watch={made['room']}")
        expect(spectator.get_by_test_id("spectating")).to_be_visible()
        end = time.monotonic() + 300
        # the spectator, too, closes each hand's summary (its queue waits for it, as a player's does)
        while [move_on(page), move_on(spectator)] != ["over", "over"]:
            assert time.monotonic() < end, "the mesa did not end in time"
            page.wait_for_timeout(50)  # the computer's turn: look again
        headline = spectator.get_by_test_id("result-headline")
        expect(headline).to_have_text(re.compile(r"^Ganó "), timeout=STEP_TIMEOUT_MS)
        assert spectator.get_by_test_id("result").get_attribute("data-won") is None
        colour = headline.evaluate("n => getComputedStyle(n).color")
        ink = spectator.evaluate("() => getComputedStyle(document.documentElement).getPropertyValue('--ink')")
        assert ink.strip() == "#1b1d22" and colour == "rgb(27, 29, 34)", (colour, ink)
        # the player's own headline keeps a win's or a loss's colour
        assert page.get_by_test_id("result").get_attribute("data-won") in ("0", "1")
        assert page.get_by_test_id("result-headline").evaluate("n => getComputedStyle(n).color") != colour
    finally:
        watcher.close()
        ana.close()
