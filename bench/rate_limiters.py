"""The `limits` package's in-memory rate limiters against the server's own AddressLimiter.

Why the server keeps :class:`cuarenta.server.edge.ratelimits.AddressLimiter` (docs/operations.md "Limits"):
``limits.storage.MemoryStorage`` runs a timer thread every 10 ms while hits come, and each run walks every
key it holds. This script fills each with ``--keys`` addresses (10 hits each), then times one hit and one
such walk. Needs ``pip install limits`` (not a dependency of cuarenta).

    python bench/rate_limiters.py --keys 10000

This is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import os
import time

from limits import parse
from limits.storage import MemoryStorage
from limits.strategies import FixedWindowRateLimiter, MovingWindowRateLimiter

from cuarenta.server.edge.ratelimits import AddressLimiter


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--keys", type=int, default=10_000)
    args = ap.parse_args()
    addresses = [f"10.{i // 65536}.{i // 256 % 256}.{i % 256}" for i in range(args.keys)]
    hits = args.keys * 10
    strategies = (("moving window", MovingWindowRateLimiter), ("fixed window", FixedWindowRateLimiter))
    for name, strategy in strategies:
        storage = MemoryStorage()
        limiter = strategy(storage)
        item = parse("120/minute")
        start = time.perf_counter()
        for address in addresses:
            for _ in range(10):
                limiter.hit(item, address)
        per_hit = (time.perf_counter() - start) / hits * 1e6
        sweep = storage._MemoryStorage__expire_events
        start = time.perf_counter()
        sweep()
        walk = (time.perf_counter() - start) * 1e3
        print(f"limits {name}: {per_hit:.1f} µs a hit; the expiry walk over {args.keys} keys {walk:.1f} ms")
    own = AddressLimiter(per_minute=120, burst=120)
    start = time.perf_counter()
    for address in addresses:
        for _ in range(10):
            own.allow(address)
    per_hit = (time.perf_counter() - start) / hits * 1e6
    print(f"AddressLimiter: {per_hit:.1f} µs a hit; no walk (at most {own.max_keys} addresses, LRU)")
    os._exit(0)  # MemoryStorage's timer thread would hold the process for a moment


if __name__ == "__main__":
    raise SystemExit(main())
