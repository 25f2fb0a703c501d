"""What a change of a room answers besides its new state: the seat given, and the refusals of a write.

- :class:`NewSeat`: creating, joining or taking back a seat gives the room, the seat, its secret token and
  its person's seat code;
- :func:`unstored`, :func:`unknown`, :func:`stale`: the store did not take a change (``store_unavailable``),
  it stopped answering while it did (``outcome_unknown``: the change may or may not be stored), or another
  server process changed the room first (``stale``);
- :func:`pending`: around the write that gives a seat, an ``outcome_unknown`` refusal carries the seat, so
  that the request may find out whether it was given.

>>> unstored(StoreError("disk full")).code
'store_unavailable'
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass

from cuarenta.server.authority.errors import TableError
from cuarenta.server.authority.model import Room
from cuarenta.server.authority.ports import StoreError


@dataclass(frozen=True)
class NewSeat:
    """The answer to creating, joining or taking back a seat of a table: the room, the seat, its secret
    token and its person's seat code (docs/tables.md "Taking a seat back")."""

    room: str
    seat: int
    token: str
    code: str | None = None


def unstored(exc: StoreError, what: str = "the change could not be stored, so it was not made") -> TableError:
    """``store_unavailable``: the store refused the change (nothing changed)."""
    return TableError("store_unavailable", f"{what} (try again): {exc}")


def unknown(exc: StoreError) -> TableError:
    """``outcome_unknown``: the database stopped answering while it stored the change."""
    return TableError(
        "outcome_unknown",
        "the database stopped answering while it stored the change: whether it was made is not known "
        f"yet; the table's state follows once the database answers (ask for it again): {exc}",
    )


def stale(room: Room) -> TableError:
    """``stale``: another server process changed the room first."""
    return TableError(
        "stale",
        f"the table changed meanwhile (another server was first): the current state is {room.state}",
    )


@contextlib.contextmanager
def pending(seat: NewSeat) -> Iterator[NewSeat]:
    """Around the write that gives ``seat``: an ``outcome_unknown`` refusal carries it (``pending``), so
    that the request may find out whether it was given (:meth:`.saving.Saver.found_out`)."""
    try:
        yield seat
    except TableError as exc:
        if exc.code == "outcome_unknown":
            exc.pending = seat
        raise


__all__ = ["NewSeat", "pending", "stale", "unknown", "unstored"]
