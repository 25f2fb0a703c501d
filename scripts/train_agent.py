"""Train a small agent in the Gymnasium environment, then measure its win rate against the computer players.

The agent is sb3-contrib's ``MaskablePPO`` (an MLP policy that only ever picks a legal id: it reads the
environment's ``action_masks()``), trained on CPU for a few minutes against ``--opponent`` with
the points-shaped reward (``reward="points"``). Each episode is one chica (``chicas=1``). Then it plays
``--chicas`` seeded chicas, seeds 10**6 and up (none was trained on), against each level of
``--against`` and prints the win rate with its 95% (Wilson) interval, beside a random legal agent's
on the same chicas. torch and sb3-contrib are not dependencies of the project: install them by hand
(torch's CPU wheel first, so that pip does not bring a CUDA build)::

    pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu   # or a local CPU wheel
    pip install sb3-contrib
    PYTHONPATH=src python scripts/train_agent.py --timesteps 200000 --chicas 1000

``--load model.zip`` measures a model saved by ``--save``. ``--timesteps 0`` skips training (and
torch): only the random agent is measured, a quick check of the wiring. docs/research.md "PettingZoo and
Gymnasium" records a run's figures.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from cuarenta.research.gymnasium import CuarentaEnv

#: A policy: (observation, mask of legal ids) -> the id to play.
Policy = Callable[[np.ndarray, np.ndarray], int]
#: The first evaluation seed: far from the training's seeds (drawn from the environment's stream).
EVAL_SEED = 10**6


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a win rate.

    >>> [round(x, 3) for x in wilson(50, 100)]
    [0.404, 0.596]
    """
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def make_env(opponent: str, players: int = 2, reward: str = "win", target: int | None = None) -> CuarentaEnv:
    """The training and evaluation environment: one chica per episode."""
    return CuarentaEnv(
        players=players, options={"chicas": 1}, target=target, opponent=opponent, reward=reward
    )


def random_policy(seed: int) -> Policy:
    rng = np.random.default_rng(seed)
    return lambda _observation, mask: int(rng.choice(np.flatnonzero(mask)))


def win_rate(policy: Policy, env: CuarentaEnv, chicas: int, first_seed: int = EVAL_SEED) -> tuple[int, int]:
    """(chicas won, chicas played) by ``policy`` at the environment's seat, on seeds ``first_seed`` …"""
    wins = 0
    for seed in range(first_seed, first_seed + chicas):
        observation, info = env.reset(seed=seed)
        terminated = False
        while not terminated:
            action = policy(observation, info["action_mask"])
            observation, _reward, terminated, _truncated, info = env.step(action)
        outcome = env.game.outcome
        wins += outcome is not None and outcome.winner == env.seat % 2
    return wins, chicas


def train(args: argparse.Namespace) -> Policy:
    """MaskablePPO, trained for ``args.timesteps`` steps; its deterministic policy."""
    import torch  # only a run that trains needs torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(args.threads)
    env = make_env(args.opponent, args.players, reward="points", target=args.target)
    model = MaskablePPO(
        "MlpPolicy",
        env,
        learning_rate=3e-4,
        n_steps=2048,
        batch_size=256,
        gamma=0.995,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [256, 256]},
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    start, cpu = time.perf_counter(), time.process_time()
    model.learn(total_timesteps=args.timesteps)
    print(
        f"trained {args.timesteps} steps against {args.opponent} in {time.perf_counter() - start:.0f} s"
        f" ({time.process_time() - cpu:.0f} s of CPU)"
    )
    if args.save:
        model.save(args.save)

    return as_policy(model)


def load(path: str) -> Policy:
    """A model saved by ``--save``."""
    from sb3_contrib import MaskablePPO  # only a run that measures a model needs torch

    return as_policy(MaskablePPO.load(path, device="cpu"))


def as_policy(model: Any) -> Policy:
    """The model's deterministic choice among the legal ids."""

    def policy(observation: np.ndarray, mask: np.ndarray) -> int:
        action, _state = model.predict(observation, action_masks=mask.astype(bool), deterministic=True)
        return int(action)

    return policy


def report(name: str, opponent: str, result: tuple[int, int]) -> str:
    wins, n = result
    low, high = wilson(wins, n)
    return f"{name:>12} vs {opponent:<10} {wins:5d}/{n:<5d} = {wins / n:6.1%}  95% [{low:.1%}, {high:.1%}]"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--timesteps", type=int, default=200_000, help="training steps (0: no training)")
    parser.add_argument("--opponent", default="facil", help="the level trained against")
    parser.add_argument("--against", default="facil,aleatorio", help="levels to measure against")
    parser.add_argument("--chicas", type=int, default=1000, help="seeded chicas per measurement")
    parser.add_argument("--players", type=int, default=2, choices=(2, 4))
    parser.add_argument(
        "--target", type=int, default=None, help="points of a chica (default: the preset's 40)"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1, help="torch's CPU threads")
    parser.add_argument("--save", default="", help="where to save the trained model (.zip)")
    parser.add_argument("--load", default="", help="measure a saved model instead of training one")
    args = parser.parse_args(argv)
    agents: dict[str, Any] = {}
    if args.load:
        agents["MaskablePPO"] = load(args.load)
    elif args.timesteps > 0:
        agents["MaskablePPO"] = train(args)
    agents["random legal"] = None
    for opponent in args.against.split(","):
        env = make_env(opponent, args.players, target=args.target)
        for name, policy in agents.items():
            start = time.perf_counter()
            result = win_rate(policy or random_policy(args.seed), env, args.chicas)
            print(report(name, opponent, result), f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
