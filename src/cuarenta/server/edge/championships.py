"""The championships API (docs/championships.md "Running a championship"): create, register, start, the
pairs' seats, the judge's board and decisions, the committee's reviews, the hall's score sheets and the
standings. Errors are JSON ``{"detail", "code"}`` (and ``params``, the words' values of a refusal of the
library or the hall sheet, which the page says in its language): 400 bad input, 401/403 a missing or wrong
token, 404 unknown, 409 a wrong state. Tokens travel in ``Authorization: Bearer``; the links that carry
them keep them in the URL fragment (``/#champ=ID.TOKEN``, ``/#judge=…``, ``/#pair=…``,
``/#register=ID.CODE``).
"""

from __future__ import annotations

import asyncio
import csv
import io
import json
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Request
from fastapi import Path as PathParameter
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

from cuarenta.championship import Settings
from cuarenta.championship.actions import Decide, ReplacePlayer, Review, SeedPair, Start, Walkover, Withdraw
from cuarenta.championship.errors import ChampionshipError
from cuarenta.championship.hall import HallSheet
from cuarenta.server.answers.champ_replay import partida_replay_answer, partida_room, replayable
from cuarenta.server.answers.refused import Refused
from cuarenta.server.championships import ChampionshipProblem, Championships, Loaded
from cuarenta.server.edge.deps import (
    Refusal,
    bearer_secret,
    errors,
    limit_room_creation,
    optional_seat_token,
    seat_token,
)
from cuarenta.server.edge.rooms import rules_for
from cuarenta.server.edge.tables import ProfileProof, profile_id

router = APIRouter()
Id = Annotated[str, PathParameter(min_length=1, max_length=100)]
_Text = Annotated[StrictStr, Field(min_length=1, max_length=500)]
ERRORS = errors(400, 401, 403, 404, 409, 413, 429, 503)


