"""Whole games in the browser: a 1v1 chica against `facil` played to its result by clicking, a 2v2
hand, and the rule that the page never receives (or shows, or stores) a card it may not see."""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from harness import (
    WIRE_FRAMES,
    PageLog,
    Server,
    Summary,
    card_words,
    cards_in,
    choose_first_option,
    close_summary,
    dom_text,
    hand_cards,
    json_keys,
    local_storage,
    new_context,
    play_first_card,
    read_summary,
    scores,
    seat_counts,
    start_game,
    state_number,
    states_of,
    table_cards,
    wait_step,
    walk_strings,
    watch_page,
)
from playwright.sync_api import Browser, Page, expect

from cuarenta.game import Game
from cuarenta.record import GameRecord
from cuarenta.server.authority.eventview import engine_view

#: basico: one chica to 40 (docs/rules.md presets), so "the whole mesa" is one chica and the run stays short.
CHICA_PRESET = "basico"
CHICA_SEED = 11
HAND_2V2_SEED = 5
CHOICE_SEED = 2
#: localStorage keys the page may use (storage.js KEYS and i18n.js LANG_KEY).
KNOWN_KEYS = {
    "cuarenta.session",
    "cuarenta.games",
    "cuarenta.ayudas",
    "cuarenta.ayudas_intro",
    "cuarenta.name",
    "cuarenta.form",
    "cuarenta.lang",
}
#: Keys that would mean a frame carries hidden information.
FORBIDDEN_KEYS = {"hands", "stock", "seed", "deck", "token", "tokens", "state_summary"}


@dataclass
class Snapshot:
    """What the page showed and stored at one moment (a person's turn, or the end)."""

    state: int
    text: str
    codes: str
    storage: dict[str, str]


@dataclass
class PlayedChica:
    """Everything recorded while a whole mesa was played by clicking."""

    log: PageLog
    snapshots: list[Snapshot] = field(default_factory=list)
    summaries: list[Summary] = field(default_factory=list)
    score_trace: list[tuple[int, int]] = field(default_factory=list)
    plays: int = 0
    choices: int = 0
    headline: str = ""
    won: str = ""
    chica_lines: list[str] = field(default_factory=list)
    final_scores: tuple[int, int] = (0, 0)
    chicas: tuple[int, int] = (0, 0)
    session: dict[str, Any] = field(default_factory=dict)
    record_path: str = ""
    frames: list[str] = field(default_factory=list)
    page: Page | None = None


def play_to_the_end(page: Page, played: PlayedChica, max_steps: int = 400) -> None:
    """Click the first card on every turn (the first option of a capture choice), close every hand
    summary, until the mesa's result shows."""
    for _ in range(max_steps):
        kind = wait_step(page)
        if kind == "ready":
            played.snapshots.append(Snapshot(state_number(page), *dom_text(page), local_storage(page)))
            played.score_trace.append(scores(page))
            play_first_card(page)
            played.plays += 1
        elif kind == "choice":
            choose_first_option(page)
            played.choices += 1
        elif kind == "summary":
            summary = read_summary(page)
            played.summaries.append(summary)
            played.score_trace.append(summary.scoreboard)
            close_summary(page)
        else:
            played.snapshots.append(Snapshot(state_number(page), *dom_text(page), local_storage(page)))
            return
    raise AssertionError(f"the mesa did not end in {max_steps} steps")


@pytest.fixture(scope="module")
def chica(browser: Browser, server: Server) -> Iterator[PlayedChica]:
    """A whole 1v1 mesa (basico: one chica to 40) against `facil`, played by clicking, recorded.

    Shared by the tests below: one game is played once and checked from several sides."""
    context = new_context(browser)
    page = context.new_page()
    played = PlayedChica(log=watch_page(page))
    try:
        start_game(page, server.url, players=2, level="facil", preset=CHICA_PRESET, seed=CHICA_SEED)
        play_to_the_end(page, played)
        result = page.get_by_test_id("result")
        expect(result).to_be_visible()
        played.headline = page.get_by_test_id("result-headline").inner_text().strip()
        played.won = str(result.get_attribute("data-won"))
        played.chica_lines = [t.strip() for t in page.get_by_test_id("result-chica").all_inner_texts()]
        played.final_scores = scores(page)
        played.chicas = (
            int(page.get_by_test_id("chicas-0").inner_text()),
            int(page.get_by_test_id("chicas-1").inner_text()),
        )
        played.session = json.loads(local_storage(page)["cuarenta.session"])
        # the page downloads the record with the token in a header; the test reads it the same way
        button = page.get_by_test_id("download-record")
        expect(button).to_be_visible()
        room, mesa = button.get_attribute("data-room"), button.get_attribute("data-mesa")
        assert room == played.session["room"] and mesa
        played.record_path = f"api/games/{room}/record?mesa={mesa}"
        played.frames = list(played.log.received)  # the mesa's frames (the page may go on)
        played.page = page
        yield played
    finally:
        context.close()


