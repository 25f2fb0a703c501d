"""``GET /api/puzzles`` and ``POST /api/puzzles/{id}/answer``: the shipped puzzles, for the page
(docs/protocol.md "Puzzles"; built in :mod:`cuarenta.server.answers.puzzles`, which the device host
answers with too).

>>> PuzzleMove(move="7h x7s").move
'7h x7s'
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from pydantic import BaseModel, ConfigDict, Field, StrictStr

from cuarenta.server.answers import puzzles
from cuarenta.server.answers.refused import Refused
from cuarenta.server.edge.deps import Refusal, errors

router = APIRouter()

#: A puzzle's id, as the shipped file names them (``1-0-117``).
PuzzleId = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[0-9A-Za-z_-]+$")]


class PuzzleMove(BaseModel):
    """The body of ``POST /api/puzzles/{id}/answer``: the move tried, in the notation of the puzzle's
    ``moves``."""

    model_config = ConfigDict(extra="forbid")

    move: Annotated[StrictStr, Field(min_length=1, max_length=puzzles.MAX_MOVE_CHARS)]


@router.get("/api/puzzles", responses=errors(400, 404))
def puzzle(
    rating: Annotated[int | None, Query(ge=0, le=4000)] = None,
    after: Annotated[str | None, Query(min_length=1, max_length=40, pattern=r"^[0-9A-Za-z_-]+$")] = None,
) -> dict[str, Any]:
    """A puzzle as its seat sees it, without its answer: the one after ``after``, else the nearest to
    ``rating``, else the first."""
    try:
        return puzzles.puzzle_payload(rating, after)
    except Refused as exc:
        raise Refusal(exc.status, exc.detail, exc.code) from None


@router.post("/api/puzzles/{puzzle_id}/answer", responses=errors(400, 404))
def answer(puzzle_id: PuzzleId, body: PuzzleMove) -> dict[str, Any]:
    """Whether ``move`` solves the puzzle, its answer, every way's chance and what the next best does
    wrong."""
    try:
        return puzzles.puzzle_answer(puzzle_id, body.model_dump())
    except Refused as exc:
        raise Refusal(exc.status, exc.detail, exc.code) from None


__all__ = ["PuzzleMove", "router"]
