"""``GET /api/puzzles``, ``POST /api/puzzles/{id}/answer`` and ``POST /api/puzzles/{id}/report``: the
shipped puzzles, for the page (docs/protocol.md "Puzzles"; built in :mod:`cuarenta.server.answers.puzzles`,
which the device host answers with too), their ratings moved by the people who try them
(:mod:`cuarenta.server.ratings.puzzles`) and the reports of wrong ones.

>>> PuzzleMove(move="7h x7s").move, PuzzleMove(move="7h", solver="0123456789abcdef").solver
('7h x7s', '0123456789abcdef')
"""

from __future__ import annotations

from typing import Annotated, Any, Final

from fastapi import APIRouter, Depends, Query, Request
from pydantic import BaseModel, ConfigDict, Field, StrictStr

from cuarenta.analysis.puzzles import Puzzle
from cuarenta.server.answers import puzzles
from cuarenta.server.answers.refused import Refused
from cuarenta.server.edge.deps import Refusal, StoreDep, errors, limit_puzzle_reports
from cuarenta.server.ratings.puzzles import PuzzleRatings, shown
from cuarenta.server.store.puzzles import add_report

router = APIRouter()

#: A puzzle's id, as the shipped file names them (``1-0-117``).
PuzzleId = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[0-9A-Za-z_-]+$")]
#: The most characters of a reason read before it is checked (its runs of spaces are made one first:
#: :data:`~cuarenta.server.answers.puzzles.MAX_REASON_CHARS` is the limit that answers ``bad_report``).
MAX_REASON_READ: Final = 4 * puzzles.MAX_REASON_CHARS


class PuzzleMove(BaseModel):
    """The body of ``POST /api/puzzles/{id}/answer``: the move tried, in the notation of the puzzle's
    ``moves``, and the solver's id (the random id the page keeps) for the try to be rated."""

    model_config = ConfigDict(extra="forbid")

    move: Annotated[StrictStr, Field(min_length=1, max_length=puzzles.MAX_MOVE_CHARS)]
    solver: Annotated[
        StrictStr | None, Field(max_length=200, json_schema_extra={"pattern": puzzles.SOLVER_PATTERN.pattern})
    ] = None


class PuzzleReport(BaseModel):
    """The body of ``POST /api/puzzles/{id}/report``: what is wrong with the puzzle, in a few words."""

    model_config = ConfigDict(extra="forbid")

    reason: Annotated[StrictStr, Field(max_length=MAX_REASON_READ)]


class PuzzleReported(BaseModel):
    """A report stored: its number."""

    reported: int


async def puzzle_ratings_of(request: Request) -> PuzzleRatings:
    """The app's puzzle ratings (``app.state.puzzle_ratings``)."""
    ratings: PuzzleRatings = request.app.state.puzzle_ratings
    return ratings


RatingsDep = Annotated[PuzzleRatings, Depends(puzzle_ratings_of)]


def _refused(exc: Refused) -> Refusal:
    return Refusal(exc.status, exc.detail, exc.code)


@router.get("/api/puzzles", responses=errors(400, 404))
def puzzle(
    ratings: RatingsDep,
    rating: Annotated[int | None, Query(ge=0, le=4000)] = None,
    after: Annotated[str | None, Query(min_length=1, max_length=40, pattern=r"^[0-9A-Za-z_-]+$")] = None,
) -> dict[str, Any]:
    """A puzzle as its seat sees it, without its answer: the one after ``after``, else the nearest to
    ``rating`` (by the current ratings), else the first."""
    try:
        return puzzles.puzzle_payload(rating, after, ratings.current())
    except Refused as exc:
        raise _refused(exc) from None


@router.post("/api/puzzles/{puzzle_id}/answer", responses=errors(400, 404))
def answer(puzzle_id: PuzzleId, body: PuzzleMove, ratings: RatingsDep) -> dict[str, Any]:
    """Whether ``move`` solves the puzzle, its answer, every way's chance and what the next best does
    wrong; with a ``solver``, the first try moves the puzzle's rating and the solver's."""

    def rate(found: Puzzle, solved: bool, solver: str | None) -> dict[str, Any]:
        if solver is None:
            now = ratings.current().get(found.id, found.rating)
            return {"rated": False, "puzzle_rating": {"before": now, "after": now}, "solver_rating": None}
        tried = ratings.try_puzzle(found.id, found.rating, solver, solved)
        return {
            "rated": tried.rated,
            "puzzle_rating": {"before": shown(tried.puzzle_before[0]), "after": shown(tried.puzzle_after[0])},
            "solver_rating": shown(tried.solver[0]),
        }

    try:
        return puzzles.puzzle_answer(puzzle_id, body.model_dump(exclude_none=True), rate)
    except Refused as exc:
        raise _refused(exc) from None


@router.post(
    "/api/puzzles/{puzzle_id}/report",
    responses=errors(400, 404, 429),
    dependencies=[Depends(limit_puzzle_reports)],
)
def report(puzzle_id: PuzzleId, body: PuzzleReport, store: StoreDep) -> PuzzleReported:
    """Report that a puzzle is wrong, with a short reason (a maintainer lists the reports with ``cuarenta
    puzzle-reports``)."""
    try:
        reason = puzzles.report_reason(puzzle_id, body.model_dump())
    except Refused as exc:
        raise _refused(exc) from None
    return PuzzleReported(reported=add_report(store, puzzle_id, reason))


__all__ = ["PuzzleMove", "PuzzleReport", "PuzzleReported", "puzzle_ratings_of", "router"]
