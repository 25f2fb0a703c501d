"""Rooms, seats and the turn loop of the web app.

A :class:`Room` holds one mesa at a time (a new one after each ``next``) and
its seats: people, who hold a secret token, and computer players of a level.
:class:`Rooms` is the authority over all of them. Everything that changes a
room runs on the server's event loop, in one synchronous step (apply the
action, count the new state, save, queue a ``state`` message for every
socket of the room), so changes are atomic and their messages ordered.
Computer players think in worker processes (:mod:`cuarenta.server.thinking`):
the room sends the seat's view and legal actions and receives an action, so a
long search never holds up the loop; moves are paced by a pause before each: ``bot_delay`` seconds
times the factor of the room's pace (:data:`PACE_FACTORS`, chosen by a browser with ``join`` or
``pace``; a change of pace applies to a pause under way).

Every message queued for a socket is built from ``game.view(seat)`` of that
socket's seat, that seat's legal moves and hints on its turn, and the public
events; never a hidden card, never a seed.

Seeds: a room has one seed, chosen by the server and kept secret (only a
*practice* room may be given one; its mesas never count in the statistics).
Mesa ``n`` of the room is dealt from :func:`mesa_seed` (a hash of the room seed
and ``n``, so the record of one mesa, which names its seed, reveals nothing
about the next), and the computer player at seat ``s`` is seeded with
``f"{mesa seed}/{s}"``.

Storage (docs/storage.md): every change appends the new actions to the room's
log in the store and updates its counters (:meth:`Rooms._save`), one row per
action; a room not in memory is rebuilt by replaying its current mesa's log
with the engine, checked (:func:`_room_from_row`). Rooms in memory are bounded
(``max_rooms``) and idle ones leave it (``idle_seconds``), least recently used
first — never one with a socket, a computer player at work or a table's timer running.
A change is acknowledged only once it is stored (:meth:`Rooms._apply`).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import datetime
import hashlib
import hmac
import json
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, Literal

import cuarenta.players as registry
from cuarenta.errors import CuarentaError, GameOverError, IllegalMoveError, MoveParseError
from cuarenta.game import Game
from cuarenta.i18n import SayingLog
from cuarenta.moves import Action, Move, parse_action
from cuarenta.players.hints import seat_hints
from cuarenta.record import GameRecord
from cuarenta.rules import Rules
from cuarenta.server.metrics import Metrics, Mover
from cuarenta.server.protocol import (
    JoinMessage,
    MoveMessage,
    NextMessage,
    Pace,
    PaceMessage,
    ProtocolError,
    Status,
    pace_message,
    state_message,
)
from cuarenta.server.store import (
    ActionRow,
    FinishedRow,
    RoomRow,
    SeatRow,
    Store,
    StoreConflict,
    StoreCorrupt,
    StoreError,
    dumps,
    hash_token,
)
from cuarenta.server.thinking import Thinking, ThinkingError, ThinkRequest, make_thinking
from cuarenta.server.wire import sockets as wire
from cuarenta.server.wire.messages import SharedMessage  # (moved there: version 2's frames are shared too)

log = logging.getLogger("cuarenta.server")

#: The computer levels offered to people, weakest first (only those registered are offered).
LEVELS: Final = ("facil", "normal", "dificil")
#: Kinds of seat (``open``: a table's seat that waits for a friend).
SeatKind = Literal["person", "computer", "open"]
#: The most rooms kept in memory (more are loaded again from the store when asked for).
DEFAULT_MAX_ROOMS: Final = 1000
#: Seconds after which an unused room leaves memory.
DEFAULT_IDLE_SECONDS: Final = 900.0
#: Events that count as a caída / a limpia for the statistics.
CAIDA_KINDS: Final = frozenset({"caida", "caida_limpia", "caida_ronda"})
LIMPIA_KINDS: Final = frozenset({"limpia", "caida_limpia"})
#: Seconds a computer player waits before trying again when its move could not be stored.
STORE_RETRY_SECONDS: Final = 1.0
#: The pause before a computer move at each pace, as a multiple of the server's ``bot_delay`` ("normal").
PACE_FACTORS: Final[dict[Pace, float]] = {"slow": 2.5, "normal": 1.0, "fast": 0.25}


def available_levels() -> list[str]:
    """The levels of :data:`LEVELS` this installation has (``oracle`` and ``aleatorio`` are never offered)."""
    return [level for level in LEVELS if level in registry.PLAYER_NAMES]


def default_level() -> str:
    """``normal`` when it is available, else the weakest available level."""
    levels = available_levels()
    return "normal" if "normal" in levels else levels[0]


#: What the token of a person who left a table for good is told (``seat_left``), wherever it is used.
SEAT_LEFT: Final = "you left this table: the computer plays your seat now, and your token opens nothing"


def mesa_seed(room_seed: int | str, mesa: int) -> int:
    """The seed of mesa ``mesa`` (1, 2 …) of a room: a hash, so one mesa's seed says nothing of another.

    >>> mesa_seed(7, 1) == mesa_seed(7, 1) != mesa_seed(7, 2)
    True
    >>> 0 <= mesa_seed("x", 3) < 2**63
    True
    """
    digest = hashlib.sha256(f"cuarenta-room/{room_seed}/mesa/{mesa}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def now_text() -> str:
    """The current UTC time as ``2026-11-29T18:03:12Z``."""
    return datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class RoomProblem(Exception):
    """A room that does not exist, a wrong token, or a save that cannot be read (HTTP and socket)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        #: "unknown_room", "bad_token", "seat_left", "corrupt_room" or "store_unavailable" (a room that
        #: cannot be read)
        self.code = code
        self.message = message


