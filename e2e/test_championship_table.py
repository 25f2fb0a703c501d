"""A championship's table in the browser when its judge acts on it (issue 25 items 1 and 4; docs/web.md
"Championships"), at 360x740 and 1280x800, against the real server: Ana and Beto (a pair of people) sit
through their pair's link against a computer pair, a spectator watches their table.

- The judge pauses it: every page says so, with the judge's reason, and offers no move (a tap plays
  nothing); a page opened again learns it at once; on resume the pages say so and the move comes back.
- The judge restarts it: both players' pages sit again at the partida's new table, and the spectator's
  page watches the new table.

Every wait is on the page's state, bounded by a deadline.
"""

from __future__ import annotations

import json
from typing import Any

import a11y
import httpx
import pytest
from harness import PHONE, STEP_JS, STEP_TIMEOUT_MS, People, Server, local_storage
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

SIZES = [pytest.param(PHONE, id="360x740"), pytest.param({"width": 1280, "height": 800}, id="1280x800")]


def championship(server: Server) -> dict[str, Any]:
    """A one-round championship, started: Los Ases (Ana, Beto: people) against a computer pair."""
    api = f"{server.url.rstrip('/')}/api/championships"
    made = httpx.post(api, json={"name": "Copa de Quito", "rounds": 1}).json()
    cid = made["championship"]
    ases = httpx.post(
        f"{api}/{cid}/pairs", json={"name": "Los Ases", "players": ["Ana", "Beto"], "code": made["register"]}
    )
    assert ases.status_code == 200, ases.text
    organiser = {"Authorization": f"Bearer {made['organiser']}"}
    reyes = httpx.post(
        f"{api}/{cid}/pairs",
        json={"name": "Los Reyes", "players": ["Rey 1", "Rey 2"], "computer": "facil"},
        headers=organiser,
    )
    assert reyes.status_code == 200, reyes.text
    started = httpx.post(f"{api}/{cid}/start", headers=organiser)
    assert started.status_code == 200, started.text
    return {**made, "api": f"{api}/{cid}", "pair": ases.json()["token"]}


def decide(champ: dict[str, Any], decision: str, reason: str) -> dict[str, Any]:
    answer = httpx.post(
        f"{champ['api']}/partidas/r1t1/decisions",
        json={"decision": decision, "reason": reason},
        headers={"Authorization": f"Bearer {champ['judge']}"},
    )
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def room_of(champ: dict[str, Any]) -> str:
    room: str = httpx.get(champ["api"]).json()["tables"]["r1t1"]
    return room


def seat_both(people: People, server: Server, champ: dict[str, Any], size: dict[str, int]) -> list[Page]:
    """Ana's page (``size``) and Beto's (a desktop) sit through the pair's link: the table starts."""
    pages = []
    for player, viewport in ((0, size), (1, {"width": 1280, "height": 800})):
        page, _ = people.open(bypass_csp=True, **viewport)
        page.goto(f"{server.url}#pair={champ['championship']}.{champ['pair']}")
        page.locator(f'[data-testid=champ-sit][data-player="{player}"]').click()
        pages.append(page)
    for page in pages:
        expect(page.get_by_test_id("table-screen")).to_be_visible()
        expect(page.get_by_test_id("hand-card").first).to_be_visible()
    return pages


