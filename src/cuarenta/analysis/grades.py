"""How a move's cost is graded (docs/analysis.md "Grades").

A move's *loss* is what it cost in the chance of winning the chica, as the seat could judge it then: the
chance after the best move minus the chance after the move played, both from the seat's view alone. The
thresholds are 2, 4 and 8 percentage points. A chance in Cuarenta moves in small steps (a caída is 2 of
the 40 points), so lichess's thresholds (5, 10 and 15 points, its 0.1, 0.2 and 0.3 on a scale from −1 to
1) would call almost nothing a mistake: over 3 mesas of `facil` against `dificil` they flag 6% of `facil`'s
moves and none of `dificil`'s, these 17% and 0.7% (docs/analysis.md "Grades" has the figures and the
command).

>>> grade(0.01), grade(0.02), grade(0.05), grade(0.4)
(None, 'imprecision', 'error', 'grave')
"""

from __future__ import annotations

from typing import Final, Literal

#: A graded move: an imprecisión, an error, an error grave.
Grade = Literal["imprecision", "error", "grave"]

#: The grades, mildest first.
GRADES: Final[tuple[Grade, ...]] = ("imprecision", "error", "grave")

#: The least loss (in the chance of winning the chica, 0–1) of each grade.
THRESHOLDS: Final[dict[Grade, float]] = {"imprecision": 0.02, "error": 0.04, "grave": 0.08}


def grade(loss: float) -> Grade | None:
    """The grade of a move that lost ``loss`` of the chance to win the chica, or ``None`` (a good move)."""
    found: Grade | None = None
    for name in GRADES:
        if loss >= THRESHOLDS[name]:
            found = name
    return found


__all__ = ["GRADES", "THRESHOLDS", "Grade", "grade"]
