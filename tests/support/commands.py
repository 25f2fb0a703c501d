"""The ``cuarenta`` command as a user runs it: a real subprocess of this interpreter.

>>> run_cli("puzzle", "--lang", "fr").returncode
2
"""

from __future__ import annotations

import subprocess
import sys


def run_cli(*args: str, stdin: str = "", timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """Run ``python -m cuarenta ARGS`` with ``stdin`` typed in; its exit code and its output as text."""
    return subprocess.run(
        [sys.executable, "-m", "cuarenta", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


__all__ = ["run_cli"]
