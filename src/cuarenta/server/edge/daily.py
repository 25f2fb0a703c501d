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
) -> dict[str, Any]:
    """The deal of the day of ``day`` (default: today, UTC): its rules and computer player, and the ranking of
    its finished chicas (the best first), with ``room``'s own entry as ``mine``."""
    try:
        return daily.daily_answer(store, daily.parse_day(day), room)
    except Refused as exc:
        raise Refusal(exc.status, exc.detail, exc.code) from None


__all__ = ["NewDaily", "NewDailyAnswer", "router"]
