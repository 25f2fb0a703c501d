"""The page around the game: the language switch, the Ayudas (hints) and the phone layout."""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest
from harness import (
    PHONE,
    PageLog,
    choose_first_option,
    close_summary,
    hand_cards,
    local_storage,
    play_first_card,
    start_game,
    table_cards,
    wait_for_held,
    wait_step,
)
from playwright.sync_api import Page, Route, expect

from cuarenta import catalogue
from cuarenta.events import event_from_dict
from cuarenta.i18n import describe_event, saying_text

AYUDAS_SEED = 3


def test_language_switch_persists(page: Page, base_url: str) -> None:
    page.goto(base_url)
    # Spanish by default
    expect(page.locator("html")).to_have_attribute("lang", "es")
    expect(page.locator("#new-title")).to_have_text("Nueva partida")
    expect(page.get_by_test_id("lang-switch")).to_have_accessible_name("Switch to English")
    start_game(page, base_url, goto=False, seed=1)
    assert wait_step(page) == "ready"
    expect(page.get_by_role("group", name="Tu mano")).to_be_visible()
    expect(page.get_by_role("list", name="Cartas en la mesa")).to_be_attached()
    expect(page.get_by_test_id("nav-table")).to_contain_text("Mesa")
    expect(page.get_by_test_id("status")).to_contain_text("Tu turno")
    expect(page.get_by_test_id("nav-rules")).to_have_attribute("href", re.compile(r"como-se-juega\.html$"))
    first = page.get_by_test_id("hand-card").first
    expect(first).to_have_accessible_name(re.compile(r" de (corazón rojo|corazón negro|brillo|trébol)"))

    # English on the switch, at once, on the table being played
    page.get_by_test_id("lang-switch").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_role("group", name="Your hand")).to_be_visible()
    expect(page.get_by_role("list", name="Cards on the table")).to_be_attached()
    expect(page.get_by_test_id("status")).to_contain_text("Your turn")
    expect(first).to_have_accessible_name(re.compile(r" of (hearts|spades|diamonds|clubs)"))
    expect(page.get_by_test_id("lang-switch")).to_have_accessible_name("Cambiar a español")
    expect(page.get_by_test_id("nav-rules")).to_have_attribute("href", re.compile(r"how-to-play\.html$"))
    assert local_storage(page)["cuarenta.lang"] == "en"

    # the choice survives a reload (and the game comes back)
    page.reload()
    assert wait_step(page) == "ready"
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_role("group", name="Your hand")).to_be_visible()
    page.get_by_test_id("nav-new").click()
    expect(page.locator("#new-title")).to_have_text("New game")

    # and back to Spanish, which also survives a reload
    page.get_by_test_id("lang-switch").click()
    expect(page.locator("#new-title")).to_have_text("Nueva partida")
    page.reload()
    assert wait_step(page) == "ready"
    expect(page.locator("html")).to_have_attribute("lang", "es")
    expect(page.get_by_role("group", name="Tu mano")).to_be_visible()
    assert local_storage(page)["cuarenta.lang"] == "es"


def test_the_start_button_waits_for_the_form(page: Page, base_url: str) -> None:
    """Until the page has its words and GET api/options has answered there is no form to start from: the
    button is disabled from the first paint (a tap did nothing), and once it is enabled every choice has its
    words."""
    held: dict[str, Route] = {}
    page.route("**/api/texts/*", lambda route: held.__setitem__("texts", route))
    page.route("**/api/options", lambda route: held.__setitem__("options", route))
    page.goto(base_url, wait_until="domcontentloaded")
    page.wait_for_function("() => document.querySelector('#start-game') !== null")
    expect(page.get_by_test_id("start")).to_be_disabled()  # no words yet, no options
    wait_for_held(page, held, "texts")
    assert "options" not in held  # the page asks for its options once it has its words
    expect(page.get_by_test_id("start")).to_be_disabled()
    held.pop("texts").continue_()
    expect(page.locator("#new-title")).to_have_text("Nueva partida")
    expect(page.locator("body")).to_have_attribute("data-words", "ready")
    wait_for_held(page, held, "options")
    expect(page.get_by_test_id("start")).to_be_disabled()  # words, no options
    held.pop("options").continue_()
    expect(page.get_by_test_id("start")).to_be_enabled()
    words = page.locator(".choice:visible :is(.choice-main, .choice-sub)").all_inner_texts()
    assert words and all(w.strip() for w in words), words


