"""The settings in the header (docs/web.md, "Settings: the computer's pace and sounds"): the computer's pace
(slow / normal / fast) and sounds, remembered per browser, applied at once, reachable by keyboard; the pace
reaches the server (``join`` and ``pace`` messages) and the server answers with the delay in effect; with
sound on a caída is heard (the page counts the sounds it made), with sound off nothing plays and the sound
module is never even loaded."""

from __future__ import annotations

import json
import re
from typing import Any

from harness import (
    PageLog,
    choose_first_option,
    close_summary,
    local_storage,
    play_first_card,
    start_game,
    state_number,
    wait_step,
)
from playwright.sync_api import Page, expect

#: A room where the first hand brings a caída soon (the tests stop at the first one).
CAIDA_SEED = 4
CAIDA_KINDS = {"caida", "caida_limpia", "caida_ronda"}


def settings(page: Page) -> dict[str, str]:
    """The data attributes of the settings panel (pace, server pace and delay, sound counters)."""
    return dict(page.evaluate("() => ({...document.querySelector('[data-testid=settings]').dataset})"))


def open_settings(page: Page) -> None:
    box = page.get_by_test_id("settings")
    if not box.evaluate("e => e.open"):
        page.get_by_test_id("settings-toggle").click()
    expect(page.get_by_test_id("pace-normal")).to_be_visible()


def sent(log: PageLog, kind: str) -> list[dict[str, Any]]:
    return [m for m in map(json.loads, log.sent) if m.get("type") == kind]


def received(log: PageLog, kind: str) -> list[dict[str, Any]]:
    return [m for m in map(json.loads, log.received) if m.get("type") == kind]


def test_settings_start_normal_and_silent_and_persist_across_reload(page: Page, base_url: str) -> None:
    page.goto(base_url)
    expect(page.locator("body")).to_have_attribute("data-texts", "ready")
    assert settings(page)["pace"] == "normal" and settings(page)["sound"] == "off"
    open_settings(page)
    expect(page.get_by_test_id("pace-normal")).to_be_checked()
    expect(page.get_by_test_id("sound-toggle")).to_have_attribute("aria-pressed", "false")
    # the labels come from the catalogue, in the page's language
    expect(page.get_by_test_id("settings-toggle")).to_have_attribute("aria-label", "Ajustes")
    expect(page.get_by_test_id("pace-slow").locator("xpath=..")).to_have_text("Lento")
    page.get_by_test_id("pace-slow").check()
    page.get_by_test_id("sound-toggle").click()
    expect(page.get_by_test_id("sound-toggle")).to_have_attribute("aria-pressed", "true")
    storage = local_storage(page)
    assert storage["cuarenta.pace"] == "slow" and storage["cuarenta.sound"] == "1"

    page.reload()
    expect(page.locator("body")).to_have_attribute("data-texts", "ready")
    assert settings(page)["pace"] == "slow" and settings(page)["sound"] == "on"
    open_settings(page)
    expect(page.get_by_test_id("pace-slow")).to_be_checked()
    expect(page.get_by_test_id("sound-toggle")).to_have_attribute("aria-pressed", "true")

    # in English the same controls speak English
    page.get_by_test_id("lang-switch").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    open_settings(page)
    expect(page.get_by_test_id("settings-toggle")).to_have_attribute("aria-label", "Settings")
    expect(page.get_by_test_id("pace-fast").locator("xpath=..")).to_have_text("Fast")
    expect(page.get_by_test_id("sound-toggle")).to_have_text("Sound")


def test_settings_by_keyboard(page: Page, base_url: str) -> None:
    page.goto(base_url)
    expect(page.locator("body")).to_have_attribute("data-texts", "ready")
    toggle = page.get_by_test_id("settings-toggle")
    toggle.focus()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("pace-normal")).to_be_visible()
    page.keyboard.press("Tab")  # into the pace group, at the checked choice
    expect(page.get_by_test_id("pace-normal")).to_be_focused()
    page.keyboard.press("ArrowRight")
    expect(page.get_by_test_id("pace-fast")).to_be_checked()
    page.keyboard.press("Tab")
    expect(page.get_by_test_id("sound-toggle")).to_be_focused()
    page.keyboard.press("Space")
    expect(page.get_by_test_id("sound-toggle")).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("Escape")  # closes the panel, focus back on its button
    expect(page.get_by_test_id("pace-fast")).to_be_hidden()
    expect(toggle).to_be_focused()
    assert settings(page)["pace"] == "fast" and settings(page)["sound"] == "on"
    assert local_storage(page)["cuarenta.pace"] == "fast"


