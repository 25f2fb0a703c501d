"""The offline pack (cuarenta.offline, docs/web.md "Install and offline"): built from this tree with the
pinned Pyodide (fetched once with npm into the gitignored .cache/), its pack.json true to its files, the
wheel holding the device's modules of the tree (and their bytecode, made by that Pyodide), the same tree
giving the same pack byte for byte, a tarball of another integrity refused with nothing kept, and the
pack served by the real app at /device/ (compressed as the browser accepts, HEAD as GET) with
/site.json."""

from __future__ import annotations

import gzip
import hashlib
import json
import zipfile
from pathlib import Path
from typing import Any

import pytest

from cuarenta.offline import npm, pack, wheel
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


@pytest.mark.slow  # builds the pack
def test_pack_json_describes_every_file_with_its_size_and_hash(built: tuple[Path, dict[str, Any]]) -> None:
    where, described = built
    assert json.loads((where / "pack.json").read_text(encoding="utf-8")) == described
    assert described["version"] == 1 and described["pyodide"] == "314.0.8"
    assert described["source"] == pack.pack_source() and described["stdlib"] == "stdlib.zip"
    encoded = [
        f"{name}{suffix}"
        for name, f in described["files"].items()
        for e, suffix in pack.ENCODINGS.items()
        if e in f
    ]
    on_disk = sorted(p.relative_to(where).as_posix() for p in where.rglob("*") if p.is_file())
    assert sorted([*described["files"], *encoded, "pack.json"]) == on_disk
    for name, file in described["files"].items():
        data = (where / name).read_bytes()
        assert {k: file[k] for k in ("bytes", "sha256")} == {
            "bytes": len(data),
            "sha256": hashlib.sha256(data).hexdigest(),
        }, name
        if "gzip" in file:  # a compressed copy is the same file
            assert gzip.decompress((where / f"{name}.gz").read_bytes()) == data, name
            assert file["gzip"] == (where / f"{name}.gz").stat().st_size
    assert "gzip" in described["files"]["pyodide/pyodide.asm.wasm"]
    assert "br" in described["files"]["pyodide/pyodide.asm.wasm"]
    for name in [*pack.PYODIDE_FILES, "LICENSE"]:
        if name != pack.STDLIB_SOURCE:  # the standard library is the pack's stdlib.zip
            assert f"pyodide/{name}" in described["files"]
    assert "stdlib.zip" in described["files"] and "pyodide/python_stdlib.zip" not in described["files"]
    assert all(w.endswith("-none-any.whl") for w in described["wheels"])  # pure Python only
    assert described["wheels"][-1].startswith("cuarenta-")  # the game's own wheel loads last
    assert all(f"wheels/{w}" in described["files"] for w in described["wheels"])


@pytest.mark.slow  # builds the pack
def test_the_licence_of_pyodide_travels_with_it(built: tuple[Path, dict[str, Any]]) -> None:
    note = (built[0] / "pyodide" / "LICENSE").read_text(encoding="utf-8")
    assert "MPL-2.0" in note and "https://github.com/pyodide/pyodide" in note


@pytest.mark.slow  # builds the pack
def test_the_wheel_holds_the_devices_modules_of_the_tree_and_their_bytecode(
    built: tuple[Path, dict[str, Any]],
) -> None:
    where, described = built
    whl = where / "wheels" / described["wheels"][-1]
    source = ROOT / "src"
    with zipfile.ZipFile(whl) as archive:
        names = set(archive.namelist())
        assert archive.read("cuarenta/game.py") == (source / "cuarenta" / "game.py").read_bytes()
        modules = wheel.device_modules()
        for name in modules:
            assert archive.read(name) == (source / name).read_bytes(), name  # the tree's current source
            assert name[:-3] + ".pyc" in names, name  # compiled by the pack's Pyodide
        assert "cuarenta/locale/es/page.json" in names and "cuarenta/players/data/winprob.json" in names
        # nothing the device never imports: the server's edge, store, cluster, the command line, the page
        python = {n for n in names if n.endswith(".py")}
        assert python == set(modules)
        for never in (
            "cuarenta/server/edge/app.py",
            "cuarenta/server/store/",
            "cuarenta/server/cluster/",
            "cuarenta/cli/",
            "cuarenta/web/",
            "cuarenta/championship/",
        ):
            assert not any(n.startswith(never) for n in names), never
        # a wheel's own metadata, with every file's hash
        record = archive.read("cuarenta-0.2.0.dist-info/RECORD").decode()
        assert "cuarenta/game.py,sha256=" in record
        # every entry at one time, sorted: the bytes depend on the files only
        assert {i.date_time for i in archive.infolist()} == {(1980, 1, 1, 0, 0, 0)}
        assert archive.namelist() == sorted(archive.namelist())
    with zipfile.ZipFile(where / "stdlib.zip") as lib:
        names = set(lib.namelist())
        assert "json/decoder.pyc" in names and "json/decoder.py" not in names  # used: compiled
        assert "smtplib.py" in names  # never imported by the game: as Pyodide ships it


