"""Resuming in the browser: a reload mid-hand, and a server restart between two page loads, bring the
same hand and table back, and the game goes on."""

from __future__ import annotations

from harness import (
    PageLog,
    Server,
    local_storage,
    start_game,
    wait_step,
    watch_page,
)
from playing import play_moves, seen
from playwright.sync_api import BrowserContext, Page, expect

RESUME_SEED = 23


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
