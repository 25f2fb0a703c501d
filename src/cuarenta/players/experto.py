"""``experto``: ``dificil``'s search over worlds weighted by what the rivals' play reveals.

``dificil`` deals the unseen cards uniformly among the deals consistent with
what it saw, as if every other seat played at random. ``experto`` reads the
hands as a strong player does:

1. it samples many more worlds than it will search (:attr:`ExpertoPlayer.weighed`
   per move), each consistent with the view as ``dificil``'s are;
2. it weighs each world by how likely the other seats' plays of this deal are
   if they held those hands (:mod:`cuarenta.players.playmodel`, a model of play
   learned from self-play): a world where a rival let a capture pass, or
   dropped a card it could have kept, counts for less;
3. it draws the worlds it searches from those weights (a world drawn twice is
   searched once and counts twice) and searches each to the end of the deal as
   ``dificil`` does, with a larger budget (:data:`EXPERTO_BUDGET`).

With two players the last deal of a hand hides nothing and is solved exactly,
as ``dificil`` does. The work is bounded by counts (worlds weighed, nodes
searched), never by the clock, so the same seed and views give the same
choices.

>>> from cuarenta import Game, Rules
>>> from cuarenta.players import act
>>> game = Game.new(Rules(), seed=3)
>>> bot = ExpertoPlayer(seed=1)
>>> bot.start(game.turn, game.rules)
>>> act(bot, game) in game.legal_moves()
True
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from cuarenta.game import Game
from cuarenta.players.base import View
from cuarenta.players.dificil import Budget, DificilPlayer, passed_caidas
from cuarenta.players.knowledge import Knowledge, sample_deal, world_game
from cuarenta.players.playmodel import PlayModel, deal_decisions, play_model

#: ``experto``'s search budget: three times ``dificil``'s nodes (twice with 4 players), more worlds.
EXPERTO_BUDGET = Budget(nodes=90000, min_worlds=20, max_worlds=160, nodes4=240000)
#: Its budget on the device (the game in the browser, under Pyodide): ``dificil``'s on the server with 2
#: players, the device's ``dificil`` depth with 4 (docs/strength.md "experto").
DEVICE_BUDGET = Budget(nodes=30000, min_worlds=10, max_worlds=80, depth4=10, nodes4=90000, quiet=False)


class ExpertoPlayer(DificilPlayer):
    """Searches worlds drawn by the likelihood of the rivals' observed plays (module docstring)."""

    name = "experto"
    budget = EXPERTO_BUDGET
    #: worlds sampled and weighed per move (the searched ones are drawn from them)
    weighed = 400
    #: how far the model of play is trusted: the log-likelihoods are multiplied by it (0: ``dificil``'s
    #: uniform worlds)
    trust = 1.0

    def __init__(
        self, seed: int | str = 0, budget: Budget | None = None, model: PlayModel | None = None
    ) -> None:
        super().__init__(seed, budget)
        self.model = model

    def worlds(self, view: View, know: Knowledge) -> Iterator[tuple[Game, int]]:
        """The worlds to search, drawn by their weights, the most drawn first, each with how many times it
        was drawn (``dificil``'s when no other seat has played in this deal yet)."""
        rng = self.rng
        voids = passed_caidas(view)
        limit = self.budget.max_worlds
        decisions = [d for d in deal_decisions(view) if d.seat != know.seat]
        if not decisions or not self.trust:  # nothing to read yet: dificil's worlds, sampled as searched
            return super().worlds(view, know)
        pool = [sample_deal(know, rng, voids) for _ in range(self.weighed)]
        play = self.model or play_model()
        rules = know.rules
        seat, trust = know.seat, self.trust
        logs = [trust * play.world_log_likelihood(decisions, hands, seat, rules) for hands, _ in pool]
        top = max(logs)
        weights = [math.exp(x - top) for x in logs]
        # systematic resampling: ``limit`` draws, one random offset (seeded), in the pool's order
        total = sum(weights)
        step = total / limit
        point = rng.random() * step
        counts = [0] * len(pool)
        acc = 0.0
        i = 0
        for k in range(limit):
            target = point + k * step
            while i < len(pool) - 1 and acc + weights[i] < target:
                acc += weights[i]
                i += 1
            counts[i] += 1
        drawn = sorted((j for j, c in enumerate(counts) if c), key=lambda j: -counts[j])
        # the most likely first, so that the node budget goes to them; a world is built when it is searched
        return ((world_game(view, know, *pool[j], rng.randrange(2**31)), counts[j]) for j in drawn)
