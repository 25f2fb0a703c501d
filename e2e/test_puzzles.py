"""The puzzles in the page (issue 29, docs/web.md "Puzzles"), at 1280×800 and 360×740: the first puzzle as
its seat sees it, the answer tapped (right: the streak grows, the puzzle's rating goes down and the person's
up), the next puzzle, a wrong card (the streak ends, the answer told with the chances, the puzzle's rating
up and the person's down), a wrong puzzle reported with a reason (stored on the server), the streak kept
across a reload, the words in English.
"""

from __future__ import annotations

from harness import PageLog, Server
from playwright.sync_api import Page, expect

from cuarenta.analysis.puzzles import Puzzle, shipped
from cuarenta.moves import Move
from cuarenta.server.store import DB_NAME, Store
from cuarenta.server.store.puzzles import reports


def cards(page: Page, testid: str) -> list[str]:
    return (
        page.get_by_test_id(testid).locator("[data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
    )


def play(page: Page, move: Move) -> None:
    """Tap the move's card, and its way when the card has several."""
    page.get_by_test_id("puzzle-hand").locator(f'[data-card="{move.card}"]').click()
    ways = page.get_by_test_id("puzzle-way")
    if ways.count():
        ways.and_(page.locator(f'[data-move="{move}"]')).click()


def a_wrong_move(puzzle: Puzzle) -> Move:
    game = puzzle.game()
    return next(a for a in game.legal_moves() if isinstance(a, Move) and not puzzle.solves(a))


def check_position(page: Page, puzzle: Puzzle) -> None:
    game = puzzle.game()
    expect(page.get_by_test_id("puzzle-where")).to_have_attribute("data-id", puzzle.id)
    assert cards(page, "puzzle-hand") == [str(c) for c in game.hand(game.turn)]
    assert cards(page, "puzzle-table") == [str(c) for c in game.table]
    assert sorted(cards(page, "puzzle-unseen")) == sorted(str(c) for c in game.hand(1 - game.turn))


def ratings(page: Page) -> tuple[int, int, int]:
    """The puzzle's rating before and after the answer, and the person's, as the page shows them."""
    told = page.get_by_test_id("puzzle-rating")
    before, after = told.get_attribute("data-before"), told.get_attribute("data-after")
    mine = page.get_by_test_id("puzzle-solver-rating").get_attribute("data-rating")
    assert before is not None and after is not None and mine is not None
    return int(before), int(after), int(mine)


def test_puzzles_with_a_streak(sized: tuple[Page, PageLog], server: Server) -> None:
    first, second = shipped()[0], shipped()[1]
    assert isinstance(first.answer, Move)
    page, log = sized
    page.goto(server.url)
    page.get_by_test_id("open-puzzles").click()
    expect(page.get_by_test_id("puzzles")).to_be_visible()
    check_position(page, first)
    expect(page.get_by_test_id("puzzle-streak")).to_have_attribute("data-streak", "0")
    # the rating shown is the puzzle's current one (the other size's run may have moved it already)
    shown = int(page.get_by_test_id("puzzle-where").get_attribute("data-rating") or "0")
    play(page, first.answer)
    told = page.get_by_test_id("puzzle-told")
    expect(told).to_have_attribute("data-right", "1")
    expect(told).to_contain_text("¡Correcto! Racha: 1.")
    expect(told).to_contain_text(f"deja {round(100 * first.values[0][1])} de cada 100 chances")
    expect(page.get_by_test_id("puzzle-streak")).to_have_attribute("data-streak", "1")
    # solved at a first try (a new browser: a new solver at 1500): the puzzle down, the person up
    before, after, mine = ratings(page)
    assert before == shown and after < before and mine > 1500
    expect(page.get_by_test_id("puzzle-rating")).to_contain_text(f"del problema: {before} → {after}.")
    expect(page.get_by_test_id("puzzle-solver-rating")).to_contain_text(f"en problemas: {mine}")
    page.get_by_test_id("puzzle-next").click()
    check_position(page, second)
    play(page, a_wrong_move(second))
    expect(told).to_have_attribute("data-right", "0")
    expect(told).to_contain_text("No. La mejor era")
    expect(page.get_by_test_id("puzzle-streak")).to_have_attribute("data-streak", "0")
    expect(page.get_by_test_id("puzzle-streak")).to_contain_text("la mejor: 1")
    # missed: the puzzle up, the person down
    before2, after2, mine2 = ratings(page)
    assert after2 > before2 and mine2 < mine
    # a wrong puzzle reported: the button opens a small form, an empty reason is not sent
    page.get_by_test_id("puzzle-report").click()
    reason = page.get_by_test_id("puzzle-report-reason")
    expect(reason).to_be_focused()
    page.get_by_test_id("puzzle-report-send").click()
    expect(page.get_by_test_id("puzzle-reported")).to_have_count(0)
    why = f"La respuesta parece mal ({page.viewport_size['width'] if page.viewport_size else 0} px)"
    reason.fill(why)
    page.get_by_test_id("puzzle-report-send").click()
    expect(page.get_by_test_id("puzzle-reported")).to_be_visible()
    expect(page.get_by_test_id("puzzle-report")).to_have_count(0)
    store = Store(server.data_dir / DB_NAME)
    try:
        assert why in [r.reason for r in reports(store, second.id)]
    finally:
        store.close()
    # the streak and the place are this browser's: a reload goes on after the last puzzle seen
    page.reload()
    page.get_by_test_id("open-puzzles").click()
    check_position(page, shipped()[2])
    page.get_by_test_id("lang-switch").click()
    expect(page.get_by_test_id("puzzle-streak")).to_contain_text("Streak: 0 (best: 1)")
    expect(page.get_by_test_id("puzzle-where")).to_contain_text(f"Puzzle 3 of {len(shipped())}")
    # nothing scrolls sideways, on a phone either
    assert page.evaluate("document.scrollingElement.scrollWidth") <= page.viewport_size["width"]  # type: ignore[index]
    assert not log.errors, log.errors


def test_a_sampled_puzzle_says_the_stock_may_hold_the_unseen_cards(
    sized: tuple[Page, PageLog], server: Server
) -> None:
    """The first sampled puzzle (cards still in the stock), reached as the page reaches it: after the one
    before it. The task and the unseen cards' heading say the stock may hold them."""
    puzzles = shipped()
    index = next(i for i, p in enumerate(puzzles) if p.kind == "sampled")
    puzzle = puzzles[index]
    page, log = sized
    page.goto(server.url)
    seen = {"streak": 0, "best": 0, "solved": 0, "tried": 0, "last": puzzles[index - 1].id}
    page.evaluate("r => localStorage.setItem('cuarenta.puzzles', JSON.stringify(r))", seen)
    page.get_by_test_id("open-puzzles").click()
    game = puzzle.game()
    expect(page.get_by_test_id("puzzle-where")).to_have_attribute("data-id", puzzle.id)
    expect(page.get_by_test_id("puzzle-task")).to_have_attribute("data-kind", "sampled")
    expect(page.get_by_test_id("puzzle-task")).to_contain_text("Aún quedan cartas en el mazo")
    unseen = sorted(cards(page, "puzzle-unseen"))
    assert unseen == sorted(str(c) for c in [*game.hand(1 - game.turn), *game.stock])
    assert cards(page, "puzzle-hand") == [str(c) for c in game.hand(game.turn)]
    expect(
        page.get_by_role("heading", name="Cartas que no has visto (en la mano del rival o en el mazo)")
    ).to_be_visible()
    play(page, puzzle.answer)
    expect(page.get_by_test_id("puzzle-told")).to_have_attribute("data-right", "1")
    assert not log.errors, log.errors
