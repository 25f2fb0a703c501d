"""A championship in the browser (docs/web.md "Championships"), against the real server: the organiser
creates a Swiss of 4 pairs from the home screen (2 register on the registration page, 2 are the
organiser's computer pairs), starts it; a pair's two players sit through the pair's link and play a few
moves at their table; the judge's board shows both tables and gives the walkovers; the public standings
show the result, at 360x740 and 1280x800, in Spanish and in English. axe finds no serious or critical
violation on any of the screens.

Every person is a browser context of their own; every wait is on the page's state, bounded by a deadline.
"""

from __future__ import annotations

import json
import re
import time

import a11y
import httpx
from harness import (
    PHONE,
    STEP_JS,
    STEP_TIMEOUT_MS,
    People,
    Server,
    choose_first_option,
    close_summary,
    local_storage,
    play_first_card,
    wait_for_held,
)
from playwright.sync_api import Page, Route, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from cuarenta import catalogue


def fragment(link: str, kind: str) -> str:
    """The `#kind=…` fragment of a link the page shows (the page's base is the server's)."""
    m = re.search(rf"#{kind}=[^\s]+$", link)
    assert m, link
    return m.group(0)


#: The elements reaching past the right edge of a viewport `w` wide (the first few, named).
WIDE_JS = """
(w) => [...document.querySelectorAll('#main *')]
  .filter((e) => e.getBoundingClientRect().right > w + 0.5)
  .slice(0, 6)
  .map((e) => `${e.tagName}[${e.dataset.testid || ''}] ${Math.round(e.getBoundingClientRect().right)}`)
"""


def fits_a_phone(page: Page, where: str) -> None:
    """Nothing of the screen (``#main``) reaches past a 360x740 phone's right edge (the viewport changed
    in place, then put back)."""
    before = page.viewport_size
    page.set_viewport_size(PHONE)
    try:
        wide = page.evaluate(WIDE_JS, PHONE["width"])
        assert not wide, f"{where} is wider than a phone: {wide}"
    finally:
        if before is not None:
            page.set_viewport_size(before)


def play_together(pages: list[Page], moves: int) -> None:
    """The people of one table play ``moves`` cards between them, each on their turn (first card, first
    option): each page is asked in turn whether it needs its person (a short wait on its state), until
    the moves are played, bounded by STEP_TIMEOUT_MS without a move."""
    played = 0
    deadline = time.monotonic() + STEP_TIMEOUT_MS / 1000
    while played < moves:
        assert time.monotonic() < deadline, f"no move for {STEP_TIMEOUT_MS} ms ({played} of {moves} played)"
        for page in pages:
            try:
                kind = page.wait_for_function(STEP_JS, timeout=300).json_value()
            except PlaywrightTimeout:
                continue
            if kind == "error":
                raise AssertionError(page.get_by_test_id("error").inner_text())
            if kind == "ready":
                play_first_card(page)
                played += 1
                deadline = time.monotonic() + STEP_TIMEOUT_MS / 1000
            elif kind == "choice":
                choose_first_option(page)
            elif kind == "summary":
                close_summary(page)
            else:
                raise AssertionError("the mesa ended before the moves were played")


def register(page: Page, base_url: str, link: str, name: str, players: tuple[str, str]) -> str:
    """Register a pair on the registration page; returns the pair's link."""
    if page.get_by_test_id("register-another").is_visible():
        page.get_by_test_id("register-another").click()
    else:
        page.goto(base_url + fragment(link, "register"))
    expect(page.get_by_test_id("register-form")).to_be_visible()
    page.get_by_test_id("register-name").fill(name)
    page.get_by_test_id("register-a").fill(players[0])
    page.get_by_test_id("register-b").fill(players[1])
    page.get_by_test_id("register-submit").click()
    expect(page.get_by_test_id("register-done")).to_contain_text(name)
    return page.get_by_test_id("link-pair-link").inner_text()


