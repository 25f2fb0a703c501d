"""The offline pack: what a browser needs to run the game on the device, served under the page's base at
``device/`` (docs/web.md "Install and offline")::

    device/pack.json         {"version": 1, "id": "...", "pyodide": "314.0.8", "wheels": [...],
                              "files": {"pyodide/pyodide.mjs": {"bytes": N, "sha256": "..."}, ...},
                              "built": "ISO time"}
    device/pyodide/          pyodide.mjs, pyodide.asm.mjs, pyodide.asm.wasm, python_stdlib.zip,
                             pyodide-lock.json, LICENSE (from the pinned npm package)
    device/wheels/           cuarenta-VERSION-py3-none-any.whl, built from this source tree

``cuarenta pack`` builds it (:func:`build_pack`) into :func:`default_pack_dir`; ``cuarenta serve`` serves
it, ``cuarenta site DIR`` copies it. ``id`` names the pack's content (a hash of every file's hash): the
page keeps the pack in a Cache Storage cache named after it.

>>> sorted(PYODIDE_FILES)[:2]
['pyodide-lock.json', 'pyodide.asm.mjs']
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Final

from cuarenta.catalogue import LANGS
from cuarenta.offline import npm
from cuarenta.server.answers import texts_body

#: The format of ``pack.json``.
PACK_FORMAT: Final = 1
#: The files of the Pyodide npm package the pack holds (its LICENSE note is written by the pack).
PYODIDE_FILES: Final = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
#: Pure-Python wheels the game needs under Pyodide besides its own, as pip requirements, downloaded at
#: pack time (``pip download --no-deps --only-binary :all:``) and loaded before the game's wheel.
DEPENDENCY_WHEELS: Final[tuple[str, ...]] = ()
#: Where the source tree's files are that a wheel is built from.
_TREE_FILES: Final = ("pyproject.toml", "README.md", "LICENSE", "src")


class PackError(Exception):
    """The pack could not be built (the message says why and what to do)."""


def source_root() -> Path:
    """The source tree this ``cuarenta`` is installed from (the folder with ``pyproject.toml`` above
    ``src/cuarenta``); :class:`PackError` if it is installed from a wheel.

    >>> (source_root() / "pyproject.toml").is_file()
    True
    """
    here = Path(__file__).resolve().parents[3]
    if (here / "pyproject.toml").is_file() and (here / "src" / "cuarenta").is_dir():
        return here
    raise PackError(
        "cuarenta is not installed from a source tree (no pyproject.toml above src/cuarenta): the pack "
        "holds a wheel built from the tree; run `cuarenta pack` from a checkout (pip install -e .)"
    )


def default_cache_dir() -> Path:
    """Where fetched and built things are kept: ``.cache/`` of the checkout when ``cuarenta`` runs from one
    (a folder with ``.git``), else ``$XDG_CACHE_HOME/cuarenta`` (``~/.cache/cuarenta``)."""
    try:
        root = source_root()
    except PackError:
        root = None
    if root is not None and (root / ".git").exists():
        return root / ".cache"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "cuarenta"


def default_pack_dir() -> Path:
    """Where ``cuarenta pack`` builds the pack and ``cuarenta serve`` looks for it: ``device-pack`` in
    :func:`default_cache_dir` (``CUARENTA_PACK`` overrides it)."""
    given = os.environ.get("CUARENTA_PACK")
    return Path(given) if given else default_cache_dir() / "device-pack"


def npm_cache_dir() -> Path:
    """Where the pinned npm packages are kept (shared with scripts/browser_packages.py in a checkout)."""
    return default_cache_dir() / "browser-packages"


def sha256_of(path: Path) -> str:
    """The hex SHA-256 of a file."""
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def build_wheel(root: Path, into: Path) -> Path:
    """Build the wheel of the tree at ``root`` into ``into`` (from a copy of its sources, so no stale
    ``build/`` of the tree can slip in) and return its path."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "tree"
        copy.mkdir()
        for name in _TREE_FILES:
            source = root / name
            if source.is_dir():
                shutil.copytree(
                    source, copy / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "*.pyc")
                )
            elif source.is_file():
                shutil.copy2(source, copy / name)
        # pip's own build isolation: the build-system's requirements (setuptools>=77) from the index, as
        # for `pip install`. The installed setuptools may be older: a new venv of Python 3.11 has 65,
        # which refused pyproject.toml's licence (seen from a clean clone with the README's commands)
        command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(into)]
        done = subprocess.run([*command, str(copy)], capture_output=True, text=True)
        if done.returncode != 0:
            raise PackError(f"building the wheel of {root.name} failed:\n{done.stderr.strip()[-2000:]}")
    wheels = sorted(into.glob("cuarenta-*.whl"))
    if len(wheels) != 1:
        raise PackError(f"expected one cuarenta wheel, pip wrote {[w.name for w in wheels]}")
    return wheels[0]


