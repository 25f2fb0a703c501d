"""Limits per client address and per connection (docs/operations.md "Limits"), the trusted proxies, the
Host check, a token in the socket's address and invite codes in the log.

Against real ``cuarenta serve`` processes (tests/support/served.py) over real sockets on loopback: a Linux
loopback answers every 127.0.0.0/8 address, so a test's clients bind 127.0.0.1, 127.0.0.2 … as their
source address to be different client addresses. In-process (TestClient) where the server process adds
nothing: the Host check of ``create_app`` and the IPv6 /64 of the socket count.
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import WebSocketDenialResponse
from typer.testing import CliRunner
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from cuarenta.cli import app as cli_app
from cuarenta.cli import serve
from cuarenta.cli.serve import KEEP_ALIVE_SECONDS
from cuarenta.server import create_app
from cuarenta.server.edge import protocols
from cuarenta.server.edge.hosts import ServerNames, host_of
from cuarenta.server.edge.limits import EXPENSIVE_COST, AddressSlots, request_cost
from cuarenta.server.edge.protocols import ConnectionGuard, GuardedH11Protocol, proxy_networks
from cuarenta.server.edge.ratelimits import AddressLimiter, Limits, TokenBucket
from cuarenta.server.edge.security import TOKEN_IN_SOCKET_ADDRESS
from cuarenta.server.ops.logs import redact
from support.examples import examples
from support.served import Served, serve_process

PING = json.dumps({"v": 1, "type": "ping"})
#: Generous slack over a timeout: CI is a loaded 2-core machine.
SLACK = 8.0


# -- helpers -------------------------------------------------------------------------------------------------
@contextlib.contextmanager
def serving(tmp_path: Path, *args: str, name: str = "serve") -> Iterator[Served]:
    """A real ``cuarenta serve`` with the project's defaults but for ``args``."""
    data = tmp_path / f"{name}-data"
    options = ["--data", str(data), "--bot-delay", "0", "--workers", "0", *args]
    with serve_process(tmp_path / f"{name}.log", *options) as served:
        yield served


def http_from(source: str, served: Served) -> httpx.Client:
    """An HTTP client whose connections come from the loopback address ``source``."""
    transport = httpx.HTTPTransport(local_address=source)
    return httpx.Client(base_url=served.base, transport=transport, timeout=20)


def raw_from(source: str, served: Served, timeout: float = 30) -> socket.socket:
    """A TCP connection to the server from the loopback address ``source``."""
    return socket.create_connection(("127.0.0.1", served.port), timeout=timeout, source_address=(source, 0))


def ws_from(
    source: str, served: Served, path: str = "/ws", host: str = "127.0.0.1", **options: Any
) -> ClientConnection:
    """A WebSocket to the server from the loopback address ``source``, its ``Host`` header ``host`` and the
    server's port (the caller closes it)."""
    uri = f"ws://{host}:{served.port}{path}"
    return connect(uri, sock=raw_from(source, served), open_timeout=20, close_timeout=5, **options)


def pong(ws: ClientConnection) -> None:
    ws.send(PING)
    assert json.loads(ws.recv(timeout=20)) == {"v": 1, "type": "pong"}


def refused_handshake(source: str, served: Served, path: str = "/ws", **options: Any) -> InvalidStatus:
    """The refusal of a socket's handshake (the test fails if it is accepted)."""
    with pytest.raises(InvalidStatus) as refused, ws_from(source, served, path, **options):
        pass  # pragma: no cover - refused
    return refused.value


def until_closed(conn: socket.socket, limit: float) -> tuple[bytes, float]:
    """Everything the server sends until it closes the connection, and the seconds that took (the test
    fails if it is still open after ``limit`` seconds)."""
    start = time.monotonic()
    received = b""
    conn.settimeout(0.5)
    while True:
        try:
            chunk = conn.recv(65536)
        except TimeoutError:
            assert time.monotonic() - start < limit, f"still open after {limit} s; received {received!r}"
            continue
        except ConnectionResetError:
            break
        if not chunk:
            break
        received += chunk
    return received, time.monotonic() - start


