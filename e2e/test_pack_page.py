"""The game on the device as a newcomer meets it (issue 25, items 7, 8, 10; docs/web.md "Playing on the
device", "Install and offline"), in real Chromium at 1280×800 and 360×740:

- a ``cuarenta serve`` that is still making the pack says so in the device's box (and offers nothing to
  download), then says when it could not make it — the rest of the page plays on. The registry is made
  unreachable by an ``npm`` first on the server's ``PATH`` that waits for the test, then fails as npm does
  when the network is down: the server's own code is what runs;
- offline, on the device, the start screen's buttons have their words while Python is held back (the
  worker's ``boot`` message kept until the test lets it go);
- a download refused by the browser, a damaged file, a pack the server no longer has: each its own text,
  and no half-made cache left behind;
- "Campeonato" and "Con amigos" are off on the device, each with why (no shell command), and a
  championship link opened there says it needs a server instead of "Not Found".
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from harness import PHONE, ROOT, Server, new_context, static_server, watch_page
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect

from cuarenta import catalogue
from cuarenta.offline.pack import build_pack
from cuarenta.offline.site import write_site

SIZES = [pytest.param((1280, 800), id="desktop"), pytest.param((PHONE["width"], PHONE["height"]), id="phone")]
NPM_CACHE = ROOT / ".cache" / "browser-packages"
#: Pyodide's first start on a loaded machine: a bound on the wait.
BOOT_MS = 120_000

#: npm as it behaves when the registry cannot be reached, once the test lets it go (RELEASE exists).
FAKE_NPM = """#!/bin/sh
while [ ! -e "$CUARENTA_TEST_RELEASE" ]; do sleep 0.1; done
echo "npm ERR! code ENOTFOUND" >&2
echo "npm ERR! network request to https://registry.npmjs.org/pyodide failed" >&2
exit 1
"""

#: Keeps the worker's "boot" message (Python does not start) until window.__release() is called.
HOLD_BOOT = """
(() => {
  const Orig = window.Worker;
  const held = [];
  window.__release = () => {
    window.__released = true;
    for (const [worker, message] of held.splice(0)) Orig.prototype.postMessage.call(worker, message);
  };
  window.Worker = class extends Orig {
    postMessage(message, ...rest) {
      if (message && message.type === "boot" && !window.__released) {
        held.push([this, message]);
        return undefined;
      }
      return super.postMessage(message, ...rest);
    }
  };
})();
"""

#: Every visible button and link of the header and the start screen, with the words it shows or is named by.
LABELS = """() => [...document.querySelectorAll("header button, header a, #screen-new button")]
  .filter((e) => e.offsetParent !== null)
  .map((e) => ({ id: e.id || e.dataset.testid || e.className,
                 words: (e.textContent.trim() || e.getAttribute("aria-label") || "").trim() }))"""

CACHES = "async () => (await caches.keys()).filter((name) => name.startsWith('cuarenta-pack-'))"


def words(key: str, **params: object) -> str:
    return catalogue.text(key, "es", **params)


@pytest.fixture(scope="module")
def pack_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("pack") / "device-pack"
    build_pack(into=where, npm_cache=NPM_CACHE)
    return where


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    target = tmp_path_factory.mktemp("site") / "site"
    write_site(target, npm_cache=NPM_CACHE)
    with static_server(target) as url:
        yield url


@pytest.fixture(scope="module")
def installed(browser: Browser, site: str) -> Iterator[BrowserContext]:
    """A context that visited the static site once: the service worker active, the pack in its cache."""
    ctx = new_context(browser, service_workers="allow")
    page = ctx.new_page()
    page.goto(site)
    page.wait_for_function(
        "() => document.body.dataset.transport === 'device' && document.body.dataset.texts === 'ready'",
        timeout=BOOT_MS,
    )
    page.wait_for_function("navigator.serviceWorker.ready.then((r) => Boolean(r.active))")
    page.close()
    try:
        yield ctx
    finally:
        ctx.close()


# -- item 7: the server makes the pack ----------------------------------------------------------------------
@pytest.mark.parametrize("size", SIZES)
def test_the_page_says_the_pack_is_being_made_then_that_it_could_not_be(
    browser: Browser, tmp_path: Path, start_server: Callable[..., Server], size: tuple[int, int]
) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "npm").write_text(FAKE_NPM, encoding="utf-8")
    (bin_dir / "npm").chmod(0o755)
    release = tmp_path / "release"
    server = start_server(
        tmp_path / "data",
        options=("--pack", str(tmp_path / "pack")),
        env={
            "CUARENTA_NO_PACK": None,
            "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
            "CUARENTA_CACHE": str(tmp_path / "cache"),  # nothing fetched yet: npm is asked
            "CUARENTA_TEST_RELEASE": str(release),
        },
    )
    ctx = new_context(browser, *size)
    try:
        page = ctx.new_page()
        log = watch_page(page)
        page.goto(server.url)
        box = page.get_by_test_id("device-box")
        expect(box).to_be_visible()
        expect(page.get_by_test_id("device-note")).to_have_text(words("page.device.preparing"))
        expect(page.get_by_test_id("device-toggle")).to_be_hidden()  # nothing to download yet
        expect(page.get_by_test_id("device-sub")).to_be_hidden()
        expect(page.get_by_test_id("mode-friends")).to_be_enabled()  # the rest of the page is the server's
        expect(page.get_by_test_id("start")).to_be_enabled()
        release.write_text("go", encoding="utf-8")  # npm fails: the registry cannot be reached
        expect(page.get_by_test_id("device-note")).to_have_text(
            words("page.device.pack_failed"), timeout=60_000
        )
        expect(page.get_by_test_id("device-toggle")).to_be_hidden()
        assert "could not be made" in server.log() and "ENOTFOUND" in server.log()
        assert not log.errors, log.errors
    finally:
        ctx.close()


# -- item 8: words before the engine ------------------------------------------------------------------------
@pytest.mark.parametrize("size", SIZES)
def test_offline_the_start_screen_reads_before_python_is_ready(
    installed: BrowserContext, site: str, size: tuple[int, int]
) -> None:
    installed.set_offline(True)
    try:
        page = installed.new_page()
        page.set_viewport_size({"width": size[0], "height": size[1]})
        log = watch_page(page)
        page.add_init_script(HOLD_BOOT)
        page.goto(site)
        expect(page.get_by_test_id("device-boot")).to_have_text(words("page.device.booting"))
        assert page.evaluate("document.body.dataset.texts") != "ready"  # Python is held back
        labels = page.evaluate(LABELS)
        assert len(labels) >= 4, labels
        assert [b for b in labels if not b["words"]] == [], labels
        expect(page.get_by_test_id("start-game")).to_have_text(words("page.start"))
        expect(page.get_by_test_id("champ-new")).to_have_text(words("page.champ.entry"))
        expect(page.get_by_test_id("device-note")).to_have_text(words("page.device.on"))
        page.evaluate("window.__release()")
        page.wait_for_function("document.body.dataset.texts === 'ready'", timeout=BOOT_MS)
        expect(page.get_by_test_id("device-boot")).to_be_hidden()
        page.close()
        assert not log.errors, log.errors
    finally:
        installed.set_offline(False)


# -- item 10: what needs a server, and a download that fails ------------------------------------------------
@pytest.mark.parametrize("size", SIZES)
def test_championships_and_friends_are_offered_only_where_a_server_is(
    installed: BrowserContext, site: str, size: tuple[int, int]
) -> None:
    page = installed.new_page()
    page.set_viewport_size({"width": size[0], "height": size[1]})
    log = watch_page(page)
    page.goto(site)
    page.wait_for_function("document.body.dataset.texts === 'ready'", timeout=BOOT_MS)
    expect(page.get_by_test_id("champ-new")).to_be_disabled()
    expect(page.get_by_test_id("device-champ")).to_have_text(words("page.device.champ_need_server"))
    expect(page.get_by_test_id("open-daily")).to_be_disabled()  # the deal of the day is a server's
    expect(page.get_by_test_id("device-daily")).to_have_text(words("page.device.daily_need_server"))
    expect(page.get_by_test_id("mode-friends")).to_be_disabled()
    friends = page.get_by_test_id("device-friends")
    expect(friends).to_have_text(words("page.device.friends_need_server"))
    assert "cuarenta serve" not in friends.inner_text()  # no shell command for a player
    # a championship's link opened on the device: what it needs, in the page's words
    page.goto(site + "#standings=abc123")
    page.wait_for_function("document.body.dataset.texts === 'ready'", timeout=BOOT_MS)
    expect(page.get_by_test_id("champ-device-only")).to_have_text(words("page.device.champ_need_server"))
    assert "Not Found" not in page.inner_text("body")
    page.close()
    assert not log.errors, log.errors


def _open_box(page: Page, url: str) -> None:
    """The server's page, its box offering the download and saying what it weighs for this browser."""
    page.goto(url)
    expect(page.get_by_test_id("device-toggle")).to_have_text(words("page.device.offer"))
    weight = page.evaluate("fetch('site.json').then((r) => r.json()).then((s) => s.pack_bytes)")
    assert 6_000_000 < weight < 16_000_000, weight  # the pack as this server sends it to this browser
    size = f"{weight / 1e6:.1f}".replace(".", ",")
    expect(page.get_by_test_id("device-sub")).to_have_text(words("page.device.offer_sub", mb=size))


