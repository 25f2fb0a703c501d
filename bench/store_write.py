"""The cost of one move's write to the store: ``Store.save_room`` with one new action row and the room's
counters, as a compare-and-set on the room's version (what the server does after every move), on a SQLite
file and on PostgreSQL.

Each sample is one write of move ``k`` of a mesa (``k`` = 1 and 150 by default) in a room whose log
already holds ``k - 1`` actions; the moves are timed in turn, so that a busy machine slows each alike,
with Python's collector paused while timing. The figures are the median and the 90th percentile of the
wall time of a write, and the CPU time of this process per write (``time.process_time`` over all of a
move's samples: the Python, SQLAlchemy and driver work a server node spends on it; PostgreSQL's own
work is in its processes, not counted).

- ``--database sqlite`` (the default): a SQLite file in a temporary directory (WAL, ``synchronous=NORMAL``);
- ``--database postgres``: a throwaway PostgreSQL on a loopback port (``tests/cluster_support.py``;
  ``--durable`` keeps fsync on, as a real deployment runs), or ``--url URL`` an existing database (its
  ``public`` schema is wiped first);
- ``--v1``: also cuarenta 0.2's write (the whole game JSON rewritten, ``scripts/v1_store.py``), SQLite.
- ``--compare``: also the write as it was before issue 16, alternating with today's in the same run (a
  transaction of several statements — the compare-and-set ``UPDATE``, the ``INSERT``, ``COMMIT`` — on a
  pool that pings every connection it hands out); on PostgreSQL today's is one statement;
- ``--profile FILE``: run the writes of ``--moves`` under cProfile and write its statistics to FILE
  (``python -m pstats FILE``), with a summary by package on stdout.

Run from the repository root::

    .venv/bin/python bench/store_write.py                                  # SQLite, moves 1 and 150
    .venv/bin/python bench/store_write.py --database postgres --samples 1000
    .venv/bin/python bench/store_write.py --database postgres --profile .scratch/pg.prof

Figures are recorded in docs/performance.md. This is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import gc
import importlib.util
import platform
import pstats
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import sqlalchemy as sa

from cuarenta import Game, Rules
from cuarenta.moves import Action
from cuarenta.server.authority.model import mesa_seed, now_text
from cuarenta.server.store import ActionRow, RoomRow, SeatRow, Store, dumps
from cuarenta.server.store import save as store_save
from cuarenta.server.store.pgwatch import bounded_engine

ROOT = Path(__file__).resolve().parents[1]


def load_v1() -> ModuleType:
    spec = importlib.util.spec_from_file_location("cuarenta_v1_store", ROOT / "scripts" / "v1_store.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def long_mesa(rules: Rules, seed: int, length: int) -> tuple[int, list[Action]]:
    """A mesa seed and random legal actions of a mesa at least ``length`` actions long."""
    rng = random.Random(seed)
    while True:
        game_seed = rng.randrange(2**62)
        game = Game.new(rules, mesa_seed(game_seed, 1))
        while not game.is_over and len(game.actions) < length:
            game.play(rng.choice(game.legal_moves()))
        if len(game.actions) >= length:
            return game_seed, list(game.actions)


@contextlib.contextmanager
def no_gc() -> Iterator[None]:
    """Time the writes, not a collection of the benchmark's own heap."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def quantiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[int(0.9 * (len(ordered) - 1))]


Figures = dict[int, tuple[list[float], float]]  #: move → (wall times of its writes, CPU per write)


def timed(writes: dict[int, list[Callable[[], None]]]) -> Figures:
    """Run every move's writes in turn (one of each move per round); wall time per write and CPU per write."""
    samples: dict[int, list[float]] = {k: [] for k in writes}
    cpu: dict[int, float] = dict.fromkeys(writes, 0.0)
    rounds = min(len(w) for w in writes.values())
    with no_gc():
        for i in range(rounds):
            for k, row in writes.items():
                c0, t0 = time.process_time(), time.perf_counter()
                row[i]()
                t1, c1 = time.perf_counter(), time.process_time()
                samples[k].append(t1 - t0)
                cpu[k] += c1 - c0
    return {k: (samples[k], cpu[k] / rounds) for k in writes}


