"""``GET /api/games/{room}/analysis``: the computer's analysis of a seat's moves in a finished mesa of the
token's room, for the page (docs/protocol.md "Analysis"; the server and the device host answer the same).

Asking starts the analysis (thought where the computer players think:
:mod:`cuarenta.server.thinking.analyses`) and answers how far it has got; asking again, which the page
does every second or so, answers the same until it is done, then the analysis. A mesa in play is refused
(``409 mesa_in_play``), as its record and its replay are: the analysis of a finished mesa shows nothing
the seats cannot see then. Every seat of the mesa may be asked for (default: the token's).

Each decision comes with the move played and the best move described as a ``state`` message describes a
way to play (``played_info``, ``best_info``: the authority's :class:`~cuarenta.server.thinking.Analyses` is
given :func:`~cuarenta.server.authority.eventview.describe_moves`), so the page says them in words without
reading notation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cuarenta.analysis import THRESHOLDS
from cuarenta.server.answers.history import HistoryStore, finished_record
from cuarenta.server.answers.refused import Refused
from cuarenta.server.thinking.analyses import Progress

if TYPE_CHECKING:
    from cuarenta.server.authority.core import Authority


def progress_body(progress: Progress) -> dict[str, Any]:
    """The answer's body: where the analysis stands, and once it is done the analysis (its JSON form,
    docs/analysis.md "JSON") with each decision's moves described."""
    body: dict[str, Any] = {
        "room": progress.room,
        "mesa": progress.mesa,
        "seat": progress.seat,
        "status": progress.status,
        "done": progress.done,
        "total": progress.total,
        "thresholds": dict(THRESHOLDS),  # the loss from which a move is graded (docs/analysis.md)
    }
    if progress.failed is not None:
        body["detail"] = progress.failed
    if progress.review is not None:
        review = progress.review.to_dict()
        if progress.described:  # the authority's analyses are given the words; a bare Analyses is not
            for shown, (played, best) in zip(review["decisions"], progress.described, strict=True):
                shown["played_info"], shown["best_info"] = played, best
        body["review"] = review
    return body


def analysis_answer(
    authority: Authority,
    store: HistoryStore,
    room_id: str,
    token: str,
    mesa: int | None = None,
    seat: int | None = None,
) -> dict[str, Any]:
    """``GET /api/games/{room}/analysis``: start or follow the analysis of ``seat`` (default: the token's)
    in a finished mesa of the token's room (default: the current one); refused as its record is (the
    token, 404, ``409 mesa_in_play``) and ``400 bad_seat`` for a seat the mesa does not have."""
    found = finished_record(authority, store, room_id, token, mesa)
    mine = authority.seat_of(room_id, token)
    wanted = mine if seat is None else seat
    try:
        progress = authority.analyses.ask(room_id, found.mesa, wanted, found.text)
    except ValueError as exc:
        raise Refused(400, str(exc), "bad_seat") from None
    return progress_body(progress)


__all__ = ["analysis_answer", "progress_body"]
