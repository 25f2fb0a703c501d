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
import hashlib
import json
import secrets
from typing import TYPE_CHECKING, Any, Final, Protocol

from cuarenta.daily import DAILY_LEVEL, daily_rules, daily_seed, offline_seed, result, standing, today
from cuarenta.names import BadName, clean_name
from cuarenta.record import GameRecord
from cuarenta.seeds import mesa_seed
from cuarenta.server.answers.refused import Refused
from cuarenta.server.answers.replay import read_record_text
from cuarenta.server.store.daily import OfflineRow

if TYPE_CHECKING:
    from cuarenta.server.authority.core import Authority
    from cuarenta.server.store.daily import DailyRow

#: The most entries a ranking lists (the person's own is always given, as ``mine``).
RANKING_MAX: Final = 100
#: The first day there is a deal of the day.
FIRST_DAY: Final = datetime.date(2026, 12, 1)
#: How many days of offline deals ``GET /api/daily/offline`` hands out: today and the days after (a device
#: that goes without a signal for a week still has each day's deal).
OFFLINE_DAYS: Final = 7
#: How many days a result played offline may wait to be sent: today's and the 30 days' before.
LATE_DAYS: Final = 31


class DailyStore(Protocol):
    """What the deal of the day reads of the server's store."""

    def daily_secret(self) -> bytes: ...

    def daily_rows(self, seed: str) -> list[DailyRow]: ...

    def add_daily_offline(self, row: OfflineRow) -> tuple[OfflineRow, bool]: ...

    def daily_offline_rows(self, day: str) -> list[OfflineRow]: ...


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


def _offline_entry(row: OfflineRow) -> dict[str, Any]:
    return {
        "room": row.id,
        "name": row.name,
        "score": [row.score0, row.score1],
        "result": row.result,
        "finished": row.received,
    }


def daily_answer(
    store: DailyStore, day: datetime.date, room: str | None = None, *, offline: bool = False
) -> dict[str, Any]:
    """``GET /api/daily[?day=D][&room=R]``: the day's rules, computer player and ranking (the best first;
    at most :data:`RANKING_MAX` entries), and with ``room`` that room's entry (``mine``, ``None`` until its
    chica is over). An entry: the person's name, the score, the result, the place (ties share the better)
    and the share of the day's other results it beats. ``offline``: the ranking of the results played
    offline and sent later (``room`` is then an entry's id, as ``POST /api/daily/offline`` gave it)."""
    if offline:
        entries = [_offline_entry(row) for row in store.daily_offline_rows(day.isoformat())]
    else:
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
        "offline": offline,
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


def offline_days(store: DailyStore) -> dict[str, Any]:
    """``GET /api/daily/offline``: the seeds of the offline deals of today (UTC) and the
    :data:`OFFLINE_DAYS` ``- 1`` days after, with their rules and computer player: what a device takes
    while it has a signal, to play each day's deal without one (docs/daily.md "Offline")."""
    secret, first = store.daily_secret(), today()
    days = [first + datetime.timedelta(days=n) for n in range(OFFLINE_DAYS)]
    return {
        "rules": daily_rules().to_dict(),
        "level": DAILY_LEVEL,
        "days": [{"day": d.isoformat(), "seed": offline_seed(secret, d)} for d in days],
    }


def _not_offline_daily(why: str) -> Refused:
    return Refused(
        400,
        f"that record is not a finished offline deal of the day of this server: {why}",
        "not_offline_daily",
    )


def offline_day(secret: bytes, seed: object) -> datetime.date | None:
    """The day whose offline deal a chica dealt from ``seed`` is, or ``None``. The chica of a day's deal is
    dealt as any room's first mesa, from ``mesa_seed(offline_seed(secret, day), 1)`` (the seed its record
    names), on a server, a device or the terminal alike; the days looked at are those handed out ahead
    (:data:`OFFLINE_DAYS`) and those a result may wait (:data:`LATE_DAYS`)."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        return None
    for back in range(-(OFFLINE_DAYS - 1), LATE_DAYS):
        day = today() - datetime.timedelta(days=back)
        if day >= FIRST_DAY and mesa_seed(offline_seed(secret, day), 1) == seed:
            return day
    return None


def checked_offline(store: DailyStore, text: str) -> tuple[datetime.date, GameRecord, list[int]]:
    """The day, the record and the chica's score of an offline deal of the day's record, checked by replaying
    it: an offline deal of this server (:func:`offline_day`), its rules, a person at seat 0 against the
    day's computer player, from the deal, legal move after move, the chica over. :class:`Refused` says what
    is not so (``bad_record``, ``not_offline_daily``; ``409 not_yet`` for a day still to come)."""
    replay = read_record_text(text)
    record, game = replay.record, replay.goto(replay.last).game
    day = offline_day(store.daily_secret(), record.seed)
    if day is None:
        raise _not_offline_daily(
            f"its seed {str(record.seed)[:40]!r} is not the chica of an offline deal of this server of the "
            f"last {LATE_DAYS} days"
        )
    if day > today():
        raise Refused(
            409, f"the deal of {day.isoformat()} is played from that day on (UTC): send it then", "not_yet"
        )
    if record.rules != daily_rules() or record.start is not None:
        raise _not_offline_daily("it is not played by the deal of the day's rules, from the deal")
    person, computer = record.seats
    if computer != f"bot:{DAILY_LEVEL}" or person is None or person.startswith("bot:"):
        raise _not_offline_daily(f"seat 0 must be a person and seat 1 the computer player {DAILY_LEVEL}")
    try:
        mine = result(game, 0)
    except ValueError:
        raise _not_offline_daily("its chica is not over") from None
    scores = list(game.chica_results[0].scores)
    assert scores[0] - scores[1] == mine
    return day, record, scores


def offline_result(store: DailyStore, text: str, name: str | None = None) -> dict[str, Any]:
    """``POST /api/daily/offline``: keep the result of an offline deal of the day's record ``text``, checked
    (:func:`checked_offline`), ranked under ``name`` (checked by the route; else the record's), and answer
    its entry: its id (``entry``, for ``GET /api/daily?offline=true&entry=``), whether it is ``new`` (the
    same record sent again is the same entry), the day, score and result, and where it stands among the
    day's offline results (``place``, ``beats``, ``count``)."""
    day, record, scores = checked_offline(store, text)
    if name is None:
        try:
            name = clean_name(record.seats[0] or "", empty_ok=True)
        except BadName:
            name = ""
    row, new = store.add_daily_offline(
        OfflineRow(
            id=secrets.token_urlsafe(12),
            day=day.isoformat(),
            name="" if name == "person" else name,
            score0=scores[0],
            score1=scores[1],
            result=scores[0] - scores[1],
            received=datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            digest=hashlib.sha256(text.encode()).hexdigest(),
            record=text,
        )
    )
    results = [r.result for r in store.daily_offline_rows(row.day)]
    place, share = standing(row.result, results)
    return {
        "entry": row.id,
        "new": new,
        "day": row.day,
        "score": [row.score0, row.score1],
        "result": row.result,
        "place": place,
        "beats": round(share, 4),
        "count": len(results),
    }


__all__ = [
    "FIRST_DAY",
    "LATE_DAYS",
    "OFFLINE_DAYS",
    "RANKING_MAX",
    "DailyStore",
    "checked_offline",
    "daily_answer",
    "new_daily",
    "offline_day",
    "offline_days",
    "offline_result",
    "parse_day",
]
