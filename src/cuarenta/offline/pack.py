"""The offline pack: what a browser needs to run the game on the device, served under the page's base at
``device/`` (docs/web.md "Install and offline")::

    device/pack.json         {"version": 1, "id": "...", "source": "...", "pyodide": "314.0.8",
                              "stdlib": "stdlib.zip", "wheels": [...],
                              "files": {"pyodide/pyodide.asm.wasm": {"bytes": N, "sha256": "...",
                                        "gzip": N, "br": N}, ...}, "built": "ISO time"}
    device/pyodide/          pyodide.mjs, pyodide.asm.mjs, pyodide.asm.wasm, pyodide-lock.json, LICENSE
                             (from the pinned npm package)
    device/stdlib.zip        Pyodide's python_stdlib.zip, its modules the game uses compiled to bytecode
    device/wheels/           cuarenta-VERSION-py3-none-any.whl: the device's modules of this package
    device/FILE.gz, .br      the same file compressed (gzip -9, brotli 11), for the text-like files, for a
                             host to send with Content-Encoding (``cuarenta serve`` does)

``cuarenta pack`` builds it (:func:`build_pack`) into :func:`default_pack_dir`; ``cuarenta serve`` builds it
there by itself when it is missing or was built from other sources (:mod:`cuarenta.offline.keeper`) and
serves it, ``cuarenta site DIR`` copies it. ``id`` names the pack's content (a hash of every file's hash):
the page keeps the pack in a Cache Storage cache named after it, and the same tree gives the same pack,
byte for byte (:mod:`cuarenta.offline.wheel`, :mod:`cuarenta.offline.compile`). ``source`` names what it
was built from (:func:`pack_source`): a pack whose ``source`` is not this package's is stale.

>>> sorted(PYODIDE_FILES)[:2]
['pyodide-lock.json', 'pyodide.asm.mjs']
"""

from __future__ import annotations

import contextlib
import datetime as dt
import gzip
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import warnings
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from cuarenta.catalogue import LANGS
from cuarenta.offline import compile as bytecode
from cuarenta.offline import npm
from cuarenta.offline.wheel import PACKAGE_DIR, build_device_wheel, wheel_files, write_zip
from cuarenta.server.answers import texts_body

#: The format of ``pack.json``.
PACK_FORMAT: Final = 1
#: The files of the Pyodide npm package the pack is made from (its LICENSE note is written by the pack).
PYODIDE_FILES: Final = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
#: The standard library Pyodide's package ships: in the pack, as ``stdlib.zip``, partly compiled.
STDLIB_SOURCE: Final = "python_stdlib.zip"
#: The pack's standard library (``loadPyodide({stdLibURL})`` in device-worker.js).
STDLIB: Final = "stdlib.zip"
#: The pack's files a host may send compressed, and the encodings kept beside them (``NAME.gz``,
#: ``NAME.br``); zips are compressed already.
ENCODINGS: Final = {"br": ".br", "gzip": ".gz"}
_ENCODED_SUFFIXES: Final = frozenset({".wasm", ".mjs", ".js", ".json", ""})
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
    """Where fetched and built things are kept: ``CUARENTA_CACHE`` when set, else ``.cache/`` of the checkout
    when ``cuarenta`` runs from one (a folder with ``.git``), else ``$XDG_CACHE_HOME/cuarenta``
    (``~/.cache/cuarenta``)."""
    given = os.environ.get("CUARENTA_CACHE")
    if given:
        return Path(given)
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
    """Build the wheel of the tree at ``root`` into ``into`` with pip (from a copy of its sources, so no
    stale ``build/`` of the tree can slip in) and return its path.

    Deprecated: the pack's wheel is :func:`cuarenta.offline.wheel.build_device_wheel` (the device's
    modules only, reproducible, no package index needed)."""
    warnings.warn(
        "cuarenta.offline.pack.build_wheel is deprecated: the pack's wheel is "
        "cuarenta.offline.wheel.build_device_wheel",
        DeprecationWarning,
        stacklevel=2,
    )
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
    if pin["name"] == "pyodide":
        lines.append(
            f"The pack's {STDLIB} is the package's {STDLIB_SOURCE} (Python's standard library, under the "
            "Python Software Foundation License: https://docs.python.org/3/license.html), its modules the "
            "game uses compiled to bytecode by this Pyodide."
        )
    return "\n".join(lines) + "\n"


