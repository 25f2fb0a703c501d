"""The deal of the day on the device (docs/web.md "The deal of the day", "Playing on the device"), in real
Chromium at 1280×800 and 360×740: from ``cuarenta serve``, "Jugar en este dispositivo" stores the pack and
the server's offline deals of the next days; with the network off the page plays today's offline deal on
the device to the end and says its result will be sent; with the network back the result is sent, the page
shows its place among the offline results and the day's offline ranking, and the server lists it.

The online deal's seed never reaches the device: nothing the page stores (localStorage, the worker's
IndexedDB) or sends (its requests, its messages to the worker) holds it, nor the seed of its mesa.
"""

from __future__ import annotations

import datetime
import sqlite3
from collections.abc import Iterator
from typing import Any

import pytest
from harness import PHONE, Server, local_storage, new_context, watch_page
from ondevice import BOOT_MS, DEVICE_STEP_MS, booted, build_pack
from playing import play
from playwright.sync_api import Browser, BrowserContext, Page, Request, expect

from cuarenta import catalogue
from cuarenta.daily import daily_seed, is_offline, result, today
from cuarenta.record import GameRecord
from cuarenta.server.authority.model import mesa_seed

SIZES = [pytest.param((1280, 800), id="desktop"), pytest.param((PHONE["width"], PHONE["height"]), id="phone")]

#: Records every message the page posts to the device's worker and every message it answers
#: (window.__worker), to look for a seed in them.
WORKER_SPY = """
(() => {
  window.__worker = [];
  const Orig = window.Worker;
  window.Worker = class extends Orig {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (e) => window.__worker.push(JSON.stringify(e.data)));
    }
    postMessage(m, ...rest) {
      window.__worker.push(JSON.stringify(m));
      return super.postMessage(m, ...rest);
    }
  };
})();
"""

#: Every record of the device's IndexedDB (the rooms it keeps), as text.
INDEXED_DB = """
() => new Promise((resolve, reject) => {
  const open = indexedDB.open("cuarenta-device");
  open.onerror = () => reject(open.error);
  open.onsuccess = () => {
    const db = open.result;
    if (!db.objectStoreNames.contains("rooms")) { resolve([]); return; }
    const all = db.transaction("rooms", "readonly").objectStore("rooms").getAll();
    all.onsuccess = () => resolve(all.result.map((v) => typeof v === "string" ? v : JSON.stringify(v)));
    all.onerror = () => reject(all.error);
  };
})
"""


def words(key: str, **params: object) -> str:
    return catalogue.text(key, "es", **params)


def stored(page: Page, key: str) -> Any:
    return page.evaluate("(key) => JSON.parse(localStorage.getItem(key) || 'null')", key)


@pytest.fixture(scope="module")
def packed() -> None:
    build_pack()


@pytest.fixture
def sized_context(browser: Browser, request: pytest.FixtureRequest) -> Iterator[BrowserContext]:
    """A fresh context of the test's size (a phone's touch and pixels at 360×740), with its service
    worker, and the worker's messages recorded."""
    width, height = request.param
    phone = {"is_mobile": True, "has_touch": True, "device_scale_factor": 2} if width < 500 else {}
    ctx = new_context(browser, width, height, service_workers="allow", **phone)
    ctx.add_init_script(WORKER_SPY)
    try:
        yield ctx
    finally:
        ctx.set_offline(False)
        ctx.close()


def sent_by(page: Page, into: list[str]) -> None:
    """Keep the address and body of every request of ``page`` in ``into``."""

    def keep(request: Request) -> None:
        into.append(request.url)
        into.append(request.post_data or "")

    page.on("request", keep)


def online_seeds(server: Server) -> list[str]:
    """Today's online deal's seed (from the server's secret, read in its database) and its mesa's seed."""
    with sqlite3.connect(f"file:{server.data_dir / 'cuarenta.sqlite3'}?mode=ro", uri=True) as db:
        (secret,) = db.execute("select value from settings where name = 'daily_secret'").fetchone()
    seed = daily_seed(bytes.fromhex(secret), today())
    return [seed, seed.rsplit("/", 1)[1], str(mesa_seed(seed, 1))]


