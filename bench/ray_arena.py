"""The arena on one core, on worker processes and on local Ray workers; Ray's per-task overhead.

Run from the repository root (the ``research`` extra installed)::

    PYTHONPATH=src python bench/ray_arena.py                       # facil vs facil, 2000 chicas
    PYTHONPATH=src python bench/ray_arena.py --a normal --b normal --chicas 400
    PYTHONPATH=src python bench/ray_arena.py --workers 2 --tiny 2000 --json

It prints, for the same match (same seed, checked equal): chicas per second in one process, with
``--workers`` worker processes (stdlib), and on a local Ray with ``--workers`` CPUs (Ray tasks), with
the parallel efficiency (rate / (workers × one-core rate)); then Ray's cost of a task, measured with
``--tiny`` tasks that do nothing: submitted all at once (throughput: the driver's and scheduler's
cost per task) and one after another (latency of one round trip). Figures go to docs/research.md.
This is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from typing import Any

from cuarenta.players.arena import run_match
from cuarenta.players.pools import ProcessPool, RayPool, SerialPool


def _nothing(x: int) -> int:
    return x


def match_rate(a: str, b: str, chicas: int, seed: int, pool: Any) -> tuple[float, dict[str, Any]]:
    start = time.perf_counter()
    result = run_match(a, b, chicas, seed=seed, pool=pool)
    seconds = time.perf_counter() - start
    return seconds, result.to_dict(timings=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", default="facil")
    parser.add_argument("--b", default="facil")
    parser.add_argument("--chicas", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--tiny", type=int, default=2000, help="no-op Ray tasks for the overhead")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    import ray

    out: dict[str, Any] = {
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}",
        "ray": ray.__version__,
        "match": f"{args.a} vs {args.b}, {args.chicas} chicas, seed {args.seed}",
    }
    one, expected = match_rate(args.a, args.b, args.chicas, args.seed, SerialPool())
    out["one_core_chicas_per_s"] = round(args.chicas / one, 1)
    procs, got = match_rate(args.a, args.b, args.chicas, args.seed, ProcessPool(args.workers))
    assert got == expected, "worker processes changed the result"
    out["processes_chicas_per_s"] = round(args.chicas / procs, 1)
    out["processes_efficiency"] = round(one / procs / args.workers, 3)

    start = time.perf_counter()
    ray.init(num_cpus=args.workers, include_dashboard=False, log_to_driver=False, configure_logging=False)
    out["ray_start_s"] = round(time.perf_counter() - start, 2)
    try:
        # a first, untimed match starts the workers and imports the engine in them
        run_match(args.a, args.b, 8, seed=args.seed + 1, pool=RayPool(workers=args.workers))
        on_ray, got = match_rate(args.a, args.b, args.chicas, args.seed, RayPool(workers=args.workers))
        assert got == expected, "Ray changed the result"
        out["ray_chicas_per_s"] = round(args.chicas / on_ray, 1)
        out["ray_efficiency"] = round(one / on_ray / args.workers, 3)

        remote = ray.remote(_nothing)
        ray.get([remote.remote(i) for i in range(100)])  # warm
        start = time.perf_counter()
        ray.get([remote.remote(i) for i in range(args.tiny)])
        out["ray_task_throughput_ms"] = round((time.perf_counter() - start) / args.tiny * 1000, 3)
        n = max(1, args.tiny // 10)
        start = time.perf_counter()
        for i in range(n):
            ray.get(remote.remote(i))
        out["ray_task_round_trip_ms"] = round((time.perf_counter() - start) / n * 1000, 3)
    finally:
        ray.shutdown()
    if args.json:
        print(json.dumps(out))
    else:
        for key, value in out.items():
            print(f"{key}: {value}")


if __name__ == "__main__":
    main()
