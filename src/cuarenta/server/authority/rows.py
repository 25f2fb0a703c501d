"""A room and its stored rows: rebuilding a room from its row and log (checked), the rows of a change.

>>> room_row  # doctest: +ELLIPSIS
<function room_row at ...>
"""

from __future__ import annotations

import json
from typing import Final

import cuarenta.players as registry
from cuarenta.errors import CuarentaError
from cuarenta.game import Game
from cuarenta.moves import parse_action
from cuarenta.record import GameRecord
from cuarenta.rules import Rules
from cuarenta.server.authority import computer_names
from cuarenta.server.authority.audience import finished_seats
from cuarenta.server.authority.errors import RoomProblem
from cuarenta.server.authority.model import Room, Seat, TableOptions, mesa_seed
from cuarenta.server.authority.ports import (
    FinishedRow,
    RoomRow,
    SeatRow,
    StoreCorrupt,
    StoreError,
    StorePort,
    dumps,
)

#: Events that count as a caída / a limpia for the statistics.
CAIDA_KINDS: Final = frozenset({"caida", "caida_limpia", "caida_ronda"})
LIMPIA_KINDS: Final = frozenset({"limpia", "caida_limpia"})


def room_row(room: Room) -> RoomRow:
    """The row of a new room with its seats (its log is empty)."""
    return RoomRow(
        id=room.id,
        created=room.created,
        updated=room.created,
        players=room.players,
        level=room.level,
        rules=dumps(room.rules.to_dict()),
        seed=dumps(room.seed),
        mesa=room.mesa,
        state=room.state,
        status=room.status,
        practice=room.practice,
        mesa_state=room.mesa_state,
        seats=tuple(s.to_row() for s in room.seats),
        table_options=None if room.table is None else room.table.to_json(),
        started=room.started,
    )


def store_problem(room_id: str, exc: StoreError) -> RoomProblem:
    """A store that could not read a room: ``corrupt_room`` when its rows are damaged, else
    ``store_unavailable`` (docs/protocol.md, docs/storage.md "Storage faults").

    >>> store_problem("r1", StoreCorrupt("reading room r1 failed: the database is damaged: …")).code
    'corrupt_room'
    >>> store_problem("r1", StoreError("reading room r1 failed: disk I/O error")).code
    'store_unavailable'
    """
    if isinstance(exc, StoreCorrupt):
        return RoomProblem("corrupt_room", f"room {room_id} cannot be resumed: its save is damaged: {exc}")
    return RoomProblem(
        "store_unavailable",
        f"the games' database cannot be read just now, so room {room_id} cannot be "
        f"opened (try again later): {exc}",
    )


#: How many times a room's row and log are read again when the log is ahead of the row (:func:`read_room`).
READ_AGAIN: Final = 5


def read_room(store: StorePort, room_id: str) -> tuple[RoomRow, list[tuple[int, str]]] | None:
    """The room's row and the log of its mesa, read so that they agree (``None``: no such room). They are
    two reads, and another server process (a cluster) may store a move between them: a log longer than
    the row counts is read again with a new row, a few times. A table that moved on between every two
    reads (its row's version changed meanwhile: a busy table on a loaded machine) is given as its row
    says, with the first actions of the log, which are the room at that version (the log of a mesa only
    grows); a row that did not change while its log stayed longer is returned as it is, for
    :func:`room_from_row` to refuse as corrupt."""
    found = None
    versions: set[int] = set()
    for _ in range(READ_AGAIN):
        row = store.load_room(room_id)
        if row is None:
            return None
        found = (row, store.load_actions(room_id, row.mesa))
        if len(found[1]) <= row.state - row.mesa_state:
            return found
        versions.add(row.version)
    if found is not None and len(versions) > 1 and found[0].state >= found[0].mesa_state:
        row, log = found
        return row, log[: row.state - row.mesa_state]
    return found


def _stored_seed(row: RoomRow, log: list[tuple[int, str]]) -> int | str:
    """The room's seed, its counters and its log checked (``ValueError`` saying what is wrong)."""
    seed = json.loads(row.seed)
    if not isinstance(seed, int | str) or isinstance(seed, bool):
        raise ValueError(f"the room seed {seed!r} is not a number or text")
    if not isinstance(row.mesa, int) or row.mesa < 1:
        raise ValueError(f"mesa {row.mesa!r} is not a mesa number")
    if not isinstance(row.state, int) or not isinstance(row.mesa_state, int) or row.mesa_state < row.mesa - 1:
        raise ValueError(f"state {row.state!r} (mesa begun at {row.mesa_state!r}) is not a count")
    for expected, (seq, _) in enumerate(log, start=1):
        if seq != expected:
            raise ValueError(f"the log of mesa {row.mesa} jumps from action {expected - 1} to {seq}")
    return seed


