"""The sockets at a room: a move's checks, joining a seat, watching, leaving, the pace, reactions, votes.

:class:`Sessions` takes the socket requests. A move is checked here (:meth:`Sessions.move`: the seat,
the turn, the state number, a halted table), then played by the authority's pipeline
(:meth:`~.core.Authority.apply`: apply → store → tell). A socket joins a seat with its token
(:meth:`Sessions.join`) or watches a table (:meth:`Sessions.watch`) and is sent the room's first message;
it leaves (:meth:`Sessions.leave`: at a table its person is then away and the grace runs); it sets the
computer's pace (:meth:`Sessions.pace`), sends a reaction (:meth:`Sessions.react`), asks for the next
mesa against the computer (:meth:`Sessions.next_mesa`) or votes for a rematch at a table
(:meth:`Sessions.rematch`; :meth:`Sessions.rematch_if_due` starts it once the rule says so and the
table's policy allows it). The sockets other processes hold come by the bus
(:meth:`Sessions.presence_changed`); a room caught up with another process' change tells its sockets
here (:meth:`Sessions.caught_up`).

Each request runs now, or (a cluster node) once the room it needs is read: the bus's ``gate``. What it
asks of the authority is :class:`SessionHost`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any, Protocol

from cuarenta.errors import CuarentaError, GameOverError, MoveParseError
from cuarenta.moves import Action, parse_action
from cuarenta.server.authority import clock, rematch
from cuarenta.server.authority.announcer import Announcer
from cuarenta.server.authority.cache import RoomCache
from cuarenta.server.authority.errors import TableError
from cuarenta.server.authority.messages import Pace, pace_message
from cuarenta.server.authority.model import Connection, Room
from cuarenta.server.authority.policy import TablePolicy
from cuarenta.server.authority.ports import Bus, Ratings, StoreError, hash_token
from cuarenta.server.authority.reactions import REACTION_SECONDS, check_reaction
from cuarenta.server.authority.requests import (
    JoinRequest,
    MoveRequest,
    PaceRequest,
    ReactRequest,
    WatchRequest,
)
from cuarenta.server.authority.seating import Seating
from cuarenta.server.authority.tablelife import halt_problem
from cuarenta.server.authority.wire import sockets as wire
from cuarenta.server.ops.metrics import Mover

log = logging.getLogger("cuarenta.server")


class SessionHost(Protocol):
    """What the sockets' requests ask of the authority."""

    def table(self, room_id: str) -> Room:
        """A table, up to date (``not_a_table`` for a room against the computer)."""

    def policy(self, room: Room) -> TablePolicy:
        """The policy of the room's table."""

    def new_mesa(self, room: Room) -> None:
        """Deal the room's next mesa, stored before anyone is told."""

    def pace_delay(self, pace: Pace) -> float:
        """The pause in seconds before each computer move at ``pace``."""

    def apply(self, room: Room, action: Action, *, by: Mover = "person") -> None:
        """Play an action, store it, and tell everyone (the pipeline)."""


