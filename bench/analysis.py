"""What the analysis of a person's moves costs and how far it can be trusted (docs/analysis.md).

Plays ``--mesas`` seeded mesas between two levels (``--levels A,B``: A at the even seats), analyses every
seat's decisions with ``experto`` (the analysis's own budget) on one core, and reports:

- the time to analyse a mesa, a chica and a decision (median and 95th percentile);
- how the losses of each level's moves fall against the grades' thresholds (what the grades flag), and
  against lichess's (5, 10 and 15 points);
- stability: the share of decisions graded alike by two analyses with different seeds;
- with ``--deep N``: how often a move graded error or worse is one
  for an analysis that searches N worlds a decision (a deeper look).

Run from the repository root::

    python bench/analysis.py --players 2 --mesas 6 --levels facil,normal
    python bench/analysis.py --players 2 --mesas 4 --levels facil,normal --deep 400

This is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import time

from cuarenta import Game, Rules
from cuarenta.analysis import GRADES, THRESHOLDS, Review, analyst, analyze
from cuarenta.players import act, make_player
from cuarenta.record import GameRecord

#: lichess's thresholds of an inaccuracy, a mistake and a blunder, on a chance from 0 to 1.
LICHESS = (0.05, 0.10, 0.15)


def play(players: int, seed: int, levels: tuple[str, str]) -> tuple[GameRecord, list[str]]:
    rules = Rules.preset("a_todo_rigor", players=players)
    game = Game.new(rules, seed=seed)
    names = [levels[s % 2] for s in range(players)]
    bots = [make_player(n, f"{seed}/{s}") for s, n in enumerate(names)]
    for s, bot in enumerate(bots):
        bot.start(s, rules)
    while not game.is_over:
        game.play(act(bots[game.turn], game))
    return GameRecord.from_game(game), names


def quantile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2, choices=(2, 4))
    parser.add_argument("--mesas", type=int, default=4)
    parser.add_argument("--levels", default="facil,normal")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--deep", type=int, default=0, help="worlds of the deeper analysis (0: none)")
    parser.add_argument("--json", dest="json_path", default=None)
    args = parser.parse_args()
    a, b = args.levels.split(",")
    losses: dict[str, list[float]] = {a: [], b: []}
    mesa_seconds: list[float] = []
    chica_seconds: list[float] = []
    decision_ms: list[float] = []
    agree = total = 0
    deep_named = deep_confirmed = 0
    for k in range(args.mesas):
        record, names = play(args.players, args.seed * 1000 + k, (a, b))
        chicas = sum(record.chicas) if record.chicas else 1
        started = time.perf_counter()
        reviews: list[Review] = []
        stamps: list[float] = []
        for seat in range(2):  # one seat of each team is enough: partners are the same level
            reviews.append(
                analyze(record, seat, seed=0, progress=lambda d, t, s=stamps: s.append(time.perf_counter()))
            )
        seconds = time.perf_counter() - started
        mesa_seconds.append(seconds)
        chica_seconds.append(seconds / chicas)
        previous = started
        for stamp in stamps:
            decision_ms.append(1000 * (stamp - previous))
            previous = stamp
        for seat, review in enumerate(reviews):
            losses[names[seat]] += [d.loss for d in review.decisions]
            other = analyze(record, seat, seed=1)
            for x, y in zip(review.decisions, other.decisions, strict=True):
                total += 1
                agree += x.grade == y.grade
            if args.deep:
                own = analyst("experto", 0).budget
                deep = dataclasses.replace(own, nodes=0, min_worlds=args.deep, max_worlds=args.deep)
                deeper = analyze(record, seat, seed=2, budget=deep)
                for x, y in zip(review.decisions, deeper.decisions, strict=True):
                    if x.grade in ("error", "grave"):
                        deep_named += 1
                        deep_confirmed += y.grade in ("error", "grave")
        print(f"mesa {k}: {seconds:.1f} s for 2 seats, {chicas} chicas", flush=True)
    out = {
        "players": args.players,
        "mesas": args.mesas,
        "levels": [a, b],
        "mesa_seconds_median": statistics.median(mesa_seconds),
        "chica_seconds_median": statistics.median(chica_seconds),
        "chica_seconds_max": max(chica_seconds),
        "turn_ms_median": statistics.median(decision_ms),
        "turn_ms_p95": quantile(decision_ms, 0.95),
        "stability": agree / total if total else None,
        "decisions": total,
        "deep": (
            {"worlds": args.deep, "named": deep_named, "confirmed": deep_confirmed} if args.deep else None
        ),
        "grades": {
            level: {
                "decisions": len(xs),
                "mean_loss": sum(xs) / len(xs) if xs else 0.0,
                **{g: sum(x >= THRESHOLDS[g] for x in xs) / len(xs) if xs else 0.0 for g in GRADES},
                # what lichess's thresholds (0.1, 0.2, 0.3 of its -1..1 winning chances) would flag
                "lichess": [sum(x >= t for x in xs) / len(xs) if xs else 0.0 for t in LICHESS],
            }
            for level, xs in losses.items()
        },
    }
    print(json.dumps(out, indent=1))
    if args.json_path:
        with open(args.json_path, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
