"""A cluster's names on Redis and its timings: the channels, hashes, sorted set and stream the nodes
share (:mod:`cuarenta.server.cluster.bus` says what each carries), and how to read what they hold.

>>> room_channel("abc"), presence_key("abc"), job_key("abc", 7)
('cuarenta:room:abc', 'cuarenta:presence:abc', 'cuarenta:job:abc:7')
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

PREFIX: Final = "cuarenta"
#: The stream of computer-move jobs and its consumer group.
JOBS_STREAM: Final = f"{PREFIX}:moves"
JOBS_GROUP: Final = "workers"
#: The sorted set of live nodes (score: when the node's entry expires, wall-clock seconds).
NODES_KEY: Final = f"{PREFIX}:nodes"
#: The hash of when each process of the cluster started (a node restarted within its entry's life is seen).
STARTS_KEY: Final = f"{PREFIX}:started"
#: Seconds between a node's heartbeats, and how long its entry lives without one.
HEARTBEAT_SECONDS: Final = 2.0
NODE_TTL_SECONDS: Final = 6.0
#: Seconds between two comparisons of the rooms in memory with the database.
SWEEP_SECONDS: Final = 2.0
#: A job is enqueued once per room version within this many seconds (then again, if still needed).
JOB_DEDUPE_SECONDS: Final = 15
#: Seconds to wait before connecting to Redis again.
RETRY_SECONDS: Final = 0.5
#: The most notices kept for Redis while it does not answer (older ones are dropped: the sweep catches up).
OUTBOX_MAX: Final = 10_000
#: The most jobs kept in the stream (old, finished entries are trimmed).
STREAM_MAX: Final = 100_000
#: A room whose sockets came to this node from ``ADOPT_BEFORE_SECONDS`` before a peer node was found lost
#: to ``ADOPT_SECONDS`` after was that node's (the sockets come back within a second; the node counts as
#: lost only once its entry expired, NODE_TTL_SECONDS later).
ADOPT_BEFORE_SECONDS: Final = NODE_TTL_SECONDS + 2 * HEARTBEAT_SECONDS + 2.0
ADOPT_SECONDS: Final = 60.0
#: When a node appears, a node holding rooms adopted from a lost one asks their sockets to reconnect
#: through the proxy (which sends each room where its hash says): after this many seconds (the new node
#: is ready), this many rooms at a time, this many seconds apart.
HANDBACK_DELAY_SECONDS: Final = 3.0
HANDBACK_BATCH: Final = 10
HANDBACK_PAUSE_SECONDS: Final = 0.5
#: The close code of those sockets: 1012, "service restart" (the page reconnects after any close).
CLOSE_RECONNECT: Final = 1012
#: Seconds a room read from the database (or compared with it) counts as current for a socket's join
#: before its channel's subscription is confirmed (which compares it again): the two seats of a table
#: that join at once, the two checks of one join, cost one read, not four. Nothing else trusts it (a
#: worker reads the room of every job).
FRESH_SECONDS: Final = 0.5

#: Enqueue a job once per (room, version): set the key if absent, then add the job to the stream.
ENQUEUE: Final = """
if redis.call('SET', KEYS[1], '1', 'NX', 'EX', ARGV[1]) then
  return redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[2], '*', 'job', ARGV[3])
end
return false
"""


def room_channel(room_id: str) -> str:
    """The Redis channel of a room's notices.

    >>> room_channel("abc")
    'cuarenta:room:abc'
    """
    return f"{PREFIX}:room:{room_id}"


def presence_key(room_id: str) -> str:
    """The Redis hash of a room's presence (sockets per node and seat, graces)."""
    return f"{PREFIX}:presence:{room_id}"


def job_key(room_id: str, version: int) -> str:
    """The key that makes a room version's job enqueued once."""
    return f"{PREFIX}:job:{room_id}:{version}"


def remote_counts(
    fields: dict[str, str], node: str, live: Iterable[str]
) -> tuple[dict[int | None, int], dict[int, float]]:
    """Read a presence hash: the sockets of *other* live nodes by seat (``None``: spectators), and the
    grace end of each away seat.

    >>> remote_counts({"n/a/0": "1", "n/b/1": "2", "n/b/w": "1", "n/dead/1": "5", "away/1": "17.5"},
    ...               node="a", live={"a", "b"})
    ({1: 2, None: 1}, {1: 17.5})
    """
    alive = set(live)
    counts: dict[int | None, int] = {}
    away: dict[int, float] = {}
    for name, value in fields.items():
        kind, _, rest = name.partition("/")
        if kind == "n":
            where, _, seat_text = rest.rpartition("/")
            if where == node or where not in alive:
                continue
            seat = None if seat_text == "w" else int(seat_text)
            counts[seat] = counts.get(seat, 0) + int(value)
        elif kind == "away":
            away[int(rest)] = float(value)
    return {k: v for k, v in counts.items() if v > 0}, away


def text(value: Any) -> str:
    """A value Redis gave back (bytes or text) as text."""
    return value.decode() if isinstance(value, bytes) else str(value)


def peer_kind(name: str) -> str:
    """A cluster process's kind by its name among the live nodes (workers announce ``worker/NAME``).

    >>> peer_kind("worker/w1"), peer_kind("server1")
    ('worker', 'node')
    """
    return "worker" if name.startswith("worker/") else "node"


__all__ = [
    "ADOPT_BEFORE_SECONDS",
    "ADOPT_SECONDS",
    "CLOSE_RECONNECT",
    "ENQUEUE",
    "FRESH_SECONDS",
    "HANDBACK_BATCH",
    "HANDBACK_DELAY_SECONDS",
    "HANDBACK_PAUSE_SECONDS",
    "HEARTBEAT_SECONDS",
    "JOBS_GROUP",
    "JOBS_STREAM",
    "JOB_DEDUPE_SECONDS",
    "NODES_KEY",
    "NODE_TTL_SECONDS",
    "OUTBOX_MAX",
    "PREFIX",
    "RETRY_SECONDS",
    "STARTS_KEY",
    "STREAM_MAX",
    "SWEEP_SECONDS",
    "job_key",
    "peer_kind",
    "presence_key",
    "remote_counts",
    "room_channel",
    "text",
]