class Sessions:
    """The socket requests (module docstring). ``ratings`` notes the network a rated
    seat plays from; ``wall`` is the wall clock of the graces."""

    def __init__(
        self,
        *,
        host: SessionHost,
        cache: RoomCache,
        bus: Bus,
        seating: Seating,
        announcer: Announcer,
        ratings: Ratings | None,
        wall: Callable[[], float],
    ) -> None:
        self.host = host
        self.cache = cache
        self.bus = bus
        self.seating = seating
        self.announcer = announcer
        self.ratings = ratings
        self.wall = wall

    # -- joining, watching, leaving ------------------------------------------------------------------------
    def join(self, conn: Connection, message: JoinRequest) -> None:
        """Seat a socket in a room; it is sent the room's state and the computer players go on. At a table,
        the seat is connected again (its grace ends, the computer stops playing for it), everyone is told."""
        self.bus.gate(conn, message.room, lambda: self._join(conn, message))

    def _join(self, conn: Connection, message: JoinRequest) -> None:
        with self.bus.joining(message.room):
            room, seat = self.seating.authorize(message.room, message.token)
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
                self.set_pace(room, message.pace, [conn])
            self.announcer.kick(room)
            if room.table is not None:
                self._seated(room, seat, conn)
        self.bus.followed(room)

    def _seated(self, room: Room, seat: int, conn: Connection) -> None:
        """A socket joined a table's seat: its network is noted (a rated seat), its person is back."""
        assert room.table is not None
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
        self.announcer.tell_table(room)
        self.announcer.arm(room)

    def watch(self, conn: Connection, message: WatchRequest) -> None:
        """Follow a table as a spectator."""
        self.bus.gate(conn, message.room, lambda: self._watch(conn, message))

    def _watch(self, conn: Connection, message: WatchRequest) -> None:
        with self.bus.joining(message.room):
            room = self.host.table(message.room)
            wire.check_join(room, message.v, message.since)
            self.leave(conn, keep=room)
            conn.room, conn.seat = room, None
            conn.dealt = room.dealt
            conn.sent = 0 if not room.game.actions else len(room.game.events)
            room.connections.add(conn)
            wire.first_message(room, conn, message.since, False)
            self.announcer.tell_watchers(room)
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
        if room.id in self.cache:
            self.cache.touch(room)
            self.cache.evict(keep=keep)
        if room.table is not None:
            if seat is None:  # a spectator left: only the count changed
                self.announcer.tell_watchers(room)
            else:
                if room.seats[seat].kind == "person" and not room.connected(seat):
                    clock.went_away(room, seat, now=self.wall())
                    self.announcer.arm(room)
                if not self.rematch_if_due(room):
                    self.announcer.tell_table(room)
        self.bus.left(room)

    # -- a move (checked here, then the authority's pipeline: apply → store → tell) -------------------------
    def move(self, conn: Connection, message: MoveRequest) -> None:
        """A person's action; refused with the protocol's error codes, changing nothing."""
        self.bus.gate(conn, None, lambda: self._move(conn, message))

    def _move(self, conn: Connection, message: MoveRequest) -> None:
        room = conn.room
        if room is not None and not room.started:
            raise TableError("not_started", "the table waits for people: no card is played before the start")
        if room is not None and room.table is not None and conn.seat is None:
            raise TableError("not_joined", "a spectator watches: join with a seat's token to play")
        room, seat = joined(conn)
        halted = halt_problem(room)
        if halted is not None:
            raise halted
        game = room.game
        if game.is_over:
            over = GameOverError.of("game_over")
            raise TableError("game_over", f"{over} (send next for a new mesa)", reason=reason(over))
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
            raise TableError("illegal_move", str(exc), reason(exc)) from None
        self.host.apply(room, action, by="person")

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
            if not self.rematch_if_due(room):
                self.announcer.tell_table(room)
            if room.table is not None:
                self.announcer.arm(room)
            self.announcer.kick(room)
        elif watchers and room.table is not None:  # only spectators came or went: told once a second
            self.announcer.tell_watchers(room)

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
            self.seating.drop_replaced(room)  # a seat taken back or handed over on another server
        self.announcer.tell(room)

    # -- the pace, reactions ---------------------------------------------------------------------------------
    def pace(self, conn: Connection, message: PaceRequest) -> None:
        """Set the computer's pace in the socket's room; every socket there is told the pace in effect."""
        self.bus.gate(conn, None, lambda: self._pace(conn, message))

    def _pace(self, conn: Connection, message: PaceRequest) -> None:
        if conn.room is not None and conn.seat is None:
            raise TableError("not_joined", "a spectator watches: the pace is for the people at the table")
        room, _ = joined(conn)
        self.set_pace(room, message.pace, list(room.connections))

    def set_pace(self, room: Room, pace: Pace, tell: list[Connection]) -> None:
        """The room's pace is ``pace`` now; the sockets ``tell`` are told the pace in effect."""
        changed = room.pace != pace
        room.pace = pace
        if changed and room.pace_changed is not None:
            room.pace_changed.set()  # a pause under way is measured again with the new pace
        for conn in tell:
            conn.send(pace_message(pace, self.host.pace_delay(pace)))

    def react(self, conn: Connection, message: ReactRequest) -> None:
        """A saying as a reaction, to every socket of the table (here and on the other nodes)."""
        self.bus.gate(conn, None, lambda: self._react(conn, message))

    def _react(self, conn: Connection, message: ReactRequest) -> None:
        room, seat = joined_person(conn)
        now = time.monotonic()
        why = check_reaction(room.reacted, seat, message.saying, now=now)
        if why == "bad_message":
            raise TableError("bad_message", f"unknown saying {message.saying!r}")
        if why == "too_fast":
            raise TableError("too_fast", f"one reaction every {REACTION_SECONDS:g} seconds")
        room.reacted[seat] = now
        self.announcer.tell_reaction(room, seat, message.saying)
        self.bus.reacted(room, seat, message.saying)

    # -- another mesa ----------------------------------------------------------------------------------------
    def next_mesa(self, conn: Connection, message: object = None) -> None:
        """Start a new mesa in a room against the computer once the current one is finished."""
        self.bus.gate(conn, None, lambda: self._next(conn))

    def _next(self, conn: Connection) -> None:
        if conn.room is not None and conn.room.table is not None:
            raise TableError("use_rematch", "at a table, every person agrees to another mesa with rematch")
        room, _ = joined(conn)
        if not room.game.is_over:
            raise TableError(
                "not_finished", "the mesa is still in play: next starts a new one once it is won"
            )
        self.host.new_mesa(room)

    def rematch(self, conn: Connection, message: object = None) -> None:
        """A person agrees to another mesa (:mod:`.rematch`: it starts once every present person has)."""
        self.bus.gate(conn, None, lambda: self._rematch(conn))

    def _rematch(self, conn: Connection) -> None:
        room, seat = joined_person(conn)
        if not self.host.policy(room).rematch:
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
        if self.rematch_if_due(room):
            return
        self.announcer.tell_table(room)
        if here:
            self.bus.voted(room, seat)

    def rematch_if_due(self, room: Room) -> bool:
        """Start the next mesa if the rematch rule says so now (votes, presence) and the table's policy
        lets it rematch; whether it started."""
        if room.table is None or not room.started or not room.game.is_over or not rematch.due(room):
            return False
        if not self.host.policy(room).rematch:  # a mesa is all it plays
            return False
        try:
            self.host.new_mesa(room)  # clears the votes and tells everyone
        except TableError as exc:  # another process started it first (stale), or no store
            log.info("rematch of room %s not started here: %s", room.id, exc.code)
            return False
        return True


def reason(exc: CuarentaError) -> dict[str, Any]:
    """An engine error for the wire: ``{"code", "params"}`` (the page words it with ``error.<code>``)."""
    return {"code": exc.code, "params": exc.params}


def joined(conn: Connection) -> tuple[Room, int]:
    """The room and seat of a socket that joined one (``not_joined``)."""
    if conn.room is None or conn.seat is None:
        raise TableError("not_joined", "send join with your room and token first")
    return conn.room, conn.seat


def joined_person(conn: Connection) -> tuple[Room, int]:
    """The table and seat of a socket that joined a table's seat (``not_joined``, ``not_a_table``)."""
    room, seat = conn.room, conn.seat
    if room is None or seat is None:
        raise TableError("not_joined", "join a table's seat first")
    if room.table is None:
        raise TableError("not_a_table", "this is a game against the computer, not a table")
    return room, seat


__all__ = ["SessionHost", "Sessions", "joined", "joined_person", "reason"]
