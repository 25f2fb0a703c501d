"""A table someone sits at always goes on (issue 25, item 17): at every turn either the person to move is
at the table, or the computer is asked to move, or a timer will bring it in.

A table read back from the store — after a server restart, after it left memory while everyone was away,
or on a cluster node it was handed back to — kept nothing of its presence (who was away, since when, who
the computer stood in for: memory only). A person who was not at the table then got no grace and no
stand-in, and on their turn nobody was asked to move: the people there had no legal move, no timer ran and
no computer thought, for as long as that person stayed away. Likewise a person handed their seat back
on their own turn had no turn clock for it.

These run the authority itself on a real SQLite store, with the computers thinking on the event loop
(``InlineThinking``) and no pause: every step is deterministic.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cuarenta import Rules
from cuarenta.server.authority.model import Connection, Room
from cuarenta.server.authority.requests import Join, Move
from cuarenta.server.store import Store
from cuarenta.server.thinking import InlineThinking
from cuarenta.server.wiring import TableRooms

#: Loop turns a test lets the authority run before it says the table stands still (each turn lets the
#: timers and the computers' task take a step; a computer move needs a handful).
SETTLE_TURNS = 400


def authority(store: Store) -> TableRooms:
    return TableRooms(store, bot_delay=0, thinking=InlineThinking())


async def settle(until: Callable[[], bool]) -> bool:
    """Let the loop run until ``until()`` holds, at most :data:`SETTLE_TURNS` short sleeps."""
    for _ in range(SETTLE_TURNS):
        if until():
            return True
        await asyncio.sleep(0.001)
    return until()


def moving(room: Room) -> str | None:
    """Who will make the next move of ``room`` — ``"person"`` (at the table, with legal moves),
    ``"computer"`` (its task is running), ``"timer"`` (a grace or the turn clock will bring the computer
    in) — or ``None``: nobody, the table stands still."""
    turn = room.game.turn
    seat = room.seats[turn]
    if seat.kind == "person" and room.connected(turn):
        return "person"
    task = room.bot_task
    if room.computer_to_move() == turn and task is not None and not task.done():
        return "computer"
    timer = room.timer_task
    if timer is not None and not timer.done():
        return "timer"
    return None


class Table:
    """A table of three people (seats 0, 1, 2) and a ``facil`` computer (seat 3) on ``store``."""

    def __init__(self, store: Store, *, grace: float, clock: int | None = None) -> None:
        self.store = store
        self.rooms = authority(store)
        room, made, invite = self.rooms.create_table(
            rules=Rules.preset("a_todo_rigor", players=4),
            name="Ana",
            seats=["friend", "friend", "facil"],
            level="facil",
            grace=grace,
            clock=clock,
        )
        self.id = room.id
        self.tokens = {0: made.token}
        for name in ("Beto", "Carla"):
            seat = self.rooms.join_table(room.id, invite=invite, name=name)
            self.tokens[seat.seat] = seat.token
        self.sockets: dict[int, Connection] = {}

    @property
    def room(self) -> Room:
        found = self.rooms.room_in_memory(self.id)
        assert found is not None
        return found

    def join(self, seat: int) -> None:
        conn = Connection()
        self.rooms.join(conn, Join(self.id, self.tokens[seat], v=2))
        assert conn.room is not None, f"seat {seat} could not join"
        self.sockets[seat] = conn

    def drop(self, seat: int) -> None:
        self.rooms.leave(self.sockets.pop(seat))

    def move(self, seat: int) -> None:
        room = self.room
        self.rooms.move(self.sockets[seat], Move(str(room.game.legal_moves()[0]), room.state))

    async def play_until_turn_of(self, seat: int) -> None:
        """The people at the table play their first legal move until it is ``seat``'s turn."""
        room = self.room
        for _ in range(200):
            assert await settle(lambda: room.game.turn == seat or moving(room) == "person"), "it stands still"
            if room.game.turn == seat:
                return
            self.move(room.game.turn)
        raise AssertionError(f"seat {seat}'s turn never came")

    async def restart(self) -> None:
        """The server restarts: every socket goes, the rooms are read again from the store."""
        await self.rooms.close()
        self.sockets.clear()
        self.rooms = authority(self.store)


