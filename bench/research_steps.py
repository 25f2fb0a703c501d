"""Steps per second through the research interfaces against the engine's own checked path.

Random play on the same games: each interface's games are recorded (deal and actions), then the
engine replays exactly those games through its checked path (``Game.legal_moves()`` before every
ply, then ``Game.play``). One function per interface; the ratio is the wrapper's overhead (the
issue's goal: within 3×). Run from the repository root::

    PYTHONPATH=src python bench/research_steps.py                  # 2 players, a_todo_rigor
    PYTHONPATH=src python bench/research_steps.py --players 4 --seconds 20

Figures are recorded in docs/research.md. This is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass, field

from cuarenta.cards import CARDS, Card
from cuarenta.moves import Action
from cuarenta.rules import Rules


@dataclass
class Played:
    """One recorded game: the decks of its hands (dealer first) and the engine actions."""

    dealer: int
    decks: list[list[Card]] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)


@dataclass
class Rate:
    steps: int  #: player decisions (plies)
    chance: int  #: chance outcomes applied (0 for the engine)
    seconds: float

    @property
    def per_second(self) -> float:
        return self.steps / self.seconds


def openspiel_steps(rules_params: dict[str, object], seconds: float, seed: int) -> tuple[Rate, list[Played]]:
    """OpenSpiel: ``legal_actions()`` and ``apply_action`` (and ``chance_outcomes`` at chance nodes)."""
    import pyspiel

    import cuarenta.research.openspiel  # noqa: F401 - registers python_cuarenta

    game = pyspiel.load_game("python_cuarenta", rules_params)
    rng = random.Random(seed)
    games: list[Played] = []
    steps = chance = 0
    spent = 0.0
    perf = time.perf_counter
    while spent < seconds:
        t0 = perf()
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
                chance += 1
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.random() * len(legal))])
                steps += 1
        spent += perf() - t0
        g = state.game
        hist = [pa.action for pa in state.full_history() if pa.player == pyspiel.PlayerId.CHANCE]
        played = Played(dealer=hist[0], actions=list(g.actions))
        cards = [CARDS[a] for a in hist[1:]]
        played.decks = [cards[i : i + 40] for i in range(0, len(cards), 40)]
        games.append(played)
    return Rate(steps, chance, spent), games


def engine_steps(rules: Rules, games: list[Played]) -> Rate:
    """The engine's checked path on the same games: ``legal_moves()`` then ``play`` for every ply."""
    from cuarenta.research.openspiel import DeckGame

    steps = 0
    spent = 0.0
    perf = time.perf_counter
    for played in games:
        t0 = perf()
        game = DeckGame(rules)
        game._new_hand(played.dealer)
        decks = iter(played.decks)
        for action in played.actions:
            while game.waiting_for_deck:
                for card in next(decks):
                    game.deal_card(card)
            game.legal_moves()
            game.play(action)
            steps += 1
        for deck in decks:  # a mesa can end at a deal (four of a kind, R17)
            for card in deck:
                game.deal_card(card)
        spent += perf() - t0
        assert game.is_over
    return Rate(steps, 0, spent)


# PettingZoo and Gymnasium: the other interfaces add their function here (same shape: a Rate and the
# games it played), and main() prints them beside OpenSpiel's.


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=2, choices=(2, 4))
    parser.add_argument("--target", type=int, default=0, help="0: the preset's")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=27)
    args = parser.parse_args()
    params = {"players": args.players, "target": args.target}
    spiel, games = openspiel_steps(params, args.seconds, args.seed)
    from cuarenta.research.openspiel import game_rules

    engine = engine_steps(game_rules(params), games)
    base = "a_todo_rigor" if args.players == 2 else "campeonato"
    print(
        f"{len(games)} random games, {args.players} players, {base}, "
        f"target {game_rules(params).target}, one chica"
    )
    print(
        f"openspiel: {spiel.per_second:,.0f} player steps/s ({spiel.steps} steps and {spiel.chance} chance "
        f"outcomes in {spiel.seconds:.1f} s)"
    )
    print(f"engine (checked play + legal_moves): {engine.per_second:,.0f} plies/s ({engine.seconds:.1f} s)")
    print(f"openspiel overhead: {engine.per_second / spiel.per_second:.2f}x")


if __name__ == "__main__":
    main()
