"""Resuming in the browser: a reload mid-hand, and a server restart between two page loads, bring the
same hand and table back, and the game goes on."""

from __future__ import annotations

from dataclasses import dataclass

from harness import (
    PageLog,
    Server,
    choose_first_option,
    close_summary,
    hand_cards,
    local_storage,
    play_first_card,
    scores,
    seat_counts,
    start_game,
    state_number,
    table_cards,
    wait_step,
    watch_page,
)
from playwright.sync_api import BrowserContext, Page, expect

RESUME_SEED = 23


@dataclass(frozen=True)
class Seen:
    """The position as the page shows it on the person's turn."""

    state: int
    hand: list[str]
    table: list[str]
    scores: tuple[int, int]
    counts: dict[int, int]
    last_drop: str | None


def seen(page: Page) -> Seen:
    last = page.locator('#table-cards [data-testid=table-card][data-last-drop="1"]')
    return Seen(
        state=state_number(page),
        hand=hand_cards(page),
        table=table_cards(page),
        scores=scores(page),
        counts=seat_counts(page),
        last_drop=last.get_attribute("data-card") if last.count() else None,
    )


def play_moves(page: Page, n: int) -> Seen:
    """Play ``n`` cards of the person (first card, first option); returns what the page shows after."""
    played = 0
    while True:
        kind = wait_step(page)
        if kind == "ready":
            if played == n:
                return seen(page)
            play_first_card(page)
            played += 1
        elif kind == "choice":
            choose_first_option(page)
        elif kind == "summary":
            close_summary(page)
        else:
            raise AssertionError("the mesa ended before the moves were played")


def test_reload_mid_hand_and_server_restart(
    page: Page, page_log: PageLog, context: BrowserContext, own_server: Server
) -> None:
    start_game(page, own_server.url, players=2, level="facil", preset="a_todo_rigor", seed=RESUME_SEED)
    before = play_moves(page, 3)
    assert before.state > 0 and len(before.hand) == 2 and before.table, before
    session = local_storage(page)["cuarenta.session"]

    # a reload: the same hand and table, the same state number, and it is still the person's turn
    page.reload()
    assert wait_step(page) == "ready"
    assert seen(page) == before
    assert local_storage(page)["cuarenta.session"] == session
    expect(page.get_by_test_id("new-game")).to_be_hidden()

    # the game goes on from there
    after_moves = play_moves(page, 3)
    assert after_moves.state > before.state
    assert after_moves != before

    # the server stops and starts again on the same data; a new page load finds the game where it was
    page.close()
    own_server.restart()
    second = context.new_page()
    second_log = watch_page(second)
    second.goto(own_server.url)
    assert wait_step(second) == "ready"
    assert seen(second) == after_moves
    later = play_moves(second, 2)
    assert later.state > after_moves.state
    assert not second_log.errors, second_log.errors
    assert not [e for e in page_log.server_errors() + second_log.server_errors()], "no protocol error"
