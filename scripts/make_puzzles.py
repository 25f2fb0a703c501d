"""Build the puzzles shipped with the package (cuarenta.analysis.puzzles, docs/analysis.md "Puzzles").

Plays seeded 1 vs 1 self-play mesas (``--players``, default ``normal`` against ``normal``), solves exactly
every turn of the last deal of each hand (the stock is empty: a card counter knows the rival's cards), and
keeps a position when one way to play leads every other by the margin in the chance of winning the chica
(one a deal at most) and at least one of the trying levels (facil, normal) misses it, until ``--count``
puzzles. Writes src/cuarenta/analysis/data/puzzles.json. Run from the repository root::

    .venv/bin/python scripts/make_puzzles.py --count 1000

The same arguments write the same bytes (the mesas are seeded and searched in order).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

from cuarenta.analysis.puzzles import BASE_RATING, mine, write

OUT = Path(__file__).resolve().parent.parent / "src" / "cuarenta" / "analysis" / "data" / "puzzles.json"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000, help="puzzles to keep")
    parser.add_argument("--seed", default="1")
    parser.add_argument("--players", default="normal,normal", help="the two self-play levels")
    parser.add_argument("--max-mesas", type=int, default=100_000, help="give up after this many mesas")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    a, b = args.players.split(",")
    started = time.monotonic()
    kept = []
    found = 0
    for puzzle in mine(args.seed, args.max_mesas, players=(a, b)):
        found += 1
        if puzzle.rating > BASE_RATING:  # a trying level misses it: not a plain "take the card"
            kept.append(puzzle)
            if len(kept) == args.count:
                break
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(write(kept), encoding="utf-8")
    mesas = int(kept[-1].id.split("-")[1]) + 1 if kept else 0
    seconds = time.monotonic() - started
    ratings = dict(sorted(Counter(p.rating for p in kept).items()))
    rate = 3600 * len(kept) / max(seconds, 1e-9)
    print(
        f"{len(kept)} puzzles kept of {found} found in {mesas} mesas of {a} vs {b} ({seconds:.0f} s, "
        f"{rate:.0f} an hour); first ratings {ratings}; wrote {args.out.name}",
        file=sys.stderr,
    )
    return 0 if len(kept) == args.count else 1


if __name__ == "__main__":
    sys.exit(main())