def copy_pyodide(pyodide_dir: Path, npm_cache: Path) -> Path:
    """Fetch (or reuse) the pinned Pyodide and copy the files the pack ships as they are (all of
    :data:`PYODIDE_FILES` but the standard library) and its licence into ``pyodide_dir``; return the folder
    of the npm package's files."""
    pin = npm.pin_of("pyodide")
    source = npm.ensure(pin, npm_cache)
    pyodide_dir.mkdir(parents=True)
    for name in PYODIDE_FILES:
        if name != STDLIB_SOURCE:
            shutil.copyfile(source / name, pyodide_dir / name)
    if (source / "LICENSE").is_file():
        shutil.copyfile(source / "LICENSE", pyodide_dir / "LICENSE")
    else:
        package_json = json.loads((source / "package.json").read_text(encoding="utf-8"))
        (pyodide_dir / "LICENSE").write_text(licence_note(pin, package_json), encoding="utf-8")
    return source


def pack_source(package: Path = PACKAGE_DIR) -> str:
    """What a pack is built from, as a hash: the pack's format, the pinned Pyodide, the device's files of
    ``package`` (:func:`cuarenta.offline.wheel.wheel_files`) and the compile step's scripts. A pack whose
    ``source`` differs was built from another tree (``cuarenta serve`` builds a new one)."""
    digest = hashlib.sha256(f"pack {PACK_FORMAT}\0{npm.pin_of('pyodide')['integrity']}\0".encode())
    for text in (bytecode.DRIVER, bytecode.SMOKE, bytecode.COMPILE):
        digest.update(hashlib.sha256(text.encode()).digest())
    for name, data in sorted(wheel_files(package).items()):
        digest.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    return digest.hexdigest()[:16]


def _compiled(wheel: Path, pyodide: Path, cache: Path) -> tuple[dict[str, bytes], dict[str, bytes]]:
    """:func:`cuarenta.offline.compile.compile_pack`, kept in ``cache`` by what it depends on (the source
    wheel's bytes, Pyodide's integrity, the scripts): the same tree is compiled once, even by two processes
    at once (the second waits for the first's, under a lock, then reads it)."""
    digest = hashlib.sha256(wheel.read_bytes())
    digest.update(npm.pin_of("pyodide")["integrity"].encode())
    for text in (bytecode.DRIVER, bytecode.SMOKE, bytecode.COMPILE):
        digest.update(text.encode())
    kept = cache / f"{digest.hexdigest()[:32]}.zip"
    cache.mkdir(parents=True, exist_ok=True)
    with npm.locked(kept.with_suffix(".lock")):
        return _compiled_once(kept, wheel, pyodide)


def _compiled_once(kept: Path, wheel: Path, pyodide: Path) -> tuple[dict[str, bytes], dict[str, bytes]]:
    """The compiled files kept at ``kept``, or compiled now and kept there (under the caller's lock)."""
    if kept.is_file():
        game: dict[str, bytes] = {}
        lib: dict[str, bytes] = {}
        with zipfile.ZipFile(kept) as archive:
            for name in archive.namelist():
                kind, _, path = name.partition("/")
                (game if kind == "game" else lib)[path] = archive.read(name)
        return game, lib
    game, lib = bytecode.compile_pack(pyodide, wheel, pyodide / STDLIB_SOURCE)
    files = {f"game/{k}": v for k, v in game.items()} | {f"stdlib/{k}": v for k, v in lib.items()}
    temporary = _temporary(kept)
    write_zip(temporary, files)
    temporary.replace(kept)  # whole, or not there: another process may compile the same at once
    return game, lib


