"""Taking a seat back from another device, in the browser (docs/tables.md "Taking a seat back", docs/web.md):
two people at a table; the first reads her code from the table's menu and her browser context is closed;
a new context opens the invite link, types the code and plays on as that seat (the same hand, the same
name). And the creator giving a disconnected person's seat to a third context, which takes it in the
middle of the game with a name.

Every person is a browser context of their own (their own localStorage); every wait is on the page's state.

Also (issue 25, item 14): on the join page of a full or started 2 vs 2 table the way back (the code's form)
comes first, before the note that the table is full, and is in the first screen; so is the join form of a
table that waits, at 360x740, 390x844 and 1280x800.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from harness import (
    PHONE,
    STEP_JS,
    STEP_TIMEOUT_MS,
    PageLog,
    People,
    Server,
    choose_first_option,
    close_summary,
    hand_cards,
    join_table,
    local_storage,
    make_table,
)
from playwright.sync_api import Page, expect

CODE = re.compile(r"^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$")
#: How long a few moves may take.
MOVES_SECONDS = 120


def create_table(page: Page, base_url: str, name: str = "Ana") -> str:
    """A 2-seat table with a friend from the form; returns the invite link."""
    page.goto(base_url)
    expect(page.get_by_test_id("start")).to_be_enabled()
    expect(page.get_by_test_id("preset").locator("option").first).to_be_attached()
    page.get_by_test_id("mode-friends").check()
    page.get_by_test_id("player-name").fill(name)
    page.get_by_test_id("players-2").check()
    page.get_by_test_id("mode-quick").check()
    page.get_by_test_id("start").click()
    expect(page.get_by_test_id("waiting-room")).to_be_visible()
    link = page.get_by_test_id("invite-link")
    expect(link).to_have_attribute("href", re.compile(r"/#join=[\w-]+\.[\w-]+$"))
    return str(link.get_attribute("href"))


def at_table(page: Page) -> None:
    expect(page.get_by_test_id("table-screen")).to_be_visible(timeout=STEP_TIMEOUT_MS)
    expect(page.get_by_test_id("hand-card").first).to_be_visible(timeout=STEP_TIMEOUT_MS)


def last_state(log: PageLog) -> dict[str, Any]:
    states = log.states()
    assert states, "no state received"
    return states[-1]


def play_moves(pages: list[Page], moves: int) -> None:
    """The people play ``moves`` cards between them (the first card, the first capture option)."""
    played = 0
    deadline = time.monotonic() + MOVES_SECONDS
    while played < moves:
        assert time.monotonic() < deadline, f"{played} of {moves} moves in {MOVES_SECONDS} s"
        acted = False
        for page in pages:
            kind = page.evaluate(STEP_JS)
            if kind == "error":
                raise AssertionError(page.get_by_test_id("error").inner_text())
            if kind == "ready":
                page.get_by_test_id("hand-card").and_(
                    page.locator(":not([aria-disabled=true])")
                ).first.click()
                played += 1
                acted = True
            elif kind == "choice":
                choose_first_option(page)
                acted = True
            elif kind == "summary":
                close_summary(page)
                acted = True
            elif kind == "over":
                return
        if not acted:
            pages[0].wait_for_timeout(50)  # a short pause between looks at two pages


def open_menu(page: Page) -> None:
    """Open the table's menu (the seat code and the creator's hand-overs are in it), unless it is open."""
    if page.get_by_test_id("table-menu").get_attribute("open") is None:
        page.get_by_test_id("table-menu-toggle").click()
    expect(page.locator("#table-menu-items")).to_be_visible()


def test_a_seat_is_taken_back_from_a_new_browser_with_the_code_of_the_menu(
    people: People, base_url: str
) -> None:
    ana, _ = people.open()
    beto, beto_log = people.open(**PHONE)
    link = create_table(ana, base_url)
    beto.goto(link)
    beto.get_by_test_id("join-name").fill("Beto")
    beto.get_by_test_id("join-submit").click()
    at_table(ana)
    at_table(beto)
    # Beto reads his code in the table's menu (and may copy it)
    code_box = beto.get_by_test_id("seat-code")
    expect(code_box).to_have_text(CODE)
    code = code_box.text_content().strip()
    open_menu(beto)
    beto.get_by_test_id("seat-code-copy").click()
    expect(beto.locator("#seat-code-copied")).not_to_be_empty()
    # nobody else is shown it, and it is never in an address
    expect(ana.get_by_test_id("seat-code")).not_to_have_text(code)
    assert all(
        code not in url and code.replace("-", "") not in url for log in people.logs for url in log.urls
    )
    hand = sorted(hand_cards(beto))
    seat = last_state(beto_log)["seat"]
    assert seat == 1
    # Beto's phone dies: the context is closed for good
    people.contexts[1].close()
    # a new browser opens the invite link: the table has started, so it asks for the code
    phone, phone_log = people.open(**PHONE)
    phone.goto(link)
    expect(phone.get_by_test_id("join-problem")).to_be_visible()
    expect(phone.get_by_test_id("reclaim-code")).to_be_visible()
    people.expected.append("status of 403")  # the wrong code below
    phone.get_by_test_id("reclaim-code").fill("ZZZZ-ZZZZ" if code != "ZZZZ-ZZZZ" else "YYYY-YYYY")
    phone.get_by_test_id("reclaim-submit").click()
    expect(phone.get_by_test_id("reclaim-problem")).to_contain_text("código")
    phone.get_by_test_id("reclaim-code").fill(code.lower())  # typed as it comes
    phone.get_by_test_id("reclaim-submit").click()
    at_table(phone)
    assert "#join" not in phone.url
    assert all(code not in url for url in phone_log.urls)
    state = last_state(phone_log)
    assert state["seat"] == 1 and state["seats"][1]["name"] == "Beto"
    assert sorted(hand_cards(phone)) == hand  # the same hand
    session = local_storage(phone)["cuarenta.session"]
    assert '"seat":1' in session and code not in session  # a new code came with the new token
    expect(phone.get_by_test_id("seat-code")).to_have_text(CODE)
    assert phone.get_by_test_id("seat-code").text_content().strip() != code
    play_moves([ana, phone], 4)  # and plays on


def test_the_creator_gives_a_disconnected_seat_to_someone_new(people: People, base_url: str) -> None:
    ana, _ = people.open()
    beto, _ = people.open()
    link = create_table(ana, base_url)
    beto.goto(link)
    beto.get_by_test_id("join-name").fill("Beto")
    beto.get_by_test_id("join-submit").click()
    at_table(ana)
    at_table(beto)
    expect(ana.get_by_test_id("handover-1")).to_have_count(0)  # Beto is here: nothing to give
    expect(beto.get_by_test_id("handover-0")).to_have_count(0)  # only the creator gives seats
    people.contexts[1].close()  # Beto's phone dies
    ana.on("dialog", lambda dialog: dialog.accept())
    give = ana.get_by_test_id("handover-1")
    expect(give).to_be_attached(timeout=STEP_TIMEOUT_MS)
    open_menu(ana)
    expect(give).to_be_visible()
    expect(give).to_contain_text("Beto")
    give.click()
    expect(ana.get_by_test_id("handover-done")).to_contain_text("Beto")
    expect(ana.get_by_test_id("handover-invite")).to_have_attribute("href", link)
    # someone new opens the invite link: the seat is offered by its former holder's name
    carla, carla_log = people.open()
    carla.goto(link)
    offered = carla.get_by_test_id("join-vacant-1")
    expect(offered).to_be_visible()
    expect(carla.locator("#join-vacant")).to_contain_text("Beto")
    carla.get_by_test_id("join-name").fill("Carla")
    carla.get_by_test_id("join-submit").click()
    at_table(carla)
    state = last_state(carla_log)
    assert state["seat"] == 1 and state["seats"][1]["name"] == "Carla"
    expect(carla.get_by_test_id("seat-code")).to_have_text(CODE)
    play_moves([ana, carla], 4)  # Ana plays on with Carla


# -- issue 25, item 14: the way in, or back, in the first screen ------------------------------------------
_BOX_JS = """(ids) => Object.fromEntries(ids.map((id) => {
  const n = document.querySelector(`[data-testid=${id}]`);
  if (!n) return [id, null];
  const r = n.getBoundingClientRect();
  return [id, [r.left, r.top, r.right, r.bottom]];
}))"""


def boxes(page: Page, ids: list[str]) -> dict[str, list[float] | None]:
    return dict(page.evaluate(_BOX_JS, ids))


def in_first_screen(page: Page, ids: list[str]) -> None:
    """Each hook's box is laid out and inside the viewport, with nothing scrolled."""
    size = page.viewport_size
    assert size is not None
    assert page.evaluate("() => [scrollX, scrollY]") == [0, 0]
    for name, box in boxes(page, ids).items():
        assert box is not None, f"{name} is missing"
        left, top, right, bottom = box
        assert right > left and bottom > top, f"{name} is not laid out: {box}"
        assert left >= -0.5 and top >= -0.5, f"{name} at {box}"
        assert right <= size["width"] + 0.5 and bottom <= size["height"] + 0.5, f"{name} at {box}, in {size}"


