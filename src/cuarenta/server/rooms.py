"""Rooms, seats and the turn loop of the web app.

A :class:`Room` holds one mesa at a time (a new one after each ``next``) and
its seats: people, who hold a secret token, and computer players of a level.
:class:`Rooms` is the authority over all of them. Everything that changes a
room runs on the server's event loop, in one synchronous step (apply the
action, count the new state, save, queue a ``state`` message for every
socket of the room), so changes are atomic and their messages ordered.
Computer players think in a worker thread (:func:`asyncio.to_thread`) and are
paced by ``bot_delay`` seconds of :func:`asyncio.sleep` before each move, so
they never block the loop.

Every message queued for a socket is built from ``game.view(seat)`` of that
socket's seat, that seat's legal moves and hints on its turn, and the public
events; never a hidden card, never a seed.

Seeds: a room has one seed (given, or random and kept secret). Mesa ``n`` of
the room is dealt from :func:`mesa_seed` (a hash of the room seed and ``n``,
so the record of one mesa, which names its seed, reveals nothing about the
next), and the computer player at seat ``s`` is seeded with ``f"{mesa seed}/{s}"``.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import hashlib
import hmac
import json
import logging
import secrets
import sqlite3
from dataclasses import dataclass, field
from typing import Any, Final, Literal

import cuarenta.players as registry
from cuarenta.errors import CuarentaError, IllegalMoveError, MoveParseError
from cuarenta.game import Game
from cuarenta.moves import Action, parse_action
from cuarenta.players import Player, make_player
from cuarenta.players.hints import seat_hints
from cuarenta.record import GameRecord
from cuarenta.rules import Rules
from cuarenta.server.protocol import (
    JoinMessage,
    MoveMessage,
    NextMessage,
    ProtocolError,
    Status,
    state_message,
)
from cuarenta.server.store import FinishedRow, RoomRow, SeatRow, Store, StoreError, dumps, hash_token

log = logging.getLogger("cuarenta.server")

#: The computer levels offered to people, weakest first (only those registered are offered).
LEVELS: Final = ("facil", "normal", "dificil")
#: Kinds of seat.
SeatKind = Literal["person", "computer"]
#: Events that count as a caída / a limpia for the statistics.
CAIDA_KINDS: Final = frozenset({"caida", "caida_limpia", "caida_ronda"})
LIMPIA_KINDS: Final = frozenset({"limpia", "caida_limpia"})


def available_levels() -> list[str]:
    """The levels of :data:`LEVELS` this installation has (``oracle`` and ``aleatorio`` are never offered)."""
    return [level for level in LEVELS if level in registry.PLAYER_NAMES]


def default_level() -> str:
    """``normal`` when it is available, else the weakest available level."""
    levels = available_levels()
    return "normal" if "normal" in levels else levels[0]


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
        self.code = code  #: "unknown_room", "bad_token" or "corrupt_room"
        self.message = message


@dataclass
class Seat:
    """One seat of a room: a person (with the hash of its token) or a computer player of a level."""

    seat: int
    kind: SeatKind
    name: str = ""
    level: str | None = None
    token_hash: str | None = None

    def public(self) -> dict[str, Any]:
        """What every seat may know about this one (docs/protocol.md ``seats``)."""
        if self.kind == "person":
            return {"seat": self.seat, "kind": "person", "name": self.name}
        return {"seat": self.seat, "kind": "computer", "level": self.level}

    def to_row(self) -> SeatRow:
        return SeatRow(self.seat, self.kind, self.name, self.level, self.token_hash)


class Connection:
    """One browser socket: the seat it joined and the messages waiting to be sent to it."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.room: Room | None = None
        self.seat: int | None = None
        self.mesa = 0  #: the mesa ``sent`` counts events of
        self.sent = 0  #: events of that mesa already sent on this socket

    def send(self, message: dict[str, Any]) -> None:
        self.queue.put_nowait(message)


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
    bots: dict[int, Player] = field(default_factory=dict)
    connections: set[Connection] = field(default_factory=set)
    bot_task: asyncio.Task[None] | None = None
    bot_loop: asyncio.AbstractEventLoop | None = None

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def status(self) -> Status:
        return "finished" if self.game.is_over else "playing"

    @property
    def person_team(self) -> int:
        """The team of the room's first person (its creator)."""
        return next(s.seat for s in self.seats if s.kind == "person") % 2

    def computer_to_move(self) -> int | None:
        """The computer seat whose turn it is, or ``None`` (a person's turn, or the mesa is over)."""
        if self.game.is_over:
            return None
        seat = self.seats[self.game.turn]
        return seat.seat if seat.kind == "computer" else None

    def bot(self, seat: int) -> Player:
        """The computer player of ``seat`` for the current mesa (made on first use)."""
        player = self.bots.get(seat)
        if player is None:
            level = self.seats[seat].level
            assert level is not None
            player = make_player(level, seed=f"{self.game.seed}/{seat}")
            player.start(seat, self.rules)
            self.bots[seat] = player
        return player

    def public_seats(self) -> list[dict[str, Any]]:
        return [s.public() for s in self.seats]

    def message_for(self, conn: Connection) -> dict[str, Any]:
        """The ``state`` message for a socket's seat, with the events it has not been sent yet."""
        seat = conn.seat
        assert seat is not None
        game = self.game
        if conn.mesa != self.mesa:
            conn.mesa, conn.sent = self.mesa, 0
        events = [e.to_dict() for e in game.events[conn.sent :]]
        conn.sent = len(game.events)
        view = game.view(seat)
        legal = [str(a) for a in game.legal_moves()] if not game.is_over and game.turn == seat else []
        return state_message(
            room=self.id,
            state=self.state,
            mesa=self.mesa,
            seat=seat,
            seats=self.public_seats(),
            view=view.to_dict(),
            legal=legal,
            hints=seat_hints(view, legal),
            events=events,
            status=self.status,
        )

    def broadcast(self) -> None:
        """Queue the new state for every socket in the room."""
        for conn in list(self.connections):
            conn.send(self.message_for(conn))

    def names(self) -> list[str]:
        """Seat names for a record: the person's name (or ``person``), ``bot:LEVEL`` for the computer."""
        return [(s.name or "person") if s.kind == "person" else f"bot:{s.level}" for s in self.seats]

    def finished_row(self, when: str) -> FinishedRow:
        """The history row of the finished mesa."""
        game = self.game
        outcome = game.outcome
        assert outcome is not None
        team = self.person_team
        caidas = sum(1 for e in game.events if e.kind in CAIDA_KINDS and getattr(e, "team", None) == team)
        limpias = sum(
            1
            for e in game.events
            if getattr(e, "team", None) == team
            and (e.kind in LIMPIA_KINDS or (e.kind == "caida_ronda" and getattr(e, "limpia", False)))
        )
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
        )


