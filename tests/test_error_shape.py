"""One error shape (issue 25, docs/protocol.md "HTTP"): every HTTP refusal of the whole API — rooms,
tables, profiles, championships, records, the texts, a route that does not exist, the server's own guards —
answers ``{"detail", "code"}`` with the documented status: an invalid request is 400 ``bad_input`` with a
sentence naming the field (never FastAPI's 422 list), and the schema says so (no 422, every error answer an
``ErrorAnswer`` whose ``code`` is required)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cuarenta.server.edge.app import OPENAPI_URL, create_app
from cuarenta.server.edge.ratelimits import Limits


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Any:
    limits = Limits(rooms_per_minute=0, http_per_minute=0)  # no limit per address (one is tested below)
    with TestClient(
        create_app(tmp_path_factory.mktemp("shape"), bot_delay=0, workers=0, limits=limits)
    ) as client:
        yield client


def shape(answer: Any, status: int, code: str | None = None) -> dict[str, Any]:
    """The answer is ``status`` with ``{"detail": str, "code": str, ["params": dict]}``."""
    assert answer.status_code == status, (answer.status_code, answer.text)
    body: dict[str, Any] = answer.json()
    assert set(body) <= {"detail", "code", "params"}, body
    assert isinstance(body["detail"], str) and body["detail"], body
    assert isinstance(body.get("code"), str) and body["code"], body
    if code is not None:
        assert body["code"] == code, body
    return body


def test_invalid_requests_are_400_bad_input_naming_the_field(api: TestClient) -> None:
    cases = [
        (api.post("/api/tables", json={"name": "Ana", "players": 3}), "players"),
        (api.post("/api/tables", json={}), "name"),
        (api.post("/api/profiles", json={"name": 7}), "name"),
        (api.get("/api/leaderboard?limit=0"), "limit"),
        (api.post("/api/history", json={"tokens": "abc"}), "tokens"),
        (api.post("/api/qr", json={"text": "x" * 2000}), "text"),
        (api.post("/api/championships", json={"name": "Copa", "format": "liga"}), "format"),
        (api.post("/api/championships", json={"name": "Copa", "extra": 1}), "extra"),
    ]
    for answer, field in cases:
        body = shape(answer, 400, "bad_input")
        assert field in body["detail"], body


def test_rules_the_engine_refuses_are_400_bad_rules(api: TestClient) -> None:
    shape(api.post("/api/tables", json={"name": "Ana", "rules": {"preset": "nope"}}), 400, "bad_rules")
    shape(
        api.post("/api/championships", json={"name": "Copa", "rules": {"preset": "nope"}}), 400, "bad_rules"
    )


def test_every_other_refusal_has_its_code(api: TestClient) -> None:
    made = api.post("/api/rooms", json={}).json()
    shape(api.get(f"/api/rooms/{made['room']}"), 401, "no_token")
    shape(api.get(f"/api/rooms/{made['room']}", headers={"Authorization": "Bearer wrong"}), 403, "bad_token")
    shape(api.get("/api/rooms/nope", headers={"Authorization": "Bearer wrong"}), 404, "unknown_room")
    shape(api.get(f"/api/rooms/{made['room']}?token=x"), 400, "token_in_address")
    shape(api.get("/api/nothing-here"), 404, "not_found")
    shape(api.get("/api/history"), 405, "method_not_allowed")
    shape(api.get("/api/texts/fr"), 404, "not_found")
    shape(api.get("/api/profiles/nobody"), 404, "unknown_profile")
    shape(api.post("/api/tables/nope/join", json={"invite": "x", "name": "Ana"}), 404, "unknown_room")
    record = f"/api/games/{made['room']}/record"
    shape(api.get(record, headers={"Authorization": f"Bearer {made['token']}"}), 409, "mesa_in_play")
    big = api.post(
        "/api/stats", content=b"{" + b" " * 70_000 + b"}", headers={"content-type": "application/json"}
    )
    shape(big, 413, "too_large")
    shape(api.get("/api/championships/nope"), 404, "unknown_championship")


def test_a_rate_limit_has_its_code(tmp_path: Path) -> None:
    limits = Limits(rooms_per_minute=1, rooms_burst=1)  # the second new room from one address: 429
    with TestClient(create_app(tmp_path, bot_delay=0, workers=0, limits=limits)) as client:
        assert client.post("/api/rooms", json={}).status_code == 200
        shape(client.post("/api/rooms", json={}), 429, "rate_limited")


def test_the_schema_lists_no_422_and_every_error_answer_has_a_code(api: TestClient) -> None:
    schema = api.get(OPENAPI_URL).json()
    components = schema["components"]["schemas"]
    assert "HTTPValidationError" not in components and "ValidationError" not in components
    for name in ("ErrorAnswer", "_Error"):
        assert set(components[name]["required"]) >= {"detail", "code"}, name
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            answers = operation["responses"]
            assert "422" not in answers, (method, path)
            takes_input = bool(operation.get("parameters") or operation.get("requestBody"))
            if takes_input and not path.startswith("/api/texts/"):
                assert "400" in answers, (method, path)
            for status, answer in answers.items():
                if int(status) >= 400:
                    ref = answer["content"]["application/json"]["schema"]["$ref"]
                    assert ref.rsplit("/", 1)[1] in ("ErrorAnswer", "_Error"), (method, path, status)


def test_the_device_host_answers_the_same_shape(tmp_path: Path) -> None:
    import json

    from cuarenta.device.host import DeviceHost

    host = DeviceHost()
    for method, path, body, status, code in (
        ("POST", "api/rooms", json.dumps({"players": 3}), 400, "bad_input"),
        ("GET", "api/nothing", None, 404, "not_found"),
        ("GET", "api/rooms/nope", None, 401, "no_token"),
    ):
        answer = json.loads(host.http(method, path, body))
        assert answer["status"] == status, answer
        assert answer["body"]["code"] == code and isinstance(answer["body"]["detail"], str), answer
