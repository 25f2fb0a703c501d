"""What describing the events for the page costs (server/authority/eventview.py): microseconds per move.

Plays 30 random mesas of 2v2 ``a_todo_rigor`` and describes every event of each in order, as a room does
(``audience.wired_events``), against the engine's bare ``to_dict()`` with its sayings. Run from the
repository root::

    python bench/eventview.py

A measurement, not a test.
"""

from __future__ import annotations

import random
import time

from cuarenta import Game, Rules
from cuarenta.server.authority.eventview import wire_event


def main() -> None:
    games = []
    for seed in range(30):
        game = Game.new(Rules.preset("a_todo_rigor", 4), seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            game.play(rng.choice(game.legal_moves()))
        games.append(game)
    moves = sum(len(g.actions) for g in games)
    events = sum(len(g.events) for g in games)
    start = time.perf_counter()
    for game in games:
        for event in game.events:
            _ = {**event.to_dict(), "sayings": []}
    bare = time.perf_counter() - start
    start = time.perf_counter()
    for game in games:
        for i in range(len(game.events)):
            wire_event(game, i, [])
    described = time.perf_counter() - start
    print(
        f"{events} events, {moves} moves: to_dict {bare / moves * 1e6:.1f} µs/move, "
        f"wire_event {described / moves * 1e6:.1f} µs/move"
    )


if __name__ == "__main__":
    main()