async def read_back(table: Table, how: str) -> None:
    """Everyone leaves; the table is read back from the store (``how``: a restart, or it left memory)."""
    for seat in list(table.sockets):
        table.drop(seat)
    if how == "restart":
        await table.restart()
    else:  # nobody at it, nothing running: it leaves memory once idle
        rooms = table.rooms
        assert await settle(lambda: not rooms.in_use(table.room))
        rooms.idle_seconds, before = 1e-9, rooms.idle_seconds
        assert rooms.evict() == 1 and rooms.room_in_memory(table.id) is None
        rooms.idle_seconds = before


@pytest.mark.parametrize("how", ["restart", "evicted"])
def test_a_table_read_back_from_the_store_goes_on_for_the_person_who_is_not_back(
    tmp_path: Path, how: str
) -> None:
    """Beto's turn; everyone leaves; the table is read back from the store; Ana comes back, Beto does
    not. Beto gets the grace from Ana's return and then the computer plays for him (before: nobody was
    asked to move, and the table stood still for as long as Beto stayed away)."""

    async def run() -> None:
        table = Table(Store(f"sqlite:///{tmp_path / 'games.sqlite3'}"), grace=0.05)
        try:
            for seat in (0, 1, 2):
                table.join(seat)
            await table.play_until_turn_of(1)
            state = table.room.state
            await read_back(table, how)
            table.join(0)  # Ana is back; Beto and Carla are not
            room = table.room
            assert room.game.turn == 1 and room.state == state
            assert moving(room) is not None, f"nobody will move: {room.seats[1]}"
            assert room.seats[1].away_until is not None  # Beto's grace runs from Ana's return
            assert await settle(lambda: room.state > state), "the table stood still on Beto's turn"
            assert room.seats[1].stand_in and room.seats[2].stand_in
            assert room.seats[0].away_until is None and not room.seats[0].stand_in
        finally:
            await table.rooms.close()

    asyncio.run(run())


def test_a_person_handed_their_seat_back_on_their_turn_gets_the_turn_clock(tmp_path: Path) -> None:
    """Beto drops; his grace ends and the computer stands in for him. His turn comes: no turn clock runs
    for a turn the computer plays, and it thinks. Beto comes back before it has played: the turn is his
    again, and so is its clock (before: no clock ran for that turn, so a person who then idled held the
    table for ever although it has a clock)."""

    async def run() -> None:
        table = Table(Store(f"sqlite:///{tmp_path / 'games.sqlite3'}"), grace=0.05, clock=30)
        go = asyncio.Event()

        class Slow(InlineThinking):  # the computer standing in for Beto thinks until told
            async def choose(self, request: Any) -> str:
                if request.seat == 1:
                    await go.wait()
                return await super().choose(request)

        try:
            table.rooms.thinking = Slow()
            for seat in (0, 1, 2):
                table.join(seat)
            room = table.room
            table.drop(1)
            assert await settle(lambda: room.seats[1].stand_in)
            await table.play_until_turn_of(1)
            state = room.state
            assert await settle(lambda: moving(room) == "computer")  # standing in for Beto, thinking
            assert room.deadline is None or room.deadline[0] != state
            table.join(1)  # the seat is handed back on Beto's turn
            go.set()
            assert await settle(lambda: room.bot_task is None or room.bot_task.done())
            assert room.state == state and room.game.turn == 1  # the stand-in's answer was dropped
            assert moving(room) == "person" and not room.seats[1].stand_in
            assert room.deadline is not None and room.deadline[0] == state, "no clock for Beto's turn"
            assert room.timer_task is not None and not room.timer_task.done()
        finally:
            await table.rooms.close()

    asyncio.run(run())
