#!/usr/bin/env python3
"""Fetch the browser-side packages the tests load into the page (axe-core).

Each package of scripts/browser-packages.json is pinned: an exact version and the sha512 integrity of
its tarball as the npm registry lists it. The fetcher is the product's own (:mod:`cuarenta.offline.npm`,
which also fetches Pyodide for the offline pack): ``npm pack NAME@VERSION``, the integrity checked, only
the listed files kept, in ``.cache/browser-packages/NAME@VERSION/`` (gitignored). A package already there
with the same integrity is not fetched again. A tarball whose integrity differs is refused: nothing is kept.

    python3 scripts/browser_packages.py           # fetch what is missing
    python3 scripts/browser_packages.py --check   # exit 1 if something is missing, fetch nothing

The tests find a package's files with :func:`package_file`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cuarenta.offline import npm

ROOT = Path(__file__).resolve().parent.parent
PINNED = ROOT / "scripts" / "browser-packages.json"
CACHE = ROOT / ".cache" / "browser-packages"
STAMP = npm.STAMP


def pinned() -> list[dict[str, object]]:
    """The pinned packages, as scripts/browser-packages.json lists them."""
    return npm.read_pins(PINNED.read_text(encoding="utf-8"), "scripts/browser-packages.json")


def folder(package: dict[str, object]) -> Path:
    return npm.folder(package, CACHE)


def package_file(name: str, file: str) -> Path:
    """The path of `file` of the pinned package `name` in the cache (it may not exist yet)."""
    for p in pinned():
        if p["name"] == name:
            return folder(p) / file
    raise KeyError(f"{name} is not pinned in scripts/browser-packages.json")


def present(package: dict[str, object]) -> bool:
    return npm.present(package, CACHE)


def fetch(package: dict[str, object]) -> None:
    """Fetch one package with npm pack, check its integrity, keep its listed files."""
    try:
        npm.fetch(package, CACHE)
    except npm.PackageError as exc:
        raise SystemExit(f"browser_packages: {exc}") from exc


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
