"""Schemathesis against the app's own OpenAPI schema (``/api/openapi.json``): the HTTP API never answers
500, and every answer has a documented status, content type, headers and body shape.

Every operation is fuzzed with valid data (positive) and, where it takes input, with invalid data
(negative). Two cases in three on the operations that take a seat's token are pointed at real rooms
(one with a finished mesa, one in play), with their real token in the positive cases, so that the
successful answers are checked against the schema too, not only the errors. Bounded: about ten seconds.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
import schemathesis
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import positive_data_acceptance

from cuarenta.server import create_app
from cuarenta.server.edge.app import OPENAPI_URL
from cuarenta.server.edge.ratelimits import Limits
from support.examples import examples

#: The championships' operations (docs/championships.md "Running a championship").
CHAMPIONSHIP_OPERATIONS = [
    ("POST", "/api/championships"),
    ("GET", "/api/championships/{cid}"),
    ("POST", "/api/championships/{cid}/pairs"),
    ("POST", "/api/championships/{cid}/pairs/{pair}/withdraw"),
    ("POST", "/api/championships/{cid}/pairs/{pair}/replace"),
    ("POST", "/api/championships/{cid}/pairs/{pair}/seed"),
    ("POST", "/api/championships/{cid}/start"),
    ("GET", "/api/championships/{cid}/pair"),
    ("POST", "/api/championships/{cid}/sit"),
    ("GET", "/api/championships/{cid}/board"),
    ("POST", "/api/championships/{cid}/partidas/{partida}/walkover"),
    ("POST", "/api/championships/{cid}/partidas/{partida}/decisions"),
    ("POST", "/api/championships/{cid}/decisions/{index}/review"),
    ("GET", "/api/championships/{cid}/partidas/{partida}/hall"),
    ("POST", "/api/championships/{cid}/partidas/{partida}/hall"),
    ("POST", "/api/championships/{cid}/partidas/{partida}/hall/undo"),
    ("GET", "/api/championships/{cid}/partidas/{partida}/replay"),
    ("GET", "/api/championships/{cid}/standings.json"),
    ("GET", "/api/championships/{cid}/standings.csv"),
]
#: Every operation of the API (the test checks the schema has exactly these).
OPERATIONS = [
    ("GET", "/api/health"),
    ("GET", "/api/options"),
    ("GET", "/api/texts/{lang}"),
    ("POST", "/api/rooms"),
    ("GET", "/api/rooms/{room_id}"),
    ("POST", "/api/history"),
    ("GET", "/api/games/{room_id}/record"),
    ("GET", "/api/games/{room_id}/replay"),
    ("GET", "/api/games/{room_id}/analysis"),
    ("POST", "/api/replay"),
    ("GET", "/api/puzzles"),
    ("POST", "/api/puzzles/{puzzle_id}/answer"),
    ("POST", "/api/daily"),
    ("GET", "/api/daily"),
    ("GET", "/api/daily/offline"),
    ("POST", "/api/daily/offline"),
    ("POST", "/api/puzzles/{puzzle_id}/report"),
    ("GET", "/api/stats"),
    ("POST", "/api/stats"),
    ("POST", "/api/tables"),
    ("GET", "/api/tables/{room_id}"),
    ("POST", "/api/tables/{room_id}/join"),
    ("POST", "/api/tables/{room_id}/seats/{seat}"),
    ("POST", "/api/tables/{room_id}/start"),
    ("POST", "/api/tables/{room_id}/leave"),
    ("POST", "/api/tables/{room_id}/reclaim"),
    ("POST", "/api/tables/{room_id}/code"),
    ("POST", "/api/tables/{room_id}/seats/{seat}/handover"),
    ("GET", "/api/lobby"),
    ("POST", "/api/qr"),
    ("POST", "/api/profiles"),
    ("GET", "/api/profiles/{profile_id}"),
    ("PATCH", "/api/profiles/{profile_id}"),
    ("GET", "/api/leaderboard"),
    *CHAMPIONSHIP_OPERATIONS,
]
#: The operations with input a negative case can break (the others take none, or a free string).
WITH_INPUT = [
    ("POST", "/api/rooms"),
    ("GET", "/api/rooms/{room_id}"),
    ("POST", "/api/history"),
    ("GET", "/api/games/{room_id}/record"),
    ("GET", "/api/games/{room_id}/replay"),
    ("GET", "/api/games/{room_id}/analysis"),
    ("POST", "/api/replay"),
    ("GET", "/api/puzzles"),
    ("POST", "/api/puzzles/{puzzle_id}/answer"),
    ("POST", "/api/daily"),
    ("GET", "/api/daily"),
    ("POST", "/api/daily/offline"),
    ("POST", "/api/puzzles/{puzzle_id}/report"),
    ("POST", "/api/stats"),
    ("POST", "/api/tables"),
    ("GET", "/api/tables/{room_id}"),
    ("POST", "/api/tables/{room_id}/join"),
    ("POST", "/api/tables/{room_id}/seats/{seat}"),
    ("POST", "/api/tables/{room_id}/start"),
    ("POST", "/api/tables/{room_id}/leave"),
    ("POST", "/api/qr"),
    ("POST", "/api/profiles"),
    ("GET", "/api/profiles/{profile_id}"),
    ("PATCH", "/api/profiles/{profile_id}"),
    ("GET", "/api/leaderboard"),
    *CHAMPIONSHIP_OPERATIONS,  # each takes a championship id at least
]
SEAT_TOKEN = {
    "/api/rooms/{room_id}",
    "/api/games/{room_id}/record",
    "/api/games/{room_id}/replay",
    "/api/games/{room_id}/analysis",
    "/api/tables/{room_id}",
    "/api/tables/{room_id}/seats/{seat}",
    "/api/tables/{room_id}/start",
    "/api/tables/{room_id}/leave",
    "/api/tables/{room_id}/code",
    "/api/tables/{room_id}/seats/{seat}/handover",
}
#: Operations whose valid-looking requests the state of a table may rightly refuse (a wrong invite, a
#: seat that is not open, a table that has started, rules the engine refuses, a seat the mesa does not
#: have): the schema cannot say so.
STATEFUL = {
    "/api/rooms",
    "/api/tables",
    "/api/games/{room_id}/analysis",  # seats 0 to 3 in the schema; a 1 vs 1 mesa has two (bad_seat, 400)
    "/api/replay",  # any text of the schema's length: a record that replays is what it must be (bad_record)
    "/api/daily",  # a day in the schema's form may have no deal (before the first, after today: 404)
    "/api/daily/offline",  # any text of the schema's length: only a finished offline deal's record is kept
    # a reason is read up to 800 characters, then its spaces made one and refused above 200 or with control
    # characters (bad_report, 400)
    "/api/puzzles/{puzzle_id}/report",
    *(path for _, path in OPERATIONS if path.startswith(("/api/tables/", "/api/championships"))),
}
#: The token each championship operation's positive cases carry (docs/championships.md, "Running a
#: championship").
CHAMP_ROLE = {
    "/api/championships/{cid}/pairs/{pair}/withdraw": "organiser",
    "/api/championships/{cid}/pairs/{pair}/replace": "organiser",
    "/api/championships/{cid}/pairs/{pair}/seed": "organiser",
    "/api/championships/{cid}/start": "organiser",
    "/api/championships/{cid}/decisions/{index}/review": "organiser",
    "/api/championships/{cid}/pair": "pair",
    "/api/championships/{cid}/sit": "pair",
}
PROFILE = "/api/profiles/{profile_id}"


@dataclass
class Api:
    app: FastAPI
    schema: Any
    rooms: list[tuple[str, str]]  #: (room, token): a finished mesa's room, one in play, a waiting table
    profile: tuple[str, str] = ("", "")  #: (id, key) of a real profile
    #: real championships, each with its tokens by role: one registering, one at the hall in play
    champs: list[dict[str, str]] = field(default_factory=list)


def play_to_the_end(client: TestClient, room: str, token: str) -> None:
    """Play the person's first legal move until the mesa is over (basico, against facil, no delay)."""
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"v": 1, "type": "join", "room": room, "token": token})
        state = ws.receive_json()
        while state["status"] == "playing":
            if state["legal"]:
                ws.send_json({"v": 1, "type": "move", "move": state["legal"][0], "state": state["state"]})
            state = ws.receive_json()
            assert state["type"] == "state", state


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    app = create_app(
        tmp_path_factory.mktemp("fuzz-http") / "data",
        bot_delay=0,
        workers=0,
        limits=Limits(ws_rate=1e6, ws_burst=10**6, rooms_per_minute=0, http_per_minute=0),  # fuzzing: fast
    )
    with TestClient(app) as client:
        finished = client.post("/api/rooms", json={"rules": {"preset": "basico"}, "level": "facil"}).json()
        play_to_the_end(client, finished["room"], finished["token"])
        playing = client.post("/api/rooms", json={}).json()
        table = client.post("/api/tables", json={"name": "Ana", "players": 4}).json()
        rooms = [
            (finished["room"], finished["token"]),
            (playing["room"], playing["token"]),
            (table["room"], table["token"]),
        ]
        made = client.post("/api/profiles", json={"name": "Ana"}).json()
        champs = [championship(client, venue) for venue in ("online", "hall")]
        schema = schemathesis.openapi.from_asgi(OPENAPI_URL, app)
        # a body over the server's 64 KB is refused before it is read (413 too_large: docs/protocol.md), as
        # rightly as a schema-violating one is: a negative case's over-long field may be refused either way
        rejection = schema.config.checks.negative_data_rejection
        rejection.expected_statuses = [*rejection.expected_statuses, "413"]
        yield Api(app, schema, rooms, (made["id"], made["key"]), champs)


