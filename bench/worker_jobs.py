"""Worker cost: how much CPU a ``cuarenta worker`` spends per computer move, by level.

Starts a throwaway PostgreSQL and Redis (tests/support/cluster.py, loopback, a temporary folder), stores
``--rooms`` tables whose every seat is a computer player of ``--level`` (started, nobody connected), puts
the first job of each on the cluster's stream and runs one :class:`cuarenta.server.worker.MoveWorker` in
this process until ``--moves`` moves are written. Each move is a whole job: read the room from PostgreSQL,
think (the seat's view only), write the move with the compare-and-set, publish its notice and enqueue the
next seat's job. It reports moves per second, this process' CPU per move (``time.process_time``: the
event loop and the thinking thread), the mean thinking time (the worker's ``cuarenta_think_seconds``) and
the rest — the job's own cost around the thinking.

Run from the repository root (figures in docs/scaling.md, "Capacity model")::

    python bench/worker_jobs.py --level facil --players 4 --moves 3000
    python bench/worker_jobs.py --level normal --players 4 --moves 3000
    python bench/worker_jobs.py --level dificil --players 4 --moves 300

This is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from redis.asyncio import Redis

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from cuarenta.game import Game
from cuarenta.rules import Rules
from cuarenta.server.authority.model import TableOptions, mesa_seed, now_text
from cuarenta.server.cluster import JOBS_STREAM
from cuarenta.server.store import RoomRow, SeatRow, Store, dumps
from cuarenta.server.worker import MoveWorker
from support import cluster as cs


def computer_table(store: Store, rules: Rules, level: str) -> tuple[str, int]:
    """Store a started table whose every seat is a computer player; its id and the seat to move."""
    room_id = secrets.token_urlsafe(9)
    seed = secrets.randbelow(2**63)
    when = now_text()
    options = TableOptions(invite=secrets.token_urlsafe(12)[:16], level=level)
    store.insert_room(
        RoomRow(
            id=room_id,
            created=when,
            updated=when,
            players=rules.players,
            level=level,
            rules=dumps(rules.to_dict()),
            seed=dumps(seed),
            mesa=1,
            state=1,
            status="playing",
            mesa_state=1,
            seats=tuple(SeatRow(s, "computer", "", level, None) for s in range(rules.players)),
            table_options=options.to_json(),
            started=True,
        )
    )
    return room_id, Game.new(rules, mesa_seed(seed, 1)).turn


async def run(args: argparse.Namespace, store: Store, redis_url: str) -> dict[str, float]:
    client = Redis.from_url(redis_url)
    worker = MoveWorker(store, client, name="bench", concurrency=args.concurrency)
    rules = Rules(players=args.players)
    await worker.ensure_group()
    for _ in range(args.rooms):
        room_id, seat = computer_table(store, rules, args.level)
        job = {"room": room_id, "version": 0, "seat": seat, "level": args.level, "not_before": 0}
        await client.xadd(JOBS_STREAM, {"job": json.dumps(job)})
    stop = asyncio.Event()
    task = asyncio.create_task(worker.run(stop))
    wall, cpu = time.perf_counter(), time.process_time()
    while worker.played < args.moves:
        await asyncio.sleep(0.05)
        if task.done():
            raise SystemExit(f"the worker stopped: {task.exception()!r}")
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    moves = worker.played
    think = worker.rooms.metrics.sample("cuarenta_think_seconds_sum", level=args.level) or 0.0
    thought = worker.rooms.metrics.sample("cuarenta_think_seconds_count", level=args.level) or 1.0
    stop.set()
    await asyncio.wait_for(task, 30)
    return {
        "moves": moves,
        "moves_per_s": moves / wall,
        "cpu_ms_per_move": cpu / moves * 1000,
        "think_ms_mean": think / thought * 1000,
        "job_ms_besides_thinking": cpu / moves * 1000 - think / thought * 1000,
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", default="facil", help="computer level of every seat (facil)")
    parser.add_argument("--players", type=int, choices=(2, 4), default=4)
    parser.add_argument("--rooms", type=int, default=50, help="tables played at once (50)")
    parser.add_argument("--moves", type=int, default=2000, help="moves to write (2000)")
    parser.add_argument("--concurrency", type=int, default=16, help="jobs in hand at once (16)")
    args = parser.parse_args(argv)
    root = Path(tempfile.mkdtemp(prefix="cuarenta-worker-bench-"))
    pg = cs.Postgres(root, durable=True)
    redis = cs.RedisServer(root)
    try:
        store = Store(pg.url)
        figures = asyncio.run(run(args, store, redis.url))
        store.close()
    finally:
        redis.stop()
        pg.remove()
    print(f"level {args.level}, {args.players} players, {args.rooms} tables, PostgreSQL durable")
    for name, value in figures.items():
        print(f"  {name:26} {value:10.2f}")


if __name__ == "__main__":
    main()
