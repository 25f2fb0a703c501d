"""A table's policy: what the service that made a table decides about it, given when the table is made.

The authority runs every table by the same rules; what differs from one kind of table to another is its
:class:`TablePolicy`: may it rematch, who rates its finished mesas (if its options say it is rated), is it
run by a judge (no creator; the judge may pause it), are its seats reserved for named people (taken only
through :meth:`~.seating.Seating.sit_reserved`), does it keep the deal seed it was given, and who hears
that a mesa of it finished. The authority branches on the policy, never on who made the table.

A policy must survive the room leaving memory: the authority derives it again when it reads a table back,
from the table's stored options, with the :class:`TablePolicies` it was given (the wiring builds it; a
service registers how to recognise its own tables with :meth:`TablePolicies.add`).

>>> from cuarenta.server.authority.model import TableOptions
>>> policies = TablePolicies()
>>> policies.add(lambda options: TablePolicy(rematch=False) if options.partida else None)
>>> policies(TableOptions(invite="x", creator=0, level="normal", grace=60.0)).rematch
True
>>> policies(TableOptions(invite="x", creator=0, level="normal", grace=60.0, partida="r1t1")).rematch
False
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from cuarenta.server.authority.model import Room, TableOptions
from cuarenta.server.authority.ports import FinishedRow, Ratings

log = logging.getLogger("cuarenta.server")

#: Who hears that a table's mesa finished (stored): the room and its finished row.
FinishedHook = Callable[[Room, FinishedRow], None]
#: How a service recognises its own tables from their stored options: their policy, or ``None``.
PolicyRule = Callable[[TableOptions], "TablePolicy | None"]


@dataclass(frozen=True)
class TablePolicy:
    """What a table may do and who hears of it (module docstring). The default is a table with friends:
    it rematches, it has a creator, anyone with the invite takes its open seats, it deals anew when it
    starts, and it is rated by nobody until the wiring says who (``rated_by``)."""

    #: may its people agree to another mesa (``rematch``); else a mesa is all it plays
    rematch: bool = True
    #: who rates a finished mesa of a table whose options say it is rated (``None``: nobody here)
    rated_by: Ratings | None = None
    #: run by a judge: no creator (``judge_runs_table``), and the judge may pause it
    judged: bool = False
    #: its seats are reserved for named people: the invite takes none (``championship_seat``)
    reserved: bool = False
    #: it deals from the seed it was made with (a draw shared with twin tables), not a new one at the start
    keeps_seed: bool = False
    #: told of each finished mesa once it is stored (never stops play)
    on_finished: FinishedHook | None = None


class TablePolicies:
    """The policy of each table from its stored options: the first registered rule that recognises the
    table, else :attr:`default`."""

    def __init__(self, default: TablePolicy | None = None) -> None:
        self.default = TablePolicy() if default is None else default
        self._rules: list[PolicyRule] = []
        self._given: dict[str, TablePolicy] = {}  #: the policy of each table in memory, by room id

    def add(self, rule: PolicyRule) -> None:
        """Recognise more tables: ``rule`` returns the policy of a table it knows, else ``None``."""
        self._rules.append(rule)

    def remove(self, rule: PolicyRule) -> None:
        """Stop recognising the tables of ``rule`` (a service that stops)."""
        self._rules.remove(rule)

    def of(self, room: Room) -> TablePolicy:
        """The policy of ``room``'s table: the one it was given (:meth:`give`), else derived from its
        stored options (and kept until it leaves memory: :meth:`forget`); a room against the computer has
        the default one."""
        if room.table is None:
            return self.default
        found = self._given.get(room.id)
        if found is None:
            found = self._given[room.id] = self(room.table)
        return found

    def give(self, room: Room, policy: TablePolicy) -> None:
        """``room``'s table has ``policy`` (given when it is made)."""
        self._given[room.id] = policy

    def forget(self, room_id: str) -> None:
        """The room left memory: its policy is derived again when it is read back."""
        self._given.pop(room_id, None)

    def finished(self, room: Room, row: FinishedRow | None) -> None:
        """A finished mesa of ``room`` is stored (``row``): a rated table is rated by whom its policy
        names (``rated_by``), then its policy's ``on_finished`` is told (never stopping play)."""
        if room.table is None or row is None:
            return
        policy = self.of(room)
        if room.table.rated and policy.rated_by is not None:
            policy.rated_by.finished(room, row)
        if policy.on_finished is not None:
            try:
                policy.on_finished(room, row)
            except Exception:  # a service's hook never stops the game
                log.exception("a finished-mesa hook failed for room %s mesa %d", room.id, room.mesa)

    def __call__(self, options: TableOptions) -> TablePolicy:
        """The policy of a table with the stored ``options``."""
        for rule in self._rules:
            found = rule(options)
            if found is not None:
                return found
        return self.default


__all__ = ["FinishedHook", "PolicyRule", "TablePolicies", "TablePolicy"]