def before(v1: ModuleType, folder: Path, rules: Rules, seed: int, actions: list[Action], moves: list[int],
           n: int) -> Figures:  # fmt: skip
    """cuarenta 0.2: write move ``k`` as the whole game JSON (serialise + UPDATE + commit)."""
    store = v1.V1Store(folder / "before.sqlite3")
    games = {k: Game.replay(rules, mesa_seed(seed, 1), actions[:k]) for k in moves}
    when = now_text()
    for k in moves:
        store.insert_room(
            (f"room{k}", when, when, rules.players, "facil", dumps(rules.to_dict()), dumps(seed), 1, k,
             "playing", "{}"),
            [(f"room{k}", 0, "person", "", None, f"h{k}"), (f"room{k}", 1, "computer", "", "facil", None)],
        )  # fmt: skip

    def write(k: int) -> Callable[[], None]:
        return lambda: store.save_room(
            f"room{k}", updated=now_text(), mesa=1, state=k, status="playing", game=games[k].to_json()
        )

    try:
        return timed({k: [write(k)] * n for k in moves})
    finally:
        store.close()


def prepare(store: Store, rules: Rules, seed: int, actions: list[Action], moves: list[int], n: int,
            old: Store | None = None, tag: str = "") -> dict[int, list[Callable[[], None]]]:  # fmt: skip
    """``n`` rooms per move ``k`` whose log holds the first ``k - 1`` actions, and for each the write of
    action ``k`` as the server makes it (a compare-and-set on the version the setup left)."""
    when = now_text()
    writes: dict[int, list[Callable[[], None]]] = {k: [] for k in moves}
    seats = (SeatRow(0, "person", "", None, "h"), SeatRow(1, "computer", "", "facil", None))
    for k in moves:
        for i in range(n):
            room_id = f"room{tag}{k}-{i}"
            store.insert_room(
                RoomRow(room_id, when, when, rules.players, "facil", dumps(rules.to_dict()), dumps(seed), 1,
                        k - 1, "playing", seats)
            )  # fmt: skip
            rows = [ActionRow(room_id, 1, j + 1, str(a), when) for j, a in enumerate(actions[: k - 1])]
            if rows:
                store.save_room(
                    room_id, updated=when, mesa=1, state=k - 1, mesa_state=0, status="playing", actions=rows
                )
            version = 1 if rows else 0
            row = ActionRow(room_id, 1, k, str(actions[k - 1]), when)

            def write(room_id: str = room_id, row: ActionRow = row, k: int = k, version: int = version,
                      ) -> None:  # fmt: skip
                store.save_room(
                    room_id, updated=now_text(), mesa=1, state=k, mesa_state=0, status="playing",
                    actions=[row], version=version,
                )  # fmt: skip

            def write_old(room_id: str = room_id, row: ActionRow = row, k: int = k, version: int = version,
                          ) -> None:  # fmt: skip
                assert old is not None
                store_save._save_room_tx(
                    old, store_save.RoomSave(room_id, now_text(), 1, k, 0, "playing", [row], (), version)
                )

            writes[k].append(write if old is None else write_old)
    return writes


def by_package(stats: pstats.Stats) -> list[tuple[str, float]]:
    """Own time by top-level package (sqlalchemy, psycopg, cuarenta …), as shares of the total."""
    own: Counter[str] = Counter()
    raw = stats.stats  # type: ignore[attr-defined]
    for (filename, _line, _name), (_cc, _nc, tt, _ct, _callers) in raw.items():
        path = str(filename)
        if "site-packages/" in path:
            package = path.split("site-packages/", 1)[1].split("/", 1)[0]
        elif "/cuarenta/" in path:
            package = "cuarenta"
        elif path.startswith("~") or path.startswith("<"):
            package = "builtins (C: sockets, sqlite3 …)"
        else:
            package = "python stdlib"
        own[package] += tt
    total = sum(own.values()) or 1.0
    return [(name, t / total) for name, t in own.most_common()]


