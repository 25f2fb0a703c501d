"""``oracle``: the ``dificil`` search on the true game, seeing every card. For measurement only.

It is the ceiling the honest players are compared with (``cuarenta arena``):
the same alpha-beta to the end of the deal and the same win-probability leaves
as :mod:`cuarenta.players.dificil`, but in the one real world instead of
sampled ones. It is never offered to people as a level.

>>> from cuarenta import Game, Rules
>>> from cuarenta.players import act
>>> game = Game.new(Rules(), seed=3)
>>> bot = OraclePlayer(seed=1)
>>> bot.start(game.turn, game.rules)
>>> act(bot, game) in game.legal_moves()
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from cuarenta.moves import Action
from cuarenta.players.base import Player, View
from cuarenta.players.search import WorldSearch, move_classes
from cuarenta.players.winprob import win_model

if TYPE_CHECKING:
    from cuarenta.game import Game


class OraclePlayer(Player):
    """Searches the real game (every hand and the stock visible) to the end of the deal."""

    name = "oracle"
    sees_all = True
    #: plies below the root with 2 and with 4 players
    depth = 10
    depth4 = 8

    def choose_with_game(self, game: Game) -> Action:
        legal = game.legal_moves()
        classes = move_classes(legal, game.rules.capture == "manual")
        if len(classes) == 1:
            return classes[0]
        world = game.copy()
        depth = self.depth if game.players == 2 else self.depth4
        values = WorldSearch(world, win_model(game.rules), depth).values(classes)
        sign = 1.0 if game.turn % 2 == 0 else -1.0
        best = max(range(len(classes)), key=lambda i: sign * values[i])
        return classes[best]

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        """Without the game (called wrongly through a view) it cannot see: refuse clearly."""
        raise RuntimeError("the oracle must be given the whole game: use act() or choose_with_game()")
