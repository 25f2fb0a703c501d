"""The reads a cluster node's socket joins wait for (:mod:`cuarenta.server.cluster.bus`, "Takeover").

A join whose room is not in memory (or not known to be current) waits while one reader thread reads the
room: the sockets of a dead node arrive all at once, and their reads on the event loop held every other
socket back. A socket's later requests wait behind its join, in order; every socket of a room shares the
room's one read.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cuarenta.server.authority.errors import RoomProblem, TableError
from cuarenta.server.authority.model import Connection
from cuarenta.server.authority.ports import StoreError
from cuarenta.server.authority.rows import read_room, room_from_row
from cuarenta.server.protocol import error_message

if TYPE_CHECKING:
    from cuarenta.server.authority.core import Authority


@dataclass(eq=False)
class _Pending:
    """A socket's requests that wait for a room's read: (room to read first or None, the request)."""

    queue: list[tuple[str | None, Callable[[], None]]] = field(default_factory=list)
    task: asyncio.Task[None] | None = None


class RoomReader:
    """Runs a socket's requests once the room they need is in memory and current.

    ``authority`` gives the authority whose rooms these are; ``current(room_id)`` says whether its copy
    in memory may be used without asking the database; ``checked(room_id, when)`` records when a room
    was read (or compared with the database), by :func:`time.monotonic`.
    """

    def __init__(
        self,
        authority: Callable[[], Authority],
        current: Callable[[str], bool],
        checked: Callable[[str, float], None],
    ) -> None:
        self._authority = authority
        self._current = current
        self._checked = checked
        self._joins: dict[Connection, _Pending] = {}  #: sockets whose join waits for its room's read
        #: rooms being read in the reader thread (one read for every socket of the room)
        self._loading: dict[str, asyncio.Future[tuple[float, Any]]] = {}
        #: one thread for those reads: more would take the interpreter's lock from the loop in turn
        self._executor: ThreadPoolExecutor | None = None

    def gate(self, conn: Connection, room_id: str | None, run: Callable[[], None]) -> None:
        """Run a socket's request now, or — when its room is to be read first (``room_id``: a join or a
        watch), or an earlier request of the socket waits for that — once the read is done."""
        pending = self._joins.get(conn)
        if pending is None and (room_id is None or self._current(room_id)):
            run()  # a TableError goes back to the socket handler, as in one process
            return
        if pending is None:
            pending = self._joins[conn] = _Pending()
            pending.task = asyncio.get_running_loop().create_task(self._settle(conn, pending))
        pending.queue.append((room_id, run))

    def drop(self, conn: Connection) -> None:
        """The socket closed: what it asked and still waits is dropped."""
        pending = self._joins.pop(conn, None)
        if pending is not None and pending.task is not None:
            pending.task.cancel()

    def close(self) -> None:
        """Stop the reader thread (reads under way are cancelled)."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None

    async def _settle(self, conn: Connection, pending: _Pending) -> None:
        """Run the socket's waiting requests in order, each join after its room's read."""
        metrics = self._authority().metrics
        try:
            while pending.queue:
                room_id, run = pending.queue.pop(0)
                if room_id is not None and not self._current(room_id):
                    await self.read_room(room_id)
                try:
                    run()
                except TableError as exc:
                    metrics.refused.labels(code=exc.code).inc()
                    conn.send(error_message(exc.code, exc.message, exc.reason))
                except StoreError as exc:
                    metrics.refused.labels(code="store_unavailable").inc()
                    conn.send(error_message("store_unavailable", f"the room cannot be read now: {exc}"))
        finally:
            if self._joins.get(conn) is pending:
                del self._joins[conn]

    async def read_room(self, room_id: str) -> None:
        """Read a room from the database in a thread and keep it in memory (or, if it is in memory
        already, compare its version). A failed read leaves it to the request itself, which reads
        again on the loop and says why (an unknown or damaged room), as in one process."""
        a = self._authority()
        load = self._loading.get(room_id)
        if load is None:
            room = a.room_in_memory(room_id)
            if self._executor is None:
                self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cuarenta-read")
            load = asyncio.get_running_loop().run_in_executor(
                self._executor, self._read_in_thread, room_id, room is not None
            )
            load.add_done_callback(lambda _: self._loading.pop(room_id, None))
            load.add_done_callback(lambda f: f.cancelled() or f.exception())  # read below, or by nobody
            self._loading[room_id] = load
        try:
            asked, found = await asyncio.shield(load)
        except (RoomProblem, StoreError):
            return
        room = a.room_in_memory(room_id)
        if isinstance(found, tuple):
            if room is None:
                try:
                    fresh = room_from_row(*found)  # the replay, on the loop: a fraction of a millisecond
                except RoomProblem:
                    return
                a.keep(fresh)
                self._checked(room_id, asked)
        elif room is not None:  # a version: the copy in memory is behind it, or current
            if found is not None and found > room.version:
                a.catch_up(room)
            self._checked(room_id, asked)

    def _read_in_thread(self, room_id: str, version_only: bool) -> tuple[float, Any]:
        """(In the reader thread.) When the read began, and the room's row and log — or, for a room in
        memory, its stored version only."""
        store = self._authority().store
        began = time.monotonic()
        if version_only:
            return began, store.room_versions([room_id]).get(room_id)
        found = read_room(store, room_id)
        if found is None:
            raise RoomProblem("unknown_room", f"there is no room {room_id!r}")
        return began, found


__all__ = ["RoomReader"]
