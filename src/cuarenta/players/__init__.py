"""Computer players. Each sees only its seat's view and returns a legal action.

>>> from cuarenta.players import PLAYER_NAMES, make_player
>>> "facil" in PLAYER_NAMES
True
>>> make_player("nadie")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: unknown player 'nadie': choose one of aleatorio, facil, normal...
"""

from __future__ import annotations

from collections.abc import Callable

from cuarenta.players.base import Player, View, act
from cuarenta.players.dificil import DificilPlayer
from cuarenta.players.experto import ExpertoPlayer
from cuarenta.players.normal import NormalPlayer
from cuarenta.players.oracle import OraclePlayer
from cuarenta.players.simple import FacilPlayer, RandomPlayer

_REGISTRY: dict[str, Callable[[int | str], Player]] = {
    "aleatorio": RandomPlayer,
    "facil": FacilPlayer,
    "normal": NormalPlayer,
    "dificil": DificilPlayer,
    "experto": ExpertoPlayer,
    "oracle": OraclePlayer,
}

PLAYER_NAMES = tuple(_REGISTRY)


def register(name: str, factory: Callable[[int | str], Player]) -> None:
    """Add a player kind to :func:`make_player` (the built-in ones register themselves)."""
    global PLAYER_NAMES
    _REGISTRY[name] = factory
    PLAYER_NAMES = tuple(_REGISTRY)


def make_player(name: str, seed: int | str = 0) -> Player:
    """A new player of the named kind, seeded."""
    try:
        factory = _REGISTRY[name]
    except KeyError:
        raise ValueError(f"unknown player {name!r}: choose one of {', '.join(_REGISTRY)}") from None
    return factory(seed)


__all__ = ["PLAYER_NAMES", "FacilPlayer", "Player", "RandomPlayer", "View", "act", "make_player", "register"]
