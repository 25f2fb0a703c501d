"""Computer players in worker processes: the server sends a view and receives an action (issue 7, item 6).

The server never runs a computer player's search. For each computer move it
builds a :class:`ThinkRequest` — only what that seat may know: the seat's view
(``game.view(seat).to_dict()``), the legal actions as text, the level, the seat
and the player's seed — and awaits the chosen action as text from a
:class:`WorkerPool`. A search that takes seconds then runs on another core (or
at a lower priority on a busy one) while the event loop goes on serving every
other room and socket.

Workers
    ``cuarenta serve --workers N`` starts ``N`` worker processes (default: one
    per core, :func:`default_workers`). Each is a plain ``python`` process that
    reads one JSON request per line on its standard input and writes one JSON
    reply per line on its standard output (:func:`worker_main`); it imports the
    engine and the players only, never the web framework, and runs at a lower
    CPU priority (``nice`` +10) so that the server process is served first when
    the cores are busy. ``--workers 0`` thinks in-process instead, on one
    dedicated thread (:class:`InProcessThinking`), for tests and debugging.

A seat's player lives in one worker
    A player may remember what it saw between turns (every player keeps at
    least its random generator's state), so each request is routed by a stable
    hash of (room, mesa, seat) to the same worker, which keeps the player object
    in a bounded LRU cache (:class:`PlayerCache`). The seat's player therefore
    sees the same views in the same order as it would in-process, and makes the
    same choices: ``--workers 0`` and ``--workers N`` play the same games (as long
    as no search is cut short by a busy machine: "A busy pool" below). The
    alternative — any worker, the player rebuilt from the views it needs — would
    balance load better but would lose what a player remembers, or replay every
    earlier turn's search. When a player is lost anyway (its worker crashed, or
    it left the cache), a fresh player of the same level and seed takes over:
    its moves stay legal and seeded, exactly as after a server restart.

A busy pool
    A room has at most one request in the pool at a time (its computers move one after another), so
    each worker's first-come-first-served queue takes the rooms in turn: a room with three computers
    does not get ahead of a table with one. What grows when the workers are saturated (many tables, or a
    machine busy with other work: the workers run at a lower priority) is each request's wait behind the
    others and its own search. So every request is given a time to think (``seconds``, on the wire):
    what is left of :data:`THINK_SECONDS` since it was asked, shared with the requests queued behind it
    (:func:`think_seconds`). A searching player (``dificil``) stops widening its search when that time is
    up (:attr:`cuarenta.players.base.Player.deadline`; one world at least). On a quiet machine a request
    that finds its worker free has time to spare and the player's node budget ends its search first, so
    it chooses as in-process; on a busy one the computer answers sooner, from fewer worlds.
    docs/performance.md, "A soak of mixed tables", measured it.

Failures
    A worker that dies (killed, out of memory, a crash) is replaced at once and
    the request it held is asked again of the new one, at most ``attempts``
    times; a request that takes longer than ``timeout`` seconds kills its worker
    the same way. The ``timeout`` counts from when the worker said it is ready
    (a new process loading its modules on a busy machine is not a stuck one).
    Then :class:`ThinkingError` is raised and the room plays its first legal
    action (logged). A reply for a request nobody awaits any more
    (the room's task was cancelled) is dropped; the room itself drops an answer
    for a state that is no longer current (:mod:`cuarenta.server.authority.computer`).

>>> from cuarenta import Game, Rules
>>> game = Game.new(Rules(), seed=5)
>>> request = ThinkRequest.for_seat(game, room="r", mesa=1, seat=game.turn, level="facil")
>>> request.seed, request.key
('5/1', 'r/1/1')
>>> answer(request, PlayerCache()) in request.legal
True
"""

from __future__ import annotations

from cuarenta.server.thinking.analyses import Analyses, Progress
from cuarenta.server.thinking.local import InlineThinking, InProcessThinking
from cuarenta.server.thinking.pool import DEFAULT_ATTEMPTS, DEFAULT_TIMEOUT, WorkerPool, default_workers
from cuarenta.server.thinking.port import Thinking, ThinkingError
from cuarenta.server.thinking.process import WORKER_NICE, worker_main
from cuarenta.server.thinking.request import (
    CACHE_SIZE,
    THINK_SECONDS,
    PlayerCache,
    ThinkRequest,
    answer,
    think_seconds,
    value,
)


def make_thinking(workers: int | None = None) -> Thinking:
    """``workers`` worker processes (``None``: one per core); 0 thinks in-process, on one thread."""
    count = default_workers() if workers is None else workers
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise ValueError(f"workers must be a whole number, 0 or more, not {workers!r}")
    if count == 0:
        return InProcessThinking()
    return WorkerPool(count)


__all__ = [
    "CACHE_SIZE",
    "DEFAULT_ATTEMPTS",
    "DEFAULT_TIMEOUT",
    "THINK_SECONDS",
    "WORKER_NICE",
    "Analyses",
    "InProcessThinking",
    "InlineThinking",
    "PlayerCache",
    "Progress",
    "ThinkRequest",
    "Thinking",
    "ThinkingError",
    "WorkerPool",
    "answer",
    "default_workers",
    "make_thinking",
    "think_seconds",
    "value",
    "worker_main",
]
