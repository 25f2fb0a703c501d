"""``dificil``: determinized search over the hidden cards, valued in chances to win the chica.

On each turn the player reads its view (never hidden cards) and:

1. groups the legal actions that differ only in suits, and plays at once when
   only one group is left;
2. deals the cards it has not seen at random into the other hands and the
   stock, consistently with what it saw — cards played and captured, the
   announced rondas, and the caídas a seat let pass in this deal (it holds no
   card of that rank: :func:`passed_caidas`) — a *world*;
3. in each world, searches every action with alpha-beta
   (:class:`~cuarenta.players.search.WorldSearch`) to the end of the deal (with
   4 players, at most 8 cards ahead), valuing the outcome as the probability
   of winning the chica (:mod:`cuarenta.players.winprob`): scores and piles,
   what the next deal's first seat may clear from the table, the cartón to come;
4. plays the action with the best average over the worlds.

With two players the last deal of a hand hides nothing (the stock is empty and
every other card has been seen): that deal is solved exactly, cartón included.

The work per move is bounded by a node budget (:class:`Budget`), not by the
clock, so the same seed and the same views always give the same choices — unless
the host sets a :attr:`~cuarenta.players.base.Player.deadline` (a server whose
thinking workers are saturated): then no new world is started once it has
passed, and when there is not time for one world (the last search says what a
world costs) the move is chosen as ``normal`` would choose it, in a fraction of a
millisecond instead of tens.

>>> from cuarenta import Game, Rules
>>> from cuarenta.players import act
>>> game = Game.new(Rules(), seed=3)
>>> bot = DificilPlayer(seed=1)
>>> bot.start(game.turn, game.rules)
>>> act(bot, game) in game.legal_moves()
True
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from cuarenta.cards import Card
from cuarenta.events import ClaimMade, Deal, Limpia, Play
from cuarenta.game import Game
from cuarenta.moves import Action
from cuarenta.players.base import Player, View
from cuarenta.players.knowledge import Knowledge, sample_world
from cuarenta.players.normal import NormalPlayer
from cuarenta.players.search import WorldSearch, move_classes, view_streak
from cuarenta.players.winprob import win_model


@dataclass(frozen=True)
class Budget:
    """How much a search player may think per move."""

    nodes: int = 30000  #: positions searched per move, over all worlds (then no new world is started)
    min_worlds: int = 10  #: worlds searched even when the budget runs out
    max_worlds: int = 80  #: never more worlds than this
    depth: int = 10  #: plies searched below the root at most (2 players)
    depth4: int = 12  #: the same with 4 players (a deal is 20 plies)
    nodes4: int = 120000  #: ``nodes`` with 4 players (the hidden hands are three, the worlds more varied)
    quiet: bool = False  #: at the depth limit, let the seat to move make its caída or limpia


@dataclass(frozen=True)
class SearchWork:
    """What a search player's last move searched (:attr:`DificilPlayer.work`): the worlds, the positions
    over all of them, and the positions of the last world alone. The budget is checked before a world is
    started, so only the last world may take the count past :attr:`Budget.nodes`.

    >>> work = SearchWork(worlds=12, nodes=31000, last_nodes=2500)
    >>> work.within(Budget(), players=2)
    True
    >>> SearchWork(worlds=81, nodes=100, last_nodes=1).within(Budget(), players=2)
    False
    """

    worlds: int
    nodes: int
    last_nodes: int

    def within(self, budget: Budget, players: int) -> bool:
        """Whether this work kept to ``budget``: no more worlds than :attr:`Budget.max_worlds`, and no world
        started once the nodes were spent, unless fewer than :attr:`Budget.min_worlds` had been searched."""
        nodes = budget.nodes if players == 2 else budget.nodes4
        started_within = self.worlds <= budget.min_worlds or self.nodes - self.last_nodes < nodes
        return self.worlds <= budget.max_worlds and started_within


#: The budget on the device (the game in the browser, docs/architecture.md "The device host"): Pyodide is
#: 1.3–1.9× slower than CPython and a phone, or a loaded one, several times slower again, so in 2 vs 2 each
#: world is searched 10 plies deep (not 12), the node budget is 60,000 and at least 6 worlds are searched
#: (not 10). The work of a move at its 95th percentile is a fifth of the default's (docs/performance.md
#: "The game on the device"); what it costs in strength: docs/strength.md "On the device".
DEVICE_BUDGET = Budget(depth4=10, nodes4=60000, min_worlds=6)


class DificilPlayer(Player):
    """Samples worlds consistent with its view and searches each to the end of the deal."""

    name = "dificil"
    #: the default budget (arena figures in docs/strength.md are measured with it)
    budget = Budget()

    def __init__(self, seed: int | str = 0, budget: Budget | None = None) -> None:
        super().__init__(seed)
        if budget is not None:
            self.budget = budget
        #: wall-clock seconds one world took in the last search (what a hurried move may afford)
        self.world_seconds: float | None = None
        #: what the last move searched, or ``None`` if it searched nothing (one way to play, or no time)
        self.work: SearchWork | None = None
        self._quick: NormalPlayer | None = None

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        know = Knowledge.from_view(view)
        rules = know.rules
        classes = move_classes(legal, rules.capture == "manual")
        self.work = None
        if len(classes) == 1:
            return classes[0]
        started = time.monotonic()
        if self.out_of_time(started):
            return self.quick(view, legal)  # no time for one world
        totals, _ = self._search(view, know, classes, self.deadline, started)
        sign = 1.0 if know.seat % 2 == 0 else -1.0
        best = max(range(len(classes)), key=lambda i: sign * totals[i])
        return classes[best]

    def values(self, view: View, actions: Sequence[Action]) -> list[float]:
        """The chance that this seat's team wins the chica after each of ``actions`` (legal actions of the
        seat to move in ``view``), averaged over the worlds this player would search for its move now (its
        budget, its seed's next worlds; no deadline): what its choice weighs, for a person's analysis or
        advice. A move searched in one world is valued as the search plays on from it (every later capture
        taken in full), so a manual capture that forgets cards is valued too.

        >>> from cuarenta import Game, Rules
        >>> game = Game.new(Rules(), seed=3)
        >>> bot = DificilPlayer(seed=1, budget=Budget(nodes=0, min_worlds=2, max_worlds=2))
        >>> bot.start(game.turn, game.rules)
        >>> chances = bot.values(game.view(game.turn), game.legal_moves())
        >>> len(chances) == len(game.legal_moves()) and all(0.0 <= c <= 1.0 for c in chances)
        True
        """
        know = Knowledge.from_view(view)
        totals, weight = self._search(view, know, list(actions), None, time.monotonic())
        if know.seat % 2 == 0:
            return [t / weight for t in totals]
        return [1.0 - t / weight for t in totals]

    def _search(
        self, view: View, know: Knowledge, roots: Sequence[Action], deadline: float | None, started: float
    ) -> tuple[list[float], int]:
        """Search ``roots`` in the worlds of this move: each root's summed P(team 0 wins) over the worlds
        (a world drawn twice counts twice), and the sum of the counts; :attr:`work` says what it searched.
        No world is started after ``deadline`` (``time.monotonic()``) once one has been searched; the move
        began at ``started`` (what a world costs is measured from it)."""
        rules = know.rules
        budget = self.budget
        hidden = sum(know.hand_sizes) - len(know.hand)
        exact = know.players == 2 and know.stock_size == 0 and len(know.unseen) == hidden
        depth = budget.depth if know.players == 2 else budget.depth4
        if exact:
            depth = 10
        model = win_model(rules)
        totals = [0.0] * len(roots)
        nodes = 0
        worlds = 0
        weight = 0
        source = iter([(sample_inferred(view, self.rng, know, {}), 1)] if exact else self.worlds(view, know))
        streak = view_streak(view) if rules.cuatro_caidas_gana else None
        node_budget = budget.nodes if know.players == 2 else budget.nodes4
        while worlds < budget.min_worlds or nodes < node_budget:
            if worlds and deadline is not None and time.monotonic() >= deadline:
                break  # the host is in a hurry: answer from the worlds searched so far
            drawn = next(source, None)  # sampled only now: no world is drawn that is not searched
            if drawn is None:
                break
            world, count = drawn
            search = WorldSearch(world, model, depth, budget.quiet, streak)
            for i, v in enumerate(search.values(roots)):
                totals[i] += count * v
            nodes += search.nodes
            worlds += 1
            weight += count
        self.world_seconds = (time.monotonic() - started) / worlds
        self.work = SearchWork(worlds, nodes, search.nodes)
        return totals, weight

    def worlds(self, view: View, know: Knowledge) -> Iterator[tuple[Game, int]]:
        """The worlds to search when some cards are hidden, in order, each with how many times it counts:
        up to :attr:`Budget.max_worlds`, sampled uniformly among those consistent with the view and the
        caídas let pass (:func:`passed_caidas`), each when it is about to be searched. ``experto`` weighs
        them instead."""
        voids = passed_caidas(view)
        return ((sample_inferred(view, self.rng, know, voids), 1) for _ in range(self.budget.max_worlds))

    def out_of_time(self, now: float) -> bool:
        """Whether the host's :attr:`~cuarenta.players.base.Player.deadline` leaves no time for one world at
        ``now`` (``time.monotonic()``; the last search says what a world costs)."""
        deadline = self.deadline
        if deadline is None:
            return False
        left = deadline - now
        return left <= 0 or (self.world_seconds is not None and left < self.world_seconds)

    def quick(self, view: View, legal: Sequence[Action]) -> Action:
        """The move ``normal`` (seeded from this player's seed) chooses: what a hurried player plays when
        there is not time to search one world."""
        if self._quick is None:
            self._quick = NormalPlayer(seed=self.seed)
        self._quick.start(self.seat, self.rules)
        return self._quick.choose(view, legal)


def passed_caidas(view: View) -> dict[int, set[int]]:
    """Ranks other seats cannot hold now: earlier in this deal they let a caída on that rank pass.

    A caída (R13) is 2 points and cards for nothing; every sensible player takes
    it. So a seat that played something else on a card just dropped (other than
    a limpia, worth as much) held no card of that rank then, and — no cards come
    in during a deal — holds none now.
    """
    me = view.seat
    voids: dict[int, set[int]] = {}
    last: Card | None = None
    history = view.history
    for i, event in enumerate(history):
        if isinstance(event, Deal):
            voids = {}
            last = None
        elif isinstance(event, Play):
            move = event.move
            seat = event.seat
            # a limpia instead (also 2 points) proves nothing
            limpia = i + 1 < len(history) and isinstance(history[i + 1], Limpia)
            if last is not None and seat != me and move.card.rank != last.rank and not limpia:
                voids.setdefault(seat, set()).add(last.rank)
            last = None if move.base else move.card
        elif isinstance(event, ClaimMade) and last is not None and last in event.cards:
            last = None
    return voids


def sample_inferred(view: View, rng: random.Random, know: Knowledge, voids: dict[int, set[int]]) -> Game:
    """A world consistent with the view and with the ``voids`` inferred by :func:`passed_caidas`."""
    return sample_world(view, rng, know, voids)
