"""The routes of what a browser's tokens have played (docs/protocol.md): the history of finished and
unfinished mesas, a finished mesa's record, and the statistics (the server's, and one browser's).

``POST /api/history`` and ``POST /api/stats`` take the tokens in the body (never in the address: ``GET
/api/history`` answers 405 saying so); a record needs its seat's token in the ``Authorization`` header.

>>> HistoryRequest(tokens=["a" * 32]).tokens[0] == "a" * 32
True
"""

from __future__ import annotations

import json
import logging
from typing import Annotated, Any, Final

from fastapi import APIRouter, HTTPException, Query
from fastapi.responses import JSONResponse, PlainTextResponse
from pydantic import BaseModel, ConfigDict, Field, StrictStr

from cuarenta.server.edge.deps import (
    MAX_TOKEN_CHARS,
    RoomsDep,
    SeatToken,
    StoreDep,
    errors,
    json_errors,
)
from cuarenta.server.edge.rooms import RoomId
from cuarenta.server.edge.security import TOKEN_IN_ADDRESS
from cuarenta.server.rooms import available_levels
from cuarenta.server.stats import stats_of
from cuarenta.server.store import FinishedRow, PlayingRow, hash_token

log = logging.getLogger("cuarenta.server")
router = APIRouter()
#: The most tokens one history request may name.
MAX_TOKENS: Final = 100
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


@router.post("/api/history", response_model=History, responses=errors(400, 413, 422))
def history(body: HistoryRequest, store: StoreDep) -> dict[str, Any]:
    """The finished mesas of the rooms the tokens hold a seat in, newest first, and those rooms whose
    current mesa is still in play (``playing``, most recently changed first)."""
    hashes = [hash_token(t) for t in body.tokens]
    seats = store.rooms_of_tokens(hashes)
    # a table the person left for good is not one to go on with (its finished mesas stay listed)
    still_seated = [room for room, _ in store.rooms_of_tokens(hashes, left=False)]
    playing = [entry for room in store.playing_of_rooms(still_seated) if (entry := _playing(room))]
    team_of = {room: seat % 2 for room, seat in seats}  # each seat sees its own team's side
    games = [
        entry
        for row in store.finished_of_rooms([room for room, _ in seats])
        if (entry := _finished(row.for_team(team_of.get(row.room, row.person_team))))
    ]
    return {"games": games, "playing": playing}


def _playing(room: PlayingRow) -> dict[str, Any] | None:
    """One entry of ``playing``, or ``None`` (logged) when the room's rules cannot be read."""
    try:
        rules = json.loads(room.rules)
    except ValueError:
        log.error("room %s has corrupt rules; left out of the history", room.room)
        return None
    return {
        "room": room.room,
        "mesa": room.mesa,
        "started": room.created,
        "updated": room.updated,
        "level": room.level,
        "players": room.players,
        "rules": rules,
        "moves": room.moves,
        "practice": room.practice,
    }


def _finished(row: FinishedRow) -> dict[str, Any] | None:
    """One entry of ``games`` (seen from the seat's team), or ``None`` (logged) when it cannot be read."""
    try:
        return {
            "room": row.room,
            "mesa": row.mesa,
            "finished": row.finished,
            "level": row.level,
            "players": row.players,
            "rules": json.loads(row.rules),
            "seats": json.loads(row.seats),
            "person_team": row.person_team,
            "winner": row.winner,
            "won": row.winner == row.person_team,
            "chicas": json.loads(row.chicas),
            "chica_results": json.loads(row.chica_results),
            "caidas": row.caidas,
            "limpias": row.limpias,
            "record": f"/api/games/{row.room}/record?mesa={row.mesa}",
            "practice": row.practice,
        }
    except ValueError:
        log.error("history row of room %s mesa %d is corrupt; left out", row.room, row.mesa)
        return None


@router.get("/api/history", include_in_schema=False)
def history_by_address() -> JSONResponse:
    return JSONResponse(
        {"detail": 'POST the tokens in the body, {"tokens": [...]}; ' + TOKEN_IN_ADDRESS},
        status_code=405,
        headers={"Allow": "POST"},
    )


@router.get(
    "/api/games/{room_id}/record",
    response_class=PlainTextResponse,
    responses={
        200: {"content": {"text/plain": {"schema": {"type": "string"}}}, "description": "the record"},
        **json_errors(400, 401, 403, 404, 409, 410, 422),
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
    rooms.seat_of(room_id, token)  # a RoomProblem answers its status (deps)
    row = store.load_room(room_id)
    if row is None:  # pragma: no cover - seat_of found it
        raise HTTPException(404, f"there is no room {room_id!r}")
    current = row.mesa
    wanted = current if mesa is None else mesa
    if wanted > current:
        raise HTTPException(404, f"room {room_id} has no mesa {wanted} (it is at mesa {current})")
    finished = store.finished_mesa(room_id, wanted)
    if finished is None:
        raise HTTPException(
            409,
            f"mesa {wanted} of room {room_id} is still in play: its record exists once it is finished",
        )
    name = f"cuarenta-{room_id}-mesa{wanted}.cuarenta"
    return PlainTextResponse(
        finished.record,
        media_type="text/plain; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


@router.get("/api/stats", response_model=Stats)
def stats(store: StoreDep) -> dict[str, Any]:
    """Per level: mesas played and won, caídas and limpias of the person's team."""
    found = store.stats()
    levels = {level: {"played": 0, "won": 0, "caidas": 0, "limpias": 0} for level in available_levels()}
    levels.update(found)
    return {"levels": levels}


@router.post("/api/stats", response_model=BrowserStats, responses=errors(400, 413, 422))
def browser_stats(body: HistoryRequest, store: StoreDep) -> dict[str, Any]:
    """The figures of the rooms the tokens hold a seat in (one browser's games): per level and in all,
    mesas played and won, the longest run won in a row, the caídas and limpias of the person's team."""
    seats = store.rooms_of_tokens(hash_token(t) for t in body.tokens)
    team_of = {room: seat % 2 for room, seat in seats}
    rows = store.finished_of_rooms([room for room, _ in seats])
    return stats_of([row.for_team(team_of[row.room]) for row in rows], available_levels())


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
