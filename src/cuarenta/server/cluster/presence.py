"""A cluster node's side of the presence hashes (:mod:`cuarenta.server.cluster.bus`, "Presence").

Which seats have a socket, on which node, is kept in a Redis hash per room (``cuarenta:presence:ID``,
fields ``n/NODE/SEAT`` = sockets, ``away/SEAT`` = when the seat's grace ends). :class:`Presence` writes
this node's fields, reads the others' (:func:`~cuarenta.server.cluster.keys.remote_counts`) and gives
them to the authority (``presence_changed``: other nodes' sockets, graces, stand-ins).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from redis.asyncio import Redis

from cuarenta.server.authority.model import Room
from cuarenta.server.cluster.keys import NODES_KEY, presence_key, remote_counts, room_channel, text

if TYPE_CHECKING:
    from cuarenta.server.authority.core import Authority


def seat_keys(room: Room) -> set[int | None]:
    """The seats a room's presence counts sockets of (``None``: its spectators)."""
    return {None, *range(room.players)}


def local_counts(room: Room) -> dict[int | None, int]:
    """This node's sockets of ``room`` by seat (``None``: spectators)."""
    counts: dict[int | None, int] = {}
    for c in room.connections:
        counts[c.seat] = counts.get(c.seat, 0) + 1
    return counts


class Presence:
    """The presence of the rooms in memory on node ``node``: written, read back and applied.

    ``authority`` gives the authority whose rooms they are (bound after the bus is made);
    :attr:`nodes` are the live nodes as last read (the heartbeat keeps them): only their sockets count.
    """

    def __init__(self, redis: Redis, node: str, authority: Callable[[], Authority]) -> None:
        self.redis = redis
        self.node = node
        self._authority = authority
        self.nodes: set[str] = {node}  #: live nodes as last read
        self.fields: dict[str, dict[str, str]] = {}  #: the last presence hash read, per room

    async def write(self, room_ids: Iterable[str]) -> None:
        """Write this node's sockets of some rooms, and the graces it started, then tell the others."""
        a = self._authority()
        async with self.redis.pipeline(transaction=False) as pipe:
            told: list[str] = []
            for room_id in room_ids:
                room = a.room_in_memory(room_id)
                key = presence_key(room_id)
                if room is None:  # it left memory: none of its sockets is here any more
                    pipe.hdel(key, *(f"n/{self.node}/{s}" for s in ("w", 0, 1, 2, 3)))
                    continue
                counts = local_counts(room)
                for seat in seat_keys(room):
                    field = f"n/{self.node}/{'w' if seat is None else seat}"
                    if counts.get(seat):
                        pipe.hset(key, field, counts[seat])
                    else:
                        pipe.hdel(key, field)
                for s in room.seats:
                    # only the node that holds the person's socket ends a grace: another node's idea of
                    # who is connected elsewhere may be a moment old
                    if s.kind == "person" and counts.get(s.seat):
                        pipe.hdel(key, f"away/{s.seat}")
                    elif s.kind == "person" and s.away_until is not None and not room.connected(s.seat):
                        pipe.hsetnx(key, f"away/{s.seat}", repr(s.away_until))
                pipe.expire(key, 24 * 3600)
                pipe.publish(room_channel(room_id), json.dumps({"kind": "presence", "node": self.node}))
                told.append(room_id)
            await pipe.execute()
        await self.read(told)

    async def read(self, room_ids: Iterable[str]) -> None:
        """Read the presence of some rooms and apply it: other nodes' sockets, graces, stand-ins."""
        a = self._authority()
        ids = [r for r in room_ids if a.room_in_memory(r) is not None]
        if not ids:
            return
        async with self.redis.pipeline(transaction=False) as pipe:
            for room_id in ids:
                pipe.hgetall(presence_key(room_id))
            hashes = await pipe.execute()
        for room_id, raw in zip(ids, hashes, strict=True):
            room = a.room_in_memory(room_id)
            if room is None:
                continue
            fields = {text(k): text(v) for k, v in raw.items()}
            self.fields[room_id] = fields
            remote, away = remote_counts(fields, self.node, self.nodes)
            a.presence_changed(room, remote, away)

    async def forget_node(self) -> None:
        """Remove this node's sockets from every presence hash it wrote, and the node from the live ones
        (a clean stop)."""
        for room in list(self._authority().rooms_in_memory()):
            fields = [f"n/{self.node}/{'w' if s is None else s}" for s in seat_keys(room)]
            if fields:
                await self.redis.hdel(presence_key(room.id), *fields)
        await self.redis.zrem(NODES_KEY, self.node)


__all__ = ["Presence", "local_counts", "seat_keys"]