@dataclass
class Seat:
    """One seat of a room: a person (with the hash of its token), a computer player of a level, or (at a
    table) an open seat waiting for a friend. A person who left a table for good makes the seat a computer
    player with ``left`` set (its token hash is kept, so that the token is told so)."""

    seat: int
    kind: SeatKind
    name: str = ""
    level: str | None = None
    token_hash: str | None = None
    profile: str | None = None  #: the anonymous profile a person plays for (ratings)
    left: bool = False
    # presence at a table (memory only): when the grace of an away person ends, and whether the computer
    # plays for the person now
    away_until: float | None = None  #: wall-clock seconds (time.time()) when the grace ends
    stand_in: bool = False

    def public(self) -> dict[str, Any]:
        """What every seat may know about this one (docs/protocol.md ``seats``)."""
        if self.kind == "person":
            return {"seat": self.seat, "kind": "person", "name": self.name}
        if self.kind == "open":
            return {"seat": self.seat, "kind": "open"}
        return {"seat": self.seat, "kind": "computer", "level": self.level}

    def to_row(self) -> SeatRow:
        return SeatRow(self.seat, self.kind, self.name, self.level, self.token_hash, self.profile, self.left)


@dataclass(frozen=True)
class TableOptions:
    """A table's options (docs/tables.md): who created it, the computer level that fills in, the grace an
    away person gets, the turn clock, whether it is in the lobby, and the invite code."""

    invite: str
    creator: int = 0
    level: str = "normal"
    grace: float = 60.0  #: seconds
    clock: int | None = None  #: seconds per person's turn, or None
    lobby: bool = False
    rated: bool = False  #: people with profiles only, a standard preset: each mesa updates ratings

    def to_json(self) -> str:
        return dumps(dataclasses.asdict(self))

    @classmethod
    def from_json(cls, text: str) -> TableOptions:
        """Read :meth:`to_json`'s text (``ValueError`` saying what is wrong)."""
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("the table's options are not an object")
        try:
            options = cls(**data)
        except TypeError as exc:
            raise ValueError(f"the table's options do not read: {exc}") from None
        if not isinstance(options.invite, str) or options.level not in registry.PLAYER_NAMES:
            raise ValueError(f"the table's options are not valid: {data}")
        return options

    def public(self) -> dict[str, Any]:
        """What everyone at the table may know (never the invite code)."""
        return {
            "creator": self.creator,
            "level": self.level,
            "grace": self.grace,
            "clock": self.clock,
            "lobby": self.lobby,
            "rated": self.rated,
        }


