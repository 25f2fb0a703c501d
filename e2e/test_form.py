"""The new-game form, the history and this browser's statistics (issue 8).

- "Nueva partida" during a game asks first (a dialog, keyboard reachable, es/en), and the unfinished game
  stays reachable: History lists it with a button that resumes it.
- The statistics are this browser's (its tokens), not the whole server's; with a win rate, the best
  streak and caídas/limpias per game.
- The default name follows the page's language; the name's length limit is the server's.
- At 360x740 the start button is visible without scrolling and no screen scrolls sideways.
- A newcomer's first choice is a quick game (one chica, basic rules), the full rules one click away.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from harness import (
    PHONE,
    PageLog,
    Server,
    local_storage,
    new_context,
    start_game,
    wait_step,
    watch_page,
)
from playwright.sync_api import Browser, Page, expect

from cuarenta.server.store import FinishedRow, RoomRow, SeatRow, Store, hash_token

FORM_SEED = 21


def session_room(page: Page) -> str:
    return str(json.loads(local_storage(page)["cuarenta.session"])["room"])


def form_ready(page: Page) -> None:
    """Wait until the form is built from /api/options (its level choices exist)."""
    expect(page.locator("#level-choices input").first).to_be_attached()
    expect(page.get_by_test_id("start")).to_be_enabled()


# -- 1. a new game during a game asks first; the unfinished game stays in History -------------------------
def test_new_game_during_a_game_asks_first_and_history_resumes_the_unfinished_one(
    page: Page, base_url: str
) -> None:
    start_game(page, base_url, seed=FORM_SEED)
    assert wait_step(page) == "ready"
    first = session_room(page)

    # "Nueva partida", then "Empezar a jugar": a dialog asks first; Escape keeps the game
    page.get_by_test_id("nav-new").click()
    page.get_by_test_id("start").click()
    dialog = page.get_by_test_id("confirm-new")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("partida sin terminar")
    expect(page.get_by_test_id("confirm-new-start")).to_have_text("Empezar una nueva")
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    assert session_room(page) == first
    expect(page.get_by_test_id("new-game")).to_be_visible()

    # "Volver a la partida" goes back to the table of the same game
    page.get_by_test_id("start").click()
    page.get_by_test_id("confirm-new-back").click()
    expect(page.get_by_test_id("table-screen")).to_be_visible()
    assert wait_step(page) == "ready"
    assert session_room(page) == first

    # in English, with the keyboard only: the dialog opens on its safe choice; Tab, Enter starts a new one
    page.get_by_test_id("lang-switch").click()
    page.get_by_test_id("nav-new").click()
    page.get_by_test_id("start").focus()
    page.keyboard.press("Enter")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("unfinished game")
    expect(page.get_by_test_id("confirm-new-back")).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.get_by_test_id("confirm-new-start")).to_be_focused()
    expect(page.get_by_test_id("confirm-new-start")).to_have_text("Start a new one")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("table-screen")).to_be_visible()
    assert wait_step(page) == "ready"
    second = session_room(page)
    assert second != first

    # History lists the unfinished games of this browser, each with a button that resumes it
    page.get_by_test_id("nav-history").click()
    unfinished = page.get_by_test_id("history-unfinished")
    expect(unfinished).to_have_count(2)
    row = page.locator(f'[data-testid=history-unfinished][data-room="{first}"]')
    expect(row).to_be_visible()
    current = page.locator(f'[data-testid=history-unfinished][data-room="{second}"]')
    expect(current).to_have_attribute("data-current", "1")
    expect(current.get_by_test_id("history-resume")).to_have_text("Back to the game")
    expect(row.get_by_test_id("history-resume")).to_have_text("Go on")
    row.get_by_test_id("history-resume").click()
    expect(page.get_by_test_id("table-screen")).to_be_visible()
    assert wait_step(page) == "ready"
    assert session_room(page) == first
    # the other one is still listed
    page.get_by_test_id("nav-history").click()
    expect(page.locator(f'[data-testid=history-unfinished][data-room="{second}"]')).to_be_visible()


# -- 2 and 6. the statistics are this browser's --------------------------------------------------------------
WHEN = "2026-11-{day:02d}T12:00:00Z"


def _room(room: str, token: str, level: str, day: int) -> RoomRow:
    return RoomRow(
        id=room,
        created=WHEN.format(day=day),
        updated=WHEN.format(day=day),
        players=2,
        level=level,
        rules='{"preset": "basico", "players": 2}',
        seed="1",
        mesa=1,
        state=1,
        status="finished",
        seats=(SeatRow(0, "person", "Ana", None, hash_token(token)), SeatRow(1, "computer", "", level, None)),
    )


def _finished(room: str, level: str, day: int, *, won: bool, caidas: int, limpias: int) -> FinishedRow:
    return FinishedRow(
        room=room,
        mesa=1,
        finished=WHEN.format(day=day),
        level=level,
        players=2,
        rules='{"preset": "basico", "players": 2}',
        seats='[{"seat": 0, "kind": "person", "name": "Ana"}, {"seat": 1, "kind": "computer", "level": "x"}]',
        person_team=0,
        winner=0 if won else 1,
        chicas="[1, 0]" if won else "[0, 1]",
        chica_results="[]",
        caidas=caidas,
        limpias=limpias,
        record="(record)",
    )


#: (room, level, day, won, caídas, limpias): this browser's finished mesas, then another browser's.
MINE = [
    ("mine1", "facil", 1, True, 4, 1),
    ("mine2", "facil", 2, True, 2, 2),
    ("mine3", "facil", 3, False, 1, 0),
    ("mine4", "facil", 4, True, 5, 1),
    ("mine5", "normal", 5, False, 3, 3),
]
THEIRS = [(f"theirs{i}", "facil", 10 + i, True, 9, 9) for i in range(4)] + [
    ("theirs9", "dificil", 20, True, 1, 1)
]


@pytest.fixture
def stats_server(tmp_path: Path, start_server: Callable[..., Server]) -> Server:
    """A server whose database holds finished mesas of this browser and of another one."""
    data = tmp_path / "data"
    data.mkdir()
    store = Store.in_dir(data)
    try:
        for room, level, day, won, caidas, limpias in MINE + THEIRS:
            store.insert_room(_room(room, f"token-{room}", level, day))
            store.save_room(
                room,
                updated=WHEN.format(day=day),
                mesa=1,
                state=1,
                mesa_state=0,
                status="finished",
                finished=[_finished(room, level, day, won=won, caidas=caidas, limpias=limpias)],
            )
    finally:
        store.close()
    return start_server(data)


def test_statistics_are_this_browsers_own(browser: Browser, stats_server: Server) -> None:
    context = new_context(browser)
    page = context.new_page()
    log = watch_page(page)
    try:
        games = [
            {"room": room, "token": f"token-{room}", "seat": 0, "players": 2, "level": level}
            for room, level, *_ in MINE
        ]
        page.goto(stats_server.url)
        form_ready(page)
        page.evaluate("g => localStorage.setItem('cuarenta.games', JSON.stringify(g))", games)
        page.get_by_test_id("nav-history").click()
        expect(page.get_by_test_id("history-row")).to_have_count(len(MINE))

        facil = page.get_by_test_id("stats-facil")

        def stat(row: str, name: str) -> str:
            return page.get_by_test_id(f"stats-{row}").locator(f'[data-stat="{name}"]').inner_text().strip()

        expect(facil.locator('[data-stat="played"]')).to_have_text("4")
        assert stat("facil", "won") == "3"
        assert stat("facil", "caidas") == "12"
        assert stat("facil", "limpias") == "4"
        assert stat("normal", "played") == "1"
        assert stat("dificil", "played") == "0"  # the other browser's dificil game is not counted
        # 6: win rate, best streak, caídas and limpias per game
        assert stat("facil", "win_rate") == "75 %"
        assert stat("facil", "best_streak") == "2"
        assert stat("facil", "caidas_per_game") == "3"
        assert stat("facil", "limpias_per_game") == "1"
        assert stat("normal", "win_rate") == "0 %"
        assert stat("all", "played") == "5"
        assert stat("all", "won") == "3"
        assert stat("all", "best_streak") == "2"
        assert stat("all", "caidas_per_game") == "3"
        # in English the figures stay and the words change
        page.get_by_test_id("lang-switch").click()
        expect(page.get_by_test_id("stats")).to_contain_text("Win rate")
        expect(facil.locator('[data-stat="win_rate"]')).to_have_text("75%")
        assert not log.errors, log.errors
    finally:
        context.close()


# -- 3. the default name follows the language; one length limit, the server's -------------------------------
def test_default_name_follows_the_language_and_the_name_limit_is_the_servers(
    page: Page, base_url: str, server: Server
) -> None:
    page.goto(base_url)
    form_ready(page)
    # an empty name, Spanish: the person is "Tú" (spoken to, issue 25); switch to English: "You"
    start_game(page, base_url, seed=FORM_SEED, name="", goto=False)
    me = page.get_by_test_id("team-0")
    expect(me).to_contain_text("Tú")
    page.get_by_test_id("lang-switch").click()
    expect(me).to_contain_text("You")
    expect(me).not_to_contain_text("Tú")

    # the limit of the name field is the server's, served with the options
    limit = server.get_json("api/options")["name_max_chars"]
    page.get_by_test_id("nav-new").click()
    name = page.get_by_test_id("player-name")
    expect(name).to_have_attribute("maxlength", str(limit))
    long_name = "Ana María de los Ángeles Quishpe Tenorio"[:limit].ljust(limit, "x")
    name.fill(long_name + "zzz")
    expect(name).to_have_value(long_name)
    page.get_by_test_id("start").click()
    page.get_by_test_id("confirm-new-start").click()
    expect(page.get_by_test_id("table-screen")).to_be_visible()
    expect(page.get_by_test_id("team-0")).to_contain_text(long_name)


# -- 4. a phone: the start button above the fold, nothing scrolls sideways -----------------------------------


def no_sideways_scroll(page: Page, where: str) -> None:
    width, inner = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert width <= inner, f"{where}: the page is {width} px wide in a {inner} px viewport"


def start_in_view(page: Page, where: str) -> None:
    box = page.get_by_test_id("start").bounding_box()
    assert box is not None, where
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], f"{where}: start button at {box}"
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], f"{where}: start button at {box}"


def test_phone_start_is_visible_and_nothing_scrolls_sideways(
    phone: tuple[Page, PageLog], base_url: str
) -> None:
    page, _ = phone
    page.goto(base_url)
    form_ready(page)
    start_in_view(page, "new game form")
    no_sideways_scroll(page, "new game form")
    page.get_by_test_id("lang-switch").click()
    start_in_view(page, "new game form in English")
    no_sideways_scroll(page, "new game form in English")

    start_game(page, base_url, seed=FORM_SEED, goto=False)
    assert wait_step(page) == "ready"
    no_sideways_scroll(page, "table")
    # with a saved game the form also offers to resume it: the start button stays in view
    page.get_by_test_id("nav-new").click()
    expect(page.get_by_test_id("resume-game")).to_be_visible()
    start_in_view(page, "new game form with a saved game")
    no_sideways_scroll(page, "new game form with a saved game")
    page.get_by_test_id("start").tap()
    expect(page.get_by_test_id("confirm-new")).to_be_visible()
    no_sideways_scroll(page, "the question before a new game")
    for testid in ("confirm-new-back", "confirm-new-start"):
        expect(page.get_by_test_id(testid)).to_be_in_viewport()
    page.keyboard.press("Escape")
    page.get_by_test_id("nav-history").tap()
    expect(page.get_by_test_id("history-unfinished")).to_have_count(1)
    no_sideways_scroll(page, "history")


# -- 5. a newcomer's first choice is a quick game -----------------------------------------------------------
def test_a_newcomer_is_offered_a_quick_game_first(page: Page, base_url: str, server: Server) -> None:
    options = server.get_json("api/options")
    quick = options["quick_preset"]
    preset = next(p for p in options["presets"] if p["name"] == quick)
    assert preset["options"]["chicas"] == 1

    page.goto(base_url)
    form_ready(page)
    # the form's first choice is whom to play with (the computer, checked, or friends), then the game
    first = page.locator("#new-game-form input, #new-game-form select").first
    expect(first).to_have_attribute("data-testid", "mode-computer")
    expect(first).to_be_checked()
    expect(page.locator("#mode-choices input").first).to_have_attribute("data-testid", "mode-quick")
    expect(page.get_by_test_id("mode-quick")).to_be_checked()
    expect(page.get_by_test_id("preset")).to_have_value(quick)
    expect(page.locator("label:has([data-testid=mode-quick])")).to_contain_text("Partida rápida")
    expect(page.locator("label:has([data-testid=mode-full])")).to_contain_text(
        next(p["label"]["es"] for p in options["presets"] if p["name"] == options["default_preset"])
    )
    # the full rules are one click away
    page.get_by_test_id("mode-full").check()
    expect(page.get_by_test_id("preset")).to_have_value(options["default_preset"])
    page.get_by_test_id("mode-quick").check()
    expect(page.get_by_test_id("preset")).to_have_value(quick)
    # choosing a preset by hand keeps the two in step
    page.get_by_test_id("preset").select_option("todo_dos")
    expect(page.get_by_test_id("mode-quick")).not_to_be_checked()
    page.get_by_test_id("preset").select_option(quick)
    expect(page.get_by_test_id("mode-quick")).to_be_checked()

    with page.expect_request("**/api/rooms") as request:
        page.get_by_test_id("start").click()
    assert json.loads(request.value.post_data or "{}")["rules"]["preset"] == quick
    expect(page.get_by_test_id("table-screen")).to_be_visible()
