"""Server load: a real ``cuarenta serve`` process, rooms driven by scripted persons, an idle ping socket.

The script starts ``cuarenta serve`` on a free loopback port with a temporary
data directory, creates ``--rooms`` rooms through the HTTP API and drives each
with a scripted person over a real WebSocket: on its turn the person waits a
think time (uniform in ``--think``), then plays a random legal move from its
``state`` message (or asks for the next mesa once one is over). It measures

* **move latency**: from sending a move to the ``state`` message answering it;
* **ping round trips** on another socket, which joins no room, every 50 ms,
  from a separate process (so the drivers' own work does not delay it);
* the **CPU** used by the server process and, separately, by its children (the
  thinking workers), from ``/proc``, and how busy the whole machine was.

Scenarios of issue 7 (run from the repository root; loopback only; bounded by
``--seconds`` and ``--rooms``)::

    python bench/server_load.py --rooms 600 --level facil --think 1-3 --seconds 60
    python bench/server_load.py --rooms 300 --level facil --think 1-3 --seconds 60
    python bench/server_load.py --rooms 8 --players 4 --level dificil --think 1-3 --seconds 120

``--workers N`` is passed to ``cuarenta serve`` (omit it to use the server's
default); ``--serve-arg`` passes any other option. Figures are recorded in
docs/performance.md. This is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import platform
import random
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

PING_EVERY = 0.05  #: seconds between two pings of the idle socket
GC_TRACE_DIR = Path(__file__).resolve().parent / "gctrace"  #: its sitecustomize traces the server's GC
PROFILER_DIR = Path(__file__).resolve().parent / "profiler"  #: its sitecustomize profiles the server
CLK_TCK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


# -- the server process ------------------------------------------------------------------------------------
def program() -> str:
    """The ``cuarenta`` command beside this Python (the virtualenv's), else the one on PATH."""
    beside = Path(sys.executable).parent / "cuarenta"
    if beside.exists():
        return str(beside)
    found = shutil.which("cuarenta")
    if found is None:
        raise SystemExit("the cuarenta command is not installed (pip install -e '.[all]')")
    return found


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def serve_help() -> str:
    """``cuarenta serve --help`` (older versions lack some options)."""
    found = subprocess.run([program(), "serve", "--help"], capture_output=True, text=True, timeout=60)
    return found.stdout


def start_server(data: Path, args: argparse.Namespace) -> tuple[subprocess.Popen[bytes], str]:
    """``cuarenta serve`` on a free loopback port; returns once ``/api/health`` answers."""
    port = free_port()
    command = [program(), "serve", "--host", "127.0.0.1", "--port", str(port), "--data", str(data)]
    command += ["--bot-delay", str(args.bot_delay)]
    if args.workers is not None:
        command += ["--workers", str(args.workers)]
    help_text = serve_help()
    if "--rooms-per-minute" in help_text:
        command += ["--rooms-per-minute", "0"]  # the benchmark creates hundreds of rooms from one address
    if "--max-sockets-per-address" in help_text:  # ... and thousands of sockets, all from 127.0.0.1
        command += ["--max-sockets-per-address", "0", "--address-messages-per-second", "0"]
        command += ["--http-per-minute", "0", "--max-connections-per-address", "0", "--max-connections", "0"]
    for extra in args.serve_arg:
        command += extra.split()
    env = dict(os.environ)
    if args.gc_trace:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(GC_TRACE_DIR), env.get("PYTHONPATH")]))
        env["CUARENTA_GC_TRACE"] = str(data.parent / "gc.trace")
        if args.no_gc_policy:
            env["CUARENTA_BENCH_NO_GC_POLICY"] = "1"
    profile = getattr(args, "profile", None)  # bench/tables_load.py --profile (bench/profiler)
    if profile is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PROFILER_DIR), env.get("PYTHONPATH")]))
        env["CUARENTA_BENCH_PROFILE"] = str(profile.resolve())
    log = open(data.parent / "server.log", "wb")  # noqa: SIM115 - closed with the directory
    proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
    base = f"http://127.0.0.1:{port}"
    print(f"server pid {proc.pid} at {base}", file=sys.stderr, flush=True)
    deadline = time.monotonic() + 60
    while True:
        if proc.poll() is not None:
            raise SystemExit(f"the server stopped: {(data.parent / 'server.log').read_text()}")
        try:
            if httpx.get(f"{base}/api/health", timeout=2).status_code == 200:
                return proc, base
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            proc.kill()
            raise SystemExit("the server did not answer /api/health within 60 s")
        time.sleep(0.1)


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@dataclass
class Served:
    """A ``cuarenta serve`` of :func:`served`: its process, its address and its temporary directory."""

    proc: subprocess.Popen[bytes]
    base: str
    dir: Path

    def log(self) -> str:
        return (self.dir / "server.log").read_text(errors="replace")

    def stop(self) -> str:
        """Stop the server (the directory stays until the ``with`` ends); its whole log."""
        stop_server(self.proc)
        return self.log()


