"""Tables with friends in the browser (docs/web.md "Tables with friends"): creating a table from the form,
the waiting room and its invite link, the join page, the lobby, the creator's seats, and a whole chica
between two people in two browser contexts.

Every person is a browser context of their own (their own localStorage); every wait is on the page's
state, bounded by a deadline.
"""

from __future__ import annotations

import re
import time

from harness import (
    PHONE,
    STEP_JS,
    STEP_TIMEOUT_MS,
    People,
    Server,
    choose_first_option,
    close_summary,
    local_storage,
)
from playwright.sync_api import Locator, Page, expect

#: How long a whole chica between two people may take.
CHICA_SECONDS = 300


def form_ready(page: Page) -> None:
    expect(page.get_by_test_id("start")).to_be_enabled()
    expect(page.get_by_test_id("preset").locator("option").first).to_be_attached()


def create_table(
    page: Page,
    base_url: str,
    *,
    name: str = "Ana",
    players: int = 2,
    seats: dict[int, str] | None = None,
    lobby: bool = False,
    rated: bool = False,
) -> str:
    """Fill the form with friends (the quick game), create the table; returns the invite link."""
    page.goto(base_url)
    form_ready(page)
    page.get_by_test_id("mode-friends").check()
    page.get_by_test_id("player-name").fill(name)
    page.get_by_test_id(f"players-{players}").check()
    page.get_by_test_id("mode-quick").check()
    for seat, value in (seats or {}).items():
        page.get_by_test_id(f"friend-seat-{seat}").select_option(value)
    if lobby:
        page.get_by_test_id("table-lobby").check()
    if rated:
        page.get_by_test_id("table-rated").check()
    with page.expect_request("**/api/tables") as request:
        page.get_by_test_id("start").click()
    body = request.value.post_data_json
    assert body["players"] == players and body["name"] == name and body["lobby"] is lobby
    expect(page.get_by_test_id("waiting-room")).to_be_visible()
    link = page.get_by_test_id("invite-link")
    expect(link).to_have_attribute("href", re.compile(r"/#join=[\w-]+\.[\w-]+$"))
    href = str(link.get_attribute("href"))
    assert href.startswith(base_url.rstrip("/") + "/#join=")
    return href


def seat_of(page: Page, seat: int) -> Locator:
    """A seat of the waiting room."""
    return page.get_by_test_id("wait-seats").locator(f"[data-seat='{seat}']")


def join(page: Page, link: str, name: str, team: int | None = None) -> None:
    page.goto(link)
    expect(page.get_by_test_id("join")).to_be_visible()
    page.get_by_test_id("join-name").fill(name)
    if team is not None:
        page.get_by_test_id(f"join-team-{team}").check()
    page.get_by_test_id("join-submit").click()


def play_both_to_the_end(pages: list[Page]) -> dict[int, int]:
    """Both people play (the first card, the first capture option), close their summaries, until both
    pages show the mesa's result; returns how many cards each page played."""
    played = dict.fromkeys(range(len(pages)), 0)
    done: set[int] = set()
    deadline = time.monotonic() + CHICA_SECONDS
    while len(done) < len(pages):
        assert time.monotonic() < deadline, f"the chica did not end in {CHICA_SECONDS} s"
        acted = False
        for i, page in enumerate(pages):
            if i in done:
                continue
            kind = page.evaluate(STEP_JS)
            if kind == "error":
                raise AssertionError(page.get_by_test_id("error").inner_text())
            if kind == "ready":
                page.get_by_test_id("hand-card").and_(
                    page.locator(":not([aria-disabled=true])")
                ).first.click()
                played[i] += 1
                acted = True
            elif kind == "choice":
                choose_first_option(page)
                acted = True
            elif kind == "summary":
                close_summary(page)
                acted = True
            elif kind == "over":
                done.add(i)
        if not acted:
            pages[0].wait_for_timeout(50)  # a short pause between looks at two pages
    return played


# -- (a) two people, an invite link, a whole chica --------
def test_two_friends_play_a_whole_chica_through_the_invite_link(people: People, base_url: str) -> None:
    ana = people.page()
    beto = people.page()
    link = create_table(ana, base_url)
    # Ana's waiting room: her seat, one open seat, the QR code, and the start button for her alone
    expect(ana.get_by_test_id("wait-seats").get_by_test_id("table-seat")).to_have_count(2)
    expect(ana.get_by_test_id("wait-seats").locator("[data-kind=open]")).to_have_count(1)
    expect(ana.get_by_test_id("invite-qr").locator("svg")).to_have_count(1)
    expect(ana.get_by_test_id("table-start")).to_be_visible()
    session = local_storage(ana)["cuarenta.session"]
    assert '"table":true' in session
    # a reload comes back to the waiting room
    ana.reload()
    expect(ana.get_by_test_id("waiting-room")).to_be_visible()
    expect(ana.get_by_test_id("invite-link")).to_have_attribute("href", link)

    beto.goto(base_url)
    form_ready(beto)
    beto.evaluate("() => localStorage.setItem('cuarenta.name', 'Beto')")
    beto.goto(link)
    expect(beto.get_by_test_id("join-host")).to_contain_text("Ana")
    expect(beto.get_by_test_id("join-name")).to_have_value("Beto")
    beto.get_by_test_id("join-submit").click()
    # the table is full: it starts, and both see their cards
    for page in (ana, beto):
        expect(page.get_by_test_id("table-screen")).to_be_visible(timeout=STEP_TIMEOUT_MS)
        expect(page.get_by_test_id("hand-card").first).to_be_visible(timeout=STEP_TIMEOUT_MS)
    assert "#join" not in beto.url, "the invite leaves the address once used"
    played = play_both_to_the_end([ana, beto])
    assert played[0] > 3 and played[1] > 3
    for page in (ana, beto):
        expect(page.get_by_test_id("result")).to_be_visible()
        storage = local_storage(page)
        assert "hand" not in " ".join(storage), storage.keys()


