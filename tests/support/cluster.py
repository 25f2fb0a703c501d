"""Real PostgreSQL, Redis, nginx and cuarenta processes for the cluster tests (loopback, temporary dirs).

Debian's packages (postgresql, redis-server, nginx) are installed by scripts/test.sh; a test module that
needs them calls :func:`require` (it skips only where they are not installed, never in CI). PostgreSQL
refuses to run as root, so as root its files belong to the ``postgres`` user and it runs as that user.
"""

from __future__ import annotations

import asyncio
import contextlib
import glob
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from websockets.asyncio.client import ClientConnection, connect

from support.ports import free_port


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


async def until(check: object, seconds: float, what: str) -> None:
    """:func:`wait_until` in a coroutine: the event loop goes on meanwhile."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with contextlib.suppress(Exception):
            if check():  # type: ignore[operator]
                return
        await asyncio.sleep(0.05)
    raise AssertionError(f"{what}: not within {seconds} s")


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

    def processes(self) -> list[int]:
        """The postmaster and every process under it (backends, writers …)."""
        import psutil

        master = psutil.Process(self.pid)
        return [master.pid, *(p.pid for p in master.children(recursive=True))]

    def pause(self) -> None:
        """Hang it: SIGSTOP to every process of it. Its connections stay open and its kernel goes on
        acknowledging what is sent; nothing answers (a frozen machine, a storage that blocks)."""
        for pid in self.processes():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGSTOP)

    def resume(self) -> None:
        """SIGCONT to every process of it (after :meth:`pause`)."""
        for pid in self.processes():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)

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

    def pause(self) -> None:
        """Hang it (SIGSTOP): its connections stay open, nothing answers, no notice is delivered."""
        if self.proc is not None:
            os.kill(self.proc.pid, signal.SIGSTOP)

    def resume(self) -> None:
        """SIGCONT (after :meth:`pause`)."""
        if self.proc is not None:
            os.kill(self.proc.pid, signal.SIGCONT)

    def flush(self) -> None:
        """Forget everything (a test's nodes, workers, jobs and presence are not the next test's)."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=5) as s:
            s.sendall(b"FLUSHALL\r\n")
            assert s.recv(16).startswith(b"+OK")

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
    root: Path,
    name: str,
    pg: Postgres,
    redis: RedisServer,
    *,
    bot_delay: float = 0.05,
    port: int | None = None,
) -> tuple[Process, str]:
    """``cuarenta serve`` as node ``name`` of the cluster (on ``port``, default a free one), once it
    answers; the process and its address."""
    port = free_port() if port is None else port
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
    try:
        wait_started(node, base, name)
    except BaseException:
        node.kill()  # not left running: nobody else holds it (the test's cluster adds it only once started)
        raise
    return node, base


#: The longest a node may take to answer after its process started: only a bound against a start that
#: hangs. A node starts in about 3 s on an idle machine, but 16 to 36 s on the 2-core machine of the
#: tests when other work loads it (each start imports the server, 3 s of CPU, and migrates a fresh
#: database): a start that is slow is not a failure, and a process that exits is seen at once.
START_SECONDS = 180.0


def wait_started(process: Process, base: str, name: str) -> None:
    """Wait until the node's ``/api/health`` answers, as long as its process runs (at most
    :data:`START_SECONDS`); a process that exits before fails at once, with the end of its log."""
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                return
        if not process.alive():
            tail = process.log.read_text(errors="replace").splitlines()[-20:]
            raise AssertionError(f"{name} exited before it answered; its log ends:\n" + "\n".join(tail))
        time.sleep(0.05)
    raise AssertionError(f"{name} answers: not within {START_SECONDS:g} s")


def start_worker(root: Path, name: str, pg: Postgres, redis: RedisServer, *options: str) -> Process:
    """``cuarenta worker --name NAME`` over the cluster's database and Redis (``options``: more of its
    options, e.g. ``--concurrency 1``)."""
    return Process(
        [*program(), "worker", "--database", pg.url, "--redis", redis.url, "--name", name, *options],
        root / f"{name}.log",
    )


