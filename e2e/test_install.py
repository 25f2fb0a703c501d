"""Install and offline (docs/web.md "Install and offline"): the page from ``cuarenta serve`` has a manifest
Chromium accepts, its service worker (sw.js, registered by offline.js) becomes active, and once
``cachePack`` has stored the offline pack the page reloads with the network off (the shell from the
cache) and Pyodide's wasm is answered from Cache Storage."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from harness import ROOT, Server, static_server
from playwright.sync_api import BrowserContext, Page, expect

from cuarenta.offline.pack import build_pack
from cuarenta.offline.site import write_site

REGISTER = """async () => {
  const offline = await import(new URL("offline.js", document.baseURI).href);
  const registration = await offline.registerServiceWorker();
  if (!registration) return null;
  const ready = await navigator.serviceWorker.ready;
  const worker = ready.active;
  if (worker.state !== "activated") {
    await new Promise((done) =>
      worker.addEventListener("statechange", () => worker.state === "activated" && done()));
  }
  return { state: worker.state, scope: ready.scope };
}"""

CACHE_PACK = """async () => {
  const offline = await import(new URL("offline.js", document.baseURI).href);
  const before = await offline.packState();
  const steps = [];
  await offline.cachePack((done, total) => steps.push([done, total]));
  const after = await offline.packState();
  return { before, after, steps, caches: await caches.keys() };
}"""

REFUSED = """async () => {
  const offline = await import(new URL("offline.js", document.baseURI).href);
  const real = navigator.storage.estimate;
  navigator.storage.estimate = async () => ({ quota: 1000000, usage: 10 });  // a full disk
  let code = null;
  try { await offline.cachePack(); } catch (error) { code = error.code; }
  navigator.storage.estimate = real;
  const stored = [];
  for (const name of await caches.keys()) {
    if (!name.startsWith("cuarenta-pack-")) continue;
    stored.push(...(await (await caches.open(name)).keys()).map((r) => r.url));
  }
  return { code, stored };
}"""

NOT_STORED = REFUSED.replace("navigator.storage.estimate = async () => ({ quota: 1000000, usage: 10 });", "")

FETCH_WASM = """async () => {
  const answer = await fetch("device/pyodide/pyodide.asm.wasm");
  const body = await answer.arrayBuffer();
  const cached = await caches.match(new URL("device/pyodide/pyodide.asm.wasm", document.baseURI).href);
  return { status: answer.status, bytes: body.byteLength, type: answer.headers.get("content-type"),
           cached: !!cached };
}"""


@pytest.fixture(scope="module")
def pack_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("pack") / "device-pack"
    build_pack(into=where, npm_cache=ROOT / ".cache" / "browser-packages")
    return where


def test_install_and_play_offline(
    context: BrowserContext, tmp_path: Path, pack_dir: Path, start_server: Callable[..., Server]
) -> None:
    server = start_server(tmp_path / "data", options=("--pack", str(pack_dir)))
    page = context.new_page()
    page.goto(server.url)
    expect(page.locator("#new-game-form")).to_be_visible()
    install_and_go_offline(context, page, server.url, pack_dir)


def test_the_static_site_installs_and_works_offline_too(context: BrowserContext, tmp_path: Path) -> None:
    target = tmp_path / "site"
    write_site(target, npm_cache=ROOT / ".cache" / "browser-packages")
    with static_server(target) as url:
        page = context.new_page()
        page.goto(url)
        expect(page.locator("header.topbar")).to_be_visible()
        assert page.evaluate("async () => (await fetch('site.json')).json()")["server"] is False
        # a static site plays on the device: its first visit stores the pack, after the page is shown
        # (app.js: bootDevice, with its progress), and the game starts
        page.wait_for_function("() => document.body.dataset.texts === 'ready'", timeout=120_000)
        described = json.loads((target / "device" / "pack.json").read_text(encoding="utf-8"))
        assert f"cuarenta-pack-{described['id']}" in page.evaluate("async () => await caches.keys()")
        assert page.evaluate(REGISTER) == {"state": "activated", "scope": url}
        # offline: the page comes from the service worker, the game starts from the cache
        context.set_offline(True)
        answer = page.reload()
        assert answer is not None and answer.from_service_worker and answer.ok
        page.wait_for_function(
            "() => document.body.dataset.transport === 'device' && document.body.dataset.texts === 'ready'",
            timeout=120_000,
        )
        wasm = page.evaluate(FETCH_WASM)
        assert wasm["status"] == 200 and wasm["cached"]
        context.set_offline(False)


def install_and_go_offline(context: BrowserContext, page: Page, url: str, pack_dir: Path) -> None:
    """Check the manifest, register the service worker, cache the pack, reload offline, fetch the wasm."""
    described: dict[str, Any] = json.loads((pack_dir / "pack.json").read_text(encoding="utf-8"))
    total = sum(f["bytes"] for f in described["files"].values())

    # the manifest, as Chromium reads it
    cdp = context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"].endswith("/manifest.webmanifest"), manifest
    assert manifest["errors"] == [], manifest["errors"]
    data = json.loads(manifest["data"])
    assert data["name"] == "Cuarenta" and data["display"] == "standalone" and data["lang"] == "es"
    assert {i["sizes"] for i in data["icons"]} >= {"192x192", "512x512", "any"}

    # the service worker becomes active, its scope the page
    active = page.evaluate(REGISTER)
    assert active == {"state": "activated", "scope": url}
    # installable but for the test's own browser context (a fresh context counts as incognito)
    installable = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert [e for e in installable if e["errorId"] != "in-incognito"] == [], installable

    # the pack is not precached on install: the first load stays light
    stored = page.evaluate("async () => await caches.keys()")
    assert not [name for name in stored if name.startswith("cuarenta-pack-")], stored

    # no room, and no network: refused with a code, nothing stored
    assert page.evaluate(REFUSED) == {"code": "storage_refused", "stored": []}
    context.set_offline(True)
    assert page.evaluate(NOT_STORED) == {"code": "offline", "stored": []}
    context.set_offline(False)

    got = page.evaluate(CACHE_PACK)
    assert got["before"] == {"cached": False, "bytes": total}
    assert got["after"] == {"cached": True, "bytes": total}
    assert got["steps"][-1] == [total, total]
    dones = [done for done, _ in got["steps"]]
    assert dones == sorted(dones) and len(dones) > 2  # byte progress, never backwards
    assert f"cuarenta-pack-{described['id']}" in got["caches"]

    # offline: the page reloads from the cache, and the wasm comes from Cache Storage
    context.set_offline(True)
    answer = page.reload()
    assert answer is not None and answer.from_service_worker and answer.ok
    expect(page.locator("header.topbar")).to_be_visible()
    assert page.title() == "Cuarenta"
    wasm = page.evaluate(FETCH_WASM)
    assert wasm["status"] == 200 and wasm["cached"]
    assert wasm["bytes"] == described["files"]["pyodide/pyodide.asm.wasm"]["bytes"]
    assert wasm["type"] == "application/wasm"
    state = page.evaluate(
        "async () => (await import(new URL('offline.js', document.baseURI).href)).packState()"
    )
    assert state == {"cached": True, "bytes": total}
    context.set_offline(False)