@contextlib.contextmanager
def served(args: argparse.Namespace, prefix: str) -> Iterator[Served]:
    """``cuarenta serve`` (:func:`start_server`) in a temporary directory for the length of a ``with``
    block, stopped at its end; if the block fails, the tail of the server's log is printed first."""
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        proc, base = start_server(Path(tmp) / "data", args)
        server = Served(proc, base, Path(tmp))
        try:
            yield server
        except BaseException:
            print(server.log()[-3000:], file=sys.stderr)
            raise
        finally:
            stop_server(proc)


# -- /proc -------------------------------------------------------------------------------------------------
def _stat(pid: int) -> list[str] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # the command name (field 2) is in parentheses and may hold spaces
    return text[text.rindex(")") + 2 :].split()


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of one process (0 if it is gone)."""
    fields = _stat(pid)
    if fields is None:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def tree_cpu_seconds(pids: Sequence[int]) -> float:
    """CPU seconds of some processes and every process below them, live or already exited and reaped.

    A live process counts its own user + system time and its reaped children's (``cutime``, ``cstime``):
    a PostgreSQL backend that ends within a window still counts, in its postmaster's figure.
    """
    total = 0.0
    for pid in {p for root in pids for p in (root, *descendants(root))}:
        fields = _stat(pid)
        if fields is not None:
            total += sum(int(v) for v in fields[11:15]) / CLK_TCK
    return total


def descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (its children, theirs …)."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = _stat(int(entry.name))
            if fields is not None:
                parents.setdefault(int(fields[1]), []).append(int(entry.name))
    found: list[int] = []
    todo = [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def machine_jiffies() -> tuple[int, int]:
    """(busy, total) jiffies of all cores since boot, from /proc/stat."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + (values[4] if len(values) > 4 else 0)
    return sum(values) - idle, sum(values)


@dataclass
class CpuSample:
    at: float
    server: float
    children: dict[int, float]
    machine: tuple[int, int]
    me: float


def cpu_sample(pid: int) -> CpuSample:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return CpuSample(
        time.monotonic(),
        cpu_seconds(pid),
        {child: cpu_seconds(child) for child in descendants(pid)},
        machine_jiffies(),
        usage.ru_utime + usage.ru_stime,
    )


