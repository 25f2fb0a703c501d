"""The computer players of one process: paced moves thought in a pool (:mod:`cuarenta.server.thinking`).

:class:`LocalScheduler` is the :class:`~cuarenta.server.authority.ports.Scheduler` of a single server:
when a computer is to move in a room it runs the room's task, which pauses (the room's pace), asks the
authority for the seat's choice (:func:`think`: thought from the seat's view only) and plays it through
the authority's public API, until a person is to move. A cluster gives its nodes a scheduler that enqueues
jobs for the workers instead (:mod:`cuarenta.server.cluster.jobs`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Final

from cuarenta.moves import Action
from cuarenta.server.authority.errors import TableError
from cuarenta.server.authority.model import Room
from cuarenta.server.thinking import Thinking, ThinkingError, ThinkRequest

if TYPE_CHECKING:
    from cuarenta.server.authority.core import Authority

log = logging.getLogger("cuarenta.server")

#: Seconds a computer player waits before trying again when its move could not be stored.
STORE_RETRY_SECONDS: Final = 1.0


async def think(thinking: Thinking, room: Room, seat: int, level: str) -> Action:
    """The action the computer player of ``level`` chooses for ``seat`` (whose turn it is), thought in
    ``thinking`` from the seat's view only; the first legal action if the player fails."""
    request = ThinkRequest.for_seat(room.game, room=room.id, mesa=room.mesa, seat=seat, level=level)
    legal = room.game.legal_moves()
    try:
        text = await thinking.choose(request)
    except ThinkingError:
        log.exception("the computer player at seat %d of room %s failed", seat, room.id)
        text = request.legal[0]
    try:
        return legal[request.legal.index(text)]
    except ValueError:
        log.error("computer player %s chose %r, which is not legal; playing %s", level, text, legal[0])
        return legal[0]


class LocalScheduler:
    """Play the computer's turns in this process (module docstring)."""

    def __init__(self) -> None:
        self.authority: Authority | None = None

    def bind(self, authority: Authority) -> None:
        self.authority = authority

    def busy(self, room: Room) -> bool:
        task = room.bot_task
        return task is not None and not task.done()

    def kick(self, room: Room) -> None:
        """Make sure the computer players of a room are running if one of them is to move."""
        if room.computer_to_move() is None:
            return
        loop = asyncio.get_running_loop()
        task = room.bot_task
        if task is not None and not task.done() and room.bot_loop is loop:
            return
        room.bot_loop = loop
        room.bot_task = loop.create_task(self._run(room), name=f"bots-{room.id}")

    async def _run(self, room: Room) -> None:
        """Play the computer seats' turns, one paced move at a time, until a person is to move. An answer
        that arrives after the room changed (its state counter moved on) is dropped and the seat thinks
        again about the new position."""
        authority = self.authority
        assert authority is not None
        while True:
            seat = room.computer_to_move()
            if seat is None:
                return
            await self._pause(room, authority)
            state = room.state
            if room.computer_to_move() != seat:
                continue
            level = room.plays_for(seat)  # a computer seat's level, or who stands in for a person
            assert level is not None
            action = await authority.choose(room, seat, level)
            if room.state != state or room.computer_to_move() != seat:
                continue  # the room changed while the player thought: drop the answer, think again
            try:
                authority.apply(room, action, by="computer")
            except TableError as exc:
                if exc.code == "stale":  # another process changed the room: think about the new state
                    continue
                if exc.code not in ("store_unavailable", "outcome_unknown"):  # pragma: no cover
                    log.exception("the engine refused the computer's move %s in room %s", action, room.id)
                    return
                # not stored (or perhaps stored: the room is read again once the database answers, and
                # the state tells): think again soon
                await asyncio.sleep(STORE_RETRY_SECONDS)

    @staticmethod
    async def _pause(room: Room, authority: Authority) -> None:
        """Wait before a computer move: the pause of the room's pace from now. A change of pace during the
        wait applies at once (a faster pace may end it, a slower one lengthens it)."""
        loop = asyncio.get_running_loop()
        start = loop.time()
        await asyncio.sleep(0)
        changed = room.pace_changed = asyncio.Event()  # one per pause: made on the loop that waits
        try:
            while (left := start + authority.pace_delay(room.pace) - loop.time()) > 0:
                changed.clear()
                try:
                    async with asyncio.timeout(left):
                        await changed.wait()
                except TimeoutError:
                    return
        finally:
            if room.pace_changed is changed:
                room.pace_changed = None

    async def close(self) -> None:
        """Stop every computer player of this process."""
        authority = self.authority
        if authority is None:
            return
        tasks = [r.bot_task for r in authority.rooms_in_memory() if r.bot_task is not None]
        for task in tasks:
            if not task.done():
                task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, RuntimeError):
                await task


__all__ = ["STORE_RETRY_SECONDS", "LocalScheduler"]
