"""Limits per client address on HTTP requests and sockets (docs/operations.md "Limits").

:class:`AddressLimits` is a pure ASGI middleware over the app:

- every ``/api/`` request but ``/api/health`` spends tokens of its client address's bucket
  (:class:`~cuarenta.server.edge.ratelimits.AddressLimiter`, ``Limits.http_per_minute`` and
  ``http_burst``): one, or :data:`EXPENSIVE_COST` for the requests that cost the server most
  (:func:`request_cost`); over it, 429 with ``Retry-After`` and the API's ``{"detail": ...}`` body.
  The page, its files, ``/healthz``, ``/readyz`` and ``/metrics`` are never limited;
- a ``/ws`` handshake takes one of its address's :class:`AddressSlots` (``Limits.sockets_per_address``)
  for the socket's whole life; with none left, the handshake is answered 429.

The client address is ``scope["client"]``: the TCP peer, or the address a trusted proxy put in
``X-Forwarded-For`` (``cuarenta serve --forwarded-allow-ips``); an IPv6 address counts by its /64
(:func:`~cuarenta.server.edge.ratelimits.client_key`).

>>> slots = AddressSlots(limit=2)
>>> [slots.take("192.0.2.1") for _ in range(3)]
['192.0.2.1', '192.0.2.1', None]
>>> slots.give_back("192.0.2.1"); slots.take("192.0.2.1"), slots.take("192.0.2.2")
('192.0.2.1', '192.0.2.2')
>>> request_cost("POST", "/api/qr"), request_cost("GET", "/api/rooms/AbC"), request_cost("GET", "/app.js")
(4, 1, 0)
"""

from __future__ import annotations

import logging
import re
from typing import Final

from starlette.types import ASGIApp, Receive, Scope, Send

from cuarenta.server.edge.ratelimits import AddressLimiter, Limits, client_key
from cuarenta.server.edge.security import refuse
from cuarenta.server.ops.logs import ThrottledLog

log = logging.getLogger("cuarenta.server")

#: What an expensive API request costs of its address's allowance (an ordinary one costs 1).
EXPENSIVE_COST: Final = 4
#: The requests that cost the server most: a QR code drawn, a look through the store, a record read.
EXPENSIVE: Final = (
    ("POST", re.compile(r"^/api/qr$")),
    ("POST", re.compile(r"^/api/(history|stats)$")),
    ("GET", re.compile(r"^/api/(stats|lobby|leaderboard)$")),
    ("GET", re.compile(r"^/api/profiles/[^/]+$")),
    ("GET", re.compile(r"^/api/games/[^/]+/(record|replay)$")),
)
#: Paths that are never limited (besides everything outside ``/api/``: the page and the operator's).
UNLIMITED: Final = frozenset({"/api/health"})


def request_cost(method: str, path: str) -> int:
    """What an HTTP request costs of its address's allowance: 0 (not limited), 1 or :data:`EXPENSIVE_COST`.

    >>> request_cost("GET", "/api/games/AbC/record"), request_cost("GET", "/api/health")
    (4, 0)
    """
    if not path.startswith("/api/") or path in UNLIMITED:
        return 0
    for expensive_method, pattern in EXPENSIVE:
        if method == expensive_method and pattern.match(path):
            return EXPENSIVE_COST
    return 1


class AddressSlots:
    """At most ``limit`` things (sockets) at once per client address; 0: no limit. Memory stays bounded:
    an address is kept only while it holds a slot."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._held: dict[str, int] = {}

    def take(self, host: str | None) -> str | None:
        """Take a slot for ``host``: the key to give back, or ``None`` if the address has none left."""
        key = client_key(host)
        held = self._held.get(key, 0)
        if self.limit and held >= self.limit:
            return None
        self._held[key] = held + 1
        return key

    def give_back(self, key: str) -> None:
        """Give back a slot :meth:`take` returned the key of."""
        held = self._held.get(key, 0) - 1
        if held > 0:
            self._held[key] = held
        else:
            self._held.pop(key, None)

    def held(self, host: str | None) -> int:
        """The slots ``host``'s address holds."""
        return self._held.get(client_key(host), 0)

    def __len__(self) -> int:
        """The addresses holding a slot."""
        return len(self._held)


class AddressLimits:
    """The per-address limits of HTTP requests and sockets (module docstring), over ``app``."""

    def __init__(self, app: ASGIApp, limits: Limits, *, socket_path: str = "/ws") -> None:
        self.app = app
        self.limits = limits
        self.socket_path = socket_path
        self.requests = AddressLimiter(limits.http_per_minute, limits.request_burst)
        self.sockets = AddressSlots(limits.sockets_per_address)
        self._refused_requests = ThrottledLog(log)
        self._refused_sockets = ThrottledLog(log)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self._request(scope, receive, send)
        elif scope["type"] == "websocket" and scope.get("path") == self.socket_path:
            await self._socket(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def _request(self, scope: Scope, receive: Receive, send: Send) -> None:
        cost = request_cost(str(scope.get("method", "GET")), str(scope.get("path", "")))
        host = _host(scope)
        if cost and not self.requests.allow(host, cost):
            wait = self.requests.retry_after(host, cost)
            self._refused_requests("API requests refused to %s: over the rate limit", host)
            await refuse(
                scope,
                send,
                429,
                f"too many requests from your address: at most {self.limits.http_per_minute:g} a minute "
                f"(bursts of {self.limits.request_burst}; some requests count {EXPENSIVE_COST}); "
                f"try again in {wait} s",
                [("Retry-After", str(wait))],
            )
            return
        await self.app(scope, receive, send)

    async def _socket(self, scope: Scope, receive: Receive, send: Send) -> None:
        host = _host(scope)
        key = self.sockets.take(host)
        if key is None:
            self._refused_sockets("socket refused to %s: it has %d open", host, self.sockets.limit)
            await refuse(
                scope,
                send,
                429,
                f"too many sockets from your address: at most {self.sockets.limit} open at once; "
                "close one (another tab) and try again",
            )
            return
        try:
            await self.app(scope, receive, send)
        finally:
            self.sockets.give_back(key)


def _host(scope: Scope) -> str | None:
    client = scope.get("client")
    return str(client[0]) if client else None


__all__ = ["EXPENSIVE", "EXPENSIVE_COST", "UNLIMITED", "AddressLimits", "AddressSlots", "request_cost"]
