"""Fetch a pinned npm package: ``npm pack NAME@VERSION`` with the ordinary npm client, check the tarball's
sha512 integrity against the pin, keep only the pin's listed files in a cache folder.

A pin is a dict ``{"name", "version", "integrity": "sha512-...", "files": [...]}`` (the product's pins
are in this package's ``pins.json``, the tests' in ``scripts/browser-packages.json``). A package is kept
in ``CACHE/NAME@VERSION/`` with a ``.integrity`` stamp; one already there with the same integrity is not
fetched again. A tarball whose integrity differs from the pin is refused and nothing of it is kept.

>>> pin = {"name": "pyodide", "version": "314.0.8", "integrity": "sha512-x", "files": ["pyodide.mjs"]}
>>> folder(pin, Path("cache")).as_posix()
'cache/pyodide@314.0.8'
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import shutil
import subprocess
import tarfile
import tempfile
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any, Final

#: The stamp file in a package's folder: the integrity of the tarball its files came from.
STAMP: Final = ".integrity"

Pin = dict[str, Any]


class PackageError(Exception):
    """A pinned package could not be fetched or is not the pinned one (the message says which and why)."""


def read_pins(text: str, where: str = "pins") -> list[Pin]:
    """The pins of a JSON text ``{"packages": [...]}``; each must name a version, a sha512 integrity
    and its files.

    >>> pin = '{"name": "a", "version": "1.0.0", "integrity": "sha512-x", "files": ["a.js"]}'
    >>> read_pins('{"packages": [' + pin + ']}')[0]["name"]
    'a'
    """
    packages: list[Pin] = json.loads(text)["packages"]
    for p in packages:
        if not str(p.get("integrity", "")).startswith("sha512-"):
            raise ValueError(f"{where}: {p.get('name')}: the pin needs a sha512 integrity")
        if not p.get("version") or not p.get("files"):
            raise ValueError(f"{where}: {p.get('name')}: the pin needs a version and its files")
    return packages


def product_pins() -> list[Pin]:
    """The packages the product ships (this package's ``pins.json``: Pyodide)."""
    text = resources.files("cuarenta.offline").joinpath("pins.json").read_text(encoding="utf-8")
    return read_pins(text, "cuarenta/offline/pins.json")


def pin_of(name: str, pins: list[Pin] | None = None) -> Pin:
    """The pin of the package ``name`` (among the product's pins by default).

    >>> pin_of("pyodide")["version"]
    '314.0.8'
    """
    for p in product_pins() if pins is None else pins:
        if p["name"] == name:
            return p
    raise KeyError(f"{name} is not pinned")


def folder(pin: Pin, cache: Path) -> Path:
    """Where the files of ``pin`` are kept under ``cache``."""
    return cache / f"{pin['name']}@{pin['version']}"


def integrity_of(path: Path) -> str:
    """The npm integrity string (``sha512-`` and base64) of a file."""
    digest = hashlib.sha512(path.read_bytes()).digest()
    return "sha512-" + base64.b64encode(digest).decode("ascii")


def present(pin: Pin, cache: Path) -> bool:
    """Whether every listed file of ``pin`` is in the cache, from a tarball of the pinned integrity."""
    where = folder(pin, cache)
    stamp = where / STAMP
    return (
        stamp.is_file()
        and stamp.read_text(encoding="utf-8").strip() == pin["integrity"]
        and all((where / str(f)).is_file() for f in pin["files"])
    )


def fetch(pin: Pin, cache: Path) -> Path:
    """Fetch one package with ``npm pack``, check its integrity, keep its listed files; return the folder.

    Raises :class:`PackageError` (and keeps nothing) when npm is missing or fails, the integrity is not the
    pinned one, or a listed file is not in the tarball."""
    spec = f"{pin['name']}@{pin['version']}"
    npm = shutil.which("npm")
    if npm is None:
        raise PackageError(f"npm is needed to fetch {spec} (install Node.js's npm, e.g. apt-get install npm)")
    where = folder(pin, cache)
    with tempfile.TemporaryDirectory() as tmp:
        try:
            out = subprocess.run(
                [npm, "pack", spec, "--json", "--ignore-scripts", "--pack-destination", tmp],
                check=True,
                capture_output=True,
                text=True,
                cwd=tmp,
            )
        except subprocess.CalledProcessError as exc:
            raise PackageError(f"npm pack {spec} failed: {exc.stderr.strip()[-500:]}") from exc
        listed = json.loads(out.stdout)
        tarball = Path(tmp) / listed[0]["filename"]
        got = integrity_of(tarball)
        if got != pin["integrity"]:
            raise PackageError(f"{spec}: integrity {got} is not the pinned {pin['integrity']}")
        staging = Path(tmp) / "kept"
        staging.mkdir()
        with tarfile.open(tarball, "r:gz") as archive:
            for file in pin["files"]:
                try:
                    member = archive.extractfile(f"package/{file}")
                except KeyError:
                    member = None
                if member is None:
                    raise PackageError(f"{spec} has no file {file}")
                (staging / str(file)).write_bytes(member.read())
        (staging / STAMP).write_text(str(pin["integrity"]) + "\n", encoding="utf-8")
        shutil.rmtree(where, ignore_errors=True)
        where.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(staging), where)
    return where


def ensure(pin: Pin, cache: Path) -> Path:
    """The folder of ``pin``'s files, fetched first if they are not in the cache (by one process at a
    time: another one waits, then finds them there)."""
    if present(pin, cache):
        return folder(pin, cache)
    cache.mkdir(parents=True, exist_ok=True)
    with locked(cache / f".{pin['name']}@{pin['version']}.lock"):
        if not present(pin, cache):
            fetch(pin, cache)
    return folder(pin, cache)


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """An exclusive lock on the file ``path`` for the length of a ``with`` block (POSIX; none elsewhere)."""
    try:
        import fcntl
    except ImportError:  # not on POSIX: no lock
        yield
        return
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


__all__ = [
    "STAMP",
    "PackageError",
    "Pin",
    "ensure",
    "fetch",
    "folder",
    "integrity_of",
    "locked",
    "pin_of",
    "present",
    "product_pins",
    "read_pins",
]
