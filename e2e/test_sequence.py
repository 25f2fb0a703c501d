"""The end of a hand, of a chica and of the mesa, in order (issue 8): the last move on the table, its
announcement, the summary over THAT final table, and the next deal only after the player continues;
a chica that ends in the middle of a hand is called the end of a chica, not the mesa's result; the
felt at the end of the mesa shows the table the result speaks of. Also: the dealer draw leaves the
felt on its own, and every play is shown on the table (not only in the log).

Issue 25: a chica decided by a ronda at the next deal shows that ronda (announced, in the log, in the
summary or the result: every point that decides a chica is shown), and the end of the mesa comes after
the move that ends it has crossed the table (nothing of the end while its cards fly)."""

from __future__ import annotations

from typing import Any

import pytest
from harness import (
    PHONE,
    STEP_TIMEOUT_MS,
    PageLog,
    choose_first_option,
    close_summary,
    fix_seed,
    hand_cards,
    new_context,
    play_first_card,
    scores,
    start_game,
    state_number,
    table_cards,
    wait_step,
    watch_page,
)
from playwright.sync_api import Browser, BrowserContext, Page, expect

#: Rules that end a chica fast: a chica to 10 (the ronda limit off, as the engine asks for a short target),
#: two chicas to win the mesa, so the mesa goes on after the first.
SHORT_RULES: dict[str, Any] = {"target": 10, "ronda_limit": None, "chicas": 2}
#: With SHORT_RULES and the page's first-card player: the computer's caída ends chica 1 in the middle
#: of a hand (state 22), and another caída in the middle of a hand ends the mesa.
MID_HAND_SEED = 2
#: basico: a whole first hand played to its end without the chica ending.
HAND_SEED = 11
#: basico's options with a chica to 20 (basico has no ronda limit and no "38 que no juega": a ronda
#: scores its 2 points at any score); ``chicas`` is set by each test.
RONDA_RULES: dict[str, Any] = {
    "target": 20,
    "caida_ronda_points": 0,
    "ronda_limit": None,
    "treinta_y_ocho": False,
}
#: With RONDA_RULES and the page's first-card player against facil: hand 1 ends with the computer at 18
#: (its cartón), and the first deal of hand 2 gives it a ronda of jotas: 20, the chica (the person's 20th
#: move ends the hand; found with the engine and the server's seeded computer, as the page plays).
RONDA_NEXT_HAND_SEED = 351
#: With RONDA_RULES: the computer's caída y limpia ends deal 3 of hand 1 at 18, and deal 4 gives it a
#: ronda of reinas: 20, the chica, in the middle of the hand (the person's 15th move).
RONDA_MID_HAND_SEED = 402

_RECORDER = """
window.__seq = [];
new MutationObserver((records) => {
  for (const r of records) {
    if (r.type === 'childList' && r.target.id === 'announce') {
      for (const n of r.addedNodes) {
        if (n.dataset && n.dataset.kind) window.__seq.push('bubble:' + n.dataset.kind);
      }
    }
    const opened = r.type === 'attributes' && r.target.id === 'summary-dialog' && r.target.open;
    if (opened) window.__seq.push('summary');
    const result = r.type === 'attributes' && r.target.id === 'result' && !r.target.hidden;
    if (result && window.__seq[window.__seq.length - 1] !== 'result') window.__seq.push('result');
  }
}).observe(document, {subtree: true, childList: true, attributes: true, attributeFilter: ['open', 'hidden']});
"""


def short_rooms(page: Page, seed: int, rules: dict[str, Any]) -> None:
    """The rooms this page creates: seed ``seed`` (a practice room) and the custom ``rules``."""
    fix_seed(page, seed, rules)


def _taken(move: str) -> tuple[str, list[str]]:
    card, _, rest = move.partition(" x")
    if not rest:
        return card.strip(), []
    base, *run = rest.split(",")
    return card.strip(), [*base.split("+"), *run]


def final_table(before: list[str], events: list[dict[str, Any]]) -> list[str]:
    """The table right after the ending in ``events`` (what the page must show behind its summary)."""
    table = list(before)
    for e in events:
        if e["kind"] == "play":
            card, taken = _taken(e["move"])
            table = [c for c in table if c not in taken] if taken else [*table, card]
        elif e["kind"] == "claim":
            table = [c for c in table if c not in e["cards"]]
        elif e["kind"] == "hand_end":
            table = list(e["leftovers"])
        if e["kind"] in ("hand_end", "chica_won"):
            break
    return table


