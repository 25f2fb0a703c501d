#!/usr/bin/env python3
"""The hand-written SQLite store of cuarenta 0.1 (schema 1), frozen, and a writer of v1 databases.

cuarenta 0.1 kept each room as one row whose ``game`` column held ``Game.to_json()`` of the current mesa,
rewritten after every move, in a file with ``PRAGMA user_version = 1``. This module keeps that code as it
was (the DDL, ``insert_room`` and ``save_room`` with the same SQL and pragmas) so that

- ``tests/test_store_migration.py`` can write a *real* v1 database — rooms created, moves played, mesas
  finished and started again, exactly as the old server saved them — and check that the current store
  migrates it with nothing lost;
- ``bench/store_write.py`` can time the old write (the "before" figure of docs/performance.md).

:class:`V1Server` plays rooms the way the old ``cuarenta.server.rooms`` saved them: the room row at
creation, ``save_room`` with the whole game after every action and every new mesa, and a ``finished``
row (with the game record) when a mesa ends.

Usage::

    .venv/bin/python scripts/v1_store.py OUT.sqlite3     # write a v1 database with a few rooms
"""

from __future__ import annotations

import hashlib
import json
import random
import sqlite3
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cuarenta.game import Game
from cuarenta.record import GameRecord
from cuarenta.rules import Rules

#: The schema version of the hand-written store.
SCHEMA_VERSION = 1

#: cuarenta 0.1's ``MIGRATIONS[1]``, verbatim.
V1_DDL = (
    """
    CREATE TABLE rooms (
        id TEXT PRIMARY KEY,
        created TEXT NOT NULL,
        updated TEXT NOT NULL,
        players INTEGER NOT NULL,
        level TEXT NOT NULL,
        rules TEXT NOT NULL,
        seed TEXT NOT NULL,
        mesa INTEGER NOT NULL,
        state INTEGER NOT NULL,
        status TEXT NOT NULL,
        game TEXT NOT NULL
    )
    """,
    """
    CREATE TABLE seats (
        room TEXT NOT NULL REFERENCES rooms(id),
        seat INTEGER NOT NULL,
        kind TEXT NOT NULL,
        name TEXT NOT NULL,
        level TEXT,
        token_hash TEXT,
        PRIMARY KEY (room, seat)
    )
    """,
    "CREATE INDEX seats_by_token ON seats(token_hash)",
    """
    CREATE TABLE finished (
        room TEXT NOT NULL REFERENCES rooms(id),
        mesa INTEGER NOT NULL,
        finished TEXT NOT NULL,
        level TEXT NOT NULL,
        players INTEGER NOT NULL,
        rules TEXT NOT NULL,
        seats TEXT NOT NULL,
        person_team INTEGER NOT NULL,
        winner INTEGER NOT NULL,
        chicas TEXT NOT NULL,
        chica_results TEXT NOT NULL,
        caidas INTEGER NOT NULL,
        limpias INTEGER NOT NULL,
        record TEXT NOT NULL,
        PRIMARY KEY (room, mesa)
    )
    """,
)

