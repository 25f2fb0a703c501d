"""The cost of the metrics on a move: ``Rooms._apply`` timed with and without the instrumentation.

``Rooms._apply`` is the whole synchronous step of a move (the engine's play, the store write, the
``state`` messages queued, the computer players kicked); since the metrics it also reads the clock
twice around it and around the store write, observes two histograms and increments a counter. This
script plays ``--moves`` moves (random legal actions of a fixed seed; a finished mesa is followed by the
next) through ``Rooms._apply`` on a fresh SQLite store, each timed with ``time.perf_counter`` and
Python's collector paused, after 50 moves of warm-up. With ``--compare OLD_SRC`` it runs itself in
turn on ``OLD_SRC`` (the ``src`` of a checkout without the metrics, e.g. exported with ``git archive``)
and on this checkout's ``src``, ``--rounds`` times each, so that a busy machine slows both alike, and
prints the median per move of each round. It also times the added metric operations alone
(``timeit``). Run from the repository root::

    .venv/bin/python bench/instrumentation.py                              # this checkout only
    git archive 7d12190 src | tar -x -C /tmp/before                          # the code before
    .venv/bin/python bench/instrumentation.py --compare /tmp/before/src --rounds 5

Figures are recorded in docs/operations.md. This is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import timeit
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"


async def play(moves: int, warmup: int = 50) -> list[float]:
    """Seconds of each of ``moves`` calls of ``Rooms._apply`` after ``warmup`` untimed ones."""
    from cuarenta.rules import Rules
    from cuarenta.server.store import Store
    from cuarenta.server.thinking import make_thinking
    from cuarenta.server.wiring import TableRooms as Rooms

    rng = random.Random(7)
    times: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        store = Store.in_dir(Path(tmp))
        # the computer players wait an hour before moving: every move here is played by the script
        rooms = Rooms(store, bot_delay=3600, thinking=make_thinking(0))
        room, _ = rooms.create(rules=Rules(), level="facil", seed=1, practice=True)
        gc.collect()
        gc.disable()
        try:
            for i in range(warmup + moves):
                if room.game.is_over:
                    rooms._new_mesa(room)
                action = rng.choice(room.game.legal_moves())
                start = time.perf_counter()
                rooms._apply(room, action)
                took = time.perf_counter() - start
                if i >= warmup:
                    times.append(took)
        finally:
            gc.enable()
            await rooms.close()
            store.close()
    return times


def metric_operations(number: int = 100_000) -> float | None:
    """Seconds of the metric operations one move adds (None where there are no metrics)."""
    try:
        from cuarenta.server.ops.metrics import Metrics
    except ImportError:
        return None
    metrics = Metrics(process=False)
    clock = time.perf_counter

    def once() -> None:
        start = clock()
        write = clock()
        metrics.store_write_seconds.observe(clock() - write)
        metrics.move_seconds.observe(clock() - start)
        metrics.moves.labels(by="person").inc()

    return min(timeit.repeat(once, number=number, repeat=5)) / number


def measure(moves: int) -> dict[str, float | None]:
    times = asyncio.run(play(moves))
    import cuarenta

    return {
        "median_us": statistics.median(times) * 1e6,
        "p90_us": statistics.quantiles(times, n=10)[-1] * 1e6,
        "mean_us": statistics.fmean(times) * 1e6,
        "metric_ops_us": None if (ops := metric_operations()) is None else ops * 1e6,
        "instrumented": float(Path(cuarenta.__file__).parent.joinpath("server", "metrics.py").exists()),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--moves", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--compare", metavar="OLD_SRC", help="the src directory of the code before")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # one round, for --compare
    args = parser.parse_args()
    if args.compare is None:
        result = measure(args.moves)
        print(json.dumps(result) if args.json else result)
        return
    rows: dict[str, list[dict[str, float | None]]] = {"before": [], "after": []}
    for _ in range(args.rounds):
        for name, src in (("before", args.compare), ("after", str(SRC))):
            env = dict(os.environ, PYTHONPATH=src)
            out = subprocess.run(
                [sys.executable, __file__, "--moves", str(args.moves), "--json"],
                env=env,
                capture_output=True,
                text=True,
                check=True,
            ).stdout
            rows[name].append(json.loads(out.strip().splitlines()[-1]))
    if any(r["instrumented"] for r in rows["before"]) or not all(r["instrumented"] for r in rows["after"]):
        raise SystemExit("OLD_SRC has the metrics too, or this checkout's src was not the one imported")
    load = os.getloadavg()[0]
    print(f"{args.moves} moves through Rooms._apply per round, {args.rounds} rounds; load average {load:.1f}")
    for name, results in rows.items():
        medians = ", ".join(f"{r['median_us']:.0f}" for r in results)
        means = ", ".join(f"{r['mean_us']:.0f}" for r in results)
        print(f"{name:6}  median per move (µs): {medians}   mean: {means}")
        ops = [r["metric_ops_us"] for r in results if r["metric_ops_us"] is not None]
        if ops:
            print(f"        the metric operations alone (µs per move): {min(ops):.2f} – {max(ops):.2f}")


if __name__ == "__main__":
    main()
