"""The FastAPI application: HTTP API, the ``/ws`` WebSocket and the static page (docs/protocol.md).

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
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Annotated, Any, Final

from fastapi import FastAPI, HTTPException, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, field_validator
from starlette.websockets import WebSocketDisconnect

from cuarenta import __version__
from cuarenta.errors import CuarentaError
from cuarenta.i18n import LANGS
from cuarenta.rules import OPTION_NAMES, PRESET_NAMES, Rules
from cuarenta.server.protocol import (
    PROTOCOL_VERSION,
    JoinMessage,
    MoveMessage,
    NextMessage,
    PingMessage,
    ProtocolError,
    error_message,
    parse_client_message,
    pong_message,
)
from cuarenta.server.rooms import (
    Connection,
    RoomProblem,
    Rooms,
    available_levels,
    default_level,
    room_status,
)
from cuarenta.server.store import Store, hash_token

log = logging.getLogger("cuarenta.server")

#: Where the page lives in the installed package (written by the page's own module).
STATIC_DIR: Final = Path(__file__).resolve().parent.parent / "web" / "static"
#: The most tokens one history request may name.
MAX_TOKENS: Final = 100
#: The rule id and the values the new-game form offers for every option (RULES.md).
OPTION_FORM: Final[dict[str, tuple[str, str, tuple[object, ...]]]] = {
    "sum_cards": ("R8", "choice", ("two_or_more", "two")),
    "capture": ("R12", "choice", ("auto", "manual")),
    "caida_limpia_points": ("R15", "points", (4, 2)),
    "ronda_points": ("R16", "points", (2, 4)),
    "four_of_a_kind": ("R17", "choice", ("wins_chica", "points")),
    "caida_ronda_points": ("R18", "points", (10, 4, 0)),
    "ronda_limit": ("R19", "points", (30, None)),
    "treinta_y_ocho": ("R20", "bool", (True, False)),
    "cuatro_caidas_gana": ("R21", "bool", (False, True)),
    "carton_short": ("R23", "choice", ("most_cards", "dos_por_dar")),
    "caida_across_deals": ("R13", "bool", (False, True)),
    "carton_cap": ("R23", "points", (None, 28, 36)),
    "target": ("R24", "points", (40,)),
    "chicas": ("R26", "choice", (1, 2, 3)),
    "zapatero_wins_mesa": ("R25", "bool", (False, True)),
}
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


class NewRoom(BaseModel):
    """The body of ``POST /api/rooms``."""

    model_config = ConfigDict(extra="forbid")

    players: StrictInt = 2
    level: StrictStr | None = None
    rules: dict[str, Any] = Field(default_factory=lambda: {"preset": PRESET_NAMES[0]})
    name: Annotated[StrictStr, Field(max_length=40)] = ""
    seed: Annotated[StrictInt, Field(ge=0, lt=2**63)] | None = None

    @field_validator("players")
    @classmethod
    def _players(cls, value: int) -> int:
        if value not in (2, 4):
            raise ValueError(f"{value} players: Cuarenta is played by 2 or 4")
        return value

    @field_validator("level")
    @classmethod
    def _level(cls, value: str | None) -> str | None:
        levels = available_levels()
        if value is not None and value not in levels:
            raise ValueError(f"unknown level {value!r}: choose one of {', '.join(levels)}")
        return value

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        if _CONTROL.search(value):
            raise ValueError("the name may not hold control characters")
        return value.strip()


def _validation_text(exc: RequestValidationError) -> str:
    parts = []
    for err in exc.errors()[:5]:
        loc = [str(p) for p in err.get("loc", ()) if p != "body"]
        msg = str(err.get("msg", "invalid")).removeprefix("Value error, ")
        parts.append(f"{'.'.join(loc) or 'body'}: {msg}")
    return "; ".join(parts) or "the request is not valid"


def options_payload() -> dict[str, Any]:
    """``GET /api/options``: what the new-game form offers."""
    default = Rules()
    presets = []
    for name in PRESET_NAMES:
        allowed = [n for n in (2, 4) if _preset_allows(name, n)]
        options = Rules.preset(name, allowed[0]).to_dict()
        options.pop("preset")
        options.pop("players")
        presets.append({"name": name, "players": allowed, "options": options})
    options_list = []
    for name in OPTION_NAMES:
        if name == "players":
            continue
        rule, kind, choices = OPTION_FORM[name]
        options_list.append(
            {
                "name": name,
                "rule": rule,
                "kind": kind,
                "choices": list(choices),
                "default": getattr(default, name),
            }
        )
    return {
        "protocol": PROTOCOL_VERSION,
        "players": [2, 4],
        "presets": presets,
        "default_preset": PRESET_NAMES[0],
        "options": options_list,
        "levels": available_levels(),
        "default_level": default_level(),
        "languages": list(LANGS),
    }


def _preset_allows(name: str, players: int) -> bool:
    try:
        Rules.preset(name, players)
    except CuarentaError:
        return False
    return True


def rules_of(body: NewRoom) -> Rules:
    """The rules a new room asks for; :class:`HTTPException` 422 saying what is wrong."""
    data = dict(body.rules)
    if "players" in data and data["players"] != body.players:
        raise HTTPException(
            422,
            f"rules.players is {data['players']!r} but players is {body.players}: make them agree",
        )
    data["players"] = body.players
    try:
        return Rules.from_dict(data)
    except (CuarentaError, TypeError, ValueError) as exc:
        raise HTTPException(422, f"rules: {exc}") from None


def _problem_http(problem: RoomProblem) -> HTTPException:
    status = {"unknown_room": 404, "bad_token": 403}.get(problem.code, 500)
    return HTTPException(status, problem.message)


def create_app(data_dir: Path, bot_delay: float = 0.8, static_dir: Path | None = None) -> FastAPI:
    """The web app, keeping its games in ``data_dir`` (created if needed).

    ``bot_delay`` is the pause in seconds before each computer move; ``static_dir`` the page to serve at
    ``/`` (default: the installed package's ``web/static``).
    """
    store = Store.in_dir(Path(data_dir))
    rooms = Rooms(store, bot_delay=bot_delay)
    static = STATIC_DIR if static_dir is None else Path(static_dir)

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        try:
            yield
        finally:
            await rooms.close()
            store.close()

    app = FastAPI(title="Cuarenta", version=__version__, lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.rooms = rooms
    app.state.store = store

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": _validation_text(exc)}, status_code=422)

    @app.get("/api/health")
    def health() -> dict[str, Any]:
        return {"ok": True, "version": __version__, "protocol": PROTOCOL_VERSION}

    @app.get("/api/options")
    def options() -> dict[str, Any]:
        return options_payload()

    # Handlers that touch the rooms are coroutines: they run on the event loop, like the sockets and the
    # computer players' moves, so a room is never loaded or changed from two threads at once.
    @app.post("/api/rooms")
    async def new_room(body: NewRoom) -> dict[str, Any]:
        rules = rules_of(body)
        room, token = rooms.create(
            rules=rules, level=body.level or default_level(), name=body.name, seed=body.seed
        )
        return {"room": room.id, "seat": 0, "token": token}

    @app.get("/api/rooms/{room_id}")
    async def get_room(room_id: str, token: Annotated[str, Query(max_length=200)]) -> dict[str, Any]:
        try:
            room, seat = rooms.authorize(room_id, token)
        except RoomProblem as exc:
            raise _problem_http(exc) from None
        return {**room_status(room), "seat": seat}

    @app.get("/api/history")
    def history(token: Annotated[list[str], Query(max_length=MAX_TOKENS)]) -> dict[str, Any]:
        seats = store.rooms_of_tokens(hash_token(t) for t in token)
        games = []
        for row in store.finished_of_rooms([room for room, _ in seats]):
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
                    }
                )
            except ValueError:
                log.error("history row of room %s mesa %d is corrupt; left out", row.room, row.mesa)
        return {"games": games}

    @app.get("/api/games/{room_id}/record")
    async def record(
        room_id: str,
        token: Annotated[str, Query(max_length=200)],
        mesa: Annotated[int | None, Query(ge=1)] = None,
    ) -> PlainTextResponse:
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

    @app.get("/api/stats")
    def stats() -> dict[str, Any]:
        found = store.stats()
        levels = {level: {"played": 0, "won": 0, "caidas": 0, "limpias": 0} for level in available_levels()}
        levels.update(found)
        return {"levels": levels}

    @app.websocket("/ws")
    async def socket(ws: WebSocket) -> None:
        await ws.accept()
        conn = Connection()
        sender = asyncio.create_task(_send_loop(ws, conn))
        try:
            while True:
                try:
                    message = await ws.receive()
                except (WebSocketDisconnect, RuntimeError):
                    break
                if message["type"] == "websocket.disconnect":
                    break
                raw = message.get("text")
                if raw is None:
                    raw = message.get("bytes") or b""
                try:
                    handle(conn, parse_client_message(raw))
                except ProtocolError as exc:
                    conn.send(error_message(exc.code, exc.message))
        finally:
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
        else:  # pragma: no cover - parse_client_message returns only these
            raise ProtocolError("bad_message", "unknown message")

    if (static / "index.html").is_file():
        app.mount("/", StaticFiles(directory=static, html=True), name="page")
    else:

        @app.get("/", response_class=HTMLResponse)
        def no_page() -> str:
            return (
                "<!doctype html><html lang='es'><meta charset='utf-8'><title>Cuarenta</title>"
                "<p>The page of this installation is missing; the API is at /api/health.</p></html>"
            )

    return app


async def _send_loop(ws: WebSocket, conn: Connection) -> None:
    """Send a socket's queued messages in order until it closes."""
    while True:
        message = await conn.queue.get()
        try:
            await ws.send_text(json.dumps(message, ensure_ascii=False))
        except (WebSocketDisconnect, RuntimeError, OSError):
            return