def mover(pages: list[Page]) -> Page:
    """The page whose person is to move now (the computers move on their own), bounded by a step."""
    for _ in range(STEP_TIMEOUT_MS // 300):
        for page in pages:
            try:
                kind = page.wait_for_function(STEP_JS, timeout=300).json_value()
            except PlaywrightTimeout:
                continue
            if kind == "ready":
                return page
            raise AssertionError(f"the page needs its person for {kind!r}, not a move")
    raise AssertionError("nobody's turn came")


def sent_moves(log: Any) -> int:
    return sum(1 for frame in log.sent if json.loads(frame).get("type") == "move")


@pytest.mark.parametrize("size", SIZES)
def test_a_paused_table_says_so_on_every_page_and_offers_no_move_until_resumed(
    people: People, server: Server, size: dict[str, int]
) -> None:
    champ = championship(server)
    pages = seat_both(people, server, champ, size)
    fan, _ = people.open(bypass_csp=True, **size)
    fan.goto(f"{server.url}#watch={room_of(champ)}")
    expect(fan.get_by_test_id("table-screen")).to_be_visible()
    turn = mover(pages)
    log = people.logs[people.contexts.index(turn.context)]
    moves = sent_moves(log)

    decide(champ, "pause", "sonó un teléfono")
    for page in (*pages, fan):
        halt = page.get_by_test_id("table-halt")
        expect(halt).to_have_attribute("data-state", "paused")
        expect(halt).to_contain_text("El juez pausó la mesa")
        expect(halt).to_contain_text("sonó un teléfono")
        expect(halt).to_be_in_viewport()
    expect(turn.get_by_test_id("status")).to_contain_text("Mesa en pausa")
    expect(turn.get_by_test_id("table-screen")).to_have_attribute("data-ready", "0")
    expect(turn.locator('[data-testid=hand-card][aria-disabled="false"]')).to_have_count(0)
    turn.get_by_test_id("hand-card").first.click(force=True)  # a tap plays nothing: no move is offered
    expect(turn.get_by_test_id("status")).to_contain_text("Mesa en pausa")
    assert sent_moves(log) == moves
    a11y.check(turn, "a paused championship table")
    # a page opened again learns it from its snapshot
    turn.reload()
    expect(turn.get_by_test_id("table-halt")).to_have_attribute("data-state", "paused")
    expect(turn.get_by_test_id("table-halt")).to_contain_text("sonó un teléfono")

    decide(champ, "resume", "ya está")
    for page in (*pages, fan):
        expect(page.get_by_test_id("table-halt")).to_have_attribute("data-state", "resume")
        expect(page.get_by_test_id("table-halt")).to_contain_text("reanudó")
    expect(turn.get_by_test_id("table-screen")).to_have_attribute("data-ready", "1", timeout=STEP_TIMEOUT_MS)


@pytest.mark.parametrize("size", SIZES)
def test_a_restart_takes_the_pairs_pages_and_the_spectators_to_the_new_table(
    people: People, server: Server, size: dict[str, int]
) -> None:
    champ = championship(server)
    pages = seat_both(people, server, champ, size)
    old = room_of(champ)
    fan, fan_log = people.open(bypass_csp=True, **size)
    fan.goto(f"{server.url}#watch={old}")
    expect(fan.get_by_test_id("table-screen")).to_be_visible()
    mover(pages)

    new = decide(champ, "restart", "se vio una carta")["room"]
    assert new and new != old
    # both players sit again at the new table (their pages do it): it starts, they play there
    for page in pages:
        page.wait_for_function(
            "(room) => JSON.parse(localStorage.getItem('cuarenta.session') || '{}').room === room",
            arg=new,
            timeout=STEP_TIMEOUT_MS,
        )
        expect(page.get_by_test_id("table-screen")).to_be_visible()
        expect(page.get_by_test_id("hand-card").first).to_be_visible()
        session = json.loads(local_storage(page)["cuarenta.session"])
        assert session["room"] == new and session["champ"]["id"] == champ["championship"]
    turn = mover(pages)
    log = people.logs[people.contexts.index(turn.context)]
    assert json.loads([f for f in log.received if '"snapshot"' in f][-1])["room"] == new
    # the spectator follows: it watches the new table
    fan.wait_for_url(f"**#watch={new}", timeout=STEP_TIMEOUT_MS)
    expect(fan.get_by_test_id("table-screen")).to_be_visible()
    watches = [json.loads(f) for f in fan_log.sent if '"watch"' in f]
    assert [w["room"] for w in watches][-1] == new
    expect(fan.get_by_test_id("spectating")).to_be_visible()
    a11y.check(fan, "a spectator taken to the partida's new table")