def _room_from_row(row: RoomRow) -> Room:
    """Decode a stored room; anything wrong raises :class:`RoomProblem` (``corrupt_room``)."""
    try:
        rules = Rules.from_dict(json.loads(row.rules))
        seed = json.loads(row.seed)
        if not isinstance(seed, int | str) or isinstance(seed, bool):
            raise ValueError(f"the room seed {seed!r} is not a number or text")
        game = Game.from_json(row.game)
        if game.rules != rules:
            raise ValueError("the saved game's rules differ from the room's")
        if not isinstance(row.mesa, int) or row.mesa < 1 or game.seed != mesa_seed(seed, row.mesa):
            raise ValueError("the saved game is not the room's mesa")
        if not isinstance(row.state, int) or row.state < 0:
            raise ValueError(f"state {row.state!r} is not a count")
        if len(row.seats) != rules.players or [s.seat for s in row.seats] != list(range(rules.players)):
            raise ValueError(f"the room has {len(row.seats)} seats for {rules.players} players")
        seats: list[Seat] = []
        for s in row.seats:
            if s.kind == "person":
                if not s.token_hash:
                    raise ValueError(f"person seat {s.seat} has no token")
                seats.append(Seat(s.seat, "person", s.name, None, s.token_hash))
            elif s.kind == "computer":
                if s.level not in registry.PLAYER_NAMES:
                    raise ValueError(
                        f"computer seat {s.seat} has level {s.level!r}, which this version lacks"
                    )
                seats.append(Seat(s.seat, "computer", s.name, s.level, None))
            else:
                raise ValueError(f"seat {s.seat} is of unknown kind {s.kind!r}")
        if not any(s.kind == "person" for s in seats):
            raise ValueError("the room has no person seat")
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
    )