#: Brotli at quality 11 with Node's zlib (the standard library has no brotli): FILE OUT pairs.
_BROTLI: Final = (
    "const z=require('zlib'),fs=require('fs');const a=process.argv.slice(1);"
    "for(let i=0;i<a.length;i+=2){const d=fs.readFileSync(a[i]);fs.writeFileSync(a[i+1],"
    "z.brotliCompressSync(d,{params:{[z.constants.BROTLI_PARAM_QUALITY]:11,"
    "[z.constants.BROTLI_PARAM_LGWIN]:24,[z.constants.BROTLI_PARAM_SIZE_HINT]:d.length}}))}"
)


def _encodable(path: Path) -> bool:
    return path.suffix in _ENCODED_SUFFIXES and path.name != "pack.json" and path.stat().st_size >= 1024


def _temporary(path: Path) -> Path:
    """A new name beside ``path`` for this process (two processes may fill one cache at once)."""
    return path.with_name(f"{path.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")


def _write_whole(path: Path, data: bytes) -> None:
    temporary = _temporary(path)
    temporary.write_bytes(data)
    temporary.replace(path)


def encode(pack_dir: Path, cache: Path) -> None:
    """Write ``NAME.gz`` (gzip -9, no name, no time) and ``NAME.br`` (brotli 11, with Node.js) beside each
    file of ``pack_dir`` a host may send compressed; each kept in ``cache`` by its input's hash (Pyodide's
    files are pinned: they are compressed once)."""
    cache.mkdir(parents=True, exist_ok=True)
    files = [p for p in sorted(pack_dir.rglob("*")) if p.is_file() and _encodable(p)]
    brotli: list[tuple[Path, Path]] = []
    for path in files:
        digest = sha256_of(path)
        gz, br = cache / f"{digest}.gz", cache / f"{digest}.br"
        if not gz.is_file():
            _write_whole(gz, gzip.compress(path.read_bytes(), compresslevel=9, mtime=0))
        if not br.is_file():
            brotli.append((path, br))
    node = shutil.which("node")
    if brotli and node is not None:
        pairs = [(path, br, _temporary(br)) for path, br in brotli]
        names = [str(x) for path, _, temporary in pairs for x in (path, temporary)]
        done = subprocess.run([node, "-e", _BROTLI, *names], capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise PackError(f"brotli (Node.js's zlib) failed: {done.stderr.strip()[-500:]}")
        for _, br, temporary in pairs:
            temporary.replace(br)
    for path in files:
        digest = sha256_of(path)
        for suffix in ENCODINGS.values():
            if (cache / f"{digest}{suffix}").is_file():
                shutil.copyfile(cache / f"{digest}{suffix}", path.with_name(path.name + suffix))


def describe(
    pack_dir: Path, pyodide: str, wheels: list[str], source: str = "", stdlib: str | None = None
) -> dict[str, Any]:
    """``pack.json`` of the files in ``pack_dir`` (everything but ``pack.json`` itself and the compressed
    copies, whose sizes are given with their file: ``"gzip"``, ``"br"``). ``id`` is a hash of the files'
    names, sizes and hashes only."""
    encoded = tuple(ENCODINGS.values())
    files: dict[str, dict[str, Any]] = {}
    for path in sorted(p for p in pack_dir.rglob("*") if p.is_file() and p.name != "pack.json"):
        if path.suffix in encoded and path.with_suffix("").is_file():
            continue
        files[path.relative_to(pack_dir).as_posix()] = {
            "bytes": path.stat().st_size,
            "sha256": sha256_of(path),
        }
    content = hashlib.sha256(json.dumps(files, sort_keys=True).encode()).hexdigest()[:16]
    for name, entry in files.items():
        for encoding, suffix in ENCODINGS.items():
            copy = pack_dir / (name + suffix)
            if copy.is_file():
                entry[encoding] = copy.stat().st_size
    described: dict[str, Any] = {"version": PACK_FORMAT, "id": content, "source": source, "pyodide": pyodide}
    if stdlib is not None:
        described["stdlib"] = stdlib
    described |= {
        "wheels": wheels,
        "files": files,
        "built": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
    }
    return described


def _locked(into: Path) -> contextlib.AbstractContextManager[None]:
    """Hold a lock beside ``into`` while a pack is built there: two processes (two ``cuarenta serve``, or
    one and ``cuarenta pack``) never build one pack at once; the second waits, then builds its own."""
    return npm.locked(into.parent / f".{into.name}.lock")


def build_pack(
    into: Path | None = None,
    npm_cache: Path | None = None,
    root: Path | None = None,
    *,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Build the pack into ``into`` (default :func:`default_pack_dir`), replacing the one there only once
    the new one is whole; return its ``pack.json``. The wheel holds the device's modules of this package
    (of ``root``'s ``src/cuarenta`` when given); Pyodide comes from ``npm_cache`` (fetched with npm if
    missing); the compiling (:mod:`cuarenta.offline.compile`) needs Node.js. ``progress`` is told each
    step, in a sentence."""
    into = default_pack_dir() if into is None else into
    package = PACKAGE_DIR if root is None else root / "src" / "cuarenta"
    npm_cache = npm_cache_dir() if npm_cache is None else npm_cache
    say = progress or (lambda _: None)
    cache = npm_cache.parent
    into.parent.mkdir(parents=True, exist_ok=True)
    with _locked(into):
        prefix = f".{into.name}.building-"
        for stale in into.parent.glob(prefix + "*"):  # a build of this pack cut short (its process ended)
            shutil.rmtree(stale, ignore_errors=True)
        staging = Path(tempfile.mkdtemp(prefix=prefix, dir=into.parent))
        try:
            pin = npm.pin_of("pyodide")
            say(f"fetching Pyodide {pin['version']} with npm (kept in {npm_cache} for the next time)")
            pyodide = copy_pyodide(staging / "pyodide", npm_cache)
            wheels_dir = staging / "wheels"
            wheels_dir.mkdir()
            deps = download_wheels(DEPENDENCY_WHEELS, wheels_dir)
            say("compiling the game for the device with Pyodide under Node.js (and starting it there once)")
            with tempfile.TemporaryDirectory() as tmp:
                plain = build_device_wheel(Path(tmp), package)
                game, lib = _compiled(plain, pyodide, cache / "device-compiled")
            own = build_device_wheel(wheels_dir, package, compiled=game)
            write_zip(staging / STDLIB, bytecode.compiled_stdlib(pyodide / STDLIB_SOURCE, lib))
            say("compressing its files for the host (gzip, brotli)")
            encode(staging, cache / "device-encoded")
            names = [w.name for w in deps] + [own.name]
            description = describe(staging, str(pin["version"]), names, pack_source(package), STDLIB)
            text = json.dumps(description, indent=1) + "\n"
            (staging / "pack.json").write_text(text, encoding="utf-8")
            old = into.with_name(into.name + ".old")
            shutil.rmtree(old, ignore_errors=True)
            if into.exists():
                into.rename(old)
            staging.rename(into)
            shutil.rmtree(old, ignore_errors=True)
        except bytecode.CompileError as exc:
            shutil.rmtree(staging, ignore_errors=True)
            raise PackError(str(exc)) from None
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
    "ENCODINGS",
    "PACK_FORMAT",
    "PYODIDE_FILES",
    "STDLIB",
    "STDLIB_SOURCE",
    "TEXT_FILES",
    "PackError",
    "build_pack",
    "build_wheel",
    "default_cache_dir",
    "default_pack_dir",
    "describe",
    "encode",
    "licence_note",
    "npm_cache_dir",
    "pack_source",
    "read_pack",
    "shell_description",
    "shell_files",
    "source_root",
    "text_file",
]
