"""The routes of rooms against the computer (docs/protocol.md): ``POST /api/rooms`` makes one,
``GET /api/rooms/{room}`` tells a seat's token the state of its room (to resume). What they answer is
built in :mod:`cuarenta.server.answers` (the device host answers the same).

Handlers that touch the rooms are coroutines: they run on the event loop, like the sockets and the
computer players' moves, so a room is never loaded or changed from two threads at once.

>>> rules_for(4, {"preset": "a_todo_rigor"}).players
4
>>> rules_for(2, {"players": 4})
Traceback (most recent call last):
...
cuarenta.server.edge.deps.Refusal: 400: rules.players is 4 but players is 2: make them agree
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends
from fastapi import Path as PathParameter
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    field_validator,
    model_validator,
)

from cuarenta.names import clean_name
from cuarenta.rules import PRESET_NAMES, Rules
from cuarenta.server import answers
from cuarenta.server.authority.model import available_levels
from cuarenta.server.authority.seats import check_players
from cuarenta.server.edge.deps import Refusal, RoomsDep, SeatToken, errors, limit_room_creation
from cuarenta.server.edge.options import NAME_MAX_CHARS, OPTIONAL_NAME_PATTERN, known_level

router = APIRouter()
#: A room's id in a path.
RoomId = Annotated[str, PathParameter(min_length=1, max_length=100)]


class NewRoom(BaseModel):
    """The body of ``POST /api/rooms``: the one model of it (its schema is the API's), which
    :func:`cuarenta.server.answers.new_room` takes as it is. The device, without pydantic, reads the same
    fields with :data:`cuarenta.server.answers.NEW_ROOM_FIELDS` (tests/test_device_host.py checks that
    both refuse alike)."""

    model_config = ConfigDict(extra="forbid")

    players: Annotated[StrictInt, Field(json_schema_extra={"enum": [2, 4]})] = 2
    level: Annotated[StrictStr | None, Field(json_schema_extra={"enum": [*available_levels(), None]})] = None
    rules: dict[str, Any] = Field(
        default_factory=lambda: {"preset": PRESET_NAMES[0]},
        description='{"preset": NAME} and any options to change, as in Rules.from_dict (GET /api/options)',
    )
    name: Annotated[
        StrictStr, Field(max_length=NAME_MAX_CHARS, json_schema_extra={"pattern": OPTIONAL_NAME_PATTERN})
    ] = ""
    seed: Annotated[StrictInt, Field(ge=0, lt=2**63, description="only with practice: true")] | None = None
    practice: StrictBool = Field(
        False, description="a practice room: its seed may be chosen; not in the stats"
    )

    @field_validator("players")
    @classmethod
    def _players(cls, value: int) -> int:
        return check_players(value)

    _level = field_validator("level")(known_level)

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return clean_name(value, empty_ok=True)  # "" (the default): no name; the page shows its own

    @model_validator(mode="after")
    def _seed_only_for_practice(self) -> NewRoom:
        if self.seed is not None and not self.practice:
            raise ValueError(answers.SEED_ONLY_FOR_PRACTICE)
        return self


class NewRoomAnswer(BaseModel):
    room: str
    seat: int
    token: str


class RoomInfo(BaseModel):
    """``GET /api/rooms/{room}``: the state of a token's room, no cards."""

    model_config = ConfigDict(extra="allow")

    room: str
    seat: int
    status: Literal["waiting", "playing", "finished"]
    mesa: int
    practice: bool = False
    table: bool = False  #: a table with friends (docs/tables.md)


def rules_for(players: int, asked: dict[str, Any]) -> Rules:
    """The rules a new room or table asks for (``{"preset": NAME, ...options}``) for ``players``;
    :class:`Refusal` 400 ``bad_rules`` saying what is wrong (:func:`cuarenta.server.answers.rules_for`)."""
    try:
        return answers.rules_for(players, asked)
    except answers.Refused as exc:
        raise Refusal(exc.status, exc.detail, exc.code) from None


def rules_of(body: NewRoom) -> Rules:
    """The rules a new room asks for; :class:`Refusal` 400 saying what is wrong."""
    return rules_for(body.players, body.rules)


@router.post(
    "/api/rooms",
    response_model=NewRoomAnswer,
    responses=errors(400, 413, 429),
    dependencies=[Depends(limit_room_creation)],
)
async def new_room(body: NewRoom, rooms: RoomsDep) -> dict[str, Any]:
    """A new room against the computer; the answer's token is the person's (seat 0)."""
    try:
        return answers.new_room(rooms, body)
    except answers.Refused as exc:
        raise Refusal(exc.status, exc.detail, exc.code) from None


@router.get("/api/rooms/{room_id}", response_model=RoomInfo, responses=errors(400, 401, 403, 404, 410, 500))
async def get_room(room_id: RoomId, token: SeatToken, rooms: RoomsDep) -> dict[str, Any]:
    """The state of a token's room (used to resume)."""
    return answers.room_info(rooms, room_id, token)  # a RoomProblem answers its status (deps)


__all__ = ["NewRoom", "NewRoomAnswer", "RoomId", "RoomInfo", "router", "rules_for", "rules_of"]
