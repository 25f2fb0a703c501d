"""The rate limits' arithmetic (docs/operations.md "Limits"): the settings, token buckets, and the key a
client address is limited under. Standard library only: the per-address middleware of
:mod:`cuarenta.server.edge.limits`, the socket loop, and :mod:`cuarenta.server.fairplay` (which keys a
profile's networks the same way) all read these.

>>> bucket = TokenBucket(rate=1.0, burst=2, clock=lambda: 0.0)
>>> [bucket.take() for _ in range(3)]
[True, True, False]
"""

from __future__ import annotations

import ipaddress
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass


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
    :data:`~cuarenta.server.edge.limits.EXPENSIVE_COST` each. 0 turns any of them off.

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


__all__ = ["AddressLimiter", "Limits", "TokenBucket", "client_key"]
