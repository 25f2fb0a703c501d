"""The FastAPI application: HTTP API, the ``/ws`` WebSocket and the static page (docs/protocol.md).

Its defences (docs/web.md "Security") live in :mod:`cuarenta.server.security`: security headers, gzip,
a request-body limit, no tokens in addresses, rate limits and the Origin check of ``/ws``; the limits per
client address in :mod:`cuarenta.server.limits` and the Host check in :mod:`cuarenta.server.hosts`
(docs/operations.md "Limits"). The API's schema is served at ``/api/openapi.json`` (and nowhere else).

>>> import tempfile, pathlib
>>> from fastapi.testclient import TestClient
>>> with tempfile.TemporaryDirectory() as d, TestClient(create_app(pathlib.Path(d), bot_delay=0)) as client:
...     client.get("/api/health").json()["protocol"]
1
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
from collections.abc import AsyncIterator, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Final, Literal

import sqlalchemy as sa
from fastapi import Depends, FastAPI, HTTPException, Query, Request, WebSocket
from fastapi import Path as PathParameter
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.staticfiles import StaticFiles
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
from starlette.websockets import WebSocketDisconnect, WebSocketState

from cuarenta import __version__
from cuarenta.rules import PRESET_NAMES, Rules
from cuarenta.server.authority.errors import TableError
from cuarenta.server.authority.seats import check_players
from cuarenta.server.errors_http import http_status
from cuarenta.server.health import INTEGRITY_SECONDS, Readiness
from cuarenta.server.hosts import HostCheck, ServerNames
from cuarenta.server.limits import AddressLimits
from cuarenta.server.metrics import CONTENT_TYPE as METRICS_CONTENT_TYPE
from cuarenta.server.names import clean_name
from cuarenta.server.options import NAME_MAX_CHARS, OPTIONAL_NAME_PATTERN, known_level
from cuarenta.server.options import router as options_router
from cuarenta.server.profiles import Established
from cuarenta.server.profiles_api import router as profiles_router
from cuarenta.server.protocol import (
    PROTOCOL_VERSION,
    JoinMessage,
    MoveMessage,
    NextMessage,
    PaceMessage,
    PingMessage,
    ProtocolError,
    ReactMessage,
    RematchMessage,
    WatchMessage,
    error_message,
    parse_client_message,
    pong_message,
)
from cuarenta.server.rooms import (
    CLOSE_SOCKET,
    DEFAULT_MAX_ROOMS,
    Connection,
    RoomProblem,
    SharedMessage,
    available_levels,
    default_level,
    room_status,
)
from cuarenta.server.security import (
    TOKEN_IN_ADDRESS,
    AddressLimiter,
    Limits,
    Origins,
    RequestGuard,
    SecurityHeaders,
    ThrottledLog,
    TokenBucket,
)
from cuarenta.server.stats import stats_of
from cuarenta.server.store import Store, StoreError, hash_token, store_text, unavailable_text
from cuarenta.server.tables import TableRooms
from cuarenta.server.tables_api import rules_for, tables_router
from cuarenta.server.thinking import make_thinking

if TYPE_CHECKING:
    from cuarenta.server.cluster import ClusterRooms

log = logging.getLogger("cuarenta.server")

#: Where the page lives in the installed package (written by the page's own module).
STATIC_DIR: Final = Path(__file__).resolve().parent.parent / "web" / "static"
#: The most tokens one history request may name.
MAX_TOKENS: Final = 100
#: The longest token the API reads (the server's tokens have 32 characters).
MAX_TOKEN_CHARS: Final = 200
#: Where the API's OpenAPI schema is served (nothing at /openapi.json, /docs or /redoc).
OPENAPI_URL: Final = "/api/openapi.json"
#: Answers smaller than this are sent uncompressed (the token of ``POST /api/rooms`` is never compressed).
GZIP_MINIMUM_BYTES: Final = 500
#: The WebSocket close codes: a message over the rate limit, a foreign Origin (docs/protocol.md).
CLOSE_POLICY: Final = 1008
#: The operator's endpoints (docs/operations.md): not in the API's schema, never cached.
NO_STORE: Final = {"Cache-Control": "no-store"}
_RoomId = Annotated[str, PathParameter(min_length=1, max_length=100)]
_Token = Annotated[StrictStr, Field(min_length=1, max_length=MAX_TOKEN_CHARS)]


# -- the API's bodies and answers (they make /api/openapi.json describe the real answers) -------------------
class ErrorAnswer(BaseModel):
    """Every HTTP error: one clear sentence in English."""

    detail: str


class Health(BaseModel):
    ok: bool
    version: str
    protocol: int


class NewRoom(BaseModel):
    """The body of ``POST /api/rooms``."""

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
            raise ValueError(
                "seed: the server chooses the seed of every room; a chosen seed is only for a practice "
                'room, which is kept out of the statistics: send "practice": true with it'
            )
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


def _errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    return {code: {"model": ErrorAnswer} for code in codes}


def _json_errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The error answers of a route whose own answer is not JSON (FastAPI would give them its type)."""
    schema = {"$ref": "#/components/schemas/ErrorAnswer"}
    return {
        code: {"description": "an error", "content": {"application/json": {"schema": schema}}}
        for code in codes
    }


