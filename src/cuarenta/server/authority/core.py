"""The authority over a server's tables: one state machine for rooms against the computer and tables with
friends, on one process and in a cluster (docs/architecture.md).

:class:`Authority` checks a request (the seat's token, the seat, the turn, the client's state number, the
game's own legality), applies it, stores it before acknowledging it, and tells the table. Its parts are
given to it (:mod:`cuarenta.server.authority.ports`): the store, the bus (nobody in one process; Redis in a
cluster), the scheduler of the computer players (a pool here, jobs for workers in a cluster) and the
ratings. Every rule is written once, here or in the small modules beside it (:mod:`.seats`, :mod:`.clock`,
:mod:`.rematch`, :mod:`.reactions`, :mod:`.pace`), and what each socket may see is decided by
:mod:`.audience` alone.

Everything that changes a room runs on the server's event loop, in one synchronous step (apply, count the
new state, save, queue a message for every socket of the room), so changes are atomic and their messages
ordered; a change is acknowledged only once it is stored (:meth:`Authority.apply`). Rooms in memory are
bounded (``max_rooms``) and idle ones leave it (``idle_seconds``), least recently used first — never one
with a socket, a computer player at work or a table's timer running. A room not in memory is rebuilt by
replaying its current mesa's log with the engine, checked (:func:`~.rows.room_from_row`).

Refusals are :class:`~.errors.TableError` (a code and a message): the edge picks the HTTP status or sends
the WebSocket ``error`` frame. Times on the wire are wall-clock milliseconds (``time.time()``).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import secrets
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Final

from cuarenta.errors import CuarentaError, GameOverError, IllegalMoveError, MoveParseError
from cuarenta.game import Game
from cuarenta.moves import Action, parse_action
from cuarenta.rules import Rules
from cuarenta.server.authority import audience, catchup, clock, computer_names, rematch, setup
from cuarenta.server.authority.bus import LocalBus
from cuarenta.server.authority.codes import hash_code, new_seat_code, normalize
from cuarenta.server.authority.computer import LocalScheduler
from cuarenta.server.authority.errors import SEAT_LEFT, SEAT_TAKEN, RoomProblem, TableError
from cuarenta.server.authority.messages import Pace, pace_message, reaction_message, table_message
from cuarenta.server.authority.model import (
    DEFAULT_IDLE_SECONDS,
    DEFAULT_MAX_ROOMS,
    Connection,
    Room,
    Seat,
    TableOptions,
    available_levels,
    mesa_seed,
    now_text,
)
from cuarenta.server.authority.pace import pause
from cuarenta.server.authority.ports import (
    ActionRow,
    Bus,
    FinishedRow,
    Ratings,
    Scheduler,
    StoreConflict,
    StoreError,
    StorePort,
    StoreUnknown,
    dumps,
    hash_token,
)
from cuarenta.server.authority.reactions import REACTION_SECONDS, check_reaction
from cuarenta.server.authority.requests import (
    JoinRequest,
    MoveRequest,
    PaceRequest,
    ReactRequest,
    WatchRequest,
)
from cuarenta.server.authority.rows import finished_row, read_room, room_from_row, room_row, store_problem
from cuarenta.server.authority.seats import new_token, same_token, seat_of_hash
from cuarenta.server.authority.setup import CLOCKS, DEFAULT_GRACE, FRIEND, GRACE_MAX, LOBBY_MAX
from cuarenta.server.authority.wire import sockets as wire
from cuarenta.server.authority.wire.messages import SharedMessage
from cuarenta.server.ops.metrics import Metrics, Mover
from cuarenta.server.thinking import Thinking, ThinkingError, ThinkRequest, make_thinking

log = logging.getLogger("cuarenta.server")

#: How many times a change of a table's options is tried again on the stored version when another server
#: process changed the room first (a move: the judge's pause waits for nothing).
TABLE_WRITE_TRIES: Final = 5
#: Spectators coming and going are told to the table at most once in this many seconds: a ``table``
#: message with the count, not one message per spectator to every socket (issue 15).
WATCHERS_SECONDS: Final = 1.0
#: A write whose outcome is unknown (:class:`StoreUnknown`) is found out by reading the room again once
#: the database answers: asked every SETTLE_RETRY_SECONDS, for SETTLE_SECONDS at most (then the 2-s sweep
#: of a cluster node, or the room's next change, finds it out).
SETTLE_SECONDS: Final = 120.0
SETTLE_RETRY_SECONDS: Final = 0.25
#: An HTTP request whose seat was answered ``outcome_unknown`` waits this long for the outcome
#: (:meth:`Authority.found_out`) before it answers so.
FIND_OUT_SECONDS: Final = 10.0


@dataclass(frozen=True)
class NewSeat:
    """The answer to creating, joining or taking back a seat of a table: the room, the seat, its secret
    token and its person's seat code (docs/tables.md "Taking a seat back")."""

    room: str
    seat: int
    token: str
    code: str | None = None


def _reason(exc: CuarentaError) -> dict[str, Any]:
    """An engine error for the wire: ``{"code", "params"}`` (the page words it with ``error.<code>``)."""
    return {"code": exc.code, "params": exc.params}


def _unstored(
    exc: StoreError, what: str = "the change could not be stored, so it was not made"
) -> TableError:
    return TableError("store_unavailable", f"{what} (try again): {exc}")


def _unknown(exc: StoreError) -> TableError:
    return TableError(
        "outcome_unknown",
        "the database stopped answering while it stored the change: whether it was made is not known "
        f"yet; the table's state follows once the database answers (ask for it again): {exc}",
    )


@contextlib.contextmanager
def _pending(seat: NewSeat) -> Iterator[NewSeat]:
    """Around the write that gives ``seat``: an ``outcome_unknown`` refusal carries it (``pending``), so
    that the request may find out whether it was given (:meth:`Authority.found_out`)."""
    try:
        yield seat
    except TableError as exc:
        if exc.code == "outcome_unknown":
            exc.pending = seat
        raise


def _stale(room: Room) -> TableError:
    return TableError(
        "stale",
        f"the table changed meanwhile (another server was first): the current state is {room.state}",
    )


