"""The authority over a server's tables: one state machine for rooms against the computer and tables with
friends, on one process and in a cluster (docs/architecture.md).

:class:`Authority` is a pipeline: it **checks** a request (the seat's token, the seat, the turn, the
client's state number, the game's own legality), **applies** it, **stores** it before acknowledging it,
and **tells** the table. Its collaborators sit beside it, each in its own module:

- :mod:`.cache` the rooms in memory (bounded, least recently used first, idle ones leave);
- :mod:`.opening` new rooms and tables; :mod:`.tablelife` a table's start, a judge's pause, a rewrite;
- :mod:`.seating` tokens, seat codes, who sits where;
- :mod:`.saving` the writes and their refusals, a write whose outcome is unknown, catching up;
- :mod:`.announcer` what the sockets here are told, and the table's timer;
- :mod:`.sessions` the socket requests that are not a move (join, watch, leave, pace, reactions, votes);
- :mod:`.policy` what a table may do (rematch, rated by whom, judged, reserved seats), given when it is
  made and derived again from its stored options when it is read back.

Its ports are given to it (:mod:`cuarenta.server.authority.ports`): the store, the bus (nobody in one
process; Redis in a cluster), the scheduler of the computer players (a pool here, jobs for workers in a
cluster) and the ratings; the wiring (:mod:`cuarenta.server.wiring`) builds it.

Everything that changes a room runs on the server's event loop, in one synchronous step (apply, count the
new state, save, queue a message for every socket of the room), so changes are atomic and their messages
ordered; a change is acknowledged only once it is stored (:meth:`Authority.apply`). A room not in memory
is rebuilt by replaying its current mesa's log with the engine, checked (:func:`~.rows.room_from_row`).

Refusals are :class:`~.errors.TableError` (a code and a message): the edge picks the HTTP status or sends
the WebSocket ``error`` frame. Times on the wire are wall-clock milliseconds (``time.time()``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from cuarenta.errors import IllegalMoveError
from cuarenta.game import Game
from cuarenta.moves import Action
from cuarenta.server.authority import setup
from cuarenta.server.authority.advice import Advisor
from cuarenta.server.authority.announcer import WATCHERS_SECONDS, Announcer
from cuarenta.server.authority.bus import LocalBus
from cuarenta.server.authority.cache import RoomCache
from cuarenta.server.authority.computer import LocalScheduler, think
from cuarenta.server.authority.errors import RoomProblem, TableError
from cuarenta.server.authority.eventview import describe_moves
from cuarenta.server.authority.messages import Pace
from cuarenta.server.authority.model import (
    DEFAULT_IDLE_SECONDS,
    DEFAULT_MAX_ROOMS,
    Connection,
    Room,
    mesa_seed,
)
from cuarenta.server.authority.opening import Opener
from cuarenta.server.authority.outcomes import NewSeat
from cuarenta.server.authority.pace import pause
from cuarenta.server.authority.policy import TablePolicies, TablePolicy
from cuarenta.server.authority.ports import (
    Bus,
    FinishedRow,
    Ratings,
    Scheduler,
    StoreError,
    StorePort,
    StoreUnknown,
)
from cuarenta.server.authority.requests import (
    AdviceRequest,
    JoinRequest,
    MoveRequest,
    PaceRequest,
    ReactRequest,
    WatchRequest,
)
from cuarenta.server.authority.saving import Saver
from cuarenta.server.authority.seating import Seating
from cuarenta.server.authority.sessions import Sessions, reason
from cuarenta.server.authority.setup import CLOCKS, DEFAULT_GRACE, FRIEND, GRACE_MAX, LOBBY_MAX
from cuarenta.server.authority.tablelife import TABLE_WRITE_TRIES, TableLife, halt_problem
from cuarenta.server.authority.tablework import TableContext
from cuarenta.server.ops.metrics import Metrics, Mover
from cuarenta.server.thinking import Analyses, Thinking, make_thinking

log = logging.getLogger("cuarenta.server")


def _of_cache(name: str) -> Any:
    """An attribute of the authority that is its cache's (a test may set it)."""
    return property(
        lambda self: getattr(self.cache, name), lambda self, value: setattr(self.cache, name, value)
    )


