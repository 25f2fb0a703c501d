"""``GET /api/puzzles``, ``POST /api/puzzles/{id}/answer`` and ``POST /api/puzzles/{id}/report``: the
shipped puzzles for the page (docs/protocol.md "Puzzles"; the server and the device host answer the same,
the device with the shipped ratings and no reports).

A puzzle is sent as its seat sees it — the score from the seat's side, the plays of the deal so far, the
table, the card just dropped, the hand, the cards the seat has not seen (in the last deal of a 1 vs 1 hand:
the rival's) and the ways to play, described as a ``state`` message describes them — and never with its
answer: the answer, every way's chance and what the next best does wrong come back only for a move tried.
The ratings are the server's (:mod:`cuarenta.server.ratings.puzzles`), given here as a mapping of the
puzzles tried to their current ratings and a :data:`Rate` that records a try; without them (the device),
every puzzle has its shipped rating and a try moves nothing.

>>> first = puzzle_payload(None, None)
>>> first["id"] == shipped()[0].id and "answer" not in first and first["moves"] != []
True
>>> told = puzzle_answer(first["id"], {"move": first["moves"][0]["move"]})
>>> sorted(told)
['answer', 'puzzle_rating', 'rated', 'reasons', 'right', 'solver_rating', 'values']
>>> told["rated"], told["puzzle_rating"] == {"before": shipped()[0].rating, "after": shipped()[0].rating}
(False, True)
>>> report_reason(first["id"], {"reason": "  the answer\tis wrong "})
'the answer is wrong'
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any, Final

from cuarenta.analysis.puzzles import Puzzle, shipped
from cuarenta.errors import MoveParseError
from cuarenta.moves import Move, parse_action
from cuarenta.players.knowledge import Knowledge
from cuarenta.server.answers.refused import Refused
from cuarenta.server.authority.eventview import describe_moves

#: The longest move text read from an answer (a claim of a few cards is far shorter).
MAX_MOVE_CHARS: Final = 80
#: A solver's id: the random id the page makes once and keeps (``crypto.randomUUID`` without dashes: 32
#: hex digits; any 16 to 64 letters, digits, ``_`` or ``-``).
SOLVER_PATTERN: Final = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
#: The longest reason of a report, after its runs of spaces and lines are made one space.
MAX_REASON_CHARS: Final = 200
#: How a try is rated: ``rate(puzzle, solved, solver)`` (``solver``: the page's id, or ``None``) gives
#: the answer's ``rated``, ``puzzle_rating`` (``{"before", "after"}``) and ``solver_rating``.
Rate = Callable[[Puzzle, bool, str | None], dict[str, Any]]


@cache
def _by_id() -> dict[str, tuple[int, Puzzle]]:
    """Each shipped puzzle by its id, with its place (built once, as :func:`shipped` is read once)."""
    return {p.id: (i, p) for i, p in enumerate(shipped())}


def _find(puzzle_id: str) -> tuple[int, Puzzle]:
    found = _by_id().get(puzzle_id)
    if found is None:
        raise Refused(404, f"there is no puzzle {puzzle_id!r}", "unknown_puzzle")
    return found


def puzzle_view(index: int, puzzle: Puzzle, rating: int | None = None) -> dict[str, Any]:
    """What the page shows of a puzzle (module docstring): everything its seat sees, not the answer;
    ``rating`` is its current rating (default: the shipped one)."""
    game = puzzle.game()
    seat = game.turn
    view = game.view(seat)
    start = puzzle.record.start or {}
    first = int(start.get("turn", 0))
    plays = [
        {
            "seat": (first + i) % game.players,
            "move": str(a),
            "card": str(a.card) if isinstance(a, Move) else None,
            "taken": [str(c) for c in (a.taken if isinstance(a, Move) else a.cards)],
        }
        for i, a in enumerate(game.actions)
    ]
    legal = game.legal_moves()
    return {
        "id": puzzle.id,
        "kind": puzzle.kind,  # exact: the rival holds every unseen card; sampled: some are in the stock
        "index": index,
        "count": len(shipped()),
        "rating": puzzle.rating if rating is None else rating,
        "players": game.players,
        "seat": seat,
        "scores": list(game.score),
        "plays": plays,
        "table": [str(c) for c in view.table],
        "last_drop": None if view.last_drop is None else str(view.last_drop),
        "hand": [str(c) for c in view.hand],
        "unseen": [str(c) for c in sorted(Knowledge.from_view(view).unseen)],
        "stock": len(game.stock),
        "moves": describe_moves(game, legal),
    }


def puzzle_payload(
    rating: int | None, after: str | None, current: Mapping[str, int] | None = None
) -> dict[str, Any]:
    """``GET /api/puzzles``: the puzzle after ``after`` (in the shipped order; the first after the last),
    else the one nearest ``rating`` (the first of them), else the first. ``current``: the current rating
    of each puzzle tried (the others have their shipped ones)."""
    puzzles = shipped()
    now = {} if current is None else current

    def rating_of(i: int) -> int:
        return now.get(puzzles[i].id, puzzles[i].rating)

    if after is not None:
        index, _ = _find(after)
        index = (index + 1) % len(puzzles)
    elif rating is not None:
        index = min(range(len(puzzles)), key=lambda i: (abs(rating_of(i) - rating), i))
    else:
        index = 0
    return puzzle_view(index, puzzles[index], rating_of(index))


def shipped_rating(puzzle: Puzzle, solved: bool, solver: str | None) -> dict[str, Any]:
    """A :data:`Rate` that moves nothing: the shipped rating, no solver's (the device's)."""
    return {
        "rated": False,
        "puzzle_rating": {"before": puzzle.rating, "after": puzzle.rating},
        "solver_rating": None,
    }


def puzzle_answer(puzzle_id: str, body: Any, rate: Rate = shipped_rating) -> dict[str, Any]:
    """``POST /api/puzzles/{id}/answer`` with ``{"move": "...", "solver": "..."}`` (``solver`` optional):
    whether it is the answer (suits aside), the answer, every way to play with its chance of winning the
    chica (best first), what the next best does wrong, and the ratings ``rate`` tells (the puzzle's before
    and after, the solver's); ``Refused`` 400 ``bad_answer`` for a body that is not one legal move,
    ``bad_solver`` for a solver that is not an id of :data:`SOLVER_PATTERN`, 404 for an unknown puzzle.
    Everything is checked before anything is rated."""
    _, puzzle = _find(puzzle_id)
    if (
        not isinstance(body, dict)
        or "move" not in body
        or not set(body) <= {"move", "solver"}
        or not isinstance(body["move"], str)
    ):
        raise Refused(
            400,
            'send {"move": "..."}: one move of the puzzle, in the notation of its moves (and "solver": '
            "your solver id, if you want your tries rated)",
            "bad_answer",
        )
    solver = body.get("solver")
    if solver is not None and not (isinstance(solver, str) and SOLVER_PATTERN.match(solver)):
        raise Refused(400, "a solver id is 16 to 64 letters, digits, '_' or '-'", "bad_solver")
    text = body["move"]
    if len(text) > MAX_MOVE_CHARS:
        raise Refused(400, f"a move is at most {MAX_MOVE_CHARS} characters", "bad_answer")
    try:
        action = parse_action(text)
    except MoveParseError as exc:
        raise Refused(400, f"{text!r} is not a move: {exc}", "bad_answer") from None
    if action not in puzzle.game().legal_moves():
        raise Refused(400, f"{text!r} cannot be played in this puzzle", "bad_answer")
    right = puzzle.solves(action)
    return {
        "right": right,
        "answer": str(puzzle.answer),
        "values": [[str(a), round(v, 4)] for a, v in puzzle.values],
        "reasons": list(puzzle.reasons),
        **rate(puzzle, right, solver),
    }


def report_reason(puzzle_id: str, body: Any) -> str:
    """The reason of ``POST /api/puzzles/{id}/report`` with ``{"reason": "..."}``, checked: its runs of
    spaces and lines made one space, 1 to :data:`MAX_REASON_CHARS` characters, no control or format
    characters; ``Refused`` 400 ``bad_report`` otherwise, 404 ``unknown_puzzle``."""
    _find(puzzle_id)
    if not isinstance(body, dict) or set(body) != {"reason"} or not isinstance(body["reason"], str):
        raise Refused(
            400, 'send {"reason": "..."}: what is wrong with the puzzle, in a few words', "bad_report"
        )
    reason = " ".join(body["reason"].split())
    if not reason:
        raise Refused(400, "say in a few words what is wrong with the puzzle", "bad_report")
    if len(reason) > MAX_REASON_CHARS:
        raise Refused(400, f"a reason is at most {MAX_REASON_CHARS} characters", "bad_report")
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") for ch in reason):
        raise Refused(400, "a reason is plain text: no control or invisible characters", "bad_report")
    return reason


__all__ = [
    "MAX_MOVE_CHARS",
    "MAX_REASON_CHARS",
    "SOLVER_PATTERN",
    "Rate",
    "puzzle_answer",
    "puzzle_payload",
    "puzzle_view",
    "report_reason",
    "shipped_rating",
]
