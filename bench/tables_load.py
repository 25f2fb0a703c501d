"""Tables load: a real ``cuarenta serve`` process and N tables of scripted people playing each other.

Starts ``cuarenta serve`` on a free loopback port with a temporary data directory, creates ``--tables``
tables through the HTTP API (``POST /api/tables``, every other seat for a friend), seats a scripted
person in every seat through the invite (``POST /api/tables/{room}/join``), and drives each person over
its own WebSocket: on its turn it waits a think time (uniform in ``--think``, a human pace), then plays a
random legal move; after a mesa it sends ``rematch``. It measures, inside a window after a warm-up:

* **move → broadcast latency**: from the mover sending a move to each socket of the table (the mover's
  and the others') receiving the ``state`` that follows — every delivery counts;
* **errors** the server answered, and sockets closed by the server;
* **lost moves**: after the run, every table is joined again and its ``state`` number compared with the
  highest one any of its people saw acknowledged (a move is acknowledged only once stored): a table behind
  it lost moves;
* **bytes on the wire**: the mean size of a ``state`` message (with ``--protocol 2``: of a version-2
  ``event``) and every frame's bytes per socket per
  move (a move is answered with a ``state`` to each socket of its table);
* the server process's **CPU** (from ``/proc``) and **memory** (its resident set at the end).

Run from the repository root (loopback only; bounded by ``--tables`` and ``--seconds``)::

    python bench/tables_load.py --tables 200 --players 2 --think 1-3 --seconds 60
    python bench/tables_load.py --tables 100 --players 4 --think 1-3 --seconds 60

With ``--url http://127.0.0.1:PORT`` it drives a server that is already running (a node, or nginx in
front of several) instead of starting one, and samples the CPU of the processes named by ``--pids``
(component ``server``) and ``--component NAME=PID,PID…`` (repeatable: ``worker``, ``postgres``, ``redis``,
``nginx`` …; each process counts with everything below it, e.g. PostgreSQL's postmaster with its backends).
Per component it reports the CPU seconds over the window, the share of one core, and the **CPU per
acknowledged move** (ms)::

    python bench/tables_load.py --url http://127.0.0.1:8080 --pids 4101,4102 \
        --component postgres=3990 --component redis=3995 --component nginx=4090 --tables 100

With ``--profile FILE`` the server it starts runs a cProfile over the window (bench/profiler), written to
FILE for ``python -m pstats FILE``; the profiler slows the server, so that run's figures are not a
measurement.

bench/cluster_load.py runs the same load against one process and against clusters of 1–3 nodes.

Figures are recorded in docs/performance.md. This is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import platform
import random
import signal
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_load import (
    cpu_sample,
    descendants,
    gc_summary,
    served,
    summary,
    think_range,
    tree_cpu_seconds,
)


@dataclass
class Table:
    """One table: its room, its people's tokens, when each move on it was sent, the highest state seen."""

    room: str
    tokens: list[str]
    sent: dict[int, float] = field(default_factory=dict)  #: state a move was made on → monotonic time
    acknowledged: int = 0
    answered: set[int] = field(default_factory=set)  #: states of the moves in the window that were stored


@dataclass
class Tally:
    start: float = 0.0
    end: float = float("inf")
    latencies: list[float] = field(default_factory=list)
    sent_at: list[float] = field(default_factory=list)  #: when the move of each latency was sent
    moves: int = 0
    mesas: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    closed: int = 0
    frames: int = 0  #: every frame the people's sockets received inside the window
    frame_bytes: int = 0
    states: int = 0  #: of them, the ``state`` messages (one per socket per move)
    state_bytes: int = 0

    def inside(self, t: float) -> bool:
        return bool(self.start) and self.start <= t < self.end


async def create_tables(base: str, args: argparse.Namespace) -> list[Table]:
    tables: list[Table] = []
    limit = asyncio.Semaphore(8)
    body: dict[str, Any] = {"players": args.players, "name": "Ana", "grace": 600}
    if args.rules:
        body["rules"] = {"preset": args.rules}

    async def one(client: httpx.AsyncClient) -> None:
        async with limit:
            made = (await client.post(f"{base}/api/tables", json=body)).json()
            tokens = [made["token"]]
            for n in range(args.players - 1):
                joined = await client.post(
                    f"{base}/api/tables/{made['room']}/join", json={"invite": made["invite"], "name": f"P{n}"}
                )
                if joined.status_code != 200:
                    raise SystemExit(f"join answered {joined.status_code}: {joined.text}")
                tokens.append(joined.json()["token"])
            tables.append(Table(made["room"], tokens))

    async with httpx.AsyncClient(timeout=60) as client:
        await asyncio.gather(*(one(client) for _ in range(args.tables)))
    return tables


