"""``GET /api/puzzles`` and ``POST /api/puzzles/{id}/answer``: the shipped puzzles for the page
(docs/protocol.md "Puzzles"; the server and the device host answer the same).

A puzzle is sent as its seat sees it — the score from the seat's side, the plays of the deal so far, the
table, the card just dropped, the hand, the cards the seat has not seen (in the last deal of a 1 vs 1 hand:
the rival's) and the ways to play, described as a ``state`` message describes them — and never with its
answer: the answer, every way's chance and what the next best does wrong come back only for a move tried.

>>> first = puzzle_payload(None, None)
>>> first["id"] == shipped()[0].id and "answer" not in first and first["moves"] != []
True
>>> told = puzzle_answer(first["id"], {"move": first["moves"][0]["move"]})
>>> sorted(told)
['answer', 'reasons', 'right', 'values']
"""

from __future__ import annotations

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


@cache
def _by_id() -> dict[str, tuple[int, Puzzle]]:
    """Each shipped puzzle by its id, with its place (built once, as :func:`shipped` is read once)."""
    return {p.id: (i, p) for i, p in enumerate(shipped())}


def _find(puzzle_id: str) -> tuple[int, Puzzle]:
    found = _by_id().get(puzzle_id)
    if found is None:
        raise Refused(404, f"there is no puzzle {puzzle_id!r}", "unknown_puzzle")
    return found


def puzzle_view(index: int, puzzle: Puzzle) -> dict[str, Any]:
    """What the page shows of a puzzle (module docstring): everything its seat sees, not the answer."""
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
        "index": index,
        "count": len(shipped()),
        "rating": puzzle.rating,
        "players": game.players,
        "seat": seat,
        "scores": list(game.score),
        "plays": plays,
        "table": [str(c) for c in view.table],
        "last_drop": None if view.last_drop is None else str(view.last_drop),
        "hand": [str(c) for c in view.hand],
        "unseen": [str(c) for c in sorted(Knowledge.from_view(view).unseen)],
        "moves": describe_moves(game, legal),
    }


def puzzle_payload(rating: int | None, after: str | None) -> dict[str, Any]:
    """``GET /api/puzzles``: the puzzle after ``after`` (in the shipped order; the first after the last),
    else the one nearest ``rating`` (the first of them), else the first."""
    puzzles = shipped()
    if after is not None:
        index, _ = _find(after)
        index = (index + 1) % len(puzzles)
    elif rating is not None:
        index = min(range(len(puzzles)), key=lambda i: (abs(puzzles[i].rating - rating), i))
    else:
        index = 0
    return puzzle_view(index, puzzles[index])


def puzzle_answer(puzzle_id: str, body: Any) -> dict[str, Any]:
    """``POST /api/puzzles/{id}/answer`` with ``{"move": "..."}``: whether it is the answer (suits aside),
    the answer, every way to play with its chance of winning the chica (best first) and what the next best
    does wrong; ``Refused`` 400 for a body that is not one legal move, 404 for an unknown puzzle."""
    _, puzzle = _find(puzzle_id)
    if not isinstance(body, dict) or set(body) != {"move"} or not isinstance(body["move"], str):
        raise Refused(
            400, 'send {"move": "..."}: one move of the puzzle, in the notation of its moves', "bad_answer"
        )
    text = body["move"]
    if len(text) > MAX_MOVE_CHARS:
        raise Refused(400, f"a move is at most {MAX_MOVE_CHARS} characters", "bad_answer")
    try:
        action = parse_action(text)
    except MoveParseError as exc:
        raise Refused(400, f"{text!r} is not a move: {exc}", "bad_answer") from None
    if action not in puzzle.game().legal_moves():
        raise Refused(400, f"{text!r} cannot be played in this puzzle", "bad_answer")
    return {
        "right": puzzle.solves(action),
        "answer": str(puzzle.answer),
        "values": [[str(a), round(v, 4)] for a, v in puzzle.values],
        "reasons": list(puzzle.reasons),
    }


__all__ = ["MAX_MOVE_CHARS", "puzzle_answer", "puzzle_payload", "puzzle_view"]