class NewChampionship(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: Annotated[StrictStr, Field(min_length=1, max_length=40)]
    rules: dict[str, Any] | None = None
    format: Literal["swiss", "knockout", "groups"] = "swiss"
    rounds: StrictInt | None = None
    group_size: StrictInt = 4
    advance: StrictInt = 2
    clock: StrictInt | None = None
    venue: Literal["online", "hall"] = "online"
    duplicate: StrictBool = False
    wait_minutes: StrictInt = 10
    starts: StrictStr | None = None
    ends: StrictStr | None = None
    rated: StrictBool = False


class NewPair(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: Annotated[StrictStr, Field(min_length=1, max_length=40)]
    players: Annotated[list[Annotated[StrictStr, Field(max_length=40)]], Field(min_length=2, max_length=2)]
    code: Annotated[StrictStr, Field(max_length=200)] | None = None
    computer: StrictStr | None = None


class Empty(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ReplaceBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    index: StrictInt
    player: Annotated[StrictStr, Field(max_length=40)]


class SeedBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seed: StrictInt | None


class SitBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    player: Annotated[StrictInt, Field(ge=0, le=1)]
    profile: ProfileProof | None = None  #: needed in a rated championship (docs/ratings.md)


class WalkoverBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    winner: Annotated[StrictStr, Field(max_length=40)]
    reason: _Text


class DecisionBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    decision: Literal["pause", "resume", "restart", "note", "penalty"]
    reason: _Text


class ReviewBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    reverse: StrictBool
    reason: _Text


class EntryBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    entry: dict[str, Any]


async def service_of(request: Request) -> Championships:
    found: Championships = request.app.state.championships
    return found


Service = Annotated[Championships, Depends(service_of)]
Token = Annotated[str | None, Depends(optional_seat_token)]


def _need(service: Championships, cid: str, token: str | None, *roles: str) -> str:
    """The token's role among ``roles``: 401 without a token, 403 with another."""
    if token is None:
        bearer_secret(None, "championship's token", 200)  # raises 401
    role = service.role(cid, token)
    if role is None or role not in roles:
        raise ChampionshipProblem("bad_championship_token", f"this needs the {' or '.join(roles)}'s token")
    return role


def _scores(room: Any) -> tuple[list[int], list[int]]:
    game = room.game
    return list(game.score), list(game.chicas)


def _live(service: Championships, cid: str) -> dict[str, Any]:
    loaded = service.get(cid)
    live: dict[str, Any] = {}
    champ = loaded.champ
    for partida in champ.rounds[-1] if champ.rounds else []:
        if partida.pairs[1] is None:
            continue
        entry: dict[str, Any] = {"status": partida.status, "room": None, "scores": None, "chicas": None}
        if partida.id in loaded.tables:
            room = service.authority.table(loaded.tables[partida.id][0])
            entry["room"] = room.id
            entry["scores"], entry["chicas"] = _scores(room)
        elif partida.id in loaded.sheets:
            sheet = loaded.sheets[partida.id]
            entry["scores"], entry["chicas"] = list(sheet.scores), list(sheet.chicas)
        live[partida.id] = entry
    return live


@router.post("/api/championships", responses=ERRORS, dependencies=[Depends(limit_room_creation)])
async def create(body: NewChampionship, service: Service) -> dict[str, Any]:
    """A new championship: the organiser's and the judge's tokens, the registration code."""
    values = body.model_dump(exclude_none=True)
    values["rules"] = rules_for(4, body.rules or {"preset": "campeonato"}).to_dict()
    try:
        settings = Settings.from_dict(values)
    except ChampionshipError as exc:
        raise ChampionshipProblem(exc.code, str(exc), "bad_input") from None
    return service.create(settings)


def _json(text: str) -> Response:
    return Response(text, media_type="application/json")


def _replays(loaded: Loaded) -> list[str]:
    """The partidas replayed to anyone now (:func:`replayable`), worked out once per stored action: they
    change only with a result, and a crowd polls the public page."""
    if loaded.replays is None or loaded.replays[0] != loaded.count:
        loaded.replays = (loaded.count, replayable(loaded.champ, loaded.tables))
    return loaded.replays[1]


@router.get("/api/championships/{cid}", responses=ERRORS, response_model=dict[str, Any])
async def describe(cid: Id, service: Service) -> Response:
    """Everything public: ``to_public()``, each partida's table and its live score. The JSON text of
    ``to_public()`` is built once per change of the championship; only the tables and live scores are
    written for each request."""
    _, public = await service.public_async(cid)
    loaded = service.get(cid)
    own = {
        "id": cid,
        "tables": {p: r for p, (r, _) in loaded.tables.items()},
        "live": _live(service, cid),
        "replays": _replays(loaded),
    }
    head = json.dumps(own, ensure_ascii=False, separators=(",", ":"))
    return _json(head[:-1] + "," + public[1:])


@router.post("/api/championships/{cid}/pairs", responses=ERRORS, dependencies=[Depends(limit_room_creation)])
async def register(cid: Id, body: NewPair, service: Service, token: Token) -> dict[str, Any]:
    """Register a pair with the registration code, or the organiser's token (needed for a computer)."""
    organiser = token is not None and service.role(cid, token) == "organiser"
    if body.computer is not None and not organiser:
        raise ChampionshipProblem("bad_championship_token", "only the organiser registers a computer pair")
    if not organiser:
        if body.code is None:
            bearer_secret(None, "registration code or organiser's token", 200)
        if not service.check_code(cid, body.code or ""):
            raise ChampionshipProblem("bad_championship_token", "that is not this championship's code")
    return await service.register(cid, body.name, body.players, body.computer)


@router.post("/api/championships/{cid}/pairs/{pair}/withdraw", responses=ERRORS)
async def withdraw(cid: Id, pair: Id, body: Empty, service: Service, token: Token) -> dict[str, Any]:
    _need(service, cid, token, "organiser")
    await service.apply_async(cid, Withdraw(pair))
    return {"ok": True}


@router.post("/api/championships/{cid}/pairs/{pair}/replace", responses=ERRORS)
async def replace(cid: Id, pair: Id, body: ReplaceBody, service: Service, token: Token) -> dict[str, Any]:
    _need(service, cid, token, "organiser")
    await service.apply_async(cid, ReplacePlayer(pair, body.index, body.player))
    return {"ok": True}


@router.post("/api/championships/{cid}/pairs/{pair}/seed", responses=ERRORS)
async def seed(cid: Id, pair: Id, body: SeedBody, service: Service, token: Token) -> dict[str, Any]:
    _need(service, cid, token, "organiser")
    await service.apply_async(cid, SeedPair(pair, body.seed))
    return {"ok": True}


@router.post("/api/championships/{cid}/start", responses=ERRORS)
async def start(cid: Id, service: Service, token: Token) -> dict[str, Any]:
    _need(service, cid, token, "organiser")
    opened = await service.apply_async(cid, Start())
    return {"opened": [p.id for p in opened]}


def _pair_place(service: Championships, cid: str, pair: str) -> tuple[Any, str | None, list[int]]:
    champ = service.get(cid).champ
    for partida in champ.rounds[-1] if champ.rounds else []:
        if pair in partida.pairs and partida.is_open:
            room = service.get(cid).tables.get(partida.id)
            seats = [i for i, s in enumerate(partida.seats) if s == pair]
            return partida, None if room is None else room[0], seats
    return None, None, []


@router.get("/api/championships/{cid}/pair", responses=ERRORS)
async def my_pair(cid: Id, service: Service, token: Annotated[str, Depends(seat_token)]) -> dict[str, Any]:
    """The pair of the token, its running partida, its table and its two seats."""
    pair = service.pair_of(cid, token)
    partida, room, seats = _pair_place(service, cid, pair)
    return {
        "pair": service.get(cid).champ.pair(pair).to_dict(),
        "partida": None if partida is None else partida.to_dict(seed=False),
        "room": room,
        "seats": seats,
    }


@router.post("/api/championships/{cid}/sit", responses=ERRORS, dependencies=[Depends(limit_room_creation)])
async def sit(
    cid: Id, body: SitBody, request: Request, service: Service, token: Annotated[str, Depends(seat_token)]
) -> dict[str, Any]:
    """A player of the pair sits at the partida's table (as ``POST /api/tables/{room}/join`` answers); in
    a rated championship with the player's profile (checked, as a rated table's join checks it)."""
    pair = service.pair_of(cid, token)
    partida, room, seats = _pair_place(service, cid, pair)
    if partida is None or room is None:
        raise ChampionshipProblem("no_partida", "your pair has no table to sit at now")
    name = service.get(cid).champ.pair(pair).players[body.player]
    rated = service.get(cid).champ.settings.rated
    profile = profile_id(service.store, body.profile, request) if rated else None
    seat = service.authority.sit_reserved(room, seats[body.player], name, profile)
    return {"room": seat.room, "seat": seat.seat, "token": seat.token, "code": seat.code}


@router.get("/api/championships/{cid}/board", responses=ERRORS)
async def board(cid: Id, service: Service, token: Token) -> dict[str, Any]:
    """The judge's board: every partida of the round with its table's state and alerts."""
    _need(service, cid, token, "judge", "organiser")
    loaded = service.get(cid)
    champ = loaded.champ
    tables = []
    for partida in champ.rounds[-1] if champ.rounds else []:
        if partida.pairs[1] is None:
            continue
        alerts = sorted(loaded.alerts.get(partida.id, set()))
        line: dict[str, Any] = {
            "partida": partida.id,
            "room": None,
            "status": partida.status,
            "scores": None,
            "tantos_perros": None,
            "chicas": None,
            "clock": champ.settings.clock,
            "paused": partida.paused,
            "alerts": alerts,
        }
        scores: list[int] | None = None
        if partida.id in loaded.tables:
            room = service.authority.table(loaded.tables[partida.id][0])
            line["room"] = room.id
            scores, line["chicas"] = _scores(room)
            if any(s.kind == "person" and (s.stand_in or s.away_until is not None) for s in room.seats):
                alerts.append("away")
            if room.clock_ran_out is not None:
                alerts.append("clock")
        elif partida.id in loaded.sheets:
            sheet = loaded.sheets[partida.id]
            scores, line["chicas"] = list(sheet.scores), list(sheet.chicas)
        if scores is not None:
            line["scores"] = scores
            line["tantos_perros"] = [HallSheet.tantos_perros(s)._asdict() for s in scores]
        tables.append(line)
    return {"tables": tables, "decisions": [d.to_dict() for d in champ.decisions]}


@router.post("/api/championships/{cid}/partidas/{partida}/walkover", responses=ERRORS)
async def walkover(
    cid: Id, partida: Id, body: WalkoverBody, service: Service, token: Token
) -> dict[str, Any]:
    _need(service, cid, token, "judge")
    await service.apply_async(cid, Walkover(partida, body.winner, body.reason, "judge"))
    return {"decision": len(service.get(cid).champ.decisions) - 1}


@router.post("/api/championships/{cid}/partidas/{partida}/decisions", responses=ERRORS)
async def decide(cid: Id, partida: Id, body: DecisionBody, service: Service, token: Token) -> dict[str, Any]:
    """The judge's decision: pause and resume act on the table; a restart gives it a fresh table."""
    _need(service, cid, token, "judge")
    await service.apply_async(cid, Decide(partida, body.decision, body.reason, "judge"))
    out: dict[str, Any] = {"decision": len(service.get(cid).champ.decisions) - 1}
    if body.decision == "restart" and service.get(cid).champ.settings.venue == "online":
        out["room"] = service.restart(cid, partida)  # None: it opens on the next load
    return out


@router.post("/api/championships/{cid}/decisions/{index}/review", responses=ERRORS)
async def review(
    cid: Id,
    index: Annotated[int, PathParameter(ge=0, le=100_000)],
    body: ReviewBody,
    service: Service,
    token: Token,
) -> dict[str, Any]:
    """The committee (the organiser) confirms or reverses a decision."""
    _need(service, cid, token, "organiser")
    await service.apply_async(cid, Review(index, body.reverse, body.reason, "committee"))
    return {"decision": service.get(cid).champ.decisions[index].to_dict()}


@router.get("/api/championships/{cid}/partidas/{partida}/hall", responses=ERRORS)
async def hall(cid: Id, partida: Id, service: Service, token: Token) -> dict[str, Any]:
    _need(service, cid, token, "judge")
    return service.sheet(cid, partida).snapshot()


@router.post("/api/championships/{cid}/partidas/{partida}/hall", responses=ERRORS)
async def hall_entry(cid: Id, partida: Id, body: EntryBody, service: Service, token: Token) -> dict[str, Any]:
    _need(service, cid, token, "judge")
    return (await service.tap(cid, partida, body.entry)).snapshot()


@router.post("/api/championships/{cid}/partidas/{partida}/hall/undo", responses=ERRORS)
async def hall_undo(cid: Id, partida: Id, service: Service, token: Token) -> dict[str, Any]:
    _need(service, cid, token, "judge")
    return service.undo(cid, partida).snapshot()


@router.get(
    "/api/championships/{cid}/partidas/{partida}/replay", responses=ERRORS, response_model=dict[str, Any]
)
async def partida_replay(cid: Id, partida: Id, service: Service) -> Response:
    """A finished online partida step by step, as ``GET /api/games/{room}/replay`` answers (its ``room``
    null), with ``championship``, ``partida`` and ``names``: public once nothing of it can still be played
    (docs/championships.md "Replays"); 404 ``no_record`` for a hall partida or a walkover, 409
    ``partida_in_play`` or ``twins_in_play`` until then. The record is read and replayed in a thread."""
    loaded = service.get(cid)
    try:
        room = partida_room(loaded.champ, loaded.tables, partida)
        found = await asyncio.to_thread(partida_replay_answer, service.store, cid, partida, room)
    except Refused as exc:
        raise Refusal(exc.status, exc.detail, exc.code) from None
    return _json(json.dumps(found, ensure_ascii=False, separators=(",", ":")))


async def _rows(service: Championships, cid: str) -> list[dict[str, Any]]:
    public, _ = await service.public_async(cid)
    players = {p["id"]: list(p["players"]) for p in public["pairs"]}
    return [
        {
            "rank": s["rank"],
            "pair": s["pair"],
            "name": s["name"],
            "players": players[s["pair"]],
            "won": s["won"],
            "lost": s["lost"],
            "byes": s["byes"],
            "chicas": s["chicas_for"] - s["chicas_against"],
            "points": s["points_for"] - s["points_against"],
            "buchholz": s["buchholz"],
            "withdrawn": s["withdrawn"],
        }
        for s in public["standings"]
    ]


@router.get("/api/championships/{cid}/standings.json", responses=ERRORS, response_model=list[dict[str, Any]])
async def standings_json(cid: Id, service: Service) -> Response:
    """The standings (chicas and points: the differences for − against)."""
    return _json(json.dumps(await _rows(service, cid), ensure_ascii=False, separators=(",", ":")))


def _cell(value: object) -> object:
    """A CSV cell a spreadsheet will not run: a name that starts like a formula gets a leading quote."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


CSV_ANSWER: dict[int | str, dict[str, Any]] = {
    200: {"description": "The standings as CSV, a row per pair", "content": {"text/csv": {}}}
}


@router.get(
    "/api/championships/{cid}/standings.csv", responses={**ERRORS, **CSV_ANSWER}, response_class=Response
)
async def standings_csv(cid: Id, service: Service) -> Response:
    out = io.StringIO()
    writer = csv.writer(out)
    fields = ["rank", "pair", "players", "won", "lost", "byes", "chicas", "points", "buchholz"]
    writer.writerow(fields)
    for row in await _rows(service, cid):
        writer.writerow(
            [
                _cell(
                    row["name"] if f == "pair" else " / ".join(row["players"]) if f == "players" else row[f]
                )
                for f in fields
            ]
        )
    return Response(out.getvalue(), media_type="text/csv; charset=utf-8")


__all__ = ["router"]