def status_of(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/1.1 ") else 0


def body_of(answer: bytes) -> dict[str, Any]:
    body: dict[str, Any] = json.loads(answer.split(b"\r\n\r\n", 1)[1])
    return body


def until_logged(served: Served, text: str) -> str:
    deadline = time.monotonic() + 20
    while text not in (log := served.log()):
        assert time.monotonic() < deadline, f"not in the log: {text!r}\n{log[-3000:]}"
        time.sleep(0.05)
    return log


# -- sockets per address -------------------------------------------------------------------------------------
@pytest.mark.slow
def test_a_real_server_holds_20_sockets_per_address_and_refuses_the_21st(tmp_path: Path) -> None:
    with serving(tmp_path) as served, contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(ws_from("127.0.0.1", served)) for _ in range(20)]
        for ws in sockets:
            pong(ws)
        refused = refused_handshake("127.0.0.1", served)
        assert refused.response.status_code == 429
        detail = json.loads(refused.response.body or b"{}")["detail"]
        assert "too many sockets from your address" in detail and "20" in detail
        # another address has sockets of its own
        with ws_from("127.0.0.2", served) as other:
            pong(other)
        # a closed socket gives its place back
        sockets.pop().close()
        deadline = time.monotonic() + 20
        while True:
            try:
                again = stack.enter_context(ws_from("127.0.0.1", served))
                break
            except InvalidStatus:
                assert time.monotonic() < deadline, "the closed socket's place never came back"
                time.sleep(0.1)
        pong(again)
        assert "socket refused to 127.0.0.1" in served.log()


def test_sockets_of_one_ipv6_64_share_a_count(tmp_path: Path) -> None:
    app = create_app(tmp_path / "d", bot_delay=0, workers=0, limits=Limits(sockets_per_address=2))
    with TestClient(app, client=("2001:db8:1:2::1", 4000)) as first:
        second = TestClient(app, client=("2001:db8:1:2::ffff", 4000))
        elsewhere = TestClient(app, client=("2001:db8:1:3::1", 4000))
        with first.websocket_connect("/ws") as a, second.websocket_connect("/ws") as b:
            a.send_text(PING)
            b.send_text(PING)
            assert a.receive_json()["type"] == b.receive_json()["type"] == "pong"
            with pytest.raises(WebSocketDenialResponse) as refused, first.websocket_connect("/ws"):
                pass  # pragma: no cover - refused
            assert refused.value.status_code == 429
            with elsewhere.websocket_connect("/ws") as c:
                c.send_text(PING)
                assert c.receive_json()["type"] == "pong"
        with first.websocket_connect("/ws") as again:  # the two gave their places back
            again.send_text(PING)
            assert again.receive_json()["type"] == "pong"
    assert Limits(sockets_per_address=0).sockets_per_address == 0  # 0: no limit
    slots = AddressSlots(limit=0)
    assert all(slots.take("192.0.2.1") for _ in range(1000))


def test_address_slots_keep_no_address_that_holds_none() -> None:
    slots = AddressSlots(limit=3)
    keys = [slots.take(f"2001:db8:{i:x}::1") for i in range(5000)]
    assert len(slots) == 5000 and slots.held("2001:db8:7::2") == 1
    for key in keys:
        assert key is not None
        slots.give_back(key)
    assert len(slots) == 0


# -- messages per address ------------------------------------------------------------------------------------
@pytest.mark.slow
def test_messages_per_address_are_limited_across_its_sockets(tmp_path: Path) -> None:
    """20 sockets each under its own rate (30 pings, its burst is 40): 600 messages from one address. The
    address may send 80 at once and 40 a second: the rest is refused with rate_limited."""
    with serving(tmp_path) as served, contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(ws_from("127.0.0.1", served, max_queue=None)) for _ in range(20)]
        start = time.monotonic()
        for ws in sockets:
            with contextlib.suppress(ConnectionClosed):
                for _ in range(30):
                    ws.send(PING)
        pongs, errors = 0, []
        for ws in sockets:
            with contextlib.suppress(ConnectionClosed):
                for _ in range(30):
                    reply = json.loads(ws.recv(timeout=20))
                    if reply["type"] != "pong":
                        errors.append(reply)
                        break
                    pongs += 1
        elapsed = time.monotonic() - start
        assert errors, "600 messages in a burst from one address were all answered"
        assert {e["code"] for e in errors} == {"rate_limited"}
        assert "from your address" in errors[0]["message"]
        assert pongs < 600
        assert pongs <= 80 + 40 * elapsed + 40, (pongs, elapsed)  # the burst and what came back since
        # another address is not held back
        with ws_from("127.0.0.2", served) as other:
            pong(other)