@pytest.mark.parametrize("sized_context", SIZES, indirect=True)
def test_the_offline_deal_of_the_day_is_played_on_the_device_and_its_result_sent_later(
    sized_context: BrowserContext, packed: None, server: Server
) -> None:
    ctx = sized_context
    day = today().isoformat()
    traffic: list[str] = []
    # from the server's page: the server's own deal of the day; then "Jugar en este dispositivo"
    page = ctx.new_page()
    log = watch_page(page)
    sent_by(page, traffic)
    page.goto(server.url)
    expect(page.get_by_test_id("open-daily")).to_be_enabled()
    page.get_by_test_id("device-toggle").click()
    booted(page)  # the pack stored, the page reloaded on the device
    handed = server.get_json("api/daily/offline")
    assert handed["days"][0]["day"] == day and all(is_offline(d["seed"]) for d in handed["days"])
    page.wait_for_function("() => localStorage.getItem('cuarenta.daily.offline') !== null", timeout=BOOT_MS)
    kept = stored(page, "cuarenta.daily.offline")
    assert kept["days"] == handed["days"] and kept["level"] == handed["level"] == "dificil", kept
    seed = kept["days"][0]["seed"]
    expect(page.get_by_test_id("open-daily")).to_be_enabled()
    expect(page.get_by_test_id("device-daily")).to_be_hidden()
    page.close()
    assert not log.errors, log.errors

    ctx.set_offline(True)
    offline_from = len(traffic)
    # offline: today's offline deal played on the device to its end
    page = ctx.new_page()
    log = watch_page(page)
    sent_by(page, traffic)
    page.goto(server.url)
    booted(page)
    page.get_by_test_id("open-daily").click()
    expect(page.get_by_test_id("daily-offline")).to_have_text(words("page.daily.offline_about"))
    expect(page.get_by_test_id("daily-day")).to_have_attribute("data-day", day)
    page.get_by_test_id("daily-play").click()
    expect(page.locator('[data-testid=table-screen][data-ready="1"]')).to_be_visible(timeout=BOOT_MS)
    assert stored(page, "cuarenta.device.daily")["day"] == day
    assert play(page, until="over", timeout=DEVICE_STEP_MS) >= 1
    note = page.get_by_test_id("result-daily-note")
    expect(note).to_have_text(words("page.daily.will_send"))
    expect(note).to_have_attribute("data-state", "pending")
    expect(
        page.get_by_test_id("download-record")
    ).to_be_visible()  # an offline deal's record is given at once
    outbox = stored(page, "cuarenta.daily.outbox")
    assert [item["day"] for item in outbox] == [day], outbox
    record = GameRecord.from_text(outbox[0]["record"])
    assert record.seed == mesa_seed(seed, 1) and record.replay().is_over
    page.get_by_test_id("result-daily").click()
    expect(page.get_by_test_id("daily-pending")).to_have_text(words("page.daily.will_send"))
    assert page.evaluate("document.scrollingElement.scrollWidth") <= page.viewport_size["width"]  # type: ignore[index]

    # the online deal's seed never came to the device: not stored, not sent, not in the worker's messages
    secrets = online_seeds(server)
    rooms = page.evaluate(INDEXED_DB)
    assert any(seed in room for room in rooms)  # the device keeps its own room's (offline) seed
    everything = [*local_storage(page).values(), *rooms, *page.evaluate("window.__worker"), *traffic]
    assert not [s for s in secrets for text in everything if s in text]

    # the browser knows itself offline: the page asked the server nothing (it would only fail)
    assert not [url for url in traffic[offline_from:] if "/api/daily" in url], traffic[offline_from:]

    # the network back: the result is sent, its place among the offline results shown, the server lists it
    ctx.set_offline(False)
    mine = page.get_by_test_id("daily-offline-mine")
    expect(mine).to_be_visible(timeout=60_000)
    assert stored(page, "cuarenta.daily.outbox") == []
    sent = stored(page, "cuarenta.daily.sent")
    assert len(sent) == 1 and sent[0]["day"] == day and sent[0]["result"] == result(record.replay()), sent
    ranking = server.get_json(f"api/daily?day={day}&offline=true&entry={sent[0]['entry']}")
    assert ranking["mine"]["result"] == sent[0]["result"] and ranking["mine"]["you"] is True
    assert ranking["count"] >= 1 and ranking["mine"] in ranking["ranking"]
    expect(mine).to_have_attribute("data-place", str(ranking["mine"]["place"]))
    expect(mine).to_have_attribute("data-count", str(ranking["count"]))
    offline_table = page.locator("[data-testid=daily-ranking][data-offline='1']")
    expect(offline_table.locator("tr.daily-you")).to_have_attribute("data-result", str(sent[0]["result"]))
    expect(page.get_by_test_id("daily-offline-title")).to_have_text(
        words("page.daily.offline_ranking", count=ranking["count"])
    )
    assert page.evaluate("document.scrollingElement.scrollWidth") <= page.viewport_size["width"]  # type: ignore[index]
    page.get_by_test_id("lang-switch").click()
    expect(mine).to_contain_text(f"Place {ranking['mine']['place']} of {ranking['count']} offline")

    page.close()
    assert not log.errors, log.errors
    assert datetime.date.fromisoformat(day) == today()  # the day did not turn during the test