async def person(
    ws_url: str,
    table: Table,
    token: str,
    think: tuple[float, float],
    rng: random.Random,
    tally: Tally,
    stop: asyncio.Event,
    protocol: int = 1,
) -> None:
    """One person at a table: on its turn think, then move; after a mesa, ask for a rematch. With
    ``protocol`` 2 it joins in version 2 (docs/protocol.md) and follows the snapshot and events."""
    latest: dict[str, Any] = {}
    seen: dict[str, Any] = {"status": "playing", "legal": []}  # version 2: what the events told so far
    acting: asyncio.Task[None] | None = None

    async def act(ws: ClientConnection, message: dict[str, Any]) -> None:
        await asyncio.sleep(rng.uniform(*think))
        if stop.is_set() or latest.get("state") != message["state"]:
            return
        if message["status"] == "finished":
            await ws.send(json.dumps({"v": protocol, "type": "rematch"}))
            return
        table.sent[message["state"]] = time.monotonic()
        tally.moves += 1
        move = rng.choice(message["legal"])
        await ws.send(json.dumps({"v": protocol, "type": "move", "move": move, "state": message["state"]}))

    try:
        # the room in the address, as the page puts it (a cluster's proxy keeps a table on one node)
        address = f"{ws_url}?room={table.room}"
        async with connect(address, max_size=2**22, ping_interval=None, open_timeout=60) as ws:
            await ws.send(json.dumps({"v": protocol, "type": "join", "room": table.room, "token": token}))
            async for raw in ws:
                if stop.is_set():
                    break
                now = time.monotonic()
                message = json.loads(raw)
                if protocol == 2 and message["type"] in ("snapshot", "event", "resumed"):
                    seen["status"] = message.get("status", seen["status"])
                    if message.get("private") is not None:
                        seen["legal"] = message["private"]["legal"]
                    message = {"type": "state", "state": message["version"], "wire": message["type"], **seen}
                if tally.inside(now):
                    size = len(raw.encode() if isinstance(raw, str) else raw)
                    tally.frames += 1
                    tally.frame_bytes += size
                    if message["type"] == "state":
                        tally.states += 1
                        tally.state_bytes += size
                if message["type"] == "error":
                    tally.errors[message["code"]] = tally.errors.get(message["code"], 0) + 1
                    continue
                if message["type"] != "state":
                    continue
                sent = table.sent.get(message["state"] - 1)
                if sent is not None and tally.inside(sent):
                    tally.latencies.append(now - sent)
                    tally.sent_at.append(sent)
                    table.answered.add(message["state"] - 1)
                table.acknowledged = max(table.acknowledged, message["state"])
                if message["status"] == "finished" and message["state"] > latest.get("state", -1):
                    tally.mesas += token == table.tokens[0]
                latest = message
                mine = bool(message["legal"]) or message["status"] == "finished"
                if mine and (acting is None or acting.done()):
                    acting = asyncio.create_task(act(ws, message))
    except (ConnectionClosed, OSError):
        if not stop.is_set():
            tally.closed += 1
    finally:
        if acting is not None:
            acting.cancel()


async def stored_state(ws_url: str, table: Table) -> int:
    """The table's state number as the server has it now (a fresh join)."""
    async with connect(f"{ws_url}?room={table.room}", max_size=2**22, open_timeout=60) as ws:
        await ws.send(json.dumps({"v": 1, "type": "join", "room": table.room, "token": table.tokens[0]}))
        while True:
            message = json.loads(await ws.recv())
            if message["type"] == "state":
                return int(message["state"])


def rss_mb(pid: int) -> float:
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def pss_mb(pids: Sequence[int]) -> float:
    """Proportional set size of some processes and those below them (shared pages counted once), MB."""
    total = 0
    for pid in {p for root in pids for p in (root, *descendants(root))}:
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1])
    return round(total / 1024, 1)


def component_figures(
    components: dict[str, list[int]],
    before: dict[str, float],
    after: dict[str, float],
    wall: float,
    moves: int,
) -> dict[str, dict[str, float]]:
    """Per component: CPU seconds in the window, % of one core, ms of CPU per acknowledged move, PSS."""
    figures: dict[str, dict[str, float]] = {}
    for name, pids in components.items():
        spent = after[name] - before[name]
        figures[name] = {
            "cpu_s": round(spent, 2),
            "cpu_pct": round(100 * spent / wall, 1),
            "cpu_ms_per_move": round(1000 * spent / moves, 3) if moves else 0.0,
            "pss_mb": pss_mb(pids),
        }
    return figures


