"""Tables with friends (docs/tables.md): rooms whose seats people take through an invite.

:class:`TableRooms` is :class:`~cuarenta.server.rooms.Rooms` with tables: creating one, joining an open
seat with the invite code, the creator turning an open seat into a computer player or starting, leaving
for good; presence (a person whose every socket closed is *away*: the table waits for the seat for the
table's grace, then the computer plays for it until the person joins again), the turn clock, spectators,
reactions and the rematch vote. Everything runs on the event loop, one synchronous step at a time, like
the rest of :mod:`cuarenta.server.rooms`; a change of seats is stored before anyone is told of it.

Times on the wire are wall-clock milliseconds (``time.time()``); the timers sleep on the event loop.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hmac
import json
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from cuarenta.game import Game
from cuarenta.i18n import SAYING_KEYS
from cuarenta.rules import Rules
from cuarenta.server.fairplay import note_address, unrated_reason
from cuarenta.server.profiles import ProfileProblem, rate_mesa
from cuarenta.server.protocol import (
    JoinMessage,
    NextMessage,
    PaceMessage,
    ProtocolError,
    ReactMessage,
    RematchMessage,
    WatchMessage,
    reaction_message,
    table_message,
)
from cuarenta.server.rooms import (
    Connection,
    Room,
    RoomProblem,
    Rooms,
    Seat,
    TableOptions,
    _unstored,
    available_levels,
    mesa_seed,
    now_text,
)
from cuarenta.server.store import FinishedRow, StoreConflict, StoreError, dumps, hash_token
from cuarenta.server.wire import sockets as wire

log = logging.getLogger("cuarenta.server")

#: What a table's other seat may be besides a computer level: a seat for a friend.
FRIEND: Final = "friend"
#: The longest grace (seconds) a table may give an away person, and the default.
GRACE_MAX: Final = 600
DEFAULT_GRACE: Final = 60
#: The turn clocks a table may have (seconds; ``None``: no clock).
CLOCKS: Final = (None, 30, 60)
#: The shortest time between two reactions of one seat (seconds).
REACTION_SECONDS: Final = 2.0
#: Characters of an invite code.
INVITE_CHARS: Final = 16
#: The most tables ``lobby`` lists.
LOBBY_MAX: Final = 50
#: Spectators coming and going are told to the table at most once in this many seconds: a ``table``
#: message with the count, not one message per spectator to every socket (issue 15: 300 spectators made
#: every player receive 300 messages).
WATCHERS_SECONDS: Final = 1.0


#: The HTTP status of a room that cannot be had (``RoomProblem.code``; docs/protocol.md, docs/tables.md):
#: a damaged save is the server's fault (500), a database that cannot be read just now is 503.
PROBLEM_STATUS: Final = {
    "unknown_room": 404,
    "not_a_table": 404,
    "bad_token": 403,
    "seat_left": 410,
    "corrupt_room": 500,
    "store_unavailable": 503,
}


class TableProblem(Exception):
    """A table request that is refused: ``status`` is its HTTP status, ``message`` says why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass(frozen=True)
class NewSeat:
    """The answer to creating or joining a table: the room, the seat and its secret token."""

    room: str
    seat: int
    token: str


def _same(a: str, b: str) -> bool:
    return hmac.compare_digest(a.encode(), b.encode())


