"""The game on the device in a browser test (e2e/test_device.py, e2e/test_device_daily.py): the offline pack
built from this tree, the page's start on the device, and a person's turns played through the page."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from harness import choose_first_option, close_summary, play_first_card, wait_step
from playwright.sync_api import Page, expect

ROOT = Path(__file__).resolve().parents[1]
#: Pyodide's first start compiles 9 MB of WebAssembly: generous, for CI's loaded machine.
BOOT_MS = 90_000


def cuarenta(*args: str) -> subprocess.CompletedProcess[str]:
    """``cuarenta ARGS`` of this environment, in the checkout."""
    exe = Path(sys.executable).with_name("cuarenta")
    return subprocess.run(
        [str(exe), *args], cwd=ROOT, text=True, capture_output=True, timeout=600, check=False
    )


def build_pack() -> None:
    """The offline pack built from this tree (``cuarenta pack``), so ``cuarenta serve`` offers it."""
    made = cuarenta("pack")
    assert made.returncode == 0, made.stdout + made.stderr


def booted(page: Page) -> None:
    """The device game started: the boot line gone, the page's words in place."""
    page.wait_for_function(
        "() => document.body.dataset.transport === 'device' && document.body.dataset.texts === 'ready'",
        timeout=BOOT_MS,
    )
    expect(page.get_by_test_id("device-boot")).to_be_hidden(timeout=BOOT_MS)
    # a saved game resumes by itself (app.js: main): wait for its table, so that what follows finds the
    # page settled
    if page.evaluate("() => localStorage.getItem('cuarenta.device.session') !== null"):
        expect(page.get_by_test_id("table-screen")).to_be_visible(timeout=BOOT_MS)
        if wait_step(page, timeout=60_000) == "summary":
            close_summary(page)


def play(page: Page, *, to_the_end: bool = False, cards: int | None = None) -> int:
    """Play the person's cards until the hand's summary (closed), or with ``to_the_end`` until the mesa's
    result, or until ``cards`` were played and the page waits for the person again; the number of cards
    played."""
    played = 0
    while True:
        kind = wait_step(page, timeout=60_000)
        if kind == "ready" and played == cards:
            return played
        if kind == "ready":
            play_first_card(page)
            played += 1
        elif kind == "choice":
            choose_first_option(page)
        elif kind == "summary":
            close_summary(page)
            if not to_the_end:
                return played
        else:
            assert kind == "over", kind
            return played