def ending(log: PageLog, kinds: tuple[str, ...]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The first received ``state`` whose events hold one of ``kinds``, and the message before it."""
    states = log.states()
    for i, msg in enumerate(states):
        if i and any(e["kind"] in kinds for e in msg["events"]):
            return states[i - 1], msg
    raise AssertionError(f"no state message with {kinds}")


def play_until(page: Page, stop: tuple[str, ...]) -> str:
    """Play first cards (first options) until the page needs the person for one of ``stop``."""
    for _ in range(400):
        kind = wait_step(page)
        if kind in stop:
            return kind
        if kind == "ready":
            play_first_card(page)
        elif kind == "choice":
            choose_first_option(page)
        elif kind == "summary":
            close_summary(page)
        elif kind == "over":
            raise AssertionError("the mesa ended first")
    raise AssertionError("too many steps")


def status_text(page: Page) -> str:
    return page.get_by_test_id("status").inner_text()


def test_chica_ended_mid_hand_then_the_mesa(page: Page, page_log: PageLog, base_url: str) -> None:
    """Bug 1 and bug 3: the computer's caída ends chica 1 in the middle of a hand; the summary says the
    chica ended (not the mesa), over the table as the caída left it, after the caída was announced and
    with no older bubble; at the end of the mesa the felt shows the final table the result speaks of."""
    page.add_init_script(_RECORDER)
    short_rooms(page, MID_HAND_SEED, SHORT_RULES)
    start_game(page, base_url, preset="a_todo_rigor")
    assert play_until(page, ("summary",)) == "summary"

    before, msg = ending(page_log, ("chica_won",))
    kinds = [e["kind"] for e in msg["events"]]
    assert "hand_end" not in kinds and msg["status"] == "playing", kinds  # the scene this test is about
    scoring = ("caida", "limpia", "caida_limpia", "caida_ronda")
    winning = next(e for e in msg["events"] if e["kind"] in scoring)

    dialog = page.get_by_test_id("hand-summary")
    title = page.locator("#summary-title").inner_text()
    assert title != "Resultado de la mesa" and "mesa" not in title.lower(), title
    assert title == "Fin de la chica 1", title
    expect(dialog.get_by_test_id("summary-chica")).to_be_visible()
    chicas = dialog.get_by_test_id("summary-chicas").inner_text()
    bot = before["seats"][1]["name"]  # the computer's name (the server's, for every reader)
    assert chicas == f"Chicas hasta ahora: {bot} 1 – Ana 0.", chicas  # the leader first

    # behind it: the table as the caída left it, the old hand, nobody's turn
    expected = final_table(before["view"]["table"], msg["events"])
    assert sorted(table_cards(page)) == sorted(expected), (table_cards(page), expected)
    assert sorted(hand_cards(page)) == sorted(before["view"]["hand"]), "the hand of the hand that ended"
    screen = page.get_by_test_id("table-screen")
    assert screen.get_attribute("data-turn") != "me"
    assert "Tu turno" not in status_text(page)

    # the winning caída was announced before the dialog opened, and nothing older shows behind it
    seq = page.evaluate("() => window.__seq")
    opened = seq.index("summary")
    bubbles = [s for s in seq[:opened] if s.startswith("bubble:")]
    assert bubbles and bubbles[-1] == f"bubble:{winning['kind']}", seq
    head = {e["kind"] for e in msg["events"]}
    shown = page.locator("#announce.show [data-testid=saying]")
    if shown.count():
        assert shown.get_attribute("data-kind") in head, shown.get_attribute("data-kind")

    # the next deal only after "Seguir" (the new testid `continue`)
    page.get_by_test_id("continue").click()
    expect(dialog).to_be_hidden()
    expect(page.get_by_test_id("chicas-1")).to_have_text("1")

    # the mesa: its result over the final table
    assert play_until(page, ("over",)) == "over"
    before, msg = ending(page_log, ("mesa_won",))
    expect(page.get_by_test_id("result")).to_be_visible()
    expect(page.locator("#result-title")).to_have_text("Resultado de la mesa")
    expected = final_table(before["view"]["table"], msg["events"])
    assert expected, "this seed ends the mesa with cards on the table"
    assert sorted(table_cards(page)) == sorted(expected), (table_cards(page), expected)
    expect(page.locator("#table-empty")).to_be_hidden()


def test_hand_end_over_its_final_table(page: Page, page_log: PageLog, base_url: str) -> None:
    """Bug 2: the end-of-hand summary opens over the hand that ended (its table, no cards left in the
    hand, its number), not over the next hand already dealt with "Tu turno"; the next deal is drawn
    after "Seguir"."""
    page.add_init_script(_RECORDER)
    start_game(page, base_url, preset="basico", seed=HAND_SEED)
    assert play_until(page, ("summary",)) == "summary"
    _before, msg = ending(page_log, ("hand_end",))
    assert page.locator("#summary-title").inner_text() == "Fin de la mano 1"

    hand_end = next(e for e in msg["events"] if e["kind"] == "hand_end")
    assert sorted(table_cards(page)) == sorted(hand_end["leftovers"])
    assert hand_cards(page) == [], "the hand that ended has no card left"
    expect(page.get_by_test_id("hand-number")).to_have_text("Mano 1")
    assert page.get_by_test_id("table-screen").get_attribute("data-turn") != "me"
    assert "Tu turno" not in status_text(page)
    piles = [int(page.get_by_test_id(f"pile-{t}").get_attribute("data-count") or -1) for t in (0, 1)]
    assert piles == list(hand_end["pile_sizes"]), piles

    # the last move was shown before the summary: its announcement (if any) came first
    seq = page.evaluate("() => window.__seq")
    assert seq[-1] == "summary", seq

    page.get_by_test_id("continue").click()
    expect(page.get_by_test_id("hand-summary")).to_be_hidden()
    expect(page.get_by_test_id("hand-number")).to_have_text("Mano 2", timeout=STEP_TIMEOUT_MS)
    expect(page.get_by_test_id("hand-card")).to_have_count(5, timeout=STEP_TIMEOUT_MS)


def test_draw_panel_leaves_the_felt(page: Page, base_url: str) -> None:
    """Gap 5: the dealer draw does not cover the felt until the first move: it leaves on its own."""
    start_game(page, base_url, preset="basico", seed=HAND_SEED)
    panel = page.get_by_test_id("draw-panel")
    expect(panel).to_be_hidden(timeout=STEP_TIMEOUT_MS)
    expect(page.get_by_test_id("hand-card").first).to_be_visible()


def test_draw_panel_leaves_on_a_click(page: Page, base_url: str) -> None:
    """Gap 5: a click on the felt sends the draw away at once (before its own time)."""
    start_game(page, base_url, preset="basico", seed=HAND_SEED)
    panel = page.get_by_test_id("draw-panel")
    if panel.is_visible():
        page.locator("#felt").click(position={"x": 5, "y": 5})
        expect(panel).to_be_hidden()


def test_every_play_is_shown_on_the_table(page: Page, page_log: PageLog, base_url: str) -> None:
    """Gap 4: the last play — a capture that scores nothing too — is on the felt (not only in the log,
    which is collapsed on phones): the card played and what it took."""
    start_game(page, base_url, preset="basico", seed=HAND_SEED)
    checked = 0
    while checked < 4:
        kind = wait_step(page)
        if kind == "choice":
            choose_first_option(page)
            continue
        assert kind == "ready", kind
        shown_state = state_number(page)
        msg = next(m for m in page_log.states() if m["state"] == shown_state)
        plays = [e for e in msg["view"]["history"] if e["kind"] == "play"]
        if plays:
            last = page.get_by_test_id("last-play")
            expect(last).to_be_visible()
            move = plays[-1]["move"]
            assert last.get_attribute("data-move") == move
            card, taken = _taken(move)
            shown = last.locator("[data-card]").evaluate_all("n => n.map(e => e.dataset.card)")
            assert shown == [card, *taken], (shown, move)
            checked += 1
        play_first_card(page)


def test_capture_is_shown_then_goes_to_the_pile(browser: Browser, base_url: str) -> None:
    """Gap 4: with motion, a capture shows the cards it takes outlined, then they go to the pile; a key
    pressed while it runs finishes it at once (the page's own recorder presses it the moment the first
    outlined card appears, and counts the flying cards left a few frames later). With reduced motion
    nothing moves (the other tests run so)."""
    context = new_context(browser, reduced_motion="no-preference")
    try:
        page = context.new_page()
        page.add_init_script(
            """
            window.__taking = 0;
            window.__left = null;
            new MutationObserver((rs) => { for (const r of rs) for (const n of r.addedNodes) {
              if (!(n.classList && n.matches('.ghost.taking'))) continue;
              window.__taking += 1;
              if (window.__left !== null) continue;
              window.__left = -1;
              document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Shift'}));
              setTimeout(() => { window.__left = document.querySelectorAll('.ghost').length; }, 60);
            }}).observe(document, {subtree: true, childList: true});
            """
        )
        start_game(page, base_url, preset="basico", seed=HAND_SEED)
        for _ in range(40):
            kind = wait_step(page)
            if kind == "choice":
                choose_first_option(page)
            elif kind == "ready":
                if page.evaluate("() => window.__taking") > 0:
                    break
                play_first_card(page)
            elif kind == "summary":
                close_summary(page)
        assert page.evaluate("() => window.__taking") > 0, "a capture outlined what it took"
        page.wait_for_function("() => window.__left !== null && window.__left >= 0")
        assert page.evaluate("() => window.__left") == 0, "a key finished the capture's flight at once"
        expect(page.locator(".ghost")).to_have_count(0)
    finally:
        context.close()


# -- issue 25, item 12: a chica decided by a ronda at a deal -------------------------------------------
def ronda_line(page: Page) -> str:
    """The log's line of the ronda (its sentence, without its saying; the log may be folded on a phone)."""
    line = page.locator("#log li.log-ronda .log-text").last
    expect(line).to_be_attached()
    return (line.text_content() or "").strip()


def ronda_game(context: BrowserContext, base_url: str, seed: int, chicas: int) -> tuple[Page, PageLog]:
    """A page of ``context`` that starts the practice game ``seed`` with RONDA_RULES and ``chicas``, with
    the recorder of bubbles and dialogs; the page and what it logs."""
    page = context.new_page()
    log = watch_page(page)
    page.add_init_script(_RECORDER)
    short_rooms(page, seed, {**RONDA_RULES, "chicas": chicas})
    start_game(page, base_url, preset="a_todo_rigor")
    return page, log


def bubbles_before(seq: list[str], mark: str) -> list[str]:
    """The kinds of the bubbles shown before ``mark`` ("summary" or "result") first appears."""
    assert mark in seq, seq
    return [s.removeprefix("bubble:") for s in seq[: seq.index(mark)] if s.startswith("bubble:")]


@pytest.mark.parametrize(
    ("seed", "size"),
    [(RONDA_NEXT_HAND_SEED, (1280, 800)), (RONDA_MID_HAND_SEED, (PHONE["width"], PHONE["height"]))],
    ids=["after-the-hand-1280x800", "mid-hand-360x740"],
)
def test_a_ronda_that_ends_the_mesa_is_shown(
    browser: Browser, base_url: str, seed: int, size: tuple[int, int]
) -> None:
    """The mesa (one chica) ends with a ronda at a deal (after the hand's cartón, or in the middle of the
    hand): the ronda is announced before the result, it is in the log, and the result says it with its
    points beside the last hand's score; the scoreboard shows the chica's final score."""
    context = new_context(browser, width=size[0], height=size[1])
    try:
        page, log = ronda_game(context, base_url, seed, chicas=1)
        assert play_until(page, ("over",)) == "over"
        _before, msg = ending(log, ("mesa_won",))
        kinds = [e["kind"] for e in msg["events"]]
        at = kinds.index("chica_won")
        assert kinds[at - 1] == "ronda" and "deal" in kinds[:at], kinds  # the scene this test is about
        ronda = msg["events"][at - 1]
        won = next(e for e in msg["events"] if e["kind"] == "chica_won")

        bubbles = bubbles_before(page.evaluate("() => window.__seq"), "result")
        assert bubbles and bubbles[-1] == "ronda", bubbles  # announced last, before the result
        text = ronda_line(page)  # in the log
        assert f"+{ronda['points']}" in text, text
        said = page.get_by_test_id("result-deal")  # and in the result, with its points
        expect(said).to_be_visible()
        expect(said).to_contain_text(text)
        assert scores(page) == tuple(won["scores"]), (scores(page), won["scores"])
        expect(page.get_by_test_id("status")).to_have_text("La mesa terminó.")
        assert not log.errors, log.errors
    finally:
        context.close()


def test_a_ronda_that_ends_a_chica_is_in_its_summary(browser: Browser, base_url: str) -> None:
    """Two chicas: the first ends with a ronda at the first deal of hand 2. One summary, "Fin de la mano 1
    · Fin de la chica 1", over the hand's table, says the hand's score and the ronda with its points (not
    "decided before the hand ended"); the ronda was announced before it opened, and is in the log."""
    context = new_context(browser, width=PHONE["width"], height=PHONE["height"])
    try:
        page, log = ronda_game(context, base_url, RONDA_NEXT_HAND_SEED, chicas=2)
        assert play_until(page, ("summary",)) == "summary"
        _before, msg = ending(log, ("chica_won",))
        kinds = [e["kind"] for e in msg["events"]]
        assert kinds[kinds.index("chica_won") - 1] == "ronda" and "hand_end" in kinds, kinds
        assert page.locator("#summary-title").inner_text() == "Fin de la mano 1 · Fin de la chica 1"
        dialog = page.get_by_test_id("hand-summary")
        hand_end = next(e for e in msg["events"] if e["kind"] == "hand_end")
        shown = (
            int(dialog.get_by_test_id("summary-score-0").locator("strong").inner_text()),
            int(dialog.get_by_test_id("summary-score-1").locator("strong").inner_text()),
        )
        assert list(shown) == hand_end["end"]["scores"], shown
        expect(dialog.get_by_test_id("summary-deal")).to_contain_text(ronda_line(page))
        expect(dialog).not_to_contain_text("antes de acabar la mano")
        bubbles = bubbles_before(page.evaluate("() => window.__seq"), "summary")
        assert bubbles and bubbles[-1] == "ronda", bubbles
        assert not log.errors, log.errors
    finally:
        context.close()


# -- issue 25, item 13: the end after the move that ends it ------------------------------------------------
_END_RECORDER = """
(() => {
  const rec = window.__end = {problems: [], ghostScores: [], checks: 0};
  const check = () => {
    const ghosts = document.querySelectorAll('.ghost').length;
    if (!ghosts) return;
    rec.checks += 1;
    const status = (document.querySelector('#status')?.textContent ?? '').trim();
    const result = document.querySelector('#result');
    const what = [];
    if (status === 'La mesa terminó.') what.push(`the status says ${JSON.stringify(status)}`);
    if (result && !result.hidden) what.push('the result is shown');
    if (document.querySelector('#summary-dialog')?.open) what.push('the summary is open');
    if (what.length && rec.problems.length < 10) {
      rec.problems.push(`${what.join(', ')} while ${ghosts} cards fly`);
    }
    const score = [0, 1].map((t) => document.querySelector(`[data-testid=score-${t}]`)?.textContent ?? '');
    rec.ghostScores.push(score.map(Number));
  };
  new MutationObserver(check).observe(document, {subtree: true, childList: true, characterData: true,
    attributes: true, attributeFilter: ['hidden', 'open', 'class']});
})();
"""


def test_the_end_of_the_mesa_comes_after_its_last_move(browser: Browser, base_url: str) -> None:
    """With motion: while the caída that ends the mesa crosses the table, the status does not say the
    mesa ended, no result or summary is open and the scoreboard still shows the scores before it; the
    caída is announced, then the result opens (e2e's own recorder checks at every change while cards fly)."""
    context = new_context(browser, reduced_motion="no-preference")
    try:
        page = context.new_page()
        log = watch_page(page)
        page.add_init_script(_RECORDER)
        page.add_init_script(_END_RECORDER)
        short_rooms(page, MID_HAND_SEED, SHORT_RULES)
        start_game(page, base_url, preset="a_todo_rigor")
        assert play_until(page, ("over",)) == "over"
        before, msg = ending(log, ("mesa_won",))
        rec = page.evaluate("() => window.__end")
        assert rec["checks"], "no card flew"
        assert not rec["problems"], rec["problems"]
        final = tuple(msg["view"]["scores"])
        assert final != tuple(before["view"]["scores"])  # the last caída scored
        assert final not in {tuple(s) for s in rec["ghostScores"]}, "the final score showed while cards flew"
        scoring = next(
            e for e in msg["events"] if e["kind"] in ("caida", "caida_limpia", "limpia", "caida_ronda")
        )
        bubbles = bubbles_before(page.evaluate("() => window.__seq"), "result")
        assert bubbles and bubbles[-1] == scoring["kind"], bubbles
        expect(page.get_by_test_id("status")).to_have_text("La mesa terminó.")
        assert not log.errors, log.errors
    finally:
        context.close()
