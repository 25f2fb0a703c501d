"""The one interface every computer player implements.

A player sits at one seat. On its turn it receives ``game.view(seat)`` — a
:class:`~cuarenta.SeatView`, only what that seat may know — and the list of
legal actions, and returns one of them. It may remember what it saw between turns. It is seeded: the same seed
and the same views give the same choices.

>>> from cuarenta import Game, Rules
>>> from cuarenta.players import make_player
>>> game = Game.new(Rules(), seed=1)
>>> bot = make_player("facil", seed=7)
>>> bot.start(game.turn, game.rules)
>>> bot.choose(game.view(game.turn), game.legal_moves()) in game.legal_moves()
True
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from cuarenta.moves import Action
from cuarenta.rules import Rules
from cuarenta.view import SeatView

if TYPE_CHECKING:
    from cuarenta.game import Game

#: What a player is given on its turn: the seat's view (an immutable :class:`~cuarenta.SeatView`).
View = SeatView


class Player(ABC):
    """Base class of computer players. Subclasses implement :meth:`choose`."""

    #: Registry name (``"facil"``, ``"normal"`` …).
    name: ClassVar[str] = "player"
    #: True only for measurement players that are given the whole game (``oracle``).
    sees_all: ClassVar[bool] = False
    #: When the choice being made is due (:func:`time.monotonic`), or ``None``: no hurry. A host that must
    #: answer in time sets it around :meth:`choose` (a server whose thinking workers are busy:
    #: :mod:`cuarenta.server.thinking`); a player that searches stops widening its search once it has
    #: passed (``dificil``: no new world, and ``normal``'s choice when there is no time for one), the
    #: others are quick and ignore it. With it set, the same seed and views may give other choices on a
    #: slower or busier machine.
    deadline: float | None = None

    def __init__(self, seed: int | str = 0) -> None:
        self.seed = seed
        self.rng = random.Random(f"{self.name}/{seed}")
        self.seat = 0
        self.rules = Rules()

    def start(self, seat: int, rules: Rules) -> None:
        """Called before a game: which seat the player holds and under which rules."""
        self.seat = seat
        self.rules = rules

    @abstractmethod
    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        """Return one of ``legal`` for the position described by ``view``."""

    def choose_with_game(self, game: Game) -> Action:
        """For ``sees_all`` players only: choose seeing the whole game."""
        raise NotImplementedError(f"{self.name} does not see hidden cards")

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} seed={self.seed!r}>"


def act(player: Player, game: Game) -> Action:
    """Ask ``player`` (sitting at the seat to move) for its action, giving it only what it may see."""
    if player.sees_all:
        return player.choose_with_game(game)
    return player.choose(game.view(game.turn), game.legal_moves())