class Authority:
    """Every room and table of the server (module docstring).

    Call it from the server's event loop only: then a room is loaded once and changed one step at a time,
    without locks. ``wall`` is the wall clock of the wire's times and of the timers, ``clock`` the clock of
    :attr:`idle_seconds` (a test may replace either).
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
    ) -> None:
        if bot_delay < 0:
            raise ValueError(f"bot_delay must be 0 or more seconds, not {bot_delay}")
        if isinstance(max_rooms, bool) or not isinstance(max_rooms, int) or max_rooms < 1:
            raise ValueError(f"max_rooms must be a whole number of rooms, 1 or more, not {max_rooms!r}")
        if not idle_seconds > 0:
            raise ValueError(f"idle_seconds must be more than 0 seconds, not {idle_seconds}")
        self.max_rooms = max_rooms
        self.idle_seconds = idle_seconds
        self.clock: Callable[[], float] = time.monotonic
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
        #: called with the room and its stored row once a table's mesa is finished
        self.finished_hooks: list[Callable[[Room, FinishedRow], None]] = []
        self._rooms: dict[str, Room] = {}  #: least recently used first
        self._from: dict[str, tuple[int, int]] = {}  #: room → (mesa, logged) before its last save
        #: rooms whose last write's outcome is unknown, each with the task that finds it out
        self._settling: dict[str, asyncio.Task[bool | None]] = {}
        #: this process' Prometheus metrics (:mod:`cuarenta.server.ops.metrics`); the gauges read the rooms
        self.metrics = Metrics()
        self.metrics.watch(
            rooms_in_memory=self.in_memory,
            tables_playing=lambda: sum(
                r.table is not None and r.status == "playing" for r in self._rooms.values()
            ),
        )

    # -- creating and finding rooms ----------------------------------------------------------------------
    def _new_id(self) -> str:
        room_id = secrets.token_urlsafe(9)
        while room_id in self._rooms or self.store.room_exists(room_id):  # pragma: no cover
            room_id = secrets.token_urlsafe(9)
        return room_id

    def _open(
        self,
        *,
        rules: Rules,
        level: str,
        seed: int | str,
        seats: list[Seat],
        practice: bool = False,
        table: TableOptions | None = None,
        room_id: str | None = None,
    ) -> Room:
        """Make a new room, store it (with its seats; its log is empty) and keep it in memory."""
        room = Room(
            id=self._new_id() if room_id is None else room_id,
            created=now_text(),
            level=level,
            rules=rules,
            seed=seed,
            seats=seats,
            mesa=1,
            game=Game.new(rules, mesa_seed(seed, 1)),
            practice=practice,
            table=table,
            started=table is None,
        )
        room.seats = computer_names.named(room.id, room.seats)  # the computers' names, before it is stored
        self.store.insert_room(room_row(room))
        self._remember(room)
        return room

    def create(
        self,
        *,
        rules: Rules,
        level: str,
        name: str = "",
        seed: int | str | None = None,
        practice: bool = False,
    ) -> tuple[Room, str]:
        """A new room against the computer: the person at seat 0, computer players of ``level`` elsewhere.

        The server chooses the seed. Only a ``practice`` room may be given one (to replay or rehearse a
        deal); practice rooms are marked as such and their mesas never count in the statistics.
        Returns the room and the person's token (only its hash is kept). ``ValueError`` says what is wrong.
        """
        if level not in available_levels():
            raise ValueError(f"unknown level {level!r}: choose one of {', '.join(available_levels())}")
        if not isinstance(practice, bool):
            raise ValueError(f"practice must be true or false, not {practice!r}")
        if seed is None:
            seed = secrets.randbelow(2**63)
        elif not practice:
            raise ValueError("the server chooses the seed: a seed may be given only for a practice room")
        elif isinstance(seed, bool) or not isinstance(seed, int | str):
            raise ValueError(f"the seed must be a number or text, not {seed!r}")
        token, digest = new_token()
        seats = [Seat(0, "person", name, None, digest)]
        seats += [Seat(s, "computer", "", level, None) for s in range(1, rules.players)]
        room = self._open(rules=rules, level=level, seed=seed, seats=seats, practice=practice)
        return room, token

    def get(self, room_id: str) -> Room:
        """A room, up to date, loaded from the store if it is not in memory (after a restart, evicted, or
        on a cluster node that does not follow it: then compared with the store first)."""
        room = self._rooms.get(room_id)
        if room is not None:
            if not self.bus.trusts(room_id) and self.refresh(room):
                self.caught_up(room)
            self._touch(room)
            return room
        try:
            found = read_room(self.store, room_id)
            if found is None:
                raise RoomProblem("unknown_room", f"there is no room {room_id!r}")
            row, actions = found
        except StoreError as exc:
            raise store_problem(room_id, exc) from None
        room = room_from_row(row, actions)
        self._remember(room)
        self.bus.read(room_id)
        return room

    def keep(self, room: Room) -> None:
        """Keep a room read elsewhere (a cluster's reader thread) in memory."""
        self._remember(room)

    def seat_of(self, room_id: str, token: str, *, left_ok: bool = False) -> int:
        """The seat of a token in a room, without loading its game (``unknown_room``, ``bad_token``; and
        ``seat_left`` for the token of a person who left the table for good, which opens nothing any more —
        unless ``left_ok``, for the requests that only tell it so)."""
        room = self._rooms.get(room_id)
        digest = hash_token(token)
        found: tuple[int, bool] | None = None
        if room is not None and self.bus.trusts(room_id):
            found = self._seat_in_current(room, digest)
            if found is None:
                self._tell_former(room_id, self._former_in(room, digest))
        else:
            try:
                if not self.store.room_exists(room_id):
                    raise RoomProblem("unknown_room", f"there is no room {room_id!r}")
                found = self.store.token_seat(room_id, digest)
                if found is None:
                    former = self.store.former_token_seat(room_id, digest)
            except StoreError as exc:
                raise store_problem(room_id, exc) from None
            if found is None:
                self._tell_former(room_id, former)
        return self._checked_seat(room_id, found, left_ok=left_ok)

    @staticmethod
    def _seat_in(room: Room, digest: str) -> tuple[int, bool] | None:
        s = seat_of_hash(room.seats, digest)
        return None if s is None else (s.seat, s.left)

    def _seat_in_current(self, room: Room, digest: str) -> tuple[int, bool] | None:
        """The seat of a token's hash in a room in memory. Where other server processes write the store
        (a cluster), a token the copy does not know is looked for once more after the room is read from
        the store and caught up: a seat taken on another node a moment ago, whose notice is still on its
        way, is not refused as ``bad_token`` (issue 25: the page forgets its seat on that answer). A token
        the copy knows as replaced is told so at once (a replaced token never comes back)."""
        found = self._seat_in(room, digest)
        if found is not None or not self.bus.others_write() or self._former_in(room, digest) is not None:
            return found
        try:
            changed = self.refresh(room)
        except StoreError as exc:
            raise store_problem(room.id, exc) from None
        if changed:
            self.caught_up(room)
        return self._seat_in(room, digest)

    @staticmethod
    def _former_in(room: Room, digest: str) -> tuple[int, str] | None:
        """The seat whose last replaced token has the hash ``digest``, and why it was replaced."""
        for s in room.seats:
            if s.former_hash is not None and same_token(s.former_hash, digest):
                return s.seat, s.former or "reclaimed"
        return None

    @staticmethod
    def _tell_former(room_id: str, former: tuple[int, str] | None) -> None:
        """A token replaced when its seat was taken back or handed over is told so (``seat_reclaimed``,
        ``seat_given``: docs/tables.md "Taking a seat back")."""
        if former is not None:
            code, message = SEAT_TAKEN.get(former[1], SEAT_TAKEN["reclaimed"])
            raise RoomProblem(code, message)

    @staticmethod
    def _checked_seat(room_id: str, found: tuple[int, bool] | None, *, left_ok: bool = False) -> int:
        if found is None:
            raise RoomProblem("bad_token", f"that token holds no seat in room {room_id}")
        seat, left = found
        if left and not left_ok:
            raise RoomProblem("seat_left", SEAT_LEFT)
        return seat

    def authorize(self, room_id: str, token: str) -> tuple[Room, int]:
        """The room (loaded, current) and the token's seat in it, or :class:`RoomProblem`. A room in
        memory is brought up to date first (a cluster node), and its seats are then the truth; another is
        not loaded for a token that opens nothing."""
        if room_id in self._rooms:
            room = self.get(room_id)
            digest = hash_token(token)
            found = self._seat_in_current(room, digest)
            if found is None:
                self._tell_former(room_id, self._former_in(room, digest))
            return room, self._checked_seat(room_id, found)
        seat = self.seat_of(room_id, token)
        return self.get(room_id), seat

    # -- rooms in memory ---------------------------------------------------------------------------------
    def in_memory(self) -> int:
        """How many rooms are in memory now."""
        return len(self._rooms)

    def rooms_in_memory(self) -> list[Room]:
        """The rooms in memory, least recently used first."""
        return list(self._rooms.values())

    def room_in_memory(self, room_id: str) -> Room | None:
        """The room ``room_id`` if it is in memory (never loaded for it)."""
        return self._rooms.get(room_id)

    def _touch(self, room: Room) -> None:
        room.last_used = self.clock()
        self._rooms.pop(room.id, None)
        self._rooms[room.id] = room

    def _remember(self, room: Room) -> None:
        self._touch(room)
        self.evict(keep=room)

    def in_use(self, room: Room) -> bool:
        """Whether a room must stay in memory: a socket, a running computer player, a running timer, or a
        write whose outcome is being found out (:meth:`settle_later`)."""
        timer = room.timer_task
        return (
            bool(room.connections)
            or self.scheduler.busy(room)
            or (timer is not None and not timer.done())
            or room.id in self._settling
        )

    def evict(self, keep: Room | None = None) -> int:
        """Forget rooms (they stay in the store): idle ones, and the least recently used beyond
        :attr:`max_rooms`; never one :meth:`in_use`, nor ``keep``. Returns how many left memory."""
        now = self.clock()
        gone: list[str] = []
        busy: list[Room] = []
        left = len(self._rooms)
        for room in self._rooms.values():
            if left <= self.max_rooms and now - room.last_used < self.idle_seconds:
                break
            if room is keep:
                continue
            if self.in_use(room):
                busy.append(room)
                continue
            gone.append(room.id)
            left -= 1
        for room_id in gone:
            del self._rooms[room_id]
        for room in busy:
            self._touch(room)
        return len(gone)

    # -- tables: creating, finding, seats ------------------------------------------------------------------
    def create_table(
        self,
        *,
        rules: Rules,
        name: str,
        seats: list[str] | None = None,
        level: str | None = None,
        grace: float = DEFAULT_GRACE,
        clock: int | None = None,
        lobby: bool = False,
        profile: str | None = None,
        rated: bool = False,
    ) -> tuple[Room, NewSeat, str]:
        """A new table (:func:`.setup.new_table`), stored; it starts at once if nobody is awaited.

        A ``rated`` table is for people only, each with a profile (``profile``: the creator's, checked by
        the caller), and its rules must be a preset's (checked by the caller). Returns the room, the
        creator's seat and token, and the invite code. ``ValueError`` says what is wrong with an option.
        """
        token, digest = new_token()
        table, seat_list = setup.new_table(
            rules,
            name=name,
            digest=digest,
            seats=seats,
            level=level,
            grace=grace,
            clock=clock,
            lobby=lobby,
            profile=profile,
            rated=rated,
            invite=secrets.token_urlsafe(12),
        )
        room_id = self._new_id()
        code, seat_list[0].code_hash = new_seat_code(room_id)
        room = self._open(
            rules=rules,
            level=table.level,
            seed=secrets.randbelow(2**63),
            seats=seat_list,
            table=table,
            room_id=room_id,
        )
        if not any(s.kind == "open" for s in seat_list):
            self._start(room)  # nobody to wait for
        return room, NewSeat(room.id, 0, token, code), table.invite

    def open_partida(
        self,
        *,
        rules: Rules,
        seats: list[str],
        names: list[str],
        seed: int,
        clock: int | None,
        grace: float = DEFAULT_GRACE,
        championship: str,
        partida: str,
        level: str | None = None,
        rated: bool = False,
    ) -> tuple[Room, str]:
        """A championship's table (docs/championships.md "Running a championship"): each seat ``"open"``
        (reserved for the person ``names[seat]``: only :meth:`sit_reserved`, called by the championships
        service for the pair's token, takes it) or a computer level. Nobody created it: the judge runs it
        (:meth:`_creator_only` refuses). It starts when its last open seat is taken, or at once when every
        seat is a computer, and it deals from ``seed`` (the championship's deal seed). A ``rated`` one (a
        rated championship's: people only) rates its mesa as a rated table does. Returns the room and its
        invite code (never used to join: the seats are reserved)."""
        if rated and any(kind != "open" for kind in seats):
            raise ValueError("a rated championship table is for people only")
        if len(seats) != rules.players or len(names) != rules.players:
            raise ValueError(f"a championship table has {rules.players} seats, not {len(seats)}")
        levels = available_levels()
        seat_list: list[Seat] = []
        for i, kind in enumerate(seats):
            if kind == "open":
                seat_list.append(Seat(i, "open", names[i]))
            elif kind in levels:
                seat_list.append(Seat(i, "computer", "", kind))
            else:
                raise ValueError(f"seat {i}: {kind!r} is neither 'open' nor one of {', '.join(levels)}")
        invite = secrets.token_urlsafe(12)
        table = TableOptions(
            invite=invite[: setup.INVITE_CHARS],
            creator=0,
            level=level or ("normal" if "normal" in levels else levels[0]),
            grace=float(grace),
            clock=clock,
            championship=championship,
            partida=partida,
            rated=rated,
        )
        room = self._open(rules=rules, level=table.level, seed=seed, seats=seat_list, table=table)
        if not any(s.kind == "open" for s in seat_list):
            self._start(room)
        return room, table.invite

    def sit_reserved(self, room_id: str, seat: int, name: str, profile: str | None = None) -> NewSeat:
        """The person of a championship table's reserved ``seat`` sits there (the championships service
        checked the pair's token, and ``profile``'s key): an open seat is taken (the table starts once
        full); a seat the person holds already gets a new token and code, the old token is told
        ``seat_reclaimed`` (a page opened again, another device). At a rated table the person sits with a
        profile, no other seat's, and sits again with the same one."""
        room = self.table(room_id)
        assert room.table is not None
        if room.table.championship is None:
            raise TableError("not_championship", "this table is not a championship's")
        if room.replaced:  # the pair's place is its partida's new table (the service never sends it here)
            halted = self.halt_problem(room)
            assert halted is not None
            raise halted
        before = room.seats[seat]
        if room.table.rated:
            if profile is None:
                raise TableError(
                    "profile_required",
                    "this championship is rated: sit with your profile (a name and its key)",
                )
            if any(s.profile == profile for s in room.seats if s.seat != seat):
                raise TableError("profile_seated", "that profile holds a seat at this table already")
            if before.kind == "person" and before.profile != profile:
                raise TableError(
                    "profile_differs",
                    "this seat is played for another profile: sit with the one that took it",
                )
        else:
            profile = None
        token, digest = new_token()
        code, code_digest = new_seat_code(room.id)
        if before.kind == "open":
            self._change_seats(
                room,
                {seat: Seat(seat, "person", name, None, digest, profile, code_hash=code_digest)},
                "the seat could not be stored, so it was not taken",
            )
        elif before.kind == "person" and not before.left:
            self._replace_token(
                room,
                dataclasses.replace(
                    before,
                    token_hash=digest,
                    code_hash=code_digest,
                    former_hash=before.token_hash,
                    former="reclaimed",
                ),
            )
        else:
            raise TableError("seat_not_open", f"seat {seat} is played by the computer now")
        return NewSeat(room.id, seat, token, code)

    def set_paused(self, room_id: str, paused: bool, reason: str | None = None) -> Room:
        """Pause or resume a championship's table (its judge's decision, stored by the championships
        service first), with the judge's ``reason``: stored with the room (every process and worker that
        reads it knows it). While paused, moves are refused (``paused``), no move is offered, no turn clock
        runs and the computers wait; every socket of the table is told (its ``table.paused`` and
        ``table.pause_reason``, and on resume its moves again). :class:`TableError` if it cannot be stored."""
        room = self.table(room_id)
        self._set_table(room, paused=paused, pause_reason=reason if paused else None)
        return room

    def _set_table(self, room: Room, **changes: Any) -> None:
        """Change a table's stored options (``paused``, ``pause_reason``: :class:`TableOptions`) and tell
        everyone: a compare-and-set on the room, tried again on the stored version when another process
        wrote first; ``store_unavailable`` (nothing changed) if the store cannot take it."""
        for _ in range(TABLE_WRITE_TRIES):
            before = room.table
            assert before is not None
            after = dataclasses.replace(before, **changes)
            if after == before:
                return
            room.table = after
            try:
                self._store_seats(room, options=True)
            except StoreConflict:  # another process changed the room first: on its version, again
                room.table = before
                self.catch_up(room)
                continue
            except StoreError as exc:
                room.table = before
                raise _unstored(exc) from None
            self._tell(room)  # its state (no move offered while halted), the clock, the computers
            return
        raise _stale(room)

    def table_rewritten(self, room_id: str) -> None:
        """A table's stored row was changed by another writer on this process (the championships service
        marks a table ``replaced`` in the transaction of the judge's restart): its copy here is brought
        up to date and its sockets told, and every other process with sockets at it is told too."""
        room = self._rooms.get(room_id)
        try:
            if room is None:  # its sockets may be on another node: read it to tell them
                room = self.get(room_id)
            elif self.refresh(room):
                self.caught_up(room)
        except (RoomProblem, StoreError):
            log.exception("table %s could not be read again after it was rewritten", room_id)
            return
        self.bus.stored(room, None)

    @staticmethod
    def halt_problem(room: Room) -> TableError | None:
        """The refusal of a move at a halted championship table: ``table_replaced`` (a restart moved its
        partida to a new table: this one is over) or ``paused`` (its judge paused it); ``None``."""
        if room.replaced:
            return TableError(
                "table_replaced",
                "the judge restarted this partida at a new table: this one is over, play on at the new one",
            )
        if room.paused:
            return TableError("paused", "the judge paused this table: wait until it is resumed")
        return None

    def table(self, room_id: str) -> Room:
        """A table (loaded if needed): ``unknown_room``, or ``not_a_table`` for a room against the
        computer."""
        room = self.get(room_id)
        if room.table is None:
            raise RoomProblem("not_a_table", f"room {room_id} is a game against the computer, not a table")
        return room

    def describe(self, room: Room, seat: int | None = None) -> dict[str, Any]:
        """``GET /api/tables/{room}`` (:func:`.setup.describe`)."""
        return setup.describe(room, seat)

    def lobby(self) -> list[dict[str, Any]]:
        """The tables of the lobby that wait for people (:func:`.setup.lobby`)."""
        return setup.lobby(self.store)

    def join_table(
        self,
        room_id: str,
        *,
        invite: str,
        name: str,
        seat: int | None = None,
        team: int | None = None,
        profile: str | None = None,
    ) -> NewSeat:
        """Take an open seat with the invite code: ``seat`` if given, else the first open seat of ``team``
        if given, else the first open seat. :class:`TableError` says why not."""
        room = self.table(room_id)
        assert room.table is not None
        if room.table.championship is not None:
            raise TableError(
                "championship_seat", "a championship's seats are reserved: sit with your pair's link"
            )
        chosen = setup.seat_to_take(room, invite=invite, seat=seat, team=team, profile=profile)
        token, digest = new_token()
        code, code_digest = new_seat_code(room.id)
        new = Seat(chosen, "person", name, None, digest, profile, code_hash=code_digest)
        with _pending(NewSeat(room.id, chosen, token, code)) as given:
            if room.started:  # a seat the creator handed over (vacant): taken in the middle of the game
                self._take_vacant(room, new)
            else:
                self._change_seats(room, {chosen: new}, "the seat could not be stored, so it was not taken")
        return given

    def _take_vacant(self, room: Room, new: Seat) -> None:
        """Someone new takes a vacant seat of a table in play: the seat is theirs (the last token's hash
        is kept, so that it is told the seat was given away), and the computer plays it on until their
        page joins. A name another seat has is refused (``name_taken``): in the middle of a mesa nobody is
        renamed, and two seats of one name would make the log ambiguous."""
        before = room.seats[new.seat]
        if any(
            s.seat != new.seat and s.name and s.name.casefold() == new.name.strip().casefold()
            for s in room.seats
        ):
            raise TableError("name_taken", f"{new.name!r} is already a name at this table: choose another")
        new.former_hash, new.former = before.former_hash, before.former
        new.stand_in = True
        self._put_seats(room, {new.seat: new}, "the seat could not be stored, so it was not taken")
        self._tell_table(room)
        self.scheduler.kick(room)

    # -- taking a seat back (docs/tables.md "Taking a seat back") ------------------------------------------
    def reclaim(self, room_id: str, *, invite: str, code: str) -> NewSeat:
        """A person takes their seat back from another browser with the invite and their seat code: the
        seat gets a new token and a new code; the old token is refused from now on (``seat_reclaimed``),
        and its sockets are told so and closed. ``bad_invite``, ``bad_code``, ``wrong_code`` change
        nothing."""
        room = self.table(room_id)
        assert room.table is not None
        if not same_token(invite, room.table.invite):
            raise TableError("bad_invite", "the invite code is not this table's: ask for the link again")
        if normalize(code) is None:
            raise TableError("bad_code", "a seat code is 8 letters and digits, like K7QX-2M9D")
        digest = hash_code(room.id, code)
        held = [
            s
            for s in room.seats
            if s.kind == "person" and s.code_hash is not None and same_token(s.code_hash, digest)
        ]
        if not held:
            raise TableError(
                "wrong_code",
                "that code takes back no seat at this table: check it, or ask the table's creator",
            )
        before = held[0]
        token, token_digest = new_token()
        new_code, code_digest = new_seat_code(room.id)
        with _pending(NewSeat(room.id, before.seat, token, new_code)) as given:
            self._replace_token(
                room,
                dataclasses.replace(
                    before,
                    token_hash=token_digest,
                    code_hash=code_digest,
                    former_hash=before.token_hash,
                    former="reclaimed",
                ),
            )
        return given

    def handover(self, room_id: str, token: str, seat: int) -> Room:
        """The creator gives the seat of a person who is away to someone new: its token and code stop
        working (``seat_given``), the computer plays it (a ``vacant`` seat) until someone takes it with the
        invite. Not at a rated table (the profile playing it would change), not the creator's own seat,
        not a person who is connected."""
        room = self._creator_only(room_id, token)
        assert room.table is not None
        if room.table.rated:
            raise TableError(
                "rated_table",
                "a rated table's seat cannot be given to someone else: the ratings are of its profile",
            )
        if not 0 <= seat < room.players:
            raise TableError("bad_seat", f"seat {seat} is not a seat of this table (0..{room.players - 1})")
        before = room.seats[seat]
        if seat == room.table.creator:
            raise TableError("not_a_person", "that is your own seat")
        if before.kind != "person":
            raise TableError("not_a_person", f"seat {seat} is not held by a person")
        if not room.started:
            raise TableError("not_started", "the table waits: nobody is away yet")
        if room.connected(seat):
            raise TableError(
                "seat_not_away", f"{before.name or 'the person'} is at the table: the seat stays theirs"
            )
        self._replace_token(
            room,
            Seat(
                seat,
                "computer",
                before.name,
                room.table.level,
                former_hash=before.token_hash,
                former="handed",
                vacant=True,
            ),
        )
        return room

    def renew_code(self, room_id: str, token: str) -> NewSeat:
        """A new seat code for the token's seat (the old one stops working): for a page that has none (a
        seat taken before codes existed, or a code lost)."""
        room, seat = self._seat_of_token(room_id, token)
        before = room.seats[seat]
        if before.kind != "person":
            raise TableError("not_a_person", f"seat {seat} is not held by a person")
        code, code_digest = new_seat_code(room.id)
        replaced = dataclasses.replace(before, code_hash=code_digest)
        self._put_seats(room, {seat: replaced}, "the new code could not be stored, so it was not made")
        return NewSeat(room.id, seat, token, code)

    def _replace_token(self, room: Room, new: Seat) -> None:
        """Store a seat whose token was replaced (taken back or handed over: ``new`` is the seat now), then
        close the old token's sockets, telling them why."""
        seat = new.seat
        self._put_seats(room, {seat: new})
        self._drop_replaced(room)
        room.rematch.discard(seat)
        if not self._rematch_if_due(room):
            self._tell_table(room)
        self._arm(room)
        self.scheduler.kick(room)

    def _drop_replaced(self, room: Room) -> bool:
        """Close the sockets here whose token no longer holds their seat (taken back on another device,
        or handed over), each told why first; the seat is then away. Whether any was closed."""
        gone = [
            c
            for c in room.connections
            if c.seat is not None
            and c.token_hash is not None
            and not room.seats[c.seat].left
            and room.seats[c.seat].token_hash != c.token_hash
        ]
        for conn in gone:
            seat = conn.seat
            assert seat is not None
            code, message = SEAT_TAKEN.get(room.seats[seat].former or "", SEAT_TAKEN["reclaimed"])
            room.connections.discard(conn)
            conn.room, conn.seat = None, None
            conn.send({"v": 1, "type": "error", "code": code, "message": message})
            conn.close(1000)
            s = room.seats[seat]
            if s.kind == "person" and not room.connected(seat) and not s.stand_in and s.away_until is None:
                clock.went_away(room, seat, now=self.wall())
        if gone:
            self.bus.left(room)
        return bool(gone)

    def make_computer(self, room_id: str, token: str, seat: int, level: str) -> Room:
        """The creator turns open ``seat`` into a computer player of ``level``."""
        room = self._creator_only(room_id, token)
        if level not in available_levels():
            raise TableError(
                "unknown_level", f"unknown level {level!r}: choose one of {', '.join(available_levels())}"
            )
        if not 0 <= seat < room.players or room.seats[seat].kind != "open":
            raise TableError("seat_not_open", f"seat {seat} is not open")
        self._change_seats(room, {seat: Seat(seat, "computer", "", level)})
        return room

    def _change_seats(
        self,
        room: Room,
        new: dict[int, Seat],
        what: str = "the change could not be stored, so it was not made",
    ) -> None:
        """Give a waiting table some new seats, stored before anyone is told; it starts once it is full.
        A new computer seat gets a name, and so does a computer whose name a person now has."""
        trial = list(room.seats)
        for i, s in new.items():
            trial[i] = s
        new = {i: s for i, s in enumerate(computer_names.named(room.id, trial)) if s is not room.seats[i]}
        self._put_seats(room, new, what)
        if not any(s.kind == "open" for s in room.seats):
            self._start(room)  # full: it starts
        else:
            self._tell_table(room)

    def start(self, room_id: str, token: str) -> Room:
        """The creator starts the table now: open seats become computer players of the table's level."""
        room = self._creator_only(room_id, token)
        if room.started:
            raise TableError("already_started", "the table has started already")
        self._start(room)
        return room

    def leave_table(self, room_id: str, token: str) -> Room:
        """A person leaves for good: the seat becomes a computer player of the table's level, and the
        token only says so from now on (``seat_left``)."""
        room, seat = self._seat_of_token(room_id, token, left_ok=True)
        assert room.table is not None
        s = room.seats[seat]
        if s.kind != "person":
            raise TableError("already_left", "you left this table already")
        if not room.started:  # before the start, the seat opens again for someone else
            if seat == room.table.creator and room.table.championship is None:
                raise TableError(
                    "creator_stays", "the creator cannot leave a table that waits: start it or let it be"
                )
            self._put_seats(room, {seat: Seat(seat, "open", s.name if room.table.championship else "")})
        else:
            self._put_seats(
                room, {seat: Seat(seat, "computer", s.name, room.table.level, s.token_hash, s.profile, True)}
            )
        for conn in [c for c in room.connections if c.seat == seat]:
            room.connections.discard(conn)
            conn.room, conn.seat = None, None
        room.rematch.discard(seat)
        if not self._rematch_if_due(room):
            self._tell_table(room)
        self.scheduler.kick(room)
        return room

    def seat_of_token(self, room_id: str, token: str) -> tuple[Room, int]:
        """The table and the seat of a token (:class:`TableError`)."""
        return self._seat_of_token(room_id, token)

    def _seat_of_token(self, room_id: str, token: str, *, left_ok: bool = False) -> tuple[Room, int]:
        room = self.table(room_id)
        return room, self.seat_of(room_id, token, left_ok=left_ok)

    def _creator_only(self, room_id: str, token: str) -> Room:
        room, seat = self._seat_of_token(room_id, token)
        assert room.table is not None
        if room.table.championship is not None:
            raise TableError(
                "judge_runs_table",
                "a championship's table has no creator: its judge runs it (pause, restart, walkover)",
            )
        if seat != room.table.creator:
            raise TableError("not_creator", "only the table's creator may do that")
        return room

    def _start(self, room: Room) -> None:
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
        # of the hands that are played. A championship's table KEEPS its seed: the deal is the
        # championship's (a secret derived by the library; duplicate twin tables must hold the same
        # cards). That is safe: its seats are reserved (only the pair's token takes them, through the
        # championships service), and a waiting seat is sent no card, so nobody can look and leave.
        if room.table.championship is None:
            room.seed = secrets.randbelow(2**63)
        room.game = Game.new(room.rules, mesa_seed(room.seed, room.mesa))
        room.started = True
        room.state += 1
        room.mesa_state = room.state
        try:
            self._store_seats(room, seed=True)
        except StoreError as exc:
            room.seats, room.state, room.mesa_state, room.seed, room.game = before
            room.started = False
            raise self._seats_refused(
                room, exc, "the change could not be stored, so it was not made"
            ) from None
        clock.grace_at_start(room, now=self.wall())
        self._changed(room)

    def _store_seats(self, room: Room, *, seed: bool = False, options: bool = False) -> None:
        """Write the table's seats and counters (and, with ``seed``, the room's seed: the start deals
        anew; with ``options``, its :class:`TableOptions`): a compare-and-set on its version
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

    def _put_seats(
        self,
        room: Room,
        new: dict[int, Seat],
        what: str = "the change could not be stored, so it was not made",
    ) -> None:
        """Give the room the seats ``new`` (by seat number) and store them before anyone is told; if the
        store refuses, the seats are put back as they were and its refusal raised (:meth:`_seats_refused`)."""
        before = {i: room.seats[i] for i in new}
        for i, s in new.items():
            room.seats[i] = s
        try:
            self._store_seats(room)
        except StoreError as exc:
            for i, s in before.items():
                room.seats[i] = s
            raise self._seats_refused(room, exc, what) from None

    def _seats_refused(self, room: Room, exc: StoreError, what: str) -> TableError:
        """The refusal of a change of seats the store did not take (the caller has undone it): ``stale``
        when another server process changed the table first (reloaded here), else ``store_unavailable``."""
        if isinstance(exc, StoreConflict):
            self.catch_up(room)
            return TableError("stale", "the table changed meanwhile (someone else was quicker): look again")
        if isinstance(exc, StoreUnknown):
            self.settle_later(room, exc)
            return _unknown(exc)
        return _unstored(exc, what)

    # -- socket requests -----------------------------------------------------------------------------------
    # Each runs now, or (a cluster node) once the room it needs is read: Bus.gate.
    def join(self, conn: Connection, message: JoinRequest) -> None:
        """Seat a socket in a room; it is sent the room's state and the computer players go on. At a table,
        the seat is connected again (its grace ends, the computer stops playing for it), everyone is told."""
        self.bus.gate(conn, message.room, lambda: self._join(conn, message))

    def _join(self, conn: Connection, message: JoinRequest) -> None:
        with self.bus.joining(message.room):
            room, seat = self.authorize(message.room, message.token)
            wire.check_join(room, message.v, message.since)
            self.leave(conn, keep=room)
            conn.room, conn.seat = room, seat
            conn.token_hash = hash_token(message.token)
            conn.dealt = room.dealt
            events = len(room.game.events)
            if message.since is not None:  # what the browser has not shown yet (docs/tables.md)
                conn.sent = min(message.since, events)
            else:
                conn.sent = 0 if not room.game.actions else events
            room.connections.add(conn)
            wire.first_message(room, conn, message.since, message.hints)
            if message.pace is not None:
                self._set_pace(room, message.pace, [conn])
            self.scheduler.kick(room)
            if room.table is not None:
                s = room.seats[seat]
                if room.table.rated and s.profile is not None and self.ratings is not None:
                    try:  # the network a rated seat plays from (cuarenta.server.ratings.fairplay)
                        self.ratings.seen(s.profile, conn.address)
                    except StoreError:
                        log.exception("the network of profile %s could not be noted", s.profile)
                clock.came_back(room, seat)
                if room.started:
                    now = self.wall()
                    # a table read back from the store knows nothing of who is away: they get the
                    # grace from now; and a seat handed back on its turn gets the turn clock
                    clock.unaccounted(room, now=now)
                    clock.turn_deadline(room, now=now)
                self._tell_table(room)
                self._arm(room)
        self.bus.followed(room)

    def watch(self, conn: Connection, message: WatchRequest) -> None:
        """Follow a table as a spectator."""
        self.bus.gate(conn, message.room, lambda: self._watch(conn, message))

    def _watch(self, conn: Connection, message: WatchRequest) -> None:
        with self.bus.joining(message.room):
            room = self.table(message.room)
            wire.check_join(room, message.v, message.since)
            self.leave(conn, keep=room)
            conn.room, conn.seat = room, None
            conn.dealt = room.dealt
            conn.sent = 0 if not room.game.actions else len(room.game.events)
            room.connections.add(conn)
            wire.first_message(room, conn, message.since, False)
            self._tell_watchers(room)
        self.bus.followed(room)

    def leave(self, conn: Connection, keep: Room | None = None) -> None:
        """Forget a socket (closed, or joining another seat: that room is ``keep``, never evicted here). At
        a table, a person with no socket left is away (the grace runs); a spectator changes the count."""
        self.bus.leaving(conn, keep)
        room, seat = conn.room, conn.seat
        conn.room, conn.seat = None, None
        if room is None:
            return
        room.connections.discard(conn)
        if room.id in self._rooms:
            self._touch(room)
            self.evict(keep=keep)
        if room.table is not None:
            if seat is None:  # a spectator left: only the count changed
                self._tell_watchers(room)
            else:
                if room.seats[seat].kind == "person" and not room.connected(seat):
                    clock.went_away(room, seat, now=self.wall())
                    self._arm(room)
                if not self._rematch_if_due(room):
                    self._tell_table(room)
        self.bus.left(room)

    def move(self, conn: Connection, message: MoveRequest) -> None:
        """A person's action; refused with the protocol's error codes, changing nothing."""
        self.bus.gate(conn, None, lambda: self._move(conn, message))

    def _move(self, conn: Connection, message: MoveRequest) -> None:
        room = conn.room
        if room is not None and not room.started:
            raise TableError("not_started", "the table waits for people: no card is played before the start")
        if room is not None and room.table is not None and conn.seat is None:
            raise TableError("not_joined", "a spectator watches: join with a seat's token to play")
        room, seat = self._joined(conn)
        halted = self.halt_problem(room)
        if halted is not None:
            raise halted
        game = room.game
        if game.is_over:
            over = GameOverError.of("game_over")
            raise TableError("game_over", f"{over} (send next for a new mesa)", reason=_reason(over))
        if message.state != room.state:
            raise TableError(
                "stale",
                f"the move was made on state {message.state}, but the table has changed: "
                f"the current state is {room.state}",
            )
        if game.turn != seat:
            raise TableError("not_your_turn", f"it is seat {game.turn}'s turn, not seat {seat}'s")
        try:
            action = parse_action(message.move)
        except MoveParseError as exc:
            raise TableError("illegal_move", str(exc), _reason(exc)) from None
        self.apply(room, action, by="person")

    def pace(self, conn: Connection, message: PaceRequest) -> None:
        """Set the computer's pace in the socket's room; every socket there is told the pace in effect."""
        self.bus.gate(conn, None, lambda: self._pace(conn, message))

    def _pace(self, conn: Connection, message: PaceRequest) -> None:
        if conn.room is not None and conn.seat is None:
            raise TableError("not_joined", "a spectator watches: the pace is for the people at the table")
        room, _ = self._joined(conn)
        self._set_pace(room, message.pace, list(room.connections))

    def pace_delay(self, pace: Pace) -> float:
        """The pause in seconds before each computer move at ``pace``."""
        return pause(self.bot_delay, pace)

    def _set_pace(self, room: Room, pace: Pace, tell: list[Connection]) -> None:
        changed = room.pace != pace
        room.pace = pace
        if changed and room.pace_changed is not None:
            room.pace_changed.set()  # a pause under way is measured again with the new pace
        for conn in tell:
            conn.send(pace_message(pace, self.pace_delay(pace)))

    def next_mesa(self, conn: Connection, message: object = None) -> None:
        """Start a new mesa in a room against the computer once the current one is finished."""
        self.bus.gate(conn, None, lambda: self._next(conn))

    def _next(self, conn: Connection) -> None:
        if conn.room is not None and conn.room.table is not None:
            raise TableError("use_rematch", "at a table, every person agrees to another mesa with rematch")
        room, _ = self._joined(conn)
        if not room.game.is_over:
            raise TableError(
                "not_finished", "the mesa is still in play: next starts a new one once it is won"
            )
        self.new_mesa(room)

    def rematch(self, conn: Connection, message: object = None) -> None:
        """A person agrees to another mesa (:mod:`.rematch`: it starts once every present person has)."""
        self.bus.gate(conn, None, lambda: self._rematch(conn))

    def _rematch(self, conn: Connection) -> None:
        room, seat = self._joined_person(conn)
        if room.table is not None and room.table.championship is not None:
            raise TableError("championship_table", "a championship's partida is one mesa: no rematch")
        if not room.game.is_over or not room.started:
            raise TableError("not_finished", "the mesa is still in play: rematch once it is won")
        self.vote(room, seat)

    def vote(self, room: Room, seat: int, *, here: bool = True) -> None:
        """``seat``'s rematch vote (``here``: from a socket of this process, which the others are told of;
        else a vote another node heard). Counts only from a person present at the table."""
        if not room.game.is_over or not rematch.may_vote(room, seat):
            return
        room.rematch.add(seat)
        if self._rematch_if_due(room):
            return
        self._tell_table(room)
        if here:
            self.bus.voted(room, seat)

    def _rematch_if_due(self, room: Room) -> bool:
        """Start the next mesa if the rematch rule says so now (votes, presence); whether it started."""
        if room.table is None or not room.started or not room.game.is_over or not rematch.due(room):
            return False
        if room.table.championship is not None:  # a partida is one mesa
            return False
        try:
            self.new_mesa(room)  # clears the votes and tells everyone
        except TableError as exc:  # another process started it first (stale), or no store
            log.info("rematch of room %s not started here: %s", room.id, exc.code)
            return False
        return True

    def react(self, conn: Connection, message: ReactRequest) -> None:
        """A saying as a reaction, to every socket of the table (here and on the other nodes)."""
        self.bus.gate(conn, None, lambda: self._react(conn, message))

    def _react(self, conn: Connection, message: ReactRequest) -> None:
        room, seat = self._joined_person(conn)
        now = time.monotonic()
        why = check_reaction(room.reacted, seat, message.saying, now=now)
        if why == "bad_message":
            raise TableError("bad_message", f"unknown saying {message.saying!r}")
        if why == "too_fast":
            raise TableError("too_fast", f"one reaction every {REACTION_SECONDS:g} seconds")
        room.reacted[seat] = now
        self.tell_reaction(room, seat, message.saying)
        self.bus.reacted(room, seat, message.saying)

    def tell_reaction(self, room: Room, seat: int, saying: str) -> None:
        """Send a reaction to the sockets of the room in this process."""
        message = SharedMessage(reaction_message(seat, saying))  # encoded once for the room
        for c in list(room.connections):
            c.send(message)

    def _joined(self, conn: Connection) -> tuple[Room, int]:
        if conn.room is None or conn.seat is None:
            raise TableError("not_joined", "send join with your room and token first")
        return conn.room, conn.seat

    def _joined_person(self, conn: Connection) -> tuple[Room, int]:
        room, seat = conn.room, conn.seat
        if room is None or seat is None:
            raise TableError("not_joined", "join a table's seat first")
        if room.table is None:
            raise TableError("not_a_table", "this is a game against the computer, not a table")
        return room, seat

    # -- changing a room -----------------------------------------------------------------------------------
    def apply(self, room: Room, action: Action, *, by: Mover = "person") -> None:
        """Play an action, store it, and tell everyone (one synchronous step on the event loop).

        A move is acknowledged (sent to anyone) only once it is stored: if the store fails, the action is
        undone and refused with ``store_unavailable`` (``stale`` when another process changed the room
        first) — nothing is half-applied. ``by`` (``person`` or ``computer``) labels the metrics."""
        start = time.perf_counter()
        try:
            room.game.play(action)
        except IllegalMoveError as exc:  # GameOverError included
            raise TableError("illegal_move", str(exc), _reason(exc)) from None
        room.state += 1
        try:
            self._save(room)
        except StoreError as exc:
            room.game.pop()
            room.state -= 1
            raise self._refused(room, exc) from None
        self._changed(room)
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
            self._save(room)
        except StoreError as exc:
            room.mesa, room.game, room.state, room.mesa_state, room.logged = before
            raise self._refused(room, exc) from None
        room.rematch.clear()
        self._changed(room)

    def _refused(self, room: Room, exc: StoreError) -> TableError:
        if isinstance(exc, StoreConflict):
            self.catch_up(room)
            return self.halt_problem(room) or _stale(room)  # another process may have halted the table
        if isinstance(exc, StoreUnknown):
            self.settle_later(room, exc)
            return _unknown(exc)
        return _unstored(exc)

    def settle_later(self, room: Room, exc: StoreUnknown) -> None:
        """A write of ``room`` may or may not have been stored (``exc``; the copy in memory was put back as
        it was before it): find it out once the database answers — make the outcome final, read the room
        again, catch up, tell its sockets and the other processes (:meth:`_settle`). One task per room."""
        task = self._settling.get(room.id)
        if task is not None and not task.done():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (a script driving the authority): the next read finds it out
            return
        self._settling[room.id] = loop.create_task(self._settle(room, exc), name=f"settle-{room.id}")

    async def found_out(self, exc: TableError, *, seconds: float = FIND_OUT_SECONDS) -> NewSeat:
        """A request that gives a seat (a join, a seat taken back) answered ``outcome_unknown``: wait up to
        ``seconds`` while the room is settled (:meth:`settle_later`), then the seat if its write was stored
        (its token holds it); else ``store_unavailable`` when it was not (it is known now), or ``exc``
        again while it is still unknown."""
        seat = exc.pending
        if exc.code != "outcome_unknown" or not isinstance(seat, NewSeat):
            raise exc
        task = self._settling.get(seat.room)
        if task is None:
            raise exc
        done, _ = await asyncio.wait({task}, timeout=seconds)
        if not done or task.cancelled() or task.exception() is not None or task.result() is None:
            raise exc
        room = self._rooms.get(seat.room)
        if room is not None and self._seat_in(room, hash_token(seat.token)) is not None:
            return seat
        raise _unstored(StoreError("the database stopped answering while it had the change, and dropped it"))

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
            if self._settling.get(room.id) is asyncio.current_task():
                del self._settling[room.id]

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

    def caught_up(self, room: Room) -> None:
        """The room was brought up to a version written elsewhere: a new mesa clears the votes, a person who
        left for good elsewhere loses their sockets here; tell the sockets here (nobody else: whoever
        changed it told the others) and let the computers go on."""
        if room.rematch and not room.game.is_over:
            room.rematch.clear()
        for conn in [c for c in room.connections if c.seat is not None and room.seats[c.seat].left]:
            room.connections.discard(conn)
            conn.room, conn.seat = None, None
        if room.table is not None:
            self._drop_replaced(room)  # a seat taken back or handed over on another server
        self._tell(room)

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

    def presence_changed(self, room: Room, remote: dict[int | None, int], away: dict[int, float]) -> None:
        """The sockets other processes hold for the room (by seat; ``None``: spectators) and the graces
        they started: apply them (:func:`.clock.presence`), tell the table, and ask the rules again."""
        watchers = remote.get(None, 0) != room.remote.get(None, 0)
        changed = {k: v for k, v in remote.items() if k is not None} != {
            k: v for k, v in room.remote.items() if k is not None
        }
        room.remote = remote
        if room.table is not None:
            changed = clock.presence(room, away, now=self.wall()) or changed
        if changed:
            if not self._rematch_if_due(room):
                self._tell_table(room)
            if room.table is not None:
                self._arm(room)
            self.scheduler.kick(room)
        elif watchers and room.table is not None:  # only spectators came or went: told once a second
            self._tell_watchers(room)

    def _tell(self, room: Room) -> None:
        """After a change: the turn clock starts for a person's new turn before anyone is told; every
        socket here is sent its state; the computer players go on; the timer is set again."""
        if room.table is not None:
            clock.turn_deadline(room, now=self.wall())
        wire.broadcast(room)
        self.scheduler.kick(room)
        if room.table is not None:
            self._arm(room)

    def _changed(self, room: Room) -> None:
        """A change this process stored: its own sockets, then every other process (the bus), are told."""
        self._tell(room)
        self.bus.stored(room, self._from.pop(room.id, None))

    def _save(self, room: Room) -> None:
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
            self.on_finished(room, finished[0] if finished else None)

    def on_finished(self, room: Room, row: FinishedRow | None) -> None:
        """A finished mesa is stored: a rated table rates it, the hooks are called (never stopping play)."""
        if room.table is None or row is None:
            return
        # (a championship's table is rated by its service's hook, once it knows the partida is still its)
        if room.table.rated and room.table.championship is None and self.ratings is not None:
            self.ratings.finished(room, row)
        for hook in self.finished_hooks:
            try:
                hook(room, row)
            except Exception:  # a hook (ratings) never stops the game
                log.exception("a finished-mesa hook failed for room %s mesa %d", room.id, room.mesa)

    # -- the table's timer and its messages ----------------------------------------------------------------
    def _arm(self, room: Room) -> None:
        """(Re)start the room's timer for its next grace end or turn deadline."""
        task = room.timer_task
        if task is not None and not task.done():
            task.cancel()
        room.timer_task = None
        wake = clock.next_wake(room)
        if wake is None:
            return
        room.timer_task = asyncio.get_running_loop().create_task(
            self._timer(room, wake), name=f"timer-{room.id}"
        )

    async def _timer(self, room: Room, wake: float) -> None:
        await asyncio.sleep(max(0.0, wake - self.wall()))
        room.timer_task = None
        if clock.expire(room, now=self.wall()):
            self._tell_table(room)
            self.scheduler.kick(room)
        self._arm(room)

    def _tell_watchers(self, room: Room) -> None:
        """The number of spectators changed: tell the table within :data:`WATCHERS_SECONDS`, in one
        ``table`` message for however many came and went meanwhile."""
        if room.watchers_due is not None:
            return
        room.watchers_due = asyncio.get_running_loop().call_later(WATCHERS_SECONDS, self._tell_table, room)

    def _tell_table(self, room: Room) -> None:
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

    # -- computer players ------------------------------------------------------------------------------------
    async def choose(self, room: Room, seat: int, level: str) -> Action:
        """The action the computer player of ``level`` chooses for ``seat`` (whose turn it is), thought in
        :attr:`thinking` from the seat's view only; the first legal action if the player fails. The caller
        checks that the room has not changed meanwhile."""
        request = ThinkRequest.for_seat(room.game, room=room.id, mesa=room.mesa, seat=seat, level=level)
        legal = room.game.legal_moves()
        try:
            text = await self.thinking.choose(request)
        except ThinkingError:
            log.exception("the computer player at seat %d of room %s failed", seat, room.id)
            text = request.legal[0]
        try:
            return legal[request.legal.index(text)]
        except ValueError:
            log.error("computer player %s chose %r, which is not legal; playing %s", level, text, legal[0])
            return legal[0]

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
        for task in list(self._settling.values()):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        timers = [r.timer_task for r in self._rooms.values() if r.timer_task is not None]
        for task in timers:
            if not task.done():
                task.cancel()
        for task in timers:
            with contextlib.suppress(asyncio.CancelledError, RuntimeError):
                await task
        self._rooms.clear()
        await self.thinking.close()

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
