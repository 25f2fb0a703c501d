"""A table's presence and turn clock (docs/tables.md): the grace of an away person, the stand-in, the
deadline of a person's turn. Pure rules over a room and the wall clock; the authority runs the timer.

>>> from cuarenta import Game, Rules
>>> from cuarenta.server.authority.model import Room, Seat, TableOptions
>>> room = Room("r", "", "normal", Rules(), 1, [Seat(0, "person"), Seat(1, "person")], 1,
...             Game.new(Rules(), 1), table=TableOptions("x", grace=60.0, clock=30))
>>> went_away(room, 0, now=100.0); room.seats[0].away_until
160.0
>>> expire(room, now=170.0), room.seats[0].stand_in
(True, True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cuarenta.server.authority.model import Room


def went_away(room: Room, seat: int, *, now: float) -> None:
    """The last socket of a person's seat closed: the grace runs from ``now``."""
    assert room.table is not None
    room.seats[seat].away_until = now + room.table.grace


def came_back(room: Room, seat: int) -> None:
    """A socket holds the person's seat again: no grace, no stand-in."""
    s = room.seats[seat]
    s.away_until, s.stand_in = None, False


def grace_at_start(room: Room, *, now: float) -> None:
    """A table starts: each person not here gets the grace from now."""
    unaccounted(room, now=now)


def unaccounted(room: Room, *, now: float) -> bool:
    """Each person the table knows nothing of — not here, no grace running, not stood in for — gets the
    grace from now: at the start, and when someone joins a table read back from the store (after a
    restart, after it left memory, on another cluster node: presence is kept in memory only). Without it
    such a person's turn would wait for ever: nobody asked to move, no timer to bring the computer in.
    Whether anyone did."""
    assert room.table is not None
    found = False
    for s in room.seats:
        if s.kind == "person" and not room.connected(s.seat) and s.away_until is None and not s.stand_in:
            s.away_until = now + room.table.grace
            found = True
    return found


def turn_deadline(room: Room, *, now: float) -> None:
    """After a change: the turn clock starts for a person's new turn (kept if it runs for this state; none
    for a turn the computer plays, a stand-in's included, even one that began as a person's).
    A halted table (paused by its judge, or replaced) runs no clock: its resume starts a whole turn."""
    table = room.table
    assert table is not None
    if table.clock is None or not room.started or room.game.is_over or room.halted:
        room.deadline = None
        return
    turn = room.game.turn
    if room.seats[turn].kind != "person" or room.seats[turn].stand_in:
        room.deadline = None  # a turn the computer plays (a stand-in's too, from the moment it stands in)
        return
    if room.deadline is not None and room.deadline[0] == room.state:
        return
    room.deadline = (room.state, now + table.clock)


def next_wake(room: Room) -> float | None:
    """When the room's timer is to wake next (a grace end or the turn deadline), or ``None``."""
    wakes = [s.away_until for s in room.seats if s.kind == "person" and s.away_until is not None]
    if room.deadline is not None and room.deadline[0] == room.state and room.clock_ran_out != room.state:
        wakes.append(room.deadline[1])
    return min(wakes) if wakes else None


def _stop_clock_of(room: Room, seat: int) -> None:
    """A seat the computer now stands in for: if it is its turn, that turn runs no clock (the person who
    comes back on it is given a whole turn, :func:`turn_deadline`)."""
    if not room.game.is_over and room.game.turn == seat:
        room.deadline = None


def expire(room: Room, *, now: float) -> bool:
    """End the graces and the turn clock that ran out by ``now``: the computer plays for those seats (a
    grace) or this turn (the clock). Whether anything changed."""
    told = False
    for s in room.seats:
        if s.kind == "person" and s.away_until is not None and s.away_until <= now:
            s.away_until, s.stand_in = None, True
            _stop_clock_of(room, s.seat)
            told = True
    deadline = room.deadline
    if deadline is not None and deadline[0] == room.state and deadline[1] <= now:
        room.clock_ran_out = room.state
        told = True
    return told


def presence(room: Room, away: dict[int, float], *, now: float) -> bool:
    """Apply a cluster's presence (the graces other nodes started, by seat) to the room's people: a person
    connected anywhere is back; one away whose grace ended is stood in for. Whether a person changed."""
    changed = False
    for s in room.seats:
        if s.kind != "person":
            continue
        if room.connected(s.seat):
            if s.away_until is not None or s.stand_in:
                s.away_until, s.stand_in = None, False
                changed = True
        elif s.seat in away and not s.stand_in:
            until = away[s.seat]
            if until <= now:
                s.away_until, s.stand_in = None, True
                _stop_clock_of(room, s.seat)
                changed = True
            elif s.away_until != until:
                s.away_until = until
                changed = True
    return changed


__all__ = [
    "came_back",
    "expire",
    "grace_at_start",
    "next_wake",
    "presence",
    "turn_deadline",
    "unaccounted",
    "went_away",
]