def championship(client: TestClient, venue: str) -> dict[str, str]:
    """A real championship of two pairs (of people, who never sit: its partidas wait): registering when
    online, started when at the hall (its partida r1t1 in play); its tokens by role."""
    made = client.post("/api/championships", json={"name": "Copa", "venue": venue, "rounds": 1}).json()
    cid = made["championship"]
    tokens = {"cid": cid, "organiser": made["organiser"], "judge": made["judge"]}
    for i in range(2):
        pair = client.post(
            f"/api/championships/{cid}/pairs",
            json={"name": f"Pareja {i}", "players": ["A", "B"], "code": made["register"]},
        )
        tokens["pair"] = pair.json()["token"]
    if venue == "hall":
        started = client.post(
            f"/api/championships/{cid}/start", headers={"Authorization": f"Bearer {made['organiser']}"}
        )
        assert started.status_code == 200, started.text
    return tokens


def test_the_schema_has_every_operation(api: Api) -> None:
    found = {(method.upper(), path) for path, ops in api.schema.raw_schema["paths"].items() for method in ops}
    assert found == set(OPERATIONS)


CASES = [(m, p, GenerationMode.POSITIVE) for m, p in OPERATIONS] + [
    (m, p, GenerationMode.NEGATIVE) for m, p in WITH_INPUT
]


