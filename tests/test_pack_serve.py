"""``cuarenta serve`` makes the offline pack by itself (issue 25, item 7; docs/web.md "Install and offline"):
the README's first command gives the game on the device, with no ``cuarenta pack``.

A real ``cuarenta serve`` on a fresh data directory and a fresh pack folder: it answers at once, says the
pack is being made (``site.json``, 503 ``pack_preparing`` on ``/device/``), logs each step, then serves
the pack — the same pack (the same ``id``) ``cuarenta pack`` builds from the same tree. Without npm and
Node.js (a fresh cache, a ``PATH`` without them) the log and ``site.json`` say it cannot be made, and the
server plays on. npm and Pyodide's fetch are real (kept in the checkout's .cache/ for the next run).
"""

from __future__ import annotations

import shutil
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from cuarenta.offline import pack
from support.served import Served, serve_process

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
NPM_CACHE = ROOT / ".cache" / "browser-packages"
#: The longest the making of a pack may take on a loaded machine (npm's fetch, Pyodide under Node.js
#: twice, brotli of 10 MB): a bound on the wait, not a figure.
MAKING_SECONDS = 900


def site_json(served: Served) -> dict[str, Any]:
    answer: dict[str, Any] = httpx.get(served.base + "/site.json", timeout=10).json()
    return answer


def wait_for(served: Served, wanted: str) -> dict[str, Any]:
    """``site.json`` once its ``pack_status`` is ``wanted`` (polling a background build, bounded)."""
    deadline = time.monotonic() + MAKING_SECONDS
    while True:
        site = site_json(served)
        if site["pack_status"] == wanted:
            return site
        assert site["pack_status"] in ("preparing", wanted), (site, served.log()[-3000:])
        assert time.monotonic() < deadline, (
            f"no {wanted} pack after {MAKING_SECONDS} s:\n{served.log()[-3000:]}"
        )
        time.sleep(0.5)


def test_serve_makes_the_pack_by_itself_and_serves_everything_meanwhile(tmp_path: Path) -> None:
    where = tmp_path / "pack"
    with serve_process(
        tmp_path / "serve.log",
        *("--data", str(tmp_path / "data"), "--pack", str(where), "--workers", "0"),
        env={"CUARENTA_NO_PACK": None},
    ) as served:
        first = site_json(served)
        assert first["server"] is True and first["pack_status"] in ("preparing", "ready")
        if first["pack_status"] == "preparing":  # the pack is not there yet: said, and nothing else waits
            early = httpx.get(served.base + "/device/pack.json", timeout=10)
            if early.status_code == 503:
                assert early.json()["code"] == "pack_preparing" and early.headers["retry-after"]
            assert httpx.get(served.base + "/", timeout=10).status_code == 200
            made = httpx.post(served.base + "/api/rooms", json={"level": "facil"}, timeout=10)
            assert made.status_code == 200, made.text
        site = wait_for(served, "ready")
        assert site["pack"] is True and site["pack_bytes"] > 0
        described = httpx.get(served.base + "/device/pack.json", timeout=10).json()
        wasm = httpx.head(served.base + "/device/pyodide/pyodide.asm.wasm", timeout=10)
        assert wasm.status_code == 200
        log = served.log()
    assert "the offline pack (the game on the device) is missing: it is being made" in log
    assert "offline pack: fetching Pyodide 314.0.8 with npm" in log
    assert f"the offline pack {described['id']} is ready" in log
    # the same tree gives the same pack: cuarenta pack's own build has the server's id
    assert pack.build_pack(into=tmp_path / "again", npm_cache=NPM_CACHE)["id"] == described["id"]


def test_a_pack_that_cannot_be_made_is_said_and_the_server_plays_on(tmp_path: Path) -> None:
    """No npm, no Node.js, nothing cached: one clear line in the log, ``pack_failed`` for the page."""
    bin_dir = tmp_path / "bin"  # a PATH with Python only
    bin_dir.mkdir()
    (bin_dir / "python3").symlink_to(sys.executable)
    assert shutil.which("npm", path=str(bin_dir)) is None
    with serve_process(
        tmp_path / "serve.log",
        *("--data", str(tmp_path / "data"), "--pack", str(tmp_path / "pack"), "--workers", "0"),
        env={"CUARENTA_NO_PACK": None, "PATH": str(bin_dir), "CUARENTA_CACHE": str(tmp_path / "cache")},
    ) as served:
        site = wait_for(served, "failed")
        assert site["pack"] is False and site["pack_bytes"] == 0
        refused = httpx.get(served.base + "/device/pack.json", timeout=10)
        assert refused.status_code == 503 and refused.json()["code"] == "pack_failed"
        assert "npm is needed" in refused.json()["detail"]
        # the rest of the server is unharmed: the page, a game against the computer
        assert httpx.get(served.base + "/", timeout=10).status_code == 200
        made = httpx.post(served.base + "/api/rooms", json={"level": "facil"}, timeout=10)
        assert made.status_code == 200, made.text
        assert httpx.get(served.base + "/api/health", timeout=10).json()["ok"] is True
        log = served.log()
    lines = [line for line in log.splitlines() if "could not be made" in line]
    assert len(lines) == 1, log
    assert "the offline pack (the game on the device, /device/) could not be made" in lines[0]
    assert "npm is needed to fetch pyodide@314.0.8" in lines[0]
    assert not (tmp_path / "pack").exists()  # nothing half-made left
