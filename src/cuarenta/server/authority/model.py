"""The state a table's authority holds: rooms, seats, a table's options and the sockets of a room.

A :class:`Room` holds one mesa at a time (a new one after each ``next`` or rematch) and its seats: people,
who hold a secret token, and computer players of a level; at a table with friends (docs/tables.md), open
seats too, presence, the turn clock and the rematch votes. A :class:`Connection` is one browser socket of
a room (the authority's outbox: it queues what the socket is to send). This module holds data and the
facts read from it; the rules that change it are in :mod:`cuarenta.server.authority.core` and the small
rule modules beside it, and what each socket may see is in :mod:`cuarenta.server.authority.audience`.

Seeds: a room has one seed, chosen by the server and kept secret (only a *practice* room may be given one;
its mesas never count in the statistics). Mesa ``n`` of the room is dealt from :func:`mesa_seed` (a hash of
the room seed and ``n``, so the record of one mesa, which names its seed, reveals nothing about the next),
and the computer player at seat ``s`` is seeded with ``f"{mesa seed}/{s}"``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime
import json
from dataclasses import dataclass, field
from typing import Any, Final, Literal

import cuarenta.players as registry
from cuarenta.game import Game
from cuarenta.i18n import SayingLog
from cuarenta.rules import Rules
from cuarenta.seeds import mesa_seed  # a room's mesas are dealt as any series' (re-exported here)
from cuarenta.server.authority.messages import Pace, Status
from cuarenta.server.authority.ports import SeatRow, dumps
from cuarenta.server.authority.wire.messages import SharedMessage  # version 2's frames are shared too

#: The computer levels offered to people, weakest first (only those registered are offered).
LEVELS: Final = ("facil", "normal", "dificil", "experto")
#: Kinds of seat (``open``: a table's seat that waits for a friend).
SeatKind = Literal["person", "computer", "open"]
#: The most rooms kept in memory (more are loaded again from the store when asked for).
DEFAULT_MAX_ROOMS: Final = 1000
#: Seconds after which an unused room leaves memory.
DEFAULT_IDLE_SECONDS: Final = 900.0


def available_levels() -> list[str]:
    """The levels of :data:`LEVELS` this installation has (``oracle`` and ``aleatorio`` are never offered)."""
    return [level for level in LEVELS if level in registry.PLAYER_NAMES]


def default_level() -> str:
    """``normal`` when it is available, else the weakest available level."""
    levels = available_levels()
    return "normal" if "normal" in levels else levels[0]


def now_text() -> str:
    """The current UTC time as ``2026-11-29T18:03:12Z``."""
    return datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


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
    # taking a seat back (docs/tables.md): the hash of the person's seat code; the last token replaced
    # (its hash) and why ("reclaimed", "handed"), so that it is told so; a seat the creator handed over
    # (a computer seat, keeping the name, that someone new may take with the invite)
    code_hash: str | None = None
    former_hash: str | None = None
    former: str | None = None
    vacant: bool = False

    def to_row(self) -> SeatRow:
        return SeatRow(
            self.seat,
            self.kind,
            self.name,
            self.level,
            self.token_hash,
            self.profile,
            self.left,
            self.code_hash,
            self.former_hash,
            self.former,
            self.vacant,
        )


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
    #: a championship's table (docs/championships.md "Running a championship"): the championship's id and
    #: the partida's; ``None`` for a table with friends (rows stored before them read as ``None``)
    championship: str | None = None
    partida: str | None = None
    #: a championship's table that its judge paused (moves refused, the computers wait) and why, as the
    #: judge wrote it; one that the judge's restart replaced: it stops for good, its partida goes on at a
    #: new table (docs/championships.md "Running a championship"). Stored with the room: every server
    #: process and worker that reads it knows it.
    paused: bool = False
    pause_reason: str | None = None
    replaced: bool = False

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
        if (
            not isinstance(options.invite, str)
            or options.level not in registry.PLAYER_NAMES
            or not isinstance(options.paused, bool)
            or not isinstance(options.replaced, bool)
            or not isinstance(options.pause_reason, str | None)
        ):
            raise ValueError(f"the table's options are not valid: {data}")
        return options


class Connection:
    """One browser socket: the seat it joined (``None`` for a spectator of a table, whose ``room`` is set)
    and the messages waiting to be sent to it."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.room: Room | None = None
        self.seat: int | None = None
        #: the game ``sent`` counts events of (:attr:`Room.dealt`: its mesa and the state it was dealt at)
        self.dealt = (0, 0)
        self.sent = 0  #: events of that game already sent on this socket
        self.address: str | None = None  #: the client's address (rated tables note a profile's network)
        self.close_code: int | None = None  #: set by :meth:`close`
        #: the protocol version it joined with: 2 once it joined or watches (authority/wire; the authority
        #: speaks version 2 alone: the edge's server/edge/version1.py turns a version-1 socket's messages)
        self.protocol = 1
        self.hints = True  #: whether the socket is sent its seat's hints (version 2: when its join asks)
        self.token_hash: str | None = None  #: the hash of the token it joined with (a seat taken back)

    def send(self, message: dict[str, Any]) -> None:
        self.queue.put_nowait(message)

    def attached(self) -> None:
        """A join or watch of this socket was accepted: what it is sent from now on is that room's (called
        before its first message). A refused one never calls this: the socket stays as it was."""

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
    #: the mesa's events as the wire has them, described once each (audience.wired_events), of the game
    #: ``described_dealt`` (a :attr:`dealt`)
    described: list[dict[str, Any]] = field(default_factory=list)
    described_dealt: tuple[int, int] = (0, 0)
    wire: Any = None  #: the version-2 state of the room (authority/wire/events.py: WireState), if any

    @property
    def paused(self) -> bool:
        """A championship's table paused by its judge: moves are refused and the computers wait."""
        return self.table is not None and self.table.paused

    @property
    def replaced(self) -> bool:
        """A championship's table replaced by its judge's restart: it stops for good."""
        return self.table is not None and self.table.replaced

    @property
    def halted(self) -> bool:
        """Paused or replaced: nobody moves (no legal move is offered, no turn clock runs)."""
        return self.paused or self.replaced

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def dealt(self) -> tuple[int, int]:
        """Which game the room's events are of: its mesa and the state it was dealt at. A table that
        starts deals anew from a fresh seed in the same mesa (the game its waiting room showed is gone),
        so the mesa's number alone does not say it."""
        return (self.mesa, self.mesa_state)

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
        if self.game.is_over or not self.started or self.halted:
            return None
        turn = self.game.turn
        return turn if self.plays_for(turn) is not None else None

    def names(self) -> list[str]:
        """Seat names for a record: the person's name (or ``person``), ``bot:LEVEL`` for the computer."""
        return [(s.name or "person") if s.kind == "person" else f"bot:{s.level}" for s in self.seats]


__all__ = [
    "CLOSE_SOCKET",
    "LEVELS",
    "Connection",
    "Room",
    "Seat",
    "SeatKind",
    "SharedMessage",
    "TableOptions",
    "available_levels",
    "default_level",
    "mesa_seed",
    "now_text",
]