def _validation_text(exc: RequestValidationError) -> str:
    parts = []
    for err in exc.errors()[:5]:
        loc = [str(p) for p in err.get("loc", ()) if p != "body"]
        msg = str(err.get("msg", "invalid")).removeprefix("Value error, ")
        if not loc and re.match(r"^[a-z_]+: ", msg):  # a check of the whole body that names its field
            parts.append(msg)
        else:
            parts.append(f"{'.'.join(loc) or 'body'}: {msg}")
    return "; ".join(parts) or "the request is not valid"


def rules_of(body: NewRoom) -> Rules:
    """The rules a new room asks for; :class:`HTTPException` 422 saying what is wrong."""
    return rules_for(body.players, body.rules)


def _problem_http(problem: TableError) -> HTTPException:
    return HTTPException(http_status(problem), problem.message)


_bearer = HTTPBearer(
    auto_error=False,
    scheme_name="seat token",
    description="The token of a seat (from POST /api/rooms), as `Authorization: Bearer <token>`.",
)


def seat_token(
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> str:
    """The token of the ``Authorization: Bearer`` header: 401 without one, 403 when it cannot be a token."""
    if credentials is None or not credentials.credentials:
        raise HTTPException(
            401,
            "send the seat's token in the header Authorization: Bearer <token>",
            headers={"WWW-Authenticate": "Bearer"},
        )
    token = credentials.credentials
    if len(token) > MAX_TOKEN_CHARS:
        raise HTTPException(403, f"that is not a seat's token (longer than {MAX_TOKEN_CHARS} characters)")
    return token


def create_app(
    data_dir: Path,
    bot_delay: float = 0.8,
    static_dir: Path | None = None,
    workers: int | None = None,
    *,
    limits: Limits | None = None,
    allow_origins: Iterable[str] = (),
    database: str | None = None,
    max_rooms: int | None = None,
    redis: str | None = None,
    node: str | None = None,
    established: Established | None = None,
    init: bool = False,
    accept_lost_wal: bool = False,
    integrity_seconds: float = INTEGRITY_SECONDS,
    server_names: Iterable[str] | None = None,
) -> FastAPI:
    """The web app, keeping its games in ``data_dir`` (created if needed), or in ``database`` (a URL).

    ``bot_delay`` is the pause in seconds before each computer move; ``static_dir`` the page to serve at
    ``/`` (default: the installed package's ``web/static``).
    ``workers`` is the number of worker processes the computer players think in (default: one per core;
    0: in-process, on one thread — :mod:`cuarenta.server.thinking`).
    ``limits`` are the rate limits (default :class:`Limits`); ``allow_origins`` the browser origins
    besides the server's own that may open ``/ws`` (``cuarenta serve --allow-origin``); ``max_rooms`` the
    rooms kept in memory at most (default :data:`~cuarenta.server.rooms.DEFAULT_MAX_ROOMS`, docs/storage.md).
    With ``redis`` (a URL) the app is one node of a cluster named ``node`` (:mod:`cuarenta.server.cluster`,
    docs/scaling.md): ``database`` must then be a PostgreSQL URL, and computer moves are played by
    ``cuarenta worker`` processes. ``established`` says when a rating is on the leaderboard (default
    :class:`~cuarenta.server.profiles.Established`: 5 rated mesas against 3 different opponents).
    ``cuarenta worker`` processes.
    ``init`` and ``accept_lost_wal`` are for a SQLite file that is missing, empty, damaged or lost its
    WAL (``cuarenta serve --init``, ``--accept-lost-wal``; docs/storage.md "Storage faults"), which is
    otherwise refused with :class:`~cuarenta.server.store.StoreError`; ``integrity_seconds`` the
    shortest time between two ``PRAGMA quick_check`` of ``/readyz`` (docs/operations.md).
    ``server_names`` turns the Host check on (:mod:`cuarenta.server.hosts`): requests must name an IP
    address, ``localhost``, this machine, one of these names or a host of ``allow_origins``; ``None`` (the
    default of the library function; ``cuarenta serve`` always checks) leaves it off.
    """
    origins = Origins(allow_origins)  # a bad origin fails here, before anything is opened
    names = None if server_names is None else ServerNames.with_origins(server_names, allow_origins)
    limits = Limits() if limits is None else limits
    if redis is not None and (database is None or not database.startswith("postgresql")):
        raise ValueError(
            "a cluster (--redis) keeps its games in PostgreSQL: give --database postgresql+psycopg://…"
        )
    if database is None:
        store = Store.in_dir(Path(data_dir), init=init, accept_lost_wal=accept_lost_wal)
    else:
        store = Store(database, init=init, accept_lost_wal=accept_lost_wal)
    rooms: TableRooms
    cluster: ClusterRooms | None
    if redis is None:
        rooms = TableRooms(
            store,
            bot_delay=bot_delay,
            thinking=make_thinking(workers),
            max_rooms=max_rooms or DEFAULT_MAX_ROOMS,
        )
        redis_client = None
        cluster = None
    else:
        from redis.asyncio import Redis

        from cuarenta.server.cluster import ClusterRooms

        redis_client = Redis.from_url(
            redis, socket_connect_timeout=2, socket_timeout=5, health_check_interval=10
        )
        rooms = cluster = ClusterRooms(
            store,
            bot_delay=bot_delay,
            thinking=make_thinking(0),  # a node never thinks: the workers do
            max_rooms=max_rooms or DEFAULT_MAX_ROOMS,
            redis=redis_client,
            node=node or "node",
        )
    static = STATIC_DIR if static_dir is None else Path(static_dir)
    room_limit = AddressLimiter(limits.rooms_per_minute, limits.rooms_burst)

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        if cluster is not None:
            await cluster.open()
        try:
            yield
        finally:
            await rooms.close()
            store.close()

    app = FastAPI(
        title="Cuarenta",
        version=__version__,
        summary="Play Cuarenta, the card game of Ecuador, against the computer (docs/protocol.md).",
        lifespan=lifespan,
        openapi_url=OPENAPI_URL,
        docs_url=None,
        redoc_url=None,
    )
    app.state.rooms = rooms
    app.state.store = store
    app.state.redis = redis_client
    app.state.limits = limits
    app.state.origins = origins
    app.state.established = established or Established()
    app.state.server_names = names
    # outermost last: headers on every answer, the Host check, gzip, the limits per address, the request
    # checks
    app.add_middleware(RequestGuard)
    # -- limits per address (docs/operations.md "Limits") --
    app.add_middleware(AddressLimits, limits=limits)
    message_limit = AddressLimiter(limits.message_rate * 60, limits.message_burst)
    # --
    app.add_middleware(GZipMiddleware, minimum_size=GZIP_MINIMUM_BYTES, compresslevel=6)
    if names is not None:
        app.add_middleware(HostCheck, names=names)
    app.add_middleware(SecurityHeaders)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": _validation_text(exc)}, status_code=422)

    # a store that fails: the documented body and 503 on every route, never a bare 500 (docs/protocol.md)
    @app.exception_handler(StoreError)
    @app.exception_handler(sa.exc.SQLAlchemyError)
    async def _store_failed(request: Request, exc: Exception) -> JSONResponse:
        log.error("%s %s: the store failed: %s", request.method, request.url.path, store_text(exc))
        return JSONResponse({"detail": unavailable_text(exc)}, status_code=503)

    refused_rooms = ThrottledLog(log)
    refused_origins = ThrottledLog(log)

    async def limit_room_creation(request: Request) -> None:  # a coroutine: on the loop, not in a thread
        host = request.client.host if request.client else None
        if not room_limit.allow(host):
            wait = room_limit.retry_after(host)
            refused_rooms("room creation refused to %s: over the rate limit", host)
            raise HTTPException(
                429,
                f"too many new rooms from your address: at most {limits.rooms_burst} at once and "
                f"{limits.rooms_per_minute:g} a minute; try again in {wait} s",
                headers={"Retry-After": str(wait)},
            )

    @app.get("/api/health", response_model=Health)
    def health() -> dict[str, Any]:
        return {"ok": True, "version": __version__, "protocol": PROTOCOL_VERSION}

    # -- the operator's endpoints (docs/operations.md); coroutines: they answer from the event loop --------
    # a cluster sets app.state.redis
    readiness = Readiness(store, lambda: getattr(app.state, "redis", None), integrity_seconds)

    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> JSONResponse:
        """Liveness: the event loop answers."""
        return JSONResponse({"ok": True}, headers=NO_STORE)

    @app.get("/readyz", include_in_schema=False)
    async def readyz() -> JSONResponse:
        """Readiness: the store answers ``SELECT 1`` and, with a Redis client, Redis answers ``PING``."""
        ready, checks = await readiness.check()
        return JSONResponse(
            {"ready": ready, "checks": checks}, status_code=200 if ready else 503, headers=NO_STORE
        )

    @app.get("/metrics", include_in_schema=False)
    async def metrics() -> Response:
        """This process' metrics in Prometheus' text format (read on the loop: the gauges walk the rooms)."""
        return Response(rooms.metrics.render(), media_type=METRICS_CONTENT_TYPE, headers=NO_STORE)

    # GET /api/options and /api/texts/{lang}
    app.include_router(options_router, responses=_errors(404, 422))
    app.include_router(profiles_router)  # profiles and the leaderboard (docs/tables.md)

    # Handlers that touch the rooms are coroutines: they run on the event loop, like the sockets and the
    # computer players' moves, so a room is never loaded or changed from two threads at once.
    @app.post(
        "/api/rooms",
        response_model=NewRoomAnswer,
        responses=_errors(400, 413, 422, 429),
        dependencies=[Depends(limit_room_creation)],
    )
    async def new_room(body: NewRoom) -> dict[str, Any]:
        """A new room against the computer; the answer's token is the person's (seat 0)."""
        rules = rules_of(body)
        room, token = rooms.create(
            rules=rules,
            level=body.level or default_level(),
            name=body.name,
            seed=body.seed,
            practice=body.practice,
        )
        return {"room": room.id, "seat": 0, "token": token}

    @app.get(
        "/api/rooms/{room_id}", response_model=RoomInfo, responses=_errors(400, 401, 403, 404, 410, 422, 500)
    )
    async def get_room(room_id: _RoomId, token: Annotated[str, Depends(seat_token)]) -> dict[str, Any]:
        """The state of a token's room (used to resume)."""
        try:
            room, seat = rooms.authorize(room_id, token)
        except RoomProblem as exc:
            raise _problem_http(exc) from None
        return {**room_status(room), "seat": seat}

    # tables with friends (docs/tables.md)
    app.include_router(
        tables_router(
            rooms, limit_creation=limit_room_creation, seat_token=seat_token, bearer=_bearer, errors=_errors
        )
    )

    @app.post("/api/history", response_model=History, responses=_errors(400, 413, 422))
    def history(body: HistoryRequest) -> dict[str, Any]:
        """The finished mesas of the rooms the tokens hold a seat in, newest first, and those rooms whose
        current mesa is still in play (``playing``, most recently changed first)."""
        hashes = [hash_token(t) for t in body.tokens]
        seats = store.rooms_of_tokens(hashes)
        # a table the person left for good is not one to go on with (its finished mesas stay listed)
        playing = []
        for room in store.playing_of_rooms([room for room, _ in store.rooms_of_tokens(hashes, left=False)]):
            try:
                rules = json.loads(room.rules)
            except ValueError:
                log.error("room %s has corrupt rules; left out of the history", room.room)
                continue
            playing.append(
                {
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
            )
        games = []
        team_of = {room: seat % 2 for room, seat in seats}  # each seat sees its own team's side
        for row in store.finished_of_rooms([room for room, _ in seats]):
            row = row.for_team(team_of.get(row.room, row.person_team))
            try:
                games.append(
                    {
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
                )
            except ValueError:
                log.error("history row of room %s mesa %d is corrupt; left out", row.room, row.mesa)
        return {"games": games, "playing": playing}

    @app.get("/api/history", include_in_schema=False)
    def history_by_address() -> JSONResponse:
        return JSONResponse(
            {"detail": 'POST the tokens in the body, {"tokens": [...]}; ' + TOKEN_IN_ADDRESS},
            status_code=405,
            headers={"Allow": "POST"},
        )

    @app.get(
        "/api/games/{room_id}/record",
        response_class=PlainTextResponse,
        responses={
            200: {"content": {"text/plain": {"schema": {"type": "string"}}}, "description": "the record"},
            **_json_errors(400, 401, 403, 404, 409, 410, 422),
        },
    )
    async def record(
        room_id: _RoomId,
        token: Annotated[str, Depends(seat_token)],
        mesa: Annotated[int | None, Query(ge=1, lt=2**31)] = None,
    ) -> PlainTextResponse:
        """The record (``.cuarenta``) of a finished mesa of the token's room (default: the current one)."""
        try:
            rooms.seat_of(room_id, token)
        except RoomProblem as exc:
            raise _problem_http(exc) from None
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

    @app.get("/api/stats", response_model=Stats)
    def stats() -> dict[str, Any]:
        """Per level: mesas played and won, caídas and limpias of the person's team."""
        found = store.stats()
        levels = {level: {"played": 0, "won": 0, "caidas": 0, "limpias": 0} for level in available_levels()}
        levels.update(found)
        return {"levels": levels}

    @app.post("/api/stats", response_model=BrowserStats, responses=_errors(400, 413, 422))
    def browser_stats(body: HistoryRequest) -> dict[str, Any]:
        """The figures of the rooms the tokens hold a seat in (one browser's games): per level and in all,
        mesas played and won, the longest run won in a row, the caídas and limpias of the person's team."""
        seats = store.rooms_of_tokens(hash_token(t) for t in body.tokens)
        team_of = {room: seat % 2 for room, seat in seats}
        rows = store.finished_of_rooms([room for room, _ in seats])
        return stats_of([row.for_team(team_of[row.room]) for row in rows], available_levels())

    @app.websocket("/ws")
    async def socket(ws: WebSocket) -> None:
        origin = ws.headers.get("origin")
        if not origins.allows(origin, ws.url.scheme, ws.headers.get("host")):
            # refused before accept: uvicorn answers the handshake with 403
            refused_origins("socket from origin %r refused (not this server's origin)", origin)
            await ws.close(code=CLOSE_POLICY)
            return
        await ws.accept()
        conn = Connection()
        conn.address = ws.client.host if ws.client else None
        bucket = TokenBucket(limits.ws_rate, limits.ws_burst)
        address = ws.client.host if ws.client else None
        sender = asyncio.create_task(_send_loop(ws, conn))
        rooms.metrics.sockets.inc()
        try:
            while True:
                try:
                    message = await ws.receive()
                except (WebSocketDisconnect, RuntimeError):
                    break
                if message["type"] == "websocket.disconnect":
                    break
                over_socket = not bucket.take()
                if over_socket or not message_limit.allow(address):  # the socket's, then its address's
                    rooms.metrics.refused.labels(code="rate_limited").inc()
                    rooms.leave(conn)  # nothing more is queued for it: the error is its last message
                    await _refuse(ws, conn, sender, _rate_limited(limits, per_address=not over_socket))
                    break
                raw = message.get("text")
                if raw is None:
                    raw = message.get("bytes") or b""
                try:
                    handle(conn, parse_client_message(raw))
                except TableError as exc:  # the authority's refusals (ProtocolError, the wire's, among them)
                    rooms.metrics.refused.labels(code=exc.code).inc()
                    conn.send(error_message(exc.code, exc.message, exc.reason))
                except (StoreError, sa.exc.SQLAlchemyError) as exc:  # an error message, never a silent close
                    log.error("a socket's request failed in the store: %s", store_text(exc))
                    rooms.metrics.refused.labels(code="store_unavailable").inc()
                    conn.send(error_message("store_unavailable", unavailable_text(exc)))
        finally:
            rooms.metrics.sockets.dec()
            rooms.leave(conn)
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sender

    def handle(conn: Connection, message: Any) -> None:
        if isinstance(message, PingMessage):
            conn.send(pong_message())
        elif isinstance(message, JoinMessage):
            rooms.join(conn, message)
        elif isinstance(message, MoveMessage):
            rooms.move(conn, message)
        elif isinstance(message, NextMessage):
            rooms.next_mesa(conn, message)
        elif isinstance(message, PaceMessage):
            rooms.pace(conn, message)
        elif isinstance(message, WatchMessage):
            rooms.watch(conn, message)
        elif isinstance(message, ReactMessage):
            rooms.react(conn, message)
        elif isinstance(message, RematchMessage):
            rooms.rematch(conn, message)
        else:  # pragma: no cover - parse_client_message returns only these
            raise ProtocolError("bad_message", "unknown message")

    if (static / "index.html").is_file():
        app.mount("/", StaticFiles(directory=static, html=True), name="page")
    else:

        @app.get("/", response_class=HTMLResponse, include_in_schema=False)
        def no_page() -> str:
            return (
                "<!doctype html><html lang='es'><meta charset='utf-8'><title>Cuarenta</title>"
                "<p>The page of this installation is missing; the API is at /api/health.</p></html>"
            )

    return app


def _rate_limited(limits: Limits, per_address: bool = False) -> dict[str, Any]:
    if per_address:
        return error_message(
            "rate_limited",
            f"too many messages from your address: at most {limits.message_rate:g} a second across its "
            f"sockets (bursts of {limits.message_burst}); the socket is closed",
        )
    return error_message(
        "rate_limited",
        f"too many messages: at most {limits.ws_rate:g} a second (bursts of {limits.ws_burst}); "
        "the socket is closed",
    )


async def _refuse(
    ws: WebSocket, conn: Connection, sender: asyncio.Task[None], message: dict[str, Any]
) -> None:
    """Send what is queued for the socket, then ``message`` as its last message, and close it with 1008.

    The caller has taken the socket out of its room, so nothing more is queued after ``message``; a
    client that does not read gets its close after 5 s all the same."""
    conn.send(message)
    flushed = asyncio.ensure_future(conn.queue.join())
    try:
        await asyncio.wait({flushed, sender}, timeout=5, return_when=asyncio.FIRST_COMPLETED)
    finally:
        flushed.cancel()
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sender
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        if ws.application_state != WebSocketState.DISCONNECTED:
            await ws.close(code=CLOSE_POLICY)


async def _send_loop(ws: WebSocket, conn: Connection) -> None:
    """Send a socket's queued messages in order until it closes."""
    while True:
        message = await conn.queue.get()
        if message is CLOSE_SOCKET:  # Connection.close: the socket closes (its receiver then leaves)
            conn.queue.task_done()
            with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
                await ws.close(code=conn.close_code or 1000)
            return
        try:
            if isinstance(message, SharedMessage):  # made once for many sockets: encoded once
                await ws.send_text(message.text)
            else:
                await ws.send_text(json.dumps(message, ensure_ascii=False))
        except (WebSocketDisconnect, RuntimeError, OSError):
            return
        finally:
            conn.queue.task_done()


__all__ = ["MAX_TOKENS", "OPENAPI_URL", "STATIC_DIR", "TOKEN_IN_ADDRESS", "create_app", "rules_of"]
