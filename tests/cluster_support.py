"""Real PostgreSQL, Redis, nginx and cuarenta processes for the cluster tests (loopback, temporary dirs).

Debian's packages (postgresql, redis-server, nginx) are installed by scripts/test.sh; a test module that
needs them calls :func:`require` (it skips only where they are not installed, never in CI). PostgreSQL
refuses to run as root, so as root its files belong to the ``postgres`` user and it runs as that user.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import pytest

from ports import free_port


def pg_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]).parent if found else None


def require() -> None:
    """Skip the calling test module if PostgreSQL, Redis or nginx is not installed."""
    missing = [
        name
        for name, ok in (
            ("postgresql", pg_bin() is not None),
            ("redis-server", shutil.which("redis-server") is not None),
            ("nginx", shutil.which("nginx") is not None or Path("/usr/sbin/nginx").exists()),
        )
        if not ok
    ]
    if missing:
        pytest.skip(
            f"not installed: {', '.join(missing)} (scripts/test.sh installs them)", allow_module_level=True
        )


def _as_postgres(argv: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *argv] if os.geteuid() == 0 else argv


def wait_until(check: object, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with contextlib.suppress(Exception):
            if check():  # type: ignore[operator]
                return
        time.sleep(0.05)
    raise AssertionError(f"{what}: not within {seconds} s")


class Postgres:
    """A throwaway PostgreSQL cluster with a database ``cuarenta``.

    By default it runs without fsync (fast, for tests: a crash of the machine could lose it, a killed
    PostgreSQL cannot); ``durable=True`` keeps PostgreSQL's defaults (fsync and full_page_writes on), as a
    real deployment runs, for the benchmarks. Commits are synchronous either way.
    """

    def __init__(self, root: Path, *, durable: bool = False) -> None:
        self.durable = durable
        binary = pg_bin()
        assert binary is not None
        self.bin = binary
        # its own folder under the system's temporary directory: the test's may not be traversable by the
        # postgres user (pytest makes its folders private)
        self.dir = Path(tempfile.mkdtemp(prefix="cuarenta-pg-"))
        (root / "pg").write_text(str(self.dir))  # where it is, for a person reading the test's folder
        self.port = free_port()
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres", "postgres")
        subprocess.run(
            _as_postgres(
                [
                    str(self.bin / "initdb"),
                    "-D",
                    str(self.dir / "data"),
                    "-U",
                    "cuarenta",
                    "--auth=trust",
                    "-E",
                    "UTF8",
                    "--locale=C",
                ]
            ),
            check=True,
            capture_output=True,
        )
        self.start()
        subprocess.run(
            _as_postgres(
                [
                    str(self.bin / "createdb") if (self.bin / "createdb").exists() else "createdb",
                    "-h",
                    "127.0.0.1",
                    "-p",
                    str(self.port),
                    "-U",
                    "cuarenta",
                    "cuarenta",
                ]
            ),
            check=True,
            capture_output=True,
        )

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://cuarenta@127.0.0.1:{self.port}/cuarenta"

    @property
    def pid(self) -> int:
        """The postmaster's process id (its children are the backends and background processes)."""
        return int((self.dir / "data" / "postmaster.pid").read_text().split("\n", 1)[0])

    def start(self) -> None:
        options = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c max_connections=300 "
        # commits stay synchronous: a move is acknowledged only once its commit is in the write-ahead log
        # (the outage test stops PostgreSQL at once, and found the loss when this was off)
        if not self.durable:  # an operating-system crash could lose data, a killed PostgreSQL cannot
            options += "-c fsync=off -c full_page_writes=off"
        subprocess.run(
            _as_postgres(
                [
                    str(self.bin / "pg_ctl"),
                    "-D",
                    str(self.dir / "data"),
                    "-l",
                    str(self.dir / "log"),
                    "-o",
                    options,
                    "-w",
                    "-t",
                    "30",
                    "start",
                ]
            ),
            check=True,
            capture_output=True,
        )

    def remove(self) -> None:
        """Stop it and remove its files."""
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)

    def stop(self) -> None:
        subprocess.run(
            _as_postgres(
                [str(self.bin / "pg_ctl"), "-D", str(self.dir / "data"), "-m", "immediate", "-w", "stop"]
            ),
            check=False,
            capture_output=True,
        )


