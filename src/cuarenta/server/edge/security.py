"""The web server's defences (docs/web.md "Security"): headers, the request checks, the Origin check.

- :class:`SecurityHeaders` adds a Content-Security-Policy (no inline script or style), ``nosniff``,
  ``Referrer-Policy: no-referrer`` and ``X-Frame-Options`` to every HTTP answer, and ``Cache-Control:
  no-store`` to the API's answers (one of them carries a seat's token).
- :class:`RequestGuard` refuses a request body above :data:`MAX_BODY_BYTES` (413) and a token in the
  address of an API request (400): tokens travel in the ``Authorization`` header or a JSON body only.
- :class:`Origins` is the Origin check of ``/ws``.

The rate limits are in :mod:`cuarenta.server.edge.ratelimits` (the buckets) and
:mod:`cuarenta.server.edge.limits` (per client address); the timeouts of connections in
:mod:`cuarenta.server.edge.protocols`; the filter that keeps tokens out of log lines
(:class:`~cuarenta.server.ops.logs.RedactTokens`) in :mod:`cuarenta.server.ops.logs`.

>>> Origins(["https://cuarenta.example.org"]).allows("https://cuarenta.example.org:443", "http", "x:1")
True
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Final
from urllib.parse import parse_qsl, urlsplit

from starlette.datastructures import MutableHeaders
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cuarenta.server.answers import TOKEN_IN_ADDRESS  # (answers: the device host says it too)
from cuarenta.server.edge.statuses import default_code
from cuarenta.server.ops.logs import TOKEN_PARAMETERS

#: The largest HTTP request body, in bytes (a new room's body is a few hundred; 100 tokens about 4 KiB).
MAX_BODY_BYTES: Final = 64 * 1024
#: The largest WebSocket frame uvicorn reads (bigger frames close the socket with 1009 before being read).
WS_MAX_FRAME_BYTES: Final = 64 * 1024
#: The socket's version of :data:`TOKEN_IN_ADDRESS` (docs/protocol.md: refused with 400 at the handshake).
TOKEN_IN_SOCKET_ADDRESS: Final = 'send the token in the socket\'s "join" message, never in the address'
_HOST = re.compile(r"^[A-Za-z0-9.\-]+(:[0-9]{1,5})?$|^\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?$")
_DEFAULT_PORTS: Final = {"http": 80, "https": 443}


# -- the Origin check ---------------------------------------------------------------------------------
def normal_origin(origin: str) -> str | None:
    """``scheme://host:port`` in lower case with the port always written, or ``None`` if ``origin`` is
    not an http(s) origin (``"null"`` included).

    >>> normal_origin("HTTPS://Cuarenta.Example.org"), normal_origin("http://[::1]:8000/")
    ('https://cuarenta.example.org:443', 'http://[::1]:8000')
    >>> normal_origin("null"), normal_origin("file:///tmp/x.html")
    (None, None)
    """
    try:
        parts = urlsplit(origin.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not parts.hostname:
        return None
    host = parts.hostname.lower()
    if ":" in host:
        host = f"[{host}]"
    return f"{scheme}://{host}:{port or _DEFAULT_PORTS[scheme]}"


class Origins:
    """Which browser origins may open ``/ws``: the server's own (the scheme and ``Host`` of the request
    itself) and the ``extra`` ones (``cuarenta serve --allow-origin``, for a server behind a proxy that
    changes the scheme or the host).

    A socket without an ``Origin`` header is allowed: browsers always send one, so only non-browser
    clients (scripts, tests, the benchmark) lack it, and they could send any Origin they like anyway.
    The check exists against other *web pages* opening a socket to this server in a visitor's browser.
    """

    def __init__(self, extra: Iterable[str] = ()) -> None:
        allowed = set()
        for origin in extra:
            normal = normal_origin(origin)
            if normal is None:
                raise ValueError(f"{origin!r} is not an origin: write it as https://host[:port]")
            allowed.add(normal)
        self.extra: frozenset[str] = frozenset(allowed)

    def allows(self, origin: str | None, scheme: str, host: str | None) -> bool:
        """Whether a socket with that ``Origin`` header, opened on ``scheme`` (``ws``/``wss`` or
        ``http``/``https``) with that ``Host`` header, may go on."""
        if origin is None:
            return True
        normal = normal_origin(origin)
        if normal is None:
            return False
        if normal in self.extra:
            return True
        if not host:
            return False
        own_scheme = "https" if scheme in ("wss", "https") else "http"
        return normal == normal_origin(f"{own_scheme}://{host}")


# -- HTTP middleware ----------------------------------------------------------------------------------
def content_security_policy(host: str | None) -> str:
    """The page's Content-Security-Policy. The page loads its script, style, images and texts from
    its own origin and opens a WebSocket back to it: ``connect-src`` names ``ws://`` and ``wss://`` of the
    request's host as well as ``'self'`` (older browsers do not count a WebSocket to the same host as
    ``'self'``). A ``Host`` that is not a plain host[:port] is left out. The game on the device
    (docs/web.md "Install and offline") runs Pyodide in a Web Worker: ``worker-src 'self'`` and
    ``'wasm-unsafe-eval'`` (WebAssembly compilation only, not JavaScript's ``eval``) in ``script-src``.

    >>> content_security_policy("127.0.0.1:8000").split("; ")[4]
    "connect-src 'self' ws://127.0.0.1:8000 wss://127.0.0.1:8000"
    """
    connect = "connect-src 'self'"
    if host and _HOST.match(host):
        connect += f" ws://{host} wss://{host}"
    return "; ".join(
        (
            "default-src 'self'",
            "script-src 'self' 'wasm-unsafe-eval'",
            "style-src 'self'",
            "img-src 'self'",
            connect,
            "worker-src 'self'",
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        )
    )


class SecurityHeaders:
    """Adds the security headers to every HTTP answer (pure ASGI, so also to errors and static files)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = None
        for key, value in scope.get("headers", ()):
            if key == b"host":
                host = value.decode("latin-1")
                break
        policy = content_security_policy(host)
        api = str(scope.get("path", "")).startswith("/api/")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers["Content-Security-Policy"] = policy
                headers["X-Content-Type-Options"] = "nosniff"
                headers["Referrer-Policy"] = "no-referrer"
                headers["X-Frame-Options"] = "DENY"
                headers["Cross-Origin-Opener-Policy"] = "same-origin"
                if api and "cache-control" not in headers:  # (the texts keep their own revalidation)
                    headers["Cache-Control"] = "no-store"
            await send(message)

        await self.app(scope, receive, send_with_headers)


async def refuse(
    scope: Scope,
    send: Send,
    status: int,
    detail: str,
    headers: Iterable[tuple[str, str]] = (),
    code: str | None = None,
) -> None:
    """Answer ``status`` with the API's error body ``{"detail", "code"}`` (``code`` by default the status'
    own, :func:`~cuarenta.server.edge.statuses.default_code`), before the app sees the request.

    On a WebSocket handshake the answer is the same HTTP response (the ASGI ``websocket.http.response``
    extension, which uvicorn and Starlette's TestClient have); a server without it gets the socket closed
    with 1008 before it is accepted (uvicorn's answer to that is a bare 403).
    """
    body = json.dumps({"detail": detail, "code": code or default_code(status)}).encode()
    fields = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        *((name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in headers),
    ]
    if scope["type"] == "websocket":
        if "websocket.http.response" not in scope.get("extensions", {}):
            await send({"type": "websocket.close", "code": 1008})
            return
        await send({"type": "websocket.http.response.start", "status": status, "headers": fields})
        await send({"type": "websocket.http.response.body", "body": body})
        return
    await send({"type": "http.response.start", "status": status, "headers": fields})
    await send({"type": "http.response.body", "body": body})


async def _answer(send: Send, status: int, detail: str, code: str | None = None) -> None:
    await refuse({"type": "http"}, send, status, detail, code=code)


def tokens_in_query(scope: Scope) -> bool:
    """Whether a request's query string names a token (:data:`TOKEN_PARAMETERS`, any case).

    >>> tokens_in_query({"query_string": b"room=a&Token=x"}), tokens_in_query({"query_string": b"room=a"})
    (True, False)
    """
    query = scope.get("query_string", b"").decode("latin-1")
    names = {name.lower() for name, _ in parse_qsl(query, keep_blank_values=True)}
    return bool(names & TOKEN_PARAMETERS)


def _content_length(scope: Scope) -> int | None:
    """The request's ``Content-Length``, or ``None`` when it has none (or one that is not a number)."""
    for key, value in scope.get("headers", ()):
        if key == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


class RequestGuard:
    """Refuses, before the app sees it, an API request or a socket with a token in its address (400; a
    socket at the handshake) and any request whose body is larger than ``max_body`` bytes (413, also when
    the body is sent in chunks without a ``Content-Length``)."""

    def __init__(self, app: ASGIApp, max_body: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and tokens_in_query(scope):
            await refuse(scope, send, 400, TOKEN_IN_SOCKET_ADDRESS, code="token_in_address")
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if str(scope.get("path", "")).startswith("/api/") and tokens_in_query(scope):
            await _answer(send, 400, TOKEN_IN_ADDRESS, "token_in_address")
            return
        too_large = f"the request body is larger than {self.max_body} bytes"
        length = _content_length(scope)
        if length is not None and length > self.max_body:
            await _answer(send, 413, too_large)
            return
        await self._counted(scope, receive, send, too_large)

    async def _counted(self, scope: Scope, receive: Receive, send: Send, too_large: str) -> None:
        """Run the app with the body counted as it comes: past :attr:`max_body` bytes it is a 413."""
        seen = 0
        started = False

        async def counted_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body:  # the app's exception handler answers 413
                    raise HTTPException(413, too_large)
            return message

        async def watched_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counted_receive, watched_send)
        except HTTPException as exc:  # raised by counted_receive where no handler caught it
            if started or exc.status_code != 413:
                raise
            await _answer(send, 413, too_large)


__all__ = [
    "MAX_BODY_BYTES",
    "TOKEN_IN_ADDRESS",
    "TOKEN_IN_SOCKET_ADDRESS",
    "TOKEN_PARAMETERS",
    "WS_MAX_FRAME_BYTES",
    "Origins",
    "RequestGuard",
    "SecurityHeaders",
    "content_security_policy",
    "normal_origin",
    "refuse",
    "tokens_in_query",
]
