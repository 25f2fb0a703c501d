"""The game on the device, measured in Debian's headless chromium (issue 18; figures in docs/performance.md).

Builds the static site (``cuarenta site`` into a temporary folder), serves it with Python's plain static
file server on a loopback port, and reports:

- the time from opening the page to the device game being ready (Pyodide started, the saved rooms read,
  the page's words in place) and to the first playable hand (the new-game form sent, the hand shown and
  the person's turn), cold (a new browser context: nothing cached) and from cache (the same context
  again: the service worker and Cache Storage hold the pack);
- the computer's move time and the engine's random-games speed in Pyodide (bench/device_work.py's code,
  sent to a Pyodide in the page) against the same code in this CPython;
- with ``--analysis N``, instead: the time to analyse a seat's moves in N seeded mesas (the page's
  analysis on the device), in Pyodide and in this CPython.

Run from the repository root::

    python bench/device.py [--runs 3] [--count 40] [--throttle 4] [--device-players] [--site DIR]
                           [--levels facil,normal,dificil,experto] [--no-moves | --no-starts]
                           [--analysis MESAS]

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
const stdLibURL = pack.stdlib ? new URL(`device/${pack.stdlib}`, location.href).href : undefined;
const py = await loadPyodide({ indexURL: new URL("device/pyodide/", location.href).href, stdLibURL });
py.FS.mkdirTree("/lib/wheels");  // as device-worker.js does: each wheel a zip on sys.path
for (const w of pack.wheels) {
  const bytes = await (await fetch(`device/wheels/${w}`)).arrayBuffer();
  py.FS.writeFile(`/lib/wheels/${w}`, new Uint8Array(bytes));
  py.runPython(`import sys; sys.path.insert(0, "/lib/wheels/${w}")`);
}
const query = new URLSearchParams(location.search);
const count = query.get("count");
const device = query.get("device") === "1" ? "True" : "False";
const levels = JSON.stringify((query.get("levels") || "facil,normal,dificil").split(","));
const source = await (await fetch("bench-work.py")).text();
py.FS.writeFile("device_work.py", source);  // in Pyodide's working folder
const analysis = query.get("analysis");
const call = analysis
  ? `device_work.analysis_measure(${Number(analysis)})`
  : `device_work.measure(${Number(count)}, device=${device}, levels=tuple(${levels}))`;
window.benchResult = py.runPython(
  "import sys, json\\nsys.path.insert(0, '.')\\nimport device_work\\n" + `json.dumps(${call})`);
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


def measure_starts(url: str, runs: int) -> dict[str, list[tuple[float, float, dict[str, int]]]]:
    """``runs`` times: a new context opens the page cold, then from cache (see the module)."""
    figures: dict[str, list[tuple[float, float, dict[str, int]]]] = {"cold": [], "cached": []}
    with sync_playwright() as pw:
        browser = launch_browser(pw)
        for _ in range(runs):
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
        browser.close()
    return figures


def measure_moves(
    url: str, count: int, throttle: float, device: bool, levels: tuple[str, ...] = device_work.LEVELS
) -> dict[str, Any]:
    """bench/device_work.py's figures in a Pyodide of the page, the CPU slowed ``throttle`` times (Chrome's
    CPU throttling: a slower phone, or a loaded one)."""
    return measure_page(url, f"count={count}&device={int(device)}&levels={','.join(levels)}", throttle)


def measure_page(url: str, query: str, throttle: float) -> dict[str, Any]:
    """The bench page's result for ``query``, its CPU slowed ``throttle`` times."""
    with sync_playwright() as pw:
        browser = launch_browser(pw)
        ctx = new_context(browser)
        page = ctx.new_page()
        if throttle > 1:
            ctx.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": throttle})
        page.goto(f"{url}bench.html?{query}")
        page.wait_for_function("() => window.benchResult !== undefined", timeout=3_600_000)
        result: dict[str, Any] = json.loads(page.evaluate("window.benchResult"))
        ctx.close()
        browser.close()
    return result