def test_without_the_options_the_page_says_so_and_offers_to_retry(
    page: Page, base_url: str, page_log: PageLog
) -> None:
    """The form is built from GET api/options only: when it cannot be read, there is no form (no copy of
    the rules in the page), a notice and a button to try again."""
    page.route("**/api/options", lambda route: route.fulfill(status=503, body="down"))
    page.goto(base_url)
    expect(page.get_by_test_id("options-error")).to_be_visible()
    expect(page.get_by_test_id("options-error")).to_contain_text(catalogue.text("page.options_error", "es"))
    expect(page.get_by_test_id("start")).to_be_disabled()
    expect(page.get_by_test_id("preset")).to_be_hidden()
    page.unroute("**/api/options")
    page.get_by_test_id("options-retry").click()
    expect(page.get_by_test_id("options-error")).to_be_hidden()
    expect(page.get_by_test_id("start")).to_be_enabled()
    expect(page.get_by_test_id("preset").locator("option")).to_have_count(5)  # four presets and "a mi manera"
    # a newcomer is offered the quick game first (the server's quick_preset, basico)
    expect(page.get_by_test_id("preset-desc")).to_have_text(catalogue.text("preset.basico.about", "es"))
    expect(page.get_by_test_id("opt-caida_limpia_points").locator("option").first).to_have_text("4 puntos")
    # the browser logs the refused request itself; nothing else went wrong
    refused = [e for e in page_log.errors if "status of 503" in e]
    assert len(refused) == 1
    page_log.errors.remove(refused[0])


# -- what happened, in words: the catalogue's texts and the server's sayings ------------------------
SAYINGS_SEED = 9


def log_lines(page: Page) -> list[tuple[str, str]]:
    """The log of the hand as the page shows it: (event sentence, sayings) per line."""
    raw = page.eval_on_selector_all(
        "#log li",
        "n => n.map(li => [li.querySelector('.log-text')?.textContent ?? '',"
        " (li.querySelector('.log-saying')?.textContent ?? '').trim()])",
    )
    return [(str(text), str(sayings)) for text, sayings in raw]


def expected_lines(history: list[dict[str, Any]], lang: str, seats: list[str]) -> list[tuple[str, str]]:
    """What Python says of the same events (the terminal's words) with the sayings the server chose."""
    out = []
    for e in history:
        points = e.get("points")
        points = points if isinstance(points, int) and points > 0 else 2
        sayings = " ".join(saying_text(key, lang, points) for key in e["sayings"])
        out.append((describe_event(event_from_dict(e), lang, seats), sayings))
    return out


def test_events_and_sayings_are_told_in_both_languages(page: Page, base_url: str, page_log: PageLog) -> None:
    """The log says every event of the hand as the terminal does, with the sayings the server sent
    (their keys come with every event), in Spanish and, after the switch, in English."""
    start_game(page, base_url, players=2, level="facil", preset="a_todo_rigor", seed=SAYINGS_SEED, name="Ana")
    history: list[dict[str, Any]] = []
    for _ in range(80):
        kind = wait_step(page)
        if kind == "summary":
            close_summary(page)
            continue
        if kind == "choice":
            choose_first_option(page)
            continue
        assert kind == "ready", "the mesa ended before any saying was said"
        history = page_log.states()[-1]["view"]["history"]
        if any(e["sayings"] for e in history):
            break
        play_first_card(page)
    said = [key for e in history for key in e["sayings"]]
    assert said, "a saying was said within 80 turns"
    expect(page.locator("#log li")).to_have_count(len(history))
    bot = page_log.states()[-1]["seats"][1]["name"]  # the computer's name: the same in every language
    assert bot
    assert log_lines(page) == expected_lines(history, "es", ["Ana", bot])
    assert any(line[1].startswith("¡") for line in log_lines(page))

    page.get_by_test_id("lang-switch").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    english = expected_lines(history, "en", ["Ana", bot])
    expect(page.locator("#log li .log-text").first).to_have_text(english[0][0])
    assert log_lines(page) == english
    glossed = [line[1] for line in english if line[1]]
    assert glossed and all(g.startswith("“¡") and g.endswith(")") for g in glossed)


# -- Ayudas ---------------------------------------------------------------------------------------
VALUES = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7}


def takes_something(card: str, table: list[str]) -> bool:
    """Whether ``card`` captures on this table (R7 igualdad, R8 suma with two or more cards)."""
    if any(t[0] == card[0] for t in table):
        return True
    value = VALUES.get(card[0])
    if value is None:
        return False
    summable = [VALUES[t[0]] for t in table if t[0] in VALUES]
    return any(
        sum(combo) == value
        for n in range(2, len(summable) + 1)
        for combo in itertools.combinations(summable, n)
    )


def hint_marks(page: Page) -> dict[str, tuple[bool, bool, str]]:
    """Each hand card's marks: (takes mark, caída mark, badge texts)."""
    raw = page.eval_on_selector_all(
        "#hand [data-testid=hand-card]",
        """n => n.map(e => [e.dataset.card, e.dataset.hintTakes === '1', e.dataset.hintCaida === '1',
                          [...e.querySelectorAll('.badge')].map(b => b.textContent).join('|')])""",
    )
    return {str(c): (bool(t), bool(k), str(b)) for c, t, k, b in raw}