def test_a_swiss_championship_from_creation_to_standings(people: People, server: Server) -> None:
    base = server.url
    organiser, _ = people.open(bypass_csp=True)

    # -- the organiser creates it from the home screen
    organiser.goto(base)
    # the page settled first (a tap while it loads: test_a_button_tapped_while_the_page_loads_…)
    expect(organiser.get_by_test_id("start")).to_be_enabled()
    organiser.get_by_test_id("champ-new").click()
    expect(organiser.get_by_test_id("champ-create-form")).to_be_visible()
    a11y.check(organiser, "the championship form")
    organiser.get_by_test_id("champ-name").fill("Copa Quito")
    organiser.get_by_test_id("champ-format").select_option("swiss")
    organiser.get_by_test_id("champ-swiss-rounds").fill("1")
    with organiser.expect_request("**/api/championships") as made:
        organiser.get_by_test_id("champ-create").click()
    assert made.value.post_data_json["rules"] == {"preset": "campeonato"}
    expect(organiser.get_by_test_id("champ-links")).to_be_visible()
    assert "#champ=" in organiser.url
    register_link = organiser.get_by_test_id("link-register-link").inner_text()
    judge_link = organiser.get_by_test_id("link-judge-link").inner_text()
    standings_link = organiser.get_by_test_id("link-standings-link").inner_text()
    assert "#register=" in register_link and "#judge=" in judge_link and "#standings=" in standings_link
    expect(organiser.get_by_test_id("champ-links").locator(".champ-qr svg")).to_have_count(2)
    a11y.check(organiser, "the organiser's screen")
    fits_a_phone(organiser, "the organiser's screen")

    # -- two pairs register on the registration page (the first also checked by axe)
    registrar, _ = people.open(bypass_csp=True)
    registrar.goto(base + fragment(register_link, "register"))
    expect(registrar.get_by_test_id("register-form")).to_be_visible()
    a11y.check(registrar, "the registration page")
    ases = register(registrar, base, register_link, "Los Ases", ("Ana", "Beto"))
    register(registrar, base, register_link, "Las Sotas", ("Caro", "Dani"))
    a11y.check(registrar, "the registration page, done")

    # -- and the organiser adds two computer pairs, then starts
    rows = organiser.get_by_test_id("champ-pair-row")
    expect(rows).to_have_count(2)
    for name in ("Reyes", "Caballos"):
        organiser.get_by_test_id("add-pair-name").fill(name)
        organiser.get_by_test_id("add-pair-a").fill(f"{name} 1")
        organiser.get_by_test_id("add-pair-b").fill(f"{name} 2")
        organiser.get_by_test_id("add-pair-computer").select_option(index=1)
        organiser.get_by_test_id("add-pair-submit").click()
        expect(organiser.get_by_test_id("champ-pair-row").filter(has_text=name)).to_be_visible()
    expect(rows).to_have_count(4)
    # seeds 1-4 as registered: round 1 (top half v bottom half) sets each people's pair against computers
    for seed, name in enumerate(("Los Ases", "Las Sotas", "Reyes", "Caballos"), start=1):
        row = organiser.get_by_test_id("champ-pair-row").filter(has_text=name)
        row.get_by_test_id("pair-seed-value").fill(str(seed))
        row.get_by_test_id("pair-seed").click()
        expect(organiser.get_by_test_id("champ-pair-row").filter(has_text=name)).to_contain_text(str(seed))
    organiser.get_by_test_id("champ-start").click()
    expect(organiser.get_by_test_id("champ-status")).to_have_attribute("data-status", "running")
    expect(organiser.get_by_test_id("champ-partida")).to_have_count(2)  # top half v bottom half

    # -- the Ases' two players sit through the pair's link and play a few moves
    ana, _ = people.open(bypass_csp=True)
    ana.goto(base + fragment(ases, "pair"))
    expect(ana.get_by_test_id("pair-partida")).to_be_visible()
    expect(ana.get_by_test_id("pair-rival")).to_contain_text("Reyes")
    a11y.check(ana, "the pair's screen")
    fits_a_phone(ana, "the pair's screen")
    beto = people.page()
    beto.goto(base + fragment(ases, "pair"))
    beto.locator('[data-testid=champ-sit][data-player="1"]').click()
    ana.locator('[data-testid=champ-sit][data-player="0"]').click()
    expect(ana.get_by_test_id("table-screen")).to_be_visible()
    expect(beto.get_by_test_id("table-screen")).to_be_visible()
    play_together([ana, beto], 4)

    # -- the public standings, live: the Ases' table is playing, with its chicas and a "Mirar" link
    fan, _ = people.open(bypass_csp=True, width=PHONE["width"], height=PHONE["height"])
    fan.goto(base + fragment(standings_link, "standings"))
    playing = fan.get_by_test_id("champ-partida").filter(has_text="Los Ases")
    expect(playing.get_by_test_id("standings-live")).to_contain_text("chicas 0–0")
    watch = playing.get_by_test_id("standings-watch").get_attribute("href")
    assert watch and watch.startswith("#watch=")
    watcher = people.page()
    watcher.goto(base + watch)
    expect(watcher.get_by_test_id("table-screen")).to_be_visible()

    # -- the judge's board: both tables; a walkover for each, with a reason
    judge, _ = people.open(bypass_csp=True)
    judge.goto(base + fragment(judge_link, "judge"))
    tables = judge.get_by_test_id("judge-table")
    expect(tables).to_have_count(2)
    ases_table = tables.filter(has_text="Los Ases")
    # "1 tanto" or "N tantos" (the deal is the championship's secret: a side may have one)
    expect(ases_table.get_by_test_id("judge-score")).to_contain_text(re.compile(r"\d+ tantos?\b"))
    a11y.check(judge, "the judge's board")
    fits_a_phone(judge, "the judge's board")
    ases_table.get_by_test_id("judge-walkover").click()
    expect(judge.get_by_test_id("error")).to_be_visible()  # no reason: the page asks for one
    for pair in ("Los Ases", "Las Sotas"):
        table = judge.get_by_test_id("judge-table").filter(has_text=pair)
        table.get_by_test_id("judge-reason").fill("los rivales no se presentaron")
        table.get_by_test_id("walkover-winner").select_option(label=pair)
        table.get_by_test_id("judge-walkover").click()
        expect(judge.get_by_test_id("judge-table").filter(has_text=pair)).to_have_attribute(
            "data-status", "finished"
        )

    # -- the organiser sees the decisions, with their Review
    expect(organiser.get_by_test_id("champ-decision")).to_have_count(2)
    expect(organiser.get_by_test_id("review")).to_have_count(2)

    # -- the public standings: the result, on a phone and a desktop, in Spanish and English
    expect(fan.get_by_test_id("standings-status")).to_have_attribute("data-status", "finished")
    expect(fan.get_by_test_id("standings-row")).to_have_count(4)
    expect(fan.get_by_test_id("standings-champion")).to_contain_text("Campeón")
    first_two = fan.get_by_test_id("standings-row").all_inner_texts()[:2]
    assert {row.split("\t")[1].strip() for row in first_two} == {"Los Ases", "Las Sotas"}
    expect(fan.get_by_test_id("partida-result").first).to_contain_text("ausencia")
    assert fan.get_by_test_id("standings-csv").get_attribute("href", timeout=1000).endswith("standings.csv")
    width = fan.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the standings page is {width}px wide on a phone"
    a11y.check(fan, "the public standings")
    fan.get_by_test_id("lang-switch").click()
    expect(fan.get_by_test_id("standings-champion")).to_contain_text("Champion")
    expect(fan.locator("#champ-view thead")).to_contain_text("Points for")
    a11y.check(fan, "the public standings in English")
    csv = server.get_text("/" + str(fan.get_by_test_id("standings-csv").get_attribute("href")))
    assert csv.splitlines()[0].startswith("rank,pair")


