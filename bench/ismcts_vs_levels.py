"""OpenSpiel's IS-MCTS (with cuarenta's resampler) against the project's computer players.

Plays whole games of ``python_cuarenta`` (one chica, as the arena plays): IS-MCTS holds one team's
seats, a level (aleatorio, facil, normal, dificil, experto) the other's; the teams change seats every game.
The levels play through the engine's own player API on the OpenSpiel state's game (``act``), their
action turned into its id. Prints IS-MCTS's win rate with a 95% Wilson interval per level. Run from
the repository root::

    PYTHONPATH=src python bench/ismcts_vs_levels.py --games 20 --simulations 50
    PYTHONPATH=src python bench/ismcts_vs_levels.py --levels dificil --games 6 --players 4

Figures are recorded in docs/research.md ("## OpenSpiel"). This is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from cuarenta.players import act, make_player
from cuarenta.players.arena import wilson_interval
from cuarenta.research.actions import action_id
from cuarenta.research.openspiel import make_resampler

LEVELS = ("aleatorio", "facil", "normal", "dificil", "experto")


def play_game(
    game: pyspiel.Game, level: str, ismcts_team: int, seed: int, simulations: int
) -> tuple[bool, int]:
    """One game: (whether IS-MCTS's team won, IS-MCTS decisions)."""
    rng = random.Random(seed)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, simulations, random_state=np.random.RandomState(seed + 1))
    bot.set_resampler(make_resampler(seed + 2))
    n = game.num_players()
    rules = game.rules
    players = {}
    for seat in range(n):
        if seat % 2 != ismcts_team:
            players[seat] = make_player(level, f"{seed}/{seat}")
            players[seat].start(seat, rules)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            continue
        seat = state.current_player()
        if seat in players:
            g = state.game
            action = act(players[seat], g.copy())
            state.apply_action(action_id(action, g.claimable))
        else:
            state.apply_action(bot.step(state))
            decisions += 1
    return state.returns()[ismcts_team] > 0, decisions


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--levels", nargs="+", default=list(LEVELS), choices=LEVELS)
    parser.add_argument("--games", type=int, default=20, help="games per level")
    parser.add_argument("--simulations", type=int, default=50, help="IS-MCTS simulations per decision")
    parser.add_argument("--players", type=int, default=2, choices=(2, 4))
    parser.add_argument("--target", type=int, default=0, help="0: the preset's (40)")
    parser.add_argument("--seed", type=int, default=27)
    args = parser.parse_args()
    game = pyspiel.load_game("python_cuarenta", {"players": args.players, "target": args.target})
    print(
        f"IS-MCTS (uct_c 2, {args.simulations} simulations, 1 random rollout, cuarenta resampler) vs level; "
        f"{args.players} players, target {game.rules.target}, one chica per game"
    )
    for level in args.levels:
        wins = 0
        decisions = 0
        t0 = time.perf_counter()
        for i in range(args.games):
            won, d = play_game(game, level, i % 2, args.seed * 1000 + i, args.simulations)
            wins += won
            decisions += d
        elapsed = time.perf_counter() - t0
        low, high = wilson_interval(wins, args.games)
        print(
            f"{level:10s} IS-MCTS won {wins}/{args.games} = {wins / args.games:.0%} "
            f"(95% {low:.0%}–{high:.0%}); {elapsed:.0f} s, {1000 * elapsed / max(decisions, 1):.0f} ms per "
            "IS-MCTS decision",
            flush=True,
        )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
