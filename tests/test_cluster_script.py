"""``scripts/cluster.sh``: a whole cluster on this machine, up, used through its proxy, and down.

PostgreSQL, Redis, two ``cuarenta serve`` processes, a worker (once ``cuarenta worker`` exists) and nginx,
on free ports of 127.0.0.1, everything in a temporary directory. The script installs what is missing
from Debian's packages (``scripts/test.sh`` installs them in CI); the test is skipped only when they cannot
be installed here (the script's exit code 4).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import psutil
import pytest
from websockets.sync.client import connect

from support.ports import LISTEN_PORTS

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "cluster.sh"
NOT_INSTALLABLE = 4  # the script's exit code when the Debian packages cannot be installed

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(sys.platform != "linux", reason="scripts/cluster.sh is for Debian"),
]


def cluster(*args: str, timeout: float) -> subprocess.CompletedProcess[str]:
    """``bash scripts/cluster.sh ARGS``; every daemon it starts writes to its own log, never to our pipes."""
    return subprocess.run(
        ["bash", str(SCRIPT), *args], capture_output=True, text=True, timeout=timeout, check=False
    )


def free_ports(count: int, run: int) -> tuple[list[int], int]:
    """``count`` free ports of 127.0.0.1 and the first of ``run`` consecutive free ones, all different."""
    held: list[socket.socket] = []

    def take(port: int) -> int | None:
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            s.close()
            return None
        held.append(s)
        got: int = s.getsockname()[1]
        return got

    def any_port() -> int | None:
        for _ in range(100):
            got = take(random.randrange(*LISTEN_PORTS))
            if got is not None:
                return got
        return None

    try:
        singles = [any_port() for _ in range(count)]
        for _ in range(200):
            first = any_port()
            assert first is not None
            if first + run - 1 <= 65535 and all(take(first + i) is not None for i in range(1, run)):
                return [p for p in singles if p is not None], first
        raise AssertionError(f"no {run} consecutive free ports")
    finally:
        for s in held:
            s.close()


def gone(pid: int) -> bool:
    """The process is gone (a zombie nobody reaped yet is gone too: it runs nothing and holds no port)."""
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def pids_of(directory: Path) -> dict[str, int]:
    """Every pid the cluster's directory names: the pid files of run/ and PostgreSQL's postmaster.pid."""
    pids = {p.stem: int(p.read_text().split()[0]) for p in (directory / "run").glob("*.pid")}
    postmaster = directory / "pg" / "postmaster.pid"
    if postmaster.exists():
        pids["postgres"] = int(postmaster.read_text().split()[0])
    return pids


def wait_until(condition: Callable[[], bool], seconds: float = 20) -> bool:
    """Whether ``condition`` became true within ``seconds``."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def play_a_move_and_see_the_computer_answer(proxy: int) -> None:
    """A 1 vs 1 against the computer through the proxy: the person moves, then it is their turn again."""
    base = f"http://127.0.0.1:{proxy}"
    made = httpx.post(f"{base}/api/rooms", json={"players": 2, "level": "facil"}, timeout=10)
    assert made.status_code == 200, made.text
    room, token = made.json()["room"], made.json()["token"]
    moved_at: int | None = None
    with connect(f"ws://127.0.0.1:{proxy}/ws", origin=base, open_timeout=10) as ws:
        ws.send(json.dumps({"v": 1, "type": "join", "room": room, "token": token, "pace": "fast"}))
        deadline = time.monotonic() + 60
        while True:
            message = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
            assert message["type"] != "error", message
            if message["type"] != "state" or not message["legal"]:
                continue
            if moved_at is not None:
                assert message["state"] >= moved_at + 2  # the person's move and the computer's
                return
            moved_at = message["state"]
            ws.send(json.dumps({"v": 1, "type": "move", "move": message["legal"][0], "state": moved_at}))


def status_table(text: str) -> dict[str, list[str]]:
    """``status``'s table: component → [pid, alive, port, ready]."""
    rows = [line.split() for line in text.splitlines() if line.strip()]
    assert rows[0] == ["component", "pid", "alive", "port", "ready"], text
    return {row[0]: row[1:] for row in rows[1:]}


@pytest.fixture
def directory() -> Iterator[Path]:
    """The cluster's directory: in the system's temporary directory rather than pytest's, whose parent
    another pytest run makes private again (mode 700) while PostgreSQL, run as another user when we are
    root, still needs to pass through it."""
    parent = Path(tempfile.mkdtemp(prefix="cuarenta-cluster-"))
    try:
        yield parent / "c"
    finally:
        shutil.rmtree(parent, ignore_errors=True)


