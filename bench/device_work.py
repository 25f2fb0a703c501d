"""The Python work that bench/device.py times both in CPython and in Pyodide (the same source, sent to the
browser as text): computer moves at the positions of seeded games, and bench/engine.py's random games.

    python bench/device_work.py          # the CPython figures alone, as JSON

Nothing here may import beyond the engine and the players: it runs in Pyodide with the offline pack's
wheel only. This is a measurement, not a test.
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

from cuarenta import Game, Rules
from cuarenta.players import make_player


def positions(players: int, count: int, seed: int) -> list[Game]:
    """``count`` positions with a move to choose: seeded random games, cut at random points."""
    rng = random.Random(seed)
    out: list[Game] = []
    while len(out) < count:
        game = Game.new(Rules.preset("a_todo_rigor", players=players), seed=rng.randrange(10**6))
        for _ in range(rng.randrange(0, 30)):
            if game.is_over:
                break
            game.push(rng.choice(game.legal_moves()))
        if not game.is_over and game.legal_moves():
            out.append(game)
    return out


def move_times(level: str, players: int, count: int, seed: int) -> list[float]:
    """Seconds a ``level`` player takes for each position (its own seat's view only)."""
    times = []
    for i, game in enumerate(positions(players, count, seed)):
        player = make_player(level, seed=i)
        view = game.view(game.turn)
        legal = game.legal_moves()
        started = time.perf_counter()
        player.choose(view, legal)
        times.append(time.perf_counter() - started)
    return times


def random_plies(seconds: float, seed: int) -> float:
    """Plies per second of uniformly random 1v1 games (bench/engine.py's work, unchecked push)."""
    rng = random.Random(seed)
    plies = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        game = Game.new(Rules.preset("a_todo_rigor"), seed=rng.randrange(10**6))
        while not game.is_over:
            game.push(rng.choice(game.legal_moves()))
            plies += 1
    return plies / (time.perf_counter() - started)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(count: int = 40, seed: int = 18) -> dict[str, Any]:
    """Every figure: per level and table size, the median and p95 move time in ms; random plies/s."""
    out: dict[str, Any] = {"moves": {}}
    for players in (2, 4):
        for level in ("facil", "normal", "dificil"):
            times = move_times(level, players, count, seed)
            out["moves"][f"{level} {players // 2}v{players // 2}"] = {
                "median_ms": round(1000 * percentile(times, 0.5), 1),
                "p95_ms": round(1000 * percentile(times, 0.95), 1),
                "max_ms": round(1000 * max(times), 1),
            }
    out["random_plies_per_s"] = round(random_plies(5.0, seed))
    return out


if __name__ == "__main__":
    print(json.dumps(measure(), indent=2))