class Connection:
    """One browser socket: the seat it joined (``None`` for a spectator of a table, whose ``room`` is set)
    and the messages waiting to be sent to it."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.room: Room | None = None
        self.seat: int | None = None
        self.mesa = 0  #: the mesa ``sent`` counts events of
        self.sent = 0  #: events of that mesa already sent on this socket
        self.address: str | None = None  #: the client's address (rated tables note a profile's network)
        self.close_code: int | None = None  #: set by :meth:`close`
        self.protocol = 1  #: the protocol version of the socket's last join/watch (cuarenta.server.wire)
        self.hints = True  #: whether the socket is sent its seat's hints (version 2: when its join asks)

    def send(self, message: dict[str, Any]) -> None:
        if self.protocol != 1 and message.get("v") == 1:  # a version-1 message built for everyone
            message = {**message, "v": self.protocol}
        self.queue.put_nowait(message)

    def close(self, code: int) -> None:
        """Close the socket with ``code`` once what was queued before is sent (a cluster node asks a
        browser to reconnect through the proxy: docs/scaling.md)."""
        self.close_code = code
        self.queue.put_nowait(CLOSE_SOCKET)


#: Queued on a :class:`Connection` by :meth:`Connection.close`: the socket's sender closes it there.
CLOSE_SOCKET: Final[dict[str, Any]] = {"type": "close"}


@dataclass(eq=False)
class Room:
    """A room: its seats, rules and seed, and the mesa in play."""

    id: str
    created: str
    level: str
    rules: Rules
    seed: int | str  #: secret: never sent to a browser
    seats: list[Seat]
    mesa: int  #: 1 for the first mesa
    game: Game
    state: int = 0
    practice: bool = False  #: a practice room (its seed may have been chosen): never in the statistics
    mesa_state: int = 0  #: the state counter when the current mesa began
    connections: set[Connection] = field(default_factory=set)
    sayings: SayingLog = field(default_factory=SayingLog)  #: the sayings of the mesa's events
    bot_task: asyncio.Task[None] | None = None
    bot_loop: asyncio.AbstractEventLoop | None = None
    pace: Pace = "normal"  #: the computer's pace, as a browser last asked (kept in memory only)
    pace_changed: asyncio.Event | None = None  #: set when the pace changes during a computer's pause
    # persistence (Rooms._save): what of the current mesa is in the store, and what waits to be written
    logged: int = 0  #: actions of the current mesa written to the log
    recorded: int = 0  #: the last mesa whose finished row is written
    last_used: float = 0.0  #: :func:`time.monotonic` of the last use (eviction, least recent first)
    # a table with friends (docs/tables.md); None for a room against the computer
    table: TableOptions | None = None
    started: bool = True  #: False while a table waits for people
    rematch: set[int] = field(default_factory=set)  #: seats that agreed to another mesa
    reacted: dict[int, float] = field(default_factory=dict)  #: seat → time.monotonic() of its last reaction
    #: the turn clock: (state, wall-clock deadline in seconds) of the person's turn it runs for
    deadline: tuple[int, float] | None = None
    clock_ran_out: int | None = None  #: the state whose turn the computer plays because the clock ran out
    timer_task: asyncio.Task[None] | None = None  #: wakes up at the next grace end or turn deadline
    #: a ``table`` message due for a change of the spectators' count (tables.WATCHERS_SECONDS)
    watchers_due: asyncio.TimerHandle | None = None
    version: int = 0  #: the stored room's write counter this copy is at (a write is a compare-and-set on it)
    #: sockets other server processes hold for this room, by seat (``None``: spectators); empty in one process
    remote: dict[int | None, int] = field(default_factory=dict)
    _wired: list[dict[str, Any]] = field(default_factory=list)  #: :meth:`wired_events` of ``_wired_mesa``
    _wired_mesa: int = 0
    wire: Any = None  #: the version-2 state of the room (cuarenta.server.wire.events.WireState), if any

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def status(self) -> Status:
        if not self.started:
            return "waiting"
        return "finished" if self.game.is_over else "playing"

    def connected(self, seat: int) -> bool:
        """Whether a socket holds ``seat`` (here or, in a cluster, in another server process)."""
        return self.remote.get(seat, 0) > 0 or any(c.seat == seat for c in self.connections)

    def watchers(self) -> int:
        """How many sockets watch the table (no seat), in every server process."""
        return self.remote.get(None, 0) + sum(1 for c in self.connections if c.seat is None)

    def plays_for(self, seat: int) -> str | None:
        """The computer level that plays ``seat``'s turn now, or ``None`` if a person is to play it: a
        computer seat's level; at a table, the table's level for a person the computer stands in for
        (grace over) or whose turn clock ran out — while at least one person is connected."""
        s = self.seats[seat]
        if s.kind == "computer":
            return s.level
        if self.table is not None and s.kind == "person" and (s.stand_in or self.clock_ran_out == self.state):
            # nobody at the table: it waits (the computers do not play a mesa out for absent people)
            if not any(p.kind == "person" and self.connected(p.seat) for p in self.seats):
                return None
            return self.table.level
        return None

    @property
    def person_team(self) -> int:
        """The team of the room's first person (its creator; at a table, the creator's seat)."""
        if self.table is not None:
            return self.table.creator % 2
        return next(s.seat for s in self.seats if s.kind == "person") % 2

    def computer_to_move(self) -> int | None:
        """The seat whose turn the computer plays now (:meth:`plays_for`), or ``None`` (a person's turn, a
        table that waits, or the mesa is over)."""
        if self.game.is_over or not self.started:
            return None
        turn = self.game.turn
        return turn if self.plays_for(turn) is not None else None

    def public_seats(self) -> list[dict[str, Any]]:
        """Every seat as everyone may see it; at a table, with each person's presence (docs/tables.md)."""
        seats = [s.public() for s in self.seats]
        if self.table is None:
            return seats
        for s, out in zip(self.seats, seats, strict=True):
            out["team"] = s.seat % 2
            if s.kind == "person":
                out["connected"] = self.connected(s.seat)
                out["away"] = None if s.away_until is None else int(s.away_until * 1000)
                out["stand_in"] = s.stand_in
                out["left"] = False
            elif s.left:
                out["name"] = s.name
                out["left"] = True
        return seats

    def table_info(self) -> dict[str, Any] | None:
        """The ``table`` field of a table's messages (docs/tables.md), or ``None`` for a room against the
        computer."""
        if self.table is None:
            return None
        deadline = self.deadline
        running = deadline is not None and deadline[0] == self.state
        return {
            **self.table.public(),
            "watchers": self.watchers(),
            "deadline": int(deadline[1] * 1000) if deadline is not None and running else None,
            "rematch": sorted(self.rematch),
        }

    def message_for(self, conn: Connection) -> dict[str, Any]:
        """The ``state`` message for a socket's seat, with the events it has not been sent yet; for a
        spectator's socket (no seat), the view of the table with no hand (docs/tables.md)."""
        seat = conn.seat
        game = self.game
        if conn.mesa != self.mesa:
            conn.mesa, conn.sent = self.mesa, 0
        wired = self.wired_events()  # every event of the mesa with its sayings, made once each
        mesa_events = game.events
        events = [dict(wired[i]) for i in range(conn.sent, len(mesa_events))]
        conn.sent = len(mesa_events)
        view = game.view(0 if seat is None else seat)
        history = len(view.history)
        wire = dataclasses.replace(view, history=()).to_dict()  # the history from the events made once
        wire["history"] = [dict(event) for event in wired[len(mesa_events) - history :]]
        if seat is None:  # a spectator: everything of a view is public but the seat's own hand
            wire.update(seat=None, team=None, hand=[])
        elif not self.started:  # a table that waits has dealt nothing yet: it deals when it starts
            wire.update(hand=[])
        mine = seat is not None and self.started and not game.is_over and game.turn == seat
        actions = game.legal_moves() if mine else []
        legal = [str(a) for a in actions]
        moves = [
            {
                "move": text,
                "caida": isinstance(a, Move) and game.is_caida(a),
                "limpia": isinstance(a, Move) and game.is_limpia(a),
            }
            for a, text in zip(actions, legal, strict=True)
        ]
        return state_message(
            room=self.id,
            state=self.state,
            mesa=self.mesa,
            seat=seat,
            seats=self.public_seats(),
            view=wire,
            legal=legal,
            moves=moves,
            hints=seat_hints(view, legal) if seat is not None else [],
            events=events,
            status=self.status,
            table=self.table_info(),
            event_count=len(mesa_events),
        )

    def wired_events(self) -> list[dict[str, Any]]:
        """Every event of the current mesa as the wire has it (``to_dict()`` with its ``sayings``), each
        made once and kept until the mesa changes: every socket's message shares them (copied shallowly)."""
        events = self.game.events
        if self._wired_mesa != self.mesa or len(self._wired) > len(events):
            self._wired, self._wired_mesa = [], self.mesa
        sayings = self.sayings.update(self.game)  # the keys of every event of the mesa, computed once each
        for i in range(len(self._wired), len(events)):
            self._wired.append({**events[i].to_dict(), "sayings": sayings[i]})
        return self._wired

    def broadcast(self) -> None:
        """Queue the new state for every socket in the room. Spectators who have been sent the same
        events share one message, made once (a table with hundreds of them makes a few, not hundreds)."""
        shared: dict[tuple[int, int], dict[str, Any]] = {}
        wire.broadcast(self, [c for c in self.connections if c.protocol == 2])  # version 2: its own frames
        for conn in list(self.connections):
            if conn.protocol == 2:
                continue
            if conn.seat is not None:
                conn.send(self.message_for(conn))
                continue
            key = (conn.mesa, conn.sent)
            message = shared.get(key)
            if message is None:
                message = shared[key] = SharedMessage(self.message_for(conn))
            else:  # what message_for does to the socket's count of events sent
                conn.mesa, conn.sent = self.mesa, len(self.game.events)
            conn.send(message)

    def names(self) -> list[str]:
        """Seat names for a record: the person's name (or ``person``), ``bot:LEVEL`` for the computer."""
        return [(s.name or "person") if s.kind == "person" else f"bot:{s.level}" for s in self.seats]

    def finished_row(self, when: str) -> FinishedRow:
        """The history row of the finished mesa."""
        game = self.game
        outcome = game.outcome
        assert outcome is not None
        team = self.person_team
        counts = [
            [
                sum(1 for e in game.events if e.kind in CAIDA_KINDS and getattr(e, "team", None) == t),
                sum(
                    1
                    for e in game.events
                    if getattr(e, "team", None) == t
                    and (e.kind in LIMPIA_KINDS or (e.kind == "caida_ronda" and getattr(e, "limpia", False)))
                ),
            ]
            for t in (0, 1)
        ]
        caidas, limpias = counts[team]
        record = GameRecord.from_game(
            game, seats=self.names(), headers={"Event": "Cuarenta web", "Date": when[:10]}
        )
        return FinishedRow(
            room=self.id,
            mesa=self.mesa,
            finished=when,
            level=self.level,
            players=self.players,
            rules=dumps(self.rules.to_dict()),
            seats=dumps(self.public_seats()),
            person_team=team,
            winner=outcome.winner,
            chicas=dumps(list(outcome.chicas)),
            chica_results=dumps([r.to_dict() for r in game.chica_results]),
            caidas=caidas,
            limpias=limpias,
            record=record.to_text(),
            practice=self.practice,
            team_counts=dumps(counts) if self.table is not None else None,
        )


