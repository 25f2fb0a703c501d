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
* the server process's **CPU** (from ``/proc``) and **memory** (its resident set at the end).

Run from the repository root (loopback only; bounded by ``--tables`` and ``--seconds``)::

    python bench/tables_load.py --tables 200 --players 2 --think 1-3 --seconds 60
    python bench/tables_load.py --tables 100 --players 4 --think 1-3 --seconds 60

Figures are recorded in docs/performance.md. This is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import random
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_load import cpu_sample, gc_summary, start_server, stop_server, summary, think_range


@dataclass
class Table:
    """One table: its room, its people's tokens, when each move on it was sent, the highest state seen."""

    room: str
    tokens: list[str]
    sent: dict[int, float] = field(default_factory=dict)  #: state a move was made on → monotonic time
    acknowledged: int = 0


@dataclass
class Tally:
    start: float = 0.0
    end: float = float("inf")
    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    mesas: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    closed: int = 0

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
) -> None:
    """One person at a table: on its turn think, then move; after a mesa, ask for a rematch."""
    latest: dict[str, Any] = {}
    acting: asyncio.Task[None] | None = None

    async def act(ws: ClientConnection, message: dict[str, Any]) -> None:
        await asyncio.sleep(rng.uniform(*think))
        if stop.is_set() or latest.get("state") != message["state"]:
            return
        if message["status"] == "finished":
            await ws.send(json.dumps({"v": 1, "type": "rematch"}))
            return
        table.sent[message["state"]] = time.monotonic()
        tally.moves += 1
        move = rng.choice(message["legal"])
        await ws.send(json.dumps({"v": 1, "type": "move", "move": move, "state": message["state"]}))

    try:
        async with connect(ws_url, max_size=2**22, ping_interval=None, open_timeout=60) as ws:
            await ws.send(json.dumps({"v": 1, "type": "join", "room": table.room, "token": token}))
            async for raw in ws:
                if stop.is_set():
                    break
                now = time.monotonic()
                message = json.loads(raw)
                if message["type"] == "error":
                    tally.errors[message["code"]] = tally.errors.get(message["code"], 0) + 1
                    continue
                if message["type"] != "state":
                    continue
                sent = table.sent.get(message["state"] - 1)
                if sent is not None and tally.inside(sent):
                    tally.latencies.append(now - sent)
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
    async with connect(ws_url, max_size=2**22, open_timeout=60) as ws:
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


async def drive(base: str, args: argparse.Namespace, pid: int) -> dict[str, Any]:
    tables = await create_tables(base, args)
    ws_url = base.replace("http", "ws", 1) + "/ws"
    tally = Tally()
    stop = asyncio.Event()
    rng = random.Random(args.seed)
    tasks = [
        asyncio.create_task(person(ws_url, t, token, args.think, random.Random(rng.random()), tally, stop))
        for t in tables
        for token in t.tokens
    ]
    start = time.monotonic() + args.warmup
    end = start + args.seconds
    await asyncio.sleep(max(0.0, start - time.monotonic()))
    tally.start, tally.end = start, end
    before = cpu_sample(pid)
    await asyncio.sleep(max(0.0, end - time.monotonic()))
    after = cpu_sample(pid)
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await asyncio.sleep(1)  # moves in flight are answered or refused
    stored = await asyncio.gather(*(stored_state(ws_url, t) for t in tables))
    lost = sum(max(0, t.acknowledged - s) for t, s in zip(tables, stored, strict=True))
    wall = after.at - before.at
    return {
        "tables": args.tables,
        "players": args.players,
        "sockets": len(tasks),
        "think": list(args.think),
        "seconds": round(wall, 1),
        "move_broadcast_latency_ms": summary(tally.latencies),
        "moves_per_s": round(sum(1 for t in tables for s in t.sent.values() if start <= s < end) / wall, 1),
        "mesas_finished": tally.mesas,
        "errors": tally.errors,
        "sockets_closed": tally.closed,
        "lost_moves": lost,
        "server_cpu_pct": round(100 * (after.server - before.server) / wall, 1),
        "server_rss_mb": rss_mb(pid),
        "driver_cpu_pct": round(100 * (after.me - before.me) / wall, 1),
        "window": (start, end),
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50, help="tables, every seat a scripted person (50)")
    parser.add_argument("--players", type=int, choices=(2, 4), default=2)
    parser.add_argument("--rules", default="", help="a rules preset (default: the server's)")
    parser.add_argument("--think", type=think_range, default=(1.0, 3.0), help="think time, s (1-3)")
    parser.add_argument("--seconds", type=float, default=60.0, help="measuring window (default 60)")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring (default 5)")
    parser.add_argument("--workers", type=int, default=0, help="--workers of the server (0: no computer)")
    parser.add_argument("--serve-arg", action="append", default=[], help="another option for cuarenta serve")
    parser.add_argument("--gc-trace", action="store_true", help="trace the server's garbage collections")
    parser.add_argument("--seed", type=int, default=1, help="seed of the people's choices")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    if not 1 <= args.tables <= 2000 or not 1 <= args.seconds <= 1800:
        parser.error("--tables must be 1..2000 and --seconds 1..1800")
    args.bot_delay, args.no_gc_policy = 0.05, False  # what start_server reads besides ours
    with tempfile.TemporaryDirectory(prefix="cuarenta-tables-") as tmp:
        data = Path(tmp) / "data"
        proc, base = start_server(data, args)
        try:
            figures = asyncio.run(drive(base, args, proc.pid))
        except BaseException:
            print((Path(tmp) / "server.log").read_text(errors="replace")[-3000:], file=sys.stderr)
            raise
        finally:
            stop_server(proc)
        log = (Path(tmp) / "server.log").read_text(errors="replace")
        window = figures.pop("window")
        if args.gc_trace:
            figures["gc"] = gc_summary(Path(tmp) / "gc.trace", *window)
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
