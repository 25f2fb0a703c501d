"""Takeover: a node of a cluster dies and another one takes its sockets over; how long does the survivor's
event loop stop answering meanwhile?

Starts PostgreSQL, Redis, two nodes and nginx (tests/support/cluster.py), makes ``--tables`` tables of two
people on node 1 (their sockets straight to it) and plays ``--moves`` moves on each, so that every room
has a log to load; a control table of two people sits on node 2. Then node 1 is SIGKILLed, and every one
of its sockets reconnects through nginx (to node 2, the one left) after half a second, as the page does,
joining with ``since``. Meanwhile, from threads of their own:

* ``/readyz`` of node 2 is asked every 20 ms (each request's time to answer);
* the control table plays a move after another (each move's round trip: sent → its ``state``).

It prints the figures of both during the takeover (from the kill until every socket has its table back,
plus a second) and before it, and how long the takeover took. ``--py-spy FILE`` also records node 2 with
py-spy during the takeover (collapsed stacks, ``--format raw``), to see where its loop spends the time.

Run from the repository root (loopback only; needs PostgreSQL, redis-server and nginx)::

    python bench/takeover.py --tables 40 --moves 12

Figures are recorded in docs/scaling.md ("A node's sockets taken over"). This is a measurement;
tests/test_cluster_edges.py runs a shorter form of it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect as sync_connect

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))
from support import cluster as cs  # noqa: E402


def figures(samples: Sequence[tuple[float, float]], start: float, end: float) -> dict[str, Any]:
    """Count, median, p99 and max (ms) of the samples (sent, took) sent within [start, end)."""
    took = sorted(t for sent, t in samples if start <= sent < end)
    if not took:
        return {"count": 0}
    return {
        "count": len(took),
        "p50_ms": round(statistics.median(took) * 1000, 1),
        "p99_ms": round(took[min(len(took) - 1, int(len(took) * 0.99))] * 1000, 1),
        "max_ms": round(took[-1] * 1000, 1),
    }


class Prober(threading.Thread):
    """Ask ``url`` every ``every`` seconds; keep (sent, seconds to answer)."""

    def __init__(self, url: str, every: float = 0.02) -> None:
        super().__init__(daemon=True)
        self.url, self.every = url, every
        self.samples: list[tuple[float, float]] = []
        self.failed: list[tuple[float, str]] = []
        self.stop = threading.Event()

    def run(self) -> None:
        with httpx.Client(timeout=10) as client:
            while not self.stop.is_set():
                sent = time.monotonic()
                try:
                    client.get(self.url)
                    self.samples.append((sent, time.monotonic() - sent))
                except httpx.HTTPError as exc:
                    self.failed.append((sent, type(exc).__name__))
                self.stop.wait(max(0.0, self.every - (time.monotonic() - sent)))


class Mover(threading.Thread):
    """Two people of one table on one node, moving one after the other: each move's round trip."""

    def __init__(self, base: str, room: str, tokens: list[str]) -> None:
        super().__init__(daemon=True)
        self.base, self.room, self.tokens = base, room, tokens
        self.samples: list[tuple[float, float]] = []
        self.errors: list[str] = []
        self.stop = threading.Event()

    def run(self) -> None:
        address = self.base.replace("http", "ws") + f"/ws?room={self.room}"
        with contextlib.ExitStack() as stack:
            sockets = [
                stack.enter_context(sync_connect(address, origin=self.base, open_timeout=10))
                for _ in self.tokens
            ]
            self._play(sockets)

    def _play(self, sockets: list[Any]) -> None:
        """Join, then move one after the other until stopped."""
        last: list[dict[str, Any]] = []
        for ws, token in zip(sockets, self.tokens, strict=True):
            ws.send(json.dumps({"v": 1, "type": "join", "room": self.room, "token": token}))
            last.append(_until(ws, lambda m: m["type"] == "state"))
        while not self.stop.is_set():
            turn = [i for i, m in enumerate(last) if m["legal"]]
            if not turn:  # a mesa over: a new one
                sockets[0].send(json.dumps({"v": 1, "type": "rematch"}))
                sockets[1].send(json.dumps({"v": 1, "type": "rematch"}))
                last = [
                    _until(ws, lambda m: m["type"] == "state" and m["status"] != "finished") for ws in sockets
                ]
                continue
            i = turn[0]
            state = last[i]["state"]
            sent = time.monotonic()
            sockets[i].send(json.dumps({"v": 1, "type": "move", "state": state, "move": last[i]["legal"][0]}))
            answer = _until(sockets[i], lambda m, s=state: m["type"] == "error" or m["state"] > s)
            if answer["type"] == "error":
                self.errors.append(answer["code"])
                continue
            self.samples.append((sent, time.monotonic() - sent))
            last[i] = answer
            other = 1 - i
            last[other] = _until(
                sockets[other], lambda m, s=answer["state"]: m["type"] == "state" and m["state"] >= s
            )
            self.stop.wait(0.05)


