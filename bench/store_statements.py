"""Three ways to send a move's write to PostgreSQL with psycopg alone (no SQLAlchemy), timed in turn: the
transaction of two statements (``UPDATE`` with the compare-and-set, ``INSERT``, ``COMMIT``), and the one
statement of ``cuarenta.server.store.save.pg_save`` with its rows as ``VALUES`` (what the store sends) or
as ``unnest`` of arrays (tried, not kept: psycopg's adaptation of lists costs more than it saves). Wall
time (median) and this process's CPU per write, on a throwaway PostgreSQL (tests/cluster_support.py)::

    .venv/bin/python bench/store_statements.py --writes 1000

This is a measurement, not a test (docs/performance.md, "The store's write path (issue 16)").
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import psycopg

from cuarenta.server.store import Store
from cuarenta.server.store.save import pg_save

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import cluster_support as cs

ARRAYS = pg_save(True, 1).replace(
    "(VALUES (%(r0)s, %(m0)s::integer, %(s0)s::integer, %(p0)s::integer, %(a0)s, %(t0)s))",
    "unnest(%(rooms)s::text[], %(mesas)s::integer[], %(seqs)s::integer[], %(prevs)s::integer[], "
    "%(texts)s::text[], %(ats)s::text[])",
)
COUNTERS = {"updated": "t", "mesa": 1, "state": 1, "mesa_state": 0, "status": "playing", "read": 0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--writes", type=int, default=1000)
    args = parser.parse_args()
    pg = cs.Postgres(Path(tempfile.mkdtemp(prefix="cuarenta-statements-")))
    try:
        Store(pg.url).close()
        dsn = pg.url.replace("postgresql+psycopg", "postgresql")
        auto = psycopg.connect(dsn, autocommit=True)
        tx = psycopg.connect(dsn)
        kinds = ("transaction", "values", "arrays")
        for kind in kinds:
            for i in range(args.writes):
                auto.execute(
                    "INSERT INTO rooms (id, created, updated, players, level, rules, seed, mesa, state,"
                    " status) VALUES (%s, 't', 't', 2, 'facil', '{}', '1', 1, 0, 'playing')",
                    (f"{kind}{i}",),
                )

        def transaction(room: str) -> None:
            with tx.transaction():
                tx.execute(
                    "UPDATE rooms SET version = version + 1, updated = %s, mesa = %s, state = %s,"
                    " mesa_state = %s, status = %s WHERE id = %s AND version = %s",
                    ("t", 1, 1, 0, "playing", room, 0),
                )
                tx.execute(
                    "INSERT INTO actions (room, mesa, seq, prev, action, at) VALUES (%s, %s, %s, %s, %s, %s)",
                    (room, 1, 1, None, "7h", "t"),
                )

        def values(room: str) -> None:
            row = {"r0": room, "m0": 1, "s0": 1, "p0": None, "a0": "7h", "t0": "t"}
            auto.execute(pg_save(True, 1), {"room": room, **COUNTERS, **row}).fetchone()

        def arrays(room: str) -> None:
            rows = {"rooms": [room], "mesas": [1], "seqs": [1], "prevs": [None], "texts": ["7h"]}
            rows["ats"] = ["t"]
            auto.execute(ARRAYS, {"room": room, **COUNTERS, **rows}).fetchone()

        ways: dict[str, Callable[[str], None]] = {
            "transaction": transaction,
            "values": values,
            "arrays": arrays,
        }
        wall: dict[str, list[float]] = {kind: [] for kind in kinds}
        cpu = dict.fromkeys(kinds, 0.0)
        for i in range(args.writes):
            for kind in kinds:
                c0, t0 = time.process_time(), time.perf_counter()
                ways[kind](f"{kind}{i}")
                wall[kind].append(time.perf_counter() - t0)
                cpu[kind] += time.process_time() - c0
        for kind in kinds:
            median = statistics.median(wall[kind]) * 1e3
            print(f"{kind:>12}: median {median:.3f} ms, CPU {cpu[kind] / args.writes * 1e3:.3f} ms per write")
    finally:
        pg.remove()


if __name__ == "__main__":
    main()
