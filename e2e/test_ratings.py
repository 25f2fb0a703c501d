"""The leaderboard and profile pages in a real browser (docs/tables.md, "Profiles and ratings").

Three profiles are made through the API; two mesas are rated by calling the server's own ``rate_mesa`` on
its database file (no table plays them here), then the pages must show the players in order, their
ratings and games, in Spanish and in English, with no script error and no CSP violation; the page of the
browser's own profile (localStorage ``cuarenta.profile``) renames it.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from harness import PHONE, PageLog, Server
from playwright.sync_api import Page, expect

from cuarenta.server.ratings.mesa import rate_mesa
from cuarenta.server.store import Store

RECORD_VIOLATIONS = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(e.effectiveDirective));
"""


#: a club's own server (``own_server``), whose leaderboard lists a profile from its first rated mesa on (the
#: default waits for 5 against 3 opponents: test_a_new_profile_is_provisional_and_an_unrated_mesa_says_why)
club_server = pytest.mark.serve(options=("--leaderboard-games", "1", "--leaderboard-opponents", "1"))


@club_server
def test_the_leaderboard_and_the_profiles_in_both_languages(own_server: Server, page: Page) -> None:
    ana, beto, carla = (
        own_server.post_json("/api/profiles", {"name": n}) for n in ("Ana", "<i>Beto</i>", "Carla")
    )
    store = Store.in_dir(own_server.data_dir)
    try:
        ids = {"ana": ana["id"], "beto": beto["id"], "carla": carla["id"]}
        first = rate_mesa(
            store,
            room="r1",
            mesa=1,
            finished="2026-12-01T10:00:00Z",
            teams=[[ids["ana"]], [ids["beto"]]],
            winner=0,
        )
        second = rate_mesa(
            store,
            room="r2",
            mesa=1,
            finished="2026-12-02T10:00:00Z",
            teams=[[ids["beto"]], [ids["carla"]]],
            winner=1,
        )
    finally:
        store.close()
    assert first is not None and second is not None

    page.add_init_script(RECORD_VIOLATIONS)
    page.goto(own_server.url)  # the game's header links to the leaderboard
    expect(page.get_by_test_id("nav-leaderboard")).to_have_attribute("href", "leaderboard.html")
    expect(page.get_by_role("link", name="Clasificación")).to_be_visible()
    # this browser's own profile is Ana's (the game page would have made it)
    page.add_init_script(f"localStorage.setItem('cuarenta.profile', {json.dumps(json.dumps(ana))})")
    page.goto(own_server.url + "leaderboard.html")
    expect(page.locator("body[data-board='1v1']")).to_be_attached()
    expect(page.locator("h1")).to_have_text("Clasificación")
    rows = page.get_by_test_id("leaderboard-row")
    expect(rows).to_have_count(3)
    # Ana and Carla won their one mesa against a newcomer and Beto, who lost twice, is last
    names = rows.locator("td:nth-child(2)").all_inner_texts()
    assert names[2] == "<i>Beto</i>" and set(names[:2]) == {"Ana", "Carla"}  # plain text, never markup
    assert page.locator("i").count() == 0
    ratings = [int(x) for x in rows.locator("td:nth-child(3)").all_inner_texts()]
    assert ratings == sorted(ratings, reverse=True) and ratings[-1] < 1000 < ratings[0]
    expect(page.locator("tr.mine")).to_contain_text("Ana")
    # 2 vs 2: nobody yet
    page.get_by_test_id("tab-2v2").click()
    expect(page.get_by_test_id("leaderboard-empty")).to_be_visible()
    expect(page.get_by_test_id("leaderboard-empty")).to_contain_text("Todavía nadie")
    page.get_by_test_id("tab-1v1").click()
    expect(rows).to_have_count(3)

    # English
    page.get_by_test_id("lang-switch").click()
    expect(page.locator("h1")).to_have_text("Leaderboard")
    expect(page.locator("thead th").nth(1)).to_have_text("Player")
    expect(rows).to_have_count(3)

    # Beto's page (in English, the language chosen): two mesas, newest first
    page.get_by_role("link", name="<i>Beto</i>").click()
    expect(page.get_by_test_id("profile-name")).to_have_text("<i>Beto</i>")
    games = page.get_by_test_id("profile-game")
    expect(games).to_have_count(2)
    expect(games.first).to_contain_text("Carla")
    expect(games.first).to_contain_text("Lost")
    expect(games.nth(1)).to_contain_text("Ana")
    expect(page.get_by_test_id("rating-1v1")).to_contain_text("2 mesas, 0 won")
    expect(page.get_by_test_id("rename")).to_be_hidden()  # not this browser's profile

    # Ana's own page, in Spanish: the rename field
    page.get_by_test_id("lang-switch").click()
    page.goto(own_server.url + f"profile.html#id={ids['ana']}")
    expect(page.get_by_test_id("profile-name")).to_have_text("Ana")
    expect(page.get_by_test_id("profile-yours")).to_have_text("Este es tu perfil.")
    expect(page.get_by_test_id("profile-game")).to_have_count(1)
    expect(page.get_by_test_id("profile-game").first).to_contain_text("Ganada")
    expect(page.get_by_test_id("profile-game").first).to_contain_text(f"+{first[ids['ana']]}")
    page.get_by_test_id("rename-name").fill("Ana María")
    page.get_by_test_id("rename-submit").click()
    expect(page.get_by_test_id("rename-status")).to_contain_text("Ana María")
    expect(page.get_by_test_id("profile-name")).to_have_text("Ana María")
    stored = json.loads(page.evaluate("() => localStorage.getItem('cuarenta.profile')"))
    assert stored["name"] == "Ana María" and stored["key"] == ana["key"]

    # the leaderboard shows the new name
    page.get_by_test_id("nav-leaderboard").click()
    expect(page.locator("tr.mine")).to_contain_text("Ana María")
    assert page.evaluate("() => window.__csp") == []