# -- HTTP requests per address -------------------------------------------------------------------------------
@pytest.mark.slow
def test_http_floods_get_429_with_retry_after_and_the_operators_endpoints_stay_open(tmp_path: Path) -> None:
    with serving(tmp_path) as served, http_from("127.0.0.1", served) as http:
        codes = [
            http.post("/api/qr", json={"text": "https://x.example/#join=a.b"}).status_code for _ in range(60)
        ]
        burst = Limits().request_burst // EXPENSIVE_COST  # 30 QR codes at once
        assert codes[:burst] == [200] * burst
        assert codes.count(429) >= 20, codes
        refused = http.post("/api/qr", json={"text": "x"})
        assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
        assert "too many requests from your address" in refused.json()["detail"]
        assert refused.headers["content-security-policy"]  # the security headers as on every answer
        # the cheaper requests share the address's allowance (what is left of it is under 4)
        assert 429 in [http.get("/api/options").status_code for _ in range(8)]
        # never limited: the page, the operator's endpoints and /api/health
        for path in ("/", "/app.js", "/healthz", "/readyz", "/metrics", "/api/health"):
            assert http.get(path).status_code == 200, path
        with http_from("127.0.0.2", served) as other:
            assert other.post("/api/qr", json={"text": "x"}).status_code == 200
    assert "API requests refused to 127.0.0.1" in served.log()


def test_request_costs_and_the_bucket_of_costs() -> None:
    assert request_cost("POST", "/api/qr") == request_cost("POST", "/api/history") == EXPENSIVE_COST
    assert request_cost("GET", "/api/games/AbC/record") == request_cost("GET", "/api/lobby") == EXPENSIVE_COST
    assert request_cost("GET", "/api/profiles/p1") == EXPENSIVE_COST
    assert request_cost("PATCH", "/api/profiles/p1") == 1
    assert request_cost("POST", "/api/rooms") == request_cost("GET", "/api/texts/es") == 1
    for free in ("/", "/index.html", "/healthz", "/readyz", "/metrics", "/api/health", "/ws"):
        assert request_cost("GET", free) == 0, free
    now = [0.0]
    limiter = AddressLimiter(per_minute=60, burst=10, clock=lambda: now[0])
    assert [limiter.allow("192.0.2.1", 4) for _ in range(3)] == [True, True, False]  # 2 tokens are left
    assert limiter.allow("192.0.2.1") and limiter.allow("192.0.2.1") and not limiter.allow("192.0.2.1")
    assert limiter.retry_after("192.0.2.1", 4) == 4  # 4 tokens at one a second
    bucket = TokenBucket(rate=1, burst=3, clock=lambda: now[0])
    assert not bucket.take(4) and bucket.take(3)  # a refused request spends nothing
    with pytest.raises(ValueError, match="http_per_minute"):
        Limits(http_per_minute=-1)
    with pytest.raises(ValueError, match="address_rate"):
        Limits(address_rate=-1)
    with pytest.raises(ValueError, match="sockets_per_address"):
        Limits(sockets_per_address=-1)
    assert Limits(ws_rate=1e6, ws_burst=10**6).message_rate == 2e6  # an address gets twice a socket's


# -- timeouts and connections --------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """A server with short head and body timeouts (2 s and 3 s), 4 connections per address."""
    tmp = tmp_path_factory.mktemp("quick")
    options = ["--header-timeout", "2", "--body-timeout", "3", "--max-connections-per-address", "4"]
    with serving(tmp, *options) as served:
        yield served


@pytest.mark.slow
def test_an_idle_new_connection_is_closed_after_the_header_timeout(quick: Served) -> None:
    with raw_from("127.0.0.3", quick) as conn:
        received, seconds = until_closed(conn, 2 + SLACK)
    assert received == b"" and seconds >= 1.5  # nothing was asked: nothing is answered


