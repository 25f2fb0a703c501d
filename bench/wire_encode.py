"""What encoding the wire costs: the standard library's ``json`` against orjson and msgspec (issue 16).

Starts a real ``cuarenta serve``, seats four scripted people at a 2v2 table, plays one whole mesa with
random legal moves and keeps every frame the four sockets received. Then, for the ``state`` messages
(decoded back to the dicts the server built) it times encoding with ``json.dumps`` (as the server
does today), ``orjson.dumps`` and ``msgspec.json.encode``, and decoding each frame
back, and prints the figures per message and the sizes. Run from the repository root::

    pip install orjson msgspec      # measured here, not dependencies of the project yet
    python bench/wire_encode.py --repeat 200

Figures are recorded in docs/performance.md. This is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_load import start_server, stop_server


async def play_one_mesa(base: str, rng: random.Random) -> list[str]:
    """Every frame the four people's sockets received while they played one mesa."""
    async with httpx.AsyncClient(timeout=30) as client:
        made = (await client.post(f"{base}/api/tables", json={"players": 4, "name": "Ana"})).json()
        tokens = [made["token"]]
        for name in ("Beto", "Carla", "Dario"):
            joined = await client.post(
                f"{base}/api/tables/{made['room']}/join", json={"invite": made["invite"], "name": name}
            )
            tokens.append(joined.json()["token"])
    frames: list[str] = []
    done = asyncio.Event()
    url = base.replace("http", "ws", 1) + "/ws?room=" + made["room"]

    async def person(token: str) -> None:
        async with connect(url, max_size=2**22, ping_interval=None) as ws:
            await ws.send(json.dumps({"v": 1, "type": "join", "room": made["room"], "token": token}))
            while not done.is_set():
                try:
                    raw = await asyncio.wait_for(ws.recv(), 1.0)
                except TimeoutError:
                    continue
                text = raw if isinstance(raw, str) else raw.decode()
                frames.append(text)
                message = json.loads(text)
                if message["type"] != "state":
                    continue
                if message["status"] == "finished":
                    done.set()
                elif message["legal"]:
                    await asyncio.sleep(0.03)  # within the per-socket message rate
                    move = rng.choice(message["legal"])
                    play = {"v": 1, "type": "move", "move": move, "state": message["state"]}
                    await ws.send(json.dumps(play))

    await asyncio.wait_for(asyncio.gather(*(person(t) for t in tokens)), 600)
    return frames


def per_call_us(run: Callable[[], object], repeat: int) -> float:
    """The median over ``repeat`` rounds of one call's time, in microseconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


def each(run: Callable[[Any], object], items: list[Any]) -> None:
    for item in items:
        run(item)


def measure(frames: list[str], repeat: int) -> dict[str, Any]:
    state_frames = [f for f in frames if json.loads(f)["type"] == "state"]
    states = [json.loads(f) for f in state_frames]
    figures: dict[str, Any] = {
        "frames": len(frames),
        "state_messages": len(states),
        "state_bytes_mean": round(statistics.mean(len(f.encode()) for f in state_frames)),
    }
    encoders: dict[str, Callable[[Any], object]] = {
        "json": lambda m: json.dumps(m, ensure_ascii=False),  # as the server encodes today
    }
    decoders: dict[str, Callable[[str], object]] = {"json": json.loads}
    try:
        import orjson

        encoders["orjson"] = orjson.dumps
        decoders["orjson"] = orjson.loads
    except ImportError:
        print("orjson is not installed: skipped", file=sys.stderr)
    try:
        import msgspec

        encoder = msgspec.json.Encoder()
        decoder = msgspec.json.Decoder()
        encoders["msgspec"] = encoder.encode
        decoders["msgspec"] = decoder.decode
    except ImportError:
        print("msgspec is not installed: skipped", file=sys.stderr)
    texts = [json.dumps(m, ensure_ascii=False) for m in states]
    for name, encode in encoders.items():
        us = per_call_us(functools.partial(each, encode, states), repeat) / len(states)
        figures[f"encode_{name}_us_per_state"] = round(us, 1)
    for name, decode in decoders.items():
        us = per_call_us(functools.partial(each, decode, texts), repeat) / len(texts)
        figures[f"decode_{name}_us_per_state"] = round(us, 1)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=200, help="rounds of each timing (median)")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        serve_args = argparse.Namespace(bot_delay=0.0, workers=None, serve_arg=[], gc_trace=False)
        proc, base = start_server(Path(tmp) / "data", serve_args)
        try:
            frames = asyncio.run(play_one_mesa(base, random.Random(args.seed)))
        finally:
            stop_server(proc)
    figures = measure(frames, args.repeat)
    figures["loadavg"] = [round(x, 2) for x in os.getloadavg()]  # other programs share the cores
    print(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