def _stored_seat(s: SeatRow, table: TableOptions | None, started: bool) -> Seat:
    """A seat of a stored room (``ValueError`` if it cannot be one)."""
    if s.kind == "person":
        if not s.token_hash:
            raise ValueError(f"person seat {s.seat} has no token")
        return Seat(
            s.seat,
            "person",
            s.name,
            None,
            s.token_hash,
            s.profile,
            code_hash=s.code_hash,
            former_hash=s.former_hash,
            former=s.former,
        )
    if s.kind == "computer":
        if s.level not in registry.PLAYER_NAMES:
            raise ValueError(f"computer seat {s.seat} has level {s.level!r}, which this version lacks")
        token_hash = s.token_hash if s.left else None  # a person who left: the token is told so
        return Seat(
            s.seat,
            "computer",
            s.name,
            s.level,
            token_hash,
            s.profile,
            s.left,
            former_hash=s.former_hash,
            former=s.former,
            vacant=s.vacant and not s.left,
        )
    if s.kind == "open" and table is not None and not started:
        return Seat(s.seat, "open")
    raise ValueError(f"seat {s.seat} is of unknown kind {s.kind!r}")


def room_from_row(row: RoomRow, log: list[tuple[int, str]]) -> Room:
    """Rebuild a stored room by replaying its current mesa's ``log`` (``(seq, action)`` rows) with the
    engine, checked; anything wrong raises :class:`RoomProblem` (``corrupt_room``) saying what.

    The replay starts from ``Game.new(rules, mesa_seed(seed, mesa))``; every action must be legal; the
    log must be numbered 1, 2 … without a gap; the room's state counter must equal the state counter at
    the start of the mesa plus the number of actions; and the stored status must be the replay's.
    """
    try:
        if row.problem is not None:
            raise ValueError(row.problem)
        rules = Rules.from_dict(json.loads(row.rules))
        seed = _stored_seed(row, log)
        game = Game.replay(rules, mesa_seed(seed, row.mesa), [action for _, action in log])
        if row.state != row.mesa_state + len(log):
            raise ValueError(
                f"state {row.state} does not match the log ({len(log)} actions of mesa {row.mesa}, "
                f"begun at state {row.mesa_state})"
            )
        status = "waiting" if not row.started else "finished" if game.is_over else "playing"
        if row.status != status:
            raise ValueError(f"the room is stored as {row.status!r} but its log replays to {status!r}")
        if len(row.seats) != rules.players or [s.seat for s in row.seats] != list(range(rules.players)):
            raise ValueError(f"the room has {len(row.seats)} seats for {rules.players} players")
        table = None if row.table_options is None else TableOptions.from_json(row.table_options)
        seats = [_stored_seat(s, table, row.started) for s in row.seats]
        if table is None and not any(s.kind == "person" for s in seats):
            raise ValueError("the room has no person seat")
        if not row.started and (table is None or row.mesa != 1 or log):
            raise ValueError("only a table that has not started may be waiting, with no card played")
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
        seats=computer_names.named(row.id, seats),  # a room stored before names: the same on every node
        mesa=row.mesa,
        game=game,
        state=row.state,
        practice=row.practice,
        mesa_state=row.mesa_state,
        logged=len(log),
        # a waiting table's game is only the deal it would have had (one may even be over at the deal:
        # four of a kind, R17); the mesa it plays is dealt at the start and recorded when it ends
        recorded=row.mesa if row.started and game.is_over else row.mesa - 1,
        table=table,
        started=row.started,
        version=row.version,
    )


def play_logged(room: Room, actions: list[str]) -> bool:
    """Play actions of the room's log (written elsewhere) on its game, in order, and count them as logged;
    if one does not read or is not legal, undo those played and answer ``False`` (the room unchanged)."""
    played = 0
    try:
        for text in actions:
            room.game.play(parse_action(text))
            played += 1
    except (CuarentaError, ValueError):
        for _ in range(played):
            room.game.pop()
        return False
    room.logged += played
    room.recorded = room.mesa if room.game.is_over else room.mesa - 1
    return True


def finished_row(room: Room, when: str) -> FinishedRow:
    """The history row of a finished mesa: its record, the statistics' counts, the public seats."""
    game = room.game
    outcome = game.outcome
    assert outcome is not None
    team = room.person_team
    counts = [
        [
            sum(1 for e in game.events if e.kind in CAIDA_KINDS and getattr(e, "team", None) == t),
            sum(
                1
                for e in game.events
                if getattr(e, "team", None) == t
                and (e.kind in LIMPIA_KINDS or (e.kind == "caida_ronda" and getattr(e, "limpia", False)))
            ),
        ]
        for t in (0, 1)
    ]
    caidas, limpias = counts[team]
    record = GameRecord.from_game(
        game, seats=room.names(), headers={"Event": "Cuarenta web", "Date": when[:10]}
    )
    return FinishedRow(
        room=room.id,
        mesa=room.mesa,
        finished=when,
        level=room.level,
        players=room.players,
        rules=dumps(room.rules.to_dict()),
        seats=dumps(finished_seats(room)),
        person_team=team,
        winner=outcome.winner,
        chicas=dumps(list(outcome.chicas)),
        chica_results=dumps([r.to_dict() for r in game.chica_results]),
        caidas=caidas,
        limpias=limpias,
        record=record.to_text(),
        practice=room.practice,
        team_counts=dumps(counts) if room.table is not None else None,
    )


__all__ = [
    "CAIDA_KINDS",
    "LIMPIA_KINDS",
    "finished_row",
    "play_logged",
    "room_from_row",
    "room_row",
    "store_problem",
]
