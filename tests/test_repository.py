"""The repository holds the product: no working notes and no absolute path of a development machine."""

from __future__ import annotations

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
