"""The routes of what a browser's tokens have played (docs/protocol.md): the history of finished and
unfinished mesas, a finished mesa's record, and the statistics (the server's, and one browser's).

``POST /api/history`` and ``POST /api/stats`` take the tokens in the body (never in the address: ``GET
/api/history`` answers 405 saying so); a record needs its seat's token in the ``Authorization`` header.
What they answer is built in :mod:`cuarenta.server.answers` (the device host answers the same).

>>> HistoryRequest(tokens=["a" * 32]).tokens[0] == "a" * 32
True
"""

from __future__ import annotations

import logging
from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse, PlainTextResponse
from pydantic import BaseModel, ConfigDict, Field, StrictStr

from cuarenta.server import answers
from cuarenta.server.answers import MAX_TOKENS
from cuarenta.server.edge.deps import (
    MAX_TOKEN_CHARS,
    Refusal,
    RoomsDep,
    SeatToken,
    StoreDep,
    error_body,
    errors,
    json_errors,
)
from cuarenta.server.edge.rooms import RoomId

log = logging.getLogger("cuarenta.server")
router = APIRouter()
_Token = Annotated[StrictStr, Field(min_length=1, max_length=MAX_TOKEN_CHARS)]


class HistoryRequest(BaseModel):
    """The body of ``POST /api/history``: the tokens the browser holds."""

    model_config = ConfigDict(extra="forbid")

    tokens: Annotated[list[_Token], Field(max_length=MAX_TOKENS)]


class HistoryGame(BaseModel):
    """One finished mesa of a token's rooms."""

    model_config = ConfigDict(extra="allow")

    room: str
    mesa: int
    finished: str
    level: str
    players: int
    rules: dict[str, Any]
    seats: list[dict[str, Any]]
    person_team: int
    winner: int
    won: bool
    chicas: list[int]
    chica_results: list[dict[str, Any]]
    caidas: int
    limpias: int
    record: str
    practice: bool = False


class PlayingGame(BaseModel):
    """A room of a token whose current mesa is still in play (it can be resumed)."""

    model_config = ConfigDict(extra="allow")

    room: str
    mesa: int
    started: str
    updated: str
    level: str
    players: int
    rules: dict[str, Any]
    moves: int
    practice: bool = False


class History(BaseModel):
    games: list[HistoryGame]
    playing: list[PlayingGame] = []


class LevelStats(BaseModel):
    played: int
    won: int
    caidas: int
    limpias: int


class Stats(BaseModel):
    levels: dict[str, LevelStats]


class BrowserLevelStats(LevelStats):
    best_streak: int


class BrowserStats(BaseModel):
    """``POST /api/stats``: the figures of the tokens' rooms only, per level and in all."""

    levels: dict[str, BrowserLevelStats]
    all: BrowserLevelStats


@router.post("/api/history", response_model=History, responses=errors(400, 413))
def history(body: HistoryRequest, store: StoreDep) -> dict[str, Any]:
    """The finished mesas of the rooms the tokens hold a seat in, newest first, and those rooms whose
    current mesa is still in play (``playing``, most recently changed first)."""
    return answers.history_answer(store, body.tokens)


@router.get("/api/history", include_in_schema=False)
def history_by_address() -> JSONResponse:
    return JSONResponse(
        error_body(answers.HISTORY_BY_ADDRESS, "method_not_allowed"),
        status_code=405,
        headers={"Allow": "POST"},
    )


@router.get(
    "/api/games/{room_id}/record",
    response_class=PlainTextResponse,
    responses={
        200: {"content": {"text/plain": {"schema": {"type": "string"}}}, "description": "the record"},
        **json_errors(400, 401, 403, 404, 409, 410),
    },
)
async def record(
    room_id: RoomId,
    token: SeatToken,
    rooms: RoomsDep,
    store: StoreDep,
    mesa: Annotated[int | None, Query(ge=1, lt=2**31)] = None,
) -> PlainTextResponse:
    """The record (``.cuarenta``) of a finished mesa of the token's room (default: the current one)."""
    try:  # a RoomProblem answers its status (deps)
        found = answers.record_answer(rooms, store, room_id, token, mesa)
    except answers.Refused as exc:
        raise Refusal(exc.status, exc.detail, exc.code) from None
    return PlainTextResponse(
        found.text,
        media_type="text/plain; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{found.filename}"'},
    )


