"""The game on the device, measured in Debian's headless chromium (issue 18; figures in docs/performance.md).

Builds the static site (``cuarenta site`` into a temporary folder), serves it with Python's plain static
file server on a loopback port, and reports:

- the time from opening the page to the device game being ready (Pyodide started, the saved rooms read,
  the page's words in place) and to the first playable hand (the new-game form sent, the hand shown and
  the person's turn), cold (a new browser context: nothing cached) and from cache (the same context
  again: the service worker and Cache Storage hold the pack);
- the computer's move time and the engine's random-games speed in Pyodide (bench/device_work.py's code,
  sent to a Pyodide in the page) against the same code in this CPython.

Run from the repository root::

    python bench/device.py [--runs 3] [--count 40]

This is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "e2e"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import launch_browser, new_context, static_server
from playwright.sync_api import Page, sync_playwright

import device_work

ROOT = Path(__file__).resolve().parent.parent

READY = "() => document.body.dataset.transport === 'device' && document.body.dataset.texts === 'ready'"
MY_TURN = "() => document.querySelector('#hand [data-testid=hand-card]:not([disabled])') !== null"

#: A page of the bench only (written next to the site's files, never shipped): Pyodide in the page's own
#: thread with the pack's wheels, running bench/device_work.py's source.
BENCH_PAGE = """<!doctype html><meta charset=utf-8><title>bench</title>
<script type=module>
const pack = await (await fetch("device/pack.json")).json();
const { loadPyodide } = await import("./device/pyodide/pyodide.mjs");
const py = await loadPyodide({ indexURL: new URL("device/pyodide/", location.href).href });
for (const w of pack.wheels) {
  py.unpackArchive(await (await fetch(`device/wheels/${w}`)).arrayBuffer(), "wheel");
}
const count = new URLSearchParams(location.search).get("count");
const source = await (await fetch("bench-work.py")).text();
py.FS.writeFile("device_work.py", source);  // in Pyodide's working folder
window.benchResult = py.runPython(
  "import sys, json\\nsys.path.insert(0, '.')\\nimport device_work\\n"
  + `json.dumps(device_work.measure(${Number(count)}))`);
</script>"""


#: The worker's own account of its start (device-worker.js "ready": ms to Pyodide, then to the host).
BOOTED = "() => import(new URL('device.js', document.baseURI).href).then((m) => m.where.booted.ms)"


def first_hand(page: Page, url: str) -> tuple[float, float, dict[str, int]]:
    """Open ``url``: seconds to the device game ready, and to the first playable hand; the worker's ms."""
    started = time.perf_counter()
    page.goto(url)
    page.wait_for_function(READY, timeout=180_000)
    ready = time.perf_counter() - started
    booted = page.evaluate(BOOTED)
    # a saved game resumes by itself (app.js: main); else a new one from the form
    if page.evaluate("() => localStorage.getItem('cuarenta.device.session') === null"):
        page.get_by_test_id("start-game").click()
    page.wait_for_function(MY_TURN, timeout=180_000)
    return ready, time.perf_counter() - started, booted


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--count", type=int, default=40, help="positions per level and table size")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        exe = Path(sys.executable).with_name("cuarenta")
        subprocess.run([str(exe), "site", str(site)], check=True, cwd=ROOT, capture_output=True)
        (site / "bench.html").write_text(BENCH_PAGE, encoding="utf-8")
        (site / "bench-work.py").write_text((ROOT / "bench" / "device_work.py").read_text("utf-8"), "utf-8")
        figures: dict[str, Any] = {"cold": [], "cached": []}
        with static_server(site) as url, sync_playwright() as pw:
            browser = launch_browser(pw)
            for _ in range(args.runs):
                ctx = new_context(browser, service_workers="allow")
                page = ctx.new_page()
                figures["cold"].append(first_hand(page, url))
                page.close()
                page = ctx.new_page()
                page.goto(url)  # the service worker in control, the pack in its cache
                page.wait_for_function(READY, timeout=180_000)
                page.close()
                page = ctx.new_page()
                figures["cached"].append(first_hand(page, url))
                ctx.close()
            ctx = new_context(browser)
            page = ctx.new_page()
            page.goto(f"{url}bench.html?count={args.count}")
            page.wait_for_function("() => window.benchResult !== undefined", timeout=1_800_000)
            figures["pyodide"] = json.loads(page.evaluate("window.benchResult"))
            ctx.close()
            browser.close()
    figures["cpython"] = device_work.measure(args.count)
    print(f"{'':24}{'ready s':>10}{'first hand s':>14}   worker: Pyodide, host (ms)")
    for kind in ("cold", "cached"):
        for ready, hand, booted in figures[kind]:
            print(f"{kind:24}{ready:10.2f}{hand:14.2f}   {booted['python']}, {booted['host']}")
    print(
        f"\n{'computer move (ms)':24}{'Pyodide p50':>12}{'p95':>8}{'max':>8}"
        f"{'CPython p50':>13}{'p95':>8}{'max':>8}"
    )
    for key, py in figures["pyodide"]["moves"].items():
        cp = figures["cpython"]["moves"][key]
        print(
            f"{key:24}{py['median_ms']:12.1f}{py['p95_ms']:8.1f}{py['max_ms']:8.1f}"
            f"{cp['median_ms']:13.1f}{cp['p95_ms']:8.1f}{cp['max_ms']:8.1f}"
        )
    slower = figures["cpython"]["random_plies_per_s"] / max(1, figures["pyodide"]["random_plies_per_s"])
    print(
        f"\nrandom plies/s: Pyodide {figures['pyodide']['random_plies_per_s']:,}, "
        f"CPython {figures['cpython']['random_plies_per_s']:,} (Pyodide {slower:.1f}× slower)"
    )


if __name__ == "__main__":
    main()
