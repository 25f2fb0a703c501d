"""``POST /api/daily`` and ``GET /api/daily``: the deal of the day (docs/daily.md, docs/protocol.md "The deal
of the day"): a new room dealt from the day's seed against the day's computer player, and the day's ranking.

The day's seed is derived from the database's secret (:func:`cuarenta.daily.daily_seed`): it is never sent
while the day lasts (the record of a deal of the day waits for the day's end:
:func:`~cuarenta.server.answers.history.record_answer`). A person's result is their points minus the
computer's at the end of the chica; each finished chica of the day is ranked by how many of the others it
beats (a tie counts a half). Only a server has a ranking: the device host refuses these routes.
"""

from __future__ import annotations

import datetime
import json
from typing import TYPE_CHECKING, Any, Final, Protocol

from cuarenta.daily import DAILY_LEVEL, daily_rules, daily_seed, standing, today
from cuarenta.server.answers.refused import Refused

if TYPE_CHECKING:
    from cuarenta.server.authority.core import Authority
    from cuarenta.server.store.daily import DailyRow

#: The most entries a ranking lists (the person's own is always given, as ``mine``).
RANKING_MAX: Final = 100
#: The first day there is a deal of the day.
FIRST_DAY: Final = datetime.date(2026, 12, 1)


class DailyStore(Protocol):
    """What the deal of the day reads of the server's store."""

    def daily_secret(self) -> bytes: ...

    def daily_rows(self, seed: str) -> list[DailyRow]: ...


def new_daily(authority: Authority, store: DailyStore, name: str = "") -> dict[str, Any]:
    """``POST /api/daily``: a new room with today's deals against today's computer player; the answer's
    token is the person's (seat 0), as ``POST /api/rooms``' is."""
    day = today()
    room, token = authority.create(
        rules=daily_rules(), level=DAILY_LEVEL, name=name, daily=daily_seed(store.daily_secret(), day)
    )
    return {"room": room.id, "seat": 0, "token": token, "day": day.isoformat()}


def parse_day(text: str | None) -> datetime.date:
    """The day a ranking is asked for (``YYYY-MM-DD``; default today, UTC): :class:`Refused` 400 for text
    that is not a day, 404 for a day with no deal of the day (before the first, or after today)."""
    if text is None:
        return today()
    try:
        day = datetime.date.fromisoformat(text)
    except ValueError:
        raise Refused(400, f"day must be a date like 2026-12-05, not {text[:20]!r}", "bad_day") from None
    if not FIRST_DAY <= day <= today():
        raise Refused(
            404,
            f"there is no deal of the day for {day.isoformat()}: the days go from {FIRST_DAY.isoformat()} to "
            "today (UTC)",
            "unknown_day",
        )
    return day


def _entry(row: DailyRow) -> dict[str, Any]:
    seats = json.loads(row.seats)
    scores = json.loads(row.chica_results)[0]["scores"]
    name = seats[0].get("name") if seats and isinstance(seats[0], dict) else None
    return {
        "room": row.room,
        "name": name or "",
        "score": [int(scores[0]), int(scores[1])],
        "result": int(scores[0]) - int(scores[1]),
        "finished": row.finished,
    }


def daily_answer(store: DailyStore, day: datetime.date, room: str | None = None) -> dict[str, Any]:
    """``GET /api/daily[?day=D][&room=R]``: the day's rules, computer player and ranking (the best first;
    at most :data:`RANKING_MAX` entries), and with ``room`` that room's entry (``mine``, ``None`` until its
    chica is over). An entry: the person's name, the score, the result, the place (ties share the better)
    and the share of the day's other results it beats."""
    entries = [_entry(row) for row in store.daily_rows(daily_seed(store.daily_secret(), day))]
    results = [e["result"] for e in entries]
    for e in entries:
        place, share = standing(e["result"], results)
        e["place"], e["beats"] = place, round(share, 4)
    ranked = sorted(entries, key=lambda e: (e["place"], e["finished"], e["room"]))
    mine = next((e for e in ranked if e["room"] == room), None) if room is not None else None
    return {
        "day": day.isoformat(),
        "today": day == today(),
        "players": 2,
        "level": DAILY_LEVEL,
        "rules": daily_rules().to_dict(),
        "count": len(ranked),
        "ranking": [_public(e, room) for e in ranked[:RANKING_MAX]],
        "mine": None if mine is None else _public(mine, room),
    }


def _public(entry: dict[str, Any], room: str | None) -> dict[str, Any]:
    """An entry as the ranking shows it: no room id (it would let anyone ask for that room's things), and
    ``you`` for the asking room's own."""
    return {**{k: v for k, v in entry.items() if k != "room"}, "you": entry["room"] == room}


__all__ = ["FIRST_DAY", "RANKING_MAX", "DailyStore", "daily_answer", "new_daily", "parse_day"]