def test_a_hall_championship_gives_the_judge_a_score_sheet_per_table(people: People, server: Server) -> None:
    base = server.url
    organiser, _ = people.open(bypass_csp=True)
    organiser.goto(base)
    # the page settled first (a tap while it loads: test_a_button_tapped_while_the_page_loads_…)
    expect(organiser.get_by_test_id("start")).to_be_enabled()
    organiser.get_by_test_id("champ-new").click()
    organiser.get_by_test_id("champ-name").fill("Torneo del Salón")
    organiser.get_by_test_id("champ-venue").select_option("hall")
    organiser.get_by_test_id("champ-swiss-rounds").fill("1")
    organiser.get_by_test_id("champ-create").click()
    register_link = organiser.get_by_test_id("link-register-link").inner_text()
    judge_link = organiser.get_by_test_id("link-judge-link").inner_text()
    cid, code = fragment(register_link, "register")[len("#register=") :].split(".", 1)
    for name, players in (("Los Ases", ["Ana", "Beto"]), ("Las Sotas", ["Caro", "Dani"])):
        server.post_json(f"/api/championships/{cid}/pairs", {"name": name, "players": players, "code": code})
    expect(organiser.get_by_test_id("champ-pair-row")).to_have_count(2)  # the screen's poll
    organiser.get_by_test_id("champ-start").click()
    expect(organiser.get_by_test_id("champ-status")).to_have_attribute("data-status", "running")

    judge, _ = people.open(bypass_csp=True, width=PHONE["width"], height=PHONE["height"])
    judge.goto(base + fragment(judge_link, "judge"))
    sheet = judge.get_by_test_id("hall-sheet")
    expect(sheet).to_have_count(1)
    summary = sheet.get_by_test_id("hall-summary")
    expect(summary).to_contain_text("puntos 0–0")
    for kind in ("caida", "limpia", "caida_limpia", "ronda", "caida_ronda", "four_of_a_kind", "cuatro_caidas",
                 "carton", "misdeal", "procedure", "new_deal", "undo"):  # fmt: skip
        expect(sheet.get_by_test_id(f"hall-{kind}")).to_be_visible()
    a11y.check(judge, "the judge's board of a hall championship")
    fits_a_phone(judge, "the hall board")
    # the draw gave seat 3 the first deal: the sheet's first entry, offered only before any other
    expect(summary).to_contain_text("reparte el puesto 1")
    judge.get_by_test_id("hall-seat").select_option("2")
    # the judge looks away before the button (the select loses the focus): the board's poll draws the sheet
    # again meanwhile, and the seat chosen stays chosen (it went back to seat 1, and the entry said seat 1)
    chosen = judge.get_by_test_id("hall-seat").element_handle()
    chosen.evaluate("(e) => e.blur()")
    judge.wait_for_function("(e) => !e.isConnected", arg=chosen, timeout=STEP_TIMEOUT_MS)
    expect(judge.get_by_test_id("hall-seat")).to_have_value("2")
    judge.get_by_test_id("hall-first_dealer").click()
    expect(summary).to_contain_text("reparte el puesto 3")
    expect(sheet.get_by_test_id("hall-first_dealer")).to_have_count(0)
    judge.get_by_test_id("hall-caida").click()
    expect(judge.get_by_test_id("hall-summary")).not_to_contain_text("puntos 0–0")
    # a cartón that does not add up to 40 is refused: the sheet says why, and nothing changes
    people.expected.append("status of 400")  # the browser logs the refused entry itself
    before = judge.get_by_test_id("hall-summary").inner_text()
    judge.get_by_test_id("hall-carton-a").fill("30")
    judge.get_by_test_id("hall-carton-b").fill("5")
    judge.get_by_test_id("hall-carton").click()
    expect(judge.get_by_test_id("hall-error")).not_to_be_empty()
    assert judge.get_by_test_id("hall-summary").inner_text() == before
    judge.get_by_test_id("hall-undo").click()
    expect(judge.get_by_test_id("hall-summary")).to_contain_text("puntos 0–0")
    expect(judge.get_by_test_id("hall-summary")).to_contain_text("reparte el puesto 3")  # the draw stays
    expect(judge.get_by_test_id("judge-table")).to_contain_text("0 tantos")