@pytest.mark.slow  # builds the pack
def test_the_same_tree_gives_the_same_pack(
    tmp_path: Path, built: tuple[Path, dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two builds of one tree: one id, the same bytes (players keep the pack they stored after a rebuild)."""
    described = built[1]
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    again = pack.build_pack(into=tmp_path / "again", npm_cache=NPM_CACHE)
    assert again["id"] == described["id"]
    assert {n: f["sha256"] for n, f in again["files"].items()} == {
        n: f["sha256"] for n, f in described["files"].items()
    }


@pytest.mark.slow  # builds the pack
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
    # no half-built pack, nothing fetched (the locks of the building and of the fetch are all)
    assert sorted(p.name for p in tmp_path.iterdir()) == [".device.lock", "device", "npm"]
    assert [p.name for p in cache.iterdir()] == [f".pyodide@{real['version']}.lock"]


def test_a_package_not_installed_from_a_tree_says_so(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(pack, "__file__", str(tmp_path / "a" / "b" / "c" / "pack.py"))
    with pytest.raises(pack.PackError, match="not installed from a source tree"):
        pack.source_root()


# -- served by the app -----------------------------------------------------------------------------------
@pytest.mark.slow  # builds the pack
def test_the_app_serves_the_pack_and_says_so_in_site_json(
    tmp_path: Path, built: tuple[Path, dict[str, Any]]
) -> None:
    where, described = built
    with running(tmp_path / "data", pack_dir=where, workers=0) as client:
        site = client.get("/site.json", headers={"Accept-Encoding": "identity"}).json()
        raw = sum(f["bytes"] for f in described["files"].values())
        assert site == {"server": True, "pack": True, "pack_status": "ready", "pack_bytes": raw}
        answer = client.get("/device/pack.json")
        assert answer.status_code == 200 and answer.json() == described
        wasm = client.get("/device/pyodide/pyodide.asm.wasm", headers={"Accept-Encoding": "identity"})
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
        wheel_answer = client.get(f"/device/wheels/{described['wheels'][-1]}")
        assert wheel_answer.status_code == 200 and wheel_answer.headers["cache-control"] == "no-cache"
        assert client.get("/device/stdlib.zip").headers["cache-control"] == "no-cache"
        assert client.get("/device/pyodide/package.json").status_code == 404  # only the listed files
        assert client.get("/device/../pyproject.toml").status_code == 404
        assert (
            client.get("/device/pyodide/pyodide.asm.wasm.gz").status_code == 404
        )  # the copies are not files
        shell = client.get("/device/shell.json").json()
        assert "./" in shell["files"] and "offline.js" in shell["files"] and "sw.js" not in shell["files"]
        assert client.get("/sw.js").status_code == 200
        manifest = client.get("/manifest.webmanifest")
        assert manifest.status_code == 200 and manifest.json()["start_url"] == "."


@pytest.mark.slow  # builds the pack
def test_the_pack_is_sent_compressed_as_the_browser_accepts(
    tmp_path: Path, built: tuple[Path, dict[str, Any]]
) -> None:
    """The pack's .br and .gz copies with Content-Encoding (none made on the fly), and site.json says what
    the download weighs for this browser."""
    where, described = built
    wasm = described["files"]["pyodide/pyodide.asm.wasm"]
    with running(tmp_path / "data", pack_dir=where, workers=0) as client:
        for accept, encoding, suffix in (("gzip, deflate, br", "br", ".br"), ("gzip", "gzip", ".gz")):
            headers = {"Accept-Encoding": accept}
            with client.stream("GET", "/device/pyodide/pyodide.asm.wasm", headers=headers) as answer:
                sent = b"".join(answer.iter_raw())
                assert answer.headers["content-encoding"] == encoding
                assert "accept-encoding" in answer.headers["vary"].lower()
            assert len(sent) == wasm[encoding]
            assert sent == (where / f"pyodide/pyodide.asm.wasm{suffix}").read_bytes()  # the pack's copy
            site = client.get("/site.json", headers=headers).json()
            assert site["pack_bytes"] == sum(f.get(encoding, f["bytes"]) for f in described["files"].values())
        assert site["pack_bytes"] < 8_500_000  # gzip: what a host that sends the copies sends
        decoded = client.get("/device/pyodide/pyodide.asm.wasm", headers={"Accept-Encoding": "gzip"})
        assert hashlib.sha256(decoded.content).hexdigest() == wasm["sha256"]  # decoded: the file itself


@pytest.mark.slow  # builds the pack
def test_head_answers_as_get_on_the_pack(tmp_path: Path, built: tuple[Path, dict[str, Any]]) -> None:
    where = built[0]
    with running(tmp_path / "data", pack_dir=where, workers=0) as client:
        for path in (
            "/device/pack.json",
            "/device/pyodide/pyodide.asm.wasm",
            "/device/shell.json",
            "/site.json",
        ):
            got, head = client.get(path), client.head(path)
            assert head.status_code == got.status_code == 200, path
            assert head.headers["content-type"] == got.headers["content-type"], path
            assert head.content == b"", path
        assert client.head("/device/pyodide/package.json").status_code == 404


def test_without_a_pack_the_app_says_to_build_it(tmp_path: Path) -> None:
    with running(tmp_path / "data", pack_dir=tmp_path / "none", workers=0) as client:
        site = client.get("/site.json").json()
        assert site == {"server": True, "pack": False, "pack_status": "absent", "pack_bytes": 0}
        answer = client.get("/device/pack.json")
        assert answer.status_code == 404
        assert answer.json()["code"] == "pack_absent" and "run `cuarenta pack`" in answer.json()["detail"]
