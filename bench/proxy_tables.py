"""Tables through the proxy: create many tables (and join them) through nginx in front of cluster nodes,
in bursts separated by pauses about as long as the nodes keep an idle connection, and count the answers.

nginx keeps idle connections to the nodes for the next requests (``keepalive 32`` in the upstream). A
node (uvicorn) closes a connection that stayed idle for 5 s; if nginx sends a request on it at that very
moment, the node resets it and nginx, which does not retry a POST (it is not idempotent), answers 502
("Connection reset by peer while reading response header from upstream", issue 15). The pauses here are
drawn around 5 s so that the bursts reuse connections just as the nodes time them out; with
``--keepalive-timeout 4`` (the configuration of scripts/cluster.sh, deploy/nginx and the tests) nginx
drops an idle connection before the node does, and no answer is a 502.

Run from the repository root (loopback only; needs PostgreSQL, redis-server and nginx installed, as
scripts/test.sh does)::

    python bench/proxy_tables.py --tables 1000                         # the fixed configuration
    python bench/proxy_tables.py --tables 1000 --keepalive-timeout 0   # nginx's default (60 s): 502s

Each table is ``POST /api/tables`` then ``POST /api/tables/{room}/join`` for each other seat. It prints
the count of each status code and the 502s' share. Figures are recorded in docs/scaling.md. This is a
measurement; tests/test_cluster_edges.py runs a shorter form of it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import httpx

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))
from support import cluster as cs  # noqa: E402


async def make_tables(
    base: str,
    tables: int,
    *,
    players: int = 2,
    burst: int = 32,
    pause: tuple[float, float] = (4.7, 5.3),
    seed: int = 1,
) -> Counter[int]:
    """Create ``tables`` tables through ``base`` (the proxy) and join their other seats: ``burst`` tables
    at once, then a pause drawn from ``pause`` seconds, and so on. Returns the count of each HTTP status of
    every request (``0``: the request failed without an answer)."""
    rng = random.Random(seed)
    statuses: Counter[int] = Counter()
    body: dict[str, Any] = {"players": players, "name": "Ana", "rules": {"preset": "basico"}}

    async def post(client: httpx.AsyncClient, url: str, payload: dict[str, Any]) -> httpx.Response | None:
        try:
            answer = await client.post(url, json=payload)
        except httpx.HTTPError:
            statuses[0] += 1
            return None
        statuses[answer.status_code] += 1
        return answer

    async def one(client: httpx.AsyncClient) -> None:
        made = await post(client, f"{base}/api/tables", body)
        if made is None or made.status_code != 200:
            return
        room, invite = made.json()["room"], made.json()["invite"]
        for n in range(players - 1):
            await post(client, f"{base}/api/tables/{room}/join", {"invite": invite, "name": f"P{n}"})

    # one client connection per table in the burst: the proxy sees ``burst`` requests at once
    limits = httpx.Limits(max_connections=burst, max_keepalive_connections=burst)
    async with httpx.AsyncClient(timeout=30, limits=limits) as client:
        left = tables
        while left > 0:
            now = min(burst, left)
            await asyncio.gather(*(one(client) for _ in range(now)))
            left -= now
            if left:
                await asyncio.sleep(rng.uniform(*pause))
    return statuses


def run(args: argparse.Namespace) -> dict[str, Any]:
    stops: list[Callable[[], None]] = []
    with tempfile.TemporaryDirectory(prefix="cuarenta-proxy-tables-") as tmp:
        root = Path(tmp)
        try:
            pg = cs.Postgres(root)
            stops.append(pg.remove)
            redis = cs.RedisServer(root)
            stops.append(redis.stop)
            bases = []
            for n in range(1, args.nodes + 1):
                node, base = cs.start_node(root, f"node{n}", pg, redis)
                stops.append(node.stop)
                bases.append(base)
            timeout = args.keepalive_timeout or None
            proxy = cs.Nginx(root, bases, keepalive_timeout=timeout)
            stops.append(proxy.stop)
            began = time.monotonic()
            statuses = asyncio.run(
                make_tables(
                    proxy.base,
                    args.tables,
                    players=args.players,
                    burst=args.burst,
                    pause=args.pause,
                    seed=args.seed,
                )
            )
            took = time.monotonic() - began
            resets = (proxy.dir / "error.log").read_text().count("reset by peer")
        finally:
            for stop in reversed(stops):
                with contextlib.suppress(Exception):
                    stop()
    total = sum(statuses.values())
    return {
        "tables": args.tables,
        "nodes": args.nodes,
        "keepalive_timeout": args.keepalive_timeout or "nginx default (60 s)",
        "requests": total,
        "statuses": {str(k): v for k, v in sorted(statuses.items())},
        "bad_gateway": statuses[502],
        "nginx_resets_logged": resets,
        "seconds": round(took, 1),
    }


def pause_range(text: str) -> tuple[float, float]:
    low, _, high = text.partition("-")
    return float(low), float(high or low)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=1000, help="tables to create (1000)")
    parser.add_argument("--players", type=int, choices=(2, 4), default=2, help="seats per table (2)")
    parser.add_argument("--nodes", type=int, default=2, help="cluster nodes behind nginx (2)")
    parser.add_argument("--burst", type=int, default=32, help="tables created at once (32)")
    parser.add_argument("--pause", type=pause_range, default=(4.7, 5.3), help="seconds between bursts")
    parser.add_argument(
        "--keepalive-timeout",
        type=float,
        default=cs.UPSTREAM_KEEPALIVE_SECONDS,
        help="nginx's upstream keepalive_timeout, s (default 4; 0: nginx's default, 60 s)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    if not 1 <= args.tables <= 20000 or not 1 <= args.nodes <= 8:
        parser.error("--tables must be 1..20000 and --nodes 1..8")
    figures = run(args)
    print(json.dumps(figures, indent=1))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n")


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        main()
