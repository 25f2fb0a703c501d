"""The Python work that bench/device.py times both in CPython and in Pyodide (the same source, sent to the
browser as text): computer moves at the positions of seeded games, bench/engine.py's random games, and the
analysis of a seat's moves in seeded mesas (``analysis_measure``: what the device's host thinks for the
page's analysis, the same budget as the server's).
With ``device=True`` the players are the device's (:func:`cuarenta.device.device_player`: difícil on its
device budget); each move's work is counted in search nodes too (the same in both interpreters).

    python bench/device_work.py [--device] [--levels=dificil,experto]   # the CPython figures alone, as JSON
    python bench/device_work.py --analysis=2                           # the analysis of 2 mesas, as JSON

Nothing here may import beyond the engine, the players and the analysis: it runs in Pyodide with the
offline pack's wheel only. This is a measurement, not a test.
"""

from __future__ import annotations

import itertools
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


def analysis_measure(mesas: int = 2, seed: int = 29) -> dict[str, Any]:
    """Seconds to analyse seat 0 of ``mesas`` seeded 1 vs 1 mesas (``facil`` against ``normal``,
    ``a_todo_rigor``), per chica and per turn with a choice, as the page's analysis thinks them."""
    from cuarenta.analysis import analyze
    from cuarenta.players import act
    from cuarenta.record import GameRecord

    per_chica: list[float] = []
    per_turn: list[float] = []
    for m in range(mesas):
        game = Game.new(Rules.preset("a_todo_rigor"), seed=seed + m)
        bots = [make_player("facil", f"{seed + m}/0"), make_player("normal", f"{seed + m}/1")]
        for s, bot in enumerate(bots):
            bot.start(s, game.rules)
        while not game.is_over:
            game.play(act(bots[game.turn], game))
        marks = [time.perf_counter()]

        def mark(done: int, total: int, marks: list[float] = marks) -> None:
            marks.append(time.perf_counter())

        analyze(GameRecord.from_game(game), 0, progress=mark)
        per_chica.append((marks[-1] - marks[0]) / max(1, len(game.chica_results)))
        per_turn += [b - a for a, b in itertools.pairwise(marks)]  # forced turns take ~0
    return {
        "mesas": mesas,
        "per_chica_s": [round(x, 2) for x in per_chica],
        "turn_median_ms": round(1000 * percentile(per_turn, 0.5), 1),
        "turn_p95_ms": round(1000 * percentile(per_turn, 0.95), 1),
    }


if __name__ == "__main__":
    import sys

    wanted = [a.split("=", 1)[1] for a in sys.argv if a.startswith("--analysis=")]
    if wanted:
        print(json.dumps(analysis_measure(int(wanted[0])), indent=2))
        sys.exit(0)

    named = [a.split("=", 1)[1] for a in sys.argv if a.startswith("--levels=")]
    chosen = tuple(named[0].split(",")) if named else LEVELS
    print(json.dumps(measure(device="--device" in sys.argv, levels=chosen), indent=2))
