"""The web server's defences (docs/web.md "Security"), in-process and against a real ``cuarenta serve``.

In-process (Starlette's TestClient): security headers, the page without inline code, gzip, tokens only
in headers and bodies, the body limit, the rate limits, the Origin check of ``/ws``, seeds only for
practice rooms and where the OpenAPI schema is served.

Against the real program (uvicorn, real sockets on loopback): frames above 64 KiB refused before they
are read (close 1009, memory flat), a socket flood closed with ``rate_limited``, a room-creation flood
answered 429, foreign origins refused at the handshake, and no token in the server's log.
"""

from __future__ import annotations

import base64
import contextlib
import gzip
import json
import os
import socket
import time
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from typer.testing import CliRunner
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from cuarenta.analysis.puzzles import shipped
from cuarenta.cli import app as cli_app
from cuarenta.cli.serve import uvicorn_options
from cuarenta.server import create_app
from cuarenta.server.edge.app import MAX_TOKENS, OPENAPI_URL, STATIC_DIR
from cuarenta.server.edge.ratelimits import AddressLimiter, Limits, TokenBucket, client_key
from cuarenta.server.edge.security import (
    MAX_BODY_BYTES,
    TOKEN_IN_ADDRESS,
    WS_MAX_FRAME_BYTES,
    Origins,
    content_security_policy,
    normal_origin,
)
from cuarenta.server.ops.logs import RedactTokens, redact
from cuarenta.server.protocol import ERROR_CODES, MAX_MESSAGE_CHARS
from cuarenta.server.store.puzzles import reports
from support.served import Served, serve_process

PING = {"v": 1, "type": "ping"}


@contextlib.contextmanager
def running(data_dir: Path, **options: Any) -> Iterator[TestClient]:
    with TestClient(create_app(data_dir, bot_delay=0, workers=0, **options)) as client:
        yield client


#: the ``client`` fixture's app (tests/conftest.py) is this module's ``running`` one
pytestmark = pytest.mark.app(workers=0, limits=Limits())


