"""A newcomer's first visit (issue 17, items 6 and 8): the page in the browser's language (es or en, from
``navigator.languages``; Spanish otherwise), remembered only once the person switches; the switch easy to
find on a phone; the Ayudas on, explained once in one line, and remembered when turned off."""

from __future__ import annotations

import json

import pytest
from harness import PHONE, STEP_TIMEOUT_MS, Server, local_storage, new_context, start_game, wait_step
from playwright.sync_api import Browser, Page, expect

NEW_GAME = {"es": "Nueva partida", "en": "New game"}


def languages(page: Page, preferred: list[str]) -> None:
    """The browser's preferred languages, as a browser set up so would give them."""
    page.add_init_script(
        f"Object.defineProperty(navigator, 'languages', {{ get: () => {json.dumps(preferred)} }});"
        f"Object.defineProperty(navigator, 'language', {{ get: () => {json.dumps(preferred[0])} }});"
    )


def open_page(page: Page, url: str) -> None:
    page.goto(url)
    expect(page.locator("body[data-texts=ready]")).to_be_attached()


@pytest.mark.parametrize(
    ("preferred", "lang"),
    [
        (["en-US", "en"], "en"),
        (["de-DE", "en-GB", "es-EC"], "en"),  # the first of them the page speaks
        (["es-419", "en"], "es"),
        (["fr-FR", "de"], "es"),  # none: Spanish
    ],
)
def test_a_first_visit_is_in_the_browsers_language(
    browser: Browser, server: Server, preferred: list[str], lang: str
) -> None:
    context = new_context(browser)
    try:
        page = context.new_page()
        languages(page, preferred)
        open_page(page, server.url)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        expect(page.locator("#new-title")).to_have_text(NEW_GAME[lang])
        rules = "how-to-play.html" if lang == "en" else "como-se-juega.html"
        expect(page.get_by_test_id("nav-rules")).to_have_attribute("href", rules)
        assert "cuarenta.lang" not in local_storage(page), "nothing is stored before the person switches"
        # the leaderboard follows the same choice
        open_page(page, server.url + "leaderboard.html")
        expect(page.locator("html")).to_have_attribute("lang", lang)
    finally:
        context.close()


def test_an_english_browser_switched_to_spanish_stays_spanish(browser: Browser, server: Server) -> None:
    context = new_context(browser, locale="en-US")
    try:
        page = context.new_page()
        open_page(page, server.url)
        expect(page.locator("#new-title")).to_have_text("New game")
        switch = page.get_by_test_id("lang-switch")
        expect(switch).to_have_attribute("lang", "es")
        expect(switch).to_have_accessible_name("Cambiar a español")
        switch.click()
        expect(page.locator("#new-title")).to_have_text("Nueva partida")
        assert local_storage(page).get("cuarenta.lang") == "es"
        for path in ("", "leaderboard.html", "profile.html"):
            open_page(page, server.url + path)
            expect(page.locator("html")).to_have_attribute("lang", "es")
        # the rules pages: the game's link goes to the page of the chosen language
        open_page(page, server.url)
        expect(page.get_by_test_id("nav-rules")).to_have_attribute("href", "como-se-juega.html")
    finally:
        context.close()


def touch_target(page: Page, testid: str) -> dict[str, float]:
    """The box the element answers taps in: its own box, grown by what its ::after covers (the points
    around it that ``elementFromPoint`` finds inside it)."""
    found: dict[str, float] = page.evaluate(
        """(id) => {
          const node = document.querySelector(`[data-testid="${id}"]`);
          const r = node.getBoundingClientRect();
          const hits = (x, y) => node.contains(document.elementFromPoint(x, y));
          const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
          let top = r.top, bottom = r.bottom, left = r.left, right = r.right;
          while (hits(cx, top - 0.5)) top -= 0.5;
          while (hits(cx, bottom + 0.5)) bottom += 0.5;
          while (hits(left - 0.5, cy)) left -= 0.5;
          while (hits(right + 0.5, cy)) right += 0.5;
          return { top, left, width: right - left, height: bottom - top };
        }""",
        testid,
    )
    return found


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_language_switch_is_easy_to_find_on_a_phone(browser: Browser, server: Server, lang: str) -> None:
    context = new_context(
        browser, **PHONE, is_mobile=True, has_touch=True, device_scale_factor=2, locale=f"{lang}-EC"
    )
    try:
        page = context.new_page()
        open_page(page, server.url)
        for where in ("the new-game form", "the table"):
            if where == "the table":
                start_game(page, server.url, goto=False)
                page.evaluate("() => window.scrollTo(0, 0)")
            switch = page.get_by_test_id("lang-switch")
            expect(switch).to_be_visible()
            expect(switch).to_be_in_viewport(ratio=1)
            assert switch.evaluate("(e) => e.tagName") == "BUTTON", "a real button"
            other = "en" if lang == "es" else "es"
            expect(switch).to_have_attribute("lang", other)
            name = "Switch to English" if other == "en" else "Cambiar a español"
            expect(switch).to_have_accessible_name(name)
            width = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
            assert width[0] <= width[1], f"{where}: the header does not fit the phone: {width}"
            target = touch_target(page, "lang-switch")
            assert target["width"] >= 44 and target["height"] >= 44, f"{where}: a touch target of {target}"
    finally:
        context.close()


def test_ayudas_are_on_for_a_newcomer_and_explained_once(page: Page, base_url: str) -> None:
    start_game(page, base_url, seed=11)
    toggle = page.get_by_test_id("ayudas-toggle")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    intro = page.get_by_test_id("ayudas-intro")
    expect(intro).to_be_visible()
    expect(intro.locator("[data-i18n]")).to_have_text("Ayudas: marcan qué lleva cada carta.")
    # one line, on a phone too (an inline text has one client rect per line)
    page.set_viewport_size(PHONE)
    assert intro.locator("[data-i18n]").evaluate("(e) => e.getClientRects().length") == 1
    assert wait_step(page) == "ready"
    page.get_by_test_id("ayudas-intro-close").click()
    expect(intro).to_be_hidden()
    # not shown again, and the Ayudas stay on while nobody turned them off
    page.reload()
    expect(page.get_by_test_id("hand-card").first).to_be_visible(timeout=STEP_TIMEOUT_MS)
    expect(toggle).to_have_attribute("aria-pressed", "true")
    expect(intro).to_be_hidden()
    # turned off, remembered
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    assert local_storage(page).get("cuarenta.ayudas") == "0"
    page.reload()
    expect(page.get_by_test_id("hand-card").first).to_be_visible(timeout=STEP_TIMEOUT_MS)
    expect(toggle).to_have_attribute("aria-pressed", "false")
    expect(intro).to_be_hidden()
