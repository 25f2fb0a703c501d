"""Timeouts and limits of connections, in the server itself (docs/operations.md "Limits").

uvicorn closes a kept-alive connection that is idle after an answer (``timeout_keep_alive``) and refuses
requests over ``limit_concurrency``, but a connection that never finishes its request's head (an idle
new connection, half-sent headers, a *slowloris* sending a byte every few seconds) or its body stays
open for ever. :func:`guarded_protocol` makes the HTTP protocol class ``cuarenta serve`` hands uvicorn
(``uvicorn.Config(http=...)``), a subclass of uvicorn's h11 protocol with a :class:`ConnectionGuard`:

- **head**: a connection that has not sent a whole request head within ``header_timeout`` seconds of
  its opening (or of the first byte of its next request) is closed — with a 408 answer if it sent part
  of one, silently if it sent nothing (a browser's spare connection);
- **body**: a request whose body has not arrived within ``body_timeout`` seconds of its head is answered
  408 (if the app has not answered yet) and closed;
- **per address**: a client address (the TCP peer, IPv6 by its /64; the configured proxies are not
  counted) may hold ``per_address`` HTTP connections at once; the requests of one more are answered 429
  and it is closed. A connection that becomes a WebSocket leaves this count (the sockets have their own
  limit per address, in the app);
- **all**: uvicorn's ``limit_concurrency`` also refuses a WebSocket handshake (503) over it, which
  uvicorn itself does for HTTP requests only.

>>> guard = ConnectionGuard(header_timeout=10, body_timeout=30, per_address=2)
>>> [guard.take("192.0.2.1") for _ in range(3)]
['192.0.2.1', '192.0.2.1', None]
>>> protocol = guarded_protocol(guard)
>>> protocol.guard is guard and issubclass(protocol, GuardedH11Protocol)
True
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
from collections.abc import Iterable
from typing import Any, ClassVar, Final

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from cuarenta.server.edge.limits import AddressSlots
from cuarenta.server.edge.statuses import default_code
from cuarenta.server.ops.logs import ThrottledLog

log = logging.getLogger("cuarenta.server")

#: The defaults (``cuarenta serve --header-timeout``, ``--body-timeout``, ``--max-connections-per-address``).
HEADER_TIMEOUT: Final = 10.0
BODY_TIMEOUT: Final = 30.0
CONNECTIONS_PER_ADDRESS: Final = 50
_Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class BadProxyAddress(ValueError):
    """A ``--forwarded-allow-ips`` entry that is no IP address or network."""


def proxy_networks(value: str | Iterable[str] | None) -> tuple[_Network, ...] | None:
    """The networks of ``--forwarded-allow-ips`` (comma-separated addresses or networks; ``*``: every
    peer, returned as ``None``); :class:`BadProxyAddress` for anything else (uvicorn would silently take
    a name such as ``localhost`` as a text that never matches).

    >>> proxy_networks("127.0.0.1, 10.0.0.0/24")
    (IPv4Network('127.0.0.1/32'), IPv4Network('10.0.0.0/24'))
    >>> proxy_networks(""), proxy_networks("*")
    ((), None)
    """
    items = [i.strip() for i in (value.split(",") if isinstance(value, str) else value or ())]
    items = [i for i in items if i]
    if "*" in items:
        return None
    networks = []
    for item in items:
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            raise BadProxyAddress(
                f"{item!r} is not an IP address or network: give the proxy's address, e.g. 127.0.0.1 or "
                "10.0.0.0/24 (comma-separated)"
            ) from None
    return tuple(networks)


class ConnectionGuard:
    """The settings and the shared counts of every connection of one server (module docstring).

    ``trusted`` are the proxies' networks (:func:`proxy_networks`; ``None``: every peer is a proxy):
    their connections carry many clients and are not counted per address. ``per_address`` 0: no limit.
    """

    def __init__(
        self,
        header_timeout: float = HEADER_TIMEOUT,
        body_timeout: float = BODY_TIMEOUT,
        per_address: int = CONNECTIONS_PER_ADDRESS,
        trusted: tuple[_Network, ...] | None = (),
    ) -> None:
        if not (header_timeout > 0 and body_timeout > 0 and per_address >= 0):
            raise ValueError(
                f"the timeouts must be above 0 and per_address 0 or more, not {header_timeout}, "
                f"{body_timeout}, {per_address}"
            )
        self.header_timeout = header_timeout
        self.body_timeout = body_timeout
        self.per_address = per_address
        self.trusted = trusted
        self.slots = AddressSlots(per_address)
        self.refused = ThrottledLog(log)

    def is_proxy(self, host: str | None) -> bool:
        """Whether ``host`` is one of the trusted proxies."""
        if self.trusted is None:
            return True
        try:
            address = ipaddress.ip_address(host or "")
        except ValueError:
            return False
        return any(address in network for network in self.trusted)

    def take(self, host: str | None) -> str | None:
        """A connection from ``host`` opens: the key of its slot ("" when it is not counted: no limit, or a
        proxy), or ``None`` when its address holds all it may."""
        if not self.per_address or self.is_proxy(host):
            return ""
        return self.slots.take(host)

    def give_back(self, key: str | None) -> None:
        if key:
            self.slots.give_back(key)


def raw_answer(status: int, reason: str, detail: str, headers: Iterable[tuple[str, str]] = ()) -> bytes:
    """A whole HTTP/1.1 answer with the API's error body that closes the connection (written to the
    transport where no request is there to answer through h11: a head that never came).

    >>> raw_answer(408, "Request Timeout", "x").split(b"\\r\\n")[0]
    b'HTTP/1.1 408 Request Timeout'
    """
    body = json.dumps({"detail": detail, "code": default_code(status)}).encode()
    lines = [
        f"HTTP/1.1 {status} {reason}",
        "content-type: application/json",
        f"content-length: {len(body)}",
        "connection: close",
        "x-content-type-options: nosniff",
        *(f"{name}: {value}" for name, value in headers),
    ]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def _over_per_address(limit: int) -> Any:
    """The ASGI app that answers every request of a connection over the per-address limit."""
    detail = f"too many connections from your address: at most {limit} at once; close some and try again"
    body = json.dumps({"detail": detail, "code": "rate_limited"}).encode()

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await send(
            {
                "type": "http.response.start",
                "status": 429,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"retry-after", b"5"),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

    return app


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with the head and body timeouts and the per-address connection limit of
    its class's :attr:`guard` (module docstring; made by :func:`guarded_protocol`)."""

    guard: ClassVar[ConnectionGuard] = ConnectionGuard()

    _timer: asyncio.TimerHandle | None = None
    _slot: str | None = None
    _head_bytes: int = 0

    # -- the connection's life ----------------------------------------------------------------------------
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        host = self.client[0] if self.client else None
        self._slot = self.guard.take(host)
        if self._slot is None:  # over its address's limit: every request of it is answered 429
            self.guard.refused(
                "connection refused to %s: %d open from its address",
                host,
                self.guard.per_address,
            )
            self.app = _over_per_address(self.guard.per_address)
        self._arm(self.guard.header_timeout, self._head_timed_out)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._give_back()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.conn.their_state is h11.IDLE:  # (part of) the next request's head
            if self._timer is None:
                self._arm(self.guard.header_timeout, self._head_timed_out)
            self._head_bytes += len(data)
        super().data_received(data)

    def handle_events(self) -> None:
        cycle = self.cycle
        super().handle_events()
        if self.transport.is_closing() or self.cycle is None:
            return
        if self.cycle is not cycle:  # a whole head came: the body's time starts
            self._disarm()
            self._head_bytes = 0
            if self.cycle.more_body:
                self._arm(self.guard.body_timeout, self._body_timed_out)
        elif not self.cycle.more_body and self._timer is not None and self.conn.their_state is not h11.IDLE:
            self._disarm()  # the body is complete

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self._disarm()
        limit = self.limit_concurrency
        if limit is not None and len(self.connections) >= limit:
            self.guard.refused("socket refused: %d connections open (the limit)", len(self.connections))
            detail = "the server is full: too many connections at once; try again in a moment"
            self.transport.write(raw_answer(503, "Service Unavailable", detail, [("retry-after", "5")]))
            self.transport.close()
            return
        self._give_back()  # a socket from now on: the app counts sockets per address
        super().handle_websocket_upgrade(event)

    def shutdown(self) -> None:
        self._disarm()
        super().shutdown()

    # -- timers -------------------------------------------------------------------------------------------
    def _arm(self, seconds: float, callback: Any) -> None:
        self._disarm()
        self._timer = self.loop.call_later(seconds, callback)

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _give_back(self) -> None:
        slot, self._slot = self._slot, None
        self.guard.give_back(slot)

    def _head_timed_out(self) -> None:
        self._timer = None
        if self.transport.is_closing() or self.conn.their_state is not h11.IDLE:
            return
        if self._head_bytes:
            seconds = f"{self.guard.header_timeout:g}"
            detail = f"the request's head did not arrive within {seconds} s"
            self.transport.write(raw_answer(408, "Request Timeout", detail))
        self.transport.close()

    def _body_timed_out(self) -> None:
        self._timer = None
        cycle = self.cycle
        if self.transport.is_closing() or cycle is None or not cycle.more_body:
            return
        if not cycle.response_started:
            detail = f"the request's body did not arrive within {self.guard.body_timeout:g} s"
            self.transport.write(raw_answer(408, "Request Timeout", detail))
        cycle.disconnected = True  # the app reads a disconnect, and nothing more it sends is written
        cycle.message_event.set()
        self.transport.close()


def guarded_protocol(guard: ConnectionGuard) -> type[GuardedH11Protocol]:
    """A :class:`GuardedH11Protocol` class for one server's ``guard`` (``uvicorn.Config(http=...)``)."""
    return type("GuardedH11Protocol", (GuardedH11Protocol,), {"guard": guard})


__all__ = [
    "BODY_TIMEOUT",
    "CONNECTIONS_PER_ADDRESS",
    "HEADER_TIMEOUT",
    "BadProxyAddress",
    "ConnectionGuard",
    "GuardedH11Protocol",
    "guarded_protocol",
    "proxy_networks",
    "raw_answer",
]