def test_the_pace_reaches_the_server_at_once_and_slow_waits_longer_than_fast(
    page: Page, base_url: str, page_log: PageLog
) -> None:
    start_game(page, base_url, seed=CAIDA_SEED)
    # the join carried the browser's pace; the server says the pace in effect and its delay
    assert sent(page_log, "join")[-1]["pace"] == "normal"
    expect(page.get_by_test_id("settings")).to_have_attribute("data-server-pace", "normal")
    normal = float(settings(page)["serverDelay"])

    open_settings(page)
    page.get_by_test_id("pace-slow").check()  # during the game: applied at once
    expect(page.get_by_test_id("settings")).to_have_attribute("data-server-pace", "slow")
    slow = float(settings(page)["serverDelay"])
    page.get_by_test_id("pace-fast").check()
    expect(page.get_by_test_id("settings")).to_have_attribute("data-server-pace", "fast")
    fast = float(settings(page)["serverDelay"])
    assert [m["pace"] for m in sent(page_log, "pace")] == ["slow", "fast"]
    assert [m["pace"] for m in received(page_log, "pace")] == ["normal", "slow", "fast"]
    # the computer's move comes later at slow than at normal, and later at normal than at fast
    assert slow > normal > fast > 0

    # a reload joins with the remembered pace; the game goes on at it
    page.get_by_test_id("pace-slow").check()
    expect(page.get_by_test_id("settings")).to_have_attribute("data-server-pace", "slow")
    page.reload()
    expect(page.get_by_test_id("hand-card").first).to_be_visible()
    expect(page.get_by_test_id("settings")).to_have_attribute("data-server-pace", "slow")
    assert sent(page_log, "join")[-1]["pace"] == "slow"
    assert float(settings(page)["serverDelay"]) == slow
    # and the game goes on at that pace: the computer answers the person's move
    assert wait_step(page) == "ready"
    before = state_number(page)
    play_first_card(page)
    if wait_step(page) == "choice":
        choose_first_option(page)
    assert wait_step(page) in ("ready", "summary", "over")
    assert state_number(page) > before + 1  # the person's move, then the computer's


def play_until_caida(page: Page, log: PageLog, limit: int = 80) -> int:
    """Play the first card (first capture) until a state with a caída has been shown; its state number."""
    for _ in range(limit):
        shown = state_number(page)
        caida = [
            m["state"]
            for m in log.states()
            if m["state"] <= shown and any(e["kind"] in CAIDA_KINDS for e in m["events"])
        ]
        if caida:
            return int(caida[0])
        step = wait_step(page)
        if step == "ready":
            play_first_card(page)
        elif step == "choice":
            choose_first_option(page)
        elif step == "summary":
            close_summary(page)
        else:
            break
    raise AssertionError(f"no caída in {limit} steps of seed {CAIDA_SEED}")


def test_with_sound_on_a_caida_is_heard(page: Page, base_url: str, page_log: PageLog) -> None:
    page.goto(base_url)
    expect(page.locator("body")).to_have_attribute("data-texts", "ready")
    open_settings(page)
    page.get_by_test_id("sound-toggle").click()
    page.get_by_test_id("settings-toggle").click()  # closed again
    start_game(page, base_url, seed=CAIDA_SEED, goto=False)
    play_until_caida(page, page_log)
    box = page.get_by_test_id("settings")
    expect(box).to_have_attribute("data-sound-caida", re.compile(r"^[1-9]\d*$"))
    found = settings(page)
    assert found["audioContexts"] == "1"  # one audio context for the whole visit
    assert int(found["soundsPlayed"]) >= int(found["soundCaida"]) >= 1
    assert any(url.endswith("/sounds.js") for url in page_log.urls)


def test_with_sound_off_nothing_plays(page: Page, base_url: str, page_log: PageLog) -> None:
    start_game(page, base_url, seed=CAIDA_SEED)
    shown = play_until_caida(page, page_log)
    assert wait_step(page) in ("ready", "summary", "choice", "over")
    assert state_number(page) >= shown
    found = settings(page)
    assert found["sound"] == "off"
    assert "audioContexts" not in found and "soundsPlayed" not in found and "lastSound" not in found
    assert not any(url.endswith("/sounds.js") for url in page_log.urls), "sounds.js loaded with sound off"
    assert "cuarenta.sound" not in local_storage(page)
