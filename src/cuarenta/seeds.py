"""How the mesas of a series are dealt from one seed: mesa ``n`` (1, 2 …) of a room, a table or the deal of
the day is dealt from :func:`mesa_seed` of the series' seed, a hash, so one mesa's seed says nothing of
another's. The server's and the device's rooms deal this way, and so does the terminal's deal of the day:
the same seed gives the same cards wherever it is played.

>>> mesa_seed(7, 1) == mesa_seed(7, 1) != mesa_seed(7, 2)
True
>>> 0 <= mesa_seed("dia/2026-12-05/sin/ab", 1) < 2**63
True
"""

from __future__ import annotations

import hashlib


def mesa_seed(series_seed: int | str, mesa: int) -> int:
    """The seed mesa ``mesa`` (1, 2 …) of a series dealt from ``series_seed`` is dealt from (63 bits)."""
    digest = hashlib.sha256(f"cuarenta-room/{series_seed}/mesa/{mesa}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


__all__ = ["mesa_seed"]
