"""scripts/browser_packages.py (on cuarenta.offline.npm): the browser-side packages (axe-core) are pinned,
fetched with npm pack, checked against their sha512 integrity, and kept in a gitignored cache; a tarball
that is not the pinned one is refused and nothing of it is kept. (npm is replaced here by a stand-in that
hands over a tarball made by the test: the suite fetches nothing.)"""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import io
import json
import re
import subprocess
import sys
import tarfile
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "browser_packages.py"


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("cuarenta_browser_packages", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


bp = load()


def test_every_package_is_pinned_to_an_exact_version_and_its_integrity() -> None:
    packages = bp.pinned()
    assert any(p["name"] == "axe-core" for p in packages)
    for p in packages:
        assert re.fullmatch(r"\d+\.\d+\.\d+", str(p["version"])), p
        integrity = str(p["integrity"])
        assert integrity.startswith("sha512-")
        assert len(base64.b64decode(integrity.removeprefix("sha512-"), validate=True)) == 64
        assert p["files"], p


def test_the_cache_is_gitignored() -> None:
    ignored = subprocess.run(
        ["git", "check-ignore", "-q", ".cache/browser-packages/axe-core@1.0.0/axe.min.js"], cwd=ROOT
    )
    assert ignored.returncode == 0


def tarball(files: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as archive:
        for name, data in files.items():
            info = tarfile.TarInfo(f"package/{name}")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return out.getvalue()


def fake_npm(tmp_path: Path, tgz: bytes) -> Path:
    """A stand-in for npm: `npm pack SPEC --json ... --pack-destination DIR` writes the tarball in DIR."""
    source = tmp_path / "made.tgz"
    source.write_bytes(tgz)
    npm = tmp_path / "npm"
    npm.write_text(
        f"#!{sys.executable}\n"
        "import json, shutil, sys\n"
        "args = sys.argv[1:]\n"
        "assert args[0] == 'pack' and '--ignore-scripts' in args\n"
        "dest = args[args.index('--pack-destination') + 1]\n"
        f"shutil.copy({str(source)!r}, dest + '/pkg-1.2.3.tgz')\n"
        "print(json.dumps([{'filename': 'pkg-1.2.3.tgz'}]))\n",
        encoding="utf-8",
    )
    npm.chmod(0o755)
    return npm


def integrity(data: bytes) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    where = tmp_path / "cache"
    monkeypatch.setattr(bp, "CACHE", where)
    return where


def test_a_fetched_package_is_checked_and_only_its_listed_files_kept(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tgz = tarball({"axe.min.js": b"window.axe = {};", "LICENSE": b"MPL", "README.md": b"not kept"})
    monkeypatch.setattr(bp.npm.shutil, "which", lambda name: str(fake_npm(tmp_path, tgz)))
    package = {"name": "pkg", "version": "1.2.3", "integrity": integrity(tgz)}
    package["files"] = ["axe.min.js", "LICENSE"]
    assert not bp.present(package)
    bp.fetch(package)
    assert bp.present(package)
    kept = cache / "pkg@1.2.3"
    assert (kept / "axe.min.js").read_bytes() == b"window.axe = {};"
    assert sorted(p.name for p in kept.iterdir()) == [".integrity", "LICENSE", "axe.min.js"]
    # another pin of the same version (a changed integrity) is not taken for the copy there
    assert not bp.present({**package, "integrity": integrity(b"other")})


def test_a_tarball_that_is_not_the_pinned_one_is_refused_and_nothing_kept(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tgz = tarball({"axe.min.js": b"window.axe = 'tampered';"})
    monkeypatch.setattr(bp.npm.shutil, "which", lambda name: str(fake_npm(tmp_path, tgz)))
    package = {"name": "pkg", "version": "1.2.3", "integrity": integrity(b"the real one")}
    package["files"] = ["axe.min.js"]
    with pytest.raises(SystemExit, match="is not the pinned"):
        bp.fetch(package)
    assert not (cache / "pkg@1.2.3").exists()
    assert not bp.present(package)


def test_check_says_what_is_missing(cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert bp.main(["--check"]) == 1
    assert "missing: axe-core@" in capsys.readouterr().err
    pinned = json.loads(bp.PINNED.read_text(encoding="utf-8"))["packages"]
    assert {p["name"] for p in pinned} >= {"axe-core"}