# -- (b) a full table offers to watch --------
def test_a_full_table_offers_to_watch_and_a_bad_invite_says_so(people: People, base_url: str) -> None:
    ana = people.page()
    beto = people.page()
    carla = people.page()
    link = create_table(ana, base_url, name="Ana")
    room = link.split("#join=")[1].rsplit(".", 1)[0]
    join(beto, link, "Beto")
    expect(beto.get_by_test_id("table-screen")).to_be_visible(timeout=STEP_TIMEOUT_MS)
    carla.goto(link)
    expect(carla.get_by_test_id("join-problem")).to_be_visible()
    expect(carla.get_by_test_id("join-form")).to_be_hidden()
    expect(carla.get_by_test_id("join-watch")).to_have_attribute("href", f"#watch={room}")
    # an invite of another table (or a broken one) is refused with a clear message
    other = create_table(people.page(), base_url, name="Dora")
    wrong = other.rsplit(".", 1)[0] + ".notTheInviteCode"
    carla.goto(wrong)
    carla.get_by_test_id("join-name").fill("Carla")
    people.expected.append("status of 403")  # the refused join
    carla.get_by_test_id("join-submit").click()
    expect(carla.get_by_test_id("join-problem")).to_have_text(
        "Este enlace de invitación no sirve: pide otro a quien te invitó."
    )
    carla.goto(base_url.rstrip("/") + "/#join=nada")
    expect(carla.get_by_test_id("join-problem")).to_be_visible()


# -- (c) the creator seats the computer and starts a 2 vs 2 with one friend --------
def test_the_creator_seats_the_computer_and_starts_a_2v2(people: People, base_url: str) -> None:
    ana = people.page()
    beto = people.page()
    link = create_table(ana, base_url, players=4, seats={1: "friend", 2: "friend", 3: "friend"})
    # the quick game in 2 vs 2 is basico's options for 4 players, as a custom table
    expect(ana.get_by_test_id("wait-seats").get_by_test_id("table-seat")).to_have_count(4)
    join(beto, link, "Beto", team=0)
    expect(beto.get_by_test_id("waiting-room")).to_be_visible()
    expect(beto.get_by_test_id("wait-others")).to_contain_text("Ana")
    expect(beto.get_by_test_id("table-start")).to_be_hidden()
    # Beto took the partner's seat (2); Ana sees him, connected
    expect(seat_of(ana, 2)).to_contain_text("Beto")
    expect(seat_of(ana, 2)).to_have_attribute("data-connected", "true")
    ana.get_by_test_id("seat-level-1").select_option("facil")
    ana.get_by_test_id("seat-computer-1").click()
    expect(seat_of(ana, 1)).to_have_attribute("data-kind", "computer")
    expect(seat_of(beto, 1)).to_have_attribute("data-kind", "computer")
    ana.get_by_test_id("table-start").click()
    for page in (ana, beto):
        expect(page.get_by_test_id("table-screen")).to_be_visible(timeout=STEP_TIMEOUT_MS)
        expect(page.get_by_test_id("hand-card").first).to_be_visible(timeout=STEP_TIMEOUT_MS)
        expect(page.locator("#board")).to_have_attribute("data-players", "4")


# -- (d) the lobby --------
def test_the_lobby_lists_a_public_table_and_joining_from_it_works(
    people: People, base_url: str, server: Server
) -> None:
    ana = people.page()
    beto = people.page()
    link = create_table(ana, base_url, name="Anita", lobby=True)
    room = link.split("#join=")[1].rsplit(".", 1)[0]
    assert any(t["room"] == room for t in server.get_json("api/lobby")["tables"])
    beto.goto(base_url)
    form_ready(beto)
    entry = beto.locator(f"[data-testid=lobby-table][data-room='{room}']")
    expect(entry).to_contain_text("Anita")
    entry.get_by_test_id("lobby-sit").click()
    expect(beto.get_by_test_id("join")).to_be_visible()
    beto.get_by_test_id("join-name").fill("Beto")
    beto.get_by_test_id("join-submit").click()
    for page in (ana, beto):
        expect(page.get_by_test_id("hand-card").first).to_be_visible(timeout=STEP_TIMEOUT_MS)
    beto.get_by_test_id("nav-new").click()
    expect(beto.locator(f"[data-testid=lobby-table][data-room='{room}']")).to_have_count(0)


