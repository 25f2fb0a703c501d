"""The rematch rule of a table (docs/tables.md): one rule, on one process and in a cluster.

A vote counts from a person present at the table (a socket holds the seat, here or on another node);
another mesa starts once at least one person is present and every present person has agreed. An away
person does not block the others: the rule is asked again whenever a vote arrives *or a person goes away
or leaves*, so a table whose last holdout closed the page starts the mesa the others asked for.

>>> from cuarenta.server.authority.model import Seat
>>> class Table:  # the facts the rule reads: the seats, who is connected, the votes
...     seats = [Seat(0, "person"), Seat(1, "person")]
...     rematch = {0}
...     def connected(self, seat): return seat in self.here
>>> table = Table(); table.here = {0, 1}
>>> due(table)
False
>>> table.here = {0}  # seat 1 closed the page
>>> due(table)
True
>>> table.here = set()  # nobody at the table: nothing starts
>>> due(table)
False
"""

from __future__ import annotations

from typing import Protocol

from cuarenta.server.authority.model import Seat


class Voters(Protocol):
    """What the rule reads of a room."""

    @property
    def seats(self) -> list[Seat]: ...

    @property
    def rematch(self) -> set[int]: ...

    def connected(self, seat: int) -> bool: ...


def present(room: Voters) -> set[int]:
    """The seats of people present at the table (a socket holds them somewhere)."""
    return {s.seat for s in room.seats if s.kind == "person" and room.connected(s.seat)}


def may_vote(room: Voters, seat: int) -> bool:
    """Whether ``seat``'s vote counts: a person's, present at the table."""
    return seat in present(room)


def due(room: Voters) -> bool:
    """Whether another mesa starts now: someone is present and every present person agreed."""
    here = present(room)
    return bool(here) and here <= room.rematch


__all__ = ["due", "may_vote", "present"]
