"""The device's store: every room in memory, each change handed whole to ``persist`` (IndexedDB).

:class:`MemoryStore` is a :class:`~cuarenta.server.authority.ports.StorePort` in pure Python (no
database library: it runs under Pyodide). A room is kept as one JSON text — its row, seats, action log
and finished mesas (:func:`room_text`) — and every write builds the room's new text, gives it to
``persist(room_id, text)`` and only then keeps it: a write ``persist`` refuses (raises) changes nothing
and is a :class:`~cuarenta.server.authority.ports.StoreError`. At boot the store is rebuilt from the texts
saved before (``saved``); a text that cannot be read is skipped, logged, and listed in
:attr:`MemoryStore.skipped`, and every other room is kept.

It also answers what the history, statistics and record routes read of the server's store
(``rooms_of_tokens``, ``playing_of_rooms``, ``finished_of_rooms``, ``finished_mesa``, ``stats``).

>>> from cuarenta.server.authority.ports import RoomRow, SeatRow
>>> saved = {}
>>> store = MemoryStore(persist=lambda room, text: saved.__setitem__(room, text))
>>> store.insert_room(RoomRow("r1", "t", "t", 2, "facil", "{}", "1", 1, 0, "playing",
...                           (SeatRow(0, "person", "Ana", None, "h"),)))
>>> store.save_room("r1", updated="t", mesa=1, state=1, mesa_state=0, status="playing",
...                 actions=[ActionRow("r1", 1, 1, "7h", "t")], version=0)
>>> MemoryStore(saved=saved).load_actions("r1", 1)
[(1, '7h')]
"""

from __future__ import annotations

import dataclasses
import json
import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from cuarenta.server.authority.ports import (
    ActionRow,
    FinishedRow,
    PlayingRow,
    RoomRow,
    SeatRow,
    StoreConflict,
    StoreError,
)

log = logging.getLogger("cuarenta.device")

#: The format of a saved room's text (its ``"format"`` field).
FORMAT: Final = 1
#: What a change of a room calls: the room's id and its whole stored data as text (``None``: deleted).
Persist = Callable[[str, str | None], None]


@dataclass
class StoredRoom:
    """One room as the device keeps it."""

    row: RoomRow  #: with its seats
    actions: dict[int, list[ActionRow]] = field(default_factory=dict)  #: per mesa, in order
    finished: list[FinishedRow] = field(default_factory=list)


