"""How much ``experto``'s weighing sharpens its worlds: the effective sample size of the weights.

In ``dificil`` self-play (rules ``a_todo_rigor``, 2 players, seeds 0 … N−1, the first 60 actions of each
chica), at every turn where another seat has played in the deal, 400 worlds are sampled as ``experto``
samples them and weighed by the shipped model of play at several trusts; the effective sample size
``(Σw)² / Σw²`` is 400 when the weights are equal and 1 when one world takes everything. Prints its median
and 10th percentile per trust (docs/strength.md "experto (issue 28)"). Run from the repository root::

    .venv/bin/python bench/experto_ess.py --chicas 30
"""

from __future__ import annotations

import argparse
import math
import random
import statistics

from cuarenta import Game, Rules
from cuarenta.players import act, make_player
from cuarenta.players.dificil import passed_caidas
from cuarenta.players.knowledge import Knowledge, sample_deal
from cuarenta.players.playmodel import deal_decisions, play_model

TRUSTS = (1.0, 2.0, 4.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chicas", type=int, default=30)
    parser.add_argument("--worlds", type=int, default=400)
    args = parser.parse_args()
    model = play_model()
    sizes: dict[float, list[float]] = {t: [] for t in TRUSTS}
    for seed in range(args.chicas):
        game = Game.new(Rules(chicas=1), seed=seed)
        bots = [make_player("dificil", f"{seed}/{s}") for s in range(2)]
        for _ in range(60):
            if game.is_over:
                break
            seat = game.turn
            view = game.view(seat)
            decisions = [d for d in deal_decisions(view) if d.seat != seat]
            if decisions and len(view.hand) >= 2:
                know = Knowledge.from_view(view)
                rng = random.Random(seed)
                pool = [sample_deal(know, rng, passed_caidas(view)) for _ in range(args.worlds)]
                logs = [model.world_log_likelihood(decisions, hands, seat, know.rules) for hands, _ in pool]
                top = max(logs)
                for trust in TRUSTS:
                    w = [math.exp(trust * (x - top)) for x in logs]
                    sizes[trust].append(sum(w) ** 2 / sum(x * x for x in w))
            game.play(act(bots[seat], game))
    for trust, found in sizes.items():
        found.sort()
        print(
            f"trust {trust:g}: {len(found)} positions, effective sample size of {args.worlds} worlds: "
            f"median {statistics.median(found):.1f}, 10th percentile {found[len(found) // 10]:.1f}"
        )


if __name__ == "__main__":
    main()
