"""The time of one move's write to the store, early and late in a mesa: before (the whole game JSON
rewritten, cuarenta 0.2) and after (one row appended to the action log).

Before: cuarenta 0.2's save after a move — ``game.to_json()`` and its ``UPDATE rooms SET … game = ?``
in a transaction — with that store's own code (``scripts/v1_store.py``). After: the server's own
``Rooms._save`` — the new action's log row and the room's counters, one transaction (SQLAlchemy Core on
the same kind of SQLite file: WAL, ``synchronous=NORMAL``). Each sample is one write of move ``k`` of
a mesa (``k`` = 1 and 150 by default) in a room whose mesa already has ``k - 1`` actions; the moves are
timed in turn, so that a busy machine slows each alike, with Python's collector paused while timing (on
both sides). The figures are the median and the 90th percentile over the samples. Run from the
repository root::

    .venv/bin/python bench/store_write.py                  # moves 1 and 150, 300 samples each
    .venv/bin/python bench/store_write.py --moves 1 50 150 --samples 500

Figures are recorded in docs/performance.md. This is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import importlib.util
import platform
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

from cuarenta import Game, Rules
from cuarenta.moves import Action
from cuarenta.server.rooms import Room, Rooms, Seat, mesa_seed, now_text
from cuarenta.server.store import ActionRow, RoomRow, Store, dumps
from cuarenta.server.thinking import make_thinking

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
    """Time the writes, not a collection of the benchmark's own heap (the server tunes its collector:
    docs/performance.md)."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def quantiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[int(0.9 * (len(ordered) - 1))]


def before(v1: ModuleType, folder: Path, rules: Rules, seed: int, actions: list[Action], moves: list[int],
           n: int) -> dict[int, list[float]]:  # fmt: skip
    """cuarenta 0.2: write move ``k`` as the whole game JSON (serialise + UPDATE + commit), ``n`` times for
    each ``k`` of ``moves``, interleaved (one room per ``k`` in one file)."""
    store = v1.V1Store(folder / "before.sqlite3")
    games = {k: Game.replay(rules, mesa_seed(seed, 1), actions[:k]) for k in moves}
    when = now_text()
    for k in moves:
        store.insert_room(
            (f"room{k}", when, when, rules.players, "facil", dumps(rules.to_dict()), dumps(seed), 1, k,
             "playing", "{}"),
            [(f"room{k}", 0, "person", "", None, f"h{k}"), (f"room{k}", 1, "computer", "", "facil", None)],
        )  # fmt: skip
    samples: dict[int, list[float]] = {k: [] for k in moves}
    with no_gc():
        for _ in range(n):
            for k in moves:
                start = time.perf_counter()
                store.save_room(
                    f"room{k}", updated=now_text(), mesa=1, state=k, status="playing", game=games[k].to_json()
                )
                samples[k].append(time.perf_counter() - start)
    store.close()
    return samples


def after(folder: Path, rules: Rules, seed: int, actions: list[Action], moves: list[int],
          n: int) -> dict[int, list[float]]:  # fmt: skip
    """Now: ``Rooms._save`` of move ``k`` (one log row and the counters) in ``n`` rooms at move ``k - 1``
    for each ``k`` of ``moves``, all in one database, timed interleaved."""
    store = Store(folder / "after.sqlite3")
    rooms = Rooms(store, bot_delay=0, thinking=make_thinking(0), max_rooms=n * len(moves) + 1)
    when = now_text()
    ready: dict[int, list[Room]] = {k: [] for k in moves}
    for k in moves:
        game = Game.replay(rules, mesa_seed(seed, 1), actions[: k - 1])
        for i in range(n):  # rooms whose log holds the first k - 1 actions (written in one go)
            room_id = f"room{k}-{i}"
            seats = [Seat(0, "person", "", None, "h"), Seat(1, "computer", "", "facil", None)]
            store.insert_room(
                RoomRow(room_id, when, when, rules.players, "facil", dumps(rules.to_dict()), dumps(seed), 1,
                        k - 1, "playing", tuple(s.to_row() for s in seats))
            )  # fmt: skip
            rows = [ActionRow(room_id, 1, j + 1, str(a), when) for j, a in enumerate(actions[: k - 1])]
            store.save_room(
                room_id, updated=when, mesa=1, state=k - 1, mesa_state=0, status="playing", actions=rows
            )
            # the room at the version the two writes above left it at (each write is a compare-and-set)
            room = Room(room_id, when, "facil", rules, seed, seats, 1, game.copy(), state=k - 1, logged=k - 1)
            room.version = 1
            room.game.play(actions[k - 1])
            room.state = k
            ready[k].append(room)
    samples: dict[int, list[float]] = {k: [] for k in moves}
    with no_gc():
        for i in range(n):
            for k in moves:
                room = ready[k][i]
                start = time.perf_counter()
                rooms._save(room)
                samples[k].append(time.perf_counter() - start)
                assert room.logged == k
    asyncio.run(rooms.close())
    store.close()
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, nargs="+", default=[1, 150], help="which moves to time")
    parser.add_argument("--samples", type=int, default=300, help="writes timed per move and side")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if min(args.moves) < 1 or args.samples < 1:
        parser.error("moves and samples must be 1 or more")
    rules = Rules()
    seed, actions = long_mesa(rules, args.seed, max(args.moves))
    v1 = load_v1()
    print(f"# {platform.python_implementation()} {platform.python_version()}, {platform.machine()}; "
          f"a_todo_rigor 1v1, {args.samples} samples per figure, times in ms")  # fmt: skip
    print(f"{'move':>5}  {'before median':>13}  {'before p90':>10}  {'after median':>12}  {'after p90':>9}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        old = before(v1, folder, rules, seed, actions, args.moves, args.samples)
        new = after(folder, rules, seed, actions, args.moves, args.samples)
        for k in args.moves:
            ms = [f * 1e3 for f in (*quantiles(old[k]), *quantiles(new[k]))]
            print(f"{k:>5}  {ms[0]:>13.3f}  {ms[1]:>10.3f}  {ms[2]:>12.3f}  {ms[3]:>9.3f}")


if __name__ == "__main__":
    main()
