"""The announcer: what a room's sockets in this process are told after a change, and the table's timer.

:class:`Announcer` is the "tell" of the authority's pipeline (check → apply → store → tell): after a change
every socket of the room here is sent its state (:meth:`Announcer.tell`), or only the table's seats and
clock when no move happened (:meth:`Announcer.tell_table`); spectators coming and going are told at most
once a second (:meth:`Announcer.tell_watchers`); a reaction goes to every socket (:meth:`tell_reaction`).
The table's timer (:meth:`Announcer.arm`) wakes at the next grace end or turn deadline
(:mod:`.clock`), applies it and tells the table. The computer players are asked to go on (``kick``) after
each: the scheduler it is given. Telling the other processes is the bus's part, not this one's.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Final

from cuarenta.server.authority import audience, clock
from cuarenta.server.authority.messages import reaction_message, table_message
from cuarenta.server.authority.model import Room
from cuarenta.server.authority.ports import Scheduler
from cuarenta.server.authority.wire import sockets as wire
from cuarenta.server.authority.wire.messages import SharedMessage

#: Spectators coming and going are told to the table at most once in this many seconds: a ``table``
#: message with the count, not one message per spectator to every socket (issue 15).
WATCHERS_SECONDS: Final = 1.0


class Announcer:
    """Tells a room's sockets in this process (module docstring). ``wall`` is the wall clock of the
    timers (wall-clock seconds, as the wire's times)."""

    def __init__(self, scheduler: Scheduler, wall: Callable[[], float]) -> None:
        self.scheduler = scheduler
        self.wall = wall

    def tell(self, room: Room) -> None:
        """After a change: the turn clock starts for a person's new turn before anyone is told; every
        socket here is sent its state; the computer players go on; the timer is set again."""
        if room.table is not None:
            clock.turn_deadline(room, now=self.wall())
        wire.broadcast(room)
        self.scheduler.kick(room)
        if room.table is not None:
            self.arm(room)

    def kick(self, room: Room) -> None:
        """Make sure a computer's move comes if one is to move (the scheduler)."""
        self.scheduler.kick(room)

    def arm(self, room: Room) -> None:
        """(Re)start the room's timer for its next grace end or turn deadline."""
        task = room.timer_task
        if task is not None and not task.done():
            task.cancel()
        room.timer_task = None
        wake = clock.next_wake(room)
        if wake is None:
            return
        room.timer_task = asyncio.get_running_loop().create_task(
            self.timer(room, wake), name=f"timer-{room.id}"
        )

    async def timer(self, room: Room, wake: float) -> None:
        """The timer's task: at ``wake``, expire what is due (:func:`.clock.expire`), tell, arm again."""
        await asyncio.sleep(max(0.0, wake - self.wall()))
        room.timer_task = None
        if clock.expire(room, now=self.wall()):
            self.tell_table(room)
            self.scheduler.kick(room)
        self.arm(room)

    def tell_watchers(self, room: Room) -> None:
        """The number of spectators changed: tell the table within :data:`WATCHERS_SECONDS`, in one
        ``table`` message for however many came and went meanwhile."""
        if room.watchers_due is not None:
            return
        room.watchers_due = asyncio.get_running_loop().call_later(WATCHERS_SECONDS, self.tell_table, room)

    def tell_table(self, room: Room) -> None:
        """Send every socket of the table here its seats and clock (no move happened)."""
        if room.watchers_due is not None:
            room.watchers_due.cancel()
            room.watchers_due = None
        info = audience.table_info(room)
        if info is None:
            return
        message = SharedMessage(  # encoded once for the table, once more for its version-2 sockets
            table_message(room=room.id, status=room.status, seats=audience.public_seats(room), table=info)
        )
        wire.told_table(room, message)
        for c in list(room.connections):
            c.send(message)

    @staticmethod
    async def stop(rooms: list[Room]) -> None:
        """Stop the timers of ``rooms`` (the server stops)."""
        timers = [r.timer_task for r in rooms if r.timer_task is not None]
        for task in timers:
            if not task.done():
                task.cancel()
        for task in timers:
            with contextlib.suppress(asyncio.CancelledError, RuntimeError):
                await task

    @staticmethod
    def tell_reaction(room: Room, seat: int, saying: str) -> None:
        """Send a reaction to the sockets of the room in this process."""
        message = SharedMessage(reaction_message(seat, saying))  # encoded once for the room
        for c in list(room.connections):
            c.send(message)


__all__ = ["WATCHERS_SECONDS", "Announcer"]