class Authority:
    """Every room and table of the server (module docstring).

    Call it from the server's event loop only: then a room is loaded once and changed one step at a time,
    without locks. ``wall`` is the wall clock of the wire's times and of the timers, ``clock`` the clock of
    :attr:`idle_seconds` (a test may replace either). ``policies`` gives each table its policy from its
    stored options (default: every table the default policy, rated by ``ratings``).
    """

    def __init__(
        self,
        store: StorePort,
        bot_delay: float = 0.8,
        thinking: Thinking | None = None,
        *,
        max_rooms: int = DEFAULT_MAX_ROOMS,
        idle_seconds: float = DEFAULT_IDLE_SECONDS,
        bus: Bus | None = None,
        scheduler: Scheduler | None = None,
        ratings: Ratings | None = None,
        policies: TablePolicies | None = None,
    ) -> None:
        if bot_delay < 0:
            raise ValueError(f"bot_delay must be 0 or more seconds, not {bot_delay}")
        self.wall: Callable[[], float] = time.time
        self.store = store
        self.bot_delay = bot_delay
        #: where the computer players think (default: a worker process per core)
        self.thinking = make_thinking() if thinking is None else thinking
        self.bus: Bus = LocalBus() if bus is None else bus
        if scheduler is None:
            local = LocalScheduler()
            local.bind(self)
            scheduler = local
        self.scheduler: Scheduler = scheduler
        self.ratings = ratings
        #: each table's policy from its stored options (a service registers its own tables' rule)
        self.policies = TablePolicies(TablePolicy(rated_by=ratings)) if policies is None else policies
        self.cache = RoomCache(
            max_rooms=max_rooms, idle_seconds=idle_seconds, in_use=self.in_use, forget=self.policies.forget
        )
        #: this process' Prometheus metrics (:mod:`cuarenta.server.ops.metrics`); the gauges read the rooms
        self.metrics = Metrics()
        self.metrics.watch(
            rooms_in_memory=self.in_memory,
            tables_playing=lambda: sum(
                r.table is not None and r.status == "playing" for r in self.cache.rooms.values()
            ),
        )
        wall = lambda: self.wall()  # noqa: E731 - read at each use: a test may replace the clock
        self.announcer = Announcer(self.scheduler, wall)
        self.saver = Saver(
            store=store,
            bus=self.bus,
            metrics=self.metrics,
            cache=self.cache,
            finished=self.on_finished,
            caught_up=self.caught_up,
            halt_problem=halt_problem,
        )
        self.opener = Opener(
            cache=self.cache,
            store=store,
            start=self.start_table,
            policy_of=self.policies,
            given=self.policies.give,
        )
        #: what seating and a table's life share (:mod:`.tablework`), built once
        self.table_context = TableContext(
            host=self,
            cache=self.cache,
            store=store,
            bus=self.bus,
            saver=self.saver,
            announcer=self.announcer,
            wall=wall,
        )
        self.seating = Seating(self.table_context)
        self.life = TableLife(self.table_context)
        self.sessions = Sessions(
            host=self,
            cache=self.cache,
            bus=self.bus,
            seating=self.seating,
            announcer=self.announcer,
            ratings=ratings,
            wall=wall,
        )
        #: the computer's advice to a person, thought where the computer players think (:mod:`.advice`)
        self.advisor = Advisor(self.thinking)
        #: the analyses of finished mesas, thought where the computer players are (:mod:`.thinking.analyses`)
        self.analyses = Analyses(self.thinking, describe=describe_moves)
        # the collaborators' requests that take many options, with their own signatures (typed)
        #: a new room against the computer (:meth:`.opening.Opener.create`): the room and the person's token
        self.create = self.opener.create
        #: a new table with friends (:meth:`.opening.Opener.create_table`)
        self.create_table = self.opener.create_table
        #: a table with reserved seats and its own deal, a championship's (:meth:`.opening.Opener.open_table`)
        self.open_partida = self.opener.open_table
        #: a friend takes an open seat with the invite (:meth:`.seating.Seating.join_table`)
        self.join_table = self.seating.join_table
        #: whether a seat answered ``outcome_unknown`` was given after all (:meth:`.saving.Saver.found_out`)
        self.found_out = self.saver.found_out
        #: a move stored by another process, played on the copy here (:meth:`.saving.Saver.follow`)
        self.follow = self.saver.follow

    # -- the rooms in memory (:mod:`.cache`) ----------------------------------------------------------------
    #: the cache's clock and bounds (:class:`.cache.RoomCache`), as attributes of the authority
    clock = _of_cache("clock")
    max_rooms = _of_cache("max_rooms")
    idle_seconds = _of_cache("idle_seconds")

    @property
    def _rooms(self) -> dict[str, Room]:
        """The rooms in memory by id, least recently used first (tests look)."""
        return self.cache.rooms

    def in_memory(self) -> int:
        """How many rooms are in memory now."""
        return self.cache.count()

    def rooms_in_memory(self) -> list[Room]:
        """The rooms in memory, least recently used first."""
        return self.cache.all()

    def room_in_memory(self, room_id: str) -> Room | None:
        """The room ``room_id`` if it is in memory (never loaded for it)."""
        return self.cache.find(room_id)

    def evict(self, keep: Room | None = None) -> int:
        """Forget rooms not in use (:meth:`.cache.RoomCache.evict`); how many left memory."""
        return self.cache.evict(keep)

    def keep(self, room: Room) -> None:
        """Keep a room read elsewhere (a cluster's reader thread) in memory."""
        self.cache.remember(room)

    def in_use(self, room: Room) -> bool:
        """Whether a room must stay in memory: a socket, a running computer player, a running timer, or a
        write whose outcome is being found out (:meth:`settle_later`)."""
        timer = room.timer_task
        return (
            bool(room.connections)
            or self.scheduler.busy(room)
            or (timer is not None and not timer.done())
            or room.id in self.saver.settling
        )

    def get(self, room_id: str) -> Room:
        """A room, up to date (:meth:`.saving.Saver.room`: read from the store if not in memory)."""
        return self.saver.room(room_id)

    def table(self, room_id: str) -> Room:
        """A table (loaded if needed): ``unknown_room``, or ``not_a_table`` for a room against the
        computer."""
        room = self.get(room_id)
        if room.table is None:
            raise RoomProblem("not_a_table", f"room {room_id} is a game against the computer, not a table")
        return room

    # -- a table's policy (:mod:`.policy`) ----------------------------------------------------------------
    def policy(self, room: Room) -> TablePolicy:
        """The policy of the room's table (:meth:`.policy.TablePolicies.of`)."""
        return self.policies.of(room)

    # -- the tables of the lobby, a table described (opening them: :mod:`.opening`, in __init__) ------------
    def describe(self, room: Room, seat: int | None = None) -> dict[str, Any]:
        """``GET /api/tables/{room}`` (:func:`.setup.describe`)."""
        return setup.describe(room, seat)

    def lobby(self) -> list[dict[str, Any]]:
        """The tables of the lobby that wait for people (:func:`.setup.lobby`)."""
        return setup.lobby(self.store)

    # -- a table's life (:mod:`.tablelife`) -------------------------------------------------------------
    def start(self, room_id: str, token: str) -> Room:
        """The creator starts the table now: open seats become computer players of the table's level."""
        room = self.seating.creator_only(room_id, token)
        if room.started:
            raise TableError("already_started", "the table has started already")
        self.life.start(room)
        return room

    def start_table(self, room: Room) -> None:
        """:meth:`.tablelife.TableLife.start`."""
        self.life.start(room)

    def set_paused(self, room_id: str, paused: bool, reason: str | None = None) -> Room:
        """:meth:`.tablelife.TableLife.set_paused` (a judged table's judge)."""
        return self.life.set_paused(room_id, paused, reason)

    def table_rewritten(self, room_id: str) -> None:
        """:meth:`.tablelife.TableLife.rewritten`."""
        self.life.rewritten(room_id)

    halt_problem = staticmethod(halt_problem)

    # -- a change: apply → store → tell ----------------------------------------------------------------------
    def apply(self, room: Room, action: Action, *, by: Mover = "person") -> None:
        """Play an action, store it, and tell everyone (one synchronous step on the event loop).

        A move is acknowledged (sent to anyone) only once it is stored: if the store fails, the action is
        undone and refused with ``store_unavailable`` (``stale`` when another process changed the room
        first) — nothing is half-applied. ``by`` (``person`` or ``computer``) labels the metrics."""
        start = time.perf_counter()
        try:
            room.game.play(action)
        except IllegalMoveError as exc:  # GameOverError included
            raise TableError("illegal_move", str(exc), reason(exc)) from None
        room.state += 1
        try:
            self.saver.save(room)
        except StoreError as exc:
            room.game.pop()
            room.state -= 1
            raise self.saver.refused(room, exc) from None
        self.changed(room)
        self.metrics.move_seconds.observe(time.perf_counter() - start)
        self.metrics.moves.labels(by=by).inc()

    def new_mesa(self, room: Room) -> None:
        """Deal the room's next mesa and store it; ``store_unavailable`` (nothing changed) if it cannot."""
        before = (room.mesa, room.game, room.state, room.mesa_state, room.logged)
        room.mesa += 1
        room.game = Game.new(room.rules, mesa_seed(room.seed, room.mesa))
        room.state += 1
        room.mesa_state, room.logged = room.state, 0
        try:
            self.saver.save(room)
        except StoreError as exc:
            room.mesa, room.game, room.state, room.mesa_state, room.logged = before
            raise self.saver.refused(room, exc) from None
        room.rematch.clear()
        self.changed(room)

    def changed(self, room: Room) -> None:
        """A change this process stored: its own sockets, then every other process (the bus), are told."""
        self.announcer.tell(room)
        self.bus.stored(room, self.saver.appended(room))

    def on_finished(self, room: Room, row: FinishedRow | None) -> None:
        """A finished mesa is stored: whom the table's policy names hears it
        (:meth:`.policy.TablePolicies.finished`)."""
        self.policies.finished(room, row)

    def caught_up(self, room: Room) -> None:
        """The room was brought up to a version written elsewhere (:meth:`.sessions.Sessions.caught_up`)."""
        self.sessions.caught_up(room)

    # -- computer players ------------------------------------------------------------------------------------
    async def choose(self, room: Room, seat: int, level: str) -> Action:
        """:func:`.computer.think` in :attr:`thinking` (the caller checks the room has not changed)."""
        return await think(self.thinking, room, seat, level)

    def pace_delay(self, pace: Pace) -> float:
        """The pause in seconds before each computer move at ``pace``."""
        return pause(self.bot_delay, pace)

    def kick(self, room: Room) -> None:
        """Make sure a computer's move comes if one is to move (the scheduler)."""
        self.scheduler.kick(room)

    # -- lifecycle -------------------------------------------------------------------------------------------
    async def open(self) -> None:
        """Start the bus (on the event loop)."""
        await self.bus.open()

    async def close(self) -> None:
        """Stop the bus, every computer player and timer, and forget the rooms in memory (they stay in the
        store)."""
        await self.bus.close()
        await self.scheduler.close()
        await self.advisor.close()
        await self.analyses.close()
        await self.saver.close()
        await self.announcer.stop(self.cache.all())
        self.cache.clear()
        await self.thinking.close()

    # -- the collaborators' requests, as the edge, the bus and the services call them ----------------------
    def seat_of(self, room_id: str, token: str, *, left_ok: bool = False) -> int:
        """:meth:`.seating.Seating.seat_of`."""
        return self.seating.seat_of(room_id, token, left_ok=left_ok)

    def authorize(self, room_id: str, token: str) -> tuple[Room, int]:
        """:meth:`.seating.Seating.authorize`."""
        return self.seating.authorize(room_id, token)

    def seat_of_token(self, room_id: str, token: str) -> tuple[Room, int]:
        """:meth:`.seating.Seating.seat_of_token`."""
        return self.seating.seat_of_token(room_id, token)

    def sit_reserved(self, room_id: str, seat: int, name: str, profile: str | None = None) -> NewSeat:
        """:meth:`.seating.Seating.sit_reserved`."""
        return self.seating.sit_reserved(room_id, seat, name, profile)

    def reclaim(self, room_id: str, *, invite: str, code: str) -> NewSeat:
        """:meth:`.seating.Seating.reclaim`."""
        return self.seating.reclaim(room_id, invite=invite, code=code)

    def handover(self, room_id: str, token: str, seat: int) -> Room:
        """:meth:`.seating.Seating.handover`."""
        return self.seating.handover(room_id, token, seat)

    def renew_code(self, room_id: str, token: str) -> NewSeat:
        """:meth:`.seating.Seating.renew_code`."""
        return self.seating.renew_code(room_id, token)

    def make_computer(self, room_id: str, token: str, seat: int, level: str) -> Room:
        """:meth:`.seating.Seating.make_computer`."""
        return self.seating.make_computer(room_id, token, seat, level)

    def leave_table(self, room_id: str, token: str) -> Room:
        """:meth:`.seating.Seating.leave_table`."""
        return self.seating.leave_table(room_id, token)

    def settle_later(self, room: Room, exc: StoreUnknown) -> None:
        """:meth:`.saving.Saver.settle_later`."""
        self.saver.settle_later(room, exc)

    def catch_up(self, room: Room) -> None:
        """:meth:`.saving.Saver.catch_up`."""
        self.saver.catch_up(room)

    def refresh(self, room: Room) -> bool:
        """:meth:`.saving.Saver.refresh`."""
        return self.saver.refresh(room)

    def tell_reaction(self, room: Room, seat: int, saying: str) -> None:
        """:meth:`.announcer.Announcer.tell_reaction`."""
        self.announcer.tell_reaction(room, seat, saying)

    def move(self, conn: Connection, message: MoveRequest) -> None:
        """:meth:`.sessions.Sessions.move` (checked there, then :meth:`apply`)."""
        self.sessions.move(conn, message)

    def advice(self, conn: Connection, message: AdviceRequest) -> None:
        """:meth:`.advice.Advisor.ask` (the room brought up to date first, as for a move)."""
        self.bus.gate(conn, None, lambda: self.advisor.ask(conn, message))

    def presence_changed(self, room: Room, remote: dict[int | None, int], away: dict[int, float]) -> None:
        """:meth:`.sessions.Sessions.presence_changed`."""
        self.sessions.presence_changed(room, remote, away)

    def join(self, conn: Connection, message: JoinRequest) -> None:
        """:meth:`.sessions.Sessions.join`."""
        self.sessions.join(conn, message)

    def watch(self, conn: Connection, message: WatchRequest) -> None:
        """:meth:`.sessions.Sessions.watch`."""
        self.sessions.watch(conn, message)

    def leave(self, conn: Connection, keep: Room | None = None) -> None:
        """:meth:`.sessions.Sessions.leave`."""
        self.sessions.leave(conn, keep)

    def pace(self, conn: Connection, message: PaceRequest) -> None:
        """:meth:`.sessions.Sessions.pace`."""
        self.sessions.pace(conn, message)

    def react(self, conn: Connection, message: ReactRequest) -> None:
        """:meth:`.sessions.Sessions.react`."""
        self.sessions.react(conn, message)

    def next_mesa(self, conn: Connection, message: object = None) -> None:
        """:meth:`.sessions.Sessions.next_mesa`."""
        self.sessions.next_mesa(conn, message)

    def rematch(self, conn: Connection, message: object = None) -> None:
        """:meth:`.sessions.Sessions.rematch`."""
        self.sessions.rematch(conn, message)

    def vote(self, room: Room, seat: int, *, here: bool = True) -> None:
        """:meth:`.sessions.Sessions.vote`."""
        self.sessions.vote(room, seat, here=here)

    def rematch_if_due(self, room: Room) -> bool:
        """:meth:`.sessions.Sessions.rematch_if_due`."""
        return self.sessions.rematch_if_due(room)

    # -- the names of before (benchmarks and tests call them) ------------------------------------------------
    _apply = apply
    _new_mesa = new_mesa
    _choose = choose
    _kick = kick
    _catch_up_logged = catch_up


def room_status(room: Room) -> dict[str, Any]:
    """What ``GET /api/rooms/{room}`` tells a token's holder (no cards; ``practice``: a practice room;
    ``table``: a table with friends)."""
    return {
        "room": room.id,
        "status": room.status,
        "mesa": room.mesa,
        "practice": room.practice,
        "table": room.table is not None,
    }


__all__ = [
    "CLOCKS",
    "DEFAULT_GRACE",
    "FRIEND",
    "GRACE_MAX",
    "LOBBY_MAX",
    "TABLE_WRITE_TRIES",
    "WATCHERS_SECONDS",
    "Authority",
    "NewSeat",
    "room_status",
]
