"""Playing a person's turns in a browser test (first card, first option), and what the page shows on their
turn: one loop for the server's page and the device's (e2e/ondevice.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from harness import (
    STEP_TIMEOUT_MS,
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


def play(
    page: Page,
    *,
    cards: int | None = None,
    until: Literal["summary", "over"] = "summary",
    timeout: int = STEP_TIMEOUT_MS,
) -> int:
    """Play the person's turns until ``cards`` were played and the page waits for the person again, or
    until the hand's summary (closed), or with ``until="over"`` the mesa's result (summaries closed on the
    way); the number of cards played. ``timeout`` is each wait for the page, in milliseconds."""
    played = 0
    while True:
        kind = wait_step(page, timeout=timeout)
        if kind == "ready":
            if played == cards:
                return played
            play_first_card(page)
            played += 1
        elif kind == "choice":
            choose_first_option(page)
        elif kind == "summary":
            close_summary(page)
            if until == "summary":
                return played
        else:
            assert kind == "over", kind
            return played


def play_moves(page: Page, n: int) -> Seen:
    """Play ``n`` cards of the person, hands' ends passed; returns what the page shows after."""
    played = play(page, cards=n, until="over")
    assert played == n, f"the mesa ended after {played} of the {n} moves"
    return seen(page)
