#!/usr/bin/env python3
"""Compute the perft move counts of a few fixed positions and write ``tests/data/perft/*.json``.

*Perft* counts the legal action sequences of each length from a position, walking the whole game
tree with ``Game.push``/``Game.pop``. The counts pin down move generation and every automatic step
that follows a move (deals, rondas, the end of a hand, the cartón, the end of a chica or of the mesa):
``tests/test_perft.py`` recomputes them and compares them with the stored numbers, and checks the
moves at the first levels of each tree against the independent reference generator of
``tests/test_reference_movegen.py``.

What is counted: ``counts[d - 1]`` is the number of sequences of ``d`` actions, each taken from
``Game.legal_moves()`` of the position it is played in. ``legal_moves`` lists each capture once by
ranks (same-rank table cards are interchangeable, R1), so two suits of one rank on the table do not
double a count; in manual capture mode (R12) every shorter escalera, the plain drop and each claim
are separate actions. When a deal, hand or chica ends the game goes on by itself: the next deal
comes from the position's ``stock``, later hands are shuffled from its ``seed``. Once the mesa is
over there are no more actions.

Each position is ``Game.from_position(Rules.from_dict(rules), **position)`` followed by the
``setup`` actions played with ``Game.play`` (a claim cannot be written into a position, so the
manual-capture position plays the forgetful move first). The depth of each file is the deepest whose
walk visits at most ``--max-nodes`` positions (the root and every position before the last level),
which keeps each count well under a second or two and makes the files reproducible.

Usage::

    .venv/bin/python scripts/make_perft.py              # rewrite tests/data/perft/*.json
    .venv/bin/python scripts/make_perft.py --check      # recompute and compare, write nothing
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

from cuarenta import CARDS, Game, Rules

ROOT = Path(__file__).resolve().parents[1]
OUT_DIR = ROOT / "tests" / "data" / "perft"
MAX_DEPTH = 20

COUNTING = (
    "counts[d-1] is the number of sequences of d legal actions from the position (after the setup "
    "actions), each action taken from Game.legal_moves() of the position it is played in: every "
    "capture once by ranks, and in manual capture mode also every shorter escalera, the plain drop "
    "and each claim. Deals, hand ends, cartón and chica ends happen by themselves; the next deals come "
    "from 'stock', later hands are shuffled from 'seed'. A finished mesa has no actions."
)


def split_rest(
    placed: list[list[str]], team0_count: int, shuffle_seed: int
) -> tuple[list[str], list[str], list[str]]:
    """The 40 cards minus ``placed``, shuffled by ``shuffle_seed``: (all of them, the first
    ``team0_count`` for pile 0, the others for pile 1)."""
    used = {c for group in placed for c in group}
    rest = [str(c) for c in CARDS if str(c) not in used]
    random.Random(shuffle_seed).shuffle(rest)
    return rest, rest[:team0_count], rest[team0_count:]


def positions() -> list[dict[str, Any]]:
    """The fixed positions, with what each exercises."""
    out: list[dict[str, Any]] = []

    # 1. Mano a mano, middle of the second deal: a caída on 5d, a sum with an escalera to the J.
    hands = [["4h", "Kd", "6c"], ["5s", "7h", "Ad", "Qc"]]
    table = ["2h", "3c", "5d", "Js"]
    stock_head = ["7s", "7d", "7c", "2s", "Qh", "4d", "As", "Kh", "3s", "6d"]  # seat 0 gets a ronda of 7
    rest, _, _ = split_rest([*hands, table, stock_head], 0, 1)
    stock = stock_head + rest[:10]
    piles_cards = rest[10:]
    out.append(
        {
            "name": "mano_a_mano_mid_deal",
            "description": (
                "a_todo_rigor, 2 players, second deal of the hand, 3 plays into it. Seat 1 may fall on 5d "
                "(caída), take 2h+3c, or 2h+5d and the J by escalera (R8, R10, R13). The next deal gives "
                "seat 0 a ronda of 7 (R16)."
            ),
            "rules": Rules.preset("a_todo_rigor", players=2),
            "position": {
                "hands": hands,
                "table": table,
                "stock": stock,
                "turn": 1,
                "dealer": 1,
                "scores": [12, 8],
                "piles": [piles_cards[:5], piles_cards[5:]],
                "last_drop": "5d",
                "seed": 101,
            },
            "setup": [],
        }
    )

    # 2. Parejas, first deal: seat 3 holds a ronda of 6 and has just dropped 6h; seat 0 holds 6c.
    hands = [["6c", "4h", "Ah", "Jd"], ["3h", "5c", "Qh", "7d"], ["4s", "As", "Jh", "3d"], ["6s", "6d", "2s"]]
    table = ["2c", "Qd", "6h"]
    piles = [[], ["Ks", "Kh"]]
    rest, _, _ = split_rest([*hands, table, *piles], 0, 2)
    out.append(
        {
            "name": "parejas_mid_deal",
            "description": (
                "todo_dos, 4 players, first deal, 5 plays into it (Kh, 2c, Ks x Kh, Qd, 6h). Seat 3 "
                "announced a ronda of 6 and just dropped 6h: seat 0 can fall on it with 6c, a caída a la "
                "ronda worth 4 in todo_dos (R18), or drop a card. Partners are seats 0/2 and 1/3 (R3)."
            ),
            "rules": Rules.preset("todo_dos", players=4),
            "position": {
                "hands": hands,
                "table": table,
                "stock": rest,
                "turn": 0,
                "dealer": 2,
                "scores": [0, 2],
                "piles": piles,
                "last_drop": "6h",
                "rondas": [[3, "6"]],
                "seed": 202,
            },
            "setup": [],
        }
    )

    # 3. Campeonato (manual capture): seat 3 takes 3c with 3h and forgets the escalera 4d 5s 6h.
    hands = [["2h", "7s"], ["6c"], ["4s"], ["3h", "7c"]]
    table = ["3c", "4d", "5s", "6h", "2d", "2s", "Jc"]
    rest, pile0, pile1 = split_rest([*hands, table], 13, 3)
    out.append(
        {
            "name": "campeonato_claim",
            "description": (
                "campeonato, 4 players, manual capture (R12), last deal of the hand (no stock), 14 plays "
                "into it; the table holds two 2s. Setup: seat 3 plays '3h x3c' "
                "and forgets the escalera 4d 5s 6h, so seat 0 may first claim it ('claim 4d,5s,6h') or "
                "play: 2h takes a 2 (no caída: seat 3 captured, R13; one move for either 2), 7s takes "
                "a 2 and 5s with or without the J. Every shorter escalera and every plain drop is an "
                "action of its own. The hand ends within the tree, and the "
                "next hand is dealt from the seed."
            ),
            "rules": Rules.preset("campeonato", players=4),
            "position": {
                "hands": hands,
                "table": table,
                "stock": [],
                "turn": 3,
                "dealer": 0,
                "scores": [20, 24],
                "piles": [pile0, pile1],
                "last_drop": "2s",
                "chicas": [1, 0],
                "seed": 303,
            },
            "setup": ["3h x3c"],
        }
    )

    # 4. Deal boundary: the last two cards of the third deal, 10 cards left in the stock.
    hands = [["4c"], ["Qd"]]
    table = ["Qh", "Ks", "5d", "6s", "Ac", "3s"]
    stock = ["7h", "7s", "7d", "2c", "Jh", "5c", "Kd", "3d", "Ad", "Qs"]  # seat 1 gets a ronda of 7
    rest, pile0, pile1 = split_rest([*hands, table, stock], 11, 4)
    out.append(
        {
            "name": "deal_boundary",
            "description": (
                "basico, 2 players, end of the third deal: seat 1 falls on Qh and takes the K (caída, R10, "
                "R13), seat 0 then takes A+3 and the run 5 6 (limpia, R14); then the fourth and last deal "
                "from the stock (R5), where seat 1, right of the dealer, plays first (R6) and holds a "
                "ronda of 7."
            ),
            "rules": Rules.preset("basico", players=2),
            "position": {
                "hands": hands,
                "table": table,
                "stock": stock,
                "turn": 1,
                "dealer": 0,
                "scores": [10, 14],
                "piles": [pile0, pile1],
                "last_drop": "Qh",
                "seed": 404,
            },
            "setup": [],
        }
    )

    # 5. Hand end: the last three cards of the hand, then a new hand shuffled from the seed.
    hands = [["Jd"], ["2c", "7h"]]
    table = ["5s", "Jc", "Ad", "6h"]
    rest, pile0, pile1 = split_rest([*hands, table], 17, 5)
    out.append(
        {
            "name": "hand_end",
            "description": (
                "a_todo_rigor, 2 players, last deal, 3 cards left (seat 1 holds 2c 7h, seat 0 Jd). The hand "
                "ends, leftovers belong to nobody (R22), the cartón is counted (R23), and the next hand "
                "is dealt by seat 0, the next dealer to the right (R4), from the seed."
            ),
            "rules": Rules.preset("a_todo_rigor", players=2),
            "position": {
                "hands": hands,
                "table": table,
                "stock": [],
                "turn": 1,
                "dealer": 1,
                "scores": [16, 22],
                "piles": [pile0, pile1],
                "seed": 505,
            },
            "setup": [],
        }
    )

    # 6. Chica and mesa end: team 0 at 38 needs a caída; team 1's cartón would take it to 40.
    hands = [["5s", "Jd"], ["5h", "Jc"]]
    table = ["3c", "Kh"]
    rest, pile0, pile1 = split_rest([*hands, table], 13, 6)
    out.append(
        {
            "name": "chica_end",
            "description": (
                "a_todo_rigor, 2 players, chicas 1-0, scores 38-32, last deal, 4 cards left. Whatever seat 1 "
                "drops, seat 0 can fall on it: a caída at 38 wins the chica and the mesa (R20, R24, R26), "
                "and the tree stops there. Otherwise team 1's cartón of 21+ cards (8 points) wins it the "
                "chica at the hand end while team 0 at 38 scores nothing from the cartón (R20), and a new "
                "chica is dealt."
            ),
            "rules": Rules.preset("a_todo_rigor", players=2),
            "position": {
                "hands": hands,
                "table": table,
                "stock": [],
                "turn": 1,
                "dealer": 0,
                "scores": [38, 32],
                "piles": [pile0, pile1],
                "chicas": [1, 0],
                "seed": 606,
            },
            "setup": [],
        }
    )
    return out


def build(rules: dict[str, Any], position: dict[str, Any], setup: list[str]) -> Game:
    """The game of a perft file: the position, then its setup actions."""
    game = Game.from_position(Rules.from_dict(rules), **position)
    for action in setup:
        game.play(action)
    return game


def perft(game: Game, depth: int, max_nodes: int | None = None) -> list[int]:
    """counts[d] = number of action sequences of length d + 1, by push/pop.

    With ``max_nodes``, the levels are counted breadth by breadth (one walk per depth) and the
    counting stops before a walk would visit more positions than that; the list is then shorter.
    """
    if max_nodes is not None:
        counts: list[int] = []
        for d in range(1, depth + 1):
            if counts and 1 + sum(counts) > max_nodes:
                break
            counts = perft(game, d)
        return counts
    counts = [0] * depth

    def walk(level: int) -> None:
        moves = game.legal_moves()
        counts[level] += len(moves)
        if level + 1 < depth:
            for move in moves:
                game.push(move)
                walk(level + 1)
                game.pop()

    walk(0)
    return counts


def to_text(value: Any, level: int = 0) -> str:
    """JSON with one key per line and every list on one line."""
    if isinstance(value, dict):
        pad = "  " * (level + 1)
        items = [f"{pad}{json.dumps(k)}: {to_text(v, level + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + "  " * level + "}"
    return json.dumps(value, ensure_ascii=False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--max-nodes", type=int, default=150_000, help="positions a file's walk may visit (sets its depth)"
    )
    parser.add_argument("--check", action="store_true", help="recompute the stored files, write nothing")
    args = parser.parse_args(argv)
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    failed = 0
    for spec in positions():
        rules = spec["rules"].to_dict()
        path = OUT_DIR / f"{spec['name']}.json"
        if args.check:
            data = json.loads(path.read_text(encoding="utf-8"))
            got = perft(build(data["rules"], data["position"], data["setup"]), data["depth"])
            ok = got == data["counts"]
            failed += not ok
            stored = data["counts"]
            print(f"{spec['name']}: " + ("ok" if ok else f"MISMATCH {got} != {stored}"))
            continue
        game = build(rules, spec["position"], spec["setup"])
        start = time.perf_counter()
        full = perft(game, MAX_DEPTH, args.max_nodes)
        # the walk to depth d visits the root and every position of the first d - 1 levels
        depth = 1
        while depth < len(full) and 1 + sum(full[:depth]) <= args.max_nodes:
            depth += 1
        counts = full[:depth]
        seconds = time.perf_counter() - start
        data = {
            "name": spec["name"],
            "description": spec["description"],
            "generated_by": "scripts/make_perft.py",
            "counting": COUNTING,
            "rules": rules,
            "position": spec["position"],
            "setup": spec["setup"],
            "root_moves": [str(m) for m in game.legal_moves()],
            "depth": depth,
            "counts": counts,
        }
        path.write_text(to_text(data) + "\n", encoding="utf-8")
        print(f"{path.relative_to(ROOT)}: depth {depth} ({seconds:.2f}s), counts {counts}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
