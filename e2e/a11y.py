"""Accessibility checks of the browser tests: axe-core run in the page (issue 17).

axe-core comes from the npm registry, pinned (exact version and sha512 integrity, in
scripts/browser-packages.json), fetched by ``python3 scripts/browser_packages.py`` into
``.cache/browser-packages/`` (scripts/test.sh runs it before the browser tests). It is injected with
Playwright's ``add_script_tag``, which the page's strict CSP allows only in a context made with
``bypass_csp=True`` (:func:`axe_context`).
"""

from __future__ import annotations

import sys
from functools import cache
from typing import Any, Final

from harness import PHONE, ROOT, new_context
from playwright.sync_api import Browser, BrowserContext, Page

sys.path.insert(0, str(ROOT / "scripts"))
from browser_packages import package_file

#: The sizes every screen is checked at (CSS pixels).
DESKTOP: Final = {"width": 1280, "height": 800}
SIZES: Final = (DESKTOP, PHONE)
#: The impacts that fail a check.
FAILING: Final = ("serious", "critical")

_TWO_FRAMES_JS = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
_RUN_JS = """
async () => {
  const result = await axe.run(document, { resultTypes: ["violations"] });
  return result.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    url: v.helpUrl,
    nodes: v.nodes.map((n) => ({ target: n.target.join(" "), html: n.html, summary: n.failureSummary })),
  }));
}
"""


@cache
def axe_source() -> str:
    """The text of axe.min.js, or a failure that says how to fetch it."""
    path = package_file("axe-core", "axe.min.js")
    if not path.is_file():
        raise AssertionError(
            f"axe-core is missing ({path.relative_to(ROOT)}): run `python3 scripts/browser_packages.py`"
            " (scripts/test.sh does, before the browser tests)"
        )
    return path.read_text(encoding="utf-8")


def axe_context(browser: Browser, size: dict[str, int] = DESKTOP, **kwargs: Any) -> BrowserContext:
    """A fresh context in which axe can be injected (``bypass_csp``): the page's CSP stays as it is
    otherwise (e2e/test_csp.py checks it in contexts of its own)."""
    axe_source()  # fail before anything starts when axe-core is missing
    return new_context(browser, **size, bypass_csp=True, **kwargs)


def violations(page: Page) -> list[dict[str, Any]]:
    """axe's violations of impact serious or critical on the page as it is now."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(content=axe_source())
    found: list[dict[str, Any]] = page.evaluate(_RUN_JS)
    return [v for v in found if v["impact"] in FAILING]


def readable(where: str, found: list[dict[str, Any]]) -> str:
    lines = [f"{where}: {len(found)} serious or critical accessibility violation(s)"]
    for v in found:
        lines.append(f"- [{v['impact']}] {v['id']}: {v['help']} ({v['url']})")
        for node in v["nodes"][:8]:
            lines.append(f"    at {node['target']}: {node['html'][:160]}")
            summary = " / ".join(s.strip() for s in str(node["summary"]).splitlines() if s.strip())
            lines.append(f"      {summary[:300]}")
        if len(v["nodes"]) > 8:
            lines.append(f"    … and {len(v['nodes']) - 8} more")
    return "\n".join(lines)


def check(page: Page, where: str, sizes: tuple[dict[str, int], ...] = SIZES) -> None:
    """Run axe on the page at each size (the viewport changed in place, then put back), and fail with
    every serious or critical violation, readably, if there is any."""
    before = page.viewport_size
    problems = []
    try:
        for size in sizes:
            page.set_viewport_size(size)
            # one frame for the layout of the new size (a wait on the page, not a sleep)
            page.evaluate(_TWO_FRAMES_JS)
            found = violations(page)
            if found:
                problems.append(readable(f"{where} at {size['width']}x{size['height']}", found))
    finally:
        if before is not None:
            page.set_viewport_size(before)
    assert not problems, "\n\n".join(problems)
