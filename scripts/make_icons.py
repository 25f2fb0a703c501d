#!/usr/bin/env python3
"""Make the page's PNG icons (icon-192.png, icon-512.png in src/cuarenta/web/static/) from favicon.svg:
Chromium (through Playwright) draws the SVG on the page's colour and takes a screenshot of each size.
The PNGs are committed; run this again when favicon.svg changes.

    .venv/bin/python scripts/make_icons.py
"""

from __future__ import annotations

import base64
import os
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "src" / "cuarenta" / "web" / "static"
SIZES = (192, 512)
BACKGROUND = "#0e3320"  # --page of styles.css (the manifest's background_color)


def page_html(svg: bytes, size: int) -> str:
    data = base64.b64encode(svg).decode("ascii")
    inner = round(size * 0.82)
    return (
        f"<html><body style='margin:0;background:{BACKGROUND};width:{size}px;height:{size}px;"
        f"display:flex;align-items:center;justify-content:center'>"
        f"<img src='data:image/svg+xml;base64,{data}' width='{inner}' height='{inner}'></body></html>"
    )


def main() -> None:
    svg = (STATIC / "favicon.svg").read_bytes()
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=os.environ.get("CUARENTA_CHROMIUM", "/usr/bin/chromium"))
        for size in SIZES:
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(page_html(svg, size))
            page.screenshot(path=str(STATIC / f"icon-{size}.png"), omit_background=False)
            page.close()
            print(f"icon-{size}.png")
        browser.close()


if __name__ == "__main__":
    main()