def print_starts(figures: dict[str, list[tuple[float, float, dict[str, int]]]]) -> None:
    stages = ("pack", "pyodide", "wheels", "saved", "imports", "start")
    print(f"{'':10}{'ready s':>9}{'first hand s':>14}   worker (ms): " + ", ".join(stages))
    for kind in ("cold", "cached"):
        for ready, hand, booted in figures[kind]:
            parts = ", ".join(str(booted.get(stage, "-")) for stage in stages)
            print(f"{kind:10}{ready:9.2f}{hand:14.2f}   {parts} (total {booted.get('total')})")


def print_moves(pyodide: dict[str, Any], cpython: dict[str, Any], throttle: float) -> None:
    budget = "the device's players" if pyodide.get("device") else "the server's players"
    print(
        f"\n{'computer move (ms)':24}{'Pyodide p50':>12}{'p95':>8}{'max':>8}"
        f"{'CPython p50':>13}{'p95':>8}{'max':>8}{'p95 nodes':>11}{'max nodes':>11}"
        f"   ({budget}; Pyodide's CPU slowed {throttle:g}×)"
    )
    for key, py in pyodide["moves"].items():
        cp = cpython["moves"][key]
        print(
            f"{key:24}{py['median_ms']:12.1f}{py['p95_ms']:8.1f}{py['max_ms']:8.1f}"
            f"{cp['median_ms']:13.1f}{cp['p95_ms']:8.1f}{cp['max_ms']:8.1f}{py['p95_nodes']:11,}{py['max_nodes']:11,}"
        )
    slower = cpython["random_plies_per_s"] / max(1, pyodide["random_plies_per_s"])
    print(
        f"\nrandom plies/s: Pyodide {pyodide['random_plies_per_s']:,}, "
        f"CPython {cpython['random_plies_per_s']:,} (Pyodide {slower:.1f}× slower)"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--count", type=int, default=40, help="positions per level and table size")
    parser.add_argument("--site", type=Path, help="serve this site of `cuarenta site` (default: a new one)")
    parser.add_argument("--no-moves", action="store_true", help="measure the start only")
    parser.add_argument("--no-starts", action="store_true", help="measure the computer's moves only")
    parser.add_argument(
        "--throttle", type=float, default=1.0, help="slow the moves' page's CPU N times (a loaded phone: 4)"
    )
    parser.add_argument(
        "--device-players", action="store_true", help="the device's players (difícil on its device budget)"
    )
    parser.add_argument(
        "--levels",
        default=",".join(device_work.LEVELS),
        help="the levels whose moves are timed (comma-separated)",
    )
    parser.add_argument(
        "--analysis", type=int, metavar="MESAS", help="time the analysis of MESAS mesas instead of the moves"
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        site = args.site
        if site is None:
            site = Path(tmp) / "site"
            exe = Path(sys.executable).with_name("cuarenta")
            subprocess.run([str(exe), "site", str(site)], check=True, cwd=ROOT, capture_output=True)
        (site / "bench.html").write_text(BENCH_PAGE, encoding="utf-8")
        (site / "bench-work.py").write_text((ROOT / "bench" / "device_work.py").read_text("utf-8"), "utf-8")
        with static_server(site) as url:
            if args.analysis:
                measured = {
                    "pyodide": measure_page(url, f"analysis={args.analysis}", args.throttle),
                    "cpython": device_work.analysis_measure(args.analysis),
                }
                print(json.dumps(measured, indent=2))
                return
            if not args.no_starts:
                print_starts(measure_starts(url, args.runs))
            if not args.no_moves:
                levels = tuple(args.levels.split(","))
                pyodide = measure_moves(url, args.count, args.throttle, args.device_players, levels)
                cpython = device_work.measure(args.count, device=args.device_players, levels=levels)
                print_moves(pyodide, cpython, args.throttle)


if __name__ == "__main__":
    main()
