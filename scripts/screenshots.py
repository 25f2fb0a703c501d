"""Take the README's screenshots of the real page, with the browser tests' tooling (e2e/harness.py).

Starts ``cuarenta serve`` on a free port with a throw-away data directory, opens a game in headless
Chromium (Debian's, /usr/bin/chromium), plays a few cards by clicking until the table has cards, and saves

- ``docs/screenshots/desktop.png``: 1280x800, a 2v2 game (partner and both opponents around the table);
- ``docs/screenshots/phone.png``: a 360x740 phone (touch, 2x pixels), 1v1, the full page;
- ``docs/screenshots/desktop-en.png`` and ``phone-en.png``: the same games with the page in English;
- ``docs/screenshots/friends-waiting.png`` and ``friends-table.png``: a 2 vs 2 table with a friend (Ana's
  partner Beto, two computer opponents): Ana's waiting room with the invite link and its QR code, then
  her table once Beto has joined through the link (a table's deal is the server's: it changes each run);
- ``docs/screenshots/friends-waiting-phone.png`` and ``friends-table-phone.png``: the same on Ana's
  360x740 phone, her first screen (the table fits it: docs/web.md "The table on a phone").

All with Ayudas on, seeded so that a run gives the same pictures.

    .venv/bin/python scripts/screenshots.py [--out docs/screenshots]
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "e2e"))

from harness import (  # noqa: E402  (e2e/ is put on the path just above)
    Server,
    choose_first_option,
    close_summary,
    hand_cards,
    launch_browser,
    new_context,
    play_first_card,
    start_game,
    table_cards,
    wait_step,
    watch_page,
)
from playwright.sync_api import Browser, Page, expect, sync_playwright  # noqa: E402

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 740}
#: The rooms of the two pictures (desktop, phone): chosen for a table with a few cards and a hint.
SEEDS = (5, 9)
#: True once nothing has covered the table for 1.5 s: no announcement bubble (they come one after the
#: other, with a short gap between them), no draw panel, no dialog. A picture is not a test: waiting for
#: a quiet spell is the simplest way to a clean one.
_QUIET_JS = """
() => {
  const busy = document.querySelector('#announce.show') || !document.querySelector('#draw-panel').hidden
    || document.querySelector('dialog[open]') || document.fonts.status !== 'loaded';
  const now = performance.now();
  if (busy || window.__quietSince === undefined) window.__quietSince = busy ? undefined : now;
  return !busy && now - window.__quietSince > 1500;
}
"""


def play_until(page: Page, table: int, hand: int, max_moves: int = 20) -> None:
    """Play first cards until it is the person's turn with at least ``table`` cards on the table, at
    least ``hand`` in the hand, and a card the Ayudas mark as taking something (a livelier picture)."""
    for _ in range(max_moves * 3):
        kind = wait_step(page)
        if kind == "ready":
            marked = page.locator("#hand .hint-takes").count()
            if len(table_cards(page)) >= table and len(hand_cards(page)) >= hand and marked:
                return
            play_first_card(page)
        elif kind == "choice":
            choose_first_option(page)
        elif kind == "summary":
            close_summary(page)
        else:
            raise RuntimeError("the mesa ended before the picture")
    raise RuntimeError(f"no turn with {table} cards on the table and {hand} in the hand")


def settle(page: Page) -> None:
    """Wait until no announcement, draw panel or dialog covers the table."""
    page.mouse.move(0, 0)  # no hover lift on the card clicked last
    page.evaluate("() => { window.__quietSince = undefined; window.scrollTo(0, 0); }")
    page.wait_for_function(_QUIET_JS, timeout=30_000)


def shoot(browser: Browser, url: str, out: Path, *, phone: bool, seed: int, players: int, lang: str) -> None:
    size = PHONE if phone else DESKTOP
    extra = {"is_mobile": True, "has_touch": True, "device_scale_factor": 2} if phone else {}
    context = new_context(browser, **size, **extra)
    try:
        page = context.new_page()
        # The page's language as a returning visitor's stored choice (i18n.js reads it first), who has
        # seen the Ayudas' explanation already (the Ayudas are on for a newcomer).
        page.add_init_script(
            f"localStorage.setItem('cuarenta.lang', {lang!r});"
            " localStorage.setItem('cuarenta.ayudas_intro', '1')"
        )
        log = watch_page(page)
        start_game(page, url, players=players, level="normal", preset="a_todo_rigor", seed=seed)
        expect(page.get_by_test_id("ayudas-toggle")).to_have_attribute("aria-pressed", "true")
        play_until(page, table=3, hand=4)
        settle(page)
        if phone:
            # The whole page, by making the viewport as tall as the page: Playwright's full_page capture
            # of an emulated phone drops the touch emulation for the capture, so (hover: none) stops
            # matching and the keyboard number badges, hidden on touch screens, would show.
            height = page.evaluate("() => document.scrollingElement.scrollHeight")
            page.set_viewport_size({"width": size["width"], "height": max(size["height"], int(height))})
            settle(page)
        page.screenshot(path=str(out))
        if log.errors:
            raise RuntimeError(f"script errors in the page: {log.errors}")
    finally:
        context.close()
    print(f"saved {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out}")


def shoot_friends(browser: Browser, url: str, out: Path, *, phone: bool = False) -> None:
    """Ana creates a 2 vs 2 table (partner: a friend), Beto joins through the invite link. ``phone``: Ana
    holds a 360x740 phone and the pictures are her first screen (``-phone`` in their names)."""
    extra = {**PHONE, "is_mobile": True, "has_touch": True, "device_scale_factor": 2} if phone else DESKTOP
    suffix = "-phone" if phone else ""
    ana_context, beto_context = new_context(browser, **extra), new_context(browser, **DESKTOP)
    try:
        ana, beto = ana_context.new_page(), beto_context.new_page()
        log = watch_page(ana)
        ana.goto(url)
        expect(ana.get_by_test_id("mode-friends")).to_be_visible()
        ana.get_by_test_id("mode-friends").check()
        ana.get_by_test_id("player-name").fill("Ana")
        ana.get_by_test_id("players-4").check()
        ana.get_by_test_id("mode-quick").check()
        ana.get_by_test_id("friend-seat-1").select_option("normal")
        ana.get_by_test_id("friend-seat-3").select_option("normal")
        ana.get_by_test_id("start").click()
        link = ana.get_by_test_id("invite-link")
        expect(link).to_have_attribute("href", re.compile("#join="))
        expect(ana.locator("#invite-qr svg")).to_be_visible()
        settle(ana)
        ana.screenshot(path=str(out / f"friends-waiting{suffix}.png"), full_page=not phone)
        beto.goto(str(link.get_attribute("href")))
        beto.get_by_test_id("join-name").fill("Beto")
        beto.get_by_test_id("join-submit").click()
        expect(ana.get_by_test_id("hand-card").first).to_be_visible(timeout=30_000)
        expect(beto.get_by_test_id("hand-card").first).to_be_visible(timeout=30_000)
        settle(ana)
        ana.screenshot(path=str(out / f"friends-table{suffix}.png"))
        if log.errors:
            raise RuntimeError(f"script errors in the page: {log.errors}")
    finally:
        ana_context.close()
        beto_context.close()
    print(f"saved friends-waiting{suffix}.png and friends-table{suffix}.png")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots", help="output directory")
    parser.add_argument("--seeds", type=int, nargs=2, default=SEEDS, metavar=("DESKTOP", "PHONE"))
    args = parser.parse_args(argv)
    out: Path = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    with (
        tempfile.TemporaryDirectory(prefix="cuarenta-shots-") as tmp,
        Server(Path(tmp) / "data", bot_delay=0.05) as server,
        sync_playwright() as pw,
    ):
        browser = launch_browser(pw)
        try:
            for lang, suffix in (("es", ""), ("en", "-en")):
                desktop, phone = out / f"desktop{suffix}.png", out / f"phone{suffix}.png"
                shoot(browser, server.url, desktop, phone=False, seed=args.seeds[0], players=4, lang=lang)
                shoot(browser, server.url, phone, phone=True, seed=args.seeds[1], players=2, lang=lang)
            shoot_friends(browser, server.url, out)
            shoot_friends(browser, server.url, out, phone=True)
        finally:
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
