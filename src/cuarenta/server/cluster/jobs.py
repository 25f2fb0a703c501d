"""The scheduler of a cluster node: a computer's move is a job on the cluster's stream for the workers.

The node never thinks: when a computer is to move it enqueues a job for the room's current version (the
room, the version, the seat, the level and the time before which it must not be played: the pace), once
per version whichever node asks (:mod:`cuarenta.server.cluster.bus`); ``cuarenta worker`` processes
(:mod:`cuarenta.server.worker`) play it through the authority's public API.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cuarenta.server.authority.core import Authority
    from cuarenta.server.authority.model import Room
    from cuarenta.server.cluster.bus import RedisBus


class JobScheduler:
    """:class:`~cuarenta.server.authority.ports.Scheduler` of a cluster node (module docstring)."""

    def __init__(self, bus: RedisBus) -> None:
        self.bus = bus
        self.authority: Authority | None = None

    def bind(self, authority: Authority) -> None:
        self.authority = authority

    def kick(self, room: Room) -> None:
        """A computer is to move: enqueue the job of this version (once, whichever node asks)."""
        seat = room.computer_to_move()
        if seat is None:
            return
        level = room.plays_for(seat)
        assert level is not None and self.authority is not None
        self.bus.enqueue(
            room,
            {
                "room": room.id,
                "version": room.version,
                "seat": seat,
                "level": level,
                "not_before": self.authority.wall() + self.authority.pace_delay(room.pace),
            },
        )

    def busy(self, room: Room) -> bool:
        return False  # the job is the workers': nothing of this process keeps the room in memory

    async def close(self) -> None:
        return None


__all__ = ["JobScheduler"]