# -- figures -----------------------------------------------------------------------------------------------
def percentile(values: Sequence[float], p: float) -> float:
    """Nearest-rank percentile (``p`` in 0..100) of a non-empty sequence."""
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(p / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def summary(values: Sequence[float]) -> dict[str, Any]:
    """Count and p50/p95/p99/max in milliseconds."""
    if not values:
        return {"n": 0}
    ms = [v * 1000 for v in values]
    return {
        "n": len(ms),
        "p50": round(percentile(ms, 50), 1),
        "p95": round(percentile(ms, 95), 1),
        "p99": round(percentile(ms, 99), 1),
        "max": round(max(ms), 1),
        "over_100ms": sum(1 for v in ms if v > 100),
    }


# -- the scripted persons ----------------------------------------------------------------------------------
@dataclass
class Tally:
    """What the persons measured inside the window."""

    start: float = 0.0  #: monotonic time the measuring window opens (0 until warm-up is over)
    end: float = float("inf")
    latencies: list[float] = field(default_factory=list)
    moves: int = 0  #: person moves sent (whole run)
    computer_moves: int = 0  #: computer plays seen in the window
    mesas: int = 0  #: mesas finished (whole run)
    errors: dict[str, int] = field(default_factory=dict)
    closed: int = 0

    def inside(self, t: float) -> bool:
        return bool(self.start) and self.start <= t < self.end


async def person(
    ws_url: str,
    room: str,
    token: str,
    think: tuple[float, float],
    rng: random.Random,
    tally: Tally,
    stop: asyncio.Event,
) -> None:
    """Join a room as its person and play it until ``stop``: think, move, wait for the answer."""
    pending: tuple[int, float] | None = None  #: (state the move was made on, time sent)
    acting: asyncio.Task[None] | None = None
    latest: dict[str, Any] = {}

    async def act(ws: ClientConnection, message: dict[str, Any], first: bool) -> None:
        nonlocal pending
        wait = rng.uniform(0, think[1]) if first else rng.uniform(*think)
        await asyncio.sleep(wait)
        if stop.is_set() or latest.get("state") != message["state"]:
            return
        if message["status"] == "finished":
            await ws.send(json.dumps({"v": 1, "type": "next"}))
            tally.mesas += 1
            pending = (message["state"], time.monotonic())
            return
        move = rng.choice(message["legal"])
        pending = (message["state"], time.monotonic())
        tally.moves += 1
        await ws.send(json.dumps({"v": 1, "type": "move", "move": move, "state": message["state"]}))

    first = True
    try:
        async with connect(ws_url, max_size=2**22, ping_interval=None, open_timeout=60) as ws:
            await ws.send(json.dumps({"v": 1, "type": "join", "room": room, "token": token}))
            async for raw in ws:
                if stop.is_set():
                    break
                now = time.monotonic()
                message = json.loads(raw)
                if message["type"] == "error":
                    tally.errors[message["code"]] = tally.errors.get(message["code"], 0) + 1
                    pending = None
                    continue
                if message["type"] != "state":
                    continue
                if pending is not None and message["state"] > pending[0]:
                    if tally.inside(pending[1]):
                        tally.latencies.append(now - pending[1])
                    pending = None
                if tally.inside(now):
                    tally.computer_moves += sum(
                        1 for e in message["events"] if e.get("kind") == "play" and e.get("seat") != 0
                    )
                latest = message
                mine = bool(message["legal"]) or message["status"] == "finished"
                if mine and pending is None and (acting is None or acting.done()):
                    acting = asyncio.create_task(act(ws, message, first))
                    first = False
    except (ConnectionClosed, OSError):
        if not stop.is_set():
            tally.closed += 1
    finally:
        if acting is not None:
            acting.cancel()


# -- the idle ping socket (its own process) ----------------------------------------------------------------
def pinger(ws_url: str, start: float, end: float, out: Any) -> None:
    """Ping every 50 ms between the monotonic times ``start`` and ``end``; send the round trips to ``out``."""

    async def run() -> list[float]:
        trips: list[float] = []
        async with connect(ws_url, ping_interval=None, open_timeout=60) as ws:
            await asyncio.sleep(max(0.0, start - time.monotonic()))
            tick = time.monotonic()
            while tick < end:
                sent = time.monotonic()
                await ws.send('{"v": 1, "type": "ping"}')
                while json.loads(await ws.recv())["type"] != "pong":
                    pass
                trips.append(time.monotonic() - sent)
                tick = max(tick + PING_EVERY, time.monotonic())  # after a stall: on, not a burst
                await asyncio.sleep(max(0.0, tick - time.monotonic()))
        return trips

    out.send(asyncio.run(run()))
    out.close()


# -- the run -----------------------------------------------------------------------------------------------
async def create_rooms(base: str, args: argparse.Namespace) -> list[tuple[str, str]]:
    made: list[tuple[str, str]] = []
    limit = asyncio.Semaphore(8)
    body = {"players": args.players, "level": args.level}
    if args.rules:
        body["rules"] = {"preset": args.rules}

    async def one(client: httpx.AsyncClient) -> None:
        async with limit:
            answer = await client.post(f"{base}/api/rooms", json=body)
            if answer.status_code != 200:
                raise SystemExit(f"POST /api/rooms answered {answer.status_code}: {answer.text}")
            data = answer.json()
            made.append((data["room"], data["token"]))

    async with httpx.AsyncClient(timeout=60) as client:
        await asyncio.gather(*(one(client) for _ in range(args.rooms)))
    return made


async def drive(base: str, args: argparse.Namespace, pid: int) -> dict[str, Any]:
    rooms = await create_rooms(base, args)
    ws_url = base.replace("http", "ws", 1) + "/ws"
    tally = Tally()
    stop = asyncio.Event()
    rng = random.Random(args.seed)
    tasks = [
        asyncio.create_task(person(ws_url, room, token, args.think, random.Random(rng.random()), tally, stop))
        for room, token in rooms
    ]
    start = time.monotonic() + args.warmup
    end = start + args.seconds
    receiver, sender = multiprocessing.Pipe(duplex=False)
    ping_proc = multiprocessing.get_context("spawn").Process(
        target=pinger, args=(ws_url, start, end, sender), daemon=True
    )
    ping_proc.start()
    await asyncio.sleep(max(0.0, start - time.monotonic()))
    tally.start, tally.end = start, end
    before = cpu_sample(pid)
    load_before = os.getloadavg()
    await asyncio.sleep(max(0.0, end - time.monotonic()))
    after = cpu_sample(pid)
    got = await asyncio.to_thread(receiver.poll, 30)
    trips: list[float] = receiver.recv() if got else []
    ping_proc.join(10)
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    wall = after.at - before.at
    busy = (after.machine[0] - before.machine[0]) / max(1, after.machine[1] - before.machine[1])
    children = sum(after.children.get(c, 0.0) - before.children.get(c, 0.0) for c in after.children)
    return {
        "rooms": args.rooms,
        "players": args.players,
        "level": args.level,
        "think": list(args.think),
        "bot_delay": args.bot_delay,
        "workers": args.workers,
        "seconds": round(wall, 1),
        "move_latency_ms": summary(tally.latencies),
        "ping_ms": summary(trips),
        "person_moves_per_s": round(len(tally.latencies) / wall, 1),
        "computer_moves_per_s": round(tally.computer_moves / wall, 1),
        "mesas_finished": tally.mesas,
        "errors": tally.errors,
        "sockets_closed": tally.closed,
        "server_cpu_pct": round(100 * (after.server - before.server) / wall, 1),
        "workers_cpu_pct": round(100 * children / wall, 1),
        "driver_cpu_pct": round(100 * (after.me - before.me) / wall, 1),
        "machine_busy_pct": round(100 * busy * (os.cpu_count() or 1), 1),
        "loadavg_before": [round(x, 2) for x in load_before],
        "loadavg_after": [round(x, 2) for x in os.getloadavg()],
        "window": (start, end),
    }


def gc_summary(path: Path, start: float, end: float) -> dict[str, Any]:
    """Per generation: collections in the window, their longest pause and their total (wall ms)."""
    found: dict[str, Any] = {}
    if not path.exists():
        return found
    for line in path.read_text().splitlines():
        at, generation, wall, cpu, _ = line.split()
        if not start <= float(at) < end:
            continue
        entry = found.setdefault(
            f"gen{generation}", {"n": 0, "max_ms": 0.0, "max_cpu_ms": 0.0, "sum_ms": 0.0}
        )
        entry["n"] += 1
        entry["max_ms"] = max(entry["max_ms"], float(wall))
        entry["max_cpu_ms"] = max(entry["max_cpu_ms"], float(cpu))
        entry["sum_ms"] = round(entry["sum_ms"] + float(wall), 1)
    return dict(sorted(found.items()))


def think_range(text: str) -> tuple[float, float]:
    """``"1-3"`` → (1.0, 3.0); ``"2"`` → (2.0, 2.0)."""
    low, _, high = text.partition("-")
    lo, hi = float(low), float(high or low)
    if not 0 <= lo <= hi:
        raise argparse.ArgumentTypeError(f"think time {text!r}: write MIN-MAX seconds, 0 <= MIN <= MAX")
    return lo, hi


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=8, help="rooms, one scripted person each (default 8)")
    parser.add_argument("--players", type=int, choices=(2, 4), default=2)
    parser.add_argument("--level", default="facil", help="computer level (default facil)")
    parser.add_argument("--rules", default="", help="a rules preset (default: the server's)")
    parser.add_argument("--think", type=think_range, default=(1.0, 3.0), help="person think time, s (1-3)")
    parser.add_argument("--seconds", type=float, default=60.0, help="measuring window (default 60)")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring (default 5)")
    parser.add_argument("--bot-delay", type=float, default=0.05, help="--bot-delay of the server (0.05)")
    parser.add_argument("--workers", type=int, default=None, help="--workers of the server (its default)")
    parser.add_argument("--serve-arg", action="append", default=[], help="another option for cuarenta serve")
    parser.add_argument("--gc-trace", action="store_true", help="trace the server's garbage collections")
    parser.add_argument(
        "--no-gc-policy", action="store_true", help="with --gc-trace: run the server without its GcPolicy"
    )
    parser.add_argument(
        "--keep-trace", type=Path, help="with --gc-trace: write the window's collections here"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the persons' choices")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    if not 1 <= args.rooms <= 2000 or not 1 <= args.seconds <= 1800:
        parser.error("--rooms must be 1..2000 and --seconds 1..1800")
    with served(args, "cuarenta-load-") as server:
        proc = server.proc
        figures = asyncio.run(drive(server.base, args, proc.pid))
        log = server.stop()
        window = figures.pop("window")
        trace = gc_summary(server.dir / "gc.trace", *window)
        if args.keep_trace and (server.dir / "gc.trace").exists():
            lines = (server.dir / "gc.trace").read_text().splitlines()
            args.keep_trace.write_text(
                "".join(f"{line}\n" for line in lines if window[0] <= float(line.split()[0]) < window[1])
            )
    if args.gc_trace:
        figures["gc_policy"] = not args.no_gc_policy
        figures["gc"] = trace
    figures["server_exit"] = proc.returncode
    figures["python"] = platform.python_version()
    figures["cpus"] = os.cpu_count()
    if "Traceback" in log:
        figures["server_log_tail"] = log[-2000:]
    print(json.dumps(figures, indent=1))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n")


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        main()
