"""What a browser's tokens played, answered without a web framework (the server's routes and the device
host alike): the history (``POST /api/history``), the statistics (``GET``/``POST /api/stats``) and a
finished mesa's record (``GET /api/games/{room}/record``). A refusal is a
:class:`~cuarenta.server.answers.refused.Refused`.

>>> history_tokens({"tokens": ["a", "b"]})
['a', 'b']
>>> history_tokens({"tokens": "a"})
Traceback (most recent call last):
...
cuarenta.server.answers.refused.Refused: 400: tokens: Input should be a valid list
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Protocol

from cuarenta.daily import day_of, is_offline, today
from cuarenta.server.answers.refused import Refused
from cuarenta.server.authority.model import available_levels
from cuarenta.server.authority.ports import FinishedRow, PlayingRow, RoomRow, hash_token

if TYPE_CHECKING:
    from cuarenta.server.authority.core import Authority

log = logging.getLogger("cuarenta.server")

#: The most tokens one history request may name.
MAX_TOKENS: Final = 100
#: The longest seat token the API reads (the server's tokens have 32 characters).
MAX_TOKEN_CHARS: Final = 200


class HistoryStore(Protocol):
    """What the history, statistics and record answers read of a store (the server's store, the
    device's :class:`~cuarenta.device.store.MemoryStore`)."""

    def load_room(self, room_id: str) -> RoomRow | None: ...

    def rooms_of_tokens(self, token_hashes: Iterable[str], *, left: bool = True) -> list[tuple[str, int]]: ...

    def playing_of_rooms(self, room_ids: Sequence[str]) -> list[PlayingRow]: ...

    def finished_of_rooms(self, room_ids: Sequence[str]) -> list[FinishedRow]: ...

    def finished_mesa(self, room_id: str, mesa: int) -> FinishedRow | None: ...

    def stats(self) -> dict[str, dict[str, int]]: ...


def history_tokens(data: object) -> list[str]:
    """The tokens of a ``POST /api/history`` or ``POST /api/stats`` body (``{"tokens": [...]}``), checked
    as the server checks them: :class:`Refused` 400 saying what is wrong."""
    if not isinstance(data, dict):
        raise Refused(400, "body: Input should be a valid dictionary or object to extract fields from")
    extra = [f"{key}: Extra inputs are not permitted" for key in data if key != "tokens"]
    if extra:
        raise Refused(400, "; ".join(extra[:5]))
    tokens = data.get("tokens")
    if "tokens" not in data:
        raise Refused(400, "tokens: Field required")
    if not isinstance(tokens, list):
        raise Refused(400, "tokens: Input should be a valid list")
    if len(tokens) > MAX_TOKENS:
        raise Refused(
            400, f"tokens: List should have at most {MAX_TOKENS} items after validation, not {len(tokens)}"
        )
    for i, token in enumerate(tokens):
        if not isinstance(token, str):
            raise Refused(400, f"tokens.{i}: Input should be a valid string")
        if not token:
            raise Refused(400, f"tokens.{i}: String should have at least 1 character")
        if len(token) > MAX_TOKEN_CHARS:
            raise Refused(400, f"tokens.{i}: String should have at most {MAX_TOKEN_CHARS} characters")
    return tokens


def playing_entry(room: PlayingRow) -> dict[str, Any] | None:
    """One entry of ``playing``, or ``None`` (logged) when the room's rules cannot be read."""
    try:
        rules = json.loads(room.rules)
    except ValueError:
        log.error("room %s has corrupt rules; left out of the history", room.room)
        return None
    return {
        "room": room.room,
        "mesa": room.mesa,
        "started": room.created,
        "updated": room.updated,
        "level": room.level,
        "players": room.players,
        "rules": rules,
        "moves": room.moves,
        "practice": room.practice,
    }


def finished_entry(row: FinishedRow) -> dict[str, Any] | None:
    """One entry of ``games`` (seen from the seat's team), or ``None`` (logged) when it cannot be read."""
    try:
        return {
            "room": row.room,
            "mesa": row.mesa,
            "finished": row.finished,
            "level": row.level,
            "players": row.players,
            "rules": json.loads(row.rules),
            "seats": json.loads(row.seats),
            "person_team": row.person_team,
            "winner": row.winner,
            "won": row.winner == row.person_team,
            "chicas": json.loads(row.chicas),
            "chica_results": json.loads(row.chica_results),
            "caidas": row.caidas,
            "limpias": row.limpias,
            "record": f"/api/games/{row.room}/record?mesa={row.mesa}",
            "practice": row.practice,
        }
    except ValueError:
        log.error("history row of room %s mesa %d is corrupt; left out", row.room, row.mesa)
        return None


def history_answer(store: HistoryStore, tokens: Sequence[str]) -> dict[str, Any]:
    """``POST /api/history``: the finished mesas of the rooms the tokens hold a seat in, newest first, and
    those rooms whose current mesa is still in play (``playing``, most recently changed first)."""
    hashes = [hash_token(t) for t in tokens]
    seats = store.rooms_of_tokens(hashes)
    # a table the person left for good is not one to go on with (its finished mesas stay listed)
    still_seated = [room for room, _ in store.rooms_of_tokens(hashes, left=False)]
    playing = [entry for room in store.playing_of_rooms(still_seated) if (entry := playing_entry(room))]
    team_of = {room: seat % 2 for room, seat in seats}  # each seat sees its own team's side
    games = [
        entry
        for row in store.finished_of_rooms([room for room, _ in seats])
        if (entry := finished_entry(row.for_team(team_of.get(row.room, row.person_team))))
    ]
    return {"games": games, "playing": playing}


def _figures(rows: Sequence[FinishedRow]) -> dict[str, int]:
    """Played, won, caídas and limpias of the person's team, and the longest run of mesas won in a row
    (``rows`` in the order they finished)."""
    best = run = 0
    for row in rows:
        run = run + 1 if row.winner == row.person_team else 0
        best = max(best, run)
    return {
        "played": len(rows),
        "won": sum(1 for row in rows if row.winner == row.person_team),
        "caidas": sum(row.caidas for row in rows),
        "limpias": sum(row.limpias for row in rows),
        "best_streak": best,
    }


def stats_of(rows: Iterable[FinishedRow], levels: Sequence[str]) -> dict[str, Any]:
    """Per level (every level of ``levels``, zeros when none was played, and any other level found) and in
    all. Practice mesas are not counted (docs/protocol.md).

    >>> def mesa(day: int, won: bool) -> FinishedRow:
    ...     return FinishedRow(room=f"r{day}", mesa=1, finished=f"2026-11-{day:02d}T12:00:00Z", level="facil",
    ...                        players=2, rules="{}", seats="[]", person_team=0, winner=0 if won else 1,
    ...                        chicas="[1,0]", chica_results="[]", caidas=2, limpias=1, record="")
    >>> figures = stats_of([mesa(3, True), mesa(1, True), mesa(2, False), mesa(4, True)], ["facil", "normal"])
    >>> figures["levels"]["facil"], figures["levels"]["normal"]["played"]
    ({'played': 4, 'won': 3, 'caidas': 8, 'limpias': 4, 'best_streak': 2}, 0)
    >>> figures["all"]["best_streak"]
    2
    """
    counted = sorted((r for r in rows if not r.practice), key=lambda r: (r.finished, r.room, r.mesa))
    by_level: dict[str, list[FinishedRow]] = {level: [] for level in levels}
    for row in counted:
        by_level.setdefault(row.level, []).append(row)
    return {
        "levels": {level: _figures(found) for level, found in by_level.items()},
        "all": _figures(counted),
    }


def stats_answer(store: HistoryStore) -> dict[str, Any]:
    """``GET /api/stats``: per level, mesas played and won, caídas and limpias of the person's team."""
    found = store.stats()
    levels = {level: {"played": 0, "won": 0, "caidas": 0, "limpias": 0} for level in available_levels()}
    levels.update(found)
    return {"levels": levels}


def browser_stats_answer(store: HistoryStore, tokens: Sequence[str]) -> dict[str, Any]:
    """``POST /api/stats``: the figures of the rooms the tokens hold a seat in (one browser's games)."""
    seats = store.rooms_of_tokens(hash_token(t) for t in tokens)
    team_of = {room: seat % 2 for room, seat in seats}
    rows = store.finished_of_rooms([room for room, _ in seats])
    return stats_of([row.for_team(team_of[row.room]) for row in rows], available_levels())


@dataclass(frozen=True)
class RecordAnswer:
    """A finished mesa's record (``.cuarenta`` text) and the file name it downloads as."""

    text: str
    filename: str
    mesa: int = 1  #: which mesa of the room


def _room_row(authority: Authority, store: HistoryStore, room_id: str, token: str) -> Any:
    """The stored row of the token's room (the authority refuses a wrong token)."""
    authority.seat_of(room_id, token)
    row = store.load_room(room_id)
    if row is None:  # pragma: no cover - seat_of found it
        raise Refused(404, f"there is no room {room_id!r}")
    return row


def _finished(store: HistoryStore, row: Any, room_id: str, mesa: int | None) -> RecordAnswer:
    current = row.mesa
    wanted = current if mesa is None else mesa
    if wanted > current:
        raise Refused(404, f"room {room_id} has no mesa {wanted} (it is at mesa {current})", "unknown_mesa")
    finished = store.finished_mesa(room_id, wanted)
    if finished is None:
        raise Refused(
            409,
            f"mesa {wanted} of room {room_id} is still in play: its record exists once it is finished",
            "mesa_in_play",
        )
    return RecordAnswer(finished.record, f"cuarenta-{room_id}-mesa{wanted}.cuarenta", wanted)


def finished_record(
    authority: Authority, store: HistoryStore, room_id: str, token: str, mesa: int | None = None
) -> RecordAnswer:
    """The record of a finished mesa of the token's room (default: the current one), as its replay and its
    analysis read it: they show only the hands that were played, so a deal of the day's is there at once
    (docs/daily.md). A refusal is the authority's (the token) or :class:`Refused` (404, ``409
    mesa_in_play``)."""
    return _finished(store, _room_row(authority, store, room_id, token), room_id, mesa)


def record_answer(
    authority: Authority, store: HistoryStore, room_id: str, token: str, mesa: int | None = None
) -> RecordAnswer:
    """``GET /api/games/{room}/record``: the record of a finished mesa (:func:`finished_record`) to download.
    A record shows its seed, from which every hand can be dealt: the deal of the day's is given only once its
    day is over (``409 daily_today``). An offline deal of the day's record (the device's) is given at once:
    its seed was handed out ahead, and the record is what is sent to the offline ranking."""
    row = _room_row(authority, store, room_id, token)
    seed = json.loads(row.seed)
    day = day_of(seed)
    if day is not None and day >= today() and not is_offline(seed):
        raise Refused(
            409,
            "the deal of the day's record shows its seed, which deals everyone's cards today: it is given "
            f"once the day ({day.isoformat()}, UTC) is over; its replay and its analysis are there now",
            "daily_today",
        )
    return _finished(store, row, room_id, mesa)


__all__ = [
    "MAX_TOKENS",
    "MAX_TOKEN_CHARS",
    "HistoryStore",
    "RecordAnswer",
    "browser_stats_answer",
    "finished_entry",
    "finished_record",
    "history_answer",
    "history_tokens",
    "playing_entry",
    "record_answer",
    "stats_answer",
    "stats_of",
]
