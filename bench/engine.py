"""Engine speed: random legal games on one core.

Plays whole mesas choosing uniformly among ``game.legal_moves()`` and prints
plies per second and complete hands per second. Run from the repository root::

    python bench/engine.py                      # 1v1, a_todo_rigor, unchecked push
    python bench/engine.py --players 4 --rules todo_dos
    python bench/engine.py --checked            # game.play(): every move validated
    valgrind --tool=callgrind python bench/engine.py --mesas 100   # fixed work: count instructions

Figures are recorded in docs/performance.md. This is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time

from cuarenta import Game, Rules
from cuarenta.events import HandEnd


def run(
    rules: Rules, seconds: float, seed: int, checked: bool, mesas_wanted: int | None = None
) -> tuple[int, int, int, float, float]:
    """Play random mesas for about ``seconds`` of CPU time, or exactly ``mesas_wanted`` mesas.

    Returns (plies, hands, mesas, cpu seconds, wall seconds). Rates are computed
    from the process's CPU time, so a busy machine slows the run but barely
    changes the figures. A fixed number of mesas is the same work at every run:
    under ``valgrind --tool=callgrind`` its instruction count compares two versions
    of the engine even on a machine too busy for timings.
    """
    rng = random.Random(seed)
    plies = hands = mesas = 0
    start = time.process_time()
    wall = time.perf_counter()
    deadline = start + seconds
    game_seed = seed
    while time.process_time() < deadline if mesas_wanted is None else mesas < mesas_wanted:
        game = Game.new(rules, seed=game_seed)
        game_seed += 1
        apply = game.play if checked else game.push
        while game.outcome is None:
            moves = game.legal_moves()
            apply(moves[int(rng.random() * len(moves))])
            plies += 1
        hands += sum(1 for e in game.events if type(e) is HandEnd)
        mesas += 1
    return plies, hands, mesas, time.process_time() - start, time.perf_counter() - wall


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=None, choices=(2, 4), help="default: the preset's")
    parser.add_argument("--rules", default="a_todo_rigor", help="preset name")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--checked", action="store_true", help="use game.play (validated) instead of push")
    parser.add_argument(
        "--mesas", type=int, default=None, help="play exactly this many mesas, no warm-up (fixed work)"
    )
    args = parser.parse_args(argv)
    rules = Rules.preset(args.rules, players=args.players)
    if args.mesas is None:
        run(rules, 0.5, args.seed, args.checked)  # warm the capture tables
    plies, hands, mesas, elapsed, wall = run(rules, args.seconds, args.seed, args.checked, args.mesas)
    print(f"python {platform.python_version()} on {platform.machine()}, one core")
    print(f"rules {args.rules}, {rules.players} players, {'play (checked)' if args.checked else 'push'}")
    print(f"{mesas} mesas, {hands} complete hands, {plies} plies in {elapsed:.1f} s CPU ({wall:.1f} s wall)")
    print(f"{hands / max(elapsed, 1e-9):,.0f} hands/s")
    print(f"{plies / max(elapsed, 1e-9):,.0f} plies/s")


if __name__ == "__main__":
    sys.exit(main())
