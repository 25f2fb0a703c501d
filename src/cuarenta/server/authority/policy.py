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

from collections.abc import Callable
from dataclasses import dataclass

from cuarenta.server.authority.model import Room, TableOptions
from cuarenta.server.authority.ports import FinishedRow, Ratings

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

    def add(self, rule: PolicyRule) -> None:
        """Recognise more tables: ``rule`` returns the policy of a table it knows, else ``None``."""
        self._rules.append(rule)

    def remove(self, rule: PolicyRule) -> None:
        """Stop recognising the tables of ``rule`` (a service that stops)."""
        self._rules.remove(rule)

    def __call__(self, options: TableOptions) -> TablePolicy:
        for rule in self._rules:
            found = rule(options)
            if found is not None:
                return found
        return self.default


__all__ = ["FinishedHook", "PolicyRule", "TablePolicies", "TablePolicy"]