@pytest.mark.slow
def test_half_sent_headers_are_answered_408_and_closed(quick: Served) -> None:
    with raw_from("127.0.0.3", quick) as conn:
        conn.sendall(f"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:{quick.port}\r\nAccept: */*\r\n".encode())
        received, seconds = until_closed(conn, 2 + SLACK)
    assert status_of(received) == 408 and "head did not arrive within 2 s" in body_of(received)["detail"]
    assert seconds >= 1.5


@pytest.mark.slow
def test_a_slowloris_is_closed_after_the_header_timeout(quick: Served) -> None:
    """A byte every 0.4 s: each byte resets no timer, the head has 2 s in all."""
    head = f"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:{quick.port}\r\nX-Slow: {'a' * 200}".encode()
    with raw_from("127.0.0.3", quick) as conn:
        start = time.monotonic()
        sent = 0
        with contextlib.suppress(OSError):
            while sent < len(head) and time.monotonic() - start < 2 + SLACK:
                conn.sendall(head[sent : sent + 1])
                sent += 1
                time.sleep(0.4)
                conn.settimeout(0.001)
                with contextlib.suppress(TimeoutError, BlockingIOError):
                    conn.recv(1, socket.MSG_PEEK)
                    break  # the server answered or closed
        received, _ = until_closed(conn, 2 + SLACK)
        seconds = time.monotonic() - start
    assert sent < len(head), "the slowloris sent its whole head"
    assert status_of(received) == 408
    assert 1.5 <= seconds < 2 + SLACK


@pytest.mark.slow
def test_a_stalled_body_is_answered_408_and_closed(quick: Served) -> None:
    with raw_from("127.0.0.3", quick) as conn:
        conn.sendall(
            (
                f"POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1:{quick.port}\r\n"
                'Content-Type: application/json\r\nContent-Length: 200\r\n\r\n{"name": '
            ).encode()
        )
        received, seconds = until_closed(conn, 3 + SLACK)
    assert status_of(received) == 408 and "body did not arrive within 3 s" in body_of(received)["detail"]
    assert seconds >= 2.5
    assert "Traceback" not in quick.log()


@pytest.mark.slow
def test_an_idle_kept_alive_connection_is_closed_after_the_keep_alive(quick: Served) -> None:
    assert KEEP_ALIVE_SECONDS == 5
    with raw_from("127.0.0.3", quick) as conn:
        conn.sendall(f"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:{quick.port}\r\n\r\n".encode())
        received, seconds = until_closed(conn, KEEP_ALIVE_SECONDS + SLACK)
    assert status_of(received) == 200 and seconds >= KEEP_ALIVE_SECONDS - 0.5


@pytest.mark.slow
def test_a_kept_alive_connection_serves_many_requests_in_time(quick: Served) -> None:
    with http_from("127.0.0.4", quick) as http:
        for _ in range(5):
            assert http.get("/api/health").status_code == 200
            time.sleep(0.5)  # under both timeouts: the same connection goes on


@pytest.mark.slow
def test_connections_per_address(quick: Served) -> None:
    held = [raw_from("127.0.0.5", quick) for _ in range(4)]
    try:
        for conn in held:  # each holds its place with a request in progress (a slow head)
            conn.sendall(b"GET /api/health HTTP/1.1\r\n")
        with raw_from("127.0.0.5", quick) as fifth:
            fifth.sendall(f"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:{quick.port}\r\n\r\n".encode())
            received, _ = until_closed(fifth, SLACK)
        assert status_of(received) == 429 and "too many connections" in body_of(received)["detail"]
        assert b"retry-after: 5" in received.lower()
        with http_from("127.0.0.6", quick) as other:
            assert other.get("/api/health").status_code == 200
    finally:
        for conn in held:
            conn.close()
    deadline = time.monotonic() + 20
    while True:  # the closed ones gave their places back
        with http_from("127.0.0.5", quick) as http:
            if http.get("/api/health").status_code == 200:
                break
        assert time.monotonic() < deadline
        time.sleep(0.1)


