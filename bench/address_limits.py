"""The attacks of issue 15 on one address against a real ``cuarenta serve`` (docs/operations.md "Limits").

Starts ``cuarenta serve`` on a free loopback port (``--src DIR`` serves another source tree, e.g. an older
version exported with ``git archive``; ``--serve-arg`` passes options) and measures, from 127.0.0.1:

* **sockets**: how many of ``--sockets`` WebSockets opened at once are accepted;
* **messages**: 20 sockets each sending pings just under a socket's own rate (19 a second) for
  ``--seconds``: the pongs answered per second in all;
* **HTTP**: ``POST /api/qr`` (an invite link's QR code) at 7 a second for ``--seconds``: the answers by
  status, and the median and p90 of ``GET /healthz`` asked from another address (127.0.0.2) meanwhile;
* **slow connections**: ``--slow`` connections from 127.0.0.3 each sending one byte of a request head
  every 3 s, ``--slow`` that sent nothing, and ``--slow`` with half-sent headers: how many are still open
  after 15, 30 and 60 s.

    python bench/address_limits.py --seconds 10
    git archive b35b6e7~1 src | tar -x -C /tmp/before && python bench/address_limits.py --src /tmp/before/src

This is a measurement, not a test (tests/test_limits.py holds the tests).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_load import free_port, program

PING = json.dumps({"v": 1, "type": "ping"})


def start(data: Path, args: argparse.Namespace) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    command = [program(), "serve", "--host", "127.0.0.1", "--port", str(port), "--data", str(data)]
    command += ["--workers", "0", "--bot-delay", "0"]
    for extra in args.serve_arg:
        command += extra.split()
    env = dict(os.environ)
    if args.src:
        env["PYTHONPATH"] = str(args.src.resolve())
    proc = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=2).status_code == 200:
                return proc, port
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline or proc.poll() is not None:
            raise SystemExit("the server did not start")
        time.sleep(0.1)


async def sockets(port: int, count: int) -> int:
    """How many of ``count`` sockets opened at once from one address are accepted."""
    opened = []
    accepted = 0
    try:
        for _ in range(count):
            try:
                ws = await connect(f"ws://127.0.0.1:{port}/ws", open_timeout=20)
            except (InvalidStatus, OSError):
                continue
            opened.append(ws)
            accepted += 1
    finally:
        for ws in opened:
            await ws.close()
    return accepted


async def messages(port: int, seconds: float) -> float:
    """Pongs a second answered to 20 sockets of one address, each pinging 19 times a second."""
    answered = 0

    async def one() -> None:
        nonlocal answered
        with contextlib.suppress(ConnectionClosed, OSError, InvalidStatus):
            async with connect(f"ws://127.0.0.1:{port}/ws") as ws:

                async def read() -> None:
                    nonlocal answered
                    with contextlib.suppress(ConnectionClosed):
                        async for message in ws:
                            if json.loads(message)["type"] == "pong":
                                answered += 1

                reader = asyncio.create_task(read())
                end = time.monotonic() + seconds
                while time.monotonic() < end:
                    await ws.send(PING)
                    await asyncio.sleep(1 / 19)
                await asyncio.sleep(0.5)
                reader.cancel()

    start_at = time.monotonic()
    await asyncio.gather(*(one() for _ in range(20)))
    return answered / (time.monotonic() - start_at)


async def http_flood(port: int, seconds: float) -> tuple[dict[int, int], list[float]]:
    """POST /api/qr at 7 a second from 127.0.0.1; /healthz from 127.0.0.2 every 0.1 s meanwhile."""
    codes: dict[int, int] = {}
    health: list[float] = []
    text = {"text": "x" * 1000}  # the longest text /api/qr draws
    base = f"http://127.0.0.1:{port}"

    async def flood() -> None:
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            end = time.monotonic() + seconds

            async def one() -> None:
                try:
                    code = (await http.post("/api/qr", json=text)).status_code
                except httpx.TransportError:
                    code = 0
                codes[code] = codes.get(code, 0) + 1

            tasks = []
            while time.monotonic() < end:
                tasks.append(asyncio.create_task(one()))
                await asyncio.sleep(1 / 7)
            await asyncio.gather(*tasks)

    async def probe() -> None:
        transport = httpx.AsyncHTTPTransport(local_address="127.0.0.2")
        async with httpx.AsyncClient(base_url=base, timeout=30, transport=transport) as http:
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                t = time.perf_counter()
                await http.get("/healthz")
                health.append((time.perf_counter() - t) * 1000)
                await asyncio.sleep(0.1)

    await asyncio.gather(flood(), probe())
    return codes, health


def slow(port: int, count: int) -> dict[str, list[int]]:
    """Still-open counts after 15, 30 and 60 s of slowloris, silent and half-sent connections."""
    kinds: dict[str, list[socket.socket]] = {"slowloris": [], "silent": [], "half headers": []}
    for kind, conns in kinds.items():
        for _ in range(count):
            conn = socket.create_connection(("127.0.0.1", port), source_address=("127.0.0.3", 0))
            conn.setblocking(False)
            if kind == "half headers":
                conn.send(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            conns.append(conn)
    head = b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 1000
    open_at: dict[str, list[int]] = {kind: [] for kind in kinds}
    start_at = time.monotonic()
    sent = 0
    for mark in (15, 30, 60):
        while time.monotonic() - start_at < mark:
            for conn in kinds["slowloris"]:
                with contextlib.suppress(OSError):
                    conn.send(head[sent : sent + 1])
            sent += 1
            time.sleep(3)
        for kind, conns in kinds.items():
            still = 0
            for conn in conns:
                try:
                    data = conn.recv(4096)
                    while data:  # an answer (408) before the close
                        data = conn.recv(4096)
                except BlockingIOError:
                    still += 1  # nothing to read and not closed
                except OSError:
                    pass
            open_at[kind].append(still)
    for conns in kinds.values():
        for conn in conns:
            conn.close()
    return open_at


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--src", type=Path, help="serve this source tree (PYTHONPATH)")
    ap.add_argument("--serve-arg", action="append", default=[], help="another option for cuarenta serve")
    ap.add_argument("--sockets", type=int, default=500)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--slow", type=int, default=200, help="connections of each slow kind")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        proc, port = start(Path(tmp) / "data", args)
        try:
            print(f"sockets: {asyncio.run(sockets(port, args.sockets))} of {args.sockets} accepted")
            time.sleep(2)
            print(f"messages: {asyncio.run(messages(port, args.seconds)):.0f} pongs/s answered to 20 sockets")
            time.sleep(2)
            codes, health = asyncio.run(http_flood(port, args.seconds))
            health.sort()
            print(
                f"HTTP: /api/qr at 7/s answered {dict(sorted(codes.items()))}; /healthz median "
                f"{statistics.median(health):.1f} ms, p90 {health[int(len(health) * 0.9)]:.1f} ms"
            )
            for kind, counts in slow(port, args.slow).items():
                print(f"{kind}: open after 15/30/60 s: {counts[0]}/{counts[1]}/{counts[2]} of {args.slow}")
        finally:
            proc.terminate()
            proc.wait(timeout=20)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
