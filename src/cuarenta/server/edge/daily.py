"""``POST /api/daily`` and ``GET /api/daily``: the deal of the day (docs/protocol.md "The deal of the day";
built in :mod:`cuarenta.server.answers.daily`).

>>> NewDaily(name="Ana").name
'Ana'
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query
from pydantic import BaseModel, ConfigDict, Field, StrictStr, field_validator

from cuarenta.names import clean_name
from cuarenta.server.answers import daily
from cuarenta.server.answers.refused import Refused
from cuarenta.server.answers.replay import MAX_RECORD_CHARS
from cuarenta.server.edge.deps import Refusal, RoomsDep, StoreDep, errors, limit_room_creation
from cuarenta.server.edge.options import NAME_MAX_CHARS, OPTIONAL_NAME_PATTERN

router = APIRouter()


class NewDaily(BaseModel):
    """The body of ``POST /api/daily``: the person's name (optional, as a new room's)."""

    model_config = ConfigDict(extra="forbid")

    name: Annotated[
        StrictStr, Field(max_length=NAME_MAX_CHARS, json_schema_extra={"pattern": OPTIONAL_NAME_PATTERN})
    ] = ""

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return clean_name(value, empty_ok=True)


class OfflineResult(BaseModel):
    """The body of ``POST /api/daily/offline``: the record of an offline deal of the day's finished chica, and
    the name to be ranked under (optional: else the record's)."""

    model_config = ConfigDict(extra="forbid")

    record: Annotated[StrictStr, Field(min_length=1, max_length=MAX_RECORD_CHARS)]
    name: (
        Annotated[
            StrictStr, Field(max_length=NAME_MAX_CHARS, json_schema_extra={"pattern": OPTIONAL_NAME_PATTERN})
        ]
        | None
    ) = None

    @field_validator("name")
    @classmethod
    def _name(cls, value: str | None) -> str | None:
        return None if value is None else clean_name(value, empty_ok=True)


class NewDailyAnswer(BaseModel):
    room: str
    seat: int
    token: str
    day: str


@router.post(
    "/api/daily",
    response_model=NewDailyAnswer,
    responses=errors(400, 413, 429),
    dependencies=[Depends(limit_room_creation)],
)
async def new_daily(body: NewDaily, rooms: RoomsDep, store: StoreDep) -> dict[str, Any]:
    """A new room with today's deals (UTC) against today's computer player: the deal of the day. The
    answer's token is the person's (seat 0), as a new room's."""
    return daily.new_daily(rooms, store, body.name)


@router.get("/api/daily", responses=errors(400, 404))
def daily_ranking(
    store: StoreDep,
    day: Annotated[str | None, Query(min_length=10, max_length=10, pattern=r"^\d{4}-\d{2}-\d{2}$")] = None,
    room: Annotated[str | None, Query(min_length=1, max_length=100)] = None,
    offline: bool = False,
    entry: Annotated[str | None, Query(min_length=1, max_length=100)] = None,
) -> dict[str, Any]:
    """The deal of the day of ``day`` (default: today, UTC): its rules and computer player, and the ranking of
    its finished chicas (the best first), with ``room``'s own entry as ``mine``. ``offline=true``: the
    ranking of the day's offline results, with ``entry``'s own (the id ``POST /api/daily/offline`` gave)."""
    try:
        mine = (entry or room) if offline else room
        return daily.daily_answer(store, daily.parse_day(day), mine, offline=offline)
    except Refused as exc:
        raise Refusal(exc.status, exc.detail, exc.code) from None


@router.get("/api/daily/offline")
def offline_days(store: StoreDep) -> dict[str, Any]:
    """The offline deals of today (UTC) and the six days after: each day's seed, the rules and the computer
    player, for a device or the terminal to play with no signal (docs/daily.md "Offline"). Another seed
    than the online deal's, whose cards nobody sees before playing."""
    return daily.offline_days(store)


@router.post(
    "/api/daily/offline",
    responses=errors(400, 409, 413, 429),
    dependencies=[Depends(limit_room_creation)],
)
def offline_result(body: OfflineResult, store: StoreDep) -> dict[str, Any]:
    """An offline deal of the day's result, sent later as its record: checked by replaying it, kept, and
    placed among the day's offline results. The same record sent again answers the same entry."""
    try:
        return daily.offline_result(store, body.record, body.name)
    except Refused as exc:
        raise Refusal(exc.status, exc.detail, exc.code) from None


__all__ = ["NewDaily", "NewDailyAnswer", "OfflineResult", "router"]
