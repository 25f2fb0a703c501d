"""``cuarenta site DIR`` and ``cuarenta pack`` (cuarenta.offline.site, README "Publish the game as a static
site"): a complete static site — the page, the rules pages, the pack at device/, site.json saying there is
no server, the service worker and the manifest — with no absolute path of this machine in any text file."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cuarenta.cli.commands import app
from cuarenta.offline import site

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()
TEXT = {".html", ".js", ".json", ".css", ".svg", ".webmanifest", ".mjs", ""}


@pytest.mark.slow  # builds the pack
def test_site_writes_a_complete_static_site_with_no_path_of_this_machine(tmp_path: Path) -> None:
    target = tmp_path / "site"
    result = runner.invoke(app, ["site", str(target)])
    assert result.exit_code == 0, result.output
    for name in (
        "index.html",
        "como-se-juega.html",
        "how-to-play.html",
        "styles.css",
        "app.js",
        "sw.js",
        "offline.js",
        "manifest.webmanifest",
        "icon-192.png",
        "icon-512.png",
        "favicon.svg",
        "device/pack.json",
        "device/shell.json",
        "device/pyodide/pyodide.asm.wasm",
        "device/pyodide/LICENSE",
    ):
        assert (target / name).is_file(), name
    described = json.loads((target / "site.json").read_text(encoding="utf-8"))
    assert described["server"] is False and described["pack"] is True
    pack = json.loads((target / "device" / "pack.json").read_text(encoding="utf-8"))
    assert all((target / "device" / name).is_file() for name in pack["files"])
    shell = json.loads((target / "device" / "shell.json").read_text(encoding="utf-8"))
    assert all((target / name).is_file() for name in shell["files"] if name != "./"), shell
    assert not any(p.name == "__init__.py" for p in target.rglob("*"))
    machine = {str(tmp_path), str(ROOT), str(Path.home()), sys.prefix, os.getcwd()}
    for path in target.rglob("*"):
        if path.is_file() and path.suffix in TEXT and path.stat().st_size < 5_000_000:
            text = path.read_text(encoding="utf-8", errors="replace")
            for where in machine:
                assert where not in text, (path.relative_to(target), where)


def test_site_refuses_a_folder_that_holds_something_else(tmp_path: Path) -> None:
    (tmp_path / "mine.txt").write_text("keep me", encoding="utf-8")
    result = runner.invoke(app, ["site", str(tmp_path)])
    assert result.exit_code == 1
    assert "is not empty and holds no site.json" in result.output
    assert [p.name for p in tmp_path.iterdir()] == ["mine.txt"]


def test_site_json_of_a_static_site() -> None:
    assert site.site_json("9.9.9")["version"] == "9.9.9"


@pytest.mark.slow  # builds the pack
def test_pack_builds_into_the_folder_given(tmp_path: Path) -> None:
    result = runner.invoke(app, ["pack", "--into", str(tmp_path / "p")])
    assert result.exit_code == 0, result.output
    assert "Pyodide 314.0.8" in result.output
    assert (tmp_path / "p" / "pack.json").is_file()


@pytest.mark.slow  # builds the pack
def test_an_earlier_site_is_replaced_whole(tmp_path: Path) -> None:
    target = tmp_path / "site"
    site.write_site(target)
    (target / "stale.js").write_text("old", encoding="utf-8")
    site.write_site(target)
    assert not (target / "stale.js").exists() and (target / "device" / "pack.json").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]  # no staging folder left