@pytest.mark.slow
def test_the_defaults_close_an_idle_connection_after_10_s(tmp_path: Path) -> None:
    with serving(tmp_path) as served, raw_from("127.0.0.1", served) as conn:
        received, seconds = until_closed(conn, 10 + SLACK)
    assert received == b"" and seconds >= 9.5


@pytest.mark.slow
def test_max_connections_refuses_http_and_sockets_with_503(tmp_path: Path) -> None:
    with serving(tmp_path, "--max-connections", "4") as served:
        held = [raw_from(f"127.0.0.{10 + i}", served) for i in range(4)]
        try:
            with raw_from("127.0.0.20", served) as conn:
                conn.sendall(f"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\n\r\n".encode())
                received, _ = until_closed(conn, SLACK)
            assert status_of(received) == 503
            refused = refused_handshake("127.0.0.21", served)
            assert refused.response.status_code == 503
            assert "too many connections" in json.loads(refused.response.body or b"{}")["detail"]
        finally:
            for conn in held:
                conn.close()


def test_connection_guard_and_proxy_networks() -> None:
    guard = ConnectionGuard(per_address=1, trusted=proxy_networks("10.0.0.0/24"))
    assert guard.take("192.0.2.1") == "192.0.2.1" and guard.take("192.0.2.1") is None
    assert guard.take("10.0.0.7") == guard.take("10.0.0.7") == ""  # a proxy carries many clients
    guard.give_back("192.0.2.1")
    assert guard.take("192.0.2.1") == "192.0.2.1"
    assert ConnectionGuard(per_address=0).take("192.0.2.1") == ""
    assert ConnectionGuard(trusted=None).is_proxy("192.0.2.1")
    with pytest.raises(ValueError, match="not an IP address"):
        proxy_networks("localhost")
    with pytest.raises(ValueError, match="timeouts"):
        ConnectionGuard(header_timeout=0)
    assert issubclass(GuardedH11Protocol, object)
    # the command's defaults are the protocol's (cli/serve.py does not import it before it serves)
    assert serve.DEFAULT_CONNECTIONS_PER_ADDRESS == protocols.CONNECTIONS_PER_ADDRESS
    assert serve.DEFAULT_HEADER_TIMEOUT == protocols.HEADER_TIMEOUT
    assert serve.DEFAULT_BODY_TIMEOUT == protocols.BODY_TIMEOUT


# -- X-Forwarded-For -----------------------------------------------------------------------------------------
def rooms_made_rotating_xff(served: Served, count: int) -> int:
    with http_from("127.0.0.1", served) as http:
        return sum(
            http.post("/api/rooms", json={}, headers={"X-Forwarded-For": f"198.51.100.{i}"}).status_code
            == 200
            for i in range(count)
        )


@pytest.mark.slow
def test_x_forwarded_for_is_ignored_from_a_peer_that_is_not_a_configured_proxy(tmp_path: Path) -> None:
    with serving(tmp_path) as served:
        assert rooms_made_rotating_xff(served, 40) < 35  # the room limit (30 at once) holds
        # nor does X-Forwarded-Proto change the scheme the Origin is compared with
        refused = refused_handshake(
            "127.0.0.2",
            served,
            origin=f"https://127.0.0.1:{served.port}",  # type: ignore[arg-type]
            additional_headers={"X-Forwarded-Proto": "https"},
        )
        assert refused.response.status_code == 403


@pytest.mark.slow
def test_x_forwarded_for_is_honoured_from_a_configured_proxy(tmp_path: Path) -> None:
    with serving(tmp_path, "--forwarded-allow-ips", "127.0.0.1") as served:
        assert rooms_made_rotating_xff(served, 40) == 40  # each forwarded address is a client of its own
        with ws_from(
            "127.0.0.1",
            served,
            origin=f"https://127.0.0.1:{served.port}",  # type: ignore[arg-type]
            additional_headers={"X-Forwarded-Proto": "https"},
        ) as ws:
            pong(ws)
        # a peer that is not the proxy is still not believed
        with http_from("127.0.0.2", served) as http:
            made = sum(
                http.post("/api/rooms", json={}, headers={"X-Forwarded-For": f"203.0.113.{i}"}).status_code
                == 200
                for i in range(40)
            )
        assert made < 35