async def drive(
    base: str,
    args: argparse.Namespace,
    pid: int | None,
    components: dict[str, list[int]] | None = None,
) -> dict[str, Any]:
    """Create the tables, play them for the warm-up and the window, then count the lost moves.

    ``pid``: the server this script started (its CPU and RSS as ``server_…``); ``components``: processes
    to sample by name (see the module's doc), reported under ``components``.
    """
    tables = await create_tables(base, args)
    ws_url = base.replace("http", "ws", 1) + "/ws"
    tally = Tally()
    stop = asyncio.Event()
    rng = random.Random(args.seed)
    tasks = [
        asyncio.create_task(
            person(ws_url, t, token, args.think, random.Random(rng.random()), tally, stop, args.protocol)
        )
        for t in tables
        for token in t.tokens
    ]
    start = time.monotonic() + args.warmup
    end = start + args.seconds
    await asyncio.sleep(max(0.0, start - time.monotonic()))
    frozen = not getattr(args, "driver_gc", False)  # bench/cluster_load.py has no such option
    if frozen:
        # the driver's own long-lived objects (4,000 sockets' tasks and buffers at 1,000 tables) out of its
        # collector's reach, as the server's gcpolicy does: its full collections paused it for seconds,
        # and a paused driver offers fewer moves and times the server's answers late
        gc.collect()
        gc.freeze()
    pauses = DriverPauses()
    gc.callbacks.append(pauses.callback)
    profiling = pid is not None and getattr(args, "profile", None) is not None
    if profiling:  # bench/profiler: the server's cProfile over the window
        os.kill(pid, signal.SIGUSR1)
    tally.start, tally.end = start, end
    components = components or {}
    load_before = os.getloadavg()
    before = cpu_sample(pid if pid is not None else os.getpid())
    spent_before = {name: tree_cpu_seconds(pids) for name, pids in components.items()}
    await asyncio.sleep(max(0.0, end - time.monotonic()))
    spent_after = {name: tree_cpu_seconds(pids) for name, pids in components.items()}
    after = cpu_sample(pid if pid is not None else os.getpid())
    if profiling:
        os.kill(pid, signal.SIGUSR2)
    gc.callbacks.remove(pauses.callback)
    load_after = os.getloadavg()
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await asyncio.sleep(args.settle)  # moves in flight are answered or refused
    stored = await asyncio.gather(*(stored_state(ws_url, t) for t in tables))
    lost = sum(max(0, t.acknowledged - s) for t, s in zip(tables, stored, strict=True))
    wall = after.at - before.at
    acknowledged = sum(len(t.answered) for t in tables)
    moved = sum(1 for t in tables for s in t.sent.values() if start <= s < end)
    figures: dict[str, Any] = {
        "tables": args.tables,
        "players": args.players,
        "protocol": args.protocol,
        "sockets": len(tasks),
        "think": list(args.think),
        "seconds": round(wall, 1),
        "move_broadcast_latency_ms": summary(tally.latencies),
        "moves_per_s": round(moved / wall, 1),
        "mesas_finished": tally.mesas,
        "errors": tally.errors,
        "sockets_closed": tally.closed,
        "lost_moves": lost,
        # what the wire costs: a move is one ``state`` to each socket of its table
        "state_bytes_mean": round(tally.state_bytes / max(1, tally.states)),
        "bytes_per_socket_per_move": round(tally.frame_bytes / max(1, moved * args.players)),
    }
    if pid is not None:
        figures["server_cpu_pct"] = round(100 * (after.server - before.server) / wall, 1)
        figures["server_cpu_ms_per_move"] = round(1000 * (after.server - before.server) / max(1, moved), 2)
        figures["server_rss_mb"] = rss_mb(pid)
    figures["driver_cpu_pct"] = round(100 * (after.me - before.me) / wall, 1)
    figures["driver_gc"] = {
        "frozen": frozen,
        "collections": pauses.count,
        "total_ms": round(1000 * pauses.total, 1),
        "longest_ms": round(1000 * pauses.longest, 1),
    }
    if components:
        figures["acknowledged_moves"] = acknowledged
        figures["components"] = component_figures(components, spent_before, spent_after, wall, acknowledged)
        busy = (after.machine[0] - before.machine[0]) / max(1, after.machine[1] - before.machine[1])
        figures["machine_busy_pct"] = round(100 * busy * (os.cpu_count() or 1), 1)
        ours = sum(c["cpu_pct"] for c in figures["components"].values()) + figures["driver_cpu_pct"]
        figures["others_cpu_pct"] = round(max(0.0, figures["machine_busy_pct"] - ours), 1)  # other programs
        figures["slow_by_second"] = slow_by_second(tally, start, end)
        figures["loadavg_before"] = [round(x, 2) for x in load_before]
        figures["loadavg_after"] = [round(x, 2) for x in load_after]
    figures["window"] = (start, end)
    return figures


