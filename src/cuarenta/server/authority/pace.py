"""The computer's pace: the pause before each computer move, as a browser asks (docs/protocol.md).

>>> pause(0.8, "fast")
0.2
>>> pause(0.8, "slow")
2.0
"""

from __future__ import annotations

from typing import Final

from cuarenta.server.authority.messages import Pace

#: The pause before a computer move at each pace, as a multiple of the server's ``bot_delay`` ("normal").
PACE_FACTORS: Final[dict[Pace, float]] = {"slow": 2.5, "normal": 1.0, "fast": 0.25}


def pause(bot_delay: float, pace: Pace) -> float:
    """The pause in seconds before each computer move at ``pace``, for a server's ``bot_delay``."""
    return bot_delay * PACE_FACTORS[pace]


__all__ = ["PACE_FACTORS", "pause"]
