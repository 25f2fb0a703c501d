"""What each part of ``experto`` buys: arena matches of variants of it against ``dificil`` (docs/strength.md
"experto").

The variants are registered for this run only (the arena's worker processes are forked, so they see them):

- ``experto``: the level as shipped — worlds weighed by the model of play, the larger budget;
- ``experto_budget``: the larger budget alone (the model trusted 0: ``dificil``'s uniform worlds);
- ``experto_infer``: the weighing alone, on ``dificil``'s budget;
- ``experto_trust3``: the model's log-likelihoods tripled (sharper weights than the fitted model says).

Run from the repository root, e.g.::

    .venv/bin/python bench/experto_parts.py --parts experto_budget experto_infer --chicas 400 --jobs 2

Each line printed is one match, with the same figures as ``cuarenta arena`` (win rate and its 95% interval,
p95 of a move).
"""

from __future__ import annotations

import argparse
import time

from cuarenta.players import register
from cuarenta.players.arena import run_match
from cuarenta.players.dificil import Budget
from cuarenta.players.experto import ExpertoPlayer


def experto_budget(seed: int | str) -> ExpertoPlayer:
    bot = ExpertoPlayer(seed)
    bot.trust = 0.0
    return bot


def experto_infer(seed: int | str) -> ExpertoPlayer:
    return ExpertoPlayer(seed, budget=Budget())


def experto_trust3(seed: int | str) -> ExpertoPlayer:
    bot = ExpertoPlayer(seed)
    bot.trust = 3.0
    return bot


VARIANTS = {
    "experto_budget": experto_budget,
    "experto_infer": experto_infer,
    "experto_trust3": experto_trust3,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", nargs="+", default=["experto", *VARIANTS])
    parser.add_argument("--against", default="dificil")
    parser.add_argument("--chicas", type=int, default=400)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--rules", default="a_todo_rigor")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    for name, factory in VARIANTS.items():
        register(name, factory)
    for part in args.parts:
        started = time.monotonic()
        result = run_match(
            part, args.against, args.chicas, args.players, args.rules, args.seed, args.jobs
        ).to_dict()
        ms = result["bots"]["A"]["move_ms"]
        print(
            f"{part} vs {args.against}, {args.players} players, {args.chicas} chicas, seed {args.seed}: "
            f"{100 * result['win_rate']:.1f}% ({100 * result['ci_low']:.1f}–{100 * result['ci_high']:.1f}), "
            f"Elo {result['elo']:+.0f}, margin/hand {result['margin_per_hand']:+.2f}, "
            f"ms/move median {ms['median']:.1f} p95 {ms['p95']:.1f}; {time.monotonic() - started:.0f} s",
            flush=True,
        )


if __name__ == "__main__":
    main()