class DriverPauses:
    """The driver's own garbage collections in the window (a ``gc.callbacks`` entry): how many, how long."""

    def __init__(self) -> None:
        self.count = 0
        self.total = 0.0
        self.longest = 0.0
        self._began = 0.0

    def callback(self, phase: str, _info: dict[str, int]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
            return
        spent = time.perf_counter() - self._began
        self.count += 1
        self.total += spent
        self.longest = max(self.longest, spent)


def slow_by_second(tally: Tally, start: float, end: float) -> list[int]:
    """Deliveries slower than 100 ms, by the second of the window their move was sent in (stalls show)."""
    counts = [0] * max(1, int(end - start + 0.999))
    for sent, latency in zip(tally.sent_at, tally.latencies, strict=True):
        if latency > 0.1:
            counts[min(len(counts) - 1, int(sent - start))] += 1
    return counts


def pid_list(text: str) -> list[int]:
    """``"12,34"`` → [12, 34]."""
    try:
        pids = [int(p) for p in text.split(",") if p.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: write process ids separated by commas") from None
    if not pids:
        raise argparse.ArgumentTypeError("no process id")
    return pids


def component(text: str) -> tuple[str, list[int]]:
    """``"postgres=12,34"`` → ("postgres", [12, 34])."""
    name, equals, pids = text.partition("=")
    if not equals or not name.strip():
        raise argparse.ArgumentTypeError(f"{text!r}: write NAME=PID,PID…")
    return name.strip(), pid_list(pids)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50, help="tables, every seat a scripted person (50)")
    parser.add_argument("--players", type=int, choices=(2, 4), default=2)
    parser.add_argument(
        "--protocol", type=int, choices=(1, 2), default=1, help="the people's protocol version (1)"
    )
    parser.add_argument("--rules", default="", help="a rules preset (default: the server's)")
    parser.add_argument("--think", type=think_range, default=(1.0, 3.0), help="think time, s (1-3)")
    parser.add_argument("--seconds", type=float, default=60.0, help="measuring window (default 60)")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring (default 5)")
    parser.add_argument("--workers", type=int, default=0, help="--workers of the server (0: no computer)")
    parser.add_argument("--serve-arg", action="append", default=[], help="another option for cuarenta serve")
    parser.add_argument("--gc-trace", action="store_true", help="trace the server's garbage collections")
    parser.add_argument(
        "--profile",
        type=Path,
        help="write the server's cProfile over the window to this file (bench/profiler; its CPU and "
        "latency figures are then not a measurement)",
    )
    parser.add_argument(
        "--driver-gc",
        action="store_true",
        help="leave the driver's own collector as Python has it (default: freeze its objects after the "
        "warm-up, so that its pauses do not delay the moves it offers and the answers it times)",
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the people's choices")
    parser.add_argument(
        "--settle", type=float, default=1.0, help="seconds after the window before counting lost moves (1)"
    )
    parser.add_argument("--url", help="drive this running server (http://HOST:PORT) instead of starting one")
    parser.add_argument(
        "--pids", type=pid_list, help="with --url: the server process(es) to sample, PID,PID… (server)"
    )
    parser.add_argument(
        "--component",
        type=component,
        action="append",
        default=[],
        metavar="NAME=PID,PID…",
        help="with --url: more processes to sample, by component (repeatable)",
    )
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    if not 1 <= args.tables <= 2000 or not 1 <= args.seconds <= 1800:
        parser.error("--tables must be 1..2000 and --seconds 1..1800")
    if args.url:
        drive_running(args)
        return
    if args.pids or args.component:
        parser.error("--pids and --component go with --url")
    if args.profile and args.gc_trace:
        parser.error("--profile and --gc-trace each put a sitecustomize before the server: one of them")
    args.bot_delay, args.no_gc_policy = 0.05, False  # what start_server reads besides ours
    with served(args, "cuarenta-tables-") as server:
        figures = asyncio.run(drive(server.base, args, server.proc.pid))
        log = server.stop()
        window = figures.pop("window")
        if args.gc_trace:
            figures["gc"] = gc_summary(server.dir / "gc.trace", *window)
    figures["python"] = platform.python_version()
    figures["cpus"] = os.cpu_count()
    if "Traceback" in log:
        figures["server_log_tail"] = log[-2000:]
    print(json.dumps(figures, indent=1))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n")


def drive_running(args: argparse.Namespace) -> None:
    """The load against a server that is already running (``--url``), sampling the named processes."""
    components: dict[str, list[int]] = {}
    if args.pids:
        components["server"] = list(args.pids)
    for name, pids in args.component:
        components.setdefault(name, []).extend(pids)
    figures = asyncio.run(drive(args.url.rstrip("/"), args, None, components))
    figures.pop("window")
    figures["url"] = args.url
    figures["python"] = platform.python_version()
    figures["cpus"] = os.cpu_count()
    print(json.dumps(figures, indent=1))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n")


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        main()