def download_wheels(requirements: tuple[str, ...], into: Path) -> list[Path]:
    """Download pure-Python wheels (no dependencies, no source builds) into ``into``."""
    if not requirements:
        return []
    before = set(into.glob("*.whl"))
    command = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:", "-q"]
    done = subprocess.run([*command, "-d", str(into), *requirements], capture_output=True, text=True)
    if done.returncode != 0:
        raise PackError(f"pip download {' '.join(requirements)} failed:\n{done.stderr.strip()[-2000:]}")
    got = sorted(set(into.glob("*.whl")) - before)
    impure = [w.name for w in got if not w.name.endswith("-none-any.whl")]
    if impure:
        raise PackError(f"not pure-Python wheels (Pyodide cannot load them): {impure}")
    return got


def licence_note(pin: npm.Pin, package_json: dict[str, Any]) -> str:
    """The pack's licence note of an npm package whose tarball holds no LICENSE file.

    >>> print(licence_note({"name": "p", "version": "1.0.0", "license_url": "https://x/LICENSE"},
    ...                    {"license": "MPL-2.0"}).splitlines()[0])
    p 1.0.0 is licensed under MPL-2.0 (the "license" field of its package.json).
    """
    licence = package_json.get("license") or pin.get("license") or "(unknown)"
    lines = [
        f"{pin['name']} {pin['version']} is licensed under {licence} "
        '(the "license" field of its package.json).',
        f"Its npm package holds no licence text: the full text is at {pin.get('license_url', '')}",
    ]
    if licence == "MPL-2.0":
        lines.append("The Mozilla Public License 2.0: https://mozilla.org/MPL/2.0/")
    lines.append(f"Source: {pin.get('homepage', '')} (npm: {pin['name']}@{pin['version']}).")
    return "\n".join(lines) + "\n"


def copy_pyodide(pyodide_dir: Path, npm_cache: Path) -> str:
    """Fetch (or reuse) the pinned Pyodide and copy its files and licence into ``pyodide_dir``; return
    its version."""
    pin = npm.pin_of("pyodide")
    source = npm.ensure(pin, npm_cache)
    pyodide_dir.mkdir(parents=True)
    for name in PYODIDE_FILES:
        shutil.copy2(source / name, pyodide_dir / name)
    if (source / "LICENSE").is_file():
        shutil.copy2(source / "LICENSE", pyodide_dir / "LICENSE")
    else:
        package_json = json.loads((source / "package.json").read_text(encoding="utf-8"))
        (pyodide_dir / "LICENSE").write_text(licence_note(pin, package_json), encoding="utf-8")
    return str(pin["version"])


def describe(pack_dir: Path, pyodide: str, wheels: list[str]) -> dict[str, Any]:
    """``pack.json`` of the files in ``pack_dir`` (everything but ``pack.json`` itself)."""
    files = {}
    for path in sorted(p for p in pack_dir.rglob("*") if p.is_file() and p.name != "pack.json"):
        files[path.relative_to(pack_dir).as_posix()] = {
            "bytes": path.stat().st_size,
            "sha256": sha256_of(path),
        }
    content = hashlib.sha256(json.dumps(files, sort_keys=True).encode()).hexdigest()[:16]
    return {
        "version": PACK_FORMAT,
        "id": content,
        "pyodide": pyodide,
        "wheels": wheels,
        "files": files,
        "built": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
    }


