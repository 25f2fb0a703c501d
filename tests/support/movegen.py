"""An independent, naive reference for the capture rules R7–R12, written from the wording of docs/rules.md
only (it does not use ``cuarenta.captures`` nor any engine helper): tests/test_reference_movegen.py
checks the engine against it and tests/test_perft.py gives its perft numbers their meaning with it."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations

from cuarenta import Card, Game, Move

# ---------------------------------------------------------------------------------------------
# The reference (from the wording of docs/rules.md only)
# ---------------------------------------------------------------------------------------------

#: R1: rank order A 2 3 4 5 6 7 J Q K, used by the escalera.
RANK_ORDER = "A234567JQK"
#: R2: A=1, 2..7 their number; J, Q, K have no value.
VALUES: dict[str, int] = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7}

#: A move by rank signature: (played card, sorted base ranks, escalera ranks in order).
Key = tuple[Card, tuple[int, ...], tuple[int, ...]]


def ref_rank(card: Card | str) -> int:
    """Rank position in RANK_ORDER, read from the card's text (not from the engine's encoding)."""
    return RANK_ORDER.index(str(card)[0])


def ref_value(card: Card | str) -> int | None:
    return VALUES.get(str(card)[0])


def reference_bases(card: Card, table: Sequence[Card], two_only: bool) -> list[tuple[Card, ...]]:
    """Every base open to ``card`` (R7, R8, R9): each subset of the table that is one igualdad or one sum."""
    bases: list[tuple[Card, ...]] = []
    value = ref_value(card)
    for size in range(1, len(table) + 1):
        for subset in combinations(table, size):
            if size == 1:
                if ref_rank(subset[0]) == ref_rank(card):
                    bases.append(subset)  # R7 igualdad
                continue
            if value is None or (two_only and size != 2):
                continue  # R2: J, Q, K never sum; sum_cards="two": exactly two cards
            values = [ref_value(c) for c in subset]
            if all(v is not None for v in values) and sum(v for v in values if v is not None) == value:
                bases.append(subset)  # R8 suma
    return bases


def reference_run(card: Card, rest_of_table: Iterable[Card]) -> tuple[int, ...]:
    """R10: the ranks following the played rank, in order, while each is on the (remaining) table."""
    present = {ref_rank(c) for c in rest_of_table}
    run: list[int] = []
    r = ref_rank(card) + 1
    while r < len(RANK_ORDER) and r in present:
        run.append(r)
        r += 1
    return tuple(run)


def reference_captures(
    card: Card, table: Sequence[Card], two_only: bool
) -> set[tuple[tuple[int, ...], tuple[int, ...]]]:
    """(sorted base ranks, full escalera ranks) of every capture open to ``card``."""
    out = set()
    for base in reference_bases(card, table, two_only):
        rest = [c for c in table if c not in base]
        out.add((tuple(sorted(ref_rank(c) for c in base)), reference_run(card, rest)))
    return out


def reference_move_keys(
    hand: Sequence[Card], table: Sequence[Card], capture: str, two_only: bool
) -> set[Key]:
    """Every legal move (R7–R12) by rank signature."""
    keys: set[Key] = set()
    for card in hand:
        caps = reference_captures(card, table, two_only)
        if capture == "manual" or not caps:
            keys.add((card, (), ()))  # a drop: always allowed in manual mode, the only move otherwise
        for base, run in caps:
            if capture == "manual":
                for k in range(len(run) + 1):
                    keys.add((card, base, run[:k]))
            else:
                keys.add((card, base, run))
    return keys


def reference_claims(
    card: Card, table_before: Sequence[Card], move: Move, two_only: bool
) -> set[tuple[int, ...]]:
    """R12 manual capture: what the next seat may claim after ``move`` (sorted rank tuples).

    The rest of a short escalera; or, when the player took nothing though a base existed, any one
    capture that was open to it: the played card, that base and its escalera.
    """
    caps = reference_captures(card, table_before, two_only)
    if not move.base:
        return {tuple(sorted((ref_rank(card), *base, *run))) for base, run in caps}
    base_key = tuple(sorted(ref_rank(c) for c in move.base))
    taken = tuple(ref_rank(c) for c in move.run)
    for base, run in caps:
        if base == base_key and len(taken) < len(run):
            return {tuple(sorted(run[len(taken) :]))}
    return set()


def move_key(move: Move) -> Key:
    return (move.card, tuple(sorted(ref_rank(c) for c in move.base)), tuple(ref_rank(c) for c in move.run))


def engine_move_keys(game: Game) -> list[Key]:
    return [move_key(m) for m in game.legal_moves() if isinstance(m, Move)]


def engine_claim_keys(game: Game) -> list[tuple[int, ...]]:
    return [tuple(sorted(ref_rank(c) for c in opt)) for opt in game.claimable]
