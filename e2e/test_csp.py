"""The Content-Security-Policy in a real browser: the page's screens run under it without one violation.

The server sends the policy on every answer (docs/web.md "Security"). Chromium reports each blocked
script, style, image or connection as a ``securitypolicyviolation`` event; a script added before the
page's own (through the DevTools protocol, which the policy does not govern) records them. A control
proves the recorder works: an inline script that the test adds on purpose is blocked and reported.
"""

from __future__ import annotations

import re

from harness import start_game, wait_step
from playwright.sync_api import BrowserContext, Page, expect

RECORD_VIOLATIONS = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', (e) => {
  const where = `${e.sourceFile}:${e.lineNumber}`;
  window.__csp.push(`${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} (${where})`);
});
"""


def violations(page: Page) -> list[str]:
    return [str(v) for v in page.evaluate("() => window.__csp || []")]


def test_no_csp_violation_on_any_screen(page: Page, base_url: str) -> None:
    page.add_init_script(RECORD_VIOLATIONS)
    answer = page.goto(base_url)
    assert answer is not None
    policy = answer.headers["content-security-policy"]
    assert "script-src 'self' 'wasm-unsafe-eval'" in policy and "frame-ancestors 'none'" in policy
    assert answer.headers["x-content-type-options"] == "nosniff"
    expect(page.locator("#new-game-form")).to_be_visible()
    assert violations(page) == []

    # the table: a game with its socket (connect-src), cards (inline SVG), and a move
    start_game(page, base_url, goto=False, seed=1)
    assert wait_step(page) == "ready"
    page.get_by_test_id("hand-card").first.click()
    assert violations(page) == []

    # the history and the rules pages
    page.get_by_test_id("nav-history").click()
    expect(page.locator("#screen-history")).to_be_visible()
    page.wait_for_load_state("networkidle")  # its history and statistics have been fetched
    assert violations(page) == []
    for name in ("como-se-juega.html", "how-to-play.html"):
        rules = page.goto(base_url + name)
        assert rules is not None and "content-security-policy" in rules.headers
        expect(page.locator("h1").first).to_be_visible()
        assert violations(page) == [], name


def test_the_violation_recorder_sees_a_blocked_inline_script(context: BrowserContext, base_url: str) -> None:
    """The control (on a page of its own: the blocked script is also a console error, which would fail
    the other test's page)."""
    page = context.new_page()
    page.add_init_script(RECORD_VIOLATIONS)
    page.goto(base_url)
    expect(page.locator("#new-game-form")).to_be_visible()
    page.evaluate(
        "() => { const s = document.createElement('script'); s.textContent = 'window.__ran = 1';"
        " document.body.append(s); }"
    )
    page.wait_for_function("() => window.__csp.length > 0")
    assert page.evaluate("() => window.__ran") is None
    assert any(re.match(r"script-src(-elem)? blocked inline", v) for v in violations(page)), violations(page)
    page.close()