def test_ayudas_mark_captures_and_caidas(page: Page, base_url: str) -> None:
    start_game(page, base_url, players=2, level="facil", preset="a_todo_rigor", seed=AYUDAS_SEED)
    toggle = page.get_by_test_id("ayudas-toggle")
    expect(toggle).to_have_attribute("aria-pressed", "true")  # on for a newcomer (issue 17)
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    assert wait_step(page) == "ready"
    assert not any(t or k or b for t, k, b in hint_marks(page).values()), "no marks while Ayudas is off"
    page.reload()  # turned off, the switch is remembered
    assert wait_step(page) == "ready"
    expect(page.get_by_test_id("ayudas-toggle")).to_have_attribute("aria-pressed", "false")

    page.get_by_test_id("ayudas-toggle").click()
    expect(page.get_by_test_id("ayudas-toggle")).to_have_attribute("aria-pressed", "true")
    page.reload()  # and turned on again
    assert wait_step(page) == "ready"
    expect(page.get_by_test_id("ayudas-toggle")).to_have_attribute("aria-pressed", "true")

    seen_takes = seen_caida = seen_plain = 0
    for _ in range(60):
        kind = wait_step(page)
        if kind == "choice":
            choose_first_option(page)
            continue
        if kind == "summary":
            close_summary(page)
            continue
        assert kind == "ready", "the mesa ended before a caída was offered"
        table = table_cards(page)
        last = page.locator('#table-cards [data-testid=table-card][data-last-drop="1"]')
        last_drop = last.get_attribute("data-card") if last.count() else None
        marks = hint_marks(page)
        assert list(marks) == hand_cards(page)
        for card, (takes, caida, badges) in marks.items():
            assert takes == takes_something(card, table), (card, table, marks)
            expected_caida = last_drop is not None and card[0] == last_drop[0]
            assert caida == expected_caida, (card, last_drop, table, marks)
            assert ("¡Caída!" in badges) == caida, (card, badges)
            seen_takes += takes and not caida
            seen_caida += caida
            seen_plain += not takes
        if seen_caida and seen_takes and seen_plain:
            break
        play_first_card(page)
    assert seen_caida, "a caída label was shown"
    assert seen_takes and seen_plain

    # turning Ayudas off takes the marks away at once
    page.get_by_test_id("ayudas-toggle").click()
    expect(page.locator("#hand [data-hint-takes], #hand [data-hint-caida], #hand .badge")).to_have_count(0)


# -- phone ----------------------------------------------------------------------------------------
_NAMELESS_JS = """
() => {
  const shown = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
  const name = (e) => {
    const by = e.getAttribute('aria-labelledby');
    if (by) {
      return by.split(/\\s+/).map((id) => document.getElementById(id)?.textContent ?? '').join(' ').trim();
    }
    const label = e.getAttribute('aria-label') || e.getAttribute('title') || '';
    if (label.trim()) return label.trim();
    if (e.labels && e.labels.length) return [...e.labels].map((l) => l.textContent).join(' ').trim();
    return (e.textContent || '').trim();
  };
  return [...document.querySelectorAll('button, a[href], input, select, [role=button]')]
    .filter((e) => shown(e) && !name(e)).map((e) => e.outerHTML.slice(0, 120));
}
"""


def check_phone_layout(page: Page, where: str) -> None:
    """No horizontal scroll; every visible control has an accessible name."""
    width = page.evaluate("() => document.scrollingElement.scrollWidth")
    assert width <= PHONE["width"], f"{where}: the page scrolls sideways ({width} px wide)"
    nameless = page.evaluate(_NAMELESS_JS)
    assert not nameless, f"{where}: controls without an accessible name: {nameless}"


def check_hand_on_phone(page: Page, where: str) -> None:
    cards = page.get_by_test_id("hand-card")
    assert cards.count() > 0
    for i in range(cards.count()):
        card = cards.nth(i)
        card.scroll_into_view_if_needed()
        expect(card).to_be_visible()
        box = card.bounding_box()
        assert box is not None
        assert box["width"] >= 40, f"{where}: hand card {i + 1} is {box['width']:.0f} px wide"
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (
            f"{where}: card {i + 1} off screen {box}"
        )
        expect(card).to_have_accessible_name(re.compile(r"\w+ de \w+"))


@pytest.mark.parametrize("players", [2, 4])
def test_phone_layout(phone: tuple[Page, PageLog], base_url: str, players: int) -> None:
    page, _ = phone
    page.goto(base_url)
    expect(page.get_by_test_id("start-game")).to_be_visible()
    check_phone_layout(page, "new game form")
    start_game(page, base_url, players=players, goto=False, seed=7)
    taps = 0
    summaries = 0
    # 1v1: a whole hand, to its summary (20 cards of the person); 2v2: a few cards
    while (summaries == 0) if players == 2 else (taps < 3):
        assert taps <= 20
        kind = wait_step(page)
        if kind == "ready":
            check_phone_layout(page, f"table, turn {taps + 1}")
            check_hand_on_phone(page, f"turn {taps + 1}")
            page.get_by_test_id("hand-card").first.tap()
            taps += 1
        elif kind == "choice":
            check_phone_layout(page, "capture choice")
            choose_first_option(page)
        elif kind == "summary":
            check_phone_layout(page, "hand summary")
            expect(page.get_by_test_id("summary-continue")).to_be_in_viewport()
            summaries += 1
            close_summary(page)
        else:
            raise AssertionError("the mesa ended too soon")
