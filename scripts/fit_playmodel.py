"""Learn the play model ``experto`` reads the hidden hands with (cuarenta.players.playmodel).

Plays seeded self-play chicas between two computer players (``--policy``, default
``dificil``, the strongest honest level: the model says how a good player plays),
with 2 and with 4 players, keeps every decision with a real choice and fits the
conditional logit's weights (cuarenta.players.playfit). Writes
src/cuarenta/players/data/playmodel.json. Run from the repository root::

    .venv/bin/python scripts/fit_playmodel.py --jobs 2

With the defaults (seed 1) it writes the committed file byte for byte: the chicas
are seeded and gathered in order whatever ``--jobs`` is, and the fit is
deterministic. docs/strength.md "experto" gives its time and the model's figures.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

from cuarenta.players.playfit import collect, fit, log_likelihood

OUT = Path(__file__).resolve().parent.parent / "src" / "cuarenta" / "players" / "data" / "playmodel.json"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--policy", default="dificil", help="the player whose play is learned")
    parser.add_argument("--chicas2", type=int, default=240, help="chicas with 2 players")
    parser.add_argument("--chicas4", type=int, default=40, help="chicas with 4 players")
    parser.add_argument("--seed", default="1")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    started = time.monotonic()
    rows = collect(args.policy, args.policy, args.chicas2, 2, args.seed, jobs=args.jobs)
    rows += collect(args.policy, args.policy, args.chicas4, 4, args.seed, jobs=args.jobs)
    played = time.monotonic() - started
    model = fit(rows)
    uniform = sum(-math.log(len(options)) for options, _ in rows) / len(rows)
    args.out.write_text(model.to_json() + "\n", encoding="utf-8")
    print(
        f"{len(rows)} decisions from {args.chicas2} + {args.chicas4} chicas of {args.policy} "
        f"({played:.0f} s of play, {time.monotonic() - started - played:.0f} s of fit); "
        f"mean log-chance {log_likelihood(model, rows):.4f} (uniform {uniform:.4f}); wrote {args.out.name}",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
