"""A table's setup (docs/tables.md): its options and seats when it is made, the seat a friend takes with
the invite, and what the HTTP views of tables show (a table, the lobby). Rules over values; the authority
(:mod:`.core`) stores and tells.

>>> from cuarenta import Rules
>>> options, seats = new_table(Rules(), name="Ana", digest="h", seats=None, level=None, grace=60, clock=None,
...                            lobby=False, profile=None, rated=False, invite="code")
>>> [s.kind for s in seats], options.grace
(['person', 'open'], 60.0)
"""

from __future__ import annotations

import json
import logging
from typing import Any, Final

from cuarenta.rules import Rules
from cuarenta.server.authority.audience import public_seats, table_info
from cuarenta.server.authority.errors import TableError
from cuarenta.server.authority.model import Room, Seat, TableOptions, available_levels
from cuarenta.server.authority.ports import StorePort
from cuarenta.server.authority.seats import same_token

log = logging.getLogger("cuarenta.server")

#: What a table's other seat may be besides a computer level: a seat for a friend.
FRIEND: Final = "friend"
#: The longest grace (seconds) a table may give an away person, and the default.
GRACE_MAX: Final = 600
DEFAULT_GRACE: Final = 60
#: The turn clocks a table may have (seconds; ``None``: no clock).
CLOCKS: Final = (None, 30, 60)
#: Characters of an invite code.
INVITE_CHARS: Final = 16
#: The most tables ``lobby`` lists.
LOBBY_MAX: Final = 50


def new_table(
    rules: Rules,
    *,
    name: str,
    digest: str,
    seats: list[str] | None,
    level: str | None,
    grace: float,
    clock: int | None,
    lobby: bool,
    profile: str | None,
    rated: bool,
    invite: str,
) -> tuple[TableOptions, list[Seat]]:
    """A new table's options and seats: the creator (token hash ``digest``) at seat 0; every other seat
    ``"friend"`` (open) or a computer level. ``ValueError`` says what is wrong with an option."""
    levels = available_levels()
    level = level or ("normal" if "normal" in levels else levels[0])
    if level not in levels:
        raise ValueError(f"unknown level {level!r}: choose one of {', '.join(levels)}")
    others = [FRIEND] * (rules.players - 1) if seats is None else list(seats)
    if len(others) != rules.players - 1:
        raise ValueError(
            f"seats lists the {rules.players - 1} other seats of a table for {rules.players}, "
            f"not {len(others)}"
        )
    for other in others:
        if other != FRIEND and other not in levels:
            raise ValueError(f"seat {other!r}: each other seat is {FRIEND!r} or one of {', '.join(levels)}")
    if rated and any(other != FRIEND for other in others):
        raise ValueError("a rated table is for people only: every other seat must be for a friend")
    if rated and profile is None:
        raise ValueError("a rated table needs the creator's profile")
    if isinstance(grace, bool) or not 0 <= grace <= GRACE_MAX:
        raise ValueError(f"grace must be 0 to {GRACE_MAX} seconds, not {grace!r}")
    if clock not in CLOCKS or isinstance(clock, bool):
        choices = ", ".join(str(c) for c in CLOCKS)
        raise ValueError(f"clock must be one of {choices} (seconds), not {clock!r}")
    options = TableOptions(
        invite=invite[:INVITE_CHARS],
        creator=0,
        level=level,
        grace=float(grace),
        clock=clock,
        lobby=lobby,
        rated=rated,
    )
    seat_list = [Seat(0, "person", name, None, digest, profile)]
    for s, other in enumerate(others, start=1):
        seat_list.append(Seat(s, "open") if other == FRIEND else Seat(s, "computer", "", other))
    return options, seat_list


def seat_to_take(room: Room, *, invite: str, seat: int | None, team: int | None, profile: str | None) -> int:
    """The open seat a friend with the ``invite`` code takes: ``seat`` if given, else the first open seat
    of ``team`` if given, else the first open seat. Once the table has started, the open seats are those
    the creator handed over (``vacant``: docs/tables.md "Taking a seat back"). :class:`TableError` says
    why not."""
    assert room.table is not None
    if not same_token(invite, room.table.invite):
        raise TableError("bad_invite", "the invite code is not this table's: ask for the link again")
    if room.started:
        open_seats = [s.seat for s in room.seats if s.vacant]
    else:
        open_seats = [s.seat for s in room.seats if s.kind == "open"]
    if not open_seats:
        raise TableError("table_full", "the table is full: you may watch it")
    if room.table.rated and profile is None:
        raise TableError(
            "profile_required", "this table is rated: join it with your profile (a name and its key)"
        )
    if room.table.rated and any(s.profile == profile for s in room.seats):
        raise TableError("profile_seated", "that profile holds a seat at this table already")
    if seat is not None:
        if not 0 <= seat < room.players:
            raise TableError("bad_seat", f"seat {seat} is not a seat of this table (0..{room.players - 1})")
        if seat not in open_seats:
            raise TableError("seat_not_open", f"seat {seat} is not open")
        return seat
    if team is not None:
        if team not in (0, 1):
            raise TableError("bad_team", f"team {team} is not a team (0 or 1)")
        of_team = [s for s in open_seats if s % 2 == team]
        if not of_team:
            raise TableError("team_full", f"team {team} has no open seat")
        return of_team[0]
    return open_seats[0]


def describe(room: Room, seat: int | None = None) -> dict[str, Any]:
    """``GET /api/tables/{room}`` (docs/tables.md): public facts, and the invite for a seat's holder."""
    assert room.table is not None
    out: dict[str, Any] = {
        "room": room.id,
        "players": room.players,
        "status": room.status,
        "mesa": room.mesa,
        "rules": room.rules.to_dict(),
        "seats": public_seats(room),
        **(table_info(room) or {}),
    }
    if seat is not None:
        out["seat"] = seat
        out["invite"] = room.table.invite
    return out


def lobby(store: StorePort) -> list[dict[str, Any]]:
    """The tables listed in the lobby that wait for people, newest first (at most :data:`LOBBY_MAX`),
    read from the store without loading the tables into memory."""
    tables = []
    for row in store.waiting_table_rows(LOBBY_MAX * 4):
        try:
            options = TableOptions.from_json(row.table_options or "")
            rules = json.loads(row.rules)
        except ValueError:
            log.warning("waiting table %s has options or rules that do not read: not listed", row.id)
            continue
        open_seats = sum(1 for s in row.seats if s.kind == "open")
        if not options.lobby or not open_seats or options.creator >= len(row.seats):
            continue
        tables.append(
            {
                "room": row.id,
                "invite": options.invite,
                "players": row.players,
                "rules": rules,
                "host": row.seats[options.creator].name,
                "open": open_seats,
                "created": row.created,
                "clock": options.clock,
            }
        )
        if len(tables) >= LOBBY_MAX:
            break
    return tables


__all__ = [
    "CLOCKS",
    "DEFAULT_GRACE",
    "FRIEND",
    "GRACE_MAX",
    "INVITE_CHARS",
    "LOBBY_MAX",
    "describe",
    "lobby",
    "new_table",
    "seat_to_take",
]