def old_store(target: str | Path) -> Store:
    """A store whose pool pings every connection it hands out (``pool_pre_ping``, as before issue 16); its
    writes go through the transaction of several statements (``store.save._save_room_tx``)."""
    store = Store(target)
    if not store.sqlite:
        store.engine.dispose()
        store.engine = bounded_engine(store.url, pool_pre_ping=True)
    return store


@contextlib.contextmanager
def database(args: argparse.Namespace, folder: Path) -> Iterator[str | Path]:
    if args.database == "sqlite":
        yield folder / "after.sqlite3"
        return
    if args.url:
        engine = sa.create_engine(args.url)
        with engine.begin() as conn:
            conn.exec_driver_sql("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
        engine.dispose()
        yield args.url
        return
    sys.path.insert(0, str(ROOT / "tests"))
    import cluster_support as cs

    pg = cs.Postgres(folder, durable=args.durable)
    try:
        yield pg.url
    finally:
        pg.remove()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, nargs="+", default=[1, 150], help="which moves to time")
    parser.add_argument("--samples", type=int, default=300, help="writes timed per move")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--url", help="an existing PostgreSQL database (its public schema is wiped)")
    parser.add_argument("--durable", action="store_true", help="the throwaway PostgreSQL keeps fsync on")
    parser.add_argument("--v1", action="store_true", help="also cuarenta 0.2's write (SQLite)")
    parser.add_argument("--compare", action="store_true", help="also the write before issue 16, alternating")
    parser.add_argument("--profile", type=Path, help="cProfile the writes; statistics to this file")
    args = parser.parse_args()
    if min(args.moves) < 1 or args.samples < 1:
        parser.error("moves and samples must be 1 or more")
    rules = Rules()
    seed, actions = long_mesa(rules, args.seed, max(args.moves))
    print(f"# {platform.python_implementation()} {platform.python_version()}, {platform.machine()}; "
          f"{args.database}{' (durable)' if args.durable else ''}; a_todo_rigor 1v1, {args.samples} "
          "samples per move; ms")  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        old = before(load_v1(), folder, rules, seed, actions, args.moves, args.samples) if args.v1 else {}
        with database(args, folder) as target:
            store = Store(target)
            before16 = old_store(target) if args.compare else None
            try:
                writes = prepare(store, rules, seed, actions, args.moves, args.samples)
                if before16 is not None:  # one old write after each new one, all in one run
                    old_writes = prepare(
                        store, rules, seed, actions, args.moves, args.samples, before16, "old"
                    )
                    both = timed({**writes, **{-k: w for k, w in old_writes.items()}})
                    new = {k: both[k] for k in args.moves}
                    old = {k: both[-k] for k in args.moves}
                elif args.profile is not None:
                    profiler = cProfile.Profile()
                    profiler.enable()
                    new = timed(writes)
                    profiler.disable()
                    profiler.dump_stats(str(args.profile))
                else:
                    new = timed(writes)
            finally:
                store.close()
                if before16 is not None:
                    before16.close()
    head = f"{'move':>5}  {'median':>7}  {'p90':>7}  {'CPU/write':>9}"
    label = "old" if args.compare else "v1"
    print(head + (f"  {label + ' median':>10}  {label + ' p90':>7}  {'CPU/write':>9}" if old else ""))
    for k in args.moves:
        median, p90 = quantiles(new[k][0])
        line = f"{k:>5}  {median * 1e3:>7.3f}  {p90 * 1e3:>7.3f}  {new[k][1] * 1e3:>9.3f}"
        if old:
            v1_median, v1_p90 = quantiles(old[k][0])
            line += f"  {v1_median * 1e3:>10.3f}  {v1_p90 * 1e3:>7.3f}  {old[k][1] * 1e3:>9.3f}"
        print(line)
    if args.profile is not None:
        stats = pstats.Stats(str(args.profile))
        print("# own time by package (under cProfile):")
        for name, share in by_package(stats):
            if share >= 0.005:
                print(f"#   {name}: {share:.1%}")


if __name__ == "__main__":
    main()
