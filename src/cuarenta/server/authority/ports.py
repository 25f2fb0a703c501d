"""The authority's ports: what it is given, as boardgame.io's master is given its storage and transport.

- the **store** (:class:`StorePort`): where rooms, their action logs and finished mesas are kept; the
  store of :mod:`cuarenta.server.store` (SQLite or PostgreSQL) satisfies it. The rows it reads and writes
  and the errors it raises are declared here, so the authority needs no database library;
- the **bus** (:class:`Bus`): how the other server processes of a cluster hear of a change and how this
  one hears of theirs; :class:`~cuarenta.server.authority.bus.LocalBus` for one process,
  :class:`cuarenta.server.cluster.bus.RedisBus` in a cluster;
- the **scheduler** (:class:`Scheduler`): who plays the computer's turns;
  :class:`~cuarenta.server.authority.computer.LocalScheduler` thinks in this process' pool,
  :class:`cuarenta.server.cluster.jobs.JobScheduler` puts a job on the cluster's stream for the workers;
- the **ratings** (:class:`Ratings`): what a rated table's finished mesa changes (profiles, fair play);
- the **outbox**: each socket's :class:`~cuarenta.server.authority.model.Connection` (its queue).

>>> hash_token("abc") == hash_token("abc") != hash_token("abd")
True
>>> dumps({"a": [1, "ñ"]})
'{"a":[1,"ñ"]}'
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from cuarenta.server.authority.model import Connection, Room


# -- the store's errors and rows ---------------------------------------------------------------------------
class StoreError(Exception):
    """The database cannot be opened or used, or refused a write; the message says why."""


class StoreConflict(StoreError):
    """A write of a room lost a compare-and-set: another process changed the room first (its ``version``
    is not the one the writer read). Nothing was written; reload the room and decide again."""


class StoreUnknown(StoreError):
    """A write whose outcome is unknown: the connection to the database was lost while the database had
    it (its commit, or a statement that is its own transaction), so it may or may not have been applied.
    Only a read once the database answers tells (issue 25: a move answered "not made" was in the log).

    ``finish``, when the store knows how, makes the outcome final before that read (it waits until the
    lost connection's session on the database has ended, ending it if need be) and raises
    :class:`StoreError` while the database does not answer."""

    def __init__(self, message: str, finish: Callable[[], None] | None = None) -> None:
        super().__init__(message)
        self.finish = finish


class StoreCorrupt(StoreError):
    """What the database holds is damaged: SQLite's "database disk image is malformed" or "file is not a
    database", or a row that cannot be decoded (docs/storage.md "Storage faults")."""


def hash_token(token: str) -> str:
    """The stored form of a seat's secret token (tokens are long random strings, so a plain hash does)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def dumps(value: Any) -> str:
    """Compact JSON for a column."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


@dataclass(frozen=True)
class SeatRow:
    seat: int
    kind: str  #: "person", "computer" or "open" (a table's seat waiting for a friend)
    name: str
    level: str | None  #: computer seats
    token_hash: str | None  #: person seats
    profile: str | None = None  #: the anonymous profile a person seat plays for
    left: bool = False  #: the person left the table for good: a computer player holds the seat
    # taking a seat back (docs/tables.md "Taking a seat back"; migration 0007)
    code_hash: str | None = None  #: the hash of the person's seat code (authority/codes.py)
    former_hash: str | None = None  #: the hash of the seat's last token before it was replaced
    former: str | None = None  #: why it was replaced: "reclaimed" (by its code) or "handed" (by the creator)
    vacant: bool = False  #: handed over by the creator: the computer plays it until someone new takes it


@dataclass(frozen=True)
class RoomRow:
    """A room as stored: text and numbers only (decoded by the rooms module). Its log is read apart
    (:meth:`cuarenta.server.store.Store.load_actions`)."""

    id: str
    created: str
    updated: str
    players: int
    level: str
    rules: str  #: JSON of Rules.to_dict()
    seed: str  #: JSON of the room's seed (never sent to a browser)
    mesa: int  #: 1 for the first mesa
    state: int  #: the room's state counter (every action and every new mesa adds one)
    status: str  #: "playing" or "finished" (the current mesa)
    seats: tuple[SeatRow, ...]
    practice: bool = False  #: a practice room (its seed may have been chosen): never in the statistics
    mesa_state: int = 0  #: the state counter when the current mesa began
    #: why the room cannot be resumed, when a migration could not turn its saved game into a log
    problem: str | None = None
    #: JSON of a table's options (docs/tables.md); ``None`` for a room against the computer
    table_options: str | None = None
    started: bool = True  #: False while a table waits for people
    version: int = 0  #: the room's write counter (each write is a compare-and-set on it)


@dataclass(frozen=True)
class ActionRow:
    """One row of a room's action log: action ``seq`` (1, 2 …) of mesa ``mesa``, in the engine's notation."""

    room: str
    mesa: int
    seq: int
    action: str
    at: str


@dataclass(frozen=True)
class FinishedRow:
    """A finished mesa, for the history, the statistics and the record download."""

    room: str
    mesa: int
    finished: str
    level: str
    players: int
    rules: str  #: JSON
    seats: str  #: JSON list of the public seat descriptions
    person_team: int
    winner: int
    chicas: str  #: JSON [team 0, team 1]
    chica_results: str  #: JSON list
    caidas: int
    limpias: int
    record: str  #: GameRecord text
    practice: bool = False  #: a practice room's mesa: never counted in the statistics
    #: JSON [[caídas, limpias] of team 0, of team 1] (tables: each person sees their own team's)
    team_counts: str | None = None

    def for_team(self, team: int) -> FinishedRow:
        """The row as seen by a person of ``team`` (at a table, anyone's): ``person_team`` is that team,
        and the caídas and limpias are its own.

        >>> row = FinishedRow("r", 1, "2026-12-01T00:00:00Z", "normal", 2, "{}", "[]", 0, 1, "[0, 1]", "[]",
        ...                   3, 1, "", team_counts="[[3, 1], [5, 2]]")
        >>> seen = row.for_team(1)
        >>> seen.person_team, seen.caidas, seen.limpias, seen.winner == seen.person_team
        (1, 5, 2, True)
        """
        if team == self.person_team:
            return self
        if self.team_counts is None:  # a room against the computer: only the person's team was counted
            return dataclasses.replace(self, person_team=team, caidas=0, limpias=0)
        caidas, limpias = json.loads(self.team_counts)[team]
        return dataclasses.replace(self, person_team=team, caidas=caidas, limpias=limpias)


@dataclass(frozen=True)
class PlayingRow:
    """A room whose current mesa is still in play, for the history's list of unfinished games."""

    room: str
    created: str
    updated: str  #: the last change (a move, a new mesa)
    players: int
    level: str
    rules: str  #: JSON
    mesa: int
    moves: int  #: actions played in the current mesa
    practice: bool = False


# -- the ports ----------------------------------------------------------------------------------------------
class StorePort(Protocol):
    """What the authority asks of its store (:class:`cuarenta.server.store.Store` satisfies it). Every
    method raises :class:`StoreError` when the database cannot be used; the writes of a room are a
    compare-and-set on its ``version`` (:class:`StoreConflict`)."""

    def insert_room(self, room: RoomRow) -> None: ...

    def save_seats(  # noqa: PLR0913 - the store port's keyword-only fields, one per column written
        self,
        room_id: str,
        *,
        updated: str,
        started: bool,
        status: str,
        state: int,
        mesa_state: int,
        seats: Sequence[SeatRow],
        version: int | None = None,
        seed: str | None = None,
        table_options: str | None = None,
    ) -> None: ...

    def save_room(  # noqa: PLR0913 - the store port's keyword-only fields, one per column written
        self,
        room_id: str,
        *,
        updated: str,
        mesa: int,
        state: int,
        mesa_state: int,
        status: str,
        actions: Sequence[ActionRow] = (),
        finished: Sequence[FinishedRow] = (),
        version: int | None = None,
    ) -> None: ...

    def room_exists(self, room_id: str) -> bool: ...

    def load_room(self, room_id: str) -> RoomRow | None: ...

    def waiting_table_rows(self, limit: int) -> list[RoomRow]: ...

    def load_actions(self, room_id: str, mesa: int, after: int = 0) -> list[tuple[int, str]]: ...

    def room_versions(self, room_ids: Sequence[str]) -> dict[str, int]: ...

    def token_seat(self, room_id: str, token_hash: str) -> tuple[int, bool] | None: ...

    def former_token_seat(self, room_id: str, token_hash: str) -> tuple[int, str] | None: ...


class Ratings(Protocol):
    """What a rated table tells the profiles (:class:`cuarenta.server.ratings.rating.StoreRatings`)."""

    def seen(self, profile: str, address: str | None) -> None:
        """A rated seat's person plays from ``address`` (fair play notes its network)."""

    def finished(self, room: Room, row: FinishedRow) -> None:
        """A rated table's mesa is finished and stored: rate it (or say why not)."""


class Bus(Protocol):
    """How a change reaches the other server processes of a cluster, and theirs this one (the authority
    calls these; a :class:`~cuarenta.server.authority.bus.LocalBus` does nothing)."""

    def trusts(self, room_id: str) -> bool:
        """Whether the copy of a room in memory may be used without asking the store (one process: always;
        a cluster node: a room whose notices it follows, or one read a moment ago for a join)."""

    def read(self, room_id: str) -> None:
        """The room was just read from, or compared with, the store."""

    def others_write(self) -> bool:
        """Whether other server processes write the same store (a cluster): then even a copy the bus
        trusts may lack a change whose notice is on its way, and a token it does not know is looked for
        in the store once more before it is refused."""

    def joining(self, room_id: str) -> AbstractContextManager[None]:
        """Around a socket's join or watch of ``room_id`` (whose read the bus may trust)."""

    def gate(self, conn: Connection, room_id: str | None, run: Callable[[], None]) -> None:
        """Run a socket's request now, or once the room it needs is read (``room_id``: a join or watch)."""

    def followed(self, room: Room) -> None:
        """A socket of this process joined or watches ``room``."""

    def leaving(self, conn: Connection, keep: Room | None) -> None:
        """A socket is about to leave its room (closed, or joining ``keep``)."""

    def left(self, room: Room) -> None:
        """A socket of this process left ``room``."""

    def stored(self, room: Room, appended: tuple[int, int] | None) -> None:
        """This process stored a change of ``room``: with ``appended`` (mesa, actions logged before), the
        actions of a move; ``None``: seats or a new mesa (the others read the store)."""

    def reacted(self, room: Room, seat: int, saying: str) -> None:
        """A seat of ``room`` sent a reaction here."""

    def voted(self, room: Room, seat: int) -> None:
        """A seat of ``room`` agreed to a rematch here (and the mesa did not start yet)."""

    async def open(self) -> None:
        """Start (on the event loop)."""

    async def close(self) -> None:
        """Stop, while the rooms are still in memory."""


class Scheduler(Protocol):
    """Who plays the computer's turns (a pool of this process, or the workers of a cluster)."""

    def kick(self, room: Room) -> None:
        """A computer may be to move in ``room``: make sure its move comes (once)."""

    def busy(self, room: Room) -> bool:
        """Whether a computer's move of ``room`` is under way in this process (it stays in memory)."""

    async def close(self) -> None:
        """Stop every computer player of this process."""


def rows_of(seats: Iterable[Any]) -> tuple[SeatRow, ...]:
    """The store's rows of some seats (anything with ``to_row()``)."""
    return tuple(s.to_row() for s in seats)


__all__ = [
    "ActionRow",
    "Bus",
    "FinishedRow",
    "PlayingRow",
    "Ratings",
    "RoomRow",
    "Scheduler",
    "SeatRow",
    "StoreConflict",
    "StoreCorrupt",
    "StoreError",
    "StorePort",
    "StoreUnknown",
    "dumps",
    "hash_token",
    "rows_of",
]