@pytest.mark.parametrize(("method", "path", "mode"), CASES, ids=[f"{m} {p} {g.value}" for m, p, g in CASES])
def test_the_api_answers_as_its_schema_says(api: Api, method: str, path: str, mode: GenerationMode) -> None:
    operation = api.schema[path][method]
    # The body of POST /api/rooms has rules the schema cannot state (its "rules" are checked by the
    # engine: a valid option value depends on the others; a seed needs "practice": true): a positive
    # case may rightly be refused with 400, so that one check is left out there.
    excluded = [positive_data_acceptance] if path in STATEFUL else []

    @given(
        case=operation.as_strategy(generation_mode=mode),
        real=st.sampled_from([None, *api.rooms]),
        champ=st.sampled_from([None, *api.champs]),
    )
    @settings(
        max_examples=examples(25),
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
    )
    def run(case: Any, real: tuple[str, str] | None, champ: dict[str, str] | None) -> None:
        if champ is not None and path.startswith("/api/championships/"):
            real_championship(case, path, mode, champ)
        if real is not None and path in SEAT_TOKEN:
            case.path_parameters["room_id"] = real[0]
            if mode is GenerationMode.POSITIVE:  # (a negative case keeps its broken header: 401/403)
                case.headers = {**(case.headers or {}), "Authorization": f"Bearer {real[1]}"}
        if real is not None and path == PROFILE:  # the real profile, with its key in the positive cases
            case.path_parameters["profile_id"] = api.profile[0]
            if mode is GenerationMode.POSITIVE and method == "PATCH":
                case.headers = {**(case.headers or {}), "Authorization": f"Bearer {api.profile[1]}"}
        if real is not None and path == "/api/texts/{lang}":  # a real language (the path is a free string)
            case.path_parameters["lang"] = "es" if real == api.rooms[0] else "en"
        if real is not None and path == "/api/history" and isinstance(case.body, dict):
            tokens = case.body.get("tokens")
            if isinstance(tokens, list) and len(tokens) < 100:
                case.body["tokens"] = [real[1], *tokens]
        response = case.call_and_validate(excluded_checks=excluded)
        assert response.status_code < 500, response.text
        if response.status_code >= 400:  # one error shape everywhere (docs/protocol.md): detail and code
            body = response.json()
            assert isinstance(body["detail"], str) and isinstance(body["code"], str), response.text
            assert response.status_code != 422, response.text  # an invalid request is 400 bad_input
        event(f"status {response.status_code}")  # --hypothesis-show-statistics lists them

    run()


def real_championship(case: Any, path: str, mode: GenerationMode, champ: dict[str, str]) -> None:
    """Point ``case`` at a real championship, its first pair and partida, with the role's real token in a
    positive case (a negative one keeps its broken header)."""
    case.path_parameters["cid"] = champ["cid"]
    if "{pair}" in path:
        case.path_parameters["pair"] = "p1"
    if "{partida}" in path:
        case.path_parameters["partida"] = "r1t1"
    if mode is GenerationMode.POSITIVE:
        token = champ[CHAMP_ROLE.get(path, "judge")]
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}
