"""A room's copy brought up to what another server process stored (a cluster, docs/scaling.md).

A copy in memory follows its room's stored log: a notice that carries the actions of the next version is
played on it (:func:`follow`); anything else — a missed notice, another mesa, the start of a table — is
read from the store (:func:`refresh`). Sockets, presence and timers stay as they are.
"""

from __future__ import annotations

import dataclasses

from cuarenta.server.authority import computer_names
from cuarenta.server.authority.errors import RoomProblem
from cuarenta.server.authority.model import Room, Seat, TableOptions
from cuarenta.server.authority.ports import RoomRow, StorePort
from cuarenta.server.authority.rows import play_logged, read_room, room_from_row


def refresh(store: StorePort, room: Room) -> bool:
    """Bring a room in memory up to its stored version, written by another server process (a cluster,
    docs/scaling.md): the new actions of the same mesa are played on its game, anything else (a new
    mesa, the start of a table) rebuilds it from the store. Sockets, presence and timers stay. Returns
    whether the room changed; :class:`RoomProblem` if it is gone or cannot be read."""
    version = store.room_versions([room.id]).get(room.id)  # one small query when nothing changed
    if version == room.version:
        return False
    row = store.load_room(room.id)
    if row is None:
        raise RoomProblem("unknown_room", f"there is no room {room.id!r}")
    if row.version == room.version:
        return False
    if not _play_stored(store, room, row):
        found = read_room(store, room.id)  # read again with its log: they agree (a move stored meanwhile)
        if found is None:
            raise RoomProblem("unknown_room", f"there is no room {room.id!r}")
        row, log = found
        fresh = room_from_row(row, log)
        room.game, room.mesa, room.logged, room.recorded = (
            fresh.game,
            fresh.mesa,
            fresh.logged,
            fresh.recorded,
        )
        room.table, room.seed = fresh.table, fresh.seed  # a table's start deals from a new seed
    room.state, room.mesa_state, room.started, room.version = (
        row.state,
        row.mesa_state,
        row.started,
        row.version,
    )
    if row.table_options is not None:  # a championship table paused or replaced elsewhere
        try:
            room.table = TableOptions.from_json(row.table_options)
        except ValueError as exc:
            raise RoomProblem(
                "corrupt_room", f"room {room.id}: its table's options do not read: {exc}"
            ) from None
    for stored in row.seats:  # seats change at tables (joins, leaves); presence stays as it is
        seat = room.seats[stored.seat]
        now = seat.to_row()
        if not stored.name:  # a seat stored before computers had names: its name is given in memory
            now = dataclasses.replace(now, name="")
        if now != stored:  # a join, a leave, a computer renamed for a person, a seat taken back or handed
            keep = seat.kind == "person" == stored.kind and seat.token_hash == stored.token_hash
            room.seats[stored.seat] = Seat(
                stored.seat,
                stored.kind,  # type: ignore[arg-type]
                stored.name,
                stored.level,
                stored.token_hash,
                stored.profile,
                stored.left,
                seat.away_until if keep else None,
                # someone new took a vacant seat: the computer plays it on until their page joins
                seat.stand_in if keep else seat.vacant and stored.kind == "person",
                stored.code_hash,
                stored.former_hash,
                stored.former,
                stored.vacant,
            )
    room.seats = computer_names.named(room.id, room.seats)  # a seat stored before names (rows.room_from_row)
    return True


def _play_stored(store: StorePort, room: Room, row: RoomRow) -> bool:
    """Play the stored actions of the room's current mesa that its game lacks; ``False`` (the room
    unchanged) when that is not enough: another mesa, a table that started, a log that does not fit."""
    if row.mesa != room.mesa or row.started != room.started or row.mesa_state != room.mesa_state:
        return False
    if room.logged != len(room.game.actions):
        return False
    new = store.load_actions(room.id, row.mesa, after=room.logged)
    if row.state != row.mesa_state + room.logged + len(new):
        return False
    if [seq for seq, _ in new] != list(range(room.logged + 1, room.logged + 1 + len(new))):
        return False
    return play_logged(room, [text for _, text in new])


def follow(room: Room, *, version: int, mesa: int, after: int, state: int, actions: list[str]) -> bool:
    """Play the actions another process stored as ``version`` (appended after action ``after`` of
    ``mesa``) on the room's copy, if they follow it exactly; else ``False`` and the copy is unchanged."""
    if version != room.version + 1 or mesa != room.mesa or after != room.logged:
        return False
    if room.logged != len(room.game.actions) or not room.started:
        return False
    if not play_logged(room, actions):
        return False
    room.state, room.version = state, version
    return True


__all__ = ["follow", "refresh"]
