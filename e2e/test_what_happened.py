"""What just happened is always right (issue 17, item 1; docs/web.md "Announcements").

The page's own recorder (an init script) checks, at every change of the table screen — so after every
move, as it is drawn, and as each bubble appears — that:

- the "last play" strip tells the same play as the log's newest play line (`.last-play-text` against
  `.log-text`), and is empty when the log has none;
- a bubble on screen tells an event of the newest moment of the log (the log's lines from its last
  move on — a play or a claim —, or the whole log before the hand's first move): never an older event
  than the one the table shows;
- the bubble lies inside the strip's own box and overlaps none of: the strip's line (issue 25: both stay
  readable, also while the bubble grows in), the hand, a seat's panel, a table card;
- each bubble's duration is the one of the pace chosen in the settings (`data-pace`, `data-duration`).

The checks run at every change of the page and, while a bubble is on screen, at every frame.
Single-player at 1280x800 (1v1) and 360x740 (2v2), and a table with friends (two people, one on a
1280x800 screen and one on a 360x740 phone, and two computer players), each for a whole hand.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from harness import (
    PHONE,
    STEP_JS,
    STEP_TIMEOUT_MS,
    Server,
    choose_first_option,
    close_summary,
    join_table,
    make_table,
    new_context,
    play_first_card,
    seated_context,
    start_game,
    wait_step,
    watch_page,
)
from playwright.sync_api import Browser, BrowserContext, Page, expect

_RECORDER = """
(() => {
  if (window.top !== window) return;
  const HEADS = ['play', 'claim'];
  const rec = window.__what = {checks: 0, plays: [], bubbles: [], problems: []};
  const seen = new WeakSet();
  const rect = (n) => { const r = n.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const drawn = (n) => {
    const r = n.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(n).visibility !== 'hidden';
  };
  const overlap = (a, b) => a[0] < b[2] - 0.5 && b[0] < a[2] - 0.5 && a[1] < b[3] - 0.5 && b[1] < a[3] - 0.5;
  const inside = (a, b) => a[0] >= b[0] - 1 && a[1] >= b[1] - 1 && a[2] <= b[2] + 1 && a[3] <= b[3] + 1;
  const all = (sel) => document.querySelectorAll(sel);
  const problem = (text) => { if (rec.problems.length < 20) rec.problems.push(text); };
  function check() {
    const screen = document.querySelector('#screen-table');
    const strip = document.querySelector('#last-play');
    if (!screen || screen.hidden || !strip || !screen.dataset.state) return;
    rec.checks += 1;
    const items = [...document.querySelectorAll('#log li')];
    const kinds = items.map((li) => (li.className.match(/\\blog-(\\w+)/) || [])[1] || '');
    const texts = items.map((li) => (li.querySelector('.log-text')?.textContent ?? '').trim());
    let head = -1;
    kinds.forEach((k, i) => { if (HEADS.includes(k)) head = i; });
    const newest = texts.slice(Math.max(head, 0));
    // the strip and the log tell the same last play
    const lastPlay = kinds.lastIndexOf('play');
    const want = lastPlay < 0 ? null : texts[lastPlay];
    const said = strip.hidden ? null : (strip.querySelector('.last-play-text')?.textContent ?? '').trim();
    const quote = JSON.stringify;
    if (said !== want) problem(`the strip says ${quote(said)}, the log's last play ${quote(want)}`);
    // plays made before the page first drew the table (a computer may play before a page opens) are
    // never seen on the strip: all but the newest of them are counted apart
    if (rec.initial === undefined) rec.initial = kinds.filter((k) => k === 'play').length;
    if (want !== null && rec.plays[rec.plays.length - 1] !== want) rec.plays.push(want);
    // the bubble: the newest moment, in the strip's box, over nothing else
    const bubble = document.querySelector('#announce.show [data-testid=saying]');
    if (!bubble) return;
    const text = (bubble.querySelector('.bubble-text')?.textContent ?? '').trim();
    if (!newest.includes(text)) {
      problem(`the bubble says ${quote(text)}, the newest moment of the log is ${quote(newest)}`);
    }
    const box = rect(bubble);
    if (!inside(box, rect(strip))) problem(`the bubble ${box} is outside the strip ${rect(strip)}`);
    const others = [
      ...[...all('#last-play-line')].map((n) => ["the strip's line", n]),
      ...[...all('#hand')].map((n) => ['the hand', n]),
      ...[...all('#hand .hand-card')].map((n) => [`hand card ${n.dataset.card}`, n]),
      ...[...all('.seat')].map((n) => [`seat panel ${n.dataset.testid}`, n]),
      ...[...all('#table-cards .table-card')].map((n) => [`table card ${n.dataset.card}`, n]),
    ];
    for (const [name, node] of others) {
      if (drawn(node) && overlap(box, rect(node))) problem(`the bubble ${box} covers ${name} ${rect(node)}`);
    }
    if (!seen.has(bubble)) {
      seen.add(bubble);
      const chosen = document.querySelector('[data-testid=settings]')?.dataset.pace ?? null;
      rec.bubbles.push({kind: bubble.dataset.kind, text, pace: bubble.dataset.pace, chosen,
                        duration: Number(bubble.dataset.duration)});
    }
  }
  new MutationObserver(check).observe(document, {
    subtree: true, childList: true, characterData: true, attributes: true,
    attributeFilter: ['class', 'hidden', 'data-move', 'data-state', 'open'],
  });
  // and at every frame while a bubble is on screen (it grows in: its box changes with no mutation)
  const frame = () => {
    if (document.querySelector('#announce [data-testid=saying]')) check();
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})();
"""


def record(page: Page) -> dict[str, Any]:
    return dict(page.evaluate("() => window.__what"))


def assert_right(rec: dict[str, Any], where: str, plays: int) -> None:
    """No problem recorded, every play of the hand was seen on the strip, and bubbles were checked."""
    assert not rec["problems"], f"{where}: {rec['problems']}"
    before = max(int(rec.get("initial") or 0) - 1, 0)  # played before the page's first drawing of the table
    assert len(rec["plays"]) + before >= plays, (
        f"{where}: only {len(rec['plays'])} plays seen on the strip ({before} before the page drew the table)"
    )
    assert rec["bubbles"], f"{where}: no bubble was shown in a whole hand"
    for b in rec["bubbles"]:
        assert b["pace"] == b["chosen"], f"{where}: a bubble at pace {b['pace']}, settings {b['chosen']}"


def play_one_hand(page: Page) -> None:
    """Play the person's turns (first card, first option) until the first hand's summary, then close it."""
    for _ in range(200):
        kind = wait_step(page)
        if kind == "summary":
            close_summary(page)
            return
        if kind == "ready":
            play_first_card(page)
        elif kind == "choice":
            choose_first_option(page)
        else:
            raise AssertionError(f"the mesa ended before its first hand did ({kind})")
    raise AssertionError("too many turns for one hand")


@pytest.mark.parametrize(
    ("width", "height", "players", "preset", "seed", "motion"),
    [
        (1280, 800, 2, "basico", 3, "no-preference"),  # the bubble grows in, the cards fly
        (PHONE["width"], PHONE["height"], 4, "a_todo_rigor", 5, "reduce"),
    ],
)
def test_single_player_a_whole_hand(
    browser: Browser,
    base_url: str,
    width: int,
    height: int,
    players: int,
    preset: str,
    seed: int,
    motion: str,
) -> None:
    context = new_context(browser, width=width, height=height, reduced_motion=motion)
    try:
        context.add_init_script(_RECORDER)
        page = context.new_page()
        log = watch_page(page)
        start_game(page, base_url, players=players, preset=preset, seed=seed)
        play_one_hand(page)
        # a hand is 40 cards: every one of them was shown on the strip, and checked there
        assert_right(record(page), f"{width}x{height}", plays=40)
        assert not log.errors, log.errors
    finally:
        context.close()


# -- a table with friends (docs/tables.md), as e2e/test_friends_table.py makes one ------------------


def open_seat(browser: Browser, answer: dict[str, Any], size: dict[str, int]) -> BrowserContext:
    """A browser context at ``size`` whose page is seated at the table (the session a saved game keeps)."""
    extra: dict[str, Any] = {"is_mobile": True, "has_touch": True} if size == PHONE else {}
    context = seated_context(browser, answer, **size, **extra)
    context.add_init_script(_RECORDER)
    return context


def test_friends_table_a_whole_hand(browser: Browser, server: Server) -> None:
    made = make_table(server, players=4, seats=["friend", "facil", "facil"])
    beto = join_table(server, made, "Beto")
    desktop = {"width": 1280, "height": 800}
    contexts = [open_seat(browser, made, desktop), open_seat(browser, beto, PHONE)]
    try:
        pages, logs = [], []
        for context in contexts:
            page = context.new_page()
            logs.append(watch_page(page))
            page.goto(server.url)
            expect(page.get_by_test_id("hand-card").first).to_be_visible(timeout=STEP_TIMEOUT_MS)
            pages.append(page)
        done = [False, False]
        end = time.monotonic() + 240
        while not all(done):
            assert time.monotonic() < end, "the first hand did not end in time"
            for i, page in enumerate(pages):
                kind = None if done[i] else page.evaluate(STEP_JS)
                if kind == "ready":
                    play_first_card(page)
                elif kind == "choice":
                    choose_first_option(page)
                elif kind == "summary":
                    done[i] = True  # left open: the hand is over on this page
                elif kind in ("error", "over"):
                    raise AssertionError(f"page {i} shows {kind}")
            pages[0].wait_for_timeout(50)  # the other page's turn or the computers': look again
        for page, where in zip(pages, ("Ana at 1280x800", "Beto at 360x740"), strict=True):
            assert_right(record(page), where, plays=40)
        for log in logs:
            assert not log.errors, log.errors
    finally:
        for context in contexts:
            context.close()


# -- the pace ---------------------------------------------------------------------------------------
def test_the_bubble_lasts_by_the_chosen_pace(browser: Browser, base_url: str) -> None:
    """Each bubble's duration is its pace's (`data-duration`), the pace chosen in the settings at the
    time; a slower pace gives a longer bubble, and even the fast one leaves two seconds to read. A
    language switch words the bubble again, as the log."""
    context = new_context(browser)
    try:
        context.add_init_script(_RECORDER)
        page = context.new_page()
        log = watch_page(page)
        start_game(page, base_url, preset="basico", seed=3)
        durations: dict[str, set[int]] = {}
        for pace in ("slow", "fast", "normal"):
            box = page.get_by_test_id("settings")
            if not box.evaluate("e => e.open"):
                page.get_by_test_id("settings-toggle").click()
            page.get_by_test_id(f"pace-{pace}").check()
            expect(box).to_have_attribute("data-pace", pace)
            page.get_by_test_id("settings-toggle").click()  # closed again: the table is in view
            for _ in range(60):
                rec = record(page)
                if any(b["pace"] == pace for b in rec["bubbles"]):
                    break
                kind = wait_step(page)
                if kind == "ready":
                    play_first_card(page)
                elif kind == "choice":
                    choose_first_option(page)
                elif kind == "summary":
                    close_summary(page)
                else:
                    raise AssertionError(f"the mesa ended ({kind})")
            rec = record(page)
            assert not rec["problems"], rec["problems"]
            for b in rec["bubbles"]:
                assert b["pace"] == b["chosen"], b
                durations.setdefault(b["pace"], set()).add(b["duration"])
        # a language switch words the bubble again, as the log (the recorder compares them at every change)
        shown = page.locator("#announce.show [data-testid=saying] .bubble-text")
        for _ in range(60):
            kind = wait_step(page)
            if kind == "ready" and shown.count():
                words = shown.inner_text()
                page.get_by_test_id("lang-switch").click()
                expect(page.locator("html")).to_have_attribute("lang", "en")
                expect(shown).not_to_have_text(words)  # nobody moves: the same bubble, in English
                break
            if kind == "ready":
                play_first_card(page)
            elif kind == "choice":
                choose_first_option(page)
            elif kind == "summary":
                close_summary(page)
        else:
            raise AssertionError("no bubble on the person's turn in 60 turns")
        assert not record(page)["problems"], record(page)["problems"]
        assert all(len(d) == 1 for d in durations.values()), durations  # one duration per pace
        slow, normal, fast = (min(durations[p]) for p in ("slow", "normal", "fast"))
        assert slow > normal > fast >= 2000, durations
        assert not log.errors, log.errors
    finally:
        context.close()