#: Seconds nginx keeps an idle connection to a node for the next request: below uvicorn's keep-alive (5 s,
#: ``KEEP_ALIVE_SECONDS`` of cuarenta.cli.serve), so the proxy never sends a request on a connection the node
#: is closing (a POST is not retried: the browser would get a 502). scripts/cluster.sh and deploy/nginx use
#: the same.
UPSTREAM_KEEPALIVE_SECONDS = 4

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
    map $http_upgrade $connection_upgrade {{ default upgrade; '' ''; }}
    upstream cuarenta {{
{balance}
{servers}
        keepalive 32;
{keepalive_timeout}
    }}
    server {{
        listen 127.0.0.1:{port};
        proxy_connect_timeout 1s;
        proxy_next_upstream error timeout;
        proxy_http_version 1.1;
        location /ws {{
            proxy_pass http://cuarenta;
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_read_timeout 1h;
        }}
        location / {{
            proxy_pass http://cuarenta;
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header Connection "";
        }}
    }}
}}
"""


class Nginx:
    """nginx in front of some nodes (WebSockets proxied; a node that does not answer is skipped)."""

    def __init__(
        self,
        root: Path,
        bases: list[str],
        *,
        by_room: bool = True,
        keepalive_timeout: float | None = UPSTREAM_KEEPALIVE_SECONDS,
        name: str = "nginx",
    ) -> None:
        """``by_room``: every socket of a table goes to the same node (``hash $arg_room consistent``, the
        page puts the room in the socket's address); else round robin, so a table's people are spread
        over the nodes and every move crosses Redis. Like scripts/cluster.sh's proxy it keeps up to 32
        idle connections to the nodes, each for ``keepalive_timeout`` seconds (``None``: nginx's default,
        60 s, longer than the nodes keep them — the configuration that answered a POST with 502)."""
        self.dir = root / name
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
                keepalive_timeout=""
                if keepalive_timeout is None
                else f"        keepalive_timeout {keepalive_timeout:g}s;",
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


# -- a test's cluster, and people playing through it --------------------------------------------------
class Cluster:
    """Nodes, workers and a proxy of one test (all stopped at its end)."""

    def __init__(self, root: Path, pg: Postgres, redis: RedisServer) -> None:
        self.root, self.pg, self.redis = root, pg, redis
        self.processes: list[Process] = []
        self.proxies: list[Nginx] = []

    def node(self, name: str, bot_delay: float = 0.05, port: int | None = None) -> tuple[Process, str]:
        node, base = start_node(self.root, name, self.pg, self.redis, bot_delay=bot_delay, port=port)
        self.processes.append(node)
        return node, base

    def worker(self, name: str, *options: str) -> Process:
        worker = start_worker(self.root, name, self.pg, self.redis, *options)
        self.processes.append(worker)
        return worker

    def proxy(self, bases: list[str], **options: Any) -> str:
        """nginx in front of ``bases`` (``options``: those of :class:`Nginx`); its address."""
        proxy = Nginx(self.root, bases, name=f"nginx{len(self.proxies) + 1}", **options)
        self.proxies.append(proxy)
        return proxy.base

    def close(self) -> None:
        for p in self.processes:
            p.kill()
        for proxy in self.proxies:
            proxy.stop()

    def tell_logs(self, lines: int = 40) -> None:
        """Print the last ``lines`` of each process' log (pytest shows them when the test failed: the
        flaky cluster tests of CI are diagnosed from these)."""
        logs = [p.log for p in self.processes] + [self.pg.dir / "log"]
        for path in logs:
            with contextlib.suppress(OSError):
                tail = path.read_text(errors="replace").splitlines()[-lines:]
                print(f"-- {path.parent.name}/{path.name} (last {len(tail)} lines)", *tail, sep="\n")

    def stored_state(self, room: str) -> int:
        engine = sa.create_engine(self.pg.url)
        try:
            with engine.connect() as conn:
                return int(
                    conn.exec_driver_sql("SELECT state FROM rooms WHERE id = %s", (room,)).scalar_one()
                )
        finally:
            engine.dispose()

    def logged(self, room: str) -> list[tuple[int, int]]:
        engine = sa.create_engine(self.pg.url)
        try:
            with engine.connect() as conn:
                rows = conn.exec_driver_sql(
                    "SELECT mesa, seq FROM actions WHERE room = %s ORDER BY mesa, seq", (room,)
                ).all()
                return [(int(m), int(s)) for m, s in rows]
        finally:
            engine.dispose()


class Person:
    """One browser's socket: joins a seat, reads messages, plays."""

    def __init__(self, base: str, room: str, token: str) -> None:
        self.base, self.room, self.token = base, room, token
        self.ws: ClientConnection | None = None
        self.last: dict[str, Any] | None = None
        self.table: dict[str, Any] | None = None  #: the last ``table`` message (or state) naming the seats
        self.events = 0
        self.acked: list[int] = []  #: states that followed this person's own moves

    async def open(self, since: int | None = None) -> dict[str, Any]:
        address = self.base.replace("http", "ws") + f"/ws?room={self.room}"  # as the page does
        self.ws = await connect(address, origin=self.base, open_timeout=5)
        join: dict[str, Any] = {"v": 1, "type": "join", "room": self.room, "token": self.token}
        if since is not None:
            join["since"] = since
        await self.ws.send(json.dumps(join))
        return await self.until(lambda m: m["type"] in ("state", "error"))

    async def until(self, want: Any, seconds: float = 10) -> dict[str, Any]:
        assert self.ws is not None

        async def read() -> dict[str, Any]:
            assert self.ws is not None
            while True:
                message = json.loads(await self.ws.recv())
                if message["type"] == "state":
                    self.last = message
                    self.events = message.get("event_count", self.events)
                if message["type"] in ("state", "table") and "seats" in message:
                    self.table = message
                if want(message):
                    return message

        try:
            return await asyncio.wait_for(read(), seconds)
        except TimeoutError:
            last = None if self.last is None else {k: self.last.get(k) for k in ("state", "seat", "status")}
            raise TimeoutError(  # (still a TimeoutError: errors_within counts on it) that says where
                f"{self.base}, room {self.room}: no such message in {seconds} s (the last state: {last})"
            ) from None

    async def seats_show(self, check: Any, seconds: float = 10) -> dict[str, Any]:
        """The seats as this socket was last told them once ``check(seats)`` holds (read until it does)."""
        if self.table is not None and check(self.table["seats"]):
            return self.table
        told = ("state", "table")
        return await self.until(lambda m: m["type"] in told and check(m.get("seats", [])), seconds)

    async def state_at_least(self, state: int, seconds: float = 10) -> dict[str, Any]:
        if self.last is not None and self.last["state"] >= state:
            return self.last
        return await self.until(lambda m: m["type"] == "state" and m["state"] >= state, seconds)

    async def errors_within(self, seconds: float) -> list[dict[str, Any]]:
        """The errors this socket receives within ``seconds`` (reading every message meanwhile)."""
        errors: list[dict[str, Any]] = []
        with contextlib.suppress(TimeoutError):
            while True:
                errors.append(await self.until(lambda m: m["type"] == "error", seconds))
        return errors

    def my_turn(self) -> bool:
        return bool(self.last and self.last["legal"])

    async def move(self) -> dict[str, Any]:
        """Play the first legal move; the answer (the next state, or an error)."""
        assert self.ws is not None and self.last is not None
        state = self.last["state"]
        await self.ws.send(
            json.dumps(
                {"v": 1, "type": "move", "room": self.room, "state": state, "move": self.last["legal"][0]}
            )
        )
        answer = await self.until(
            lambda m: m["type"] == "error" or (m["type"] == "state" and m["state"] > state)
        )
        if answer["type"] == "state":
            self.acked.append(answer["state"])
        return answer

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