class RedisServer:
    """A redis-server on a loopback port, no persistence (the cluster keeps its truth in PostgreSQL)."""

    def __init__(self, root: Path) -> None:
        self.dir = root / "redis"
        self.dir.mkdir(parents=True)
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.dir),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

        def up() -> bool:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")

        wait_until(up, 10, "redis-server answers")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(10)
            self.proc = None


def program() -> list[str]:
    return [sys.executable, "-m", "cuarenta"]


class Process:
    """A cuarenta process (``serve`` or ``worker``) with its output in a log file."""

    def __init__(self, argv: list[str], log: Path, env: dict[str, str] | None = None) -> None:
        self.log = log
        self.argv = argv
        with log.open("ab") as out:
            self.proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, env=env)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def alive(self) -> bool:
        return self.proc.poll() is None


def start_node(
    root: Path, name: str, pg: Postgres, redis: RedisServer, *, bot_delay: float = 0.05
) -> tuple[Process, str]:
    port = free_port()
    node = Process(
        [
            *program(),
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--database",
            pg.url,
            "--redis",
            redis.url,
            "--node",
            name,
            "--workers",
            "0",
            "--bot-delay",
            str(bot_delay),
            "--rooms-per-minute",
            "0",
            # nginx on loopback is the proxy; the tests' clients are all 127.0.0.1: no per-address limits
            *("--forwarded-allow-ips", "127.0.0.1", "--max-sockets-per-address", "0"),
            *("--address-messages-per-second", "0", "--http-per-minute", "0"),
        ],
        root / f"{name}.log",
    )
    base = f"http://127.0.0.1:{port}"
    wait_until(lambda: httpx.get(f"{base}/api/health", timeout=1).status_code == 200, 30, f"{name} answers")
    return node, base


def start_worker(root: Path, name: str, pg: Postgres, redis: RedisServer) -> Process:
    return Process(
        [*program(), "worker", "--database", pg.url, "--redis", redis.url, "--name", name],
        root / f"{name}.log",
    )


NGINX_CONF = """
worker_processes 1;
pid {dir}/nginx.pid;
error_log {dir}/error.log warn;
{user}
events {{ worker_connections 16384; }}
http {{
    access_log off;
    client_body_temp_path {dir}/body;
    proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi;
    scgi_temp_path {dir}/scgi;
    map $http_upgrade $connection_upgrade {{ default upgrade; '' close; }}
    upstream cuarenta {{
{balance}
{servers}
    }}
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass http://cuarenta;
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_connect_timeout 1s;
            proxy_read_timeout 1h;
            proxy_next_upstream error timeout;
        }}
    }}
}}
"""


class Nginx:
    """nginx in front of some nodes (WebSockets proxied; a node that does not answer is skipped)."""

    def __init__(self, root: Path, bases: list[str], *, by_room: bool = True) -> None:
        """``by_room``: every socket of a table goes to the same node (``hash $arg_room consistent``, the
        page puts the room in the socket's address); else round robin, so a table's people are spread
        over the nodes and every move crosses Redis."""
        self.dir = root / "nginx"
        self.dir.mkdir(parents=True)
        self.port = free_port()
        servers = "\n".join(
            f"        server {b.removeprefix('http://')} max_fails=1 fail_timeout=2s;" for b in bases
        )
        user = "user root;" if os.geteuid() == 0 else ""
        conf = self.dir / "nginx.conf"
        conf.write_text(
            NGINX_CONF.format(
                dir=self.dir,
                servers=servers,
                port=self.port,
                user=user,
                balance="        hash $arg_room consistent;" if by_room else "",
            )
        )
        binary = shutil.which("nginx") or "/usr/sbin/nginx"
        subprocess.run(
            [binary, "-c", str(conf), "-p", str(self.dir), "-g", "daemon on;"],
            check=True,
            capture_output=True,
        )
        self.base = f"http://127.0.0.1:{self.port}"
        wait_until(
            lambda: httpx.get(f"{self.base}/api/health", timeout=1).status_code == 200, 10, "nginx answers"
        )

    @property
    def pid(self) -> int:
        """The master process's id (its children are the workers)."""
        return int((self.dir / "nginx.pid").read_text().strip())

    def stop(self) -> None:
        pid_file = self.dir / "nginx.pid"
        if pid_file.exists():
            with contextlib.suppress(ProcessLookupError, ValueError):
                os.kill(int(pid_file.read_text().strip()), signal.SIGQUIT)
