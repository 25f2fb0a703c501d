"""A table's life after it is opened: its start, a judge's pause, a rewrite by its service, a halt.

:class:`TableLife` starts a waiting table (:meth:`TableLife.start`: its open seats become computer
players and it deals — anew, unless its policy keeps the seed it was given), pauses or resumes a judged
table (:meth:`TableLife.set_paused`: a compare-and-set of its stored options, tried again on the stored
version), follows a table its service rewrote in the store (:meth:`TableLife.rewritten`), and says why a
halted table refuses moves (:func:`halt_problem`). What it asks of the authority is
:class:`~.tablework.TableHost`.
"""

from __future__ import annotations

import dataclasses
import logging
import secrets
from typing import Any, Final

from cuarenta.game import Game
from cuarenta.server.authority import clock, computer_names
from cuarenta.server.authority.errors import RoomProblem, TableError
from cuarenta.server.authority.model import Room, Seat, mesa_seed
from cuarenta.server.authority.outcomes import stale, unstored
from cuarenta.server.authority.ports import StoreConflict, StoreError
from cuarenta.server.authority.tablework import TableHost, TablePart

log = logging.getLogger("cuarenta.server")

#: How many times a change of a table's options is tried again on the stored version when another server
#: process changed the room first (a move: the judge's pause waits for nothing).
TABLE_WRITE_TRIES: Final = 5


#: What a table's life asks of the authority (the table collaborators' one host).
LifeHost = TableHost


class TableLife(TablePart):
    """A table's start, pause and rewrite (module docstring). ``wall`` is the clock of the graces."""

    def start(self, room: Room) -> None:
        """Start a waiting table (open seats become computer players), stored before anyone is told."""
        assert room.table is not None
        seats = [dataclasses.replace(s) for s in room.seats]
        before = (seats, room.state, room.mesa_state, room.seed, room.game)
        for i, s in enumerate(room.seats):
            if s.kind == "open":
                room.seats[i] = Seat(i, "computer", "", room.table.level)
        room.seats = computer_names.named(room.id, room.seats)  # each new computer gets its name
        # The cards are dealt now, from a seed nobody has had a glimpse of: whatever a waiting seat could
        # have learnt (nothing is sent to it, and a seat may be taken, left and taken again) says nothing
        # of the hands that are played. A table whose policy keeps its seed (a championship's: the deal is
        # the championship's, a secret derived by the library; duplicate twin tables must hold the same
        # cards) is safe too: its seats are reserved (only their person takes them, through the service
        # that made it), and a waiting seat is sent no card, so nobody can look and leave.
        if not self.host.policy(room).keeps_seed:
            room.seed = secrets.randbelow(2**63)
        room.game = Game.new(room.rules, mesa_seed(room.seed, room.mesa))
        room.started = True
        room.state += 1
        room.mesa_state = room.state
        try:
            self.saver.store_seats(room, seed=True)
        except StoreError as exc:
            room.seats, room.state, room.mesa_state, room.seed, room.game = before
            room.started = False
            raise self.saver.seats_refused(
                room, exc, "the change could not be stored, so it was not made"
            ) from None
        clock.grace_at_start(room, now=self.wall())
        self.host.changed(room)

    def set_paused(self, room_id: str, paused: bool, reason: str | None = None) -> Room:
        """Pause or resume a judged table (its judge's decision, stored by the service that runs it
        first), with the judge's ``reason``: stored with the room (every process and worker that reads it
        knows it). While paused, moves are refused (``paused``), no move is offered, no turn clock runs
        and the computers wait; every socket of the table is told (its ``table.paused`` and
        ``table.pause_reason``, and on resume its moves again). :class:`TableError` if it cannot be stored,
        ``not_championship`` if its policy has no judge."""
        room = self.host.table(room_id)
        if not self.host.policy(room).judged:
            raise TableError("not_championship", "this table is not a championship's: no judge pauses it")
        self.set_options(room, paused=paused, pause_reason=reason if paused else None)
        return room

    def set_options(self, room: Room, **changes: Any) -> None:
        """Change a table's stored options (``paused``, ``pause_reason``) and tell everyone: a
        compare-and-set on the room, tried again on the stored version when another process wrote first;
        ``store_unavailable`` (nothing changed) if the store cannot take it."""
        for _ in range(TABLE_WRITE_TRIES):
            before = room.table
            assert before is not None
            after = dataclasses.replace(before, **changes)
            if after == before:
                return
            room.table = after
            try:
                self.saver.store_seats(room, options=True)
            except StoreConflict:  # another process changed the room first: on its version, again
                room.table = before
                self.saver.catch_up(room)
                continue
            except StoreError as exc:
                room.table = before
                raise unstored(exc) from None
            self.announcer.tell(room)  # its state (no move offered while halted), the clock, the computers
            return
        raise stale(room)

    def rewritten(self, room_id: str) -> None:
        """A table's stored row was changed by another writer on this process (a judge's restart marks a
        table ``replaced`` in the transaction of its decision): its copy here is brought up to date and
        its sockets told, and every other process with sockets at it is told too."""
        room = self.cache.find(room_id)
        try:
            if room is None:  # its sockets may be on another node: read it to tell them
                room = self.host.get(room_id)
            elif self.saver.refresh(room):
                self.host.caught_up(room)
        except (RoomProblem, StoreError):
            log.exception("table %s could not be read again after it was rewritten", room_id)
            return
        self.bus.stored(room, None)


def halt_problem(room: Room) -> TableError | None:
    """The refusal of a move at a halted table: ``table_replaced`` (a judge's restart moved its partida to
    a new table: this one is over) or ``paused`` (its judge paused it); ``None``."""
    if room.replaced:
        return TableError(
            "table_replaced",
            "the judge restarted this partida at a new table: this one is over, play on at the new one",
        )
    if room.paused:
        return TableError("paused", "the judge paused this table: wait until it is resumed")
    return None


__all__ = ["TABLE_WRITE_TRIES", "LifeHost", "TableLife", "halt_problem"]
