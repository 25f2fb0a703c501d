"""Cuarenta, a PettingZoo AEC environment: 2 or 4 seats, hidden hands, partners who cannot talk.

- Agents ``player_0`` … by seat (teams: even seats and odd seats). ``reset(seed=s)`` deals the mesa
  ``Game.new(rules, seed=s)``: the same seed, the same mesa, here and in the engine (but for a mesa
  over at the deal, four of a kind with ``chicas=1``: then ``redeal_seed(s, 1)`` …); an unseeded reset
  takes the next seed of a stream fixed by the last seed given.
- Each observation is ``{"observation": float32[396], "action_mask": int8[1056]}``: the observation is
  :func:`cuarenta.research.observation.encode` of the seat's own view (nothing it could not see); the
  mask has a 1 at each legal action id (:mod:`cuarenta.research.actions`) for the seat to move — never
  all zeros — and is all zeros for every other seat and for every seat once the mesa is over.
- Rewards per team, both partners alike: +1 / -1 when the mesa ends (``reward="win"``); with
  ``reward="points"`` also, after every step, (points my team scored in it − theirs) / target.
- Parameters: ``players`` (2 or 4), ``preset`` (default ``a_todo_rigor``), ``options`` (any rule
  option, :meth:`~cuarenta.Rules.replace`), ``target`` (points of a chica; a short one makes short
  mesas), ``reward``, ``render_mode`` (``"ansi"`` returns, ``"human"`` prints the view of the seat to
  move as :func:`~cuarenta.research.observation.observation_string`).

>>> e = env(players=2, target=10, options={"chicas": 1})
>>> e.reset(seed=7)
>>> observation, reward, terminated, truncated, info = e.last()
>>> mask = observation["action_mask"]
>>> observation["observation"].shape, mask.shape, int(mask.sum()) > 0
((396,), (1056,), True)
>>> e.step(int(mask.argmax()))
>>> e.agent_selection != "player_0" or e.agent_selection == "player_0"
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from cuarenta.game import Game
from cuarenta.research._arrays import (
    Turn,
    check_reward,
    game_seed,
    make_rules,
    mask_space,
    no_actions,
    observation_array,
    observation_space,
    points,
    redeal_seed,
    team_rewards,
)
from cuarenta.research.actions import NUM_ACTIONS
from cuarenta.research.observation import observation_string

Observation = dict[str, np.ndarray]

metadata: dict[str, Any] = {
    "render_modes": ["ansi", "human"],
    "name": "cuarenta_v0",
    "is_parallelizable": False,
    "render_fps": 4,
}


class raw_env(AECEnv[str, Observation, int]):  # type: ignore[misc]  # PettingZoo's name; untyped base
    """The unwrapped environment: an illegal action raises
    :class:`~cuarenta.research.actions.ActionIdError` (use :func:`env` for the classic wrappers)."""

    metadata = metadata

    def __init__(
        self,
        players: int = 2,
        preset: str | None = None,
        options: Mapping[str, Any] | None = None,
        target: int | None = None,
        reward: str = "win",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: choose one of ansi, human")
        self.rules = make_rules(players, preset, options, target)
        self.reward_kind = check_reward(reward)
        self.render_mode = render_mode
        n = self.rules.players
        self.possible_agents = [f"player_{seat}" for seat in range(n)]
        self.agent_name_mapping = {name: seat for seat, name in enumerate(self.possible_agents)}
        space = spaces.Dict({"observation": observation_space(), "action_mask": mask_space()})
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self._seeds = random.Random()
        self.game = Game.new(self.rules, seed=0)
        self._turn = Turn(self.game)
        self._points = (0, 0)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(f"cuarenta_v0/{int(seed)}")
        first = game_seed(seed, self._seeds)
        game, tries = Game.new(self.rules, seed=first), 0
        while game.is_over:  # over at the deal: nobody could move (redeal_seed)
            tries += 1
            game = Game.new(self.rules, seed=redeal_seed(first, tries))
        self.set_game(game)
        self._points = (0, 0)  # the first deal's rondas count in the first step's rewards

    def set_game(self, game: Game) -> None:
        """Go on from ``game``, any engine position under the environment's rules (analysis, tests):
        every agent back in play, the seat to move selected.

        >>> from cuarenta import Game
        >>> e = raw_env(target=10)
        >>> e.set_game(Game.new(e.rules, seed=4))
        >>> e.agent_selection == f"player_{e.game.turn}"
        True
        """
        if game.rules != self.rules:
            raise ValueError("the game's rules are not the environment's")
        self.game = game
        self._turn = Turn(game)
        self._points = points(game)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, game.is_over)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[0 if game.is_over else game.turn]

    def observe(self, agent: str) -> Observation:
        seat = self.agent_name_mapping[agent]
        game = self.game
        to_move = not game.is_over and game.turn == seat
        return {
            "observation": observation_array(game.view(seat)),
            "action_mask": self._turn.mask.copy() if to_move else no_actions(),
        }

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        move = self._turn.action(action, agent)
        self._cumulative_rewards[agent] = 0.0
        game.push(move)  # one of game.legal_moves() (the Turn's): no need to check it again
        if self.reward_kind == "points" or game.is_over:
            after = points(game) if self.reward_kind == "points" else self._points
            team = team_rewards(game, self.reward_kind, self._points, after)
            self._points = after
            self.rewards = {a: team[self.agent_name_mapping[a] % 2] for a in self.agents}
        else:  # "win": nothing until the end
            self.rewards = dict.fromkeys(self.agents, 0.0)
        self._turn = Turn(game)
        if game.is_over:
            self.terminations = dict.fromkeys(self.agents, True)
            nxt = (self.agent_name_mapping[agent] + 1) % self.rules.players
        else:
            nxt = game.turn
        self.agent_selection = self.possible_agents[nxt]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The view of the seat to move (of seat 0 once the mesa is over), as text."""
        if self.render_mode is None:
            return None
        seat = 0 if self.game.is_over else self.game.turn
        text = observation_string(self.game.view(seat))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def env(**kwargs: Any) -> AECEnv[str, Observation, int]:
    """The environment with PettingZoo's classic wrappers: an illegal action ends the mesa with -1 for
    the seat that took it and 0 for the others; an action out of range or a step out of order raises."""
    wrapped: AECEnv[str, Observation, int] = raw_env(**kwargs)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


__all__ = ["env", "metadata", "raw_env"]