def build_pack(
    into: Path | None = None, npm_cache: Path | None = None, root: Path | None = None
) -> dict[str, Any]:
    """Build the pack into ``into`` (default :func:`default_pack_dir`), replacing the one there only once
    the new one is whole; return its ``pack.json``. The wheel is built from ``root`` (default
    :func:`source_root`); Pyodide comes from ``npm_cache`` (fetched with npm if missing)."""
    into = default_pack_dir() if into is None else into
    root = source_root() if root is None else root
    npm_cache = npm_cache_dir() if npm_cache is None else npm_cache
    into.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".pack-", dir=into.parent))
    try:
        pyodide = copy_pyodide(staging / "pyodide", npm_cache)
        wheels_dir = staging / "wheels"
        wheels_dir.mkdir()
        deps = download_wheels(DEPENDENCY_WHEELS, wheels_dir)
        own = build_wheel(root, wheels_dir)
        description = describe(staging, pyodide, [w.name for w in deps] + [own.name])
        text = json.dumps(description, indent=1) + "\n"
        (staging / "pack.json").write_text(text, encoding="utf-8")
        old = into.with_name(into.name + ".old")
        shutil.rmtree(old, ignore_errors=True)
        if into.exists():
            into.rename(old)
        staging.rename(into)
        shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return description


def read_pack(pack_dir: Path) -> dict[str, Any] | None:
    """The ``pack.json`` of the pack in ``pack_dir``, or ``None`` if there is none."""
    try:
        data: dict[str, Any] = json.loads((pack_dir / "pack.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data


#: The page's files that are not part of the shell the service worker precaches.
_NOT_SHELL: Final = frozenset({"sw.js", "__init__.py"})


def shell_files(static: Path) -> list[str]:
    """The page shell the service worker precaches on install, relative to the page's base: ``./``
    (the page), every file of the page's directory but the service worker, and ``site.json``.

    >>> files = shell_files(Path(__file__).resolve().parents[1] / "web" / "static")
    >>> "./" in files and "app.js" in files and "sw.js" not in files
    True
    """
    names = sorted(
        p.relative_to(static).as_posix()
        for p in static.rglob("*")
        if p.is_file() and p.name not in _NOT_SHELL and "__pycache__" not in p.parts
    )
    return ["./", *names, "site.json", *TEXT_FILES]


#: The page's words (``GET api/texts/{lang}``), part of the shell: the page needs them before the game on
#: the device has started (its boot line, its refusals), and offline. A static site holds them as files.
TEXT_FILES: Final = tuple(f"api/texts/{lang}" for lang in LANGS)


def text_file(name: str) -> bytes:
    """The body of one of :data:`TEXT_FILES`, exactly as the server answers it (one source).

    >>> json.loads(text_file("api/texts/en"))["lang"]
    'en'
    """
    return texts_body(name.rsplit("/", 1)[1])[0]


def shell_description(static: Path) -> dict[str, Any]:
    """``device/shell.json``: the :func:`shell_files` and an ``id`` of their content (the service worker
    names its shell cache after it).

    >>> sorted(shell_description(Path(__file__).resolve().parents[1] / "web" / "static"))
    ['files', 'id']
    """
    files = shell_files(static)
    digest = hashlib.sha256()
    for name in files:
        path = static / name
        digest.update(name.encode() + b"\0")
        if name in TEXT_FILES:
            digest.update(hashlib.sha256(text_file(name)).hexdigest().encode())
        elif path.is_file():
            digest.update(sha256_of(path).encode())
    return {"id": digest.hexdigest()[:16], "files": files}


__all__ = [
    "DEPENDENCY_WHEELS",
    "PACK_FORMAT",
    "PYODIDE_FILES",
    "TEXT_FILES",
    "PackError",
    "build_pack",
    "build_wheel",
    "default_cache_dir",
    "default_pack_dir",
    "describe",
    "licence_note",
    "npm_cache_dir",
    "read_pack",
    "shell_description",
    "shell_files",
    "source_root",
    "text_file",
]
