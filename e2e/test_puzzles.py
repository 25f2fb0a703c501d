"""The puzzles in the page (issue 29, docs/web.md "Puzzles"), at 1280×800 and 360×740: the first puzzle as
its seat sees it, the answer tapped (right: the streak grows), the next puzzle, a wrong card (the streak
ends, the answer told with the chances), the streak kept across a reload, the words in English.
"""

from __future__ import annotations

from harness import PageLog, Server
from playwright.sync_api import Page, expect

from cuarenta.analysis.puzzles import Puzzle, shipped
from cuarenta.moves import Move


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


def test_puzzles_with_a_streak(sized: tuple[Page, PageLog], server: Server) -> None:
    first, second = shipped()[0], shipped()[1]
    assert isinstance(first.answer, Move)
    page, log = sized
    page.goto(server.url)
    page.get_by_test_id("open-puzzles").click()
    expect(page.get_by_test_id("puzzles")).to_be_visible()
    check_position(page, first)
    expect(page.get_by_test_id("puzzle-streak")).to_have_attribute("data-streak", "0")
    play(page, first.answer)
    told = page.get_by_test_id("puzzle-told")
    expect(told).to_have_attribute("data-right", "1")
    expect(told).to_contain_text("¡Correcto! Racha: 1.")
    expect(told).to_contain_text(f"deja {round(100 * first.values[0][1])} de cada 100 chances")
    expect(page.get_by_test_id("puzzle-streak")).to_have_attribute("data-streak", "1")
    page.get_by_test_id("puzzle-next").click()
    check_position(page, second)
    play(page, a_wrong_move(second))
    expect(told).to_have_attribute("data-right", "0")
    expect(told).to_contain_text("No. La mejor era")
    expect(page.get_by_test_id("puzzle-streak")).to_have_attribute("data-streak", "0")
    expect(page.get_by_test_id("puzzle-streak")).to_contain_text("la mejor: 1")
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
