"""A finished partida replayed from a championship's public standings (issue 29; docs/web.md "Replay"
and "Championships"), at 1280×800 and 360×740, against the real server: a Swiss of four pairs whose
table 1 is played by two computer pairs and finishes, while table 2's people never sit (it plays on).
The standings offer "Repetir" for the finished partida only; it opens the replay screen (every hand: the
partida is over), which steps with the buttons (taps on the phone), the deal chooser and the keyboard to
the end, each step showing the server's table and hands; "back" returns to the standings. A refusal
(faked: the server gives none for a partida it lists) is said in the page's words.

Every wait is on the page's state or bounded by a deadline.
"""

from __future__ import annotations

import json
import time
from typing import Any

import a11y
import httpx
import pytest
from harness import PHONE, STEP_TIMEOUT_MS, People, Server
from playwright.sync_api import Page, Route, expect

#: The championship made once for both sizes, by server: its id and its finished partida's replay.
MADE: dict[str, tuple[str, dict[str, Any]]] = {}
#: One chica to win (campeonato's other rules): the computers' table finishes in seconds.
RULES = {"preset": "campeonato", "chicas": 1}


def championship(server: Server) -> tuple[str, dict[str, Any]]:
    """Pairs p1 … p4 seeded in that order (round 1: p1 v p3 at table 1, p2 v p4 at table 2); p1 and p3
    computers, p2 and p4 people who never sit. Returns its id once table 1 is finished, and the server's
    replay of it."""
    if server.url in MADE:
        return MADE[server.url]
    with httpx.Client(base_url=server.url, timeout=30) as http:
        made = http.post("api/championships", json={"name": "Copa Repetición", "rounds": 1, "rules": RULES})
        assert made.status_code == 200, made.text
        cid, organiser, code = (made.json()[k] for k in ("championship", "organiser", "register"))
        boss = {"Authorization": f"Bearer {organiser}"}
        for i in range(4):
            body: dict[str, Any] = {"name": f"Pareja {i + 1}", "players": [f"A{i}", f"B{i}"]}
            if i % 2 == 0:
                answer = http.post(
                    f"api/championships/{cid}/pairs", json={**body, "computer": "facil"}, headers=boss
                )
            else:
                answer = http.post(f"api/championships/{cid}/pairs", json={**body, "code": code})
            assert answer.status_code == 200, answer.text
        for i in range(1, 5):
            seeded = http.post(f"api/championships/{cid}/pairs/p{i}/seed", json={"seed": i}, headers=boss)
            assert seeded.status_code == 200, seeded.text
        assert http.post(f"api/championships/{cid}/start", headers=boss).json() == {
            "opened": ["r1t1", "r1t2"]
        }
        deadline = time.monotonic() + 4 * STEP_TIMEOUT_MS / 1000
        while http.get(f"api/championships/{cid}").json()["replays"] != ["r1t1"]:
            assert time.monotonic() < deadline, "table 1's computers did not finish"
            time.sleep(0.2)  # polling the server's championship, not a wait on the page
        refused = http.get(f"api/championships/{cid}/partidas/r1t2/replay")
        assert refused.status_code == 409 and refused.json()["code"] == "partida_in_play"
        replay = http.get(f"api/championships/{cid}/partidas/r1t1/replay")
        assert replay.status_code == 200, replay.text
    MADE[server.url] = cid, replay.json()
    return MADE[server.url]


