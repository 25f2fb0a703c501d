"""The computer's analysis of a person's moves (issue 29, docs/analysis.md): for each decision of a seat
that had a real choice, the move the strongest level would have made and what the move played cost in the
chance of winning the chica, judged only on what that seat knew then; graded and named in the game's words.

It sits above the engine and the computer players (it uses their search) and below the terminal and the
server; it says codes (grades, motifs), and the text catalogue says them in Spanish and English
(``analysis.*``).

>>> from cuarenta.analysis import THRESHOLDS, grade
>>> THRESHOLDS["error"], grade(0.05)
(0.04, 'error')
"""

from cuarenta.analysis.grades import GRADES, THRESHOLDS, Grade, grade
from cuarenta.analysis.luck import ChicaSplit, split
from cuarenta.analysis.motifs import MOTIFS, motifs
from cuarenta.analysis.review import (
    ANALYSIS_BUDGET,
    ANALYSIS_LEVEL,
    Decision,
    Question,
    Review,
    analyst,
    analyze,
    judge,
    questions,
)

__all__ = [
    "ANALYSIS_BUDGET",
    "ANALYSIS_LEVEL",
    "GRADES",
    "MOTIFS",
    "THRESHOLDS",
    "ChicaSplit",
    "Decision",
    "Grade",
    "Question",
    "Review",
    "analyst",
    "analyze",
    "grade",
    "judge",
    "motifs",
    "questions",
    "split",
]
