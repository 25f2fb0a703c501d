"""The web server's defences (docs/web.md "Security"): headers, limits, the Origin check, no tokens in logs.

- :class:`SecurityHeaders` adds a Content-Security-Policy (no inline script or style), ``nosniff``,
  ``Referrer-Policy: no-referrer`` and ``X-Frame-Options`` to every HTTP answer, and ``Cache-Control:
  no-store`` to the API's answers (one of them carries a seat's token).
- :class:`RequestGuard` refuses a request body above :data:`MAX_BODY_BYTES` (413) and a token in the
  address of an API request (400): tokens travel in the ``Authorization`` header or a JSON body only.
- :class:`TokenBucket` and :class:`AddressLimiter` are the rate limits: messages per WebSocket and per
  client address, rooms and API requests per client address (:mod:`cuarenta.server.limits` applies the
  ones of HTTP requests and sockets; :mod:`cuarenta.server.protocols` those of connections).
- :class:`Origins` is the Origin check of ``/ws``.
- :class:`RedactTokens` is a logging filter that hides any ``token=`` or ``invite=`` value a client put in
  an address.

>>> bucket = TokenBucket(rate=1.0, burst=2, clock=lambda: 0.0)
>>> [bucket.take() for _ in range(3)]
[True, True, False]
>>> Origins(["https://cuarenta.example.org"]).allows("https://cuarenta.example.org:443", "http", "x:1")
True
"""

from __future__ import annotations

import ipaddress
import json
import logging
import re
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Final
from urllib.parse import parse_qsl, urlsplit