# -- the Host check ------------------------------------------------------------------------------------------
@pytest.mark.slow
def test_a_real_server_refuses_a_rebinding_host(tmp_path: Path) -> None:
    with serving(tmp_path, "--server-name", "cuarenta.example.org") as served:
        evil = f"rebind.attacker.example:{served.port}"
        with http_from("127.0.0.1", served) as http:
            made = http.post("/api/rooms", json={}, headers={"Host": evil, "Origin": f"http://{evil}"})
            assert made.status_code == 400
            assert (
                "--server-name" in made.json()["detail"]
                and "rebind.attacker.example" in made.json()["detail"]
            )
            assert http.get("/", headers={"Host": evil}).status_code == 400
            for host in (
                f"127.0.0.1:{served.port}",
                f"localhost:{served.port}",
                f"{socket.gethostname()}:{served.port}",
                "cuarenta.example.org",
                "[::1]:8000",
            ):
                assert http.get("/api/health", headers={"Host": host}).status_code == 200, host
        refused = refused_handshake(
            "127.0.0.1",
            served,
            host="rebind.attacker.example",
            origin=f"http://{evil}",  # type: ignore[arg-type]
        )
        assert refused.response.status_code == 400
        assert "--server-name" in json.loads(refused.response.body or b"{}")["detail"]


def test_the_host_check_in_process(tmp_path: Path) -> None:
    app = create_app(
        tmp_path / "d", bot_delay=0, workers=0, server_names=[], allow_origins=["https://play.example.net"]
    )
    with TestClient(app) as client:  # TestClient's own host, "testserver", is no name of this server
        answer = client.get("/api/health")
        assert answer.status_code == 400 and "--server-name" in answer.json()["detail"]
        assert answer.headers["x-content-type-options"] == "nosniff"
        with pytest.raises(WebSocketDenialResponse) as refused, client.websocket_connect("/ws"):
            pass  # pragma: no cover - refused
        assert refused.value.status_code == 400
        for host in ("play.example.net", "127.0.0.1:8000", "mesa.localhost"):
            assert client.get("/api/health", headers={"Host": host}).status_code == 200, host
    # without server_names (the library's default) there is no Host check
    with TestClient(create_app(tmp_path / "e", bot_delay=0, workers=0)) as client:
        assert client.get("/api/health").status_code == 200


@settings(max_examples=examples(200), deadline=None)
@given(st.ip_addresses(), st.integers(min_value=1, max_value=65535))
def test_every_ip_address_is_a_name_of_the_server(address: Any, port: int) -> None:
    names = ServerNames(hostname="mesa")
    host = f"[{address}]" if isinstance(address, ipaddress.IPv6Address) else str(address)
    assert names.allows(f"{host}:{port}") and names.allows(host)


_LABEL = st.from_regex(r"\A[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?\Z")


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(_LABEL, min_size=2, max_size=4).map(".".join), st.integers(min_value=1, max_value=65535))
def test_other_names_are_refused_unless_given(name: str, port: int) -> None:
    try:
        ipaddress.ip_address(name)
        return  # an IP address (e.g. "1.2.3.4") is always served
    except ValueError:
        pass
    plain = ServerNames(hostname="mesa")
    assert plain.allows(f"{name}:{port}") is name.endswith(".localhost") or name == "mesa.local"
    assert ServerNames([name], hostname="mesa").allows(f"{name.upper()}.:{port}")


@given(st.text(max_size=80))
def test_any_host_header_is_read_without_error(header: str) -> None:
    host = host_of(header)
    assert host is None or host == host.lower().rstrip(".") or ":" in host
    ServerNames(hostname="mesa").allows(header)  # never raises


# -- a token in the socket's address -------------------------------------------------------------------------
@pytest.mark.slow
def test_a_token_in_the_sockets_address_is_refused_with_400(tmp_path: Path) -> None:
    with serving(tmp_path) as served:
        for query in ("?token=abc", "?room=r&Token=abc", "?tokens=a", "?key=k"):
            refused = refused_handshake("127.0.0.1", served, "/ws" + query)
            assert refused.response.status_code == 400, query
            assert json.loads(refused.response.body or b"{}") == {
                "detail": TOKEN_IN_SOCKET_ADDRESS,
                "code": "token_in_address",
            }
        with ws_from("127.0.0.1", served, "/ws?room=AbC") as ws:  # the room in the address is fine
            pong(ws)


