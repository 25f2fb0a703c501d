"""The tables of a championship played online: every running partida of the current round gets one
(:meth:`PartidaTables.ensure`, a few at a time off the event loop's back with
:meth:`PartidaTables.ensure_async`), its paused flag follows the judge's decisions, and on load a table
whose mesa ended before its report was stored is found (:meth:`PartidaTables.unreported`).

>>> OPENING_SLICE_SECONDS
0.01
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterator
from typing import Final

from cuarenta.championship.model import Partida
from cuarenta.server.authority.core import Authority
from cuarenta.server.authority.errors import TableError
from cuarenta.server.authority.model import Room, now_text
from cuarenta.server.authority.policy import TablePolicy
from cuarenta.server.championships.loaded import Loaded, pause_reason
from cuarenta.server.store import Store, StoreError
from cuarenta.server.store import championships as cstore

log = logging.getLogger("cuarenta.server")

#: The longest the event loop is held opening a round's tables before it answers others (seconds).
OPENING_SLICE_SECONDS: Final = 0.01


class PartidaTables:
    """The authority's tables of the partidas: opened with the championship's ``policy``, mapped in the
    store (one table a partida, whichever process opens it first)."""

    def __init__(self, authority: Authority, store: Store, policy: TablePolicy) -> None:
        self.authority = authority
        self.store = store
        self.policy = policy

    def ensure(self, loaded: Loaded, sync: set[str | None] | None = None) -> None:
        """Online: every running partida of the current round gets a table if it has none (also after a
        crash between storing an action and opening its tables); the tables' paused flags follow the
        partidas of ``sync`` (those an action just paused or resumed), or all of them (``None``: on load,
        also after a crash between a decision and its table's flag)."""
        for _ in self._steps(loaded, sync):
            pass

    async def ensure_async(self, loaded: Loaded, sync: set[str | None] | None = None) -> None:
        """:meth:`ensure`, the event loop answering others every :data:`OPENING_SLICE_SECONDS`."""
        began = time.monotonic()
        for _ in self._steps(loaded, sync):
            if time.monotonic() - began > OPENING_SLICE_SECONDS:
                await asyncio.sleep(0)
                began = time.monotonic()

    def _steps(self, loaded: Loaded, sync: set[str | None] | None) -> Iterator[None]:
        """The work of :meth:`ensure`, a step per table opened."""
        champ = loaded.champ
        if champ.settings.venue != "online" or not champ.rounds:
            return
        for partida in champ.rounds[-1]:
            if not partida.is_open:
                continue
            if partida.id not in loaded.tables:
                try:
                    self._open(loaded, partida)
                except (StoreError, TableError):
                    log.exception("the table of partida %s could not be opened (retried on load)", partida.id)
                    continue
                yield
            if sync is not None and partida.id not in sync:
                continue
            room_id = loaded.tables[partida.id][0]
            try:
                if self.authority.table(room_id).paused != partida.paused:
                    self.authority.set_paused(room_id, partida.paused, pause_reason(champ, partida.id))
            except (StoreError, TableError):
                log.exception(
                    "the table of partida %s could not be paused or resumed (again on load)", partida.id
                )

    def _open(self, loaded: Loaded, partida: Partida) -> str:
        champ = loaded.champ
        seats: list[str] = []
        names: list[str] = []
        players_seen: dict[str, int] = {}
        for pid in partida.seats:
            assert pid is not None
            index = players_seen.get(pid, 0)
            players_seen[pid] = index + 1
            level = loaded.pairs.get(pid, cstore.PairRow(pid, None, None)).computer
            seats.append(level if level else "open")
            names.append(champ.pair(pid).players[index])
        room: Room
        room, _ = self.authority.open_partida(
            rules=champ.settings.rules,
            seats=seats,
            names=names,
            seed=partida.deal_seed,
            clock=champ.settings.clock,
            championship=loaded.row.id,
            partida=partida.id,
            rated=champ.settings.rated,
            policy=self.policy,
        )
        mapped = cstore.map_table(self.store, loaded.row.id, partida.id, room.id)
        if mapped != room.id:
            # another process opened the partida's table first (its copy was replayed between the action
            # and its tables): that one is the partida's; this one is held paused, never reported
            log.info("partida %s has table %s already: %s is left paused", partida.id, mapped, room.id)
            try:
                self.authority.set_paused(room.id, True)
            except TableError:  # nobody sits at it: its seats are reserved for the mapped table's
                log.exception("table %s could not be held paused", room.id)
            room = self.authority.table(mapped)
        loaded.tables[partida.id] = (room.id, now_text())
        return room.id

    def unreported(self, loaded: Loaded) -> Iterator[tuple[Partida, Room]]:
        """On load: each running partida whose mapped table's mesa is over, with that table (the process
        stopped between the table's last move and the report), read as the reports are made."""
        champ = loaded.champ
        if champ.settings.venue != "online" or not champ.rounds:
            return
        for partida in list(champ.rounds[-1]):
            mapped = loaded.tables.get(partida.id)
            if mapped is None or not champ.partida(partida.id).is_open:
                continue
            try:
                room = self.authority.table(mapped[0])
            except TableError:
                log.exception("the table of partida %s could not be read", partida.id)
                continue
            if room.game.is_over:
                yield champ.partida(partida.id), room

    def tell_replaced(self, replaced: str | None) -> None:
        """A table a restart stopped with its decision: its people learn it once the new table is open."""
        if replaced is not None:
            self.authority.table_rewritten(replaced)


__all__ = ["OPENING_SLICE_SECONDS", "PartidaTables"]
