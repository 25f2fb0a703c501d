"""What a played rank can take from a table, by ranks only (R7–R10).

Suits never matter for captures, so the options depend only on the played
rank and on how many cards of each rank lie on the table. The table is
encoded as an integer with 3 bits per rank (``count << 3 * rank``), and the
options for each (table, rank) pair are computed once and memoised, which
makes move generation a dictionary look-up.

>>> table = table_code([2, 3, 7])          # 3, 4 and J on the table
>>> capture_options(table, 6)              # a 7 takes 3+4 then the J
(((2, 3), (7,)),)
>>> capture_options(table_code([2, 3, 4, 5, 6, 7]), 2)   # 3 takes 3, then 4 5 6 7 J
(((2,), (3, 4, 5, 6, 7)),)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from cuarenta.cards import JACK, NUM_RANKS

#: One capture, by rank indices: (base ranks, escalera ranks).
RankCapture = tuple[tuple[int, ...], tuple[int, ...]]

RANK_SHIFT: Final = tuple(3 * r for r in range(NUM_RANKS))
RANK_UNIT: Final = tuple(1 << (3 * r) for r in range(NUM_RANKS))

_memos: dict[bool, dict[int, tuple[RankCapture, ...]]] = {False: {}, True: {}}
_masks: dict[bool, dict[int, int]] = {False: {}, True: {}}


def table_code(ranks: Iterable[int]) -> int:
    """Encode a multiset of rank indices as the 3-bits-per-rank table code."""
    code = 0
    for r in ranks:
        code += RANK_UNIT[r]
    return code


def rank_counts(code: int) -> list[int]:
    """Decode a table code into a list of 10 counts."""
    return [(code >> RANK_SHIFT[r]) & 7 for r in range(NUM_RANKS)]


def _sum_sets(counts: list[int], value: int, two_only: bool) -> list[tuple[int, ...]]:
    """Multisets of ranks A..7 (values 1..7) on the table that add up to ``value``."""
    found: list[tuple[int, ...]] = []

    def walk(rank: int, remaining: int, chosen: list[int]) -> None:
        if remaining == 0:
            if len(chosen) >= 2 and (not two_only or len(chosen) == 2):
                found.append(tuple(chosen))
            return
        if two_only and len(chosen) >= 2:
            return
        for r in range(rank, min(JACK, remaining)):
            # a rank r (value r+1) may be used as many times as it lies on the table
            used = chosen.count(r)
            if used < counts[r] and r + 1 <= remaining:
                chosen.append(r)
                walk(r, remaining - (r + 1), chosen)
                chosen.pop()

    walk(0, value, [])
    return found


def _compute(code: int, rank: int, two_only: bool) -> tuple[RankCapture, ...]:
    counts = rank_counts(code)
    run: list[int] = []
    r = rank + 1
    while r < NUM_RANKS and counts[r]:
        run.append(r)
        r += 1
    run_t = tuple(run)
    options: list[RankCapture] = []
    if counts[rank]:
        options.append(((rank,), run_t))
    if rank < JACK:
        for base in _sum_sets(counts, rank + 1, two_only):
            options.append((base, run_t))
    return tuple(options)


def capture_options(code: int, rank: int, two_only: bool = False) -> tuple[RankCapture, ...]:
    """Every capture open to a card of ``rank`` on the table ``code``.

    Each option is one base (R9: a pair, or one sum set) with the whole escalera
    that follows the played rank (R10). An empty tuple means the card takes nothing.
    ``two_only`` is the ``sum_cards="two"`` option.
    """
    memo = _memos[two_only]
    key = (code << 4) | rank
    found = memo.get(key)
    if found is None:
        found = _compute(code, rank, two_only)
        memo[key] = found
    return found


def options_memo(two_only: bool) -> dict[int, tuple[RankCapture, ...]]:
    """The memo behind :func:`capture_options`, keyed by ``(code << 4) | rank``.

    The engine reads it directly in its move generator; a missing key means
    "not computed yet" (call :func:`capture_options`).
    """
    return _memos[two_only]


def capture_mask(code: int, two_only: bool = False) -> int:
    """Bit ``r`` set when a card of rank ``r`` takes something from the table ``code``.

    >>> bin(capture_mask(table_code([2, 3, 7])))   # 3 4 J: a 3, 4 or J pairs; a 7 sums 3+4
    '0b11001100'
    """
    memo = _masks[two_only]
    found = memo.get(code)
    if found is None:
        found = 0
        for rank in range(NUM_RANKS):
            if capture_options(code, rank, two_only):
                found |= 1 << rank
        memo[code] = found
    return found


def masks_memo(two_only: bool) -> dict[int, int]:
    """The memo behind :func:`capture_mask`, keyed by the table code."""
    return _masks[two_only]
