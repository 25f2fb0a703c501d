"""Cluster load: the tables load of bench/tables_load.py against one process and against clusters.

Runs the SAME load (``--tables`` tables of ``--players`` scripted people, every seat a person, thinking
``--think`` seconds, measured for ``--seconds`` after ``--warmup``, choices from ``--seed``) one
configuration after another:

``sqlite``
    one ``cuarenta serve`` process with its SQLite file (as bench/tables_load.py runs by default);
``pg-1``
    one node (``serve --database postgresql+psycopg://… --redis redis://… --node node1 --workers 0``)
    over PostgreSQL and Redis, with one ``cuarenta worker`` (the load has no computer seats, so the worker
    idles, but this is the cluster's configuration), driven directly;
``nginx-2``, ``nginx-3``
    two or three nodes (and one worker) behind nginx, which keeps the sockets of a table on one node (the
    deployed configuration: ``hash $arg_room consistent`` on the ``/ws?room=ID`` the page and the driver
    open), so a move is told to its table by the node that wrote it;
``nginx-2-rr``, ``nginx-3-rr``
    the same behind round-robin nginx: the people of one table land on different nodes, so every move goes
    through the Redis fan-out and is applied by every node that holds one of the table's sockets.

Every cluster configuration gets a fresh PostgreSQL, Redis and nginx in a temporary directory, started by
tests/support/cluster.py. PostgreSQL runs **durable** (fsync, synchronous_commit and full_page_writes on,
as a deployment runs; ``--no-durable`` turns them off as the tests do). Besides the figures of
bench/tables_load.py it samples the CPU of every component (the server or nodes, the worker, PostgreSQL's
postmaster with all its processes, Redis, nginx with its workers) and reports the **CPU per acknowledged
move** (ms) of each.

Run from the repository root (loopback only; needs PostgreSQL, redis-server and nginx installed, as
scripts/test.sh does)::

    python bench/cluster_load.py --tables 20 --seconds 10
    python bench/cluster_load.py --tables 250 --players 4 --think 1-3 --seconds 60 --json cluster-250.json

Figures are recorded in docs/performance.md ("Cluster load (issue 10)"). This is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import re
import shutil
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))
from server_load import start_server, stop_server, think_range  # noqa: E402
from support import cluster as cs  # noqa: E402
from tables_load import drive  # noqa: E402

CONFIGS = ("sqlite", "pg-1", "nginx-2", "nginx-3", "nginx-2-rr", "nginx-3-rr")
COMPONENTS = ("server", "worker", "postgres", "redis", "nginx")
#: A cuarenta process's start-up lines (anything else it logs is reported).
STARTUP = re.compile(r"Cuarenta: abre |Partidas guardadas en |cuarenta worker \S+: jobs from ")
#: PostgreSQL's lines worth reporting.
PG_TROUBLE = re.compile(r"\b(WARNING|ERROR|FATAL|PANIC):")
ROOM_ID = re.compile(r"(\broom )[A-Za-z0-9_-]{6,}")


def run_sqlite(root: Path, args: argparse.Namespace) -> dict[str, Any]:
    """(a) One process with its SQLite file."""
    data = root / "data"
    serve = argparse.Namespace(bot_delay=0.05, workers=0, serve_arg=[], gc_trace=False, no_gc_policy=False)
    proc, base = start_server(data, serve)
    try:
        return asyncio.run(drive(base, args, None, {"server": [proc.pid]}))
    finally:
        stop_server(proc)


def run_cluster(
    root: Path, args: argparse.Namespace, nodes: int, proxy: bool, by_room: bool = True
) -> dict[str, Any]:
    """(b)–(d) ``nodes`` nodes and one worker over a fresh PostgreSQL and Redis, behind nginx if ``proxy``."""
    stops: list[Callable[[], None]] = []
    try:
        pg = cs.Postgres(root, durable=args.durable)
        stops.append(pg.stop)
        redis = cs.RedisServer(root)
        stops.append(redis.stop)
        started = []
        for n in range(1, nodes + 1):
            node, base = cs.start_node(root, f"node{n}", pg, redis)
            stops.append(node.stop)
            started.append((node, base))
        worker = cs.start_worker(root, "worker1", pg, redis)
        stops.append(worker.stop)
        components = {
            "server": [node.proc.pid for node, _ in started],
            "worker": [worker.proc.pid],
            "postgres": [pg.pid],
            "redis": [redis.proc.pid] if redis.proc is not None else [],
        }
        base = started[0][1]
        if proxy:
            nginx = cs.Nginx(root, [b for _, b in started], by_room=by_room)
            stops.append(nginx.stop)
            components["nginx"] = [nginx.pid]
            base = nginx.base
        figures = asyncio.run(drive(base, args, None, components))
        dead = [p.log.stem for p in (worker, *(n for n, _ in started)) if not p.alive()]
        if dead:
            figures["stopped_during_run"] = dead
        return figures
    finally:
        for stop in reversed(stops):
            with contextlib.suppress(Exception):
                stop()


def noteworthy(root: Path, limit: int = 12) -> dict[str, dict[str, int]]:
    """What the processes logged besides their start-up lines, per log: each line (room ids masked) and
    how often it came (the ``limit`` most frequent). PostgreSQL's log: its warnings and errors only."""
    found: dict[str, dict[str, int]] = {}
    logs = sorted(root.rglob("*.log")) + ([root / "pg" / "log"] if (root / "pg" / "log").exists() else [])
    for log in logs:
        counts: Counter[str] = Counter()
        for line in log.read_text(errors="replace").splitlines():
            if STARTUP.match(line) or (log.name == "log" and not PG_TROUBLE.search(line)):
                continue
            counts[ROOM_ID.sub(r"\1…", line)] += 1
        if counts:
            found[str(log.relative_to(root))] = dict(counts.most_common(limit))
    return found


