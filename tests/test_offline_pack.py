"""The offline pack (cuarenta.offline, docs/web.md "Install and offline"): built from this tree with the
pinned Pyodide (fetched once with npm into the gitignored .cache/), its pack.json true to its files, the
wheel holding the tree's modules, a tarball of another integrity refused with nothing kept, and the pack
served by the real app at /device/ with /site.json."""

from __future__ import annotations

import hashlib
import json
import zipfile
from pathlib import Path
from typing import Any

import pytest

from cuarenta.offline import npm, pack
from support.app import running

ROOT = Path(__file__).resolve().parents[1]
NPM_CACHE = ROOT / ".cache" / "browser-packages"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    where = tmp_path_factory.mktemp("pack") / "device"
    return where, pack.build_pack(into=where, npm_cache=NPM_CACHE)


def test_pyodide_is_pinned_to_an_exact_version_licence_and_integrity() -> None:
    pin = npm.pin_of("pyodide")
    assert pin["version"] == "314.0.8" and pin["license"] == "MPL-2.0"
    assert pin["integrity"].startswith("sha512-74Wq1kXOC+CCEzAfxuRAO701nAcC")
    assert set(pack.PYODIDE_FILES) <= set(pin["files"])


def test_pack_json_describes_every_file_with_its_size_and_hash(built: tuple[Path, dict[str, Any]]) -> None:
    where, described = built
    assert json.loads((where / "pack.json").read_text(encoding="utf-8")) == described
    assert described["version"] == 1 and described["pyodide"] == "314.0.8"
    on_disk = sorted(p.relative_to(where).as_posix() for p in where.rglob("*") if p.is_file())
    assert sorted([*described["files"], "pack.json"]) == on_disk
    for name, file in described["files"].items():
        data = (where / name).read_bytes()
        assert file == {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}, name
    for name in [*pack.PYODIDE_FILES, "LICENSE"]:
        assert f"pyodide/{name}" in described["files"]
    assert all(w.endswith("-none-any.whl") for w in described["wheels"])  # pure Python only
    assert described["wheels"][-1].startswith("cuarenta-")  # the game's own wheel loads last
    assert all(f"wheels/{w}" in described["files"] for w in described["wheels"])


def test_the_licence_of_pyodide_travels_with_it(built: tuple[Path, dict[str, Any]]) -> None:
    note = (built[0] / "pyodide" / "LICENSE").read_text(encoding="utf-8")
    assert "MPL-2.0" in note and "https://github.com/pyodide/pyodide" in note


def test_the_wheel_holds_the_trees_current_modules(built: tuple[Path, dict[str, Any]]) -> None:
    where, described = built
    wheel = where / "wheels" / described["wheels"][-1]
    source = ROOT / "src"
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        assert archive.read("cuarenta/game.py") == (source / "cuarenta" / "game.py").read_bytes()
        for module in (source / "cuarenta").rglob("*.py"):
            name = module.relative_to(source).as_posix()
            assert name in names, name  # cuarenta/device/ too, once it is in the tree
            assert archive.read(name) == module.read_bytes(), name
        assert "cuarenta/offline/pins.json" in names


def test_a_tarball_of_another_integrity_is_refused_and_nothing_kept(
    tmp_path: Path, built: tuple[Path, dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = npm.pin_of("pyodide")
    wrong = {**real, "integrity": "sha512-" + "A" * 86 + "=="}
    monkeypatch.setattr(npm, "product_pins", lambda: [wrong])
    cache = tmp_path / "npm"
    old = tmp_path / "device"
    old.mkdir()
    (old / "pack.json").write_text('{"id": "old"}', encoding="utf-8")
    with pytest.raises(npm.PackageError, match="is not the pinned"):
        pack.build_pack(into=old, npm_cache=cache)
    assert not npm.folder(wrong, cache).exists()  # nothing of the tarball kept
    assert (old / "pack.json").read_text(encoding="utf-8") == '{"id": "old"}'  # the old pack stays
    assert sorted(p.name for p in tmp_path.iterdir()) == ["device"]  # no half-built pack, no npm folder


def test_a_package_not_installed_from_a_tree_says_so(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(pack, "__file__", str(tmp_path / "a" / "b" / "c" / "pack.py"))
    with pytest.raises(pack.PackError, match="not installed from a source tree"):
        pack.source_root()


# -- served by the app -----------------------------------------------------------------------------------
def test_the_app_serves_the_pack_and_says_so_in_site_json(
    tmp_path: Path, built: tuple[Path, dict[str, Any]]
) -> None:
    where, described = built
    with running(tmp_path / "data", pack_dir=where, workers=0) as client:
        assert client.get("/site.json").json() == {"server": True, "pack": True}
        answer = client.get("/device/pack.json")
        assert answer.status_code == 200 and answer.json() == described
        wasm = client.get("/device/pyodide/pyodide.asm.wasm")
        assert wasm.status_code == 200
        assert wasm.headers["content-type"] == "application/wasm"
        assert "max-age" in wasm.headers["cache-control"]
        assert (
            hashlib.sha256(wasm.content).hexdigest()
            == described["files"]["pyodide/pyodide.asm.wasm"]["sha256"]
        )
        again = client.get(
            "/device/pyodide/pyodide.asm.wasm", headers={"If-None-Match": wasm.headers["etag"]}
        )
        assert again.status_code == 304
        wheel = client.get(f"/device/wheels/{described['wheels'][-1]}")
        assert wheel.status_code == 200 and wheel.headers["cache-control"] == "no-cache"
        assert client.get("/device/pyodide/package.json").status_code == 404  # only the listed files
        assert client.get("/device/../pyproject.toml").status_code == 404
        shell = client.get("/device/shell.json").json()
        assert "./" in shell["files"] and "offline.js" in shell["files"] and "sw.js" not in shell["files"]
        assert client.get("/sw.js").status_code == 200
        manifest = client.get("/manifest.webmanifest")
        assert manifest.status_code == 200 and manifest.json()["start_url"] == "."


def test_without_a_pack_the_app_says_to_build_it(tmp_path: Path) -> None:
    with running(tmp_path / "data", pack_dir=tmp_path / "none", workers=0) as client:
        assert client.get("/site.json").json() == {"server": True, "pack": False}
        answer = client.get("/device/pack.json")
        assert answer.status_code == 404
        assert "run `cuarenta pack`" in answer.json()["detail"]
