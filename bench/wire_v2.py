"""What telling a 4-person table of a move costs in protocol 1 and in protocol 2, and the typed messages.

1. **Broadcast**: a 4-seat table (4 people, one socket each, and ``--watchers`` spectators) plays whole
   mesas of random legal moves in this process; after each move ``wire.broadcast`` queues every socket's
   message and the message is encoded as the socket would send it (version 1: ``json.dumps`` of each
   seat's ``state``, spectators sharing one; version 2: the frames are encoded text already). It reports
   the CPU per move (µs, ``time.process_time``) and the bytes per socket per move. Hints: version 1
   always computes them for every seat; version 2 only for sockets that ask (``--hints``).
2. **Types**: encoding one version-2 ``event`` as a msgspec Struct, as a dataclass (``msgspec`` and
   ``orjson``) and as a dict (``json``, ``orjson``, ``msgspec``), µs each.

    python bench/wire_v2.py --mesas 3

This is a measurement, not a test (figures in docs/performance.md, "Protocol 2 (issue 16)").
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import platform
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec
import orjson

from cuarenta.server.authority.model import Connection, SharedMessage
from cuarenta.server.authority.wire import sockets as wire
from cuarenta.server.authority.wire.messages import Event, Frame
from cuarenta.server.edge.version1 import SocketConnection, Version1

sys.path.insert(0, str(Path(__file__).resolve().parent))
from broadcast import table  # a started table of four people


def drain(conn: Connection) -> int:
    """Encode what is queued for a socket as its sender would, and count the bytes."""
    total = 0
    while not conn.queue.empty():
        message = conn.queue.get_nowait()
        text = message.text if isinstance(message, SharedMessage) else json.dumps(message, ensure_ascii=False)
        total += len(text.encode())
    return total


def broadcast(protocol: int, mesas: int, watchers: int, hints: bool, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    cpu = 0.0
    moves = 0
    sent = 0
    sockets = 4 + watchers
    for m in range(mesas):
        room = table(seed + m)
        conns = []
        for s in [0, 1, 2, 3, *[None] * watchers]:
            conn = SocketConnection()  # as the edge makes it: a version-1 socket has its adapter
            conn.room, conn.seat = room, s
            conn.version1 = Version1() if protocol == 1 else None
            room.connections.add(conn)
            conns.append(conn)
            wire.first_message(room, conn, None, hints or protocol == 1)
        for conn in conns:
            drain(conn)
        while not room.game.is_over:
            room.game.play(rng.choice(room.game.legal_moves()))
            room.state += 1
            start = time.process_time()
            wire.broadcast(room)
            size = sum(drain(conn) for conn in conns)
            cpu += time.process_time() - start
            moves += 1
            sent += size
    return {
        "protocol": protocol,
        "sockets": sockets,
        "hints": hints if protocol == 2 else True,
        "moves": moves,
        "cpu_us_per_move": round(1e6 * cpu / moves, 1),
        "bytes_per_socket_per_move": round(sent / moves / sockets),
    }


@dataclasses.dataclass
class EventData:
    type: str
    v: int
    room: str
    version: int
    base: int
    events: list[dict[str, Any]]
    history: int
    view: dict[str, Any]


def types(rounds: int) -> dict[str, float]:
    """µs to encode one event of a real table (the largest of a mesa's first 40)."""
    room = table(7)
    conn = Connection()
    conn.room, conn.seat = room, 0
    room.connections.add(conn)
    wire.first_message(room, conn, None, False)
    rng = random.Random(7)
    texts = []
    for _ in range(40):
        room.game.play(rng.choice(room.game.legal_moves()))
        room.state += 1
        wire.broadcast(room)
        while not conn.queue.empty():
            frame = conn.queue.get_nowait()
            assert isinstance(frame, Frame)
            texts.append(frame.text)
    events = [d for d in map(json.loads, texts) if d["type"] == "event"]
    data = max(events, key=lambda d: len(json.dumps(d)))
    data.pop("private", None)
    fields = {k: data[k] for k in ("room", "version", "base", "events", "history", "view")}
    struct = Event(v=2, **fields)
    dc = EventData(type="event", v=2, **fields)
    encoder = msgspec.json.Encoder()
    cases = {
        "msgspec_struct": lambda: encoder.encode(struct),
        "msgspec_dataclass": lambda: encoder.encode(dc),
        "orjson_dataclass": lambda: orjson.dumps(dc),
        "msgspec_dict": lambda: encoder.encode(data),
        "orjson_dict": lambda: orjson.dumps(data),
        "json_dict": lambda: json.dumps(data, ensure_ascii=False),
        "struct_build_and_encode": lambda: encoder.encode(Event(v=2, **fields)),
        "dataclass_build_and_encode_orjson": lambda: orjson.dumps(EventData(type="event", v=2, **fields)),
    }
    out: dict[str, float] = {"event_bytes": len(encoder.encode(struct))}
    for name, run in cases.items():
        start = time.perf_counter()
        for _ in range(rounds):
            run()
        out[f"{name}_us"] = round(1e6 * (time.perf_counter() - start) / rounds, 2)
    return out


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mesas", type=int, default=3, help="whole mesas per protocol (3)")
    parser.add_argument("--watchers", type=int, default=0, help="spectators' sockets (0)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=20000, help="encodings per type case (20000)")
    args = parser.parse_args(argv)
    figures = {
        "broadcast": [
            broadcast(1, args.mesas, args.watchers, True, args.seed),
            broadcast(2, args.mesas, args.watchers, False, args.seed),
            broadcast(2, args.mesas, args.watchers, True, args.seed),
        ],
        "types": types(args.rounds),
        "python": platform.python_version(),
        "msgspec": msgspec.__version__,
        "orjson": orjson.__version__,
    }
    print(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
