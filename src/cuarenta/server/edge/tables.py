"""The routes of tables with friends (docs/tables.md): create, describe, join, seats, start, leave and
the lobby (the QR code of an invite link is :mod:`cuarenta.server.edge.qr`).

A refusal of the table rules (a :class:`~cuarenta.server.authority.errors.TableError`, a refused profile) is
answered by :func:`cuarenta.server.edge.deps.install_error_handlers`'s handler.

>>> JoinTable(invite="x7", name=" Ana ").name
'Ana'
"""

from __future__ import annotations

import logging
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Request
from fastapi import Path as PathParameter
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    field_validator,
)

from cuarenta.rules import PRESET_NAMES
from cuarenta.server.authority.core import CLOCKS, DEFAULT_GRACE, FRIEND, GRACE_MAX
from cuarenta.server.authority.errors import TableError
from cuarenta.server.authority.model import available_levels
from cuarenta.server.authority.seats import check_players
from cuarenta.server.edge.deps import (
    OPTIONAL_SEAT_TOKEN,
    Refusal,
    RoomsDep,
    SeatToken,
    errors,
    limit_reclaims,
    limit_room_creation,
    optional_seat_token,
)
from cuarenta.server.edge.options import NAME_MAX_CHARS, NAME_PATTERN, known_level
from cuarenta.server.edge.ratelimits import GuessTicket
from cuarenta.server.edge.rooms import RoomId, rules_for
from cuarenta.server.ratings.fairplay import note_address
from cuarenta.server.store import Store, StoreError
from cuarenta.server.store.profiles import check_profile, clean_name

log = logging.getLogger("cuarenta.server")
router = APIRouter()
_Name = Annotated[
    StrictStr,
    Field(min_length=1, max_length=NAME_MAX_CHARS, json_schema_extra={"pattern": NAME_PATTERN}),
]


class ProfileProof(BaseModel):
    """A profile and its key (``POST /api/profiles``): who plays a seat of a rated table."""

    model_config = ConfigDict(extra="forbid")

    id: Annotated[StrictStr, Field(min_length=1, max_length=100)]
    key: Annotated[StrictStr, Field(min_length=1, max_length=200)]


