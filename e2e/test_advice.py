"""The computer's advice in the page (docs/web.md "Advice: what experto would play"; issue 28): on the
person's turn against the computer, with the Ayudas on, "Consejo" asks what experto would play; the card
is marked (the way to play it in its label, and in the choice when it has several) and the status line
names it; all of it goes once the table moves on. At a phone's size and a laptop's, where the table still
fits the screen."""

from __future__ import annotations

import json

import pytest
from harness import (
    STEP_TIMEOUT_MS,
    card_words,
    hand_cards,
    new_context,
    start_game,
    state_number,
    wait_step,
    watch_page,
)
from playwright.sync_api import Browser, expect

SEED = 8


@pytest.mark.parametrize(("width", "height"), [(360, 740), (1280, 800)])
def test_the_expert_s_advice_marks_a_card_and_says_the_move(
    browser: Browser, base_url: str, width: int, height: int
) -> None:
    ctx = new_context(browser, width=width, height=height)
    try:
        page = ctx.new_page()
        log = watch_page(page)
        start_game(page, base_url, players=2, level="facil", preset="a_todo_rigor", seed=SEED)
        assert wait_step(page) == "ready"
        ask = page.get_by_test_id("advice-ask")
        expect(ask).to_be_visible()
        expect(ask).to_be_enabled()
        status = page.get_by_test_id("status")
        expect(status).to_have_attribute("data-advice", "false")
        box = ask.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width  # on the screen
        state = state_number(page)
        ask.click()
        advised = page.locator("#hand [data-testid=hand-card][data-advised='1']")
        expect(advised).to_have_count(1, timeout=STEP_TIMEOUT_MS)
        card = advised.get_attribute("data-card")
        assert card in hand_cards(page)
        # the server's answer, as the page received it: a move of this card, for the state shown
        answers = [m for m in map(json.loads, log.received) if m.get("type") == "advice"]
        told = [(a["state"], a["move"].split(" ")[0], a["level"]) for a in answers]
        assert told == [(state, card, "experto")]
        sent = [m for m in map(json.loads, log.sent) if m.get("type") == "advice"]
        assert sent == [{"v": 2, "type": "advice", "state": state}]
        expect(status).to_have_attribute("data-advice", "true")
        assert "experto" in status.inner_text().lower()
        assert any(word in status.inner_text() for word in card_words(card)), status.inner_text()
        label = advised.get_attribute("aria-label") or ""
        assert "la que jugaría el experto:" in label, label
        expect(ask).to_be_disabled()  # answered: asking again would say the same
        # the whole table still fits the screen with the advice shown (docs/web.md "The table on a phone")
        fits = page.evaluate(
            "() => [...document.querySelectorAll('#controls, #status, #hand')].every((n) => {"
            " const r = n.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; })"
        )
        assert fits
        # the person plays the advised move; the advice is gone with the state it was for
        page.locator(f"#hand [data-card='{card}']").click()
        if page.locator("#choice-dialog").evaluate("d => d.open"):  # several ways: the advised one is marked
            expect(page.locator("[data-testid=capture-option][data-advised='1']")).to_have_attribute(
                "data-move", answers[0]["move"]
            )
            page.locator(f"[data-testid=capture-option][data-move='{answers[0]['move']}']").click()
        page.wait_for_function(
            f"() => Number(document.querySelector('#screen-table').dataset.state) > {state}"
        )
        expect(page.locator("#hand [data-advised='1']")).to_have_count(0)
        expect(status).to_have_attribute("data-advice", "false")
        # with the Ayudas off, no advice is offered
        assert wait_step(page) == "ready"
        page.get_by_test_id("ayudas-toggle").click()
        expect(ask).to_be_hidden()
        page.get_by_test_id("ayudas-toggle").click()
        expect(ask).to_be_visible()
        assert not log.errors, log.errors
    finally:
        ctx.close()