async def a_table(base: str, join_base: str | None = None) -> tuple[str, str, str]:
    """A 1 vs 1 table of two people (created at ``base``, the friend joining at ``join_base``)."""
    async with httpx.AsyncClient(timeout=10) as client:
        made = await client.post(
            f"{base}/api/tables", json={"players": 2, "name": "Ana", "rules": {"preset": "basico"}}
        )
        assert made.status_code == 200, made.text
        room = made.json()["room"]
        joined = await client.post(
            f"{join_base or base}/api/tables/{room}/join",
            json={"invite": made.json()["invite"], "name": "Beto"},
        )
        assert joined.status_code == 200, joined.text
    return room, made.json()["token"], joined.json()["token"]


async def two_people(one: str, two: str) -> tuple[str, Person, Person]:
    """A 1 vs 1 table made at node ``one``, Ana's socket there and Beto's at node ``two``, two moves in."""
    room, ana_token, beto_token = await a_table(one, two)
    ana, beto = Person(one, room, ana_token), Person(two, room, beto_token)
    assert (await ana.open())["type"] == "state"
    assert (await beto.open())["type"] == "state"
    await play_turns([ana, beto], 2)
    return room, ana, beto


async def play_turns(people: list[Person], turns: int) -> None:
    """Play ``turns`` moves, each by whoever's turn it is; every person sees every new state."""
    for _ in range(turns):
        movers = [p for p in people if p.my_turn()]
        assert movers, [
            {k: (p.last or {}).get(k) for k in ("state", "seat", "status", "mesa")}
            | {"turn": (p.last or {}).get("view", {}).get("turn"), "base": p.base}
            for p in people
        ]
        mover = movers[0]
        answer = await mover.move()
        assert answer["type"] == "state", answer
        for p in people:
            await p.state_at_least(answer["state"])


