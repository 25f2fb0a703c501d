"""A person's seat code (docs/tables.md, "Taking a seat back"): a short secret, shown to its holder only,
that takes the seat back from another browser (a dead phone, another device) with the table's invite.

A code is 8 characters of Crockford's base32 (40 random bits), shown as ``K7QX-2M9D``. Typed back, it is
read loosely: any case, any spaces or dashes, and the letters Crockford reads as digits (``O`` → ``0``,
``I`` and ``L`` → ``1``). Only a hash is stored: PBKDF2-HMAC-SHA256 salted with the room's id, slow enough
(:data:`ROUNDS`) that a copy of the database does not give the codes away by trying all 2**40 of them,
while one check costs a few milliseconds. Guesses over HTTP are rate-limited by the edge and need the
invite code too.

>>> code = new_code()
>>> len(code), code[4], normalize(code) == code.replace("-", "")
(9, '-', True)
>>> normalize(" k7qx 2m9d "), normalize("K7QX-2M9O"), normalize("il0o-ABCD")
('K7QX2M9D', 'K7QX2M90', '1100ABCD')
>>> normalize("K7QX-2M9"), normalize("K7QX-2M9U"), normalize(""), normalize(7)
(None, None, None, None)
>>> hash_code("room", "K7QX-2M9D") == hash_code("room", "k7qx2m9d") != hash_code("other", "K7QX2M9D")
True
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Final

#: Crockford's base32 alphabet (no I, L, O, U).
ALPHABET: Final = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
#: Characters of a code (without the dash).
CODE_CHARS: Final = 8
#: PBKDF2 rounds of a stored code's hash.
ROUNDS: Final = 20_000
_READ_AS: Final = {"O": "0", "I": "1", "L": "1"}


def new_code() -> str:
    """A new random code, as shown: ``XXXX-XXXX``."""
    raw = "".join(secrets.choice(ALPHABET) for _ in range(CODE_CHARS))
    return f"{raw[:4]}-{raw[4:]}"


def normalize(text: object) -> str | None:
    """The code's 8 characters (upper case, no separators), or ``None`` if ``text`` is not a code."""
    if not isinstance(text, str) or len(text) > 40:
        return None
    chars = [_READ_AS.get(c, c) for c in text.upper() if c not in " -\t"]
    if len(chars) != CODE_CHARS or any(c not in ALPHABET for c in chars):
        return None
    return "".join(chars)


def hash_code(room_id: str, code: str) -> str:
    """The stored form of ``code`` at room ``room_id`` (a code that does not read hashes to ``""``)."""
    canonical = normalize(code)
    if canonical is None:
        return ""
    salt = f"cuarenta-seat-code/{room_id}".encode()
    return hashlib.pbkdf2_hmac("sha256", canonical.encode(), salt, ROUNDS).hex()


def new_seat_code(room_id: str) -> tuple[str, str]:
    """A new code for a seat of ``room_id`` and its stored hash."""
    code = new_code()
    return code, hash_code(room_id, code)


__all__ = ["ALPHABET", "CODE_CHARS", "ROUNDS", "hash_code", "new_code", "new_seat_code", "normalize"]
