"""Saving a room, reading it back and catching it up: the "store" of the authority's pipeline.

:class:`Saver` writes a change before anyone is told of it (:meth:`Saver.save` a move or a new mesa, one
transaction whose cost does not grow with the mesa; :meth:`Saver.put_seats` a table's seats), each a
compare-and-set on the room's version. What the store refuses becomes the request's refusal
(:meth:`Saver.refused`, :meth:`Saver.seats_refused`): ``stale`` when another server process was first
(the room is then caught up), ``store_unavailable``, or ``outcome_unknown`` when the database stopped
answering mid-write — then the room is settled in the background once it answers
(:meth:`Saver.settle_later`), and a request that gave a seat may wait for that (:meth:`Saver.found_out`).

A room not in memory is read back from the store (:meth:`Saver.room`: its current mesa's log replayed,
checked). Catching up (:meth:`Saver.catch_up`, :meth:`Saver.refresh`, :meth:`Saver.follow`) brings a copy
in memory up to what another process stored (:mod:`.catchup`); the authority's ``caught_up`` then tells
the sockets here. The saver is given the store, the bus, the metrics, the rooms in memory and three
callbacks of the authority: a finished mesa was stored (``finished``), a room was caught up
(``caught_up``), and why a halted table refuses moves (``halt_problem``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Final

from cuarenta.errors import CuarentaError
from cuarenta.server.authority import catchup
from cuarenta.server.authority.cache import RoomCache
from cuarenta.server.authority.errors import RoomProblem, TableError
from cuarenta.server.authority.model import Room, Seat, now_text
from cuarenta.server.authority.outcomes import NewSeat, stale, unknown, unstored
from cuarenta.server.authority.ports import (
    ActionRow,
    Bus,
    FinishedRow,
    StoreConflict,
    StoreError,
    StorePort,
    StoreUnknown,
    dumps,
    hash_token,
)
from cuarenta.server.authority.rows import finished_row, read_room, room_from_row, store_problem
from cuarenta.server.authority.seats import seat_of_hash
from cuarenta.server.ops.metrics import Metrics

log = logging.getLogger("cuarenta.server")

#: A write whose outcome is unknown (:class:`StoreUnknown`) is found out by reading the room again once
#: the database answers: asked every SETTLE_RETRY_SECONDS, for SETTLE_SECONDS at most (then the 2-s sweep
#: of a cluster node, or the room's next change, finds it out).
SETTLE_SECONDS: Final = 120.0
SETTLE_RETRY_SECONDS: Final = 0.25
#: An HTTP request whose seat was answered ``outcome_unknown`` waits this long for the outcome
#: (:meth:`Saver.found_out`) before it answers so.
FIND_OUT_SECONDS: Final = 10.0


class Saver:
    """Writes a room's changes and catches a room up (module docstring)."""

    def __init__(
        self,
        *,
        store: StorePort,
        bus: Bus,
        metrics: Metrics,
        cache: RoomCache,
        finished: Callable[[Room, FinishedRow | None], None],
        caught_up: Callable[[Room], None],
        halt_problem: Callable[[Room], TableError | None],
    ) -> None:
        self.store = store
        self.bus = bus
        self.metrics = metrics
        self.cache = cache
        self.finished = finished
        self.caught_up = caught_up
        self.halt_problem = halt_problem
        self._from: dict[str, tuple[int, int]] = {}  #: room → (mesa, logged) before its last save
        #: rooms whose last write's outcome is unknown, each with the task that finds it out
        self.settling: dict[str, asyncio.Task[bool | None]] = {}

    # -- a move or a new mesa ------------------------------------------------------------------------------
    def save(self, room: Room) -> None:
        """Write a change of the room: its new actions (one log row each), its counters, and the finished
        mesa's history row once it is over — one transaction, whose cost does not grow with the mesa.
        A failed write raises :class:`StoreError` and changes nothing in the room's bookkeeping."""
        when = now_text()
        game = room.game
        actions = game.actions
        rows = [
            ActionRow(room.id, room.mesa, seq, str(actions[seq - 1]), when)
            for seq in range(room.logged + 1, len(actions) + 1)
        ]
        finished: list[FinishedRow] = []
        if game.is_over and room.recorded < room.mesa:
            try:
                finished.append(finished_row(room, when))
            except CuarentaError:  # pragma: no cover - a finished game always has a record
                log.exception("the record of room %s mesa %d cannot be written", room.id, room.mesa)
        start = time.perf_counter()
        try:
            self.store.save_room(
                room.id,
                updated=when,
                mesa=room.mesa,
                state=room.state,
                mesa_state=room.mesa_state,
                status=room.status,
                actions=rows,
                finished=finished,
                version=room.version,
            )
        except StoreConflict:
            log.info("room %s changed in another process; the change is refused as stale", room.id)
            raise
        except StoreError:
            log.exception("saving room %s failed (the change is refused)", room.id)
            raise
        finally:
            self.metrics.store_write_seconds.observe(time.perf_counter() - start)
        before = (room.mesa, room.logged)
        room.version += 1
        room.logged = len(actions)
        if before[0] == room.mesa and before[1] <= room.logged:
            self._from[room.id] = before
        else:
            self._from.pop(room.id, None)
        if game.is_over:
            room.recorded = room.mesa
            self.finished(room, finished[0] if finished else None)

    def appended(self, room: Room) -> tuple[int, int] | None:
        """What the room's last :meth:`save` appended to (its mesa and logged actions before it), once:
        the bus's notice to the other processes (``None``: they read the room)."""
        return self._from.pop(room.id, None)

    def refused(self, room: Room, exc: StoreError) -> TableError:
        """The refusal of a move or a new mesa the store did not take (the caller has undone it)."""
        if isinstance(exc, StoreConflict):
            self.catch_up(room)
            return self.halt_problem(room) or stale(room)  # another process may have halted the table
        if isinstance(exc, StoreUnknown):
            self.settle_later(room, exc)
            return unknown(exc)
        return unstored(exc)

    # -- a table's seats and options -------------------------------------------------------------------------
    def store_seats(self, room: Room, *, seed: bool = False, options: bool = False) -> None:
        """Write the table's seats and counters (and, with ``seed``, the room's seed: the start deals
        anew; with ``options``, its :class:`~.model.TableOptions`): a compare-and-set on its version
        (:class:`StoreConflict` if another process was first)."""
        self.store.save_seats(
            room.id,
            updated=now_text(),
            started=room.started,
            status=room.status,
            state=room.state,
            mesa_state=room.mesa_state,
            seats=[s.to_row() for s in room.seats],
            version=room.version,
            seed=dumps(room.seed) if seed else None,
            table_options=room.table.to_json() if options and room.table is not None else None,
        )
        room.version += 1
        self.bus.stored(room, None)

    def put_seats(
        self,
        room: Room,
        new: dict[int, Seat],
        what: str = "the change could not be stored, so it was not made",
    ) -> None:
        """Give the room the seats ``new`` (by seat number) and store them before anyone is told; if the
        store refuses, the seats are put back as they were and its refusal raised (:meth:`seats_refused`)."""
        before = {i: room.seats[i] for i in new}
        for i, s in new.items():
            room.seats[i] = s
        try:
            self.store_seats(room)
        except StoreError as exc:
            for i, s in before.items():
                room.seats[i] = s
            raise self.seats_refused(room, exc, what) from None

    def seats_refused(self, room: Room, exc: StoreError, what: str) -> TableError:
        """The refusal of a change of seats the store did not take (the caller has undone it): ``stale``
        when another server process changed the table first (reloaded here), else ``store_unavailable``."""
        if isinstance(exc, StoreConflict):
            self.catch_up(room)
            return TableError("stale", "the table changed meanwhile (someone else was quicker): look again")
        if isinstance(exc, StoreUnknown):
            self.settle_later(room, exc)
            return unknown(exc)
        return unstored(exc, what)

    # -- a write whose outcome is unknown --------------------------------------------------------------------
    def settle_later(self, room: Room, exc: StoreUnknown) -> None:
        """A write of ``room`` may or may not have been stored (``exc``; the copy in memory was put back as
        it was before it): find it out once the database answers — make the outcome final, read the room
        again, catch up, tell its sockets and the other processes (:meth:`_settle`). One task per room."""
        task = self.settling.get(room.id)
        if task is not None and not task.done():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (a script driving the authority): the next read finds it out
            return
        self.settling[room.id] = loop.create_task(self._settle(room, exc), name=f"settle-{room.id}")

    async def found_out(self, exc: TableError, *, seconds: float = FIND_OUT_SECONDS) -> NewSeat:
        """A request that gives a seat (a join, a seat taken back) answered ``outcome_unknown``: wait up to
        ``seconds`` while the room is settled (:meth:`settle_later`), then the seat if its write was stored
        (its token holds it); else ``store_unavailable`` when it was not (it is known now), or ``exc``
        again while it is still unknown."""
        seat = exc.pending
        if exc.code != "outcome_unknown" or not isinstance(seat, NewSeat):
            raise exc
        task = self.settling.get(seat.room)
        if task is None:
            raise exc
        done, _ = await asyncio.wait({task}, timeout=seconds)
        if not done or task.cancelled() or task.exception() is not None or task.result() is None:
            raise exc
        room = self.cache.find(seat.room)
        if room is not None and seat_of_hash(room.seats, hash_token(seat.token)) is not None:
            return seat
        raise unstored(StoreError("the database stopped answering while it had the change, and dropped it"))

    async def _settle(self, room: Room, exc: StoreUnknown) -> bool | None:
        """Wait (off the loop) until the database answers and the lost write's session has ended (its
        outcome is then final: ``exc.finish``), then bring the room up to what is stored: the change that
        was answered ``outcome_unknown`` is either there (everyone is told, as of any change) or not
        (nothing changes: the page asked for the state again and has it). Whether the room's version
        moved on (``None``: the database did not answer in time)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + SETTLE_SECONDS
        finish = exc.finish
        try:
            while True:
                try:
                    if finish is not None:
                        await asyncio.to_thread(finish)
                        finish = None
                    stored = await asyncio.to_thread(self.store.room_versions, [room.id])
                    break
                except StoreError:
                    if loop.time() >= deadline:
                        log.warning("room %s: the outcome of its last write is still unknown", room.id)
                        return None
                    await asyncio.sleep(SETTLE_RETRY_SECONDS)
            if stored.get(room.id, room.version) > room.version:
                log.info("room %s: a write whose outcome was unknown was stored", room.id)
                self.catch_up(room)
                self.bus.stored(room, None)  # the other processes read it too
                return True
            log.info("room %s: a write whose outcome was unknown was not stored", room.id)
            return False
        finally:
            if self.settling.get(room.id) is asyncio.current_task():
                del self.settling[room.id]

    async def close(self) -> None:
        """Stop finding out the outcome of writes (the server stops)."""
        for task in list(self.settling.values()):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    # -- reading back, catching up --------------------------------------------------------------------------
    def room(self, room_id: str) -> Room:
        """A room, up to date, loaded from the store if it is not in memory (after a restart, evicted, or
        on a cluster node that does not follow it: then compared with the store first)."""
        room = self.cache.find(room_id)
        if room is not None:
            if not self.bus.trusts(room_id) and self.refresh(room):
                self.caught_up(room)
            self.cache.touch(room)
            return room
        try:
            found = read_room(self.store, room_id)
            if found is None:
                raise RoomProblem("unknown_room", f"there is no room {room_id!r}")
            row, actions = found
        except StoreError as exc:
            raise store_problem(room_id, exc) from None
        room = room_from_row(row, actions)
        self.cache.remember(room)
        self.bus.read(room_id)
        return room

    def catch_up(self, room: Room) -> None:
        """Bring the room up to its stored version (:meth:`refresh`) and tell its sockets if it changed; a
        room that cannot be read is logged and left as it is."""
        try:
            changed = self.refresh(room)
        except (RoomProblem, StoreError):
            log.exception("room %s could not be reloaded from the store", room.id)
            return
        if changed:
            self.caught_up(room)

    def refresh(self, room: Room) -> bool:
        """Bring a room in memory up to its stored version, written by another server process
        (:func:`.catchup.refresh`); whether it changed, :class:`RoomProblem` if it is gone or unreadable."""
        self.bus.read(room.id)
        return catchup.refresh(self.store, room)

    def follow(
        self, room: Room, *, version: int, mesa: int, after: int, state: int, actions: list[str]
    ) -> bool:
        """Play a move stored by another process (its notice: the version it made, the actions appended
        after ``after`` of ``mesa``) on the room's copy, if it follows the copy exactly; else ``False``
        (the caller reads the store). Tells the sockets here."""
        if not catchup.follow(room, version=version, mesa=mesa, after=after, state=state, actions=actions):
            return False
        self.caught_up(room)
        return True


__all__ = ["FIND_OUT_SECONDS", "SETTLE_RETRY_SECONDS", "SETTLE_SECONDS", "Saver"]
