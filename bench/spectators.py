"""What a crowd of spectators costs the people at a table (issue 15).

Starts a real ``cuarenta serve`` (this tree's, or another tree's with ``--src``), makes a 1 vs 1 table of
two people, lets ``--spectators`` sockets watch it, then has the two people play ``--moves`` moves. It
prints how many ``table`` messages one person received while the spectators arrived, and the round trip
of a move (the move sent → the mover's next ``state`` received): median and 95th percentile. Run from the
repository root::

    python bench/spectators.py --spectators 300 --moves 40
    python bench/spectators.py --spectators 300 --moves 40 --src /tmp/before/src   # `git archive` of a commit

Figures are recorded in docs/performance.md. This is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from support.ports import free_port


def post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        found: dict[str, Any] = json.loads(answer.read())
        return found


async def until(ws: Any, wanted: Any, seen: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    while True:
        message = json.loads(await ws.recv())
        if seen is not None:
            seen.append(message)
        if wanted(message):
            return message


async def drain(ws: Any) -> None:
    """A spectator reads everything and parses nothing (the driver shares the server's cores)."""
    while True:
        await ws.recv()


async def measure(base: str, spectators: int, moves: int) -> dict[str, Any]:
    made = post(base, "/api/tables", {"name": "Ana", "players": 2, "rules": {"preset": "basico"}})
    url = base.replace("http://", "ws://") + "/ws?room=" + made["room"]
    async with websockets.connect(url, max_size=None) as ana, websockets.connect(url, max_size=None) as beto:
        await ana.send(json.dumps({"v": 1, "type": "join", "room": made["room"], "token": made["token"]}))
        await until(ana, lambda m: m["type"] == "state")
        joined = post(base, f"/api/tables/{made['room']}/join", {"invite": made["invite"], "name": "Beto"})
        await beto.send(json.dumps({"v": 1, "type": "join", "room": made["room"], "token": joined["token"]}))
        state = await until(beto, lambda m: m["type"] == "state" and m["status"] == "playing")
        crowd = []
        seen: list[dict[str, Any]] = []
        reader = asyncio.ensure_future(until(ana, lambda m: False, seen))
        for _ in range(spectators):
            ws = await websockets.connect(url, max_size=None)
            await ws.send(json.dumps({"v": 1, "type": "watch", "room": made["room"]}))
            crowd.append(ws)
        drains = [asyncio.ensure_future(drain(ws)) for ws in crowd]
        await asyncio.sleep(2.5)  # what is due arrives
        reader.cancel()
        tables = sum(1 for m in seen if m["type"] == "table")
        latest: dict[int, dict[str, Any]] = {1: state}
        changed = asyncio.Event()

        async def read(seat: int, ws: Any) -> None:
            while True:
                message = json.loads(await ws.recv())
                if message["type"] == "state":
                    latest[seat] = message
                    changed.set()

        readers = [asyncio.ensure_future(read(0, ana)), asyncio.ensure_future(read(1, beto))]
        await ana.send(json.dumps({"v": 1, "type": "join", "room": made["room"], "token": made["token"]}))
        people = {0: ana, 1: beto}
        times = []
        number = state["state"]
        for _ in range(moves):
            while not (len(latest) == 2 and {m["state"] for m in latest.values()} == {number}):
                changed.clear()
                await changed.wait()
            if latest[0]["status"] != "playing":
                break
            mover = next(seat for seat, m in latest.items() if m["legal"])
            begin = time.perf_counter()
            await people[mover].send(
                json.dumps({"v": 1, "type": "move", "move": latest[mover]["legal"][0], "state": number})
            )
            while latest[mover]["state"] == number:
                changed.clear()
                await changed.wait()
            times.append((time.perf_counter() - begin) * 1000)
            number = latest[mover]["state"]
        for task in readers:
            task.cancel()
        for task in drains:
            task.cancel()
        for ws in crowd:
            await ws.close()
    times.sort()
    return {
        "spectators": spectators,
        "table_messages_to_a_person": tables,
        "moves": len(times),
        "round_trip_ms_median": round(statistics.median(times), 2) if times else None,
        "round_trip_ms_p95": round(times[int(0.95 * (len(times) - 1))], 2) if times else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spectators", type=int, default=300)
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--src", type=Path, help="the src folder of another tree to run the server from")
    args = parser.parse_args()
    port = free_port()
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    if args.src is not None:
        env["PYTHONPATH"] = str(args.src.resolve())
    with tempfile.TemporaryDirectory() as data:
        cmd = [sys.executable, "-m", "cuarenta", "serve", "--port", str(port), "--data", data,
               "--bot-delay", "0", "--workers", "0", "--rooms-per-minute", "0"]  # fmt: skip
        help_text = subprocess.run([*cmd[:4], "--help"], env=env, capture_output=True, text=True).stdout
        if "--max-sockets-per-address" in help_text:  # hundreds of sockets, all from 127.0.0.1
            cmd += [
                "--max-sockets-per-address",
                "0",
                "--address-messages-per-second",
                "0",
                "--http-per-minute",
                "0",
            ]
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(200):
                try:
                    urllib.request.urlopen(base + "/api/health", timeout=1).close()
                    break
                except OSError:
                    time.sleep(0.1)
            print(json.dumps(asyncio.run(measure(base, args.spectators, args.moves))))
        finally:
            proc.terminate()
            proc.wait(timeout=20)


if __name__ == "__main__":
    main()
