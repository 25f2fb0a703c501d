"""The page shows the server's figures (docs/web.md, "The page renders what the server sends"): at the end
of a known hand the summary, the scoreboard behind it and the felt show the end-of-hand view the server
sent (`end` of `hand_end`: the cards each team took, the scores after the cartón, the table it ended on),
which is the engine's; the last play on the felt is the server's `card` and `taken`."""

from __future__ import annotations

from typing import Any

from harness import (
    PageLog,
    choose_first_option,
    close_summary,
    play_first_card,
    read_summary,
    start_game,
    table_cards,
    wait_step,
)
from playwright.sync_api import Page, expect

from cuarenta import Game, Rules
from cuarenta.events import Carton, HandEnd
from cuarenta.i18n import points_text
from cuarenta.moves import parse_action
from cuarenta.server.authority.model import mesa_seed

#: basico, seed 11, the page playing its first card (first option): the first hand ends without the
#: chica ending. Its end, as the engine counts it: the cards each team took, the scores after the cartón.
HAND_SEED = 11
HAND_CARDS = (15, 24)
HAND_SCORES = (6, 26)


def play_to_summary(page: Page) -> None:
    for _ in range(200):
        kind = wait_step(page)
        if kind == "summary":
            return
        if kind == "ready":
            play_first_card(page)
        elif kind == "choice":
            choose_first_option(page)
        else:
            raise AssertionError(f"unexpected step {kind}")
    raise AssertionError("too many steps")


def first_hand_end(log: PageLog) -> tuple[dict[str, Any], list[str]]:
    """The first ``hand_end`` event the page received, and every move played before it (in order)."""
    moves: list[str] = []
    for msg in log.states():
        for e in msg["events"]:
            if e["kind"] == "hand_end":
                return e, moves
            if e["kind"] == "play":
                moves.append(e["move"])
            elif e["kind"] == "claim":
                moves.append("claim " + ",".join(e["cards"]))
    raise AssertionError("no hand_end received")


def test_the_end_of_a_hand_shows_the_servers_figures(page: Page, page_log: PageLog, base_url: str) -> None:
    start_game(page, base_url, preset="basico", seed=HAND_SEED)
    play_to_summary(page)
    summary = read_summary(page)
    hand_end, moves = first_hand_end(page_log)
    end = hand_end["end"]

    # the page shows what the server sent …
    assert summary.title == "Fin de la mano 1", summary.title
    assert summary.cards == tuple(str(n) for n in end["cards"])
    assert summary.scores == tuple(end["scores"]) == summary.scoreboard
    assert table_cards(page) == end["table"]  # the felt behind it: the table the hand ended on
    marks = page.get_by_test_id("summary-score-1").locator(".marks")
    expect(marks).to_have_attribute("aria-label", points_text(end["scores"][1], "es"))

    # … which is the engine's own count of that hand
    rules = Rules.from_dict(page_log.states()[-1]["view"]["rules"])
    game = Game.new(rules, seed=mesa_seed(HAND_SEED, 1))
    for move in moves:
        game.play(parse_action(move))
    engine_end = next(e for e in game.events if isinstance(e, HandEnd))
    assert tuple(end["cards"]) == engine_end.pile_sizes == HAND_CARDS
    assert end["table"] == [str(c) for c in engine_end.leftovers]
    cartons = [e for e in game.events if isinstance(e, Carton)][: rules.teams]
    assert end["carton"] == [sum(c.points for c in cartons if c.team == team) for team in (0, 1)] == [0, 10]
    assert tuple(end["scores"]) == HAND_SCORES
    close_summary(page)


def test_the_last_play_on_the_felt_is_the_servers(page: Page, page_log: PageLog, base_url: str) -> None:
    start_game(page, base_url, preset="basico", seed=HAND_SEED)
    shown = 0
    while shown < 3:
        kind = wait_step(page)
        if kind == "choice":
            choose_first_option(page)
            continue
        if kind == "summary":
            close_summary(page)
            continue
        assert kind == "ready", kind
        state = int(page.get_by_test_id("table-screen").get_attribute("data-state") or "-1")
        msg = next(m for m in page_log.states() if m["state"] == state)
        plays = [e for e in msg["view"]["history"] if e["kind"] == "play"]
        if plays and plays[-1]["taken"]:
            cards = page.get_by_test_id("last-play").locator("[data-card]")
            assert cards.evaluate_all("n => n.map(e => e.dataset.card)") == [
                plays[-1]["card"],
                *plays[-1]["taken"],
            ]
            shown += 1
        play_first_card(page)
