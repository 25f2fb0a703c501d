"""The broadcast's CPU per move at a table of four people, in-process: the event's public part, each
seat's private part, the frames queued — with the public part built from the change's events
(``WireState.build``) and with the whole view diffed (``WireState.build_whole``, as before issue 26).

A 2v2 table of four version-2 sockets (no hints, as the page joins) plays ``--moves`` random legal moves
(a new mesa when one is over); the same moves are broadcast twice over, by two rooms side by side, one
for each way, alternating move by move so that a busy machine slows both alike. CPU is
``time.process_time`` around ``wire.broadcast`` only (the move itself and the store are not counted)::

    python bench/broadcast.py --moves 4000

To compare with another tree, run it with that tree's ``src`` first on ``PYTHONPATH`` (a tree without
``build_whole`` measures its one way). This is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import random
import time

from cuarenta import Game, Rules
from cuarenta.server.authority.model import Connection, Room, Seat, TableOptions
from cuarenta.server.authority.wire import sockets as wire
from cuarenta.server.authority.wire.events import WireState


def table(seed: int) -> Room:
    """A started table of four people (bench/wire_v2.py's too)."""
    rules = Rules.preset("a_todo_rigor", players=4)
    seats = [Seat(s, "person", f"P{s}", None, f"hash{s}") for s in range(4)]
    return Room(
        id="bench-room",
        created="2026-12-02T00:00:00Z",
        level="normal",
        rules=rules,
        seed=seed,
        seats=seats,
        mesa=1,
        game=Game.new(rules, seed),
        table=TableOptions(invite="x"),
    )


def with_sockets(room: Room) -> tuple[Room, list[Connection]]:
    """The table with a version-2 socket in each seat (no hints, as the page joins)."""
    conns = []
    for s in range(4):
        conn = Connection()
        conn.seat, conn.room, conn.protocol, conn.hints = s, room, 2, False
        room.connections.add(conn)
        conns.append(conn)
    room.wire = WireState(room)
    return room, conns


class Whole(WireState):
    """The broadcast of before: every public part made from the whole view, diffed."""

    def build(self, room: Room) -> str | None:
        return self.build_whole(room)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    ways: dict[str, tuple[Room, list[Connection]]] = {"events": with_sockets(table(args.seed))}
    if hasattr(WireState, "build_whole"):
        room, conns = with_sockets(table(args.seed))
        room.wire = Whole(room)
        ways["whole view"] = (room, conns)
    spent = dict.fromkeys(ways, 0.0)
    frames = dict.fromkeys(ways, 0)
    for _ in range(args.moves):
        first = ways["events"][0]
        if first.game.is_over:
            seed = rng.randrange(10**9)
            for room, _conns in ways.values():
                room.mesa += 1
                room.game = Game.new(room.rules, seed)
                room.state += 1
                room.mesa_state = room.state
                wire.broadcast(room)
        action = rng.choice(first.game.legal_moves())
        for name, (room, conns) in ways.items():
            room.game.play(action)
            room.state += 1
            start = time.process_time()
            wire.broadcast(room)
            spent[name] += time.process_time() - start
            for conn in conns:
                while not conn.queue.empty():
                    frames[name] += len(conn.queue.get_nowait().text)
    for name in ways:
        print(
            f"{name:>10}: {1e6 * spent[name] / args.moves:6.1f} µs CPU per move, "
            f"{frames[name] / args.moves / 4:.0f} bytes per socket per move"
        )


if __name__ == "__main__":
    main()
