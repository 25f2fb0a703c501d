"""Helpers of the championship tests: register pairs with seeds, report results, read pairings."""

from __future__ import annotations

from collections.abc import Sequence

from cuarenta.championship import Championship, Register, Report, SeedPair, Settings

NAMES = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def seeded(count: int, *, secret: int = 1, seeds: bool = True, **settings: object) -> Championship:
    """A championship of ``count`` pairs named A, B, C … (ids p1, p2 …), seeded 1, 2, 3 … in that order."""
    champ = Championship.new(Settings("Copa de prueba", **settings), secret=secret)  # type: ignore[arg-type]
    for i in range(count):
        name = NAMES[i] if i < len(NAMES) else f"Pair {i}"
        champ.apply(Register(name, (f"{name} uno", f"{name} dos")))
        if seeds:
            champ.apply(SeedPair(f"p{i + 1}", i + 1))
    return champ


def name_of(champ: Championship, pair: str | None) -> str | None:
    return None if pair is None else champ.pair(pair).name


def pairings(champ: Championship, round_: int | None = None) -> list[tuple[str | None, str | None]]:
    """The pairs' names of a round's partidas (the last round by default), table by table."""
    partidas = champ.rounds[(round_ or champ.current_round) - 1]
    return [(name_of(champ, p.pairs[0]), name_of(champ, p.pairs[1])) for p in partidas]


def report(
    champ: Championship, first: str, second: str, chicas: Sequence[int], points: Sequence[int]
) -> None:
    """Report the partida of the current round between the pairs named ``first`` and ``second``."""
    for partida in champ.rounds[-1]:
        if [name_of(champ, p) for p in partida.pairs] == [first, second]:
            champ.apply(Report(partida.id, (chicas[0], chicas[1]), (points[0], points[1])))
            return
    raise AssertionError(f"no partida {first} v {second} in round {champ.current_round}: {pairings(champ)}")
