"""The rows of the store: text and numbers as the database keeps them (the rooms module decodes them), and
the two encodings every writer uses (:func:`dumps` for a JSON column, :func:`hash_token` for a secret).

>>> SeatRow(0, "person", "Ana", None, hash_token("secret")).token_hash[:12]
'2bb80d537b1d'
>>> dumps({"a": [1, "ñ"]})
'{"a":[1,"ñ"]}'
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass
from typing import Any


def hash_token(token: str) -> str:
    """The stored form of a seat's secret token (tokens are long random strings, so a plain hash does)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def dumps(value: Any) -> str:
    """Compact JSON for a column."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


# -- rows -------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SeatRow:
    seat: int
    kind: str  #: "person", "computer" or "open" (a table's seat waiting for a friend)
    name: str
    level: str | None  #: computer seats
    token_hash: str | None  #: person seats
    profile: str | None = None  #: the anonymous profile a person seat plays for
    left: bool = False  #: the person left the table for good: a computer player holds the seat


@dataclass(frozen=True)
class RoomRow:
    """A room as stored: text and numbers only (decoded by the rooms module). Its log is read apart
    (:meth:`Store.load_actions`)."""

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


__all__ = ["ActionRow", "FinishedRow", "PlayingRow", "RoomRow", "SeatRow", "dumps", "hash_token"]
