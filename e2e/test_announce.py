"""Announcements, Ayudas, the lost connection, the marks' legend and the tips (issue 8, brief B).

- When the turn comes back to the person, the bubble shows the newest move's announcement (a scoring
  event before a plain play's saying of the same move), or nothing when that move said nothing (issue 17),
  and it covers no seat panel (1280x800, 360x740).
- With Ayudas, a card that makes caída y limpia says both.
- While the socket is down, the hand's cards are disabled and the table says it is reconnecting.
- The legend of the tanto/perro marks and the tips, in both languages, by keyboard.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from harness import (
    ANNOUNCED,
    SCORING,
    PageLog,
    Server,
    choose_first_option,
    close_summary,
    new_context,
    play_first_card,
    start_game,
    wait_step,
    watch_page,
)
from playwright.sync_api import Browser, Page, expect

#: Seed 2, básico, 1v1 against facil: the person's fifth turn has Ah xAc, a caída y limpia
#: (found by playing the first card of the hand, as the test does).
CAIDA_LIMPIA_SEED = 2


def priority(event: dict[str, Any]) -> int:
    return SCORING.get(str(event["kind"]), 1)


#: The events that start a moment (announce.js): a move, with what follows it up to the next move.
MOVES = ("play", "claim")


def newest_line(frames: list[dict[str, Any]]) -> tuple[int, dict[str, Any] | None] | None:
    """The announcement the page should show after ``frames`` (issue 17): of the newest state message with
    events, its newest moment (its events from its last move on), the highest-priority announced event
    (the last of equals) — or None when that moment announces nothing: an older bubble is not shown."""
    for msg in reversed(frames):
        events = msg.get("events", [])
        if not events:
            continue
        start = max((i for i, e in enumerate(events) if e["kind"] in MOVES), default=0)
        lines = [e for e in events[start:] if e["kind"] in ANNOUNCED or e.get("sayings")]
        if not lines:
            return int(msg["state"]), None
        best = lines[0]
        for e in lines[1:]:
            if priority(e) >= priority(best):
                best = e
        return int(msg["state"]), best
    return None


def bubble(page: Page) -> dict[str, Any] | None:
    """The bubble on screen (shown, not fading out): its kind, sayings, state and box."""
    out = page.evaluate(
        """() => {
          const box = document.querySelector('#announce');
          const b = box.querySelector('[data-testid="saying"]');
          if (!b || !box.classList.contains('show')) return null;
          const r = b.getBoundingClientRect();
          return {kind: b.dataset.kind, sayings: b.dataset.sayings, state: b.dataset.state ?? null,
                  box: [r.left, r.top, r.right, r.bottom]};
        }"""
    )
    return out if out is None else dict(out)


def seat_boxes(page: Page) -> list[tuple[str, list[float]]]:
    raw = page.evaluate(
        """() => [...document.querySelectorAll('.seat')].filter(n => n.offsetParent).map(n => {
          const r = n.getBoundingClientRect();
          return [n.dataset.testid, [r.left, r.top, r.right, r.bottom]];
        })"""
    )
    return [(str(name), list(box)) for name, box in raw]


def overlaps(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize(
    ("width", "height", "players", "preset", "seed"),
    [(1280, 800, 2, "basico", 3), (360, 740, 4, "a_todo_rigor", 5)],
)
def test_the_newest_announcement_is_on_screen_on_my_turn_and_covers_no_seat(
    browser: Browser, base_url: str, width: int, height: int, players: int, preset: str, seed: int
) -> None:
    """At every turn of the person: the bubble on screen tells the newest moment — the heaviest
    announcement of the newest move (a scoring event over a plain play's saying), or nothing when that
    move announced nothing (issue 17: before, an older scoring bubble stayed while newer plays came) —
    and it covers no seat panel."""
    context = new_context(browser, width=width, height=height)
    try:
        page = context.new_page()
        log = watch_page(page)
        start_game(page, base_url, players=players, preset=preset, seed=seed)
        checked = nothing = 0
        since = 0  # frames received when the person last moved
        for _ in range(60):
            kind = wait_step(page)
            if kind == "over":
                break
            if kind == "summary":
                # the end's announcements were shown before its summary (e2e/test_sequence.py), which
                # the person has now closed: count from here
                since = len(log.states())
                close_summary(page)
                continue
            if kind == "choice":
                choose_first_option(page)
                continue
            frames = log.states()
            expected = newest_line(frames[max(since, 1) :])  # the join's answer is not announced
            if expected is not None:
                state, event = expected
                shown = bubble(page)
                if event is None:
                    said = f"the newest move (state {state}) said nothing"
                    assert shown is None, f"the bubble shows {shown}; {said}"
                    nothing += 1
                else:
                    assert shown is not None, f"nothing on screen; the newest announcement is {event['kind']}"
                    assert (shown["kind"], shown["sayings"]) == (event["kind"], " ".join(event["sayings"])), (
                        f"the bubble shows {shown['kind']} {shown['sayings']!r}, the newest announcement is "
                        f"{event['kind']} {event['sayings']} (state {state})"
                    )
                    assert shown["state"] == str(state)
                    for name, box in seat_boxes(page):
                        where = f"{width}x{height}"
                        assert not overlaps(shown["box"], box), f"the bubble covers {name} at {where}"
                    checked += 1
            since = len(log.states())
            play_first_card(page)
        assert checked >= 3, f"only {checked} turns came after an announcement"
        assert nothing >= 1, "no turn came after a move that said nothing"
        assert not log.errors, log.errors
    finally:
        context.close()


def test_ayudas_show_caida_y_limpia(page: Page, base_url: str, page_log: PageLog) -> None:
    """A card that makes caída y limpia (the server's `moves`) says both in its badge and its label."""
    start_game(page, base_url, preset="basico", seed=CAIDA_LIMPIA_SEED)
    # on for a newcomer (issue 17)
    expect(page.get_by_test_id("ayudas-toggle")).to_have_attribute("aria-pressed", "true")
    for _ in range(40):
        kind = wait_step(page)
        if kind == "summary":
            close_summary(page)
            continue
        if kind == "choice":
            choose_first_option(page)
            continue
        assert kind == "ready", "the mesa ended before a caída y limpia"
        msg = page_log.states()[-1]
        both = [m["move"].split(" ")[0] for m in msg["moves"] if m["caida"] and m["limpia"]]
        if both:
            card = page.locator(f'#hand [data-testid="hand-card"][data-card="{both[0]}"]')
            badges = " ".join(card.locator(".badge").all_inner_texts()).lower()
            assert "caída" in badges and "limpia" in badges, f"the badges say {badges!r}"
            label = (card.get_attribute("aria-label") or "").lower()
            assert "caída" in label and "limpia" in label, label
            page.get_by_test_id("lang-switch").click()
            expect(page.locator("html")).to_have_attribute("lang", "en")
            badges = " ".join(card.locator(".badge").all_inner_texts()).lower()
            assert "caída" in badges and "limpia" in badges, f"the badges say {badges!r} in English"
            return
        play_first_card(page)
    raise AssertionError("no caída y limpia in 40 turns")


def test_cards_are_disabled_while_disconnected(browser: Browser, own_server: Server) -> None:
    context = new_context(browser)
    try:
        page = context.new_page()
        log = watch_page(page)
        start_game(page, own_server.url, preset="basico", seed=4)
        assert wait_step(page) == "ready"
        cards = page.get_by_test_id("hand-card")
        expect(page.locator('#hand [data-testid="hand-card"][aria-disabled="false"]').first).to_be_visible()
        own_server.stop()
        expect(page.locator('#hand [data-testid="hand-card"][aria-disabled="false"]')).to_have_count(0)
        expect(page.get_by_test_id("reconnecting")).to_be_visible()
        assert cards.count() > 0
        for i in range(cards.count()):
            expect(cards.nth(i)).to_have_attribute("aria-disabled", "true")
            assert "disabled" in (cards.nth(i).get_attribute("class") or "")
        expect(page.locator("#hand")).not_to_have_class("my-turn")
        own_server.start()
        assert wait_step(page) == "ready"
        expect(page.get_by_test_id("reconnecting")).to_be_hidden()
        expect(page.locator('#hand [data-testid="hand-card"][aria-disabled="false"]').first).to_be_visible()
        play_first_card(page)
        assert wait_step(page) in {"ready", "choice", "summary"}
        # the browser reports the refused reconnection attempts while the server was down
        errors = [e for e in log.errors if "ERR_CONNECTION_REFUSED" not in e]
        assert not errors, errors
    finally:
        context.close()


def texts(server_url: str, lang: str) -> dict[str, str]:
    with __import__("urllib.request").request.urlopen(f"{server_url}api/texts/{lang}") as res:
        return dict(json.load(res)["texts"])


@pytest.mark.parametrize("lang", ["es", "en"])
def test_legend_and_tips_by_keyboard(page: Page, base_url: str, lang: str) -> None:
    catalogue = texts(base_url, lang)
    page.goto(base_url)
    if lang == "en":
        page.get_by_test_id("lang-switch").click()
    expect(page.locator("html")).to_have_attribute("lang", lang)
    # the tips from the start screen, by keyboard
    opener = page.get_by_test_id("tips-open-new")
    opener.focus()
    page.keyboard.press("Enter")
    dialog = page.get_by_test_id("tips")
    expect(dialog).to_be_visible()
    expect(dialog.locator("h2")).to_have_text(catalogue["page.tips.title"])
    items = dialog.locator("li")
    assert items.count() >= 4
    expect(items.first).to_have_text(catalogue["page.tips.1"])
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    # at the table: the tips again, and the legend of the marks
    start_game(page, base_url, preset="basico", seed=4, goto=False)
    page.get_by_test_id("table-menu-toggle").click()  # the tips and the legend are in the table menu
    page.get_by_test_id("tips-open-table").click()
    expect(dialog).to_be_visible()
    page.get_by_test_id("tips-close").click()
    expect(dialog).to_be_hidden()
    expect(page.get_by_test_id("table-menu")).not_to_have_attribute("open", "")  # the action closed the menu
    page.get_by_test_id("table-menu-toggle").click()
    legend = page.get_by_test_id("marks-legend")
    summary = legend.locator("summary")
    expect(summary).to_have_text(catalogue["page.legend.title"])
    summary.focus()
    page.keyboard.press("Enter")
    expect(legend.get_by_text(catalogue["page.legend.tanto"])).to_be_visible()
    expect(legend.get_by_text(catalogue["page.legend.perro"])).to_be_visible()
    assert legend.locator("svg").count() >= 2