@club_server
def test_the_rating_pages_fit_a_phone(own_server: Server, phone: tuple[Page, PageLog]) -> None:
    page, _ = phone
    ana = own_server.post_json("/api/profiles", {"name": "Ana"})
    beto = own_server.post_json("/api/profiles", {"name": "Bartolomé con un nombre larguísimo, sí"})
    store = Store.in_dir(own_server.data_dir)
    try:
        rate_mesa(
            store,
            room="r1",
            mesa=1,
            finished="2026-12-01T10:00:00Z",
            teams=[[ana["id"]], [beto["id"]]],
            winner=1,
        )
    finally:
        store.close()
    for where in ("leaderboard.html", f"profile.html#id={beto['id']}"):
        page.goto(own_server.url + where)
        expect(page.locator("body[data-texts='ready']")).to_be_attached()
        expect(page.locator("tbody tr")).to_have_count(2 if where.startswith("leader") else 1)
        width = page.evaluate("() => document.scrollingElement.scrollWidth")
        assert width <= PHONE["width"], f"{where}: the page scrolls sideways ({width} px wide)"


def test_a_late_answer_for_the_last_profile_does_not_paint_over_the_new_one(
    own_server: Server, page: Page
) -> None:
    # The language switch asks again for the profile on screen; if the hash then moves to another
    # profile and the first answer comes last, the page must still show the profile in its hash.
    ana, beto = (own_server.post_json("/api/profiles", {"name": n}) for n in ("Ana", "Beto"))
    page.goto(own_server.url + f"profile.html#id={beto['id']}")
    expect(page.get_by_test_id("profile-name")).to_have_text("Beto")
    held: list[Any] = []
    beto_url = f"**/api/profiles/{beto['id']}"
    page.route(beto_url, lambda route: held.append(route))
    page.get_by_test_id("lang-switch").click()
    for _ in range(200):  # the switch loads the English texts, then asks for Beto's profile again
        if held:
            break
        page.wait_for_timeout(50)
    assert len(held) == 1, "the language switch asks for the profile again"
    page.evaluate(f"() => {{ location.hash = 'id={ana['id']}'; }}")
    expect(page.locator(f"body[data-profile='{ana['id']}']")).to_be_attached()
    expect(page.get_by_test_id("profile-name")).to_have_text("Ana")
    with page.expect_request_finished(lambda r: r.url.endswith(f"/api/profiles/{beto['id']}")):
        held[0].continue_()  # Beto's answer arrives only now
    page.wait_for_timeout(200)  # the page reads it (the old page painted Beto over Ana here)
    expect(page.get_by_test_id("profile-name")).to_have_text("Ana")
    assert page.locator("body").get_attribute("data-profile") == ana["id"]


def test_a_new_profile_is_provisional_and_an_unrated_mesa_says_why(own_server: Server, page: Page) -> None:
    """On a server with the default rule, one rated mesa leaves both ratings provisional (nobody on the
    leaderboard, which says what it waits for), and a mesa played unrated says why on the profile page."""
    ana, beto = (own_server.post_json("/api/profiles", {"name": n}) for n in ("Ana", "Beto"))
    store = Store.in_dir(own_server.data_dir)
    try:
        rate_mesa(store, room="r1", mesa=1, finished="2026-12-01T10:00:00Z",
                  teams=[[ana["id"]], [beto["id"]]], winner=0)  # fmt: skip
        rate_mesa(store, room="r2", mesa=1, finished="2026-12-01T11:00:00Z",
                  teams=[[ana["id"]], [beto["id"]]], winner=0, unrated="shared_address")  # fmt: skip
    finally:
        store.close()
    page.goto(own_server.url + "leaderboard.html")
    expect(page.get_by_test_id("leaderboard-empty")).to_be_visible()
    expect(page.get_by_test_id("leaderboard-rule")).to_contain_text("5 mesas puntuadas contra 3 rivales")
    page.goto(own_server.url + f"profile.html#id={ana['id']}")
    expect(page.get_by_test_id("provisional-1v1")).to_contain_text("Provisional")
    games = page.get_by_test_id("profile-game")
    expect(games).to_have_count(2)
    expect(games.first.get_by_test_id("unrated")).to_have_text("Sin puntuar (misma red)")
    expect(page.get_by_test_id("rating-1v1")).to_contain_text("1 mesas")
