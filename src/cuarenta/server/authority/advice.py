"""The computer's advice to a person (docs/protocol.md "Advice"): on its turn, in a game against the
computer, a seat may ask what the strongest computer player (:data:`ADVICE_LEVEL`) would play.

The advice is thought where the computer players think (the authority's
:class:`~cuarenta.server.thinking.Thinking`: worker processes on a server, the page's worker on the
device), never on the event loop, from the seat's view only
(:meth:`~cuarenta.server.thinking.ThinkRequest.for_seat`: nothing the seat could not see at the table),
with the seat's own seed: the same position is given the same advice. It is sent to the asking socket
alone, and only if the table has not moved on while the computer thought.

At a table with friends (rated or not) or in a championship it is refused (``no_advice``): a person
there plays other people, who have no such help.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from typing import Final

from cuarenta.server.authority.errors import TableError
from cuarenta.server.authority.messages import advice_message, error_frame
from cuarenta.server.authority.model import Connection, Room
from cuarenta.server.authority.requests import AdviceRequest
from cuarenta.server.thinking import Thinking, ThinkingError, ThinkRequest

log = logging.getLogger("cuarenta.server")

#: The computer player whose judgement the advice is (the strongest level a person can choose).
ADVICE_LEVEL: Final = "experto"


def advice_problem(room: Room, seat: int, state: int) -> TableError | None:
    """Why the seat may not be advised at ``state`` now, or ``None``: a table (``no_advice``), a finished
    mesa (``game_over``), a state that is not the table's (``stale``), another seat's turn
    (``not_your_turn``)."""
    if room.table is not None:
        return TableError(
            "no_advice",
            "the computer's advice is for games against the computer: at a table with friends or in a "
            "championship each person plays on their own",
        )
    if room.game.is_over:
        return TableError("game_over", "the mesa is over: there is no move to advise (send next)")
    if state != room.state:
        return TableError(
            "stale", f"advice was asked for state {state}, but the table has changed: it is at {room.state}"
        )
    if room.game.turn != seat:
        return TableError("not_your_turn", f"it is seat {room.game.turn}'s turn, not seat {seat}'s")
    return None


def advice_request(room: Room, seat: int, level: str = ADVICE_LEVEL) -> ThinkRequest:
    """The question put to the computer player for ``seat``: the seat's view only, and a seed of the
    position's own (the room's secret seed, the seat, the state), so that the same position is given the
    same advice whatever was asked before."""
    request = ThinkRequest.for_seat(room.game, room=room.id, mesa=room.mesa, seat=seat, level=level)
    return dataclasses.replace(request, seed=f"{request.seed}/advice/{room.state}")


class Advisor:
    """The advice of one authority: one question thought at a time per socket (a new question about a
    later state replaces an older one; the same question again is not thought twice)."""

    def __init__(self, thinking: Thinking, level: str = ADVICE_LEVEL) -> None:
        self.thinking = thinking
        self.level = level
        self._asked: dict[Connection, tuple[int, asyncio.Task[None]]] = {}

    def ask(self, conn: Connection, message: AdviceRequest) -> None:
        """A socket's question: refused with a :class:`TableError` (nothing changes), or thought about in
        the background; its answer is an ``advice`` message on ``conn``."""
        room, seat = conn.room, conn.seat
        if room is None or seat is None:
            raise TableError("not_joined", "send join with your room and token first")
        problem = advice_problem(room, seat, message.state)
        if problem is not None:
            raise problem
        asked = self._asked.get(conn)
        if asked is not None and not asked[1].done():
            if asked[0] == room.state:
                return  # thought about already: its answer is on the way
            asked[1].cancel()
        task = asyncio.get_running_loop().create_task(
            self._advise(conn, room, seat, room.state), name=f"advice-{room.id}-{seat}"
        )
        self._asked[conn] = (room.state, task)
        task.add_done_callback(lambda done: self._done(conn, done))

    async def _advise(self, conn: Connection, room: Room, seat: int, state: int) -> None:
        request = advice_request(room, seat, self.level)
        try:
            move = await self.thinking.choose(request)
        except ThinkingError:
            log.exception("the advice for seat %d of room %s failed", seat, room.id)
            if conn.room is room and conn.seat == seat:
                conn.send(advice_failed())
            return
        if room.state != state or conn.room is not room or conn.seat != seat:
            return  # the table moved on (or the socket left): the question is moot
        if move not in request.legal:  # pragma: no cover - a worker answers a legal action or fails
            log.error("the advice %r for room %s is not legal", move, room.id)
            return
        conn.send(advice_message(room=room.id, state=state, move=move, level=self.level))

    def _done(self, conn: Connection, task: asyncio.Task[None]) -> None:
        asked = self._asked.get(conn)
        if asked is not None and asked[1] is task:
            del self._asked[conn]
        if not task.cancelled() and task.exception() is not None:  # pragma: no cover - logged, not raised
            log.error("the advice task failed", exc_info=task.exception())

    def pending(self) -> int:
        """Questions being thought about now."""
        return sum(1 for _, task in self._asked.values() if not task.done())

    async def close(self) -> None:
        """Stop thinking about every question (their sockets are told nothing)."""
        tasks = [task for _, task in self._asked.values()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._asked.clear()


def advice_failed() -> dict[str, object]:
    """The error frame of an advice the computer could not think about (``advice_failed``)."""
    return error_frame("advice_failed", "the computer could not think about the advice: ask again")


__all__ = ["ADVICE_LEVEL", "Advisor", "advice_failed", "advice_problem", "advice_request"]
