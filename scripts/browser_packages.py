#!/usr/bin/env python3
"""Fetch the browser-side packages the tests load into the page (axe-core; later Pyodide).

Each package of scripts/browser-packages.json is pinned: an exact version and the sha512 integrity of
its tarball as the npm registry lists it. This script fetches the tarball with the ordinary npm client
(``npm pack NAME@VERSION``), checks its integrity, and keeps only the listed files, in
``.cache/browser-packages/NAME@VERSION/`` (gitignored). A package already there with the same integrity
is not fetched again. A tarball whose integrity differs is refused: nothing is kept.

    python3 scripts/browser_packages.py           # fetch what is missing
    python3 scripts/browser_packages.py --check   # exit 1 if something is missing, fetch nothing

The tests find a package's files with :func:`package_file`.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PINNED = ROOT / "scripts" / "browser-packages.json"
CACHE = ROOT / ".cache" / "browser-packages"
STAMP = ".integrity"


def pinned() -> list[dict[str, object]]:
    """The pinned packages, as scripts/browser-packages.json lists them."""
    data = json.loads(PINNED.read_text(encoding="utf-8"))
    packages: list[dict[str, object]] = data["packages"]
    for p in packages:
        if not str(p.get("integrity", "")).startswith("sha512-"):
            raise ValueError(f"{p.get('name')}: the pin needs a sha512 integrity")
    return packages


def folder(package: dict[str, object]) -> Path:
    return CACHE / f"{package['name']}@{package['version']}"


def package_file(name: str, file: str) -> Path:
    """The path of `file` of the pinned package `name` in the cache (it may not exist yet)."""
    for p in pinned():
        if p["name"] == name:
            return folder(p) / file
    raise KeyError(f"{name} is not pinned in scripts/browser-packages.json")


def integrity_of(path: Path) -> str:
    digest = hashlib.sha512(path.read_bytes()).digest()
    return "sha512-" + base64.b64encode(digest).decode("ascii")


def present(package: dict[str, object]) -> bool:
    where = folder(package)
    stamp = where / STAMP
    files = [str(f) for f in package["files"]]  # type: ignore[attr-defined]
    return (
        stamp.is_file()
        and stamp.read_text(encoding="utf-8").strip() == package["integrity"]
        and all((where / f).is_file() for f in files)
    )


def fetch(package: dict[str, object]) -> None:
    """Fetch one package with npm pack, check its integrity, keep its listed files."""
    spec = f"{package['name']}@{package['version']}"
    npm = shutil.which("npm")
    if npm is None:
        raise SystemExit(f"browser_packages: npm is needed to fetch {spec} (apt-get install npm)")
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(
            [npm, "pack", spec, "--json", "--ignore-scripts", "--pack-destination", tmp],
            check=True,
            capture_output=True,
            text=True,
            cwd=tmp,
        )
        listed = json.loads(out.stdout)
        tarball = Path(tmp) / listed[0]["filename"]
        got = integrity_of(tarball)
        if got != package["integrity"]:
            pin = package["integrity"]
            raise SystemExit(f"browser_packages: {spec}: integrity {got} is not the pinned {pin}")
        where = folder(package)
        shutil.rmtree(where, ignore_errors=True)
        where.mkdir(parents=True)
        with tarfile.open(tarball, "r:gz") as archive:
            for file in package["files"]:  # type: ignore[attr-defined]
                member = archive.extractfile(f"package/{file}")
                if member is None:
                    raise SystemExit(f"browser_packages: {spec} has no file {file}")
                (where / str(file)).write_bytes(member.read())
        (where / STAMP).write_text(str(package["integrity"]) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--check", action="store_true", help="only say whether every package is there")
    args = parser.parse_args(argv)
    missing = [p for p in pinned() if not present(p)]
    if args.check:
        for p in missing:
            print(f"missing: {p['name']}@{p['version']}", file=sys.stderr)
        return 1 if missing else 0
    for p in missing:
        print(f"browser_packages: fetching {p['name']}@{p['version']}")
        fetch(p)
    return 0


if __name__ == "__main__":
    sys.exit(main())