def test_whole_chica_against_facil(chica: PlayedChica, server: Server) -> None:
    played = chica
    assert not played.log.errors, played.log.errors
    assert played.plays > 0
    if played.plays > 20:  # the mesa went on past its first hand (20 cards of the person)
        assert played.summaries, "the end of every hand but the last is summarised"

    # the result panel: one chica, its winner reached 40, and the page's numbers are the server's
    # the computer's name, as the server named its seat (the same for every reader)
    bot = states_of(played.frames)[-1]["seats"][1]["name"]
    assert bot and bot != "Ana"
    # the headline: the verdict, then the chicas in names and numbers, the winner first
    won_line, lost_line = (
        f"¡Ganaste la mesa! Chicas: Ana 1 – {bot} 0.",
        f"Perdiste la mesa. Chicas: {bot} 1 – Ana 0.",
    )
    assert played.headline in (won_line, lost_line), played.headline
    assert (played.won == "1") == (played.headline == won_line)
    assert len(played.chica_lines) == 1
    line = played.chica_lines[0]
    names = f"(Ana|{re.escape(bot)})"
    m = re.match(rf"Chica 1: {names} (\d+) – {names} (\d+)\.", line)  # page.result.chica: the winner first
    assert m and m.group(1) != m.group(3), line
    winner = 0 if m.group(1) == "Ana" else 1
    by_name = {m.group(1): int(m.group(2)), m.group(3): int(m.group(4))}
    shown = (by_name["Ana"], by_name[bot])
    assert shown[winner] >= shown[1 - winner]
    assert (winner == 0) == (played.won == "1")
    assert played.final_scores == shown, "the scoreboard and the result panel agree"
    assert played.chicas == ((1, 0) if winner == 0 else (0, 1))

    history = server.post_json("api/history", {"tokens": [played.session["token"]]})["games"]
    assert len(history) == 1
    game = history[0]
    assert game["room"] == played.session["room"] and game["level"] == "facil" and game["players"] == 2
    assert game["rules"]["preset"] == CHICA_PRESET
    assert [r["scores"] for r in game["chica_results"]] == [list(shown)]
    assert game["winner"] == winner and game["won"] == (winner == 0)
    if game["chica_results"][0]["reason"] == "target":  # (not four of a kind dealt, R17)
        assert shown[winner] >= 40 > shown[1 - winner] or shown[winner] > shown[1 - winner] >= 40

    # the scores only grow in a chica, and every hand summary shows what the scoreboard shows
    for before, after in itertools.pairwise(played.score_trace):
        assert after[0] >= before[0] and after[1] >= before[1], played.score_trace
    for summary in played.summaries:
        assert summary.scores == summary.scoreboard, summary
        assert re.fullmatch(r"Fin de la mano \d+", summary.title), summary.title
    assert played.score_trace[-1][0] <= shown[0] and played.score_trace[-1][1] <= shown[1]

    # the record behind the page's download link replays to the same result
    record = GameRecord.from_text(server.get_text(played.record_path, token=played.session["token"]))
    final = record.replay()
    assert final.outcome is not None and final.outcome.winner == winner
    assert tuple(final.chica_results[0].scores) == shown

    # the download button fetches the same record with the token in a header and offers it as a file;
    # no address the page asked for ever held the token
    page = played.page
    assert page is not None
    with page.expect_download() as info:
        page.get_by_test_id("download-record").click()
    download = info.value
    assert download.suggested_filename == f"cuarenta-{played.session['room']}-mesa1.cuarenta"
    assert Path(download.path()).read_text(encoding="utf-8") == server.get_text(
        played.record_path, token=played.session["token"]
    )
    assert played.log.urls and not [u for u in played.log.urls if played.session["token"] in u]

    # "Jugar otra vez": a new mesa in the same room, from 0 to 0
    page.get_by_test_id("play-again").click()
    expect(page.get_by_test_id("result")).to_be_hidden()
    assert wait_step(page) == "ready"
    assert scores(page) == (0, 0)
    expect(page.get_by_test_id("chicas-0")).to_have_text("0")
    expect(page.get_by_test_id("chicas-1")).to_have_text("0")
    assert json.loads(local_storage(page)["cuarenta.session"])["room"] == played.session["room"]
    assert max(json.loads(f).get("mesa", 0) for f in played.log.received) == 2
    assert not played.log.errors, played.log.errors