class Rooms:
    """Every room of the server: creation, loading from the store, joins, moves and the computer players.

    Call it from the server's event loop only (the app's handlers that use it are coroutines): then a room
    is loaded once and changed by one step at a time, without locks.
    """

    def __init__(self, store: Store, bot_delay: float = 0.8) -> None:
        if bot_delay < 0:
            raise ValueError(f"bot_delay must be 0 or more seconds, not {bot_delay}")
        self.store = store
        self.bot_delay = bot_delay
        self._rooms: dict[str, Room] = {}

    # -- creating and finding rooms ----------------------------------------------------------------
    def create(
        self,
        *,
        rules: Rules,
        level: str,
        name: str = "",
        seed: int | str | None = None,
    ) -> tuple[Room, str]:
        """A new room against the computer: the person at seat 0, computer players of ``level`` elsewhere.

        Returns the room and the person's token (only its hash is kept).
        """
        if level not in available_levels():
            raise ValueError(f"unknown level {level!r}: choose one of {', '.join(available_levels())}")
        if seed is None:
            seed = secrets.randbelow(2**63)
        token = secrets.token_urlsafe(24)
        room_id = secrets.token_urlsafe(9)
        while room_id in self._rooms or self.store.load_room(room_id) is not None:  # pragma: no cover
            room_id = secrets.token_urlsafe(9)
        seats = [Seat(0, "person", name, None, hash_token(token))]
        seats += [Seat(s, "computer", "", level, None) for s in range(1, rules.players)]
        game = Game.new(rules, mesa_seed(seed, 1))
        when = now_text()
        room = Room(
            id=room_id, created=when, level=level, rules=rules, seed=seed, seats=seats, mesa=1, game=game
        )
        self.store.insert_room(
            RoomRow(
                id=room.id,
                created=when,
                updated=when,
                players=rules.players,
                level=level,
                rules=dumps(rules.to_dict()),
                seed=dumps(seed),
                mesa=room.mesa,
                state=room.state,
                status=room.status,
                game=game.to_json(),
                seats=tuple(s.to_row() for s in seats),
            )
        )
        self._rooms[room.id] = room
        return room, token

    def get(self, room_id: str) -> Room:
        """A room, loaded from the store if it is not in memory (after a restart)."""
        room = self._rooms.get(room_id)
        if room is not None:
            return room
        row = self.store.load_room(room_id)
        if row is None:
            raise RoomProblem("unknown_room", f"there is no room {room_id!r}")
        room = _room_from_row(row)
        self._rooms[room.id] = room
        return room

    def seat_of(self, room_id: str, token: str) -> int:
        """The seat of a token in a room, without loading its game (``unknown_room``, ``bad_token``)."""
        room = self._rooms.get(room_id)
        digest = hash_token(token)
        if room is not None:
            for s in room.seats:
                if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest):
                    return s.seat
            raise RoomProblem("bad_token", f"that token holds no seat in room {room_id}")
        if self.store.load_room(room_id) is None:
            raise RoomProblem("unknown_room", f"there is no room {room_id!r}")
        seat = self.store.seat_of_token(room_id, digest)
        if seat is None:
            raise RoomProblem("bad_token", f"that token holds no seat in room {room_id}")
        return seat

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
        self.leave(conn)
        conn.room, conn.seat = room, seat
        conn.mesa = room.mesa
        conn.sent = 0 if not room.game.actions else len(room.game.events)
        room.connections.add(conn)
        conn.send(room.message_for(conn))
        self._kick(room)

    def move(self, conn: Connection, message: MoveMessage) -> None:
        """A person's action; refused with the protocol's error codes, changing nothing."""
        room, seat = self._joined(conn)
        game = room.game
        if game.is_over:
            raise ProtocolError("game_over", "the mesa is over: no more moves (send next for a new mesa)")
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
            raise ProtocolError("illegal_move", str(exc)) from None
        self._apply(room, action)

    def next_mesa(self, conn: Connection, message: NextMessage) -> None:
        """Start a new mesa in the room once the current one is finished."""
        room, _ = self._joined(conn)
        if not room.game.is_over:
            raise ProtocolError(
                "not_finished", "the mesa is still in play: next starts a new one once it is won"
            )
        room.mesa += 1
        room.game = Game.new(room.rules, mesa_seed(room.seed, room.mesa))
        room.bots = {}
        room.state += 1
        self._save(room)
        room.broadcast()
        self._kick(room)

    def leave(self, conn: Connection) -> None:
        """Forget a socket (closed, or joining another seat)."""
        if conn.room is not None:
            conn.room.connections.discard(conn)
        conn.room, conn.seat = None, None

    def _joined(self, conn: Connection) -> tuple[Room, int]:
        if conn.room is None or conn.seat is None:
            raise ProtocolError("not_joined", "send join with your room and token first")
        return conn.room, conn.seat

    # -- changing a room -------------------------------------------------------------------------------
    def _apply(self, room: Room, action: Action) -> None:
        """Play an action and tell everyone (one synchronous step on the event loop)."""
        try:
            room.game.play(action)
        except IllegalMoveError as exc:  # GameOverError included
            raise ProtocolError("illegal_move", str(exc)) from None
        room.state += 1
        self._save(room)
        room.broadcast()
        self._kick(room)

    def _save(self, room: Room) -> None:
        """Write the room after a change. A failed write is logged and the game goes on: every save
        holds the whole mesa, so the next one catches up."""
        when = now_text()
        try:
            finished = room.finished_row(when) if room.game.is_over else None
            self.store.save_room(
                room.id,
                updated=when,
                mesa=room.mesa,
                state=room.state,
                status=room.status,
                game=room.game.to_json(),
                finished=finished,
            )
        except (StoreError, sqlite3.Error, CuarentaError):
            log.exception("saving room %s failed", room.id)

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
        """Play the computer seats' turns, one paced move at a time, until a person is to move."""
        while True:
            seat = room.computer_to_move()
            if seat is None:
                return
            await asyncio.sleep(self.bot_delay)
            state = room.state
            if room.computer_to_move() != seat:
                continue
            view = room.game.view(seat)
            legal = room.game.legal_moves()
            player = room.bot(seat)
            try:
                action = await asyncio.to_thread(player.choose, view, legal)
            except Exception:
                log.exception("computer player %s at seat %d of room %s failed", player, seat, room.id)
                action = legal[0]
            if room.state != state or room.computer_to_move() != seat:
                continue  # the room changed while the player thought: think again
            if action not in legal:
                log.error(
                    "computer player %s chose %r, which is not legal; playing %s", player, action, legal[0]
                )
                action = legal[0]
            try:
                self._apply(room, action)
            except ProtocolError:  # pragma: no cover - legal moves are accepted
                log.exception("the engine refused the computer's legal move %s in room %s", action, room.id)
                return

    async def close(self) -> None:
        """Stop every computer player and forget the rooms in memory (they stay in the store)."""
        tasks = [r.bot_task for r in self._rooms.values() if r.bot_task is not None and not r.bot_task.done()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, RuntimeError):
                await task
        self._rooms.clear()


def room_status(room: Room) -> dict[str, Any]:
    """What ``GET /api/rooms/{room}`` tells a token's holder (no cards)."""
    return {"room": room.id, "status": room.status, "mesa": room.mesa}


__all__ = [
    "LEVELS",
    "Connection",
    "Room",
    "RoomProblem",
    "Rooms",
    "Seat",
    "available_levels",
    "default_level",
    "mesa_seed",
    "now_text",
    "room_status",
]