def room_text(room: StoredRoom) -> str:
    """A room's stored data as JSON text (what ``persist`` is given)."""
    row = dataclasses.asdict(room.row)
    seats = row.pop("seats")
    data = {
        "format": FORMAT,
        "room": row,
        "seats": seats,
        "actions": {
            str(mesa): [[a.seq, a.action, a.at] for a in rows] for mesa, rows in sorted(room.actions.items())
        },
        "finished": [dataclasses.asdict(f) for f in room.finished],
    }
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _fields(kind: type[Any], data: Any, what: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise ValueError(f"{what} is not an object")
    names = {f.name for f in dataclasses.fields(kind)}
    unknown = set(data) - names
    if unknown:
        raise ValueError(f"{what} has unknown fields: {', '.join(sorted(unknown))}")
    return data


def room_of_text(room_id: str, text: str) -> StoredRoom:
    """A room read back from :func:`room_text`'s text; ``ValueError`` saying what is wrong."""
    try:
        data = json.loads(text)
    except (TypeError, ValueError, RecursionError) as exc:
        raise ValueError(f"not JSON ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"not a saved room of format {FORMAT}")
    try:
        raw_seats = data["seats"]
        if not isinstance(raw_seats, list):
            raise ValueError("seats is not a list")
        seats = tuple(SeatRow(**_fields(SeatRow, s, "a seat")) for s in raw_seats)
        row = RoomRow(**_fields(RoomRow, data["room"], "the room"), seats=seats)
        if row.id != room_id:
            raise ValueError(f"it holds room {row.id!r}")
        raw_actions = data["actions"]
        if not isinstance(raw_actions, dict):
            raise ValueError("actions is not an object")
        actions: dict[int, list[ActionRow]] = {}
        for mesa_text, rows in raw_actions.items():
            mesa = int(mesa_text)
            log_rows = [ActionRow(room_id, mesa, int(seq), str(action), str(at)) for seq, action, at in rows]
            if [a.seq for a in log_rows] != list(range(1, len(log_rows) + 1)):
                raise ValueError(f"the log of mesa {mesa} skips or repeats an action")
            actions[mesa] = log_rows
        finished = [FinishedRow(**_fields(FinishedRow, f, "a finished mesa")) for f in data["finished"]]
    except KeyError as exc:
        raise ValueError(f"no {exc.args[0]!r}") from None
    except TypeError as exc:
        raise ValueError(str(exc)) from None
    for name, kind in (("players", int), ("mesa", int), ("state", int), ("version", int)):
        if not isinstance(getattr(row, name), kind):
            raise ValueError(f"the room's {name} is not a number")
    return StoredRoom(row, actions, finished)


def _no_persist(room_id: str, text: str | None) -> None:
    """Keep nothing outside memory."""


class MemoryStore:
    """The device's rooms (module docstring). ``saved``: room id → text of every room saved before."""

    def __init__(self, saved: Mapping[str, str] | None = None, persist: Persist | None = None) -> None:
        self.persist: Persist = _no_persist if persist is None else persist
        self._rooms: dict[str, StoredRoom] = {}
        #: room id → why its saved text was skipped at boot
        self.skipped: dict[str, str] = {}
        for room_id, text in (saved or {}).items():
            try:
                self._rooms[room_id] = room_of_text(room_id, text)
            except ValueError as exc:
                self.skipped[room_id] = str(exc)
                log.error(
                    "saved room %s skipped: it cannot be read (%s); the other rooms are kept", room_id, exc
                )

    # -- writing ------------------------------------------------------------------------------------------
    def _commit(self, room: StoredRoom) -> None:
        """Hand the room's new data to ``persist``, then keep it (nothing changes if ``persist`` fails)."""
        try:
            self.persist(room.row.id, room_text(room))
        except Exception as exc:
            raise StoreError(f"the device did not save room {room.row.id}: {exc}") from exc
        self._rooms[room.row.id] = room

    def _stored(self, room_id: str, version: int | None) -> StoredRoom:
        found = self._rooms.get(room_id)
        if found is None:
            raise StoreError(f"there is no room {room_id!r} to save")
        if version is not None and found.row.version != version:
            raise StoreConflict(
                f"room {room_id} changed meanwhile (version {found.row.version}, the writer read {version})"
            )
        return found

    def insert_room(self, room: RoomRow) -> None:
        if room.id in self._rooms:
            raise StoreError(f"there is already a room {room.id!r}")
        self._commit(StoredRoom(room))

    def save_seats(  # noqa: PLR0913 - StorePort's signature (server/authority/ports.py)
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
    ) -> None:
        found = self._stored(room_id, version)
        by_seat = {s.seat: s for s in found.row.seats}
        for seat in seats:
            if seat.seat not in by_seat:
                raise StoreError(f"room {room_id} has no seat {seat.seat}")
            by_seat[seat.seat] = seat
        row = dataclasses.replace(
            found.row,
            version=found.row.version + 1,
            updated=updated,
            started=started,
            status=status,
            state=state,
            mesa_state=mesa_state,
            seats=tuple(by_seat[n] for n in sorted(by_seat)),
            seed=found.row.seed if seed is None else seed,
            table_options=found.row.table_options if table_options is None else table_options,
        )
        self._commit(StoredRoom(row, found.actions, found.finished))

    def save_room(  # noqa: PLR0913 - StorePort's signature (server/authority/ports.py)
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
    ) -> None:
        found = self._stored(room_id, version)
        logs = {m: list(rows) for m, rows in found.actions.items()}
        for action in actions:
            rows = logs.setdefault(action.mesa, [])
            if action.seq != len(rows) + 1:
                raise StoreError(
                    f"room {room_id} mesa {action.mesa}: action {action.seq} does not follow "
                    f"action {len(rows)}"
                )
            rows.append(action)
        done = {(f.room, f.mesa) for f in found.finished}
        for row in finished:
            if (row.room, row.mesa) in done:
                raise StoreError(f"mesa {row.mesa} of room {room_id} is already stored as finished")
        new_row = dataclasses.replace(
            found.row,
            version=found.row.version + 1,
            updated=updated,
            mesa=mesa,
            state=state,
            mesa_state=mesa_state,
            status=status,
        )
        self._commit(StoredRoom(new_row, logs, [*found.finished, *finished]))

    def delete_room(self, room_id: str) -> bool:
        """Forget a room (``persist(room_id, None)``); whether there was one."""
        if room_id not in self._rooms:
            return False
        self.persist(room_id, None)
        del self._rooms[room_id]
        return True

    # -- reading ------------------------------------------------------------------------------------------
    def room_exists(self, room_id: str) -> bool:
        return room_id in self._rooms

    def room_ids(self) -> list[str]:
        """Every room kept (saved before or made since)."""
        return list(self._rooms)

    def load_room(self, room_id: str) -> RoomRow | None:
        found = self._rooms.get(room_id)
        return None if found is None else found.row

    def text_of(self, room_id: str) -> str | None:
        """The room's stored data as ``persist`` was last given it."""
        found = self._rooms.get(room_id)
        return None if found is None else room_text(found)

    def waiting_table_rows(self, limit: int) -> list[RoomRow]:
        rows = [r.row for r in self._rooms.values() if not r.row.started and r.row.table_options is not None]
        return sorted(rows, key=lambda r: r.created, reverse=True)[:limit]

    def load_actions(self, room_id: str, mesa: int, after: int = 0) -> list[tuple[int, str]]:
        found = self._rooms.get(room_id)
        if found is None:
            return []
        return [(a.seq, a.action) for a in found.actions.get(mesa, []) if a.seq > after]

    def room_versions(self, room_ids: Sequence[str]) -> dict[str, int]:
        return {r: self._rooms[r].row.version for r in room_ids if r in self._rooms}

    def token_seat(self, room_id: str, token_hash: str) -> tuple[int, bool] | None:
        found = self._rooms.get(room_id)
        for seat in found.row.seats if found else ():
            if seat.token_hash == token_hash:
                return seat.seat, seat.left
        return None

    def former_token_seat(self, room_id: str, token_hash: str) -> tuple[int, str] | None:
        found = self._rooms.get(room_id)
        for seat in found.row.seats if found else ():
            if seat.former_hash == token_hash:
                return seat.seat, seat.former or "reclaimed"
        return None

    # -- the history, the statistics, the records ---------------------------------------------------------
    def rooms_of_tokens(self, token_hashes: Iterable[str], *, left: bool = True) -> list[tuple[str, int]]:
        hashes = set(token_hashes)
        return sorted(
            (room_id, seat.seat)
            for room_id, stored in self._rooms.items()
            for seat in stored.row.seats
            if seat.token_hash in hashes and (left or not seat.left)
        )

    def playing_of_rooms(self, room_ids: Sequence[str]) -> list[PlayingRow]:
        rows = [self._rooms[r].row for r in set(room_ids) if r in self._rooms]
        rows = [r for r in rows if r.status == "playing"]
        rows.sort(key=lambda r: r.id)
        rows.sort(key=lambda r: r.updated, reverse=True)
        return [
            PlayingRow(
                room=r.id,
                created=r.created,
                updated=r.updated,
                players=r.players,
                level=r.level,
                rules=r.rules,
                mesa=r.mesa,
                moves=max(0, r.state - r.mesa_state),
                practice=r.practice,
            )
            for r in rows
        ]

    def finished_of_rooms(self, room_ids: Sequence[str]) -> list[FinishedRow]:
        rows = [f for r in set(room_ids) if r in self._rooms for f in self._rooms[r].finished]
        rows.sort(key=lambda f: (f.room, -f.mesa))
        rows.sort(key=lambda f: f.finished, reverse=True)
        return rows

    def finished_mesa(self, room_id: str, mesa: int) -> FinishedRow | None:
        found = self._rooms.get(room_id)
        return next((f for f in found.finished if f.mesa == mesa), None) if found else None

    def stats(self) -> dict[str, dict[str, int]]:
        out: dict[str, dict[str, int]] = {}
        for stored in self._rooms.values():
            for f in stored.finished:
                if f.practice:
                    continue
                entry = out.setdefault(f.level, {"played": 0, "won": 0, "caidas": 0, "limpias": 0})
                entry["played"] += 1
                entry["won"] += f.winner == f.person_team
                entry["caidas"] += f.caidas
                entry["limpias"] += f.limpias
        return dict(sorted(out.items()))


__all__ = ["FORMAT", "MemoryStore", "Persist", "StoredRoom", "room_of_text", "room_text"]
