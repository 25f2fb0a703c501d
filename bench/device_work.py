"""The Python work that bench/device.py times both in CPython and in Pyodide (the same source, sent to the
browser as text): computer moves at the positions of seeded games, and bench/engine.py's random games.
With ``device=True`` the players are the device's (:func:`cuarenta.device.device_player`: difícil on its
device budget); each move's work is counted in search nodes too (the same in both interpreters).

    python bench/device_work.py [--device] [--levels=dificil,experto]   # the CPython figures alone, as JSON

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
from cuarenta.players import search as _search


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


def move_times(
    level: str, players: int, count: int, seed: int, device: bool = False
) -> list[tuple[float, int]]:
    """Seconds a ``level`` player takes for each position (its own seat's view only), and the search nodes
    it visited (0 for the players that do not search)."""
    if device:
        from cuarenta.device import device_player as make
    else:
        make = make_player
    out = []
    original = _search.WorldSearch.values
    for i, game in enumerate(positions(players, count, seed)):
        player = make(level, seed=i)
        view = game.view(game.turn)
        legal = game.legal_moves()
        nodes = [0]

        def counted(self: _search.WorldSearch, classes: Any, nodes: list[int] = nodes) -> Any:
            values = original(self, classes)
            nodes[0] += self.nodes
            return values

        _search.WorldSearch.values = counted  # type: ignore[method-assign]
        try:
            started = time.perf_counter()
            player.choose(view, legal)
            out.append((time.perf_counter() - started, nodes[0]))
        finally:
            _search.WorldSearch.values = original  # type: ignore[method-assign]
    return out


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


#: The levels measured unless others are named.
LEVELS = ("facil", "normal", "dificil")


def measure(
    count: int = 40, seed: int = 18, device: bool = False, levels: tuple[str, ...] = LEVELS
) -> dict[str, Any]:
    """Every figure: per level and table size, the median and p95 move time in ms and search nodes; random
    plies/s."""
    out: dict[str, Any] = {"moves": {}, "device": device}
    for players in (2, 4):
        for level in levels:
            found = move_times(level, players, count, seed, device)
            times = [t for t, _ in found]
            nodes = [float(n) for _, n in found]
            out["moves"][f"{level} {players // 2}v{players // 2}"] = {
                "median_ms": round(1000 * percentile(times, 0.5), 1),
                "p95_ms": round(1000 * percentile(times, 0.95), 1),
                "max_ms": round(1000 * max(times), 1),
                "p95_nodes": int(percentile(nodes, 0.95)),
                "max_nodes": int(max(nodes)),
            }
    out["random_plies_per_s"] = round(random_plies(5.0, seed))
    return out


if __name__ == "__main__":
    import sys

    named = [a.split("=", 1)[1] for a in sys.argv if a.startswith("--levels=")]
    chosen = tuple(named[0].split(",")) if named else LEVELS
    print(json.dumps(measure(device="--device" in sys.argv, levels=chosen), indent=2))