# -- invite codes in the log ---------------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("log_format", ["text", "json"])
def test_an_invite_code_in_an_address_is_redacted_in_the_log(tmp_path: Path, log_format: str) -> None:
    secret = "Inv1teC0deS3cret"
    with serving(tmp_path, "--log-level", "info", "--log-format", log_format) as served:
        with http_from("127.0.0.1", served) as http:
            http.get("/api/tables/AbC", params={"invite": secret})
            http.get("/", params={"x": "1", "INVITE": secret})
        log = until_logged(served, "invite=[redacted]")
    assert secret not in log and secret[:8] not in log
    assert redact("/api/x?invite=abc&y=2") == "/api/x?invite=[redacted]&y=2"


# -- the options of cuarenta serve ---------------------------------------------------------------------------
def test_serve_options_of_the_limits(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import uvicorn

    ran: list[dict[str, Any]] = []
    monkeypatch.setattr(
        uvicorn, "run", lambda application, **options: ran.append({"app": application, **options})
    )
    monkeypatch.delenv("FORWARDED_ALLOW_IPS", raising=False)
    monkeypatch.delenv("CUARENTA_SERVER_NAME", raising=False)
    data = ["serve", "--data", str(tmp_path / "d")]
    assert CliRunner().invoke(cli_app, data).exit_code == 0
    plain = ran[-1]
    assert plain["timeout_keep_alive"] == KEEP_ALIVE_SECONDS == 5
    assert plain["proxy_headers"] is False and "forwarded_allow_ips" not in plain
    assert plain["limit_concurrency"] == 4096
    guard = plain["http"].guard
    assert (guard.header_timeout, guard.body_timeout, guard.per_address, guard.trusted) == (10, 30, 50, ())
    state = plain["app"].state
    assert (state.limits.sockets_per_address, state.limits.message_rate, state.limits.http_per_minute) == (
        20,
        40,
        240,
    )
    assert state.server_names is not None and "localhost" in state.server_names.names

    options = [
        *("--max-sockets-per-address", "5", "--address-messages-per-second", "7"),
        *("--http-per-minute", "0", "--max-connections", "0", "--max-connections-per-address", "3"),
        *("--header-timeout", "4", "--body-timeout", "6", "--forwarded-allow-ips", "127.0.0.1,10.0.0.0/8"),
        *("--server-name", "cuarenta.example.org", "--server-name", "Mesa.Example.NET."),
    ]
    result = CliRunner().invoke(cli_app, [*data, *options])
    assert result.exit_code == 0, result.output
    given = ran[-1]
    assert given["proxy_headers"] is True and given["forwarded_allow_ips"] == "127.0.0.1,10.0.0.0/8"
    assert given["limit_concurrency"] is None
    guard = given["http"].guard
    assert (guard.header_timeout, guard.body_timeout, guard.per_address) == (4, 6, 3)
    limits = given["app"].state.limits
    assert (limits.sockets_per_address, limits.message_rate, limits.message_burst) == (5, 7, 14)
    assert limits.http_per_minute == 0
    assert {"cuarenta.example.org", "mesa.example.net"} <= given["app"].state.server_names.names

    # the environment of a deployment (deploy/systemd/cluster.env)
    env = {"FORWARDED_ALLOW_IPS": "10.0.0.10", "CUARENTA_SERVER_NAME": "a.example.org b.example.org"}
    assert CliRunner().invoke(cli_app, data, env=env).exit_code == 0
    assert ran[-1]["forwarded_allow_ips"] == "10.0.0.10"
    assert {"a.example.org", "b.example.org"} <= ran[-1]["app"].state.server_names.names

    count = len(ran)
    for bad in (
        ["--forwarded-allow-ips", "localhost"],
        ["--server-name", "https://cuarenta.example.org"],
        ["--max-sockets-per-address", "-1"],
        ["--http-per-minute", "-5"],
        ["--header-timeout", "0"],
    ):
        refused = CliRunner().invoke(cli_app, [*data, *bad])
        assert refused.exit_code == 2, (bad, refused.output)
    assert len(ran) == count
