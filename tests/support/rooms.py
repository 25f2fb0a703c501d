"""A room made in memory, without a store or a server, for the tests of the audience and the wire."""

from __future__ import annotations

from cuarenta import Game, Rules
from cuarenta.server.authority.model import Room, Seat, TableOptions, mesa_seed
from cuarenta.server.authority.ports import hash_token


def a_room(seed: int, players: int, table: bool, started: bool = True, rules: Rules | None = None) -> Room:
    """A room of ``players`` (``a_todo_rigor`` unless ``rules``): at a ``table`` every seat a person
    (tokens ``secret-N``, profiles ``profile-N``, a championship's invite code), else one person and the
    computer; its first mesa dealt from ``seed``."""
    rules = Rules.preset("a_todo_rigor", players=players) if rules is None else rules
    seats = [
        Seat(s, "person", f"P{s}", None, hash_token(f"secret-{s}"), f"profile-{s}") for s in range(players)
    ]
    if not table:
        seats[1:] = [Seat(s, "computer", "", "normal") for s in range(1, players)]
    return Room(
        id="room",
        created="2026-12-04T00:00:00Z",
        level="normal",
        rules=rules,
        seed=seed,
        seats=seats,
        mesa=1,
        game=Game.new(rules, mesa_seed(seed, 1)),
        table=TableOptions(invite="the-invite-code", championship="c1", partida="p1") if table else None,
        started=started,
    )
