"""Build the puzzles shipped with the package (cuarenta.analysis.puzzles, docs/analysis.md "Puzzles").

Plays seeded 1 vs 1 self-play mesas (``--players``, default ``normal`` against ``normal``), solves exactly
every turn of the last deal of each hand (the stock is empty: a card counter knows the rival's cards), and
keeps a position when one way to play leads every other by the margin in the chance of winning the chica
(one a deal at most) and at least one of the trying levels (facil, normal) misses it, until ``--count``
puzzles. With ``--sampled N`` it also mines N *sampled* puzzles from positions with cards in the stock (the
answer leads by the sampled margin in 95 of 100 worlds dealt from the seat's view, and a trying level misses
it) and puts one after every ``--every`` exact ones. Writes src/cuarenta/analysis/data/puzzles.json. Run
from the repository root::

    .venv/bin/python scripts/make_puzzles.py --count 1000 --sampled 40

The same arguments write the same bytes (the mesas are seeded and searched in order).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

from cuarenta.analysis.puzzles import BASE_RATING, Puzzle, mine, mine_sampled, write

OUT = Path(__file__).resolve().parent.parent / "src" / "cuarenta" / "analysis" / "data" / "puzzles.json"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000, help="puzzles to keep")
    parser.add_argument("--seed", default="1")
    parser.add_argument("--players", default="normal,normal", help="the two self-play levels")
    parser.add_argument("--max-mesas", type=int, default=100_000, help="give up after this many mesas")
    parser.add_argument("--sampled", type=int, default=0, help="sampled puzzles to keep as well")
    parser.add_argument("--every", type=int, default=20, help="one sampled puzzle after every N exact ones")
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
    mesas = int(kept[-1].id.split("-")[1]) + 1 if kept else 0
    exact_seconds = time.monotonic() - started
    extra: list[Puzzle] = []
    tried = 0
    if args.sampled:
        for puzzle in mine_sampled(args.seed, args.max_mesas, players=(a, b)):
            tried += 1
            if puzzle.rating > BASE_RATING:
                extra.append(puzzle)
                if len(extra) == args.sampled:
                    break
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(write(interleave(kept, extra, args.every)), encoding="utf-8")
    seconds = time.monotonic() - started
    ratings = dict(sorted(Counter(p.rating for p in kept).items()))
    rate = 3600 * len(kept) / max(exact_seconds, 1e-9)
    print(
        f"{len(kept)} puzzles kept of {found} found in {mesas} mesas of {a} vs {b} ({exact_seconds:.0f} s, "
        f"{rate:.0f} an hour); first ratings {ratings}; wrote {args.out.name}",
        file=sys.stderr,
    )
    if args.sampled:
        sampled_mesas = int(extra[-1].id.split("-")[1]) + 1 if extra else 0
        print(
            f"{len(extra)} sampled puzzles kept of {tried} found in {sampled_mesas} mesas "
            f"({seconds - exact_seconds:.0f} s)",
            file=sys.stderr,
        )
        if len(extra) != args.sampled:
            return 1
    return 0 if len(kept) == args.count else 1


def interleave(exact: list[Puzzle], extra: list[Puzzle], every: int) -> list[Puzzle]:
    """The exact puzzles with one of ``extra`` after every ``every`` of them (the rest of ``extra`` at the
    end): the page and the terminal meet a sampled puzzle now and then, in order."""
    out: list[Puzzle] = []
    left = list(extra)
    for i, puzzle in enumerate(exact, start=1):
        out.append(puzzle)
        if left and i % every == 0:
            out.append(left.pop(0))
    return out + left


if __name__ == "__main__":
    sys.exit(main())
