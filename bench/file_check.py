"""The cost of the SQLite file check on every write (docs/storage.md "Storage faults").

After every write's commit the store checks that the path still names the file it opened (one
``stat``, :func:`cuarenta.server.store.files.gone_or_replaced`). This script times the check alone with
``timeit``, then ``Store.save_room`` (one action row and the room's counters, as after a move) on a fresh
SQLite file with the check and without it (the store's guard set aside), alternating blocks of writes
(each first in every other round) so that a busy machine and a growing WAL slow both alike, Python's
collector paused while timing. Run from the repository root::

    .venv/bin/python bench/file_check.py
    .venv/bin/python bench/file_check.py --rounds 10 --writes 500
    .venv/bin/python bench/file_check.py --quick-check 20000   # PRAGMA quick_check of 20,000 rooms

With ``--quick-check ROOMS`` it instead times ``PRAGMA quick_check`` (what ``/readyz`` runs at most once a
minute, and the start once) on a database of that many rooms with 60 actions each, written with plain
SQL, three times.

This is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import gc
import os
import sqlite3
import statistics
import tempfile
import time
import timeit
from pathlib import Path

from cuarenta.server.store import ActionRow, RoomRow, SeatRow, Store
from cuarenta.server.store import files as sqlite_files


def time_quick_check(rooms: int, actions: int = 60) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        Store.in_dir(Path(tmp)).close()
        db = Path(tmp) / "cuarenta.sqlite3"
        conn = sqlite3.connect(db)
        conn.executemany(
            "INSERT INTO rooms (id, created, updated, players, level, rules, seed, mesa, state, status) "
            "VALUES (?, 'x', 'x', 2, 'facil', '{}', '7', 1, ?, 'playing')",
            [(f"room{i:08d}", actions) for i in range(rooms)],
        )
        conn.executemany(
            "INSERT INTO actions (room, mesa, seq, prev, action, at) "
            "VALUES (?, 1, ?, ?, '7h x3c+4d,Js', 'x')",
            (
                (f"room{i:08d}", k, k - 1 if k > 1 else None)
                for i in range(rooms)
                for k in range(1, actions + 1)
            ),
        )
        conn.commit()
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.close()
        print(f"{rooms:,} rooms, {rooms * actions:,} actions, {db.stat().st_size / 1e6:.0f} MB")
        for _ in range(3):
            start = time.perf_counter()
            found = sqlite_files.quick_check(db)
            print(f"PRAGMA quick_check: {found or 'ok'} in {time.perf_counter() - start:.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--writes", type=int, default=500, help="writes per block")
    parser.add_argument("--quick-check", type=int, metavar="ROOMS", help="time PRAGMA quick_check instead")
    args = parser.parse_args()
    if args.quick_check:
        time_quick_check(args.quick_check)
        return
    with tempfile.TemporaryDirectory() as tmp:
        store = Store.in_dir(Path(tmp))
        guard = store._guard
        assert guard is not None
        number = 200_000
        check = min(
            timeit.repeat(
                lambda: sqlite_files.gone_or_replaced(guard.path, guard.opened), number=number, repeat=3
            )
        )
        store.insert_room(
            RoomRow(
                id="r", created="x", updated="x", players=2, level="facil", rules="{}", seed="1", mesa=1,
                state=0, status="playing",
                seats=(SeatRow(0, "person", "", None, "h"), SeatRow(1, "computer", "", "facil", None)),
            )
        )  # fmt: skip
        seq = 0

        def block(n: int) -> list[float]:
            nonlocal seq
            took = []
            for _ in range(n):
                seq += 1
                start = time.perf_counter()
                store.save_room(
                    "r", updated="x", mesa=1, state=seq, mesa_state=0, status="playing",
                    actions=[ActionRow("r", 1, seq, "7h", "x")],
                )  # fmt: skip
                took.append(time.perf_counter() - start)
            return took

        block(200)  # warm-up
        times: dict[str, list[float]] = {"with the check": [], "without": []}
        gc.disable()
        try:
            for r in range(args.rounds):  # each first in every other round
                for name in list(times)[:: 1 if r % 2 else -1]:
                    store._guard = guard if name == "with the check" else None
                    times[name] += block(args.writes)
        finally:
            gc.enable()
            store._guard = guard
            store.close()
    print(f"the check alone: {check / number * 1e6:.2f} µs; load average {os.getloadavg()[0]:.1f}")
    for name, took in times.items():
        median, p90 = statistics.median(took) * 1e6, statistics.quantiles(took, n=10)[-1] * 1e6
        print(f"save_room {name:15} median {median:.1f} µs, p90 {p90:.1f} µs ({len(took)} writes)")


if __name__ == "__main__":
    main()
