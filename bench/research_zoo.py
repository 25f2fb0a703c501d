"""The PettingZoo and Gymnasium environments' speed against the engine's own checked path.

The engine plays random mesas (``game.legal_moves()``, a uniform choice, ``game.play()``: every move
checked) and the chosen actions are kept as ids; the PettingZoo environment then plays the *same*
mesas (same seeds, same actions) through ``last()`` and ``step()``: observation and mask built for the
seat to move at every step, as an agent would read them. The Gymnasium environment plays one seat
with random legal ids (from ``info["action_mask"]``) against ``aleatorio``. Rates are per second of
this process's CPU time. Run from the repository root (needs the ``research`` extra)::

    PYTHONPATH=src python bench/research_zoo.py                 # 2 players, a_todo_rigor, 200 mesas
    PYTHONPATH=src python bench/research_zoo.py --players 4 --mesas 100

Figures are recorded in docs/research.md ("PettingZoo and Gymnasium"). A measurement, not a test.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from cuarenta import Game, Rules
from cuarenta.research.actions import legal_ids
from cuarenta.research.gymnasium import CuarentaEnv
from cuarenta.research.pettingzoo.cuarenta_v0 import raw_env


def engine_plies(rules: Rules, seeds: list[int], rng_seed: int) -> tuple[int, float, list[list[int]]]:
    """The engine's checked path: (plies, CPU seconds, each mesa's actions as ids)."""
    rng = random.Random(rng_seed)
    chosen: list[list[int]] = []
    plies = 0
    start = time.process_time()
    for seed in seeds:
        game = Game.new(rules, seed=seed)
        picks = []
        while game.outcome is None:
            moves = game.legal_moves()
            k = int(rng.random() * len(moves))
            picks.append(k)
            game.play(moves[k])
        plies += len(picks)
        chosen.append(picks)
    seconds = time.process_time() - start
    return plies, seconds, [_as_ids(rules, seed, picks) for seed, picks in zip(seeds, chosen, strict=True)]


def _as_ids(rules: Rules, seed: int, picks: list[int]) -> list[int]:
    """Replay one mesa's choices (indices in ``legal_moves()``) and give them as action ids."""
    game = Game.new(rules, seed=seed)
    ids = []
    for k in picks:
        move = game.legal_moves()[k]
        ids.append(legal_ids([move], game.claimable)[0])
        game.play(move)
    return ids


def pettingzoo_steps(rules: Rules, seeds: list[int], actions: list[list[int]]) -> tuple[int, float]:
    """The same mesas through the AEC environment (``last()``, then ``step()``): (steps, CPU seconds)."""
    env = raw_env(players=rules.players, preset=rules.preset_name)
    steps = 0
    start = time.process_time()
    for seed, ids in zip(seeds, actions, strict=True):
        env.reset(seed=seed)
        it = iter(ids)
        for _agent in env.agent_iter():
            observation, _reward, terminated, _truncated, _info = env.last()
            if terminated:
                env.step(None)
                continue
            action = next(it)
            if not observation["action_mask"][action]:
                raise AssertionError(f"mesa {seed}: the mask refuses the engine's action {action}")
            env.step(action)
            steps += 1
    return steps, time.process_time() - start


def gymnasium_steps(rules: Rules, seeds: list[int], rng_seed: int) -> tuple[int, int, float]:
    """One seat with random legal ids against ``aleatorio``: (agent steps, all plies, CPU seconds)."""
    env = CuarentaEnv(players=rules.players, preset=rules.preset_name, opponent="aleatorio")
    rng = np.random.default_rng(rng_seed)
    steps = plies = 0
    start = time.process_time()
    for seed in seeds:
        _observation, info = env.reset(seed=seed)
        terminated = False
        while not terminated:
            legal = np.flatnonzero(info["action_mask"])
            _observation, _reward, terminated, _truncated, info = env.step(int(rng.choice(legal)))
            steps += 1
        plies += len(env.game.actions)
    return steps, plies, time.process_time() - start


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=2, choices=(2, 4))
    parser.add_argument("--preset", default="a_todo_rigor")
    parser.add_argument("--mesas", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each; the fastest is kept")
    args = parser.parse_args(argv)
    rules = Rules.preset(args.preset, players=args.players)
    seeds = list(range(args.seed, args.seed + args.mesas))
    engine_s = zoo_s = gym_s = float("inf")
    for _ in range(args.repeat):  # the best of each: a busy machine only ever slows a run
        plies, seconds, actions = engine_plies(rules, seeds, args.seed)
        engine_s = min(engine_s, seconds)
        steps, seconds = pettingzoo_steps(rules, seeds, actions)
        assert steps == plies, (steps, plies)
        zoo_s = min(zoo_s, seconds)
        g_steps, g_plies, seconds = gymnasium_steps(rules, seeds, args.seed)
        gym_s = min(gym_s, seconds)
    print(
        f"rules: {args.preset}, {args.players} players; {args.mesas} mesas, seeds {seeds[0]}…{seeds[-1]};"
        f" best of {args.repeat}"
    )
    print(f"engine (legal_moves + play):  {plies:8d} plies {plies / engine_s:10.0f} plies/s")
    print(
        f"PettingZoo (last + step):     {steps:8d} steps {steps / zoo_s:10.0f} steps/s"
        f"  ({zoo_s / engine_s:.2f}× the engine's time)"
    )
    print(
        f"Gymnasium vs aleatorio:       {g_steps:8d} steps {g_steps / gym_s:10.0f} steps/s"
        f"  ({g_plies / gym_s:.0f} plies/s, the opponents' included)"
    )


if __name__ == "__main__":
    main()
