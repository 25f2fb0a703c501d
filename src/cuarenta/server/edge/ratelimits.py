"""The rate limits' arithmetic (docs/operations.md "Limits"): the settings, token buckets, and the key a
client address is limited under. Standard library only: the per-address middleware of
:mod:`cuarenta.server.edge.limits`, the socket loop, and :mod:`cuarenta.server.ratings.fairplay` (which keys a
profile's networks the same way) all read these.

>>> bucket = TokenBucket(rate=1.0, burst=2, clock=lambda: 0.0)
>>> [bucket.take() for _ in range(3)]
[True, True, False]
"""

from __future__ import annotations

import ipaddress
import math
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

    def give_back(self, cost: float = 1.0) -> None:
        """Return ``cost`` tokens taken for something that turned out not to count (never past ``burst``).

        >>> bucket = TokenBucket(rate=1.0, burst=2, clock=lambda: 0.0)
        >>> bucket.take(), bucket.take(), bucket.take()
        (True, True, False)
        >>> bucket.give_back(); bucket.take()
        True
        """
        self._refill()
        self._tokens = min(float(self.burst), self._tokens + cost)


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


@dataclass(frozen=True)
class GuessLimits:
    """How many wrong guesses of a table's secret (a seat code) are answered (docs/tables.md "Taking a
    seat back"). Only wrong guesses count; a right one spends nothing.

    - per client address (:func:`client_key`), at every table together: ``per_address_burst`` at once and
      ``per_address_minute`` a minute;
    - per table, from every address together: ``per_table_burst`` at once and ``per_table_minute`` a
      minute. Past that the table is *guarded*: an address is still answered as long as its own wrong
      guesses at that table while guarded stay within ``guarded_burst`` (and ``guarded_hour`` an hour),
      and as long as at most ``guarded_addresses`` addresses are counted there — so that guessing from
      many addresses cannot lock out the owner who types the right code, and the guesses a table
      answers stay bounded whatever the number of addresses (:meth:`most_guesses`).
    """

    per_address_minute: float = 5.0
    per_address_burst: int = 5
    per_table_minute: float = 20.0
    per_table_burst: int = 20
    guarded_hour: float = 3.0
    guarded_burst: int = 3
    guarded_addresses: int = 64

    def __post_init__(self) -> None:
        for name in ("per_address_minute", "per_table_minute", "guarded_hour"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be above 0, not {getattr(self, name)}")
        for name in ("per_address_burst", "per_table_burst", "guarded_burst", "guarded_addresses"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, not {getattr(self, name)}")

    def most_guesses(self, minutes: float) -> float:
        """The most wrong guesses one table answers in ``minutes`` (one server process), whatever the
        number of addresses they come from: its own budget, and each counted address' while guarded.

        >>> GuessLimits().most_guesses(60), GuessLimits().most_guesses(24 * 60)
        (1604.0, 33620.0)
        """
        table = self.per_table_burst + self.per_table_minute * minutes
        guarded = self.guarded_addresses * (self.guarded_burst + self.guarded_hour * minutes / 60)
        return table + guarded


class GuessTicket:
    """One guess let through by :meth:`GuessLimiter.take`. It has spent its tokens already, so that many
    guesses sent at once cannot all pass before the first is counted; once the guess is answered it is
    settled: :meth:`right` gives the tokens back (the code was right, or the request was no guess: an
    unknown room, a malformed code, a store that failed), :meth:`wrong_invite` keeps only the address'
    (a guess, but not at this table's codes), :meth:`wrong` keeps them all (a wrong code)."""

    __slots__ = ("_address", "_bucket", "_limiter", "_table", "settled")

    def __init__(self, limiter: GuessLimiter, table: str, address: TokenBucket, bucket: TokenBucket) -> None:
        self._limiter = limiter
        self._table = table
        self._address = address
        self._bucket = bucket  #: the table's own bucket, or the address' bucket at the guarded table
        self.settled = False

    def right(self) -> None:
        """Not a wrong guess: every token it took comes back."""
        if not self.settled:
            self.settled = True
            self._address.give_back()
            self._bucket.give_back()
            self._limiter.forget_if_idle(self._table)

    def wrong_invite(self) -> None:
        """A wrong invite: the address' token stays spent, the table's comes back."""
        if not self.settled:
            self.settled = True
            self._bucket.give_back()
            self._limiter.forget_if_idle(self._table)

    def wrong(self) -> None:
        """A wrong code: every token stays spent."""
        self.settled = True


class GuessLimiter:
    """The buckets of :class:`GuessLimits`, for at most ``max_keys`` addresses and ``max_tables`` tables
    (the least recently seen are forgotten first; a table where nobody guessed wrong is not kept).

    >>> now = [0.0]
    >>> guesses = GuessLimiter(GuessLimits(per_table_burst=2), clock=lambda: now[0])
    >>> for address in ("192.0.2.1", "192.0.2.2"):  # two wrong codes spend the table's budget
    ...     guesses.take("t", address).wrong()
    >>> guesses.take("t", "192.0.2.3").right()  # guarded: an address that guessed nothing is answered
    >>> [guesses.take("t", "192.0.2.1").wrong() for _ in range(3)]  # the others 3 more times each
    [None, None, None]
    >>> guesses.take("t", "192.0.2.1"), guesses.wait("t", "192.0.2.1")
    (None, 3)
    """

    def __init__(
        self,
        limits: GuessLimits | None = None,
        clock: Callable[[], float] = time.monotonic,
        max_keys: int = 10_000,
        max_tables: int = 10_000,
    ) -> None:
        self.limits = GuessLimits() if limits is None else limits
        self._clock = clock
        self.max_tables = max_tables
        self.addresses = AddressLimiter(
            self.limits.per_address_minute, self.limits.per_address_burst, clock, max_keys
        )
        #: table → its own bucket, and the buckets of the addresses that guessed there while it was guarded
        self._tables: OrderedDict[str, tuple[TokenBucket, OrderedDict[str, TokenBucket]]] = OrderedDict()

    def _table(self, table: str) -> tuple[TokenBucket, OrderedDict[str, TokenBucket]]:
        found = self._tables.get(table)
        if found is None:
            limits = self.limits
            own = TokenBucket(limits.per_table_minute / 60, limits.per_table_burst, self._clock)
            found = self._tables[table] = (own, OrderedDict())
            while len(self._tables) > self.max_tables:
                self._tables.popitem(last=False)
        else:
            self._tables.move_to_end(table)
        return found

    def forget_if_idle(self, table: str) -> None:
        """Drop a table's buckets when they hold nothing (no wrong guess to remember): guesses at rooms
        that do not exist never push a real table's count out of memory."""
        found = self._tables.get(table)
        if found is not None and found[0].full() and all(b.full() for b in found[1].values()):
            del self._tables[table]

    def _guarded(self, guarded: OrderedDict[str, TokenBucket], key: str) -> TokenBucket | None:
        """The bucket of address ``key`` at a guarded table: its own, or a new one while fewer than
        ``guarded_addresses`` are counted there (those refilled, idle for an hour, make room first)."""
        bucket = guarded.get(key)
        if bucket is not None:
            return bucket
        limits = self.limits
        if len(guarded) >= limits.guarded_addresses:
            for idle in [k for k, b in guarded.items() if b.full()]:
                del guarded[idle]
        if len(guarded) >= limits.guarded_addresses:
            return None
        bucket = guarded[key] = TokenBucket(limits.guarded_hour / 3600, limits.guarded_burst, self._clock)
        return bucket

    def take(self, table: str, host: str | None) -> GuessTicket | None:
        """Let a guess from ``host`` at ``table`` through: a :class:`GuessTicket` that has spent its
        tokens (settle it once answered), or ``None`` over the limits (:meth:`wait` says how long)."""
        address = self.addresses._bucket(host)
        if not address.take():
            return None
        own, guarded = self._table(table)
        if own.take():
            return GuessTicket(self, table, address, own)
        bucket = self._guarded(guarded, client_key(host))
        if bucket is None or not bucket.take():
            address.give_back()
            return None
        return GuessTicket(self, table, address, bucket)

    def wait(self, table: str, host: str | None) -> int:
        """Whole seconds before a guess from ``host`` at ``table`` may be answered (at least 1)."""
        seconds = self.addresses._bucket(host).wait()
        found = self._tables.get(table)
        if found is not None and found[0].wait() > 0:
            own, guarded = found
            bucket = guarded.get(client_key(host))
            table_wait = own.wait() if bucket is None else min(own.wait(), bucket.wait())
            seconds = max(seconds, table_wait)
        return max(1, math.ceil(seconds))


__all__ = [
    "AddressLimiter",
    "GuessLimiter",
    "GuessLimits",
    "GuessTicket",
    "Limits",
    "TokenBucket",
    "client_key",
]