def test_a_rated_championship_seats_each_player_with_their_own_browsers_profile(
    people: People, server: Server
) -> None:
    base = server.url
    organiser, _ = people.open(bypass_csp=True)
    organiser.goto(base)
    # the page settled first (a tap while it loads: test_a_button_tapped_while_the_page_loads_…)
    expect(organiser.get_by_test_id("start")).to_be_enabled()
    organiser.get_by_test_id("champ-new").click()
    organiser.get_by_test_id("champ-name").fill("Copa con puntuación")
    organiser.get_by_test_id("champ-swiss-rounds").fill("1")
    organiser.get_by_test_id("champ-rated").check()
    with organiser.expect_request("**/api/championships") as made:
        organiser.get_by_test_id("champ-create").click()
    assert made.value.post_data_json["rated"] is True
    expect(organiser.get_by_test_id("champ-links")).to_be_visible()
    cid, organiser_token = fragment(organiser.url, "champ").removeprefix("#champ=").split(".", 1)
    register_link = organiser.get_by_test_id("link-register-link").inner_text()
    code = fragment(register_link, "register").removeprefix("#register=").split(".", 1)[1]
    # two pairs of people register (the API: the registration page is tested above), the organiser starts
    api = f"{base.rstrip('/')}/api/championships/{cid}"
    tokens = []
    for name, players in (("Los Ases", ["Ana", "Beto"]), ("Las Sotas", ["Caro", "Dani"])):
        answer = httpx.post(f"{api}/pairs", json={"name": name, "players": players, "code": code})
        assert answer.status_code == 200, answer.text
        tokens.append(answer.json()["token"])
    started = httpx.post(f"{api}/start", headers={"Authorization": f"Bearer {organiser_token}"})
    assert started.status_code == 200, started.text

    # Ana and Beto sit from their own browsers: each gets a profile of its own, made on the spot
    ana, _ = people.open(bypass_csp=True, width=PHONE["width"], height=PHONE["height"])
    beto = people.page()
    profiles = []
    for page, player in ((ana, 0), (beto, 1)):
        page.goto(f"{base}#pair={cid}.{tokens[0]}")
        expect(page.get_by_test_id("pair-rated")).to_be_visible()
        page.locator(f'[data-testid=champ-sit][data-player="{player}"]').click()
        expect(page.get_by_test_id("waiting-room")).to_be_visible()  # until the other pair sits
        profile = json.loads(local_storage(page)["cuarenta.profile"])
        assert profile["name"] == ("Ana", "Beto")[player]
        profiles.append(profile["id"])
    assert profiles[0] != profiles[1]
    a11y.check(ana, "a rated championship's waiting room")
    # Caro's browser cannot sit Dani too: one profile, one seat (the banner says why)
    people.expected.append("409")
    caro = people.page()
    caro.goto(f"{base}#pair={cid}.{tokens[1]}")
    caro.locator('[data-testid=champ-sit][data-player="0"]').click()
    expect(caro.get_by_test_id("waiting-room")).to_be_visible()
    caro.goto(f"{base}#pair={cid}.{tokens[1]}")
    caro.locator('[data-testid=champ-sit][data-player="1"]').click()
    expect(caro.locator("#error")).to_have_attribute("data-code", "profile_seated")