from starlette.datastructures import MutableHeaders
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: The largest HTTP request body, in bytes (a new room's body is a few hundred; 100 tokens about 4 KiB).
MAX_BODY_BYTES: Final = 64 * 1024
#: The largest WebSocket frame uvicorn reads (bigger frames close the socket with 1009 before being read).
WS_MAX_FRAME_BYTES: Final = 64 * 1024
#: Query parameters that may never carry a token (a seat's token, or a profile's key).
TOKEN_PARAMETERS: Final = frozenset({"token", "tokens", "key"})
TOKEN_IN_ADDRESS: Final = "send the token in the Authorization header, never in the address"
#: The socket's version of :data:`TOKEN_IN_ADDRESS` (docs/protocol.md: refused with 400 at the handshake).
TOKEN_IN_SOCKET_ADDRESS: Final = 'send the token in the socket\'s "join" message, never in the address'
_HOST = re.compile(r"^[A-Za-z0-9.\-]+(:[0-9]{1,5})?$|^\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?$")
_DEFAULT_PORTS: Final = {"http": 80, "https": 443}


# -- limits -------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Limits:
    """The server's rate limits (docs/web.md "Security", docs/operations.md "Limits").

    ``ws_rate`` messages per second per WebSocket, with bursts of ``ws_burst``: the page sends a move
    every second or so at most, and a ping every 25 s. ``rooms_per_minute`` new rooms per client
    address, with bursts of ``rooms_burst`` (a person starts a few a minute; a family behind one address
    a few more); 0 turns the room limit off (for benchmarks that create hundreds of rooms).

    Per client address (:func:`client_key`: an IPv6 address by its /64), whatever the number of its
    sockets and connections: ``sockets_per_address`` WebSockets open at once; ``address_rate`` messages a
    second across all its sockets, in bursts of ``address_burst`` (default: twice a socket's,
    ``2 * ws_rate`` and ``2 * ws_burst``); ``http_per_minute`` API requests a minute, in bursts of
    ``http_burst`` (default half a minute's), the expensive ones counting
    :data:`~cuarenta.server.limits.EXPENSIVE_COST` each. 0 turns any of them off.

    >>> limits = Limits()
    >>> limits.sockets_per_address, limits.message_rate, limits.message_burst
    (20, 40.0, 80)
    >>> limits.http_per_minute, limits.request_burst
    (240.0, 120)
    """

    ws_rate: float = 20.0
    ws_burst: int = 40
    rooms_per_minute: float = 30.0
    rooms_burst: int = 30
    sockets_per_address: int = 20
    address_rate: float | None = None
    address_burst: int | None = None
    http_per_minute: float = 240.0
    http_burst: int | None = None

    def __post_init__(self) -> None:
        if not (self.ws_rate > 0 and self.ws_burst >= 1):
            raise ValueError(
                f"ws_rate must be above 0 and ws_burst at least 1, not {self.ws_rate}, {self.ws_burst}"
            )
        if not (self.rooms_per_minute >= 0 and self.rooms_burst >= 1):
            raise ValueError(
                f"rooms_per_minute must be 0 or more and rooms_burst at least 1, "
                f"not {self.rooms_per_minute}, {self.rooms_burst}"
            )
        if self.sockets_per_address < 0:
            raise ValueError(
                f"sockets_per_address must be 0 (no limit) or more, not {self.sockets_per_address}"
            )
        if not (self.message_rate >= 0 and self.message_burst >= 1):
            raise ValueError(
                f"address_rate must be 0 or more and address_burst at least 1, "
                f"not {self.address_rate}, {self.address_burst}"
            )
        if not (self.http_per_minute >= 0 and self.request_burst >= 1):
            raise ValueError(
                f"http_per_minute must be 0 or more and http_burst at least 1, "
                f"not {self.http_per_minute}, {self.http_burst}"
            )

    @property
    def message_rate(self) -> float:
        """Messages a second per client address, across its sockets (0: no limit)."""
        return 2 * self.ws_rate if self.address_rate is None else self.address_rate

    @property
    def message_burst(self) -> int:
        """The burst of :attr:`message_rate`."""
        return 2 * self.ws_burst if self.address_burst is None else self.address_burst

    @property
    def request_burst(self) -> int:
        """The burst of :attr:`http_per_minute` (default: half a minute's requests, at least 1)."""
        return max(1, round(self.http_per_minute / 2)) if self.http_burst is None else self.http_burst


class TokenBucket:
    """A token bucket: ``burst`` tokens at most, ``rate`` new tokens per second. A request may cost more
    than one token (``take(cost)``).

    >>> now = [0.0]
    >>> bucket = TokenBucket(rate=2.0, burst=3, clock=lambda: now[0])
    >>> [bucket.take() for _ in range(4)]
    [True, True, True, False]
    >>> now[0] = 1.0  # two more tokens
    >>> [bucket.take() for _ in range(3)]
    [True, True, False]
    >>> round(bucket.wait(), 2)  # seconds until the next token
    0.5
    >>> now[0] = 2.0
    >>> bucket.take(cost=3), bucket.take(cost=2), round(bucket.wait(cost=2), 2)
    (False, True, 1.0)
    """

    __slots__ = ("_clock", "_last", "_tokens", "burst", "rate")

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._tokens = float(burst)
        self._last = clock()

    def _refill(self) -> None:
        now = self._clock()
        self._tokens = min(float(self.burst), self._tokens + (now - self._last) * self.rate)
        self._last = now

    def take(self, cost: float = 1.0) -> bool:
        """Spend ``cost`` tokens if there are that many (nothing is spent otherwise)."""
        self._refill()
        if self._tokens >= cost:
            self._tokens -= cost
            return True
        return False

    def wait(self, cost: float = 1.0) -> float:
        """Seconds until ``cost`` tokens are there (0 if they are)."""
        self._refill()
        return 0.0 if self._tokens >= cost else (cost - self._tokens) / self.rate

    def full(self) -> bool:
        """Whether the bucket has refilled completely (its owner has been idle)."""
        self._refill()
        return self._tokens >= self.burst


def client_key(host: str | None) -> str:
    """The key a client address is limited under: the address, or its /64 network for IPv6 (one
    household or server gets a whole /64).

    >>> client_key("192.0.2.7"), client_key("2001:db8:1:2:3:4:5:6"), client_key(None)
    ('192.0.2.7', '2001:db8:1:2::/64', '?')
    """
    if not host:
        return "?"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


class AddressLimiter:
    """One :class:`TokenBucket` per client address, for at most ``max_keys`` addresses at a time (the
    least recently seen are forgotten first, so memory stays bounded whatever the number of clients).

    >>> limiter = AddressLimiter(per_minute=60, burst=2, clock=lambda: 0.0)
    >>> [limiter.allow("192.0.2.1") for _ in range(3)], limiter.allow("192.0.2.2")
    ([True, True, False], True)
    """

    def __init__(
        self,
        per_minute: float,
        burst: int,
        clock: Callable[[], float] = time.monotonic,
        max_keys: int = 10_000,
    ) -> None:
        self.rate = per_minute / 60.0
        self.burst = burst
        self.max_keys = max_keys
        self._clock = clock
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    @property
    def enabled(self) -> bool:
        return self.rate > 0

    def _bucket(self, host: str | None) -> TokenBucket:
        key = client_key(host)
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = TokenBucket(self.rate, self.burst, self._clock)
            self._buckets[key] = bucket
            while len(self._buckets) > self.max_keys:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
        return bucket

    def allow(self, host: str | None, cost: float = 1.0) -> bool:
        """Whether a client address may go on (spends ``cost`` of its tokens)."""
        return True if not self.enabled else self._bucket(host).take(cost)

    def retry_after(self, host: str | None, cost: float = 1.0) -> int:
        """Whole seconds until that address may go on (for a request of that ``cost``)."""
        return 0 if not self.enabled else max(1, round(self._bucket(host).wait(cost) + 0.5))


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
    ``'self'``). A ``Host`` that is not a plain host[:port] is left out.

    >>> content_security_policy("127.0.0.1:8000").split("; ")[4]
    "connect-src 'self' ws://127.0.0.1:8000 wss://127.0.0.1:8000"
    """
    connect = "connect-src 'self'"
    if host and _HOST.match(host):
        connect += f" ws://{host} wss://{host}"
    return "; ".join(
        (
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self'",
            "img-src 'self'",
            connect,
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
    scope: Scope, send: Send, status: int, detail: str, headers: Iterable[tuple[str, str]] = ()
) -> None:
    """Answer ``status`` with the API's error body ``{"detail": detail}``, before the app sees the request.

    On a WebSocket handshake the answer is the same HTTP response (the ASGI ``websocket.http.response``
    extension, which uvicorn and Starlette's TestClient have); a server without it gets the socket closed
    with 1008 before it is accepted (uvicorn's answer to that is a bare 403).
    """
    body = json.dumps({"detail": detail}).encode()
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


async def _answer(send: Send, status: int, detail: str) -> None:
    await refuse({"type": "http"}, send, status, detail)


def tokens_in_query(scope: Scope) -> bool:
    """Whether a request's query string names a token (:data:`TOKEN_PARAMETERS`, any case).

    >>> tokens_in_query({"query_string": b"room=a&Token=x"}), tokens_in_query({"query_string": b"room=a"})
    (True, False)
    """
    query = scope.get("query_string", b"").decode("latin-1")
    names = {name.lower() for name, _ in parse_qsl(query, keep_blank_values=True)}
    return bool(names & TOKEN_PARAMETERS)


class RequestGuard:
    """Refuses, before the app sees it, an API request or a socket with a token in its address (400; a
    socket at the handshake) and any request whose body is larger than ``max_body`` bytes (413, also when
    the body is sent in chunks without a ``Content-Length``)."""

    def __init__(self, app: ASGIApp, max_body: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and tokens_in_query(scope):
            await refuse(scope, send, 400, TOKEN_IN_SOCKET_ADDRESS)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if str(scope.get("path", "")).startswith("/api/") and tokens_in_query(scope):
            await _answer(send, 400, TOKEN_IN_ADDRESS)
            return
        length = None
        for key, value in scope.get("headers", ()):
            if key == b"content-length":
                try:
                    length = int(value)
                except ValueError:
                    length = None
                break
        too_large = f"the request body is larger than {self.max_body} bytes"
        if length is not None and length > self.max_body:
            await _answer(send, 413, too_large)
            return
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


# -- logs ---------------------------------------------------------------------------------------------
class ThrottledLog:
    """Warnings about refused clients, at most one every ``every`` seconds (a flood of refusals must not
    become a flood of log lines); the next line says how many were left out.

    >>> import logging
    >>> now = [0.0]
    >>> warn = ThrottledLog(logging.getLogger("doctest"), every=10, clock=lambda: now[0])
    >>> [warn("refused %s", n) for n in range(3)]
    [True, False, False]
    >>> now[0] = 11.0
    >>> warn("refused %s", 3), warn.left_out
    (True, 0)
    """

    def __init__(
        self, logger: logging.Logger, every: float = 10.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.logger = logger
        self.every = every
        self.left_out = 0
        self._clock = clock
        self._last: float | None = None

    def __call__(self, message: str, *args: object) -> bool:
        now = self._clock()
        if self._last is not None and now - self._last < self.every:
            self.left_out += 1
            return False
        if self.left_out:
            message += f" ({self.left_out} more like it not logged)"
        self.logger.warning(message, *args)
        self._last, self.left_out = now, 0
        return True


#: Query parameters whose values never reach a log line: the tokens, and a table's invite code.
REDACTED_PARAMETERS: Final = (*sorted(TOKEN_PARAMETERS), "invite")
_TOKEN_VALUE = re.compile(rf"(?i)([?&;](?:{'|'.join(REDACTED_PARAMETERS)})=)[^&;\s\"]*")


def redact(text: str) -> str:
    """``text`` with every ``token=`` (``tokens=``, ``key=``) and ``invite=`` value of an address replaced.

    >>> redact('GET /api/history?token=abc&x=1 HTTP/1.1')
    'GET /api/history?token=[redacted]&x=1 HTTP/1.1'
    >>> redact('GET /api/tables/AbC?invite=s3cr3t HTTP/1.1')
    'GET /api/tables/AbC?invite=[redacted] HTTP/1.1'
    """
    return _TOKEN_VALUE.sub(r"\1[redacted]", text)


class RedactTokens(logging.Filter):
    """A logging filter that keeps tokens out of the server's log.

    The server refuses tokens in addresses, but a client may still put one there (or a table's invite
    code), and the access log prints addresses: the value is hidden. At ``--log-level debug`` the
    WebSocket library logs every frame and every handshake header: a data frame (a ``join`` carries a
    token) is logged as its kind and size only, and the ``Authorization`` and ``Cookie`` headers as
    ``[redacted]``.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            args = tuple(_redact_arg(a) for a in record.args)
            if len(args) == 2 and isinstance(args[0], str) and args[0].lower() in _SECRET_HEADERS:
                args = (args[0], "[redacted]")
            record.args = args
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        return True


_SECRET_HEADERS: Final = frozenset({"authorization", "cookie", "proxy-authorization"})
_DATA_OPCODES: Final = frozenset({"TEXT", "BINARY", "CONT"})


def _redact_arg(arg: object) -> object:
    if isinstance(arg, str):
        return redact(arg)
    opcode = getattr(getattr(arg, "opcode", None), "name", None)
    data = getattr(arg, "data", None)
    if opcode in _DATA_OPCODES and isinstance(data, bytes | bytearray | memoryview):
        return f"{opcode} [{len(data)} bytes]"  # a WebSocket data frame: never its content
    return arg
