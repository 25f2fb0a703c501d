"""The HTTP side of tables with friends (docs/tables.md): create, describe, join, seats, start, leave,
the lobby, and the QR code of an invite link.

:func:`tables_router` is included by :func:`cuarenta.server.app.create_app`, which hands it the rooms,
the rate limit of new rooms and the seat-token dependency it uses for ``POST /api/rooms``.
"""

import io
import logging
from collections.abc import Callable, Coroutine
from typing import Annotated, Any, Final, Literal

import segno
from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi import Path as PathParameter
from fastapi.responses import Response
from fastapi.security import HTTPBearer
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

from cuarenta.errors import CuarentaError
from cuarenta.rules import PRESET_NAMES, Rules
from cuarenta.server.authority.errors import TableError
from cuarenta.server.authority.seats import check_players
from cuarenta.server.errors_http import http_status
from cuarenta.server.fairplay import note_address
from cuarenta.server.options import NAME_MAX_CHARS, NAME_PATTERN, known_level
from cuarenta.server.profiles import ProfileProblem, check_profile, clean_name
from cuarenta.server.rooms import available_levels
from cuarenta.server.store import StoreError
from cuarenta.server.tables import CLOCKS, DEFAULT_GRACE, FRIEND, GRACE_MAX, TableRooms

log = logging.getLogger("cuarenta.server")

#: The longest text ``POST /api/qr`` draws (an invite link is well under it).
QR_MAX_CHARS: Final = 1000
_RoomId = Annotated[str, PathParameter(min_length=1, max_length=100)]
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


class QrText(BaseModel):
    """The body of ``POST /api/qr``."""

    model_config = ConfigDict(extra="forbid")

    text: Annotated[StrictStr, Field(min_length=1, max_length=QR_MAX_CHARS)]


class SeatAnswer(BaseModel):
    room: str
    seat: int
    token: str


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


def rules_for(players: int, asked: dict[str, Any]) -> Rules:
    """The rules a new room or table asks for (``{"preset": NAME, ...options}``) for ``players``;
    :class:`HTTPException` 422 saying what is wrong."""
    data = dict(asked)
    if "players" in data and data["players"] != players:
        raise HTTPException(
            422, f"rules.players is {data['players']!r} but players is {players}: make them agree"
        )
    data["players"] = players
    try:
        return Rules.from_dict(data)
    except (CuarentaError, TypeError, ValueError) as exc:
        raise HTTPException(422, f"rules: {exc}") from None


def _profile_id(rooms: TableRooms, proof: ProfileProof | None, request: Request) -> str | None:
    """The id of a profile whose key is right (403 otherwise), or ``None`` without one; the client's
    network is noted for the profile (:func:`cuarenta.server.fairplay.note_address`)."""
    if proof is None:
        return None
    try:
        found = check_profile(rooms.store, proof.id, proof.key).id
    except ProfileProblem as exc:
        raise HTTPException(403 if exc.code == "bad_key" else 404, str(exc)) from None
    try:
        note_address(rooms.store, found, request.client.host if request.client else None)
    except StoreError:
        log.exception("the network of profile %s could not be noted", found)
    return found


def _http(problem: TableError) -> HTTPException:
    return HTTPException(http_status(problem), problem.message)