def cell(figures: dict[str, Any], name: str) -> str:
    entry = figures.get("components", {}).get(name)
    return "-" if entry is None else f"{entry['cpu_ms_per_move']:.2f}"


def table(rows: list[dict[str, Any]]) -> str:
    """The figures as a Markdown table (CPU per acknowledged move, ms, per component)."""
    head = [
        "config",
        "tables",
        "moves/s",
        "p50 ms",
        "p99 ms",
        "max ms",
        "errors",
        "lost",
        *(f"{c} ms/move" for c in COMPONENTS),
        "driver CPU",
        "others' CPU",
        "load before",
    ]
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for r in rows:
        latency = r.get("move_broadcast_latency_ms", {})
        errors = sum(r.get("errors", {}).values()) + r.get("sockets_closed", 0)
        lines.append(
            "| "
            + " | ".join(
                [
                    r["config"],
                    str(r.get("tables", "")),
                    str(r.get("moves_per_s", "")),
                    str(latency.get("p50", "-")),
                    str(latency.get("p99", "-")),
                    str(latency.get("max", "-")),
                    str(errors) if "failed" not in r else "failed",
                    str(r.get("lost_moves", "-")),
                    *(cell(r, c) for c in COMPONENTS),
                    f"{r.get('driver_cpu_pct', '-')} %",
                    f"{r.get('others_cpu_pct', '-')} %",
                    " ".join(f"{x:.2f}" for x in r.get("loadavg_before", [])),
                ]
            )
            + " |"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50, help="tables, every seat a scripted person (50)")
    parser.add_argument("--players", type=int, choices=(2, 4), default=4)
    parser.add_argument("--rules", default="", help="a rules preset (default: the server's)")
    parser.add_argument("--think", type=think_range, default=(1.0, 3.0), help="think time, s (1-3)")
    parser.add_argument("--seconds", type=float, default=60.0, help="measuring window (default 60)")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring (default 5)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the people's choices")
    parser.add_argument(
        "--protocol", type=int, choices=(1, 2), default=1, help="the people's protocol version (1)"
    )
    parser.add_argument(
        "--settle",
        type=float,
        default=3.0,
        help="seconds after the window before counting lost moves (3: past a node's 2 s sweep)",
    )
    parser.add_argument(
        "--configs", default=",".join(CONFIGS), help=f"which, in order (default {','.join(CONFIGS)})"
    )
    parser.add_argument(
        "--no-durable",
        dest="durable",
        action="store_false",
        help="PostgreSQL without fsync and synchronous_commit (as the tests run it)",
    )
    parser.add_argument("--keep-logs", type=Path, help="copy every process's log to this directory")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    if not 1 <= args.tables <= 2000 or not 1 <= args.seconds <= 1800:
        parser.error("--tables must be 1..2000 and --seconds 1..1800")
    configs = [c.strip() for c in args.configs.split(",") if c.strip()]
    if unknown := [c for c in configs if c not in CONFIGS]:
        parser.error(f"unknown configuration(s) {unknown}: choose from {', '.join(CONFIGS)}")
    if any(c != "sqlite" for c in configs):
        missing = [
            p for p in ("redis-server", "nginx") if not (shutil.which(p) or Path(f"/usr/sbin/{p}").exists())
        ]
        if cs.pg_bin() is None or missing:
            raise SystemExit("PostgreSQL, redis-server and nginx must be installed (scripts/test.sh does)")
    rows: list[dict[str, Any]] = []
    for config in configs:
        load = os.getloadavg()
        print(f"== {config}: load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}", file=sys.stderr, flush=True)
        with tempfile.TemporaryDirectory(prefix=f"cuarenta-cluster-{config}-") as tmp:
            root = Path(tmp)
            began = time.monotonic()
            try:
                if config == "sqlite":
                    figures = run_sqlite(root, args)
                else:
                    nodes = 1 if config == "pg-1" else int(config.split("-")[1])
                    figures = run_cluster(
                        root, args, nodes, proxy=config != "pg-1", by_room=not config.endswith("-rr")
                    )
            except Exception as failure:  # one configuration failing does not stop the others
                figures = {"failed": f"{type(failure).__name__}: {failure}"}
            figures.pop("window", None)
            figures = {"config": config, **figures, "run_seconds": round(time.monotonic() - began, 1)}
            figures["log_lines"] = noteworthy(root)
            if args.keep_logs:
                for log in root.rglob("*.log"):
                    target = args.keep_logs / config / log.relative_to(root)
                    target.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy(log, target)
                pg_log = root / "pg" / "log"
                if pg_log.exists():
                    (args.keep_logs / config).mkdir(parents=True, exist_ok=True)
                    shutil.copy(pg_log, args.keep_logs / config / "postgres.log")
        rows.append(figures)
        print(json.dumps(figures, indent=1), file=sys.stderr, flush=True)
    result = {
        "tables": args.tables,
        "players": args.players,
        "think": list(args.think),
        "seconds": args.seconds,
        "warmup": args.warmup,
        "seed": args.seed,
        "postgres_durable": args.durable,
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "runs": rows,
    }
    print(table(rows))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        main()
