"""The deal of the day in the page (issue 29, docs/web.md "The deal of the day"), at 1280×800 and 360×740:
the screen shows the day's ranking; "Jugar las cartas del día" opens the day's room at the table; once its
chica is over the screen shows the person's result and place, their row marked in the ranking. The cards
are the same as everyone's that day (the server's own test checks it: tests/test_daily.py).
"""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from harness import PageLog, Server, play_over_socket
from playwright.sync_api import Page, expect


def ranking(server: Server, room: str | None = None) -> dict[str, Any]:
    query = f"?room={room}" if room else ""
    with urllib.request.urlopen(server.url + f"api/daily{query}", timeout=30) as answer:
        data: dict[str, Any] = json.loads(answer.read())
    return data


def test_the_deal_of_the_day_is_played_and_ranked(sized: tuple[Page, PageLog], server: Server) -> None:
    # someone else played today's deal first (over HTTP and the socket, as another browser would)
    request = urllib.request.Request(
        server.url + "api/daily", data=b'{"name": "Rosa"}', headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        other = json.loads(answer.read())
    play_over_socket(server, other["room"], other["token"], pick=-1)
    before = ranking(server)["count"]
    page, log = sized
    page.goto(server.url)
    expect(page.get_by_test_id("start")).to_be_enabled()
    page.get_by_test_id("open-daily").click()
    expect(page.get_by_test_id("daily")).to_be_visible()
    expect(page.get_by_test_id("daily-row")).to_have_count(before)
    expect(page.get_by_test_id("daily-day")).to_have_attribute("data-day", ranking(server)["day"])
    page.get_by_test_id("daily-play").click()
    expect(page.locator('[data-testid=table-screen][data-ready="1"]')).to_be_visible()
    kept = page.evaluate("JSON.parse(localStorage.getItem('cuarenta.daily'))")
    assert kept["day"] == ranking(server)["day"] and kept["room"]
    # the chica played to its end (the first legal move each turn) with the page away, then the screen again
    page.goto("about:blank")
    play_over_socket(server, kept["room"], kept["token"])
    page.goto(server.url)
    # the saved game, resumed, shows its end: the day's ranking is offered, the record (it names the seed)
    # is not
    expect(page.get_by_test_id("result-daily")).to_be_visible()
    expect(page.get_by_test_id("download-record")).to_be_hidden()
    expect(page.get_by_test_id("result-replay")).to_be_visible()
    page.get_by_test_id("result-daily").click()
    mine = ranking(server, kept["room"])["mine"]
    expect(page.get_by_test_id("daily-mine")).to_have_attribute("data-result", str(mine["result"]))
    expect(page.get_by_test_id("daily-mine")).to_contain_text(f"Puesto {mine['place']} de {before + 1}")
    expect(page.get_by_test_id("daily-row")).to_have_count(before + 1)
    expect(page.locator("[data-testid=daily-row].daily-you")).to_have_attribute(
        "data-result", str(mine["result"])
    )
    expect(page.get_by_test_id("daily-play")).to_have_count(0)
    fits = (
        "e => e.scrollWidth <= e.parentElement.clientWidth + 1"  # the ranking fits its panel, at both sizes
    )
    assert page.get_by_test_id("daily-ranking").evaluate(fits)
    page.get_by_test_id("lang-switch").click()
    expect(page.get_by_test_id("daily-mine")).to_contain_text(f"Place {mine['place']} of {before + 1}")
    assert page.evaluate("document.scrollingElement.scrollWidth") <= page.viewport_size["width"]  # type: ignore[index]
    # back at the table, the result's "Repetir la mesa" opens the mesa's replay at its first step
    page.get_by_test_id("nav-table").click()
    page.get_by_test_id("result-replay").click()
    expect(page.get_by_test_id("replay-where")).to_have_attribute("data-ply", "0")
    assert not log.errors, log.errors