SCREENS = [(PHONE["width"], PHONE["height"]), (390, 844), (1280, 800)]


@pytest.mark.parametrize("size", SCREENS, ids=[f"{w}x{h}" for w, h in SCREENS])
def test_the_way_back_and_the_join_form_are_in_the_first_screen(
    people: People, server: Server, size: tuple[int, int]
) -> None:
    width, height = size
    # a 2 vs 2 table that has started, all four seated: the way back first, then the note for someone new
    full = make_table(server, players=4, seats=["friend", "friend", "friend"], name="Carla")
    for name in ("Don Jacinto", "Beto", "Dani"):
        join_table(server, full, name)
    page = people.page(width=width, height=height)
    page.goto(f"{server.url}#join={full['room']}.{full['invite']}")
    expect(page.get_by_test_id("join-seats").locator("[data-testid=table-seat]")).to_have_count(4)
    expect(page.get_by_test_id("reclaim-form")).to_be_visible()
    expect(page.get_by_test_id("join-problem")).to_be_visible()
    in_first_screen(page, ["reclaim-form", "reclaim-code", "reclaim-submit"])
    found = boxes(page, ["reclaim-form", "join-problem", "join-seats"])
    form, problem, seats = (found[k] for k in ("reclaim-form", "join-problem", "join-seats"))
    assert form and problem and seats
    assert form[3] <= problem[1] and problem[3] <= seats[1], "the way back, then the note, then the seats"
    # a 2 vs 2 table that waits for friends: its join form, name to button, in the first screen
    waiting = make_table(server, players=4, seats=["friend", "friend", "friend"], name="Ana")
    page = people.page(width=width, height=height)
    page.goto(f"{server.url}#join={waiting['room']}.{waiting['invite']}")
    expect(page.get_by_test_id("join-form")).to_be_visible()
    expect(page.get_by_test_id("join-seats").locator("[data-testid=table-seat]")).to_have_count(4)
    in_first_screen(page, ["join-name", "join-team-0", "join-team-1", "join-submit"])
