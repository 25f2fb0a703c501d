"""What the device's budget for difícil costs in strength (docs/strength.md "On the device"): ``cuarenta
arena``'s match (:func:`cuarenta.players.arena.run_match`: duplicate deals, the same seeds) with a player
``dificil_device`` — :class:`~cuarenta.players.dificil.DificilPlayer` on
:data:`~cuarenta.players.dificil.DEVICE_BUDGET`, as :func:`cuarenta.device.device_player` makes it —
registered for this process only (it is never a level of the server). Run from the repository root::

    .venv/bin/python bench/device_strength.py dificil_device normal --players 4 --chicas 400 --seed 1 --jobs 2

The figures of ``dificil vs normal`` with the same seed and chicas (docs/strength.md "Results") are the
server's budget on the same deals. This is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import json

from cuarenta.players import register
from cuarenta.players.arena import run_match
from cuarenta.players.dificil import DEVICE_BUDGET, DificilPlayer

DEVICE_NAME = "dificil_device"


def device_dificil(seed: int | str = 0) -> DificilPlayer:
    return DificilPlayer(seed, budget=DEVICE_BUDGET)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--chicas", type=int, default=400)
    parser.add_argument("--rules", default="a_todo_rigor")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    register(DEVICE_NAME, device_dificil)  # the arena's worker processes are forked: they know it too
    result = run_match(
        args.a,
        args.b,
        chicas=args.chicas,
        players=args.players,
        rules=args.rules,
        seed=args.seed,
        jobs=args.jobs,
    )
    data = result.to_dict()
    a, b = data["bots"]["A"]["move_ms"], data["bots"]["B"]["move_ms"]
    print(
        f"| {args.a} vs {args.b} (seed {args.seed}) | {args.players} | {args.chicas} "
        f"| {100 * data['win_rate']:.1f}% "
        f"| {100 * data['ci_low']:.1f}–{100 * data['ci_high']:.1f}% | {data['elo']:+.0f} "
        f"| {data['margin_per_hand']:+.2f} | {a['median']:.1f} / {a['p95']:.1f} / {a['max']:.0f} "
        f"| {b['median']:.2f} / {b['p95']:.2f} |"
    )
    print(json.dumps(data))


if __name__ == "__main__":
    main()
