"""Seats and tokens: how many players a table has, and which seat a secret token opens.

>>> check_players(4)
4
>>> check_players(3)
Traceback (most recent call last):
...
ValueError: 3 players: Cuarenta is played by 2 or 4
>>> same_token("abc", "abc"), same_token("abc", "abd")
(True, False)
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Iterable
from typing import TYPE_CHECKING, Final

from cuarenta.server.authority.ports import hash_token

if TYPE_CHECKING:
    from cuarenta.server.authority.model import Seat

#: How many people play a mesa of Cuarenta (R3): two, or four in two teams.
PLAYER_COUNTS: Final = (2, 4)
#: Characters of the random part of a token (``secrets.token_urlsafe(24)``: 32 characters).
TOKEN_BYTES: Final = 24


def check_players(value: int) -> int:
    """``value`` if it is a number of players of Cuarenta (2 or 4), else ``ValueError`` saying so."""
    if isinstance(value, bool) or value not in PLAYER_COUNTS:
        raise ValueError(f"{value} players: Cuarenta is played by 2 or 4")
    return value


def same_token(a: str, b: str) -> bool:
    """Whether two secrets (tokens, their hashes, invite codes) are equal, compared in constant time."""
    return hmac.compare_digest(a.encode(), b.encode())


def new_token() -> tuple[str, str]:
    """A new secret token for a seat and its stored hash (only the hash is kept)."""
    token = secrets.token_urlsafe(TOKEN_BYTES)
    return token, hash_token(token)


def seat_of_hash(seats: Iterable[Seat], digest: str) -> Seat | None:
    """The seat whose token has the hash ``digest`` (a person's, or a person's who left), or ``None``."""
    for s in seats:
        if s.token_hash is not None and same_token(s.token_hash, digest):
            return s
    return None


__all__ = ["PLAYER_COUNTS", "check_players", "new_token", "same_token", "seat_of_hash"]
