"""The authority's CPU per move at a table of four people, in-process: apply, store, broadcast, encode.

One 2v2 table of four people (each seat's socket a :class:`~cuarenta.server.authority.model.Connection`)
on a temporary SQLite store; random legal moves are applied through the authority (a new mesa when one is
over), and after each every socket's queued messages are encoded as the server sends them. It prints the
process CPU per move, with the garbage collector paused. Run from the repository root::

    python bench/authority_move.py --moves 1500

To compare with another tree, run it with that tree's ``src`` first on ``PYTHONPATH``. This is a
measurement, not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import tempfile
import time
from pathlib import Path

from cuarenta.rules import Rules
from cuarenta.server.authority.model import Connection
from cuarenta.server.authority.requests import Join
from cuarenta.server.store import Store
from cuarenta.server.thinking import make_thinking
from cuarenta.server.wiring import TableRooms


async def measure(moves: int, seed: int) -> float:
    """CPU seconds per move over ``moves`` random moves."""
    with tempfile.TemporaryDirectory() as d:
        store = Store.in_dir(Path(d), init=True)
        rooms = TableRooms(store, bot_delay=3600, thinking=make_thinking(0))
        room, first, invite = rooms.create_table(rules=Rules.preset("a_todo_rigor", players=4), name="A")
        tokens = [first.token] + [
            rooms.join_table(room.id, invite=invite, name=f"P{i}").token for i in range(3)
        ]
        sockets = []
        for token in tokens:
            conn = Connection()
            rooms.join(conn, Join(room=room.id, token=token))
            sockets.append(conn)

        def drain() -> None:
            for conn in sockets:
                while not conn.queue.empty():
                    message = conn.queue.get_nowait()
                    text = getattr(message, "text", None)  # made once for several sockets
                    if text is None:  # what starlette's send_json does
                        json.dumps(message, ensure_ascii=False, separators=(",", ":"))

        drain()
        rng = random.Random(seed)
        gc.disable()
        start, made = time.process_time(), 0
        while made < moves:
            if room.game.is_over:
                rooms._new_mesa(room)
            else:
                rooms._apply(room, rng.choice(room.game.legal_moves()))
                made += 1
            drain()
        took = time.process_time() - start
        gc.enable()
        await rooms.close()
        store.close()
    return took / moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    per_move = asyncio.run(measure(args.moves, args.seed))
    print(f"{per_move * 1000:.3f} ms CPU per move (apply, store, broadcast to 4 sockets), {args.moves} moves")


if __name__ == "__main__":
    main()