def _unstored(room: Room, exc: StoreError) -> ProtocolError:
    return ProtocolError(
        "store_unavailable", f"the change could not be stored, so it was not made (try again): {exc}"
    )


def store_problem(room_id: str, exc: StoreError) -> RoomProblem:
    """A store that could not read a room: ``corrupt_room`` when its rows are damaged, else
    ``store_unavailable`` (docs/protocol.md, docs/storage.md "Storage faults").

    >>> store_problem("r1", StoreCorrupt("reading room r1 failed: the database is damaged: …")).code
    'corrupt_room'
    >>> store_problem("r1", StoreError("reading room r1 failed: disk I/O error")).code
    'store_unavailable'
    """
    if isinstance(exc, StoreCorrupt):
        return RoomProblem("corrupt_room", f"room {room_id} cannot be resumed: its save is damaged: {exc}")
    return RoomProblem(
        "store_unavailable", f"the games' database cannot be read just now, so room {room_id} cannot be "
        f"opened (try again later): {exc}",
    )  # fmt: skip


def _reason(exc: CuarentaError) -> dict[str, Any]:
    """An engine error for the wire: ``{"code", "params"}`` (the page words it with ``error.<code>``)."""
    return {"code": exc.code, "params": exc.params}


def _room_from_row(row: RoomRow, log: list[tuple[int, str]]) -> Room:
    """Rebuild a stored room by replaying its current mesa's ``log`` (``(seq, action)`` rows) with the
    engine, checked; anything wrong raises :class:`RoomProblem` (``corrupt_room``) saying what.

    The replay starts from ``Game.new(rules, mesa_seed(seed, mesa))``; every action must be legal; the
    log must be numbered 1, 2 … without a gap; the room's state counter must equal the state counter at
    the start of the mesa plus the number of actions; and the stored status must be the replay's.
    """
    try:
        if row.problem is not None:
            raise ValueError(row.problem)
        rules = Rules.from_dict(json.loads(row.rules))
        seed = json.loads(row.seed)
        if not isinstance(seed, int | str) or isinstance(seed, bool):
            raise ValueError(f"the room seed {seed!r} is not a number or text")
        if not isinstance(row.mesa, int) or row.mesa < 1:
            raise ValueError(f"mesa {row.mesa!r} is not a mesa number")
        if (
            not isinstance(row.state, int)
            or not isinstance(row.mesa_state, int)
            or row.mesa_state < row.mesa - 1
        ):
            raise ValueError(f"state {row.state!r} (mesa begun at {row.mesa_state!r}) is not a count")
        for expected, (seq, _) in enumerate(log, start=1):
            if seq != expected:
                raise ValueError(f"the log of mesa {row.mesa} jumps from action {expected - 1} to {seq}")
        game = Game.replay(rules, mesa_seed(seed, row.mesa), [action for _, action in log])
        if row.state != row.mesa_state + len(log):
            raise ValueError(
                f"state {row.state} does not match the log ({len(log)} actions of mesa {row.mesa}, "
                f"begun at state {row.mesa_state})"
            )
        status = "waiting" if not row.started else "finished" if game.is_over else "playing"
        if row.status != status:
            raise ValueError(f"the room is stored as {row.status!r} but its log replays to {status!r}")
        if len(row.seats) != rules.players or [s.seat for s in row.seats] != list(range(rules.players)):
            raise ValueError(f"the room has {len(row.seats)} seats for {rules.players} players")
        table = None if row.table_options is None else TableOptions.from_json(row.table_options)
        seats: list[Seat] = []
        for s in row.seats:
            if s.kind == "person":
                if not s.token_hash:
                    raise ValueError(f"person seat {s.seat} has no token")
                seats.append(Seat(s.seat, "person", s.name, None, s.token_hash, s.profile))
            elif s.kind == "computer":
                if s.level not in registry.PLAYER_NAMES:
                    raise ValueError(
                        f"computer seat {s.seat} has level {s.level!r}, which this version lacks"
                    )
                token_hash = s.token_hash if s.left else None  # a person who left: the token is told so
                seats.append(Seat(s.seat, "computer", s.name, s.level, token_hash, s.profile, s.left))
            elif s.kind == "open" and table is not None and not row.started:
                seats.append(Seat(s.seat, "open"))
            else:
                raise ValueError(f"seat {s.seat} is of unknown kind {s.kind!r}")
        if table is None and not any(s.kind == "person" for s in seats):
            raise ValueError("the room has no person seat")
        if not row.started and (table is None or row.mesa != 1 or log):
            raise ValueError("only a table that has not started may be waiting, with no card played")
    except (CuarentaError, ValueError, TypeError, KeyError) as exc:
        raise RoomProblem(
            "corrupt_room", f"room {row.id} cannot be resumed: its save is corrupt: {exc}"
        ) from None
    return Room(
        id=row.id,
        created=row.created,
        level=row.level,
        rules=rules,
        seed=seed,
        seats=seats,
        mesa=row.mesa,
        game=game,
        state=row.state,
        practice=row.practice,
        mesa_state=row.mesa_state,
        logged=len(log),
        recorded=row.mesa if game.is_over else row.mesa - 1,
        table=table,
        started=row.started,
        version=row.version,
    )


