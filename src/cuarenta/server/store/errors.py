"""The store's errors, and the words a failure of the database is told in (docs/storage.md "Storage faults").

>>> issubclass(StoreConflict, StoreError), issubclass(DatabaseDamaged, StoreCorrupt)
(True, True)
>>> issubclass(StoreUnknown, StoreError)
True
"""

from __future__ import annotations

from typing import Final

# StoreError, StoreConflict and StoreCorrupt are the authority's store port's (the authority catches them
# and may not import the store).
from cuarenta.server.authority.ports import StoreConflict, StoreCorrupt, StoreError, StoreUnknown
from cuarenta.server.store.files import is_corrupt


class StoreGone(StoreError):
    """The SQLite file was deleted or replaced while the store had it open: a write went to a file nobody
    will read again, so it is refused (not acknowledged)."""


class DatabaseMissing(StoreError):
    """At start: the SQLite file is missing, but its marker says a database was made there."""


class DatabaseEmpty(StoreError):
    """At start: the SQLite file is empty (0 bytes)."""


class DatabaseDamaged(StoreCorrupt):
    """At start: the SQLite file is not SQLite, or ``PRAGMA quick_check`` found damage."""


class WalLost(StoreError):
    """At start: the last store did not close the database cleanly and its write-ahead log is missing
    (moves it acknowledged may be lost)."""


#: The error each problem of :func:`cuarenta.server.store.files.start_problem` raises.
_START_ERRORS: Final[dict[str, type[StoreError]]] = {
    "missing": DatabaseMissing,
    "empty": DatabaseEmpty,
    "damaged": DatabaseDamaged,
    "wal_lost": WalLost,
}


def store_failure(exc: Exception, what: str) -> StoreError:
    """The store's error for a failed database call (SQLAlchemy's error, or the driver's own):
    :class:`StoreCorrupt` when the driver says the file or a row is damaged, else :class:`StoreError`
    (busy, locked, unreachable …). The message names ``what`` was being done and the driver's own words
    (never the SQL or its parameters).

    >>> import sqlite3
    >>> import sqlalchemy as sa
    >>> damaged = sqlite3.DatabaseError("database disk image is malformed")
    >>> store_failure(sa.exc.DatabaseError("SELECT …", {}, damaged), "reading room r1")
    StoreCorrupt('reading room r1 failed: the database is damaged: database disk image is malformed')
    """
    orig = getattr(exc, "orig", None) or exc
    if is_corrupt(orig):
        return StoreCorrupt(f"{what} failed: the database is damaged: {orig}")
    return StoreError(f"{what} failed: {orig}")


def store_text(exc: BaseException) -> str:
    """A store's failure in words: a :class:`StoreError`'s message, or the driver's own (never the SQL or
    its parameters)."""
    if isinstance(exc, StoreError):
        return str(exc)
    return str(getattr(exc, "orig", None) or type(exc).__name__)


def unavailable_text(exc: BaseException) -> str:
    """The sentence of an HTTP 503 or a socket's ``store_unavailable`` error when the store fails
    (docs/protocol.md).

    >>> unavailable_text(StoreError("disk I/O error"))
    "the games' database cannot be used just now, so nothing was done (try again later): disk I/O error"
    """
    why = store_text(exc)
    if isinstance(exc, StoreUnknown):
        return (
            "the games' database stopped answering while it stored the change: whether it was made is "
            f"not known yet (look again in a moment, before trying again): {why}"
        )
    return f"the games' database cannot be used just now, so nothing was done (try again later): {why}"


__all__ = [
    "DatabaseDamaged",
    "DatabaseEmpty",
    "DatabaseMissing",
    "StoreConflict",
    "StoreCorrupt",
    "StoreError",
    "StoreGone",
    "StoreUnknown",
    "WalLost",
    "store_failure",
    "store_text",
    "unavailable_text",
]