def metric(base: str, name: str, **labels: str) -> float | None:
    """One sample of a process's ``/metrics`` (``cuarenta_bus_up``; labels as keywords), or ``None``."""
    from prometheus_client.parser import text_string_to_metric_families

    text = httpx.get(f"{base}/metrics", timeout=5).text
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name and all(sample.labels.get(k) == v for k, v in labels.items()):
                return float(sample.value)
    return None


def live_workers(cluster: Cluster) -> set[str]:
    """The workers that announce themselves among the cluster's live processes (they read the stream)."""
    import redis as redis_lib

    client = redis_lib.Redis.from_url(cluster.redis.url)
    try:
        names = {n.decode() for n in client.zrangebyscore("cuarenta:nodes", time.time(), "+inf")}
    finally:
        client.close()
    return {n.removeprefix("worker/") for n in names if n.startswith("worker/")}


def job_holders(cluster: Cluster) -> dict[str, str]:
    """Room → the worker holding that room's computer-move job (taken, not finished)."""
    import redis as redis_lib

    client = redis_lib.Redis.from_url(cluster.redis.url)
    held: dict[str, str] = {}
    try:
        for entry in client.xpending_range("cuarenta:moves", "workers", min="-", max="+", count=100):
            for _, fields in client.xrange("cuarenta:moves", entry["message_id"], entry["message_id"]):
                held[json.loads(fields[b"job"])["room"]] = entry["consumer"].decode()
    except redis_lib.ResponseError:  # no stream or group yet
        return {}
    finally:
        client.close()
    return held


def heartbeats(cluster: Cluster, name: str, count: int, seconds: float) -> None:
    """Wait until process ``name`` (``n1``, ``worker/w1``) has announced itself ``count`` times from now
    among the cluster's live processes: each announcement moves its entry's expiry on. A node reads the
    live processes in the same round trip as it announces itself and counts the lost ones just after, so
    ``count=2`` proves that one whole heartbeat ran after this call."""
    import redis as redis_lib

    client = redis_lib.Redis.from_url(cluster.redis.url)
    deadline = time.monotonic() + seconds
    try:
        last = client.zscore("cuarenta:nodes", name)
        for seen in range(count):
            while (now := client.zscore("cuarenta:nodes", name)) == last:
                assert time.monotonic() < deadline, f"{name} announced itself {seen} times in {seconds} s"
                time.sleep(0.05)
            last = now
    finally:
        client.close()