class TableRooms(Rooms):
    """Rooms against the computer and tables with friends (docs/tables.md).

    ``wall`` is the wall clock of the wire's times and of the timers (a test may replace it).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.wall: Callable[[], float] = time.time
        #: called with the room and its stored row once a table's mesa is finished (ratings)
        self.finished_hooks: list[Callable[[Room, FinishedRow], None]] = []

    # -- creating and finding tables ------------------------------------------------------------------
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
        """A new table: the creator at seat 0; every other seat ``"friend"`` (open) or a computer level.

        A ``rated`` table is for people only, each with a profile (``profile``: the creator's, checked by
        the caller), and its rules must be a preset's (checked by the caller): each finished mesa updates
        the ratings (:mod:`cuarenta.server.profiles`).
        Returns the room, the creator's seat and token, and the invite code. ``ValueError`` says what is
        wrong with an option.
        """
        levels = available_levels()
        level = level or ("normal" if "normal" in levels else levels[0])
        if level not in levels:
            raise ValueError(f"unknown level {level!r}: choose one of {', '.join(levels)}")
        others = [FRIEND] * (rules.players - 1) if seats is None else list(seats)
        if len(others) != rules.players - 1:
            raise ValueError(
                f"seats lists the {rules.players - 1} other seats of a table for {rules.players}, "
                f"not {len(others)}"
            )
        for other in others:
            if other != FRIEND and other not in levels:
                raise ValueError(
                    f"seat {other!r}: each other seat is {FRIEND!r} or one of {', '.join(levels)}"
                )
        if rated and any(other != FRIEND for other in others):
            raise ValueError("a rated table is for people only: every other seat must be for a friend")
        if rated and profile is None:
            raise ValueError("a rated table needs the creator's profile")
        if isinstance(grace, bool) or not 0 <= grace <= GRACE_MAX:
            raise ValueError(f"grace must be 0 to {GRACE_MAX} seconds, not {grace!r}")
        if clock not in CLOCKS or isinstance(clock, bool):
            choices = ", ".join(str(c) for c in CLOCKS)
            raise ValueError(f"clock must be one of {choices} (seconds), not {clock!r}")
        token = secrets.token_urlsafe(24)
        room_id = secrets.token_urlsafe(9)
        while room_id in self._rooms or self.store.room_exists(room_id):  # pragma: no cover
            room_id = secrets.token_urlsafe(9)
        table = TableOptions(
            invite=secrets.token_urlsafe(12)[:INVITE_CHARS],
            creator=0,
            level=level,
            grace=float(grace),
            clock=clock,
            lobby=lobby,
            rated=rated,
        )
        seat_list = [Seat(0, "person", name, None, hash_token(token), profile)]
        for s, other in enumerate(others, start=1):
            seat_list.append(Seat(s, "open") if other == FRIEND else Seat(s, "computer", "", other))
        seed = secrets.randbelow(2**63)
        when = now_text()
        room = Room(
            id=room_id,
            created=when,
            level=level,
            rules=rules,
            seed=seed,
            seats=seat_list,
            mesa=1,
            game=Game.new(rules, mesa_seed(seed, 1)),
            table=table,
            started=False,
        )
        self._insert(room)
        self._remember(room)
        if not any(s.kind == "open" for s in seat_list):
            self._start(room)  # nobody to wait for
        return room, NewSeat(room.id, 0, token), table.invite

    def table(self, room_id: str) -> Room:
        """A table (loaded if needed): ``RoomProblem`` ``unknown_room``, or ``not_a_table`` for a room
        against the computer."""
        room = self.get(room_id)
        if room.table is None:
            raise RoomProblem("not_a_table", f"room {room_id} is a game against the computer, not a table")
        return room

    def describe(self, room: Room, seat: int | None = None) -> dict[str, Any]:
        """``GET /api/tables/{room}`` (docs/tables.md): public facts, and the invite for a seat's holder."""
        assert room.table is not None
        out: dict[str, Any] = {
            "room": room.id,
            "players": room.players,
            "status": room.status,
            "mesa": room.mesa,
            "rules": room.rules.to_dict(),
            "seats": room.public_seats(),
            **(room.table_info() or {}),
        }
        if seat is not None:
            out["seat"] = seat
            out["invite"] = room.table.invite
        return out

    def lobby(self) -> list[dict[str, Any]]:
        """The tables listed in the lobby that wait for people, newest first (at most :data:`LOBBY_MAX`).

        Read from the store in two queries, without loading the tables into memory (a cluster's node holds
        only the rooms with sockets on it)."""
        tables = []
        for row in self.store.waiting_table_rows(LOBBY_MAX * 4):
            try:
                options = TableOptions.from_json(row.table_options or "")
                rules = json.loads(row.rules)
            except ValueError:
                log.warning("waiting table %s has options or rules that do not read: not listed", row.id)
                continue
            open_seats = sum(1 for s in row.seats if s.kind == "open")
            if not options.lobby or not open_seats or options.creator >= len(row.seats):
                continue
            tables.append(
                {
                    "room": row.id,
                    "invite": options.invite,
                    "players": row.players,
                    "rules": rules,
                    "host": row.seats[options.creator].name,
                    "open": open_seats,
                    "created": row.created,
                    "clock": options.clock,
                }
            )
            if len(tables) >= LOBBY_MAX:
                break
        return tables

    # -- seats -----------------------------------------------------------------------------------------
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
        if given, else the first open seat. :class:`TableProblem` says why not."""
        room = self._table_or_problem(room_id)
        assert room.table is not None
        if not _same(invite, room.table.invite):
            raise TableProblem(403, "the invite code is not this table's: ask for the link again")
        open_seats = [s.seat for s in room.seats if s.kind == "open"]
        if room.started or not open_seats:
            raise TableProblem(409, "the table is full: you may watch it")
        if room.table.rated and profile is None:
            raise TableProblem(403, "this table is rated: join it with your profile (a name and its key)")
        if room.table.rated and any(s.profile == profile for s in room.seats):
            raise TableProblem(409, "that profile holds a seat at this table already")
        if seat is not None:
            if not 0 <= seat < room.players:
                raise TableProblem(422, f"seat {seat} is not a seat of this table (0..{room.players - 1})")
            if seat not in open_seats:
                raise TableProblem(409, f"seat {seat} is not open")
            chosen = seat
        elif team is not None:
            of_team = [s for s in open_seats if s % 2 == team]
            if team not in (0, 1):
                raise TableProblem(422, f"team {team} is not a team (0 or 1)")
            if not of_team:
                raise TableProblem(409, f"team {team} has no open seat")
            chosen = of_team[0]
        else:
            chosen = open_seats[0]
        token = secrets.token_urlsafe(24)
        before = room.seats[chosen]
        room.seats[chosen] = Seat(chosen, "person", name, None, hash_token(token), profile)
        try:
            self._store_seats(room)
        except StoreError as exc:
            room.seats[chosen] = before
            raise self._seats_refused(
                room, exc, "the seat could not be stored, so it was not taken"
            ) from None
        if not any(s.kind == "open" for s in room.seats):
            self._start(room)  # full: it starts
        else:
            self._tell_table(room)
        return NewSeat(room.id, chosen, token)

    def make_computer(self, room_id: str, token: str, seat: int, level: str) -> Room:
        """The creator turns open ``seat`` into a computer player of ``level``."""
        room = self._creator_only(room_id, token)
        if level not in available_levels():
            raise TableProblem(422, f"unknown level {level!r}: choose one of {', '.join(available_levels())}")
        if not 0 <= seat < room.players or room.seats[seat].kind != "open":
            raise TableProblem(409, f"seat {seat} is not open")
        room.seats[seat] = Seat(seat, "computer", "", level)
        try:
            self._store_seats(room)
        except StoreError as exc:
            room.seats[seat] = Seat(seat, "open")
            raise self._seats_refused(
                room, exc, "the change could not be stored, so it was not made"
            ) from None
        if not any(s.kind == "open" for s in room.seats):
            self._start(room)
        else:
            self._tell_table(room)
        return room

    def start(self, room_id: str, token: str) -> Room:
        """The creator starts the table now: open seats become computer players of the table's level."""
        room = self._creator_only(room_id, token)
        if room.started:
            raise TableProblem(409, "the table has started already")
        self._start(room)
        return room

    def leave_table(self, room_id: str, token: str) -> Room:
        """A person leaves for good: the seat becomes a computer player of the table's level, and the
        token only says so from now on (``seat_left``)."""
        room, seat = self._seat_of_token(room_id, token, left_ok=True)
        assert room.table is not None
        s = room.seats[seat]
        if s.kind != "person":
            raise TableProblem(409, "you left this table already")
        if not room.started:  # before the start, the seat opens again for someone else
            if seat == room.table.creator:
                raise TableProblem(409, "the creator cannot leave a table that waits: start it or let it be")
            room.seats[seat] = Seat(seat, "open")
        else:
            room.seats[seat] = Seat(seat, "computer", s.name, room.table.level, s.token_hash, s.profile, True)
        try:
            self._store_seats(room)
        except StoreError as exc:
            room.seats[seat] = s
            raise self._seats_refused(
                room, exc, "the change could not be stored, so it was not made"
            ) from None
        for conn in [c for c in room.connections if c.seat == seat]:
            room.connections.discard(conn)
            conn.room, conn.seat = None, None
        room.rematch.discard(seat)
        self._tell_table(room)
        self._kick(room)
        return room

    def seat_of_token(self, room_id: str, token: str) -> tuple[Room, int]:
        """The table and the seat of a token (``TableProblem`` 403/404)."""
        return self._seat_of_token(room_id, token)

    # -- sockets ---------------------------------------------------------------------------------------
    def join(self, conn: Connection, message: JoinMessage) -> None:
        """A seat's socket: in a table, the seat is connected again (its grace ends, the computer stops
        playing for it) and everyone is told."""
        try:
            room, seat = self.authorize(message.room, message.token)
        except RoomProblem as exc:
            raise ProtocolError(exc.code, exc.message) from None
        super().join(conn, message)
        if room.table is not None:
            s = room.seats[seat]
            if room.table.rated and s.profile is not None:
                try:  # the network a rated seat plays from (cuarenta.server.fairplay)
                    note_address(self.store, s.profile, conn.address)
                except StoreError:
                    log.exception("the network of profile %s could not be noted", s.profile)
            s.away_until, s.stand_in = None, False
            self._tell_table(room)
            self._arm(room)

    def watch(self, conn: Connection, message: WatchMessage) -> None:
        """Follow a table as a spectator."""
        try:
            room = self.table(message.room)
        except RoomProblem as exc:
            raise ProtocolError(exc.code, exc.message) from None
        wire.check_join(room, message.v, message.since)
        self.leave(conn, keep=room)
        conn.room, conn.seat = room, None
        conn.mesa = room.mesa
        conn.sent = 0 if not room.game.actions else len(room.game.events)
        room.connections.add(conn)
        if message.v == 2:
            wire.first_message(room, conn, message.since, False)
        else:
            conn.protocol = 1
            conn.send(room.message_for(conn))
        self._tell_watchers(room)

    def leave(self, conn: Connection, keep: Room | None = None) -> None:
        """A socket closes (or follows another seat): at a table, a person with no socket left is away."""
        room, seat = conn.room, conn.seat
        super().leave(conn, keep=keep)
        if room is None or room.table is None:
            return
        if seat is None:  # a spectator left: only the count changed
            self._tell_watchers(room)
            return
        if room.seats[seat].kind == "person" and not room.connected(seat):
            room.seats[seat].away_until = self.wall() + room.table.grace
            self._arm(room)
        self._tell_table(room)

    def move(self, conn: Connection, message: Any) -> None:
        if conn.room is not None and not conn.room.started:
            raise ProtocolError(
                "not_started", "the table waits for people: no card is played before the start"
            )
        if conn.room is not None and conn.room.table is not None and conn.seat is None:
            raise ProtocolError("not_joined", "a spectator watches: join with a seat's token to play")
        super().move(conn, message)

    def pace(self, conn: Connection, message: PaceMessage) -> None:
        if conn.room is not None and conn.seat is None:
            raise ProtocolError("not_joined", "a spectator watches: the pace is for the people at the table")
        super().pace(conn, message)

    def next_mesa(self, conn: Connection, message: NextMessage) -> None:
        if conn.room is not None and conn.room.table is not None:
            raise ProtocolError("use_rematch", "at a table, every person agrees to another mesa with rematch")
        super().next_mesa(conn, message)

    def rematch(self, conn: Connection, message: RematchMessage) -> None:
        """A person agrees to another mesa; it starts once every connected person has."""
        room, seat = self._joined_person(conn)
        if not room.game.is_over or not room.started:
            raise ProtocolError("not_finished", "the mesa is still in play: rematch once it is won")
        room.rematch.add(seat)
        present = {s.seat for s in room.seats if s.kind == "person" and room.connected(s.seat)}
        if present <= room.rematch:
            self._new_mesa(room)  # clears the votes and tells everyone
        else:
            self._tell_table(room)

    def react(self, conn: Connection, message: ReactMessage) -> None:
        """A saying as a reaction, to every socket of the table."""
        room, seat = self._joined_person(conn)
        if message.saying not in SAYING_KEYS:
            raise ProtocolError("bad_message", f"unknown saying {message.saying!r}")
        now = time.monotonic()
        last = room.reacted.get(seat)
        if last is not None and now - last < REACTION_SECONDS:
            raise ProtocolError("too_fast", f"one reaction every {REACTION_SECONDS:g} seconds")
        room.reacted[seat] = now
        for c in list(room.connections):
            c.send(reaction_message(seat, message.saying))

    # -- changes, clock and grace ----------------------------------------------------------------------
    def _changed(self, room: Room) -> None:
        """After a stored change: the turn clock starts for a person's new turn before anyone is told."""
        if room.table is not None:
            self._clock_for_turn(room)
        super()._changed(room)
        if room.table is not None:
            self._arm(room)

    def _clock_for_turn(self, room: Room) -> None:
        table = room.table
        assert table is not None
        if table.clock is None or not room.started or room.game.is_over:
            room.deadline = None
            return
        if room.deadline is not None and room.deadline[0] == room.state:
            return
        turn = room.game.turn
        person = room.seats[turn].kind == "person" and not room.seats[turn].stand_in
        room.deadline = (room.state, self.wall() + table.clock) if person else None

    def _arm(self, room: Room) -> None:
        """(Re)start the room's timer for its next grace end or turn deadline."""
        task = room.timer_task
        if task is not None and not task.done():
            task.cancel()
        room.timer_task = None
        wakes = [s.away_until for s in room.seats if s.kind == "person" and s.away_until is not None]
        if room.deadline is not None and room.deadline[0] == room.state and room.clock_ran_out != room.state:
            wakes.append(room.deadline[1])
        if not wakes:
            return
        room.timer_task = asyncio.get_running_loop().create_task(
            self._timer(room, min(wakes)), name=f"timer-{room.id}"
        )

    async def _timer(self, room: Room, wake: float) -> None:
        await asyncio.sleep(max(0.0, wake - self.wall()))
        room.timer_task = None
        now = self.wall()
        told = False
        for s in room.seats:
            if s.kind == "person" and s.away_until is not None and s.away_until <= now:
                s.away_until, s.stand_in = None, True  # the grace is over: the computer plays for the seat
                told = True
        deadline = room.deadline
        if deadline is not None and deadline[0] == room.state and deadline[1] <= now:
            room.clock_ran_out = room.state  # the computer plays this turn
            told = True
        if told:
            self._tell_table(room)
            self._kick(room)
        self._arm(room)

    def _start(self, room: Room) -> None:
        """Start a waiting table (open seats become computer players), stored before anyone is told."""
        assert room.table is not None
        seats = [dataclasses.replace(s) for s in room.seats]
        before = (seats, room.state, room.mesa_state, room.seed, room.game)
        for i, s in enumerate(room.seats):
            if s.kind == "open":
                room.seats[i] = Seat(i, "computer", "", room.table.level)
        # The cards are dealt now, from a seed nobody has had a glimpse of: whatever a waiting seat could
        # have learnt (nothing is sent to it, and a seat may be taken, left and taken again) says nothing
        # of the hands that are played.
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
            if isinstance(exc, StoreConflict):
                raise self._seats_refused(room, exc, "") from None
            raise TableProblem(503, str(_unstored(room, exc).message)) from None
        now = self.wall()
        for s in room.seats:  # a person not here at the start gets the grace from now
            if s.kind == "person" and not room.connected(s.seat) and s.away_until is None:
                s.away_until = now + room.table.grace
        self._changed(room)

    def _store_seats(self, room: Room, *, seed: bool = False) -> None:
        """Write the table's seats and counters (and, with ``seed``, the room's seed: the start deals
        anew): a compare-and-set on its version (:class:`StoreConflict` if another server process changed
        it first)."""
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
        )
        room.version += 1

    def _seats_refused(self, room: Room, exc: StoreError, what: str) -> TableProblem:
        """The answer to a change of seats the store did not take (the caller has undone it): 409 when
        another server process changed the table first (reloaded here), else 503."""
        if isinstance(exc, StoreConflict):
            self._catch_up_logged(room)
            return TableProblem(409, "the table changed meanwhile (someone else was quicker): look again")
        return TableProblem(503, f"{what} (try again): {exc}")

    def _tell_watchers(self, room: Room) -> None:
        """The number of spectators changed: tell the table within :data:`WATCHERS_SECONDS`, in one
        ``table`` message for however many came and went meanwhile (any other message of the table that
        goes out first carries the count and ends the wait)."""
        if room.watchers_due is not None:
            return
        room.watchers_due = asyncio.get_running_loop().call_later(WATCHERS_SECONDS, self._tell_table, room)

    def _tell_table(self, room: Room) -> None:
        """Send every socket of the table its seats and clock (no move happened)."""
        if room.watchers_due is not None:
            room.watchers_due.cancel()
            room.watchers_due = None
        info = room.table_info()
        if info is None:
            return
        message = table_message(room=room.id, status=room.status, seats=room.public_seats(), table=info)
        for c in list(room.connections):
            c.send(message)

    def on_finished(self, room: Room, row: FinishedRow | None) -> None:
        if room.table is None or row is None:
            return
        if room.table.rated:
            self._rate(room, row)
        for hook in self.finished_hooks:
            try:
                hook(room, row)
            except Exception:  # a hook (ratings) never stops the game
                log.exception("a finished-mesa hook failed for room %s mesa %d", room.id, room.mesa)

    def _rate(self, room: Room, row: FinishedRow) -> None:
        """Update the ratings of a rated table's people (a person who left counts: leaving does not
        dodge a loss). A mesa some seat of which has no profile is not rated (logged)."""
        teams: list[list[str]] = [[], []]
        for s in room.seats:
            if s.profile is None:
                log.warning(
                    "room %s mesa %d is not rated: seat %d has no profile", room.id, room.mesa, s.seat
                )
                return
            teams[s.seat % 2].append(s.profile)
        try:
            reason = unrated_reason(self.store, teams, row.finished)
            if reason is not None:
                log.info("room %s mesa %d is played unrated: %s", room.id, room.mesa, reason)
            rate_mesa(
                self.store,
                room=room.id,
                mesa=room.mesa,
                finished=row.finished,
                teams=teams,
                winner=row.winner,
                unrated=reason,
            )
        except (ValueError, ProfileProblem, StoreError):
            log.exception("rating room %s mesa %d failed", room.id, room.mesa)

    # -- checks ----------------------------------------------------------------------------------------
    def _table_or_problem(self, room_id: str) -> Room:
        try:
            return self.table(room_id)
        except RoomProblem as exc:
            raise TableProblem(PROBLEM_STATUS.get(exc.code, 500), exc.message) from None

    def _seat_of_token(self, room_id: str, token: str, *, left_ok: bool = False) -> tuple[Room, int]:
        room = self._table_or_problem(room_id)
        try:
            seat = self.seat_of(room_id, token, left_ok=left_ok)
        except RoomProblem as exc:
            raise TableProblem(PROBLEM_STATUS.get(exc.code, 403), exc.message) from None
        return room, seat

    def _creator_only(self, room_id: str, token: str) -> Room:
        room, seat = self._seat_of_token(room_id, token)
        assert room.table is not None
        if seat != room.table.creator:
            raise TableProblem(403, "only the table's creator may do that")
        return room

    def _joined_person(self, conn: Connection) -> tuple[Room, int]:
        room, seat = conn.room, conn.seat
        if room is None or seat is None:
            raise ProtocolError("not_joined", "join a table's seat first")
        if room.table is None:
            raise ProtocolError("not_a_table", "this is a game against the computer, not a table")
        return room, seat


__all__ = [
    "CLOCKS",
    "DEFAULT_GRACE",
    "FRIEND",
    "GRACE_MAX",
    "REACTION_SECONDS",
    "NewSeat",
    "TableProblem",
    "TableRooms",
]
