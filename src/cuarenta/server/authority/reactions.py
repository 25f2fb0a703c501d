"""Reactions at a table: the traditional sayings only, one every :data:`REACTION_SECONDS` per seat.

>>> check_reaction({}, 0, "mosero", now=10.0) is None
True
>>> check_reaction({0: 9.5}, 0, "mosero", now=10.0)
'too_fast'
>>> check_reaction({}, 0, "hello", now=10.0)
'bad_message'
"""

from __future__ import annotations

from typing import Final

from cuarenta.i18n import SAYING_KEYS

#: The shortest time between two reactions of one seat (seconds).
REACTION_SECONDS: Final = 2.0


def check_reaction(last: dict[int, float], seat: int, saying: str, *, now: float) -> str | None:
    """Why ``seat`` may not react with ``saying`` now (``bad_message``: not a saying; ``too_fast``), or
    ``None`` (then note ``now`` in ``last``)."""
    if saying not in SAYING_KEYS:
        return "bad_message"
    before = last.get(seat)
    if before is not None and now - before < REACTION_SECONDS:
        return "too_fast"
    return None


__all__ = ["REACTION_SECONDS", "check_reaction"]