def _until(ws: Any, want: Callable[[dict[str, Any]], bool], seconds: float = 30) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while True:
        message = json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
        if message["type"] in ("state", "error") and want(message):
            return message


async def seat_tables(base: str, tables: int, moves: int) -> list[cs.Person]:
    """``tables`` tables of two people on ``base``, ``moves`` moves played on each: their sockets."""
    people: list[cs.Person] = []

    async def one() -> None:
        room, ana_token, beto_token = await cs.a_table(base)
        ana, beto = cs.Person(base, room, ana_token), cs.Person(base, room, beto_token)
        await ana.open()
        await beto.open()
        for _ in range(moves):  # (fewer if the mesa ends first)
            if not (ana.my_turn() or beto.my_turn()):
                break
            await cs.play_turns([ana, beto], 1)
        people.extend((ana, beto))

    limit = asyncio.Semaphore(8)

    async def bounded() -> None:
        async with limit:
            await one()

    await asyncio.gather(*(bounded() for _ in range(tables)))
    return people


async def take_over(people: list[cs.Person], proxy: str, kill: Callable[[], None]) -> dict[str, Any]:
    """Kill the node, then reconnect every socket through the proxy after 0.5 s (as the page does)."""
    seen = {id(p): p.events for p in people}
    kill()
    killed = time.monotonic()

    async def back(person: cs.Person) -> float:
        with contextlib.suppress(Exception):
            await person.until(lambda m: False, seconds=5)  # its socket closes
        await asyncio.sleep(0.5)
        person.base = proxy
        answer = await person.open(since=seen[id(person)])
        assert answer["type"] == "state", answer
        return time.monotonic() - killed

    times = await asyncio.gather(*(back(p) for p in people))
    return {"killed": killed, "sockets": len(people), "all_back_s": round(max(times), 2)}


async def measure(
    args: argparse.Namespace, one: str, two: str, proxy: str, n1: cs.Process, n2: cs.Process
) -> dict[str, Any]:
    people = await seat_tables(one, args.tables, args.moves)
    control_room, ana, beto = await cs.a_table(two)
    prober = Prober(f"{two}/readyz")
    mover = Mover(two, control_room, [ana, beto])
    prober.start()
    mover.start()
    await asyncio.sleep(3)  # before the takeover
    spy: subprocess.Popen[bytes] | None = None
    if args.py_spy:
        binary = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
        command = [binary, "record", "--pid", str(n2.proc.pid), "--duration", "8", "--rate", "200"]
        spy = subprocess.Popen(
            [*command, "--format", "raw", "--output", str(args.py_spy)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        await asyncio.sleep(1)
    taken = await take_over(people, proxy, n1.kill)
    await asyncio.sleep(1)
    prober.stop.set()
    mover.stop.set()
    prober.join(15)
    mover.join(15)
    if spy is not None:
        spy.wait(30)
    for person in people:
        await person.close()
    killed = taken.pop("killed")
    end = killed + taken["all_back_s"] + 1
    return {
        "tables": args.tables,
        "moves_per_table": args.moves,
        **taken,
        "readyz_before": figures(prober.samples, killed - 3, killed),
        "readyz_during": figures(prober.samples, killed, end),
        "readyz_failed": len(prober.failed),
        "move_before": figures(mover.samples, killed - 3, killed),
        "move_during": figures(mover.samples, killed, end),
        "move_errors": mover.errors,
    }


def run(args: argparse.Namespace) -> dict[str, Any]:
    stops: list[Callable[[], None]] = []
    with tempfile.TemporaryDirectory(prefix="cuarenta-takeover-") as tmp:
        root = Path(tmp)
        try:
            pg = cs.Postgres(root)
            stops.append(pg.remove)
            redis = cs.RedisServer(root)
            stops.append(redis.stop)
            n1, one = cs.start_node(root, "n1", pg, redis)
            stops.append(n1.kill)
            n2, two = cs.start_node(root, "n2", pg, redis)
            stops.append(n2.stop)
            proxy = cs.Nginx(root, [one, two])
            stops.append(proxy.stop)
            return asyncio.run(measure(args, one, two, proxy.base, n1, n2))
        finally:
            for stop in reversed(stops):
                with contextlib.suppress(Exception):
                    stop()


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=40, help="tables of two people on the node that dies")
    parser.add_argument("--moves", type=int, default=12, help="moves played on each before (12)")
    parser.add_argument("--py-spy", type=Path, help="record the survivor with py-spy to this file")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    if not 1 <= args.tables <= 1000:
        parser.error("--tables must be 1..1000")
    result = run(args)
    print(json.dumps(result, indent=1))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        main()
