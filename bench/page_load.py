"""The page's first load: bytes transferred and time to first render, in Debian's chromium.

Starts ``cuarenta serve`` on a free loopback port (e2e/harness.py), opens the page in a fresh browser
context at 1280×800 and at 360×740, and reports, for each: the files the page fetched, their gzip size
as the server sends them, the first contentful paint (the browser's own figure) and the time until the
start button is visible. Run from the repository root::

    python bench/page_load.py [--runs 3]

Figures are recorded in docs/web.md. This is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "e2e"))

from harness import Server, launch_browser, new_context
from playwright.sync_api import sync_playwright

FIRST_PAINT = "() => (performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime ?? null"


def gzip_size(url: str) -> int:
    """Bytes on the wire for ``url`` when the browser accepts gzip."""
    request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return len(response.read())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=3, help="page loads per screen size")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as data, Server(Path(data)) as server, sync_playwright() as pw:
        browser = launch_browser(pw)
        for width, height in ((1280, 800), (360, 740)):
            for run in range(args.runs):
                context = new_context(browser, width=width, height=height)
                page = context.new_page()
                urls: list[str] = []
                page.on("response", lambda r, urls=urls: urls.append(r.url))
                start = time.perf_counter()
                page.goto(server.url)
                page.get_by_test_id("start").wait_for(state="visible")
                ready = time.perf_counter() - start
                fcp = page.evaluate(FIRST_PAINT)
                files = sorted(set(urls))
                size = sum(gzip_size(u) for u in files)
                print(
                    f"{width}x{height} run {run + 1}: {len(files)} files, {size:,} bytes (gzip); "
                    f"first contentful paint {fcp:.0f} ms; start button visible after {ready * 1000:.0f} ms"
                )
                context.close()


if __name__ == "__main__":
    main()