def test_what_a_pair_types_stays_while_the_registration_page_loads(people: People, server: Server) -> None:
    """The registration form shows before the championship's data has come: what a pair types meanwhile
    stays when the data comes (the form is drawn again under the championship's name), and when the
    language changes; then it registers."""
    body = {"name": "Copa de Cuenca", "rules": {"preset": "campeonato"}}
    made = server.post_json("/api/championships", body)
    cid, code = made["championship"], made["register"]
    page, _ = people.open(bypass_csp=True, width=PHONE["width"], height=PHONE["height"])
    held: dict[str, Route] = {}
    page.route(f"**/api/championships/{cid}", lambda route: held.__setitem__("championship", route))
    page.goto(f"{server.url}#register={cid}.{code}")
    expect(page.get_by_test_id("register-form")).to_be_visible()
    wait_for_held(page, held, "championship")  # the form shows first, then the page asks for it
    page.get_by_test_id("register-name").fill("Los Ases")
    page.get_by_test_id("register-a").fill("Ana")
    page.get_by_test_id("register-b").fill("Be")
    held.pop("championship").continue_()
    page.unroute(f"**/api/championships/{cid}")
    expect(page.get_by_test_id("register-champ-name")).to_have_text("Copa de Cuenca")
    expect(page.get_by_test_id("register-name")).to_have_value("Los Ases")
    expect(page.get_by_test_id("register-a")).to_have_value("Ana")
    expect(page.get_by_test_id("register-b")).to_be_focused()
    page.keyboard.type("to")
    expect(page.get_by_test_id("register-b")).to_have_value("Beto")
    page.get_by_test_id("lang-switch").click()
    expect(page.get_by_test_id("register-submit")).to_have_text(catalogue.text("page.champ.register", "en"))
    expect(page.get_by_test_id("register-name")).to_have_value("Los Ases")
    page.get_by_test_id("register-submit").click()
    expect(page.get_by_test_id("register-done")).to_contain_text("Los Ases")
    pairs = server.get_json(f"/api/championships/{cid}")["pairs"]
    assert [(p["name"], p["players"]) for p in pairs] == [("Los Ases", ["Ana", "Beto"])], pairs