def tables_router(
    rooms: TableRooms,
    *,
    limit_creation: Callable[..., Coroutine[Any, Any, None]],
    seat_token: Callable[..., str],
    bearer: HTTPBearer,
    errors: Callable[..., dict[int | str, dict[str, Any]]],
) -> APIRouter:
    """The routes of docs/tables.md over ``rooms``."""
    router = APIRouter()
    Token = Annotated[str, Depends(seat_token)]

    async def _optional_token(request: Request) -> str | None:
        """The seat token of an ``Authorization: Bearer`` header if there is one (the schema says it is
        optional through the route's ``security``)."""
        credentials = await bearer(request)
        return credentials.credentials if credentials is not None and credentials.credentials else None

    @router.post(
        "/api/tables",
        response_model=NewTableAnswer,
        responses=errors(400, 403, 404, 413, 422, 429),
        dependencies=[Depends(limit_creation)],
    )
    async def new_table(body: NewTable, request: Request) -> dict[str, Any]:
        """A new table; the answer's token is the creator's (seat 0), ``invite`` the table's invite code."""
        rules = rules_for(body.players, body.rules)
        if body.rated and set(body.rules) - {"preset", "players"}:
            raise HTTPException(422, "a rated table plays a preset's rules: send only the preset's name")
        profile = _profile_id(rooms, body.profile, request)
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
            raise HTTPException(422, str(exc)) from None
        except TableError as exc:
            raise _http(exc) from None
        return {"room": seat.room, "seat": seat.seat, "token": seat.token, "invite": invite}

    @router.get(
        "/api/tables/{room_id}",
        response_model=TableInfo,
        responses=errors(400, 403, 404, 410, 422, 500),
        openapi_extra={"security": [{}, {bearer.scheme_name: []}]},  # the token is optional here
    )
    async def get_table(
        room_id: _RoomId, token: Annotated[str | None, Depends(_optional_token)]
    ) -> dict[str, Any]:
        """A table's public facts; with a seat's token also that seat and the invite code."""
        try:
            if token is None:
                room = rooms.table(room_id)
                return rooms.describe(room)
            room, seat = rooms.seat_of_token(room_id, token)
        except TableError as exc:
            raise _http(exc) from None
        return rooms.describe(room, seat)

    @router.post(
        "/api/tables/{room_id}/join",
        response_model=SeatAnswer,
        responses=errors(400, 403, 404, 409, 413, 422, 429, 503),
        dependencies=[Depends(limit_creation)],
    )
    async def join_table(room_id: _RoomId, body: JoinTable, request: Request) -> dict[str, Any]:
        """Take an open seat of a table with its invite code."""
        try:
            seat = rooms.join_table(
                room_id,
                invite=body.invite,
                name=body.name,
                seat=body.seat,
                team=body.team,
                profile=_profile_id(rooms, body.profile, request),
            )
        except TableError as exc:
            raise _http(exc) from None
        return {"room": seat.room, "seat": seat.seat, "token": seat.token}

    @router.post(
        "/api/tables/{room_id}/seats/{seat}",
        response_model=TableInfo,
        responses=errors(400, 401, 403, 404, 409, 410, 413, 422, 503),
    )
    async def seat_to_computer(
        room_id: _RoomId, seat: Annotated[int, PathParameter(ge=0, le=3)], body: SeatLevel, token: Token
    ) -> dict[str, Any]:
        """The creator turns an open seat into a computer player."""
        try:
            room = rooms.make_computer(room_id, token, seat, body.level)
        except TableError as exc:
            raise _http(exc) from None
        return rooms.describe(room, room.table.creator if room.table else None)

    @router.post(
        "/api/tables/{room_id}/start",
        response_model=TableInfo,
        responses=errors(400, 401, 403, 404, 409, 410, 422, 503),
    )
    async def start_table(room_id: _RoomId, token: Token) -> dict[str, Any]:
        """The creator starts the table (open seats become computer players)."""
        try:
            room = rooms.start(room_id, token)
        except TableError as exc:
            raise _http(exc) from None
        return rooms.describe(room, room.table.creator if room.table else None)

    @router.post(
        "/api/tables/{room_id}/leave",
        response_model=TableInfo,
        responses=errors(400, 401, 403, 404, 409, 422, 503),
    )
    async def leave_table(room_id: _RoomId, token: Token) -> dict[str, Any]:
        """Leave the table for good: the computer plays the seat from now on."""
        try:
            room = rooms.leave_table(room_id, token)
        except TableError as exc:
            raise _http(exc) from None
        return rooms.describe(room)

    @router.get("/api/lobby", response_model=Lobby)
    async def lobby() -> dict[str, Any]:
        """The public tables that wait for people, newest first."""
        return {"tables": rooms.lobby()}

    @router.post(
        "/api/qr",
        response_class=Response,
        responses={200: {"content": {"image/svg+xml": {}}}, **errors(400, 413, 422)},
    )
    def qr(body: QrText) -> Response:
        """The QR code of a text (an invite link) as SVG, drawn by segno."""
        out = io.BytesIO()
        segno.make(body.text, error="m").save(out, kind="svg", scale=4, border=2, dark="#000", light="#fff")
        return Response(out.getvalue(), media_type="image/svg+xml")

    return router


__all__ = ["QR_MAX_CHARS", "rules_for", "tables_router"]
