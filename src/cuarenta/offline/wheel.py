"""The game's own wheel in the offline pack (docs/web.md "Install and offline"): the modules the device
host imports and the data they read — nothing of the server's edge, store, cluster, workers, the command
line or the page's files — written here, byte for byte the same from the same tree.

- **Which modules**: :func:`device_modules`, the closure of ``import`` statements from
  :data:`DEVICE_ROOTS` read with :mod:`ast` (an import under ``if TYPE_CHECKING:`` is not followed, nor one
  inside a package's PEP 562 ``__getattr__``, which only names something on demand); every package of a
  module comes with it. ``tests/test_device_imports.py`` plays whole mesas from the unpacked wheel alone.
- **Which data**: :data:`DEVICE_DATA` (the catalogue of texts, the computer players' tables, the puzzles).
- **Reproducible**: entries sorted, every timestamp ``SOURCE_DATE_EPOCH`` (else 1980-01-01, the oldest a
  zip holds), permissions 0644, the same compression; the ``dist-info`` (``METADATA``, ``WHEEL``,
  ``RECORD``) written here too. Only the files decide the bytes, so the pack's ``id`` (a hash of its
  files) is the same for the same tree.
- Nothing is built with pip or setuptools: no package index is needed, and a ``cuarenta`` installed from
  a wheel (not a checkout) builds the pack from its own installed files.

``compiled`` (the bytecode of each module, :mod:`cuarenta.offline.compile`) adds ``NAME.pyc`` beside each
``NAME.py``: read as it is by ``zipimport`` (unchecked-hash ``.pyc``), so the device imports with no
compiling.

>>> "cuarenta/device/host.py" in device_modules()
True
>>> never = ("cuarenta/server/edge/app", "cuarenta/server/store/", "cuarenta/cli/", "cuarenta/web/")
>>> any(m.startswith(never) for m in device_modules())
False
"""

from __future__ import annotations

import ast
import base64
import hashlib
import os
import time
import zipfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Final

import cuarenta

#: The modules the device imports by name (the worker's ``from cuarenta.device import DeviceHost``).
DEVICE_ROOTS: Final = ("cuarenta.device",)
#: The data files the device reads, as globs under the package.
DEVICE_DATA: Final = ("py.typed", "locale/*/*.json", "players/data/*.json", "analysis/data/*.json")
#: The package's own folder (the installed files: a checkout's ``src/cuarenta`` or site-packages').
PACKAGE_DIR: Final = Path(cuarenta.__file__).resolve().parent
#: The oldest time a zip entry holds (1980-01-01), the default of ``SOURCE_DATE_EPOCH``.
ZIP_EPOCH: Final = 315532800


def _module_file(package: Path, name: str) -> Path | None:
    """The file of module ``name`` (``cuarenta.x.y``) under the package folder, or ``None``."""
    parts = name.split(".")[1:]
    base = package.joinpath(*parts)
    if (base / "__init__.py").is_file():
        return base / "__init__.py"
    plain = base.with_suffix(".py")
    return plain if parts and plain.is_file() else None


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imported(tree: ast.Module, module: str, is_package: bool) -> set[str]:
    """The ``cuarenta`` modules a module's code imports, and the names it imports from them (which may
    be modules too)."""
    found: set[str] = set()

    def visit(nodes: Iterable[ast.stmt]) -> None:
        for node in nodes:
            if isinstance(node, ast.If) and _is_type_checking(node.test):
                visit(node.orelse)
                continue
            if isinstance(node, ast.FunctionDef) and node.name in ("__getattr__", "__dir__"):
                continue  # PEP 562: a name given on demand, never by an import of the module
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    parts = module.split(".")
                    keep = len(parts) - node.level + (1 if is_package else 0)
                    base = ".".join(parts[:keep] + ([node.module] if node.module else []))
                else:
                    base = node.module or ""
                found.add(base)
                found.update(f"{base}.{alias.name}" for alias in node.names)
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.stmt):
                    visit([child])
                elif isinstance(child, (ast.ExceptHandler, ast.match_case)):
                    visit(child.body)

    visit(tree.body)
    return {name for name in found if name == "cuarenta" or name.startswith("cuarenta.")}