@pytest.mark.parametrize("size", SIZES)
def test_a_failed_download_says_why_and_leaves_no_cache(
    browser: Browser,
    tmp_path: Path,
    pack_dir: Path,
    start_server: Callable[..., Server],
    size: tuple[int, int],
) -> None:
    server = start_server(tmp_path / "data", options=("--pack", str(pack_dir)))
    ctx = new_context(browser, *size, service_workers="block")
    try:
        page = ctx.new_page()
        # refused: the browser gives no room
        page.add_init_script(
            "navigator.storage.estimate = async () => ({ quota: 1000000, usage: 10 });"
            " navigator.storage.persist = async () => false;"
        )
        _open_box(page, server.url)
        page.get_by_test_id("device-toggle").click()
        expect(page.get_by_test_id("device-note")).to_have_text(words("page.device.storage_refused"))
        assert page.evaluate(CACHES) == []
        page.close()

        # damaged: the wheel arrives with other bytes than pack.json says
        page = ctx.new_page()

        def damaged(route: Route) -> None:
            route.fulfill(status=200, body=b"not the wheel", headers={"content-type": "application/zip"})

        page.route("**/device/wheels/**", damaged)
        _open_box(page, server.url)
        page.get_by_test_id("device-toggle").click()
        expect(page.get_by_test_id("device-note")).to_have_text(words("page.device.corrupt"), timeout=60_000)
        assert page.evaluate(CACHES) == []  # what was stored before the damaged file is deleted too
        page.close()

        # unavailable: the server no longer has the pack it described
        page = ctx.new_page()
        page.route(
            re.compile(r"/device/stdlib\.zip\?fetch$"), lambda route: route.fulfill(status=404, body="{}")
        )
        _open_box(page, server.url)
        page.get_by_test_id("device-toggle").click()
        expect(page.get_by_test_id("device-note")).to_have_text(
            words("page.device.unavailable"), timeout=60_000
        )
        assert page.evaluate(CACHES) == []
        expect(page.get_by_test_id("device-toggle")).to_be_enabled()  # the next try starts afresh
        page.close()
    finally:
        ctx.close()