@pytest.mark.timeout(480)
def test_cluster_up_status_down(directory: Path) -> None:
    (proxy, pg, redis), first_server = free_ports(3, run=2)
    options = ["--dir", str(directory), "--port", str(proxy), "--pg-port", str(pg)]
    options += ["--redis-port", str(redis), "--server-port", str(first_server), "--python", sys.executable]
    pids: dict[str, int] = {}
    try:
        up = cluster("up", *options, "--servers", "2", "--workers", "1", timeout=240)
        if up.returncode == NOT_INSTALLABLE:
            pytest.skip(f"the Debian packages cannot be installed here: {up.stderr.strip()}")
        assert up.returncode == 0, up.stdout + up.stderr
        assert f"http://127.0.0.1:{proxy}/" in up.stdout
        pids = pids_of(directory)

        env = cluster("env", "--dir", str(directory), timeout=30)
        assert env.returncode == 0, env.stderr
        where = dict(line.split("=", 1) for line in env.stdout.splitlines())
        assert where["CUARENTA_PROXY_URL"] == f"http://127.0.0.1:{proxy}/"
        assert where["CUARENTA_PG_URL"] == f"postgresql+psycopg://cuarenta@127.0.0.1:{pg}/cuarenta"
        assert where["CUARENTA_REDIS_URL"] == f"redis://127.0.0.1:{redis}/0"
        servers = where["CUARENTA_SERVER_URLS"].split(",")
        assert servers == [f"http://127.0.0.1:{first_server + k}/" for k in (0, 1)]

        # each server answers on its own port, and Redis on its own
        for url in servers:
            assert httpx.get(url + "api/health", timeout=10).json()["ok"] is True
        with socket.create_connection(("127.0.0.1", redis), timeout=10) as s:
            s.sendall(b"PING\r\n")
            assert s.recv(64) == b"+PONG\r\n"

        # the proxy answers, and passes requests to both servers
        for _ in range(8):
            answer = httpx.get(f"http://127.0.0.1:{proxy}/api/health", timeout=10)
            assert answer.status_code == 200 and answer.json()["ok"] is True
        access = (directory / "logs" / "nginx-access.log").read_text()
        for url in servers:
            assert f"upstream={url.removeprefix('http://').rstrip('/')}" in access, access

        # a game socket through the proxy, from the page's own origin (the app checks it against Host)
        with connect(f"ws://127.0.0.1:{proxy}/ws", origin=f"http://127.0.0.1:{proxy}", open_timeout=10) as ws:
            ws.send(json.dumps({"v": 1, "type": "ping"}))
            deadline = time.monotonic() + 20
            while True:
                message = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
                if message["type"] == "pong":
                    break

        # a game through the proxy: a person's move, then the computer's (played by a worker, or by the
        # server itself before the cluster's workers exist), on whichever servers the proxy picks
        play_a_move_and_see_the_computer_answer(proxy)

        # a server killed: the proxy skips it, `status` says so, and `up` starts that one only
        os.kill(pids["server2"], signal.SIGKILL)
        assert wait_until(lambda: gone(pids["server2"])), "server2 is still there after SIGKILL"
        for _ in range(6):
            assert httpx.get(f"http://127.0.0.1:{proxy}/api/health", timeout=10).status_code == 200
        status = cluster("status", "--dir", str(directory), timeout=60)
        assert status.returncode == 3, status.stdout + status.stderr
        assert status_table(status.stdout)["server2"][1:] == ["no", str(first_server + 1), "no"]
        restart = cluster("up", *options, timeout=120)
        assert restart.returncode == 0, restart.stdout + restart.stderr
        restarted = pids_of(directory)
        assert restarted["server2"] != pids["server2"]
        assert {k: v for k, v in restarted.items() if k != "server2"} == {
            k: v for k, v in pids.items() if k != "server2"
        }
        pids = restarted

        # a second `up` starts nothing
        again = cluster("up", *options, timeout=120)
        assert again.returncode == 0, again.stdout + again.stderr
        assert "already up" in again.stdout
        assert pids_of(directory) == pids

        status = cluster("status", "--dir", str(directory), timeout=60)
        assert status.returncode == 0, status.stdout + status.stderr
        table = status_table(status.stdout)
        workers = ["worker1"] if "worker1" in table else ["workers"]
        assert sorted(table) == sorted(["postgres", "redis", "server1", "server2", "nginx", *workers])
        for name, (pid, alive, _port, ready) in table.items():
            if name == "workers":  # this cuarenta has no `cuarenta worker` yet
                assert alive == "skipped"
                continue
            assert (alive, ready) == ("yes", "yes"), status.stdout
            assert int(pid) == pids[name]
        assert {name for name in pids} == set(table) - {"workers"}
    finally:
        down = cluster("down", "--dir", str(directory), timeout=180)
    assert down.returncode == 0, down.stdout + down.stderr
    assert wait_until(lambda: all(gone(pid) for pid in pids.values())), [
        name for name, pid in pids.items() if not gone(pid)
    ]
    after = cluster("status", "--dir", str(directory), timeout=60)
    assert after.returncode == 3
    assert all(row[1] == "no" for name, row in status_table(after.stdout).items() if name != "workers")