# -- no hidden card -------------------------------------------------------------------------------
def replay_views(record: GameRecord) -> tuple[dict[str, int], list[Game]]:
    """Every position of the record's mesa: (seat 0's view as JSON → step) and the games by step."""
    game = Game.replay(record.rules, record.seed, [], record.start)
    games = [game.copy()]
    for action in record.actions:
        game.play(action)
        games.append(game.copy())
    index: dict[str, int] = {}
    for step, g in enumerate(games):
        index.setdefault(json.dumps(g.view(0).to_dict(), sort_keys=True), step)
    return index, games


def hidden_cards(game: Game, seat: int = 0) -> set[str]:
    """The cards ``seat`` may not see: the other seats' hands and the stock."""
    out = {str(c) for c in game.stock}
    for other in range(game.players):
        if other != seat:
            out |= {str(c) for c in game.hand(other)}
    return out


def checked_events(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events of a frame that belong to the position it shows: those from the last new hand on
    (earlier ones name cards of a hand that is over, now dealt again), without the dealer draw
    (its cards come from a separate shuffle and say nothing of the deal)."""
    start = 0
    for i, e in enumerate(events):
        if e.get("kind") == "deal" and e.get("deal") == 0:
            start = i
    return [e for e in events[start:] if e.get("kind") != "dealer_draw"]


def test_no_hidden_card_reaches_the_page(chica: PlayedChica, server: Server) -> None:
    played = chica
    frames = [json.loads(raw) for raw in played.frames]
    assert frames, "the page received WebSocket frames"
    # the page speaks version 2 (wire.js): a snapshot, then events (docs/protocol.md, "Version 2")
    assert {f["type"] for f in frames} <= WIRE_FRAMES | {"pong", "pace"}, [
        f for f in frames if f["type"] not in WIRE_FRAMES
    ]
    assert frames[0]["type"] == "snapshot"
    assert all(f.get("v") == 2 for f in frames)
    for frame in frames:
        assert not json_keys(frame) & FORBIDDEN_KEYS, (json_keys(frame) & FORBIDDEN_KEYS, frame)

    states = states_of(played.frames)  # what the frames add up to: version 1's states
    record = GameRecord.from_text(server.get_text(played.record_path, token=played.session["token"]))
    index, games = replay_views(record)
    step_of_state: dict[int, int] = {}
    for frame in states:
        view = frame["view"]
        assert frame["seat"] == 0 and view["seat"] == 0
        # the view the page got is exactly seat 0's view of a real position of the game (plus the keys of
        # the sayings the server chose for each event of the history, docs/protocol.md,
        assert all(isinstance(e["sayings"], list) for e in view["history"] + frame["events"])
        # and the fields the server adds for the page, server/authority/eventview.py): the engine's own fields
        bare = engine_view(view)
        step = index.get(json.dumps(bare, sort_keys=True))
        assert step is not None, f"state {frame['state']}: the view is not seat 0's view of any position"
        step_of_state[frame["state"]] = step
        hidden = hidden_cards(games[step])
        mine = set(view["hand"])
        assert len(mine) == view["hand_sizes"][0]
        public = mine | set(view["table"])
        for move in frame["legal"]:
            assert cards_in(move) <= public, (move, view)
        assert {h["card"] for h in frame["hints"]} <= mine
        # every card the frame names, apart from the dealer draw and the events of a finished hand
        filtered = {**frame, "events": checked_events(frame["events"])}
        filtered["view"] = {**view, "history": checked_events(view["history"])}
        shown = {c for _, text in walk_strings(filtered) for c in cards_in(text)}
        assert not shown & hidden, f"state {frame['state']}: hidden cards {shown & hidden} in the frame"

    # what the page showed, and what it stored, at every turn of the person
    assert played.snapshots
    for snap in played.snapshots:
        step = step_of_state[snap.state]
        for card in sorted(hidden_cards(games[step])):
            assert card not in cards_in(snap.codes), f"state {snap.state}: hidden {card} in a card attribute"
            for form in card_words_re(card):
                found = form.search(snap.text)
                context = snap.text[max(0, found.start() - 80) : found.end() + 40] if found else ""
                assert not found, f"state {snap.state}: hidden {card} shown in the page: {context!r}"
        assert set(snap.storage) <= KNOWN_KEYS, snap.storage
        for key, raw in snap.storage.items():
            try:
                value: Any = json.loads(raw)
            except ValueError:
                value = raw
            for path, text in walk_strings(value):
                if path.endswith((".room", ".token")):
                    assert len(text) >= 8, (key, path, text)
                else:
                    assert not cards_in(text), f"localStorage {key}{path} holds a card: {text!r}"


def card_words_re(card: str) -> list[re.Pattern[str]]:
    """Patterns of the ways the page writes a card in words (``7♥``, ``7 de corazón rojo``)."""
    return [re.compile(rf"(?<![\w]){re.escape(form)}(?![\w])") for form in card_words(card)]


# -- 2v2 ------------------------------------------------------------------------------------------
@pytest.fixture
def animated(browser: Browser) -> Iterator[tuple[Page, PageLog]]:
    """A fresh 1280x800 page with the animations on (the other tests turn them off, for speed)."""
    context = new_context(browser, reduced_motion="no-preference")
    page = context.new_page()
    log = watch_page(page)
    try:
        yield page, log
    finally:
        context.close()
    assert not log.errors, log.errors


def test_2v2_hand(animated: tuple[Page, PageLog], base_url: str) -> None:
    """Play a whole hand of 2 against 2 (10 cards of the person: 5 per deal, 2 deals) by clicking, with
    the animations on; the other seats' counts go down one per round, every card is accounted for, and
    the end-of-hand summary appears."""
    page, page_log = animated
    start_game(page, base_url, players=4, level="facil", preset="a_todo_rigor", seed=HAND_2V2_SEED)
    expect(page.get_by_test_id("seat-2")).to_have_class(re.compile(r"\bpartner\b"))
    rounds: list[dict[int, int]] = []  # seat → cards in hand, and -1 → stock
    plays = 0
    summary: Summary | None = None
    while summary is None:
        kind = wait_step(page)
        if kind == "ready":
            counts = seat_counts(page)
            assert set(counts) == {1, 2, 3}
            mine = len(hand_cards(page))
            table = len(table_cards(page))
            piles = [int(page.get_by_test_id(f"pile-{t}").get_attribute("data-count") or -1) for t in (0, 1)]
            stock = int(re.sub(r"\D", "", page.get_by_test_id("stock-size").inner_text()))
            # every card of the deck is somewhere the page shows: hands, table, piles, stock
            total = mine + sum(counts.values()) + table + sum(piles) + stock
            assert total == 40, (counts, mine, table, piles, stock)
            rounds.append({**counts, 0: mine, -1: stock})
            play_first_card(page)
            plays += 1
        elif kind == "choice":
            choose_first_option(page)
        elif kind == "summary":
            summary = read_summary(page)
        else:
            raise AssertionError("the mesa ended within the first hand")
    assert plays == 10, plays
    assert [r[-1] for r in rounds] == [20] * 5 + [0] * 5, "two deals of 5 cards to each of the 4 seats"
    for before, after in itertools.pairwise(rounds):
        if before[-1] == after[-1]:  # same deal: every seat played one card since the person's last turn
            for seat in (0, 1, 2, 3):
                assert after[seat] == before[seat] - 1, (seat, before, after)
    assert rounds[0][0] == 5 and rounds[5][0] == 5
    assert summary.title == "Fin de la mano 1"
    dialog = page.get_by_test_id("hand-summary")
    leftovers = dialog.locator(".mini-cards .mini").count()
    assert int(summary.cards[0]) + int(summary.cards[1]) + leftovers == 40, (summary, leftovers)
    assert summary.scores == summary.scoreboard
    close_summary(page)
    assert wait_step(page) in ("ready", "summary", "over")
    assert not page_log.server_errors()


# -- the capture choice and the keyboard ------------------------------------------------------------
def sent_moves(log: PageLog) -> list[str]:
    return [m["move"] for m in map(json.loads, log.sent) if m.get("type") == "move"]


def test_capture_choice_with_manual_capture(page: Page, base_url: str, page_log: PageLog) -> None:
    """With manual capture (a custom table: R12 ``capture = manual``) a card that can take opens the
    choice: cancel sends nothing; choosing a capture takes exactly those cards to the person's pile."""
    start_game(
        page, base_url, players=2, preset="a_todo_rigor", seed=CHOICE_SEED, options={"capture": "manual"}
    )
    for _ in range(20):
        kind = wait_step(page)
        if kind == "summary":
            close_summary(page)
            continue
        assert kind == "ready"
        before_state, before_hand, before_table = state_number(page), hand_cards(page), table_cards(page)
        card = play_first_card(page)
        if wait_step(page) != "choice":
            continue
        options = page.get_by_test_id("capture-option")
        moves = [str(m) for m in options.evaluate_all("n => n.map(e => e.dataset.move)")]
        assert len(moves) >= 2 and card in moves, moves  # dropping it is one of the choices (R12)
        assert all(m.split()[0] == card for m in moves)
        captures = [m for m in moves if " x" in m]
        assert captures and all(cards_in(m) - {card} <= set(before_table) for m in captures), (
            moves,
            before_table,
        )
        for i in range(options.count()):
            expect(options.nth(i)).to_have_accessible_name(re.compile(r"\S"))

        # cancel: nothing is sent, nothing changes
        sent = len(sent_moves(page_log))
        page.get_by_test_id("choice-cancel").click()
        expect(page.get_by_test_id("choice-dialog")).to_be_hidden()
        assert wait_step(page) == "ready"
        assert (state_number(page), hand_cards(page), table_cards(page)) == (
            before_state,
            before_hand,
            before_table,
        )
        assert len(sent_moves(page_log)) == sent

        # choose the capture that takes most
        move = max(captures, key=lambda m: len(cards_in(m)))
        pile = int(page.get_by_test_id("pile-0").get_attribute("data-count") or -1)
        page.locator(f'#hand [data-testid=hand-card][data-card="{card}"]').click()
        assert wait_step(page) == "choice"
        page.locator(f'[data-testid=capture-option][data-move="{move}"]').click()
        kind = wait_step(page)
        assert sent_moves(page_log)[-1] == move
        assert kind == "ready", "the seed gives a capture that does not end the hand"
        taken = cards_in(move)
        assert not taken & set(table_cards(page)), (move, table_cards(page))
        assert card not in hand_cards(page)
        assert int(page.get_by_test_id("pile-0").get_attribute("data-count") or -1) >= pile + len(taken)
        assert not page_log.server_errors()
        return
    raise AssertionError("no card offered a capture choice in 20 turns")


def test_keyboard_play(page: Page, base_url: str, page_log: PageLog) -> None:
    """Number keys pick a card, arrows move along the hand, Enter plays it."""
    start_game(page, base_url, players=2, preset="a_todo_rigor", seed=CHICA_SEED)
    assert wait_step(page) == "ready"
    hand = hand_cards(page)
    state = state_number(page)
    page.locator("body").click(position={"x": 5, "y": 300})  # nothing focused in the hand
    page.keyboard.press("2")
    expect(page.locator("#hand [data-testid=hand-card]:focus")).to_have_attribute("data-card", hand[1])
    page.keyboard.press("ArrowRight")
    expect(page.locator("#hand [data-testid=hand-card]:focus")).to_have_attribute("data-card", hand[2])
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#hand [data-testid=hand-card]:focus")).to_have_attribute("data-card", hand[0])
    page.keyboard.press("3")
    page.keyboard.press("Enter")
    kind = wait_step(page)
    if kind == "choice":
        page.keyboard.press("Enter")  # the first option has the focus
        kind = wait_step(page)
    assert kind == "ready"
    assert state_number(page) > state
    assert sent_moves(page_log)[0].split()[0] == hand[2]
    assert hand[2] not in hand_cards(page)