def device_modules(package: Path = PACKAGE_DIR, roots: Iterable[str] = DEVICE_ROOTS) -> list[str]:
    """The ``.py`` files (relative to the package's parent, ``cuarenta/...``) the device may import: the
    closure of imports from ``roots``, with every package of each module, sorted."""
    files: dict[str, Path] = {}
    todo = list(roots)
    while todo:
        name = todo.pop()
        path = _module_file(package, name)
        if path is None or name in files:
            continue  # a name imported from a module, not a module itself
        files[name] = path
        parent = name.rpartition(".")[0]
        if parent:
            todo.append(parent)
        tree = ast.parse(path.read_bytes(), str(path))
        todo.extend(_imported(tree, name, path.name == "__init__.py") - set(files))
    return sorted(p.relative_to(package.parent).as_posix() for p in files.values())


def device_data(package: Path = PACKAGE_DIR) -> list[str]:
    """The data files of :data:`DEVICE_DATA` (relative to the package's parent), sorted."""
    found = {p for pattern in DEVICE_DATA for p in package.glob(pattern) if p.is_file()}
    return sorted(p.relative_to(package.parent).as_posix() for p in found)


def wheel_name(version: str = cuarenta.__version__) -> str:
    """The wheel's file name.

    >>> wheel_name("0.2.0")
    'cuarenta-0.2.0-py3-none-any.whl'
    """
    return f"cuarenta-{version}-py3-none-any.whl"


def source_date_epoch() -> int:
    """The time every entry of the wheel (and of the pack's other zips) holds: ``SOURCE_DATE_EPOCH`` when
    set (as reproducible builds do), else 1980-01-01."""
    given = os.environ.get("SOURCE_DATE_EPOCH", "")
    return max(ZIP_EPOCH, int(given)) if given.isdigit() else ZIP_EPOCH


def write_zip(path: Path, files: Mapping[str, bytes]) -> Path:
    """Write ``files`` (name → bytes; a name ending in ``/`` is a folder's entry) as a zip whose bytes
    depend only on them and :func:`source_date_epoch`: sorted, one timestamp, mode 0644, deflated at
    level 9."""
    stamp = time.gmtime(source_date_epoch())[:6]
    with zipfile.ZipFile(path, "w") as archive:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=stamp)
            info.create_system = 3  # unix, whatever the machine
            if name.endswith("/"):  # a folder's own entry (zipimport reads namespace packages by them)
                info.external_attr = (0o40755 << 16) | 0x10
                archive.writestr(info, b"")
                continue
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, files[name], compresslevel=9)
    return path


def _record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def wheel_files(
    package: Path = PACKAGE_DIR,
    version: str = cuarenta.__version__,
    compiled: Mapping[str, bytes] | None = None,
) -> dict[str, bytes]:
    """Every entry of the device's wheel (name → bytes): the modules, their ``.pyc`` when ``compiled``
    gives them (keyed by the module's ``.py`` name), the data, and the ``dist-info``."""
    files: dict[str, bytes] = {}
    for name in device_modules(package):
        files[name] = (package.parent / name).read_bytes()
        if compiled is not None and name in compiled:
            files[name[:-3] + ".pyc"] = compiled[name]
    for name in device_data(package):
        files[name] = (package.parent / name).read_bytes()
    licence = package.parent / "LICENSE"
    info = f"cuarenta-{version}.dist-info"
    files[f"{info}/METADATA"] = (
        "Metadata-Version: 2.1\nName: cuarenta\n"
        f"Version: {version}\n"
        "Summary: Cuarenta, the national card game of Ecuador: the game on the device (the engine, the "
        "computer players and the table's authority; no server)\n"
        "License-Expression: MIT\n"
    ).encode()
    files[f"{info}/WHEEL"] = (
        b"Wheel-Version: 1.0\nGenerator: cuarenta.offline.wheel\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )
    if licence.is_file():
        files[f"{info}/licenses/LICENSE"] = licence.read_bytes()
    record = [f"{name},{_record_hash(data)},{len(data)}" for name, data in sorted(files.items())]
    files[f"{info}/RECORD"] = ("\n".join([*record, f"{info}/RECORD,,"]) + "\n").encode()
    return files


def build_device_wheel(
    into: Path, package: Path = PACKAGE_DIR, compiled: Mapping[str, bytes] | None = None
) -> Path:
    """Write the device's wheel into the folder ``into``; its path."""
    return write_zip(into / wheel_name(), wheel_files(package, compiled=compiled))


__all__ = [
    "DEVICE_DATA",
    "DEVICE_ROOTS",
    "PACKAGE_DIR",
    "ZIP_EPOCH",
    "build_device_wheel",
    "device_data",
    "device_modules",
    "source_date_epoch",
    "wheel_files",
    "wheel_name",
    "write_zip",
]
