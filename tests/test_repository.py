"""The repository holds the product: no working notes and no absolute path of a development machine."""

from __future__ import annotations

import ast
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: Absolute paths that only exist on someone's machine: home folders, root's home, a workspace mount.
#: Built from its folder names, so that this file does not itself spell such a path.
_MACHINE_ROOTS = (r"home/[a-z_][\w-]*/", "root/", r"Users/\w+", "work/" + r"\w")
MACHINE_PATH = re.compile(
    r"(?<![\w.])(" + "|".join("/" + root for root in _MACHINE_ROOTS) + r"|[A-Z]:\\Users\\)"
)
#: Folders that hold working notes (ignored by .gitignore, never committed).
NOTES = (".briefs/", "notes/", "scratch/")


def tracked_files() -> list[str]:
    try:
        out = subprocess.run(
            ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True, timeout=30
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout (the check runs on clones)")
    return [line for line in out.splitlines() if line]


def test_no_working_notes_are_committed() -> None:
    files = tracked_files()
    assert files, "git lists no files"
    assert not [f for f in files if f.startswith(NOTES)]
    ignored = (ROOT / ".gitignore").read_text(encoding="utf-8").split()
    assert ".briefs/" in ignored


def test_no_committed_file_names_a_machine_path() -> None:
    found = []
    for name in tracked_files():
        path = ROOT / name
        if path.suffix in (".png", ".svg", ".ico", ".sqlite3") or not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(text.splitlines(), start=1):
            if MACHINE_PATH.search(line) and "MACHINE_PATH" not in line:
                found.append(f"{name}:{number}: {line.strip()[:100]}")
    assert not found, "\n".join(found)


def _imported_modules(tree: ast.Module) -> set[str]:
    """The top-level names of every module a file imports (``import a.b`` and ``from a.b import c``: ``a``),
    its imports inside functions included; relative imports are left out."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("folder", ["tests", "e2e"])
def test_no_test_module_is_imported_as_a_library(folder: str) -> None:
    """What tests share lives in support modules (tests/support/, e2e/harness.py, e2e/playing.py), never in
    a test module or a conftest: importing one runs its module-level code a second time under another
    name, drags its fixtures along, and ties the two files' edits together."""
    found = []
    for path in sorted((ROOT / folder).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for name in sorted(_imported_modules(tree)):
            if name == "conftest" or name.startswith("test_"):
                found.append(f"{path.relative_to(ROOT)} imports {name}")
    assert not found, "\n".join(found)