def test_the_organisers_pair_form_outlives_the_poll(people: People, server: Server) -> None:
    """The organiser's screen is asked again every few seconds: a pair's name typed and left (a phone's
    keyboard closed) is still there after the next poll; once the pair is added the form is empty."""
    made = server.post_json("/api/championships", {"name": "Copa de Loja", "rules": {"preset": "campeonato"}})
    cid, token = made["championship"], made["organiser"]
    page, _ = people.open(bypass_csp=True, width=PHONE["width"], height=PHONE["height"])
    page.goto(f"{server.url}#champ={cid}.{token}")
    expect(page.get_by_test_id("champ-add-pair")).to_be_visible()
    page.get_by_test_id("add-pair-name").fill("Los Ases")
    page.get_by_test_id("add-pair-a").fill("Ana")
    page.locator("#champ-title").click()  # the field left
    for _ in range(2):  # two polls drawn after it
        with page.expect_response(lambda r: r.url.split("?")[0].endswith(f"/api/championships/{cid}")):
            pass
    page.wait_for_timeout(100)
    expect(page.get_by_test_id("add-pair-name")).to_have_value("Los Ases")
    expect(page.get_by_test_id("add-pair-a")).to_have_value("Ana")
    page.get_by_test_id("add-pair-b").fill("Beto")
    page.get_by_test_id("add-pair-submit").click()
    expect(page.get_by_test_id("champ-pair-row")).to_have_count(1)
    expect(page.get_by_test_id("add-pair-name")).to_have_value("")
    expect(page.get_by_test_id("add-pair-a")).to_have_value("")


def test_a_button_tapped_while_the_page_loads_keeps_its_screen(people: People, server: Server) -> None:
    """ "Campeonato" is live as soon as the page shows: tapped before the page's words and options have come
    (a slow phone), its form stays, is not replaced by the home screen when the loading ends, and keeps what
    the organiser typed while the words, the options and another language came; then it creates."""
    page, _ = people.open(bypass_csp=True, width=PHONE["width"], height=PHONE["height"])
    held: dict[str, Route] = {}
    page.route("**/api/texts/*", lambda route: held.__setitem__("texts", route))
    page.route("**/api/options", lambda route: held.__setitem__("options", route))
    page.goto(server.url, wait_until="domcontentloaded")
    wait_for_held(page, held, "texts")
    page.get_by_test_id("champ-new").click()
    expect(page.get_by_test_id("champ-create-form")).to_be_visible()
    page.get_by_test_id("champ-name").fill("Copa del Barrio")
    page.get_by_test_id("champ-venue").select_option("hall")
    # the words come: the form is drawn again in Spanish, with what was typed
    page.unroute("**/api/texts/*")
    held.pop("texts").continue_()
    page.wait_for_function("() => document.body.dataset.texts === 'ready'")
    expect(page.get_by_test_id("champ-create")).to_have_text(catalogue.text("page.champ.create", "es"))
    expect(page.get_by_test_id("champ-name")).to_have_value("Copa del Barrio")
    wait_for_held(page, held, "options")
    # the options come; the page asks for the lobby next and then picks its first screen, in one go
    with page.expect_request("**/api/lobby"):
        held.pop("options").continue_()
    expect(page.get_by_test_id("champ-preset").locator("option")).not_to_have_count(1)  # the server's presets
    assert page.get_by_test_id("champ-create-form").is_visible()
    assert page.evaluate("() => document.querySelector('#screen-new').hidden")
    expect(page.get_by_test_id("champ-name")).to_have_value("Copa del Barrio")
    expect(page.get_by_test_id("champ-venue")).to_have_value("hall")
    expect(page.get_by_test_id("champ-preset")).to_have_value("campeonato")
    # another language: the same form, the same choices
    page.get_by_test_id("lang-switch").click()
    expect(page.get_by_test_id("champ-create")).to_have_text(catalogue.text("page.champ.create", "en"))
    expect(page.get_by_test_id("champ-name")).to_have_value("Copa del Barrio")
    expect(page.get_by_test_id("champ-venue")).to_have_value("hall")
    with page.expect_request("**/api/championships") as made:
        page.get_by_test_id("champ-create").click()
    assert made.value.post_data_json["name"] == "Copa del Barrio"
    assert made.value.post_data_json["venue"] == "hall"
    expect(page.get_by_test_id("champ-links")).to_be_visible()
