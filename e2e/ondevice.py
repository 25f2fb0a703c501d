"""The game on the device in a browser test (e2e/test_device.py, e2e/test_device_daily.py): the offline pack
built from this tree, the page's start on the device; a person's turns are played with e2e/playing.py."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from harness import close_summary, wait_step
from playwright.sync_api import Page, expect

ROOT = Path(__file__).resolve().parents[1]
#: Pyodide's first start compiles 9 MB of WebAssembly: generous, for CI's loaded machine.
BOOT_MS = 90_000
#: Each wait for the page on the device (playing.py :func:`play`): the computer thinks in the page's worker.
DEVICE_STEP_MS = 60_000


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