def play_logged(room: Room, actions: list[str]) -> bool:
    """Play actions of the room's log (written elsewhere) on its game, in order, and count them as logged;
    if one does not read or is not legal, undo those played and answer ``False`` (the room unchanged)."""
    played = 0
    try:
        for text in actions:
            room.game.play(parse_action(text))
            played += 1
    except (CuarentaError, ValueError):
        for _ in range(played):
            room.game.pop()
        return False
    room.logged += played
    room.recorded = room.mesa if room.game.is_over else room.mesa - 1
    return True


def _stale(room: Room) -> ProtocolError:
    return ProtocolError(
        "stale",
        f"the table changed meanwhile (another server was first): the current state is {room.state}",
    )


class Rooms:
    """Every room of the server: creation, loading from the store, joins, moves and the computer players.

    Call it from the server's event loop only (the app's handlers that use it are coroutines): then a room
    is loaded once and changed by one step at a time, without locks.

    At most ``max_rooms`` rooms stay in memory, and a room unused for ``idle_seconds`` leaves it, least
    recently used first (:meth:`evict`); a room with a socket, a running computer player or a running timer
    is never evicted (so the bound can be exceeded while every room is in use). An evicted room is
    loaded again from the store when it is next asked for.
    """

    def __init__(
        self,
        store: Store,
        bot_delay: float = 0.8,
        thinking: Thinking | None = None,
        *,
        max_rooms: int = DEFAULT_MAX_ROOMS,
        idle_seconds: float = DEFAULT_IDLE_SECONDS,
    ) -> None:
        if bot_delay < 0:
            raise ValueError(f"bot_delay must be 0 or more seconds, not {bot_delay}")
        if isinstance(max_rooms, bool) or not isinstance(max_rooms, int) or max_rooms < 1:
            raise ValueError(f"max_rooms must be a whole number of rooms, 1 or more, not {max_rooms!r}")
        if not idle_seconds > 0:
            raise ValueError(f"idle_seconds must be more than 0 seconds, not {idle_seconds}")
        self.max_rooms = max_rooms
        self.idle_seconds = idle_seconds
        #: the clock of :attr:`idle_seconds` (a test may replace it)
        self.clock: Callable[[], float] = time.monotonic
        self.store = store
        self.bot_delay = bot_delay
        #: where the computer players think (default: a worker process per core)
        self.thinking = make_thinking() if thinking is None else thinking
        self._rooms: dict[str, Room] = {}  #: least recently used first
        #: this process' Prometheus metrics (:mod:`cuarenta.server.metrics`); the gauges read the rooms
        self.metrics = Metrics()
        self.metrics.watch(
            rooms_in_memory=self.in_memory,
            tables_playing=lambda: sum(
                r.table is not None and r.status == "playing" for r in self._rooms.values()
            ),
        )

    # -- creating and finding rooms ----------------------------------------------------------------
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
        Returns the room and the person's token (only its hash is kept).
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
        token = secrets.token_urlsafe(24)
        room_id = secrets.token_urlsafe(9)
        while room_id in self._rooms or self.store.room_exists(room_id):  # pragma: no cover
            room_id = secrets.token_urlsafe(9)
        seats = [Seat(0, "person", name, None, hash_token(token))]
        seats += [Seat(s, "computer", "", level, None) for s in range(1, rules.players)]
        game = Game.new(rules, mesa_seed(seed, 1))
        when = now_text()
        room = Room(
            id=room_id,
            created=when,
            level=level,
            rules=rules,
            seed=seed,
            seats=seats,
            mesa=1,
            game=game,
            practice=practice,
        )
        self._insert(room)
        self._remember(room)
        return room, token

    def _insert(self, room: Room) -> None:
        """Store a new room with its seats (its log is empty)."""
        self.store.insert_room(
            RoomRow(
                id=room.id,
                created=room.created,
                updated=room.created,
                players=room.players,
                level=room.level,
                rules=dumps(room.rules.to_dict()),
                seed=dumps(room.seed),
                mesa=room.mesa,
                state=room.state,
                status=room.status,
                practice=room.practice,
                mesa_state=room.mesa_state,
                seats=tuple(s.to_row() for s in room.seats),
                table_options=None if room.table is None else room.table.to_json(),
                started=room.started,
            )
        )

    def get(self, room_id: str) -> Room:
        """A room, loaded from the store if it is not in memory (after a restart, or evicted)."""
        room = self._rooms.get(room_id)
        if room is not None:
            self._touch(room)
            return room
        try:
            row = self.store.load_room(room_id)
            if row is None:
                raise RoomProblem("unknown_room", f"there is no room {room_id!r}")
            actions = self.store.load_actions(room_id, row.mesa)
        except StoreError as exc:
            raise store_problem(room_id, exc) from None
        room = _room_from_row(row, actions)
        self._remember(room)
        return room

    def seat_of(self, room_id: str, token: str, *, left_ok: bool = False) -> int:
        """The seat of a token in a room, without loading its game (``unknown_room``, ``bad_token``; and
        ``seat_left`` for the token of a person who left the table for good, which opens nothing any more —
        unless ``left_ok``, for the requests that only tell it so)."""
        room = self._rooms.get(room_id)
        digest = hash_token(token)
        found: tuple[int, bool] | None = None
        if room is not None:
            for s in room.seats:
                if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest):
                    found = (s.seat, s.left)
                    break
        else:
            try:
                if not self.store.room_exists(room_id):
                    raise RoomProblem("unknown_room", f"there is no room {room_id!r}")
                found = self.store.token_seat(room_id, digest)
            except StoreError as exc:
                raise store_problem(room_id, exc) from None
        if found is None:
            raise RoomProblem("bad_token", f"that token holds no seat in room {room_id}")
        seat, left = found
        if left and not left_ok:
            raise RoomProblem("seat_left", SEAT_LEFT)
        return seat

    # -- rooms in memory -----------------------------------------------------------------------------------
    def in_memory(self) -> int:
        """How many rooms are in memory now."""
        return len(self._rooms)

    def _touch(self, room: Room) -> None:
        """Mark a room as just used (the most recent of the eviction order)."""
        room.last_used = self.clock()
        self._rooms.pop(room.id, None)
        self._rooms[room.id] = room

    def _remember(self, room: Room) -> None:
        """Keep a new or loaded room in memory, then make room for it."""
        self._touch(room)
        self.evict(keep=room)

    @staticmethod
    def in_use(room: Room) -> bool:
        """Whether a room must stay in memory: a socket, a running computer player, or a running timer."""
        task, timer = room.bot_task, room.timer_task
        return (
            bool(room.connections)
            or (task is not None and not task.done())
            or (timer is not None and not timer.done())
        )

    def evict(self, keep: Room | None = None) -> int:
        """Forget rooms (they stay in the store): idle ones, and the least recently used beyond
        :attr:`max_rooms`; never one :meth:`in_use`, nor ``keep``. Returns how many left memory.

        Rooms are kept least recently used first, so the walk stops at the first room that is neither
        idle nor over the bound; a room found in use counts as used now and moves to the end.
        """
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

    def authorize(self, room_id: str, token: str) -> tuple[Room, int]:
        """The room (loaded) and the token's seat in it, or :class:`RoomProblem`."""
        seat = self.seat_of(room_id, token)
        return self.get(room_id), seat

    # -- socket requests ------------------------------------------------------------------------------
    def join(self, conn: Connection, message: JoinMessage) -> None:
        """Seat a socket in a room; it is sent the room's state and the computer players go on."""
        try:
            room, seat = self.authorize(message.room, message.token)
        except RoomProblem as exc:
            raise ProtocolError(exc.code, exc.message) from None
        wire.check_join(room, message.v, message.since)
        self.leave(conn, keep=room)
        conn.room, conn.seat = room, seat
        conn.mesa = room.mesa
        events = len(room.game.events)
        if message.since is not None:  # what the browser has not shown yet (docs/tables.md)
            conn.sent = min(message.since, events)
        else:
            conn.sent = 0 if not room.game.actions else events
        room.connections.add(conn)
        if message.v == 2:
            wire.first_message(room, conn, message.since, message.hints)
        else:
            conn.protocol, conn.hints = 1, True
            conn.send(room.message_for(conn))
        if message.pace is not None:
            self._set_pace(room, message.pace, [conn])
        self._kick(room)

    def pace(self, conn: Connection, message: PaceMessage) -> None:
        """Set the computer's pace in the socket's room; every socket there is told the pace in effect."""
        room, _ = self._joined(conn)
        self._set_pace(room, message.pace, list(room.connections))

    def pace_delay(self, pace: Pace) -> float:
        """The pause in seconds before each computer move at ``pace``."""
        return self.bot_delay * PACE_FACTORS[pace]

    def _set_pace(self, room: Room, pace: Pace, tell: list[Connection]) -> None:
        changed = room.pace != pace
        room.pace = pace
        if changed and room.pace_changed is not None:
            room.pace_changed.set()  # a pause under way is measured again with the new pace
        for conn in tell:
            conn.send(pace_message(pace, self.pace_delay(pace)))

    def move(self, conn: Connection, message: MoveMessage) -> None:
        """A person's action; refused with the protocol's error codes, changing nothing."""
        room, seat = self._joined(conn)
        game = room.game
        if game.is_over:
            over = GameOverError.of("game_over")
            raise ProtocolError("game_over", f"{over} (send next for a new mesa)", reason=_reason(over))
        if message.state != room.state:
            raise ProtocolError(
                "stale",
                f"the move was made on state {message.state}, but the table has changed: "
                f"the current state is {room.state}",
            )
        if game.turn != seat:
            raise ProtocolError("not_your_turn", f"it is seat {game.turn}'s turn, not seat {seat}'s")
        try:
            action = parse_action(message.move)
        except MoveParseError as exc:
            raise ProtocolError("illegal_move", str(exc), _reason(exc)) from None
        self._apply(room, action, by="person")

    def next_mesa(self, conn: Connection, message: NextMessage) -> None:
        """Start a new mesa in the room once the current one is finished."""
        room, _ = self._joined(conn)
        if not room.game.is_over:
            raise ProtocolError(
                "not_finished", "the mesa is still in play: next starts a new one once it is won"
            )
        self._new_mesa(room)

    def _new_mesa(self, room: Room) -> None:
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

    def leave(self, conn: Connection, keep: Room | None = None) -> None:
        """Forget a socket (closed, or joining another seat: that room is ``keep``, never evicted here)."""
        room = conn.room
        conn.room, conn.seat = None, None
        if room is not None:
            room.connections.discard(conn)
            if room.id in self._rooms:
                self._touch(room)
                self.evict(keep=keep)

    def _joined(self, conn: Connection) -> tuple[Room, int]:
        if conn.room is None or conn.seat is None:
            raise ProtocolError("not_joined", "send join with your room and token first")
        return conn.room, conn.seat

    # -- changing a room -------------------------------------------------------------------------------
    def _apply(self, room: Room, action: Action, *, by: Mover = "person") -> None:
        """Play an action, store it, and tell everyone (one synchronous step on the event loop).

        A move is acknowledged (sent to anyone) only once it is stored: if the store fails, the action is
        undone and refused with ``store_unavailable`` — nothing is half-applied, nothing acknowledged is
        lost by a crash afterwards. ``by`` (``person`` or ``computer``) labels the stored move's metrics."""
        start = time.perf_counter()
        try:
            room.game.play(action)
        except IllegalMoveError as exc:  # GameOverError included
            raise ProtocolError("illegal_move", str(exc), _reason(exc)) from None
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

    def _refused(self, room: Room, exc: StoreError) -> ProtocolError:
        """The error for a change the store did not take (the caller has undone it): ``stale`` when another
        server process changed the room first (the room is brought up to date), else ``store_unavailable``."""
        if isinstance(exc, StoreConflict):
            self._catch_up_logged(room)
            return _stale(room)
        return _unstored(room, exc)

    def _catch_up_logged(self, room: Room) -> None:
        """Bring the room up to its stored version (:meth:`refresh`) and tell its sockets if it changed; a
        room that cannot be read is logged and left as it is."""
        try:
            changed = self.refresh(room)
        except (RoomProblem, StoreError):
            log.exception("room %s could not be reloaded from the store", room.id)
            return
        if changed:
            self._caught_up(room)

    def _caught_up(self, room: Room) -> None:
        """The room was brought up to a version written elsewhere: tell its sockets, let the computers go."""
        self._changed(room)

    def refresh(self, room: Room) -> bool:
        """Bring a room in memory up to its stored version, written by another server process (a cluster,
        docs/scaling.md): the new actions of the same mesa are played on its game, anything else (a new
        mesa, the start of a table) rebuilds it from the store. Sockets, presence and timers stay. Returns
        whether the room changed; :class:`RoomProblem` if it is gone or cannot be read."""
        version = self.store.room_versions([room.id]).get(room.id)  # one small query when nothing changed
        if version == room.version:
            return False
        row = self.store.load_room(room.id)
        if row is None:
            raise RoomProblem("unknown_room", f"there is no room {room.id!r}")
        if row.version == room.version:
            return False
        if not self._catch_up(room, row):
            fresh = _room_from_row(row, self.store.load_actions(room.id, row.mesa))
            room.game, room.mesa, room.logged, room.recorded = (
                fresh.game,
                fresh.mesa,
                fresh.logged,
                fresh.recorded,
            )
            room.table, room.seed = fresh.table, fresh.seed  # a table's start deals from a new seed
        room.state, room.mesa_state, room.started, room.version = (
            row.state,
            row.mesa_state,
            row.started,
            row.version,
        )
        for stored in row.seats:  # seats change at tables (joins, leaves); presence stays as it is
            seat = room.seats[stored.seat]
            if (seat.kind, seat.token_hash) != (stored.kind, stored.token_hash) or seat.left != stored.left:
                keep = seat.kind == "person" == stored.kind and seat.token_hash == stored.token_hash
                room.seats[stored.seat] = Seat(
                    stored.seat,
                    stored.kind,  # type: ignore[arg-type]
                    stored.name,
                    stored.level,
                    stored.token_hash,
                    stored.profile,
                    stored.left,
                    seat.away_until if keep else None,
                    seat.stand_in if keep else False,
                )
        return True

    def _catch_up(self, room: Room, row: RoomRow) -> bool:
        """Play the stored actions of the room's current mesa that its game lacks; ``False`` (the room
        unchanged) when that is not enough: another mesa, a table that started, a log that does not fit."""
        if row.mesa != room.mesa or row.started != room.started or row.mesa_state != room.mesa_state:
            return False
        if room.logged != len(room.game.actions):
            return False
        new = self.store.load_actions(room.id, row.mesa, after=room.logged)
        if row.state != row.mesa_state + room.logged + len(new):
            return False
        if [seq for seq, _ in new] != list(range(room.logged + 1, room.logged + 1 + len(new))):
            return False
        return play_logged(room, [text for _, text in new])

    def _changed(self, room: Room) -> None:
        """After a stored change: tell every socket, and let the computer players go on."""
        room.broadcast()
        self._kick(room)

    def _save(self, room: Room) -> None:
        """Write a change of the room: its new actions (one log row each), its counters, and the finished
        mesa's history row once it is over — one transaction, whose cost does not grow with the mesa.

        A failed write raises :class:`StoreError` and changes nothing in the room's bookkeeping: the
        caller undoes the change it made and refuses it.
        """
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
                finished.append(room.finished_row(when))
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
        room.version += 1
        room.logged = len(actions)
        if game.is_over:
            room.recorded = room.mesa
            self.on_finished(room, finished[0] if finished else None)

    def on_finished(self, room: Room, row: FinishedRow | None) -> None:
        """Called once a finished mesa is stored (a table rates it: :mod:`cuarenta.server.tables`)."""

    # -- computer players ----------------------------------------------------------------------------------
    def _kick(self, room: Room) -> None:
        """Make sure the computer players of a room are running if one of them is to move."""
        if room.computer_to_move() is None:
            return
        loop = asyncio.get_running_loop()
        task = room.bot_task
        if task is not None and not task.done() and room.bot_loop is loop:
            return
        room.bot_loop = loop
        room.bot_task = loop.create_task(self._run_bots(room), name=f"bots-{room.id}")

    async def _run_bots(self, room: Room) -> None:
        """Play the computer seats' turns, one paced move at a time, until a person is to move.

        Each move is thought in a worker (:attr:`thinking`), which is sent the seat's view and legal
        actions only. An answer that arrives after the room changed (its state counter moved on) is
        dropped and the seat thinks again about the new position.
        """
        while True:
            seat = room.computer_to_move()
            if seat is None:
                return
            await self._pause(room)
            state = room.state
            if room.computer_to_move() != seat:
                continue
            level = room.plays_for(seat)  # a computer seat's level, or who stands in for a person
            assert level is not None
            action = await self._choose(room, seat, level)
            if room.state != state or room.computer_to_move() != seat:
                continue  # the room changed while the player thought: drop the answer, think again
            try:
                self._apply(room, action, by="computer")
            except ProtocolError as exc:
                if exc.code == "stale":  # another process changed the room: think about the new state
                    continue
                if exc.code != "store_unavailable":  # pragma: no cover - legal moves are accepted
                    log.exception("the engine refused the computer's move %s in room %s", action, room.id)
                    return
                await asyncio.sleep(STORE_RETRY_SECONDS)  # not stored, so not made: think again soon

    async def _choose(self, room: Room, seat: int, level: str) -> Action:
        """The action the computer player of ``level`` chooses for ``seat`` (whose turn it is), thought in
        :attr:`thinking` from the seat's view only; the first legal action if the player fails. The
        action is one of the legal actions of the position the request was made for: the caller checks
        that the room has not changed meanwhile."""
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

    async def _pause(self, room: Room) -> None:
        """Wait before a computer move: :meth:`pace_delay` of the room's pace from now. A change of pace
        during the wait applies at once (a faster pace may end it, a slower one lengthens it)."""
        loop = asyncio.get_running_loop()
        start = loop.time()
        await asyncio.sleep(0)
        changed = room.pace_changed = asyncio.Event()  # one per pause: made on the loop that waits
        try:
            while (left := start + self.pace_delay(room.pace) - loop.time()) > 0:
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
        """Stop every computer player and forget the rooms in memory (they stay in the store)."""
        tasks = [
            task
            for r in self._rooms.values()
            for task in (r.bot_task, r.timer_task)
            if task is not None and not task.done()
        ]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, RuntimeError):
                await task
        self._rooms.clear()
        await self.thinking.close()


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
    "CLOSE_SOCKET",
    "LEVELS",
    "PACE_FACTORS",
    "Connection",
    "Room",
    "RoomProblem",
    "Rooms",
    "Seat",
    "SharedMessage",
    "TableOptions",
    "available_levels",
    "default_level",
    "mesa_seed",
    "now_text",
    "room_status",
]