def new_room(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/rooms", json=body)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def csp_directives(value: str) -> dict[str, list[str]]:
    out = {}
    for part in value.split(";"):
        words = part.split()
        if words:
            out[words[0]] = words[1:]
    return out


# -- headers and the page ------------------------------------------------------------------------------------
def check_security_headers(headers: httpx.Headers, host: str) -> None:
    csp = csp_directives(headers["content-security-policy"])
    assert csp["default-src"] == ["'self'"]
    # no 'unsafe-inline', no 'unsafe-eval', no other host; WebAssembly (Pyodide, in a worker) may compile
    assert csp["script-src"] == ["'self'", "'wasm-unsafe-eval'"]
    assert csp["worker-src"] == ["'self'"]
    assert csp["style-src"] == ["'self'"]
    assert csp["object-src"] == ["'none'"]
    assert csp["base-uri"] == ["'none'"]
    assert csp["frame-ancestors"] == ["'none'"]
    assert csp["connect-src"] == ["'self'", f"ws://{host}", f"wss://{host}"]
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"
    assert headers["x-frame-options"] == "DENY"


def test_every_http_answer_carries_the_security_headers(client: TestClient) -> None:
    made = new_room(client)
    answers = [
        client.get("/"),
        client.get("/app.js"),
        client.get("/styles.css"),
        client.get("/api/health"),
        client.get("/api/options"),
        client.get("/api/stats"),
        client.get("/no-such-file.js"),  # 404 from the static files
        client.get(f"/api/rooms/{made['room']}"),  # 401
        client.get(f"/api/rooms/{made['room']}", params={"token": made["token"]}),  # 400
        client.post("/api/rooms", json={"players": 3}),  # 400
        client.get(OPENAPI_URL),
    ]
    assert [a.status_code for a in answers] == [200, 200, 200, 200, 200, 200, 404, 401, 400, 400, 200]
    for answer in answers:
        check_security_headers(answer.headers, "testserver")
    # the API's answers are never cached (POST /api/rooms carries a token); the page's files may be
    assert client.post("/api/rooms", json={}).headers["cache-control"] == "no-store"
    assert client.get("/api/health").headers["cache-control"] == "no-store"
    assert "no-store" not in client.get("/app.js").headers.get("cache-control", "")


def test_the_policy_never_echoes_a_host_header_that_is_not_a_host() -> None:
    assert "evil" not in content_security_policy("x; script-src https://evil.example")
    assert "connect-src 'self'; " in content_security_policy("bad host")
    assert "ws://[::1]:8000 wss://[::1]:8000" in content_security_policy("[::1]:8000")
    assert "ws://" not in content_security_policy(None)


class _InlineFinder(HTMLParser):
    """Everything in a page that a CSP without 'unsafe-inline' would block."""

    def __init__(self) -> None:
        super().__init__()
        self.problems: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        if tag == "script":
            self._in_script = True
            if "src" not in names:
                self.problems.append("an inline <script>")
        if tag == "style":
            self.problems.append("a <style> element")
        for name, value in attrs:
            if name == "style":
                self.problems.append(f"a style attribute on <{tag}>")
            if name.startswith("on"):
                self.problems.append(f"an event handler attribute {name} on <{tag}>")
            if value and value.strip().lower().startswith("javascript:"):
                self.problems.append(f"a javascript: address in {name} of <{tag}>")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.problems.append("script text inside <script>")


def test_the_page_holds_no_inline_script_or_style() -> None:
    pages = sorted(STATIC_DIR.glob("*.html"))
    assert pages, "the page is missing"
    for page in pages:
        finder = _InlineFinder()
        finder.feed(page.read_text(encoding="utf-8"))
        assert not finder.problems, f"{page.name}: {finder.problems}"
    # the scripts build no inline style or handler either (the DOM's style property is allowed by CSP)
    for script in sorted(STATIC_DIR.glob("*.js")):
        text = script.read_text(encoding="utf-8")
        for forbidden in ('style="', "style='", 'setAttribute("style"', "eval(", "new Function("):
            assert forbidden not in text, f"{script.name} uses {forbidden}"


def test_the_finder_finds_inline_code() -> None:
    finder = _InlineFinder()
    finder.feed(
        '<script>alert(1)</script><p style="x" onclick="y"><a href="javascript:z">a</a><style></style>'
    )
    assert len(finder.problems) == 6


# -- compression ---------------------------------------------------------------------------------------------
def test_gzip_for_the_page_and_large_json_never_for_a_token(client: TestClient) -> None:
    asked = {"Accept-Encoding": "gzip"}
    for path in ("/", "/app.js", "/styles.css", "/api/options"):
        plain = client.get(path, headers={"Accept-Encoding": "identity"})
        packed = client.get(path, headers=asked)
        assert "content-encoding" not in plain.headers
        assert packed.headers["content-encoding"] == "gzip", path
        assert packed.headers["vary"] == "Accept-Encoding"
        assert packed.content == plain.content  # httpx decodes; the bytes on the wire were fewer
        # the bytes on the wire (a file above 64 KiB is sent in chunks, with no Content-Length)
        with client.stream("GET", path, headers=asked) as answer:
            wire = b"".join(answer.iter_raw())
        assert len(wire) < len(plain.content) / 2, path
    # small answers are sent as they are, and so is the one answer that carries a token
    assert "content-encoding" not in client.get("/api/health", headers=asked).headers
    made = client.post("/api/rooms", json={"name": "x" * 40}, headers=asked)
    assert made.status_code == 200 and "content-encoding" not in made.headers
    # the socket is not compressed
    with client.websocket_connect("/ws", headers=asked) as ws:
        ws.send_json(PING)
        assert ws.receive_json() == {"v": 1, "type": "pong"}


def test_gzip_bytes_are_real_gzip(client: TestClient) -> None:
    # read the raw bytes (no decoding) to make sure they are gzip of the file
    with client.stream("GET", "/app.js", headers={"Accept-Encoding": "gzip"}) as answer:
        raw = b"".join(answer.iter_raw())
    assert gzip.decompress(raw) == (STATIC_DIR / "app.js").read_bytes()


# -- tokens in headers and bodies, never in addresses --------------------------------------------------------
def test_tokens_in_an_address_are_refused_everywhere(client: TestClient) -> None:
    made = new_room(client)
    room, token = made["room"], made["token"]
    for path in (
        f"/api/rooms/{room}",
        f"/api/games/{room}/record",
        "/api/history",
        "/api/health",
        "/api/stats",
    ):
        for params in ({"token": token}, {"TOKEN": token}, {"tokens": token}, {"mesa": "1", "token": ""}):
            answer = client.get(path, params=params, headers=bearer(token))
            assert answer.status_code == 400, (path, params)
            assert answer.json() == {"detail": TOKEN_IN_ADDRESS, "code": "token_in_address"}
    answer = client.post("/api/history", params={"token": token}, json={"tokens": [token]})
    assert answer.status_code == 400
    # the old GET of the history says what to do instead
    answer = client.get("/api/history")
    assert answer.status_code == 405 and answer.headers["allow"] == "POST"
    assert "POST" in answer.json()["detail"]
    # the header works
    assert client.get(f"/api/rooms/{room}", headers=bearer(token)).json()["room"] == room


def test_the_authorization_header(client: TestClient) -> None:
    made = new_room(client)
    url = f"/api/rooms/{made['room']}"
    missing = client.get(url)
    assert missing.status_code == 401 and missing.headers["www-authenticate"] == "Bearer"
    assert "Authorization: Bearer" in missing.json()["detail"]
    assert client.get(url, headers={"Authorization": f"Basic {made['token']}"}).status_code == 401
    assert client.get(url, headers={"Authorization": "Bearer"}).status_code == 401
    assert client.get(url, headers=bearer("x" * 201)).status_code == 403
    assert client.get(url, headers=bearer("not-the-token")).status_code == 403
    assert client.get("/api/rooms/" + "r" * 101, headers=bearer(made["token"])).status_code == 400
    assert client.get(url, headers=bearer(made["token"])).status_code == 200


@pytest.mark.parametrize("path", ["/api/history", "/api/stats"])
def test_history_and_stats_take_the_tokens_in_their_body(client: TestClient, path: str) -> None:
    made = new_room(client)
    history = client.post("/api/history", json={"tokens": [made["token"]]}).json()
    assert history["games"] == [] and [p["room"] for p in history["playing"]] == [made["room"]]
    assert client.post("/api/history", json={"tokens": []}).json() == {"games": [], "playing": []}
    assert client.post("/api/stats", json={"tokens": [made["token"]]}).json()["all"]["played"] == 0
    too_many = client.post(path, json={"tokens": ["t"] * (MAX_TOKENS + 1)})
    assert too_many.status_code == 400 and "tokens" in too_many.json()["detail"]
    for bad in ({"tokens": "abc"}, {"tokens": [1]}, {"tokens": [""]}, {}, {"tokens": [], "x": 1}, [1]):
        answer = client.post(path, json=bad)
        assert answer.status_code == 400 and isinstance(answer.json()["detail"], str), bad
    assert (
        client.post(path, params={"token": made["token"]}, json={"tokens": [made["token"]]}).status_code
        == 400
    )


def test_tokens_are_stored_hashed(client: TestClient, tmp_path: Path) -> None:
    made = new_room(client)
    database = b"".join(p.read_bytes() for p in (tmp_path / "data").iterdir() if p.is_file())
    assert made["token"].encode() not in database


# -- request bodies ------------------------------------------------------------------------------------------
def test_a_body_above_the_limit_is_refused_before_it_is_read(client: TestClient) -> None:
    rooms = client.app.state.rooms  # type: ignore[attr-defined]
    big = json.dumps({"name": "x", "pad": "y" * MAX_BODY_BYTES}).encode()
    answer = client.post("/api/rooms", content=big, headers={"content-type": "application/json"})
    assert answer.status_code == 413 and str(MAX_BODY_BYTES) in answer.json()["detail"]

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
        yield b'{"tokens": ["'
        for _ in range(MAX_BODY_BYTES // 1000 + 2):
            yield b"t" * 1000
        yield b'"]}'

    answer = client.post("/api/history", content=chunks(), headers={"content-type": "application/json"})
    assert answer.status_code == 413
    assert rooms._rooms == {}


# -- rate limits ---------------------------------------------------------------------------------------------
def test_token_bucket_and_address_limiter() -> None:
    now = [0.0]
    bucket = TokenBucket(rate=20.0, burst=40, clock=lambda: now[0])
    assert sum(bucket.take() for _ in range(100)) == 40
    now[0] += 0.5  # ten more
    assert sum(bucket.take() for _ in range(100)) == 10
    now[0] += 100
    assert bucket.full() and sum(bucket.take() for _ in range(100)) == 40

    limiter = AddressLimiter(per_minute=30, burst=30, clock=lambda: now[0], max_keys=3)
    assert sum(limiter.allow("192.0.2.1") for _ in range(20_000)) == 30
    assert limiter.retry_after("192.0.2.1") == 2
    # one IPv6 /64 is one client; another /64 is another
    assert sum(limiter.allow(f"2001:db8::{i:x}") for i in range(100)) == 30
    assert limiter.allow("2001:db8:0:1::1")
    # memory stays bounded: the least recently seen addresses are forgotten
    for i in range(10):
        limiter.allow(f"198.51.100.{i}")
    assert len(limiter._buckets) == 3
    assert client_key("::ffff:192.0.2.9") == "192.0.2.9"
    assert AddressLimiter(per_minute=0, burst=1).allow("x")  # 0: no limit
    with pytest.raises(ValueError, match="ws_rate"):
        Limits(ws_rate=0)
    with pytest.raises(ValueError, match="rooms_per_minute"):
        Limits(rooms_per_minute=-1)


def test_a_socket_over_its_rate_gets_rate_limited_and_is_closed(tmp_path: Path) -> None:
    # a rate so low that no token comes back during the test: exactly the burst passes
    with running(tmp_path / "d", limits=Limits(ws_rate=1e-9, ws_burst=5)) as client:
        made = new_room(client)
        room = client.app.state.rooms.get(made["room"])  # type: ignore[attr-defined]
        with client.websocket_connect("/ws") as ws:
            for _ in range(5):
                ws.send_json(PING)
                assert ws.receive_json() == {"v": 1, "type": "pong"}
            ws.send_json({"v": 1, "type": "join", "room": made["room"], "token": made["token"]})
            error = ws.receive_json()
            assert error["type"] == "error" and error["code"] == "rate_limited"
            assert "20" not in error["message"] and "5" in error["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 1008
        # the refused join was not carried out
        assert room.connections == set() and room.state == 0
        # other sockets have their own bucket
        with client.websocket_connect("/ws") as other:
            other.send_json(PING)
            assert other.receive_json() == {"v": 1, "type": "pong"}
    assert "rate_limited" in ERROR_CODES


def test_a_message_that_cannot_be_written_closes_its_socket_rather_than_silence_it(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A socket whose sender failed used to stay open and mute: the page waited for ever for moves that
    were queued and never written. It is closed with 1011 (the page reconnects) and the log says why."""
    with running(tmp_path / "d") as client:
        made = new_room(client)
        room = client.app.state.rooms.get(made["room"])  # type: ignore[attr-defined]
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"v": 1, "type": "join", "room": made["room"], "token": made["token"]})
            assert ws.receive_json()["type"] == "state"
            [conn] = room.connections

            async def unwritable() -> None:
                conn.send({"type": "pong", "not_json": {1, 2}})  # a set: json.dumps refuses it

            ws.portal.call(unwritable)
            with pytest.raises(WebSocketDisconnect) as closed:
                for _ in range(50):  # what was queued before (the computer's move, if it plays first)
                    ws.receive_json()
            assert closed.value.code == 1011
        assert room.connections == set()
    assert "could not be sent on a socket" in caplog.text


def test_room_creation_is_limited_per_client_address(tmp_path: Path) -> None:
    limits = Limits(rooms_per_minute=1e-9, rooms_burst=3)
    with running(tmp_path / "d", limits=limits) as client:
        rooms = client.app.state.rooms  # type: ignore[attr-defined]
        answers = [client.post("/api/rooms", json={}) for _ in range(10)]
        assert [a.status_code for a in answers] == [200] * 3 + [429] * 7
        refused = answers[-1]
        assert "too many new rooms" in refused.json()["detail"] and int(refused.headers["retry-after"]) >= 1
        assert len(rooms._rooms) == 3
        # bad requests count too (20,000 of anything must not pass), and a 429 comes before reading them
        assert client.post("/api/rooms", json={"players": 3}).status_code == 429
        # another address has its own allowance
        elsewhere = TestClient(client.app, client=("192.0.2.44", 4000))
        assert elsewhere.post("/api/rooms", json={}).status_code == 200
        assert len(rooms._rooms) == 4


def test_puzzle_reports_are_limited_per_client_address(tmp_path: Path) -> None:
    limits = Limits(rooms_per_minute=1e-9, rooms_burst=3)
    puzzle = shipped()[0].id
    with running(tmp_path / "d", limits=limits) as client:
        answers = [client.post(f"/api/puzzles/{puzzle}/report", json={"reason": "mal"}) for _ in range(5)]
        assert [a.status_code for a in answers] == [200] * 3 + [429] * 2
        assert "too many puzzle reports" in answers[-1].json()["detail"]
        assert int(answers[-1].headers["retry-after"]) >= 1
        # a bad report counts too, and is refused before it is read
        assert client.post(f"/api/puzzles/{puzzle}/report", json={"reason": ""}).status_code == 429
        elsewhere = TestClient(client.app, client=("192.0.2.44", 4000))
        assert elsewhere.post(f"/api/puzzles/{puzzle}/report", json={"reason": "mal"}).status_code == 200
        assert len(reports(client.app.state.store)) == 4  # type: ignore[attr-defined]


# -- the Origin check ----------------------------------------------------------------------------------------
def test_origins() -> None:
    own = Origins()
    assert own.allows(None, "ws", "127.0.0.1:8000")  # not a browser
    assert own.allows("http://127.0.0.1:8000", "ws", "127.0.0.1:8000")
    assert own.allows("HTTP://LOCALHOST", "ws", "localhost:80")  # default port written or not
    assert own.allows("https://example.org", "wss", "example.org")
    for origin in (
        "http://evil.example",
        "http://127.0.0.1:8001",
        "https://127.0.0.1:8000",
        "null",
        "",
        "file://",
        "http://127.0.0.1:8000@evil.example",
        "http://[::1",
    ):
        assert not own.allows(origin, "ws", "127.0.0.1:8000"), origin
    assert not own.allows("http://x", "ws", None)
    proxied = Origins(["https://cuarenta.example.org"])
    assert proxied.allows("https://cuarenta.example.org", "ws", "127.0.0.1:8000")
    assert not proxied.allows("http://cuarenta.example.org", "ws", "127.0.0.1:8000")
    with pytest.raises(ValueError, match="not an origin"):
        Origins(["cuarenta.example.org"])
    assert normal_origin("https://[::1]") == "https://[::1]:443"


def test_a_foreign_origin_is_refused_before_accept(tmp_path: Path) -> None:
    with running(tmp_path / "d", allow_origins=["https://cuarenta.example.org"]) as client:
        for origin in ("http://evil.example", "null", "https://testserver", "http://testserver:81"):
            with (
                pytest.raises(WebSocketDisconnect) as refused,
                client.websocket_connect("/ws", headers={"origin": origin}),
            ):
                pass  # pragma: no cover - refused before accept
            assert refused.value.code == 1008, origin
        for headers in ({}, {"origin": "http://testserver"}, {"origin": "https://cuarenta.example.org"}):
            with client.websocket_connect("/ws", headers=headers) as ws:
                ws.send_json(PING)
                assert ws.receive_json() == {"v": 1, "type": "pong"}
    with pytest.raises(ValueError, match="not an origin"):
        create_app(tmp_path / "e", allow_origins=["*"])


# -- seeds ---------------------------------------------------------------------------------------------------
def test_the_server_chooses_every_seed_but_a_practice_rooms(client: TestClient) -> None:
    rooms = client.app.state.rooms  # type: ignore[attr-defined]
    refused = client.post("/api/rooms", json={"seed": 42})
    assert refused.status_code == 400 and '"practice": true' in refused.json()["detail"]
    assert rooms._rooms == {}
    chosen = [rooms.get(new_room(client)["room"]).seed for _ in range(3)]
    assert len(set(chosen)) == 3
    practice = new_room(client, seed=42, practice=True)
    assert rooms.get(practice["room"]).seed == 42
    assert client.app.state.store.load_room(practice["room"]).practice is True  # type: ignore[attr-defined]
    plain = new_room(client, practice=True)  # practice without a seed: the server chooses one
    assert client.app.state.store.load_room(plain["room"]).practice is True  # type: ignore[attr-defined]
    # the room's status says which kind it is
    answer = client.get(f"/api/rooms/{practice['room']}", headers=bearer(practice["token"])).json()
    assert answer["practice"] is True
    ordinary = new_room(client)
    assert (
        client.get(f"/api/rooms/{ordinary['room']}", headers=bearer(ordinary["token"])).json()["practice"]
        is False
    )


# -- the OpenAPI schema --------------------------------------------------------------------------------------
def test_the_schema_is_served_at_api_openapi_json_only(client: TestClient) -> None:
    for path in ("/openapi.json", "/docs", "/redoc", "/docs/oauth2-redirect", "/api/docs"):
        assert client.get(path).status_code == 404, path
    schema = client.get(OPENAPI_URL).json()
    assert schema["info"]["title"] == "Cuarenta"
    assert set(schema["paths"]) == {
        "/api/health",
        "/api/options",
        "/api/texts/{lang}",
        "/api/rooms",
        "/api/rooms/{room_id}",
        "/api/history",
        "/api/games/{room_id}/record",
        "/api/games/{room_id}/replay",  # a finished mesa step by step: the seat's token in a Bearer header
        "/api/games/{room_id}/analysis",  # the computer's analysis of a finished mesa: the same token
        "/api/replay",  # a record the person holds, step by step: nothing of anyone else's
        "/api/puzzles",  # the puzzles (docs/protocol.md "Puzzles"): no secret, and no answer before a try
        "/api/puzzles/{puzzle_id}/answer",
        "/api/daily",  # the deal of the day: a new room of the day's deals, the day's ranking; never the seed
        "/api/daily/offline",  # the offline deals (another seed than the online one); results sent later
        "/api/puzzles/{puzzle_id}/report",  # a short reason, limited per address as new rooms are
        "/api/stats",
        "/api/tables",
        "/api/tables/{room_id}",
        "/api/tables/{room_id}/join",
        "/api/tables/{room_id}/seats/{seat}",
        "/api/tables/{room_id}/start",
        "/api/tables/{room_id}/leave",
        "/api/tables/{room_id}/reclaim",  # taking a seat back (docs/tables.md): the code in the body
        "/api/tables/{room_id}/code",
        "/api/tables/{room_id}/seats/{seat}/handover",
        "/api/lobby",
        "/api/qr",
        "/api/profiles",
        "/api/profiles/{profile_id}",
        "/api/leaderboard",
        # championships (docs/championships.md): every secret a Bearer header, the registration code in
        # the body
        "/api/championships",
        "/api/championships/{cid}",
        "/api/championships/{cid}/pairs",
        "/api/championships/{cid}/pairs/{pair}/withdraw",
        "/api/championships/{cid}/pairs/{pair}/replace",
        "/api/championships/{cid}/pairs/{pair}/seed",
        "/api/championships/{cid}/start",
        "/api/championships/{cid}/pair",
        "/api/championships/{cid}/sit",
        "/api/championships/{cid}/board",
        "/api/championships/{cid}/partidas/{partida}/walkover",
        "/api/championships/{cid}/partidas/{partida}/decisions",
        "/api/championships/{cid}/decisions/{index}/review",
        "/api/championships/{cid}/partidas/{partida}/hall",
        "/api/championships/{cid}/partidas/{partida}/hall/undo",
        # a finished partida step by step: public, once nothing of it can be played (no token, no room)
        "/api/championships/{cid}/partidas/{partida}/replay",
        "/api/championships/{cid}/standings.json",
        "/api/championships/{cid}/standings.csv",
    }
    assert set(schema["paths"]["/api/history"]) == {"post"}
    # no operation takes a token in its address; the seat token is a Bearer header
    for path, operations in schema["paths"].items():
        for operation in operations.values():
            for parameter in operation.get("parameters", []):
                assert parameter["name"] not in ("token", "tokens", "key"), path
    assert schema["components"]["securitySchemes"]["seat token"] == {
        "type": "http",
        "scheme": "bearer",
        "description": schema["components"]["securitySchemes"]["seat token"]["description"],
    }
    room = schema["paths"]["/api/rooms/{room_id}"]["get"]
    assert room["security"] == [{"seat token": []}]
    assert {"200", "401", "403", "404"} <= set(room["responses"])
    assert "429" in schema["paths"]["/api/rooms"]["post"]["responses"]
    rename = schema["paths"]["/api/profiles/{profile_id}"]["patch"]
    assert rename["security"] == [{"profile key": []}]
    assert {"200", "401", "403", "404", "400"} <= set(rename["responses"])
    assert "429" in schema["paths"]["/api/profiles"]["post"]["responses"]
    for path in ("/api/tables", "/api/tables/{room_id}/join", "/api/tables/{room_id}/reclaim"):  # limited
        assert "429" in schema["paths"][path]["post"]["responses"], path
    start = schema["paths"]["/api/tables/{room_id}/start"]["post"]
    assert start["security"] == [{"seat token": []}]
    # a table's public facts need no token; with one they also say the seat and the invite
    assert schema["paths"]["/api/tables/{room_id}"]["get"]["security"] == [{}, {"seat token": []}]


# -- the command's options -----------------------------------------------------------------------------------
def test_uvicorn_runs_with_the_frame_limit_and_no_socket_compression() -> None:
    options = uvicorn_options("info")
    assert options["ws_max_size"] == WS_MAX_FRAME_BYTES == 64 * 1024
    assert WS_MAX_FRAME_BYTES >= 4 * MAX_MESSAGE_CHARS  # any message the protocol reads fits in a frame
    assert options["ws_per_message_deflate"] is False and options["log_level"] == "info"
    handlers = options["log_config"]["handlers"]
    assert all(h["filters"] == ["no_tokens"] for h in handlers.values())


def test_redact_tokens_in_log_records() -> None:
    import logging

    record = logging.LogRecord(
        "uvicorn.access", 20, "", 0, '%s - "%s %s"', ("1.2.3.4", "GET", "/api/x?a=1&token=SECRET"), None
    )
    RedactTokens().filter(record)
    assert "SECRET" not in record.getMessage() and "token=[redacted]" in record.getMessage()
    assert redact("/x?Tokens=a;token=b") == "/x?Tokens=[redacted];token=[redacted]"
    # the WebSocket library's debug lines: frames and handshake headers
    from websockets.frames import Frame, Opcode

    frame = Frame(Opcode.TEXT, b'{"type": "join", "token": "SECRET"}')
    record = logging.LogRecord("uvicorn.error", 10, "", 0, "< %s", (frame,), None)
    RedactTokens().filter(record)
    assert record.getMessage() == "< TEXT [35 bytes]"
    record = logging.LogRecord(
        "uvicorn.error", 10, "", 0, "< %s: %s", ("Authorization", "Bearer SECRET"), None
    )
    RedactTokens().filter(record)
    assert record.getMessage() == "< Authorization: [redacted]"
    ping = Frame(Opcode.PING, b"1234")
    record = logging.LogRecord("uvicorn.error", 10, "", 0, "< %s", (ping,), None)
    RedactTokens().filter(record)
    assert record.args == (ping,)


def test_serve_options(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import uvicorn

    ran: list[dict[str, Any]] = []
    monkeypatch.setattr(
        uvicorn, "run", lambda application, **options: ran.append({"app": application, **options})
    )
    result = CliRunner().invoke(
        cli_app,
        [
            "serve",
            "--data",
            str(tmp_path / "d"),
            "--allow-origin",
            "https://a.example.org",
            "--allow-origin",
            "http://b.example.org:8080",
            "--rooms-per-minute",
            "5",
            "--log-level",
            "info",
        ],
    )
    assert result.exit_code == 0, result.output
    state = ran[0]["app"].state
    assert state.origins.extra == {"https://a.example.org:443", "http://b.example.org:8080"}
    assert state.limits.rooms_per_minute == 5 and state.limits.rooms_burst == 5
    assert ran[0]["ws_max_size"] == WS_MAX_FRAME_BYTES and ran[0]["log_level"] == "info"
    for bad in (
        ["--allow-origin", "a.example.org"],
        ["--allow-origin", "https://a.example.org/path"],
        ["--rooms-per-minute", "-1"],
        ["--log-level", "loud"],
    ):
        refused = CliRunner().invoke(cli_app, ["serve", "--data", str(tmp_path / "d"), *bad])
        assert refused.exit_code == 2, (bad, refused.output)
    assert len(ran) == 1


# -- the real program ----------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """``cuarenta serve`` on loopback at ``--log-level debug`` (everything it logs is checked for tokens),
    with one extra allowed origin, as if behind a proxy on the same machine (``--forwarded-allow-ips``:
    the tests here are each a client address of its own through ``X-Forwarded-For``)."""
    tmp = tmp_path_factory.mktemp("served")
    options = ["--data", str(tmp / "data"), "--bot-delay", "0", "--workers", "0", "--log-level", "debug"]
    options += ["--forwarded-allow-ips", "127.0.0.1"]
    with serve_process(
        tmp / "server.log", *options, "--allow-origin", "https://cuarenta.example.org"
    ) as running:
        yield running


def rss_mib(pid: int) -> float:
    psutil = pytest.importorskip("psutil")
    return float(psutil.Process(pid).memory_info().rss) / 2**20


def until_logged(served: Served, text: str) -> None:
    """Wait until the server's log holds ``text`` (it writes asynchronously)."""
    deadline = time.monotonic() + 10
    while text not in served.log():
        assert time.monotonic() < deadline, f"not in the log: {text!r}\n{served.log()[-3000:]}"
        time.sleep(0.05)


def still_serving(served: Served) -> None:
    with connect(served.ws) as ws:
        ws.send(json.dumps(PING))
        assert json.loads(ws.recv(timeout=10)) == {"v": 1, "type": "pong"}
    assert httpx.get(f"{served.base}/api/health", timeout=10).status_code == 200


@pytest.mark.slow
def test_real_server_closes_big_frames_with_1009_and_keeps_serving(served: Served) -> None:
    # the server reads its shipped puzzles in a thread at start: the memory is measured once it has them
    assert httpx.get(served.base + "/api/puzzles", timeout=60).status_code == 200
    before = rss_mib(served.proc.pid)
    for size in (1_000_000, 10_000_000):
        with (
            connect(served.ws, max_size=None, close_timeout=5) as ws,
            pytest.raises(ConnectionClosed) as closed,
        ):
            ws.send("x" * size)
            ws.recv(timeout=20)
        # the client reads the close 1009, unless the server closed while it was still sending (the
        # unread rest then resets the connection, and the close frame may be lost on the way); the
        # server's own log says what it answered
        if closed.value.rcvd is not None:
            assert closed.value.rcvd.code == 1009, size
        until_logged(served, f"> CLOSE 1009 (message too big) frame with {size} bytes")
        still_serving(served)
    # nothing of the size of those frames stayed (or was ever kept) in the server
    assert rss_mib(served.proc.pid) - before < 5
    # under the frame limit, the protocol's own check answers and the socket goes on
    with connect(served.ws) as ws:
        ws.send("y" * (WS_MAX_FRAME_BYTES - 100))
        error = json.loads(ws.recv(timeout=10))
        assert error["code"] == "bad_message" and str(MAX_MESSAGE_CHARS) in error["message"]
        ws.send(json.dumps(PING))
        assert json.loads(ws.recv(timeout=10))["type"] == "pong"


@pytest.mark.slow
def test_real_server_refuses_a_big_frame_from_its_header_alone(served: Served) -> None:
    """A frame announcing 10 MB whose first kilobyte only is sent: the server answers close 1009 at once,
    without waiting for (or reading) the rest."""
    with socket.create_connection(("127.0.0.1", served.port), timeout=20) as raw:
        key = base64.b64encode(os.urandom(16)).decode()
        raw.sendall(
            (
                f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = raw.recv(4096)
            assert chunk, "the server closed during the handshake"
            answer += chunk
        assert answer.startswith(b"HTTP/1.1 101"), answer[:80]
        rest = answer.split(b"\r\n\r\n", 1)[1]
        mask = os.urandom(4)
        payload = bytes(b ^ mask[i % 4] for i, b in enumerate(b"x" * 1024))
        raw.sendall(bytes([0x81, 0x80 | 127]) + (10_000_000).to_bytes(8, "big") + mask + payload)
        while len(rest) < 4:
            chunk = raw.recv(4096)
            assert chunk, "the server closed without a close frame"
            rest += chunk
        assert rest[0] == 0x88, rest[:8]  # a close frame
        assert int.from_bytes(rest[2:4], "big") == 1009
    still_serving(served)


@pytest.mark.slow
def test_real_server_closes_a_flooding_socket(served: Served) -> None:
    # (max_queue=None: the client reads on while it floods, so the server's close reaches it at once)
    with connect(served.ws, close_timeout=5, max_queue=None) as ws:
        with contextlib.suppress(ConnectionClosed):
            for _ in range(5_000):
                ws.send(json.dumps(PING))
        replies = []
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                replies.append(json.loads(ws.recv(timeout=20)))
        pongs = sum(r["type"] == "pong" for r in replies)
        assert replies[-1]["type"] == "error" and replies[-1]["code"] == "rate_limited"
        assert all(r["type"] == "pong" for r in replies[:-1])
        assert 40 <= pongs < 2_000  # the burst (and what came back during the flood) was answered
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    still_serving(served)


@pytest.mark.slow
def test_real_server_limits_room_creation(served: Served) -> None:
    # the server believes X-Forwarded-For from loopback here (--forwarded-allow-ips 127.0.0.1, a proxy on
    # the same machine): each test is then a client of its own
    flooder = {"X-Forwarded-For": "192.0.2.100"}
    with httpx.Client(base_url=served.base, timeout=20) as http:
        codes = [
            http.post("/api/rooms", json={"name": "flood"}, headers=flooder).status_code for _ in range(100)
        ]
        assert set(codes) == {200, 429}
        made = codes.count(200)
        assert 30 <= made < 60  # the burst, and the few that came back while the flood went on
        assert codes[:30] == [200] * 30
        refused = http.post("/api/rooms", json={}, headers=flooder)
        assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
        # another address is not held back by the flood
        assert http.post("/api/rooms", json={}, headers={"X-Forwarded-For": "192.0.2.101"}).status_code == 200
    still_serving(served)


@pytest.mark.slow
def test_real_server_checks_the_origin_at_the_handshake(served: Served) -> None:
    for origin in ("http://evil.example", f"http://localhost:{served.port}", "null"):
        with pytest.raises(InvalidStatus) as refused, connect(served.ws, origin=origin):  # type: ignore[arg-type]
            pass  # pragma: no cover
        assert refused.value.response.status_code == 403, origin
    for origin in (f"http://127.0.0.1:{served.port}", "https://cuarenta.example.org", None):
        with connect(served.ws, origin=origin) as ws:  # type: ignore[arg-type]
            ws.send(json.dumps(PING))
            assert json.loads(ws.recv(timeout=10))["type"] == "pong"


@pytest.mark.slow
def test_real_server_headers_and_gzip(served: Served) -> None:
    answer = httpx.get(f"{served.base}/app.js", headers={"Accept-Encoding": "gzip"})
    check_security_headers(answer.headers, f"127.0.0.1:{served.port}")
    assert answer.headers["content-encoding"] == "gzip" and "server" not in answer.headers


@pytest.mark.slow
def test_no_token_reaches_the_servers_log(served: Served) -> None:
    """The server logs every request (``--log-level debug``): with tokens in headers and bodies, none
    appears, and one a client put in an address anyway is hidden."""
    with httpx.Client(base_url=served.base, timeout=20) as http:
        made = http.post("/api/rooms", json={"name": "Ana"}, headers={"X-Forwarded-For": "192.0.2.200"})
        assert made.status_code == 200, made.text
        room, token = made.json()["room"], made.json()["token"]
        assert http.get(f"/api/rooms/{room}", headers=bearer(token)).status_code == 200
        assert http.get(f"/api/games/{room}/record", headers=bearer(token)).status_code == 409
        assert http.post("/api/history", json={"tokens": [token]}).status_code == 200
        assert http.get(f"/api/rooms/{room}", params={"token": token}).status_code == 400
        with connect(served.ws, additional_headers=bearer(token)) as ws:
            ws.send(json.dumps({"v": 1, "type": "join", "room": room, "token": token}))
            assert json.loads(ws.recv(timeout=10))["type"] == "state"
            ws.send(json.dumps({"v": 1, "type": "join", "room": room, "token": token + "x"}))
            while (reply := json.loads(ws.recv(timeout=10)))["type"] == "state":  # the computer's moves
                pass
            assert reply["code"] == "bad_token"
    until_logged(served, f"/api/rooms/{room}?token=[redacted]")
    log = served.log()
    assert f'"GET /api/rooms/{room} HTTP/1.1" 200' in log  # requests are logged, with their path
    assert "< TEXT" in log  # the frames are logged, without their content
    windows = {token[i : i + 8] for i in range(len(token) - 7)}
    leaked = sorted(w for w in windows if w in log)
    assert not leaked, f"parts of the token in the log: {leaked}"