class NewTable(BaseModel):
    """The body of ``POST /api/tables``."""

    model_config = ConfigDict(extra="forbid")

    players: Annotated[StrictInt, Field(json_schema_extra={"enum": [2, 4]})] = 2
    rules: dict[str, Any] = Field(default_factory=lambda: {"preset": PRESET_NAMES[0]})
    name: _Name
    seats: (
        list[Annotated[StrictStr, Field(json_schema_extra={"enum": [FRIEND, *available_levels()]})]] | None
    ) = Field(None, max_length=3, description='the other seats in order: "friend" (open) or a computer level')
    level: Annotated[StrictStr | None, Field(json_schema_extra={"enum": [*available_levels(), None]})] = None
    grace: Annotated[StrictInt | StrictFloat, Field(ge=0, le=GRACE_MAX)] = DEFAULT_GRACE
    clock: Annotated[StrictInt | None, Field(json_schema_extra={"enum": list(CLOCKS)})] = None
    lobby: StrictBool = False
    rated: StrictBool = Field(False, description="people with profiles only, a preset's rules: rated")
    profile: ProfileProof | None = None

    _name = field_validator("name")(clean_name)
    _level = field_validator("level")(known_level)

    @field_validator("grace", mode="before")
    @classmethod
    def _grace(cls, value: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError(f"grace is a number of seconds from 0 to {GRACE_MAX}, not {value!r}")
        return value

    @field_validator("players")
    @classmethod
    def _players(cls, value: int) -> int:
        return check_players(value)


class JoinTable(BaseModel):
    """The body of ``POST /api/tables/{room}/join``."""

    model_config = ConfigDict(extra="forbid")

    invite: Annotated[StrictStr, Field(min_length=1, max_length=100)]
    name: _Name
    seat: Annotated[StrictInt, Field(ge=0, le=3)] | None = None
    team: Annotated[StrictInt, Field(ge=0, le=1)] | None = None
    profile: ProfileProof | None = None

    _name = field_validator("name")(clean_name)


class SeatLevel(BaseModel):
    """The body of ``POST /api/tables/{room}/seats/{seat}``."""

    model_config = ConfigDict(extra="forbid")

    level: Annotated[StrictStr, Field(json_schema_extra={"enum": available_levels()})]

    _level = field_validator("level")(known_level)


class Reclaim(BaseModel):
    """The body of ``POST /api/tables/{room}/reclaim``: the invite and a person's seat code."""

    model_config = ConfigDict(extra="forbid")

    invite: Annotated[StrictStr, Field(min_length=1, max_length=100)]
    code: Annotated[StrictStr, Field(min_length=1, max_length=40)]


class SeatAnswer(BaseModel):
    room: str
    seat: int
    token: str
    code: str | None = Field(
        None, description="the person's seat code: shown to them, it takes the seat back from another browser"
    )


class SeatCode(BaseModel):
    """``POST /api/tables/{room}/code``: a new seat code for the token's seat."""

    room: str
    seat: int
    code: str


class NewTableAnswer(SeatAnswer):
    invite: str


class TableSeat(BaseModel):
    model_config = ConfigDict(extra="allow")

    seat: int
    team: int
    kind: Literal["person", "computer", "open"]


class TableInfo(BaseModel):
    """``GET /api/tables/{room}``: the table's public facts (docs/tables.md)."""

    model_config = ConfigDict(extra="allow")

    room: str
    players: int
    status: Literal["waiting", "playing", "finished"]
    mesa: int
    rules: dict[str, Any]
    seats: list[TableSeat]
    creator: int
    level: str
    grace: float
    clock: int | None
    lobby: bool
    watchers: int
    seat: int | None = None
    invite: str | None = None


class LobbyTable(BaseModel):
    model_config = ConfigDict(extra="allow")

    room: str
    invite: str
    players: int
    host: str
    open: int


class Lobby(BaseModel):
    tables: list[LobbyTable]


def profile_id(store: Store, proof: ProfileProof | None, request: Request) -> str | None:
    """The id of a profile whose key is right (a refused profile is answered 403 or 404), or ``None``
    without one; the client's network is noted for the profile
    (:func:`cuarenta.server.ratings.fairplay.note_address`)."""
    if proof is None:
        return None
    found = check_profile(store, proof.id, proof.key).id
    try:
        note_address(store, found, request.client.host if request.client else None)
    except StoreError:
        log.exception("the network of profile %s could not be noted", found)
    return found


@router.post(
    "/api/tables",
    response_model=NewTableAnswer,
    responses=errors(400, 403, 404, 413, 429),
    dependencies=[Depends(limit_room_creation)],
)
async def new_table(body: NewTable, request: Request, rooms: RoomsDep) -> dict[str, Any]:
    """A new table; the answer's token is the creator's (seat 0), ``invite`` the table's invite code."""
    rules = rules_for(body.players, body.rules)
    if body.rated and set(body.rules) - {"preset", "players"}:
        raise Refusal(400, "a rated table plays a preset's rules: send only the preset's name", "bad_rules")
    profile = profile_id(request.app.state.store, body.profile, request)
    try:
        _, seat, invite = rooms.create_table(
            rules=rules,
            name=body.name,
            seats=body.seats,
            level=body.level,
            grace=body.grace,
            clock=body.clock,
            lobby=body.lobby,
            profile=profile,
            rated=body.rated,
        )
    except ValueError as exc:
        raise Refusal(400, str(exc), "bad_input") from None
    return {"room": seat.room, "seat": seat.seat, "token": seat.token, "code": seat.code, "invite": invite}


@router.get(
    "/api/tables/{room_id}",
    response_model=TableInfo,
    responses=errors(400, 403, 404, 410, 500),
    openapi_extra=OPTIONAL_SEAT_TOKEN,  # the token is optional here
)
async def get_table(
    room_id: RoomId, token: Annotated[str | None, Depends(optional_seat_token)], rooms: RoomsDep
) -> dict[str, Any]:
    """A table's public facts; with a seat's token also that seat and the invite code."""
    if token is None:
        return rooms.describe(rooms.table(room_id))
    room, seat = rooms.seat_of_token(room_id, token)
    return rooms.describe(room, seat)


@router.post(
    "/api/tables/{room_id}/join",
    response_model=SeatAnswer,
    responses=errors(400, 403, 404, 409, 413, 429, 503),
    dependencies=[Depends(limit_room_creation)],
)
async def join_table(room_id: RoomId, body: JoinTable, request: Request, rooms: RoomsDep) -> dict[str, Any]:
    """Take an open seat of a table with its invite code (once it plays, a seat the creator handed over)."""
    try:
        seat = rooms.join_table(
            room_id,
            invite=body.invite,
            name=body.name,
            seat=body.seat,
            team=body.team,
            profile=profile_id(request.app.state.store, body.profile, request),
        )
    except TableError as exc:  # the database stopped answering with the seat in hand: was it taken?
        seat = await rooms.found_out(exc)
    return {"room": seat.room, "seat": seat.seat, "token": seat.token, "code": seat.code}


@router.post(
    "/api/tables/{room_id}/reclaim",
    response_model=SeatAnswer,
    responses=errors(400, 403, 404, 409, 413, 429, 503),
)
async def reclaim_seat(
    room_id: RoomId, body: Reclaim, rooms: RoomsDep, guess: Annotated[GuessTicket, Depends(limit_reclaims)]
) -> dict[str, Any]:
    """Take your seat back from another browser with the invite and your seat code: a new token and a
    new code (the old token is refused from now on, ``seat_reclaimed``)."""
    try:
        try:
            seat = rooms.reclaim(room_id, invite=body.invite, code=body.code)
        except TableError as exc:  # the database stopped answering with the seat in hand: was it taken?
            seat = await rooms.found_out(exc)
    except TableError as exc:
        if exc.code == "wrong_code":
            guess.wrong()
        elif exc.code == "bad_invite":
            guess.wrong_invite()
        raise
    finally:
        guess.right()  # anything but a wrong code or invite is no guess (settled once: the first wins)
    return {"room": seat.room, "seat": seat.seat, "token": seat.token, "code": seat.code}


@router.post(
    "/api/tables/{room_id}/code",
    response_model=SeatCode,
    responses=errors(400, 401, 403, 404, 409, 410, 503),
)
async def renew_seat_code(room_id: RoomId, token: SeatToken, rooms: RoomsDep) -> dict[str, Any]:
    """A new seat code for your seat (the old code stops working)."""
    seat = rooms.renew_code(room_id, token)
    return {"room": seat.room, "seat": seat.seat, "code": seat.code}


@router.post(
    "/api/tables/{room_id}/seats/{seat}/handover",
    response_model=TableInfo,
    responses=errors(400, 401, 403, 404, 409, 410, 503),
)
async def hand_over_seat(
    room_id: RoomId,
    seat: Annotated[int, PathParameter(ge=0, le=3)],
    token: SeatToken,
    rooms: RoomsDep,
) -> dict[str, Any]:
    """The creator gives an away person's seat to someone new: the computer plays it until someone takes
    it with the invite; the person's token and code stop working (``seat_given``)."""
    room = rooms.handover(room_id, token, seat)
    return rooms.describe(room, room.table.creator if room.table else None)


@router.post(
    "/api/tables/{room_id}/seats/{seat}",
    response_model=TableInfo,
    responses=errors(400, 401, 403, 404, 409, 410, 413, 503),
)
async def seat_to_computer(
    room_id: RoomId,
    seat: Annotated[int, PathParameter(ge=0, le=3)],
    body: SeatLevel,
    token: SeatToken,
    rooms: RoomsDep,
) -> dict[str, Any]:
    """The creator turns an open seat into a computer player."""
    room = rooms.make_computer(room_id, token, seat, body.level)
    return rooms.describe(room, room.table.creator if room.table else None)


@router.post(
    "/api/tables/{room_id}/start",
    response_model=TableInfo,
    responses=errors(400, 401, 403, 404, 409, 410, 503),
)
async def start_table(room_id: RoomId, token: SeatToken, rooms: RoomsDep) -> dict[str, Any]:
    """The creator starts the table (open seats become computer players)."""
    room = rooms.start(room_id, token)
    return rooms.describe(room, room.table.creator if room.table else None)


@router.post(
    "/api/tables/{room_id}/leave",
    response_model=TableInfo,
    responses=errors(400, 401, 403, 404, 409, 503),
)
async def leave_table(room_id: RoomId, token: SeatToken, rooms: RoomsDep) -> dict[str, Any]:
    """Leave the table for good: the computer plays the seat from now on."""
    return rooms.describe(rooms.leave_table(room_id, token))


@router.get("/api/lobby", response_model=Lobby)
async def lobby(rooms: RoomsDep) -> dict[str, Any]:
    """The public tables that wait for people, newest first."""
    return {"tables": rooms.lobby()}


__all__ = [
    "JoinTable",
    "Lobby",
    "NewTable",
    "NewTableAnswer",
    "Reclaim",
    "SeatAnswer",
    "SeatCode",
    "TableInfo",
    "router",
    "rules_for",
]
