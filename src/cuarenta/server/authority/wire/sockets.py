"""Where the rooms hand their sockets over to the wire: the first message after a ``join`` or ``watch``
(a snapshot, or the missed events and ``resumed``), and the broadcast of a change.

The rooms call four functions, one line each: :func:`check_join` before a join changes anything,
:func:`first_message` after it, :func:`broadcast` after every change and :func:`told_table` when a
``table`` message told the sockets the table's seats and clock. Every socket is told version 2
(a version-1 socket's messages are turned into version 1's at the edge,
:mod:`cuarenta.server.edge.version1`); what each may see is decided by
:mod:`cuarenta.server.authority.audience`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cuarenta.server.authority import audience
from cuarenta.server.authority.errors import TableError
from cuarenta.server.authority.wire.events import WireState, snapshot
from cuarenta.server.authority.wire.messages import WIRE_VERSION, Frame, Resumed, encode, splice

if TYPE_CHECKING:
    from cuarenta.server.authority.model import Connection, Room


def check_join(room: Room, version: int, since: int | None) -> None:
    """Refuse a version-2 ``since`` the table never had (``bad_message``), before anything changes."""
    if version == WIRE_VERSION and since is not None and since > room.state:
        raise TableError(
            "bad_message",
            f"since {since} is ahead of the table, whose version is {room.state}: send the last version "
            "you applied, or no since for a snapshot",
        )


def state_of(room: Room) -> WireState:
    """The room's wire state, made when its first version-2 socket comes, brought up to date."""
    state: WireState | None = room.wire
    if state is None:
        state = room.wire = WireState(room)
    return state


def broadcast(room: Room) -> None:
    """Tell every socket of the room the change (:func:`broadcast_events`)."""
    broadcast_events(room, list(room.connections))


def broadcast_events(room: Room, conns: list[Connection]) -> None:
    """Tell the sockets ``conns`` the change since the last event: the public part made
    and encoded once, each seat's private part once per seat (and per wish of hints), spectators one
    shared frame."""
    state: WireState | None = room.wire
    if state is None:
        return
    public = state.build(room)
    if public is None:
        return
    privates: dict[tuple[int, bool], str] = {}
    shared: Frame | None = None
    for conn in conns:
        seat = conn.seat
        if seat is None:
            if shared is None:
                shared = Frame(public)
            conn.send(shared)
            continue
        key = (seat, conn.hints)
        private = privates.get(key)
        if private is None:
            part = audience.private_part(room, seat, hints=conn.hints, hand=seat in state.new_hands)
            private = privates[key] = encode(part)
        conn.send(Frame(splice(public, private)))


def told_table(room: Room, message: dict[str, Any]) -> None:
    """Every socket of the room is told a ``table`` message (its seats, status and table changed without
    a move): the next event says them again only if they change from these."""
    state: WireState | None = room.wire
    if state is not None:
        state.top = {**state.top, **{k: message[k] for k in ("seats", "status", "table")}}


def first_message(room: Room, conn: Connection, since: int | None, hints: bool) -> None:
    """Queue what a socket that just joined (or watches) is sent first: with ``since`` in
    reach of the buffer, the events it missed and ``resumed``; else a ``snapshot``."""
    conn.attached()
    conn.protocol, conn.hints = WIRE_VERSION, hints
    state = room.wire
    if state is not None and state.version != room.state:  # changed without a broadcast (a refresh)
        broadcast_events(room, [c for c in room.connections if c is not conn])
    state = state_of(room)
    conn.dealt, conn.sent = room.dealt, 0 if not room.game.actions else len(room.game.events)
    missed = None if since is None else state.buffer.replay(since, room.state)
    seat = conn.seat
    top = state.top
    if missed is not None:
        for text in missed:
            conn.send(Frame(text))
        resumed = Resumed(
            v=WIRE_VERSION,
            room=room.id,
            version=room.state,
            seats=top["seats"],
            status=top["status"],
            private=None if seat is None else audience.private_part(room, seat, hints=hints, hand=True),
            table=top["table"],
            event_count=top.get("event_count"),
        )
        conn.send(Frame(encode(resumed)))
        return
    first = snapshot(room, seat, conn.sent, hints=hints)  # built for version 2 (audience decides)
    conn.sent = len(room.game.events)
    conn.send(Frame(encode(first)))


__all__ = [
    "WIRE_VERSION",
    "broadcast",
    "broadcast_events",
    "check_join",
    "first_message",
    "state_of",
    "told_table",
]
