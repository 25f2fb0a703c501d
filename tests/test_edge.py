"""The HTTP/WebSocket edge's own parts (src/cuarenta/server/edge): the one mapping of refusals to answers,
the bearer secrets, and the old module paths that still import (the socket's table of messages:
tests/test_protocol_reader.py)."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from cuarenta.championship.errors import ActionError, StateError
from cuarenta.server import create_app
from cuarenta.server.authority.errors import RoomProblem
from cuarenta.server.authority.errors import TableError as TableProblem
from cuarenta.server.championships import ChampionshipProblem, _refusal
from cuarenta.server.edge import deps
from cuarenta.server.edge.ratelimits import Limits
from cuarenta.server.edge.statuses import KIND_STATUS, PROBLEM_STATUS, STATUS, http_status
from cuarenta.server.protocol import ProtocolError
from cuarenta.server.store.profiles import ProfileProblem

#: the ``client`` fixture's app (tests/conftest.py): the default rate limits, no worker process
pytestmark = pytest.mark.app(workers=0, limits=Limits())


@pytest.mark.parametrize("code", sorted(PROBLEM_STATUS))
def test_a_room_refusal_has_the_status_of_its_code(code: str) -> None:
    assert deps.problem_status(RoomProblem(code, "why")) == PROBLEM_STATUS[code]
    answer = deps.problem_http(RoomProblem(code, "why"))
    assert (answer.status_code, answer.detail) == (PROBLEM_STATUS[code], "why")


def test_table_and_profile_refusals_have_their_statuses() -> None:
    assert deps.problem_status(TableProblem("already_started", "the table has started")) == 409
    assert deps.problem_status(ProfileProblem("unknown_profile", "no")) == 404
    assert deps.problem_status(ProfileProblem("bad_key", "no")) == 403
    assert deps.problem_status(RoomProblem("something_new", "no")) == 500


def test_a_profile_refusal_of_a_code_nobody_mapped_is_bad_input() -> None:
    assert deps.problem_status(ProfileProblem("something_new", "no")) == 400


def test_championship_refusals_take_their_status_from_the_one_mapping() -> None:
    """A championship's refusal carries no status: a service code's is :data:`STATUS`'s, and a code of the
    library or the hall sheet has a kind whose status is :data:`KIND_STATUS`'s."""
    assert (
        deps.problem_status(ChampionshipProblem("championship_full", "full")) == STATUS["championship_full"]
    )
    assert deps.problem_status(ChampionshipProblem("bad_championship_token", "no")) == 403
    for kind, status in {"bad_input": 400, "not_found": 404, "wrong_state": 409}.items():
        problem = ChampionshipProblem("some_library_code", "no", kind)  # type: ignore[arg-type]
        assert deps.problem_status(problem) == KIND_STATUS[kind] == status
    assert deps.problem_status(ChampionshipProblem("some_library_code", "no")) == 500


def test_the_championship_librarys_errors_get_their_kinds() -> None:
    assert _refusal(ActionError("no", code="some_action")).kind == "bad_input"
    assert _refusal(StateError("no", code="pair_unknown")).kind == "not_found"
    assert _refusal(StateError("no", code="already_running")).kind == "wrong_state"
    assert http_status(_refusal(StateError("no", code="already_running"))) == 409


def test_socket_errors_are_frames_and_other_errors_are_not_swallowed() -> None:
    code, frame = deps.socket_error(ProtocolError("illegal_move", "no", {"code": "x", "params": {}}))
    assert code == "illegal_move" and frame["reason"] == {"code": "x", "params": {}}
    with pytest.raises(KeyError):
        deps.socket_error(KeyError("a bug, not a refusal"))


def test_a_refusal_from_the_rooms_is_answered_with_its_status(client: TestClient) -> None:
    """The routes let the domain's refusals through: the app's one handler answers them."""
    made = client.post("/api/rooms", json={}).json()
    answer = client.get(f"/api/rooms/{made['room']}", headers={"Authorization": "Bearer wrong"})
    assert answer.status_code == 403 and answer.json()["detail"]
    assert client.get("/api/tables/nope").status_code == 404
    missing = client.get("/api/profiles/nobody")
    assert missing.status_code == 404 and missing.json() == {
        "detail": "there is no profile 'nobody'",
        "code": "unknown_profile",
    }


@pytest.mark.parametrize(
    ("method", "path", "what", "word"),
    [
        ("GET", "/api/rooms/AbC", "seat's token", "token"),
        ("PATCH", "/api/profiles/AbC", "profile's key", "key"),
    ],
)
def test_the_bearer_secrets(client: TestClient, method: str, path: str, what: str, word: str) -> None:
    body = {"name": "Ana"} if method == "PATCH" else None
    missing = client.request(method, path, json=body)
    assert missing.status_code == 401 and missing.headers["www-authenticate"] == "Bearer"
    assert missing.json() == {
        "detail": f"send the {what} in the header Authorization: Bearer <{word}>",
        "code": "no_token",
    }
    long = client.request(method, path, json=body, headers={"Authorization": "Bearer " + "x" * 201})
    assert long.status_code == 403
    assert long.json() == {
        "detail": f"that is not a {what} (longer than 200 characters)",
        "code": "bad_token",
    }


def test_a_room_whose_rules_cannot_be_read_is_left_out_of_the_history(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The history answers with what it can read and logs what it left out (never a 500)."""
    from cuarenta.server.store import DB_NAME

    with TestClient(create_app(tmp_path, bot_delay=0, workers=0)) as client:
        kept = client.post("/api/rooms", json={}).json()
        broken = client.post("/api/rooms", json={}).json()
        with sqlite3.connect(tmp_path / DB_NAME) as db:
            db.execute("UPDATE rooms SET rules = '{not json' WHERE id = ?", (broken["room"],))
        with caplog.at_level(logging.ERROR, logger="cuarenta.server"):
            answer = client.post("/api/history", json={"tokens": [kept["token"], broken["token"]]})
    assert answer.status_code == 200
    assert [game["room"] for game in answer.json()["playing"]] == [kept["room"]]
    assert f"room {broken['room']} has corrupt rules; left out of the history" in caplog.text