FINISHED_COLUMNS = (
    "room, mesa, finished, level, players, rules, seats, person_team, winner, chicas, chica_results, "
    "caidas, limpias, record"
)
CAIDA_KINDS = frozenset({"caida", "caida_limpia", "caida_ronda"})
LIMPIA_KINDS = frozenset({"limpia", "caida_limpia"})


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def mesa_seed(room_seed: int | str, mesa: int) -> int:
    """cuarenta 0.1's seed of a room's mesa (unchanged since: the current rooms module has the same)."""
    digest = hashlib.sha256(f"cuarenta-room/{room_seed}/mesa/{mesa}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


class V1Store:
    """The hand-written store's writing half, as it was (one connection, WAL, explicit transactions)."""

    def __init__(self, path: Path) -> None:
        self.conn = sqlite3.connect(str(path), isolation_level=None)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=NORMAL")
        self.conn.execute("PRAGMA foreign_keys=ON")
        version = int(self.conn.execute("PRAGMA user_version").fetchone()[0])
        if version == 0:
            self.conn.execute("BEGIN IMMEDIATE")
            for sql in V1_DDL:
                self.conn.execute(sql)
            self.conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            self.conn.execute("COMMIT")

    def close(self) -> None:
        self.conn.close()

    def insert_room(self, room: tuple[Any, ...], seats: list[tuple[Any, ...]]) -> None:
        self.conn.execute("BEGIN IMMEDIATE")
        self.conn.execute(
            "INSERT INTO rooms (id, created, updated, players, level, rules, seed, mesa, state, "
            "status, game) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            room,
        )
        self.conn.executemany(
            "INSERT INTO seats (room, seat, kind, name, level, token_hash) VALUES (?, ?, ?, ?, ?, ?)", seats
        )
        self.conn.execute("COMMIT")

    def save_room(
        self,
        room_id: str,
        *,
        updated: str,
        mesa: int,
        state: int,
        status: str,
        game: str,
        finished: tuple[Any, ...] | None = None,
    ) -> None:
        """The old write after every move: the whole game JSON, and the finished row at the end."""
        self.conn.execute("BEGIN IMMEDIATE")
        self.conn.execute(
            "UPDATE rooms SET updated = ?, mesa = ?, state = ?, status = ?, game = ? WHERE id = ?",
            (updated, mesa, state, status, game, room_id),
        )
        if finished is not None:
            self.conn.execute(
                f"INSERT OR REPLACE INTO finished ({FINISHED_COLUMNS}) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                finished,
            )
        self.conn.execute("COMMIT")


@dataclass
class V1Room:
    """A room as cuarenta 0.1 held it: the person at seat 0, computer players of ``level`` elsewhere."""

    id: str
    token: str
    level: str
    rules: Rules
    seed: int | str
    name: str = "Ana"
    mesa: int = 1
    state: int = 0
    game: Game = field(init=False)

    def __post_init__(self) -> None:
        self.game = Game.new(self.rules, mesa_seed(self.seed, self.mesa))

    def public_seats(self) -> list[dict[str, Any]]:
        return [{"seat": 0, "kind": "person", "name": self.name}] + [
            {"seat": s, "kind": "computer", "level": self.level} for s in range(1, self.rules.players)
        ]

    def finished_row(self, when: str) -> tuple[Any, ...]:
        game = self.game
        outcome = game.outcome
        assert outcome is not None
        team = 0
        caidas = sum(1 for e in game.events if e.kind in CAIDA_KINDS and getattr(e, "team", None) == team)
        limpias = sum(
            1
            for e in game.events
            if getattr(e, "team", None) == team
            and (e.kind in LIMPIA_KINDS or (e.kind == "caida_ronda" and getattr(e, "limpia", False)))
        )
        names = [self.name] + [f"bot:{self.level}"] * (self.rules.players - 1)
        record = GameRecord.from_game(game, seats=names, headers={"Event": "Cuarenta web", "Date": when[:10]})
        return (
            self.id,
            self.mesa,
            when,
            self.level,
            self.rules.players,
            dumps(self.rules.to_dict()),
            dumps(self.public_seats()),
            team,
            outcome.winner,
            dumps(list(outcome.chicas)),
            dumps([r.to_dict() for r in game.chica_results]),
            caidas,
            limpias,
            record.to_text(),
        )


class V1Server:
    """Plays rooms and saves them as cuarenta 0.1's server did (the store calls, in the same order)."""

    def __init__(self, path: Path) -> None:
        self.store = V1Store(path)
        self.rooms: dict[str, V1Room] = {}
        self.clock = 0

    def now(self) -> str:
        self.clock += 1
        minutes, seconds = divmod(self.clock, 60)
        return f"2026-11-29T{10 + minutes // 60:02d}:{minutes % 60:02d}:{seconds:02d}Z"

    def create(
        self, room_id: str, *, level: str = "facil", rules: Rules | None = None, seed: int = 1
    ) -> V1Room:
        room = V1Room(room_id, f"token-{room_id}", level, rules or Rules(), seed)
        when = self.now()
        self.store.insert_room(
            (room.id, when, when, room.rules.players, level, dumps(room.rules.to_dict()), dumps(seed),
             room.mesa, room.state, "playing", room.game.to_json()),
            [(room.id, 0, "person", room.name, None, hashlib.sha256(room.token.encode()).hexdigest())]
            + [(room.id, s, "computer", "", level, None) for s in range(1, room.rules.players)],
        )  # fmt: skip
        self.rooms[room_id] = room
        return room

    def play(self, room: V1Room, count: int | None = None, rng: random.Random | None = None) -> None:
        """Play ``count`` actions (every seat; random legal ones), or to the end of the mesa."""
        rng = rng or random.Random(room.id)
        played = 0
        while not room.game.is_over and (count is None or played < count):
            room.game.play(rng.choice(room.game.legal_moves()))
            room.state += 1
            played += 1
            self.save(room)

    def next_mesa(self, room: V1Room) -> None:
        assert room.game.is_over
        room.mesa += 1
        room.game = Game.new(room.rules, mesa_seed(room.seed, room.mesa))
        room.state += 1
        self.save(room)

    def save(self, room: V1Room) -> None:
        when = self.now()
        over = room.game.is_over
        self.store.save_room(
            room.id,
            updated=when,
            mesa=room.mesa,
            state=room.state,
            status="finished" if over else "playing",
            game=room.game.to_json(),
            finished=room.finished_row(when) if over else None,
        )

    def close(self) -> None:
        self.store.close()


def write_sample(path: Path) -> dict[str, V1Room]:
    """A v1 database with rooms in every state a server could leave: fresh, in play, finished, on a
    later mesa, 2v2. Returns the rooms as the old server held them."""
    server = V1Server(path)
    fresh = server.create("fresh", seed=11)
    playing = server.create("playing", seed=12)
    server.play(playing, 9)
    finished = server.create("finished", rules=Rules.preset("basico"), seed=13)
    server.play(finished)
    second = server.create("second", rules=Rules.preset("basico"), seed=14)
    server.play(second)
    server.next_mesa(second)
    server.play(second, 5)
    pair = server.create("pair", level="normal", rules=Rules.preset("a_todo_rigor", 4), seed=15)
    server.play(pair, 13)
    server.close()
    return {r.id: r for r in (fresh, playing, finished, second, pair)}


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.split("Usage::")[1].strip(), file=sys.stderr)
        return 2
    out = Path(argv[0])
    if out.exists():
        print(f"{out} exists: choose a new file", file=sys.stderr)
        return 1
    rooms = write_sample(out)
    print(f"wrote {out}: rooms {', '.join(rooms)} (schema {SCHEMA_VERSION})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
