"""At a table with friends (docs/web.md "At the table with friends"): several people, each in a browser
context of their own, at a table made through the HTTP API (docs/tables.md) and opened the way a saved
game is resumed ({room, token, seat, table: true} in localStorage). Presence and the computer standing in
after the grace, spectators, the turn clock, the rematch and reactions."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from typing import Any

from harness import (
    STEP_JS,
    STEP_TIMEOUT_MS,
    PageLog,
    Server,
    card_words,
    choose_first_option,
    dom_text,
    hand_cards,
    join_table,
    local_storage,
    make_table,
    new_context,
    play_first_card,
    seated_context,
    state_number,
    wait_step,
    watch_page,
)
from playwright.sync_api import Browser, BrowserContext, Page, WebSocketRoute, expect

# -- the table through the API (harness.make_table, join_table) -------------------------------------


class Person:
    """Someone at the table: a browser context of their own, and the page open in it."""

    def __init__(
        self,
        browser: Browser,
        server: Server,
        answer: dict[str, Any],
        prepare: Callable[[Page], None] | None = None,
    ) -> None:
        self.server = server
        self.prepare = prepare
        self.seat = int(answer["seat"])
        self.context: BrowserContext = seated_context(browser, answer)
        self.page, self.log = self.open()

    def open(self) -> tuple[Page, PageLog]:
        page = self.context.new_page()
        log = watch_page(page)
        if self.prepare:
            self.prepare(page)
        page.goto(self.server.url)
        expect(page.get_by_test_id("table-screen")).to_be_visible()
        expect(page.get_by_test_id("hand-card").first).to_be_visible(timeout=STEP_TIMEOUT_MS)
        return page, log

    def reopen(self) -> None:
        self.page, self.log = self.open()

    def close(self) -> None:
        errors = list(self.log.errors)
        self.context.close()
        assert not errors, f"script errors in the page: {errors}"


def step(page: Page) -> str | None:
    kind = page.evaluate(STEP_JS)
    if kind == "error":
        raise AssertionError(f"the page shows an error: {page.get_by_test_id('error').inner_text()!r}")
    return str(kind) if kind else None


def play_until(people: list[Person], done: Callable[[], bool], seconds: float = 240) -> None:
    """Every page plays its turns (first card, first option) and closes summaries until ``done()``."""
    end = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < end, "the table did not get there in time"
        for p in people:
            kind = step(p.page)
            if kind == "ready":
                play_first_card(p.page)
            elif kind == "choice":
                choose_first_option(p.page)
            elif kind == "summary":
                p.page.get_by_test_id("summary-continue").click()
        people[0].page.wait_for_timeout(50)


def presence(page: Page, seat: int) -> str | None:
    node = page.get_by_test_id(f"presence-{seat}")
    return node.get_attribute("data-presence") if node.count() else None


# -- (a) two people and two computer players, a whole hand -------------------------------------------
def test_two_people_and_two_computers_play_a_hand(browser: Browser, server: Server) -> None:
    made = make_table(server, players=4, seats=["friend", "facil", "facil"])
    beto = join_table(server, made, "Beto")
    ana, bob = Person(browser, server, made), Person(browser, server, beto)
    try:
        for p in (ana, bob):
            expect(p.page.get_by_test_id("hand-card").first).to_be_visible(timeout=STEP_TIMEOUT_MS)
            # each person sees the other as connected, by name
            other = 1 if p is ana else 0
            expect(p.page.get_by_test_id(f"presence-{other}")).to_have_attribute("data-presence", "connected")
        expect(ana.page.get_by_test_id("seat-1").locator(".seat-name")).to_have_text("Beto")
        expect(bob.page.get_by_test_id("seat-0").locator(".seat-name")).to_have_text("Ana")
        summaries: set[int] = set()

        def both_summaries() -> bool:
            for i, p in enumerate((ana, bob)):
                if p.page.evaluate("() => document.querySelector('#summary-dialog')?.open"):
                    summaries.add(i)
            return summaries == {0, 1}

        play_until([ana, bob], both_summaries)
        # next was never sent at a table
        for p in (ana, bob):
            assert not any(json.loads(m).get("type") == "next" for m in p.log.sent)
            assert not p.log.server_errors(), p.log.server_errors()
    finally:
        ana.close()
        bob.close()


# -- (b) away, the grace, the computer standing in, back ----------------------------------------------
def test_away_then_the_computer_plays_then_the_person_comes_back(browser: Browser, server: Server) -> None:
    made = make_table(server, players=2, seats=["friend"], grace=2, rules={"preset": "basico"})
    beto = join_table(server, made, "Beto")
    ana, bob = Person(browser, server, made), Person(browser, server, beto)
    try:
        expect(ana.page.get_by_test_id("presence-1")).to_have_attribute("data-presence", "connected")
        bob.page.close()
        # away, with the countdown of the grace, then the computer plays for Beto
        away = ana.page.get_by_test_id("presence-1")
        expect(away).to_have_attribute("data-presence", re.compile("away|stand_in"))
        if presence(ana.page, 1) == "away":
            expect(away).to_contain_text("Beto")
            expect(away.locator(".countdown")).to_have_text(re.compile(r"^0:0[0-2]$"))
        expect(away).to_have_attribute("data-presence", "stand_in", timeout=STEP_TIMEOUT_MS)
        expect(away).to_contain_text("Beto")
        # Beto opens the page again (same browser: the same session in localStorage) and takes the seat back
        bob.reopen()
        expect(ana.page.get_by_test_id("presence-1")).to_have_attribute("data-presence", "connected")
        expect(bob.page.get_by_test_id("presence-1")).to_have_attribute("data-presence", "connected")
        expect(bob.page.get_by_test_id("presence-0")).to_have_attribute("data-presence", "connected")
        # play goes on: a person's move reaches the other page
        before = state_number(ana.page)
        played = False
        end = time.monotonic() + STEP_TIMEOUT_MS / 1000
        while not played:
            assert time.monotonic() < end, "nobody could play after the reconnection"
            for p in (ana, bob):
                if step(p.page) == "ready":
                    play_first_card(p.page)
                    played = True
                    break
            ana.page.wait_for_timeout(50)
        expect(ana.page.get_by_test_id("table-screen")).not_to_have_attribute("data-state", str(before))
        assert not bob.log.server_errors() and not ana.log.server_errors()
    finally:
        ana.close()
        bob.close()


# -- (c) a spectator ---------------------------------------------------------------------------------
def test_a_spectator_sees_the_table_and_no_hand(browser: Browser, server: Server) -> None:
    made = make_table(server, players=2, seats=["facil"], rules={"preset": "basico"})
    ana = Person(browser, server, made)
    watcher = new_context(browser)
    try:
        expect(ana.page.get_by_test_id("hand-card").first).to_be_visible(timeout=STEP_TIMEOUT_MS)
        page = watcher.new_page()
        log = watch_page(page)
        page.goto(f"{server.url}#watch={made['room']}")
        expect(page.get_by_test_id("table-screen")).to_be_visible()
        expect(page.get_by_test_id("spectating")).to_be_visible()
        expect(page.get_by_test_id("scoreboard")).to_be_visible()
        expect(page.get_by_test_id("seat-0").locator(".seat-name")).to_have_text("Ana")
        backs = page.get_by_test_id("seat-0").get_by_test_id("seat-hand")
        expect(backs).to_have_attribute("data-count", re.compile("[1-5]"))
        # the players see that someone watches
        expect(ana.page.get_by_test_id("watchers")).to_have_attribute("data-count", "1")
        expect(page.get_by_test_id("watchers")).to_have_attribute("data-count", "1")
        assert page.get_by_test_id("hand-card").count() == 0
        assert page.get_by_test_id("reactions").count() == 0 or page.get_by_test_id("reactions").is_hidden()
        # no card of Ana's hand in the spectator's page nor storage
        hand = hand_cards(ana.page)
        assert hand
        text, codes = dom_text(page)
        for card in hand:
            assert card not in codes.split(), card
            for words in card_words(card):
                assert words not in text, words
        stored = local_storage(page)
        assert "cuarenta.session" not in stored
        for value in stored.values():
            assert not any(card in value for card in hand), value
        assert any(json.loads(m).get("type") == "watch" for m in log.sent)
        assert not any(json.loads(m).get("type") == "join" for m in log.sent)
        assert not log.errors, log.errors
    finally:
        watcher.close()
        ana.close()


# -- (d) the turn clock ------------------------------------------------------------------------------
def test_the_turn_clock_counts_down(browser: Browser, server: Server) -> None:
    made = make_table(server, players=2, seats=["facil"], clock=30, rules={"preset": "basico"})
    ana = Person(browser, server, made)
    try:
        page = ana.page
        screen = page.get_by_test_id("table-screen")
        expect(screen).to_have_attribute("data-ready", "1", timeout=STEP_TIMEOUT_MS)
        clock = page.locator('[data-testid=turn-clock][data-seat="0"] [data-testid=turn-clock-time]')
        expect(clock).to_have_text(re.compile(r"^0:[0-3]\d$"))

        def seconds() -> int:
            m, s = clock.inner_text().split(":")
            return int(m) * 60 + int(s)

        first = seconds()
        assert 20 <= first <= 30, first
        expect(clock).not_to_have_text(clock.inner_text(), timeout=5000)
        expect(clock).not_to_have_text(re.compile(rf"^0:{first}$"))
        assert seconds() < first
    finally:
        ana.close()


# -- (e) the rematch ---------------------------------------------------------------------------------
def test_both_agree_to_another_mesa(browser: Browser, server: Server) -> None:
    # a short mesa (one chica to 10): the rematch is the subject, not the length of the mesa
    short = {"preset": "basico", "target": 10, "chicas": 1, "ronda_limit": None}
    made = make_table(server, players=2, seats=["friend"], rules=short)
    beto = join_table(server, made, "Beto")
    ana, bob = Person(browser, server, made), Person(browser, server, beto)
    try:
        play_until([ana, bob], lambda: all(step(p.page) == "over" for p in (ana, bob)), seconds=300)
        again_ana = ana.page.locator("#result [data-testid=continue]")
        again_bob = bob.page.locator("#result [data-testid=continue]")
        expect(again_ana).to_be_visible()
        expect(again_ana).to_have_text(re.compile("Otra mesa"))
        again_ana.click()
        # Beto sees that Ana wants another mesa
        expect(bob.page.get_by_test_id("rematch-status")).to_contain_text("Ana")
        again_bob.click()
        for p in (ana, bob):
            expect(p.page.get_by_test_id("mesa-number")).to_be_visible(timeout=STEP_TIMEOUT_MS)
            expect(p.page.get_by_test_id("result")).to_be_hidden()
            assert any(json.loads(m).get("type") == "rematch" for m in p.log.sent)
            assert not any(json.loads(m).get("type") == "next" for m in p.log.sent)
    finally:
        ana.close()
        bob.close()


# -- (f) reactions -----------------------------------------------------------------------------------
def test_a_reaction_shows_at_the_senders_seat_and_mute_hides_it(browser: Browser, server: Server) -> None:
    made = make_table(server, players=2, seats=["friend"], rules={"preset": "basico"})
    beto = join_table(server, made, "Beto")
    ana, bob = Person(browser, server, made), Person(browser, server, beto)
    try:
        button = ana.page.locator('[data-testid=reaction][data-saying="mosero"]')
        # the sayings are in a tray that one button opens (issue 17)
        ana.page.get_by_test_id("reactions-open").click(timeout=STEP_TIMEOUT_MS)
        expect(button).to_be_visible()
        bob.page.get_by_test_id("reactions-open").click()
        expect(bob.page.get_by_test_id("reactions")).to_be_visible()
        button.click()
        # the row rests for 2 seconds (the server's limit)
        expect(button).to_be_disabled()
        bubble = bob.page.locator('[data-seat-extra="0"] [data-testid=reaction-bubble]')
        expect(bubble).to_have_text("¡Mosero!")
        expect(ana.page.locator('[data-seat-extra="0"] [data-testid=reaction-bubble]')).to_be_visible()
        expect(bubble).to_have_count(0, timeout=5000)  # gone after a moment
        expect(button).to_be_enabled(timeout=5000)
        # Beto mutes the others' reactions (remembered): Ana's next one is not shown to him
        expect(bob.page.get_by_test_id("mute-reactions")).to_be_visible()  # Beto's tray is still open
        bob.page.get_by_test_id("mute-reactions").click()
        expect(bob.page.get_by_test_id("mute-reactions")).to_have_attribute("aria-pressed", "true")
        assert local_storage(bob.page).get("cuarenta.mute_reactions") == "1"
        sent = len(bob.log.received)
        ana.page.get_by_test_id("reactions-open").click()  # the tray closed after the send
        ana.page.locator('[data-testid=reaction][data-saying="capariche"]').click()
        end = time.monotonic() + 10
        while not any(json.loads(m).get("type") == "reaction" for m in bob.log.received[sent:]):
            assert time.monotonic() < end, "the reaction never reached Beto's page"
            bob.page.wait_for_timeout(50)
        assert bubble.count() == 0
        assert not ana.log.server_errors() and not bob.log.server_errors()
    finally:
        ana.close()
        bob.close()


# -- (g) a dropped connection: the events missed come with `since`, without reloading -----------------
def test_a_dropped_socket_rejoins_with_since_and_shows_what_it_missed(
    browser: Browser, server: Server
) -> None:
    made = make_table(server, players=2, seats=["friend"], rules={"preset": "basico"})
    beto = join_table(server, made, "Beto")
    blocked = [False]
    sockets: list[tuple[WebSocketRoute, WebSocketRoute]] = []
    sent: list[dict[str, Any]] = []

    def route(ws: WebSocketRoute) -> None:
        if blocked[0]:
            ws.close()  # the network is down: the page tries again later, by itself
            return
        upstream = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            sent.append(json.loads(message))
            upstream.send(message)

        ws.on_message(from_page)
        sockets.append((ws, upstream))

    ana = Person(browser, server, made)
    bob = Person(
        browser, server, beto, prepare=lambda page: page.route_web_socket(re.compile(r"/ws(\?.*)?$"), route)
    )
    try:
        # wait for Ana's turn (so that she can play while Beto's socket is down)
        end = time.monotonic() + STEP_TIMEOUT_MS / 1000
        while step(ana.page) != "ready":
            assert time.monotonic() < end, "Ana's turn never came"
            if step(bob.page) == "ready":
                play_first_card(bob.page)
            ana.page.wait_for_timeout(50)
        bob.page.evaluate("() => { window.sameVisit = true; }")
        blocked[0] = True
        page_side, server_side = sockets[-1]
        page_side.close()
        server_side.close()
        expect(bob.page.get_by_test_id("reconnecting")).to_be_visible()
        played = play_first_card(ana.page)
        expect(ana.page.get_by_test_id("table-screen")).not_to_have_attribute("data-turn", "me")
        joins_before = len([m for m in sent if m.get("type") == "join"])
        blocked[0] = False
        # the page comes back by itself, asks for what it missed, and shows it: Ana's card is on Beto's log
        bob_screen = bob.page.get_by_test_id("table-screen")
        expect(bob_screen).to_have_attribute("data-ready", "1", timeout=STEP_TIMEOUT_MS)
        joins = [m for m in sent if m.get("type") == "join"]
        assert len(joins) > joins_before and isinstance(joins[-1].get("since"), int), joins
        assert bob.page.evaluate("() => window.sameVisit === true")  # not reloaded
        expect(bob.page.get_by_test_id("last-play")).to_have_attribute("data-move", re.compile(rf"^{played}"))
        expect(bob.page.get_by_test_id("reconnecting")).to_be_hidden()
        assert not bob.log.errors
    finally:
        ana.close()
        bob.close()


# -- leaving for good ------------------------------------------------------------------------------------
def test_a_person_who_leaves_for_good_is_replaced_by_the_computer(browser: Browser, server: Server) -> None:
    made = make_table(server, players=2, seats=["friend"], rules={"preset": "basico"})
    beto_seat = join_table(server, made, "Beto")
    ana, beto = Person(browser, server, made), Person(browser, server, beto_seat)
    try:
        beto.page.on("dialog", lambda dialog: dialog.accept())  # "leave for good?" — yes
        beto.page.get_by_test_id("table-menu-toggle").click()  # "Dejar la mesa" is in the table menu
        beto.page.get_by_test_id("leave-table").click()
        expect(beto.page.locator("#new-game-form")).to_be_visible()
        assert "cuarenta.session" not in local_storage(beto.page)  # this browser forgot the seat
        expect(ana.page.get_by_test_id("presence-1")).to_have_attribute("data-presence", "left")
        # the computer plays Beto's seat: Ana's turn keeps coming back
        for _ in range(2):
            expect(ana.page.get_by_test_id("hand-card").first).to_be_visible(timeout=STEP_TIMEOUT_MS)
            kind = wait_step(ana.page)
            if kind == "ready":
                play_first_card(ana.page)
            elif kind == "choice":
                choose_first_option(ana.page)
    finally:
        ana.close()
        beto.close()