def shown_cards(page: Page, testid: str) -> list[str]:
    return (
        page.get_by_test_id(testid).locator("[data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
    )


def deal_starts(replay: dict[str, Any]) -> list[int]:
    """The plies where each deal begins (the deal chooser's options)."""
    steps = replay["steps"]
    where = [(s["hand"], s["deal"]) for s in steps]
    return [s["ply"] for i, s in enumerate(steps) if i == 0 or where[i] != where[i - 1]]


def check_step(page: Page, replay: dict[str, Any], ply: int) -> None:
    """The page shows ply ``ply`` as the server's replay has it: the table and every hand."""
    expect(page.get_by_test_id("replay-where")).to_have_attribute("data-ply", str(ply))
    step = replay["steps"][ply]
    assert shown_cards(page, "replay-table") == step["table"]
    for seat in range(4):
        assert shown_cards(page, f"replay-hand-{seat}") == step["hands"][seat]


#: The two sizes: a computer's window, and a phone (touch) — each a context in which axe can run.
SIZES: dict[str, dict[str, Any]] = {
    "desktop": {},
    "phone": {**PHONE, "is_mobile": True, "has_touch": True, "device_scale_factor": 2},
}


@pytest.mark.parametrize("size", list(SIZES))
def test_a_finished_partida_is_replayed_from_the_standings(people: People, server: Server, size: str) -> None:
    cid, replay = championship(server)
    last = len(replay["steps"]) - 1
    page, log = people.open(bypass_csp=True, **SIZES[size])
    phone = size == "phone"
    press = (
        (lambda testid: page.get_by_test_id(testid).tap())
        if phone
        else (lambda testid: page.get_by_test_id(testid).click())
    )
    page.goto(f"{server.url}#standings={cid}")
    # "Repetir" for the finished partida only; the other is played still ("Mirar")
    offered = page.get_by_test_id("standings-replay")
    expect(offered).to_have_count(1)
    expect(offered).to_have_attribute("data-partida", "r1t1")
    expect(offered).to_have_text("Repetir")
    playing = page.locator('[data-testid="champ-partida"][data-partida="r1t2"]')
    expect(playing.get_by_test_id("standings-watch")).to_be_visible()
    expect(playing.get_by_test_id("standings-replay")).to_have_count(0)
    a11y.check(page, f"the standings with a replay offered ({size})", (page.viewport_size,))
    press("standings-replay")
    expect(page.get_by_test_id("replay")).to_be_visible()
    expect(page.get_by_test_id("replay-where")).to_contain_text(f"Jugada 0 de {last}")
    expect(page.get_by_test_id("replay-open")).to_be_checked()  # every hand: the partida is over
    expect(page.get_by_test_id("nav-history")).not_to_have_attribute("aria-current", "page")  # not History's
    check_step(page, replay, 0)
    expect(page.get_by_test_id("replay-analyse")).to_have_count(0)  # no seat asked: nothing to analyse
    for ply in (1, 2, 3):
        press("replay-next")
        check_step(page, replay, ply)
    press("replay-prev")
    check_step(page, replay, 2)
    # the last deal, then step by step to the end
    marks = deal_starts(replay)
    page.get_by_test_id("replay-deal").select_option(str(marks[-1]))
    check_step(page, replay, marks[-1])
    for ply in range(marks[-1] + 1, last + 1):
        press("replay-next")
        expect(page.get_by_test_id("replay-where")).to_have_attribute("data-ply", str(ply))
    check_step(page, replay, last)
    expect(page.get_by_test_id("replay-next")).to_be_disabled()
    # the keyboard: Home and End
    page.keyboard.press("Home")
    check_step(page, replay, 0)
    page.keyboard.press("End")
    check_step(page, replay, last)
    assert page.evaluate("document.scrollingElement.scrollWidth") <= page.viewport_size["width"]  # type: ignore[index]
    a11y.check(page, f"a championship partida's replay ({size})", (page.viewport_size,))
    # in English the words change, the step stays
    page.get_by_test_id("lang-switch").click()
    expect(page.get_by_test_id("replay-where")).to_contain_text(f"Play {last} of {last}")
    expect(page.get_by_test_id("replay-back")).to_have_text("Back to the standings")
    press("replay-back")
    expect(page.get_by_test_id("champ-standings")).to_be_visible()
    expect(page.get_by_test_id("standings-replay")).to_have_text("Replay")

    # a refusal (the round's state changed since the standings were drawn: faked here) in the page's words
    def refuse(route: Route) -> None:
        body = {"detail": "partida r1t1 is finished, but …", "code": "twins_in_play"}
        route.fulfill(status=409, content_type="application/json", body=json.dumps(body))

    page.route("**/partidas/r1t1/replay", refuse)
    press("standings-replay")
    expect(page.get_by_test_id("replay-error")).to_be_visible()
    expect(page.get_by_test_id("error-text")).to_contain_text(
        "Another table of the round plays the same cards"
    )
    press("replay-back")
    expect(page.get_by_test_id("champ-standings")).to_be_visible()
    # the browser logs the refused request itself; nothing else went wrong
    refused = [e for e in log.errors if "status of 409" in e]
    assert len(refused) == 1, log.errors
    log.errors.remove(refused[0])
    assert not log.errors, log.errors