# -- (e) a phone --------
#: Every element of each test id, measured at one moment (the waiting room is drawn again when the table
#: changes: measured one by one, an element could go between finding it and measuring it): its box, or
#: null when it is not laid out.
_BOXES_JS = """
(ids) => ids.map((id) => [...document.querySelectorAll(`[data-testid="${id}"]`)].map((e) => {
  const r = e.getBoundingClientRect();
  return r.width === 0 && r.height === 0 ? null : { x: r.left, width: r.width };
}))
"""


def reachable(page: Page, testids: list[str], where: str) -> None:
    width, inner = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert width <= inner, f"{where}: the page is {width} px wide in a {inner} px viewport"
    for testid, boxes in zip(testids, page.evaluate(_BOXES_JS, testids), strict=True):
        for box in boxes:
            assert box is not None, f"{where}: {testid}"
            assert box["x"] >= 0 and box["x"] + box["width"] <= inner + 0.5, f"{where}: {testid} at {box}"


def test_on_a_phone_every_control_is_reachable(people: People, base_url: str) -> None:
    phone = {**PHONE, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
    ana = people.page(**phone)
    beto = people.page(**phone)
    ana.goto(base_url)
    form_ready(ana)
    ana.get_by_test_id("mode-friends").check()
    ana.get_by_test_id("players-4").check()
    reachable(
        ana,
        [
            "mode-friends",
            "friend-seat-1",
            "friend-seat-2",
            "friend-seat-3",
            "table-grace",
            "table-clock",
            "table-lobby",
            "start",
        ],
        "the form with friends",
    )
    link = create_table(ana, base_url, players=4)
    reachable(
        ana,
        ["invite-link", "invite-copy", "seat-level-1", "seat-computer-1", "table-start"],
        "the waiting room",
    )
    ana.get_by_test_id("invite-copy").click()
    expect(ana.get_by_test_id("invite-copied")).not_to_be_empty()
    beto.goto(link)
    expect(beto.get_by_test_id("join-form")).to_be_visible()
    reachable(beto, ["join-name", "join-team-0", "join-team-1", "join-submit"], "the join form")


# -- the quick game in 2 vs 2 (issue 8's leftover) --------
def test_the_quick_game_in_2v2_is_basicos_options_for_four(
    people: People, base_url: str, server: Server
) -> None:
    options = server.get_json("api/options")
    quick = next(p for p in options["presets"] if p["name"] == options["quick_preset"])
    page = people.page()
    page.goto(base_url)
    form_ready(page)
    page.get_by_test_id("players-4").check()
    expect(page.get_by_test_id("mode-quick")).to_be_enabled()
    page.get_by_test_id("mode-quick").check()
    expect(page.get_by_test_id("preset")).to_have_value("custom")
    expect(page.get_by_test_id("mode-quick")).to_be_checked()
    # back to 1 vs 1: the preset itself again
    page.get_by_test_id("players-2").check()
    expect(page.get_by_test_id("preset")).to_have_value(quick["name"])
    page.get_by_test_id("players-4").check()
    expect(page.get_by_test_id("mode-quick")).to_be_checked()
    with page.expect_request("**/api/rooms") as request:
        page.get_by_test_id("start").click()
    rules = request.value.post_data_json["rules"]
    assert rules["preset"] == "custom" and rules["players"] == 4
    assert all(rules[k] == v for k, v in quick["options"].items()), rules
    # the game starts: a hand is dealt (or, rarely, a deal of four sevens ends the one-chica mesa at once)
    dealt = page.get_by_test_id("hand-card").first.or_(page.locator("#result:not([hidden])"))
    expect(dealt).to_be_visible(timeout=STEP_TIMEOUT_MS)


def test_a_rated_table_gives_each_browser_its_profile(people: People, base_url: str) -> None:
    """A rated table needs a profile per person: the page makes one (kept in this browser only) for the
    creator and for whoever joins, and the table says it is rated."""
    ana, beto = people.page(), people.page()
    link = create_table(ana, base_url, rated=True)
    join(beto, link, "Beto")
    for page in (ana, beto):  # the joiner's profile is made after the click, before its seat is taken
        page.wait_for_function("() => localStorage.getItem('cuarenta.profile') !== null")
    profiles = [
        page.evaluate("() => JSON.parse(localStorage.getItem('cuarenta.profile'))") for page in (ana, beto)
    ]
    assert all(p and p["id"] and p["key"] for p in profiles) and profiles[0]["id"] != profiles[1]["id"]
    assert [p["name"] for p in profiles] == ["Ana", "Beto"]
    room = link.split("#join=")[1].split(".")[0]
    info = ana.request.get(f"{base_url.rstrip('/')}/api/tables/{room}").json()
    assert info["rated"] is True and [s["kind"] for s in info["seats"]] == ["person", "person"]
    for page in (ana, beto):
        expect(page.get_by_test_id("hand-card").first).to_be_visible(timeout=15_000)
