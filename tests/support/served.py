"""A real ``cuarenta serve`` for a test: a subprocess on a loopback port with its output in a log file,
ready once its health endpoint answers, stopped at the end (terminated, killed if it lingers).

    with serve_process(tmp_path / "serve.log", "--data", str(tmp_path / "data")) as served:
        httpx.get(served.base + "/api/health")
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from support.ports import free_port


def program() -> str:
    """The installed ``cuarenta`` script, next to the running Python (the project's .venv)."""
    beside = Path(sys.executable).parent / "cuarenta"
    if beside.exists():
        return str(beside)
    found = shutil.which("cuarenta")
    if found is None:  # pragma: no cover - the package is installed in the venv
        pytest.skip("the cuarenta script is not installed")
    return found


@dataclass
class Served:
    """A running ``cuarenta serve``: its address, its process and its log (stdout and stderr)."""

    base: str
    port: int
    proc: subprocess.Popen[bytes]
    log_path: Path

    @property
    def ws(self) -> str:
        return self.base.replace("http://", "ws://") + "/ws"

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def stop(self) -> str:
        """Terminate the server (killed after 20 s) and return everything it wrote."""
        if self.proc.poll() is None:
            self.proc.terminate()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:  # pragma: no cover - uvicorn stops on SIGTERM
            self.proc.kill()
            self.proc.wait()
        return self.log()


@contextmanager
def serve_process(
    log: Path,
    *args: str,
    port: int | None = None,
    health: str = "/api/health",
    env: Mapping[str, str | None] | None = None,
) -> Iterator[Served]:
    """``cuarenta serve --port PORT *args`` (a free port unless given), its output appended to ``log``,
    until ``health`` answers 200 (at most 60 s; the failure shows the log); stopped at the end. ``env``
    changes the process' environment (``None``: the variable is removed)."""
    port = free_port() if port is None else port
    env = {
        name: value
        for name, value in {
            **os.environ,
            "PYTHONIOENCODING": "utf-8",
            "PYTHONUNBUFFERED": "1",
            **(env or {}),
        }.items()
        if value is not None
    }
    with log.open("ab") as out:
        proc = subprocess.Popen(
            [program(), "serve", "--port", str(port), *args], stdout=out, stderr=subprocess.STDOUT, env=env
        )
    served = Served(f"http://127.0.0.1:{port}", port, proc, log)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, f"the server stopped:\n{served.log()[-3000:]}"
            try:
                if httpx.get(served.base + health, timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, f"the server did not answer {health}:\n{served.log()[-3000:]}"
            time.sleep(0.1)
        yield served
    finally:
        served.stop()
