"""Playing a person's turns in a browser test, and what the page shows on their turn (used by
e2e/test_resume.py and e2e/test_cluster_failover.py)."""

from __future__ import annotations

from dataclasses import dataclass

from harness import (
    choose_first_option,
    close_summary,
    hand_cards,
    play_first_card,
    scores,
    seat_counts,
    state_number,
    table_cards,
    wait_step,
)
from playwright.sync_api import Page


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