@router.get("/api/games/{room_id}/replay", responses=json_errors(400, 401, 403, 404, 409, 410))
async def replay(
    room_id: RoomId,
    token: SeatToken,
    rooms: RoomsDep,
    store: StoreDep,
    mesa: Annotated[int | None, Query(ge=1, lt=2**31)] = None,
) -> JSONResponse:
    """A finished mesa of the token's room (default: the current one) step by step, for the page's replay:
    the mesa's events once, and at every ply the table, the scores and every hand (docs/protocol.md
    "Replay"). A mesa in play is refused (409), as its record is."""
    try:
        found = answers.replay_answer(rooms, store, room_id, token, mesa)
    except answers.Refused as exc:
        raise Refusal(exc.status, exc.detail, exc.code) from None
    return JSONResponse(found)


class RecordText(BaseModel):
    """The body of ``POST /api/replay``: a game record's text (.cuarenta) that the person holds."""

    model_config = ConfigDict(extra="forbid")

    record: Annotated[StrictStr, Field(min_length=1, max_length=answers.MAX_RECORD_CHARS)]


@router.post("/api/replay", responses=json_errors(400, 409, 413))
def replay_of_a_record(body: RecordText) -> JSONResponse:
    """A finished mesa's record (a file the person holds) step by step, as ``GET /api/games/{room}/replay``
    gives a room's (docs/protocol.md "Replay"): 400 ``bad_record`` for text that is not a record that
    replays, 409 ``mesa_in_play`` for a record whose mesa is not over."""
    try:
        return JSONResponse(answers.replay_text_answer({"record": body.record}))
    except answers.Refused as exc:
        raise Refusal(exc.status, exc.detail, exc.code) from None


@router.get("/api/games/{room_id}/analysis", responses=json_errors(400, 401, 403, 404, 409, 410))
async def analysis(
    room_id: RoomId,
    token: SeatToken,
    rooms: RoomsDep,
    store: StoreDep,
    mesa: Annotated[int | None, Query(ge=1, lt=2**31)] = None,
    seat: Annotated[int | None, Query(ge=0, le=3)] = None,
) -> JSONResponse:
    """The computer's analysis of a seat's moves (default: the token's) in a finished mesa of the token's
    room (default: the current one): asking starts it, asking again says how far it has got
    (``status``: ``running``, ``done`` with the analysis, or ``failed``; docs/protocol.md "Analysis"). A
    mesa in play is refused (409), as its record is."""
    try:
        found = answers.analysis_answer(rooms, store, room_id, token, mesa, seat)
    except answers.Refused as exc:
        raise Refusal(exc.status, exc.detail, exc.code) from None
    return JSONResponse(found)


@router.get("/api/stats", response_model=Stats)
def stats(store: StoreDep) -> dict[str, Any]:
    """Per level: mesas played and won, caídas and limpias of the person's team."""
    return answers.stats_answer(store)


@router.post("/api/stats", response_model=BrowserStats, responses=errors(400, 413))
def browser_stats(body: HistoryRequest, store: StoreDep) -> dict[str, Any]:
    """The figures of the rooms the tokens hold a seat in (one browser's games): per level and in all,
    mesas played and won, the longest run won in a row, the caídas and limpias of the person's team."""
    return answers.browser_stats_answer(store, body.tokens)


__all__ = [
    "MAX_TOKENS",
    "BrowserStats",
    "History",
    "HistoryGame",
    "HistoryRequest",
    "PlayingGame",
    "Stats",
    "router",
]
