"""Cuarenta as a Gymnasium environment: one seat against the project's computer players.

Importing this module registers ``"cuarenta/Cuarenta-v0"`` (``gymnasium.make("cuarenta/Cuarenta-v0",
opponent="facil")``; ``gymnasium.make("cuarenta.research.gymnasium:cuarenta/Cuarenta-v0")`` imports
it on the way). Needs the ``research`` extra.

- The agent holds ``seat`` (0 by default); every other seat is a computer player
  (:func:`cuarenta.players.make_player`) of level ``opponent`` — in a 4-player mesa the partner is of
  level ``partner`` (``opponent``'s by default). Each is seeded from the mesa's seed and sees only its
  own :class:`~cuarenta.SeatView`; levels that see every card (``oracle``) are refused.
- ``reset(seed=s)`` deals ``Game.new(rules, seed=s)`` (the same mesa the engine replays) — unless that
  mesa is over before the agent could move (four of a kind dealt with ``chicas=1``, R17: about 1 seed
  in 1,000), when ``redeal_seed(s, 1)``, ``redeal_seed(s, 2)`` … are dealt instead; an unseeded reset
  draws the seed from the environment's ``np_random``.
- Observations: ``Box(0, 1, (396,), float32)``, :func:`cuarenta.research.observation.encode` of the
  agent's view. Actions: ``Discrete(1056)``, the ids of :mod:`cuarenta.research.actions`.
- The mask, in the two usual places: ``info["action_mask"]`` (int8, 1 for each legal id) after reset
  and every step, and :meth:`CuarentaEnv.action_masks` (bool), the method sb3-contrib's MaskablePPO
  calls. It is never all zeros while the episode runs; at its end it is all zeros.
- An illegal action: with ``illegal_action="lose"`` (the default, so that unmasked agents and
  Gymnasium's own ``check_env``, which steps with ``action_space.sample()``, can run) the episode ends
  at once with reward -1 and ``info["illegal_action"]`` set to the id; with ``"raise"`` it raises
  :class:`~cuarenta.research.actions.ActionIdError`.
- Rewards, to the agent's team: +1 / -1 when the mesa ends (``reward="win"``); with
  ``reward="points"`` also, after every step, (points my team scored in it − theirs) / target.
- ``players``, ``preset``, ``options``, ``target``, ``render_mode``: as in the PettingZoo
  environment (:mod:`cuarenta.research.pettingzoo.cuarenta_v0`).

>>> import gymnasium
>>> env = gymnasium.make("cuarenta/Cuarenta-v0", opponent="aleatorio", target=10)
>>> observation, info = env.reset(seed=5)
>>> observation.shape, info["action_mask"].shape, bool(env.unwrapped.action_masks().any())
((396,), (1056,), True)
>>> legal = int(info["action_mask"].argmax())
>>> observation, reward, terminated, truncated, info = env.step(legal)
>>> float(reward), truncated
(0.0, False)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Literal

import gymnasium
import numpy as np
from gymnasium import spaces

from cuarenta.game import Game
from cuarenta.players import Player, make_player
from cuarenta.research._arrays import (
    Turn,
    check_reward,
    make_rules,
    no_actions,
    observation_array,
    observation_space,
    points,
    redeal_seed,
    team_rewards,
)
from cuarenta.research.actions import NUM_ACTIONS
from cuarenta.research.observation import observation_string

#: The environment's id in Gymnasium's registry.
ENV_ID: Final = "cuarenta/Cuarenta-v0"
ILLEGAL_ACTIONS: Final = ("lose", "raise")
_SEED_HIGH: Final = 2**63 - 1


class CuarentaEnv(gymnasium.Env[np.ndarray, np.int64]):
    """One seat of a mesa against computer players; see the module's documentation."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 4}  # noqa: RUF012 - Gymnasium's name

    def __init__(  # noqa: PLR0913 - the environment's documented parameters
        self,
        players: int = 2,
        preset: str | None = None,
        options: Mapping[str, Any] | None = None,
        target: int | None = None,
        opponent: str = "facil",
        partner: str | None = None,
        seat: int = 0,
        reward: str = "win",
        illegal_action: Literal["lose", "raise"] = "lose",
        render_mode: str | None = None,
    ) -> None:
        self.rules = make_rules(players, preset, options, target)
        if not isinstance(seat, int) or not 0 <= seat < self.rules.players:
            raise ValueError(f"seat {seat!r} is not a seat (0..{self.rules.players - 1})")
        if illegal_action not in ILLEGAL_ACTIONS:
            raise ValueError(f"illegal_action {illegal_action!r}: choose one of lose, raise")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: choose one of ansi, human")
        self.seat = seat
        self.levels = {s: self._level(s, opponent, partner) for s in range(self.rules.players) if s != seat}
        self.reward_kind = check_reward(reward)
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.observation_space = observation_space()
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.game = Game.new(self.rules, seed=0)
        self._bots: dict[int, Player] = {}
        self._turn = Turn(self.game)
        self._points = (0, 0)
        self._done = False

    def _level(self, seat: int, opponent: str, partner: str | None) -> str:
        level = partner if partner is not None and seat % 2 == self.seat % 2 else opponent
        if make_player(level).sees_all:
            raise ValueError(f"level {level!r} sees every card: choose a level that plays from its own view")
        return level

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        first = int(seed) if seed is not None else int(self.np_random.integers(_SEED_HIGH))
        found = self._start(Game.new(self.rules, seed=first), (0, 0))  # the first deal's rondas count
        tries = 0
        while self._done:  # over before the agent could move: another mesa (redeal_seed)
            tries += 1
            found = self._start(Game.new(self.rules, seed=redeal_seed(first, tries)), (0, 0))
        return found

    def set_game(self, game: Game) -> tuple[np.ndarray, dict[str, Any]]:
        """Go on from ``game``, any engine position under the environment's rules (analysis, tests),
        with new computer players seeded from its seed; they move first if it is not the agent's
        turn. Returns what :meth:`reset` returns.

        >>> env = CuarentaEnv(target=10)
        >>> observation, info = env.set_game(Game.new(env.rules, seed=9))
        >>> env.game.turn == env.seat and bool(info["action_mask"].any())
        True
        """
        if game.rules != self.rules:
            raise ValueError("the game's rules are not the environment's")
        return self._start(game, points(game))

    def _start(self, game: Game, baseline: tuple[int, int]) -> tuple[np.ndarray, dict[str, Any]]:
        self.game = game
        self._bots = {}
        for s, level in self.levels.items():
            bot = make_player(level, seed=f"{game.seed}/{s}")
            bot.start(s, self.rules)
            self._bots[s] = bot
        self._points = baseline
        self._advance()
        self._done = game.is_over
        if self.render_mode == "human":
            self.render()
        return observation_array(game.view(self.seat)), {"action_mask": self._turn.mask.copy()}

    def _advance(self) -> None:
        """The computer players move until it is the agent's turn or the mesa is over."""
        game = self.game
        while not game.is_over and game.turn != self.seat:
            seat = game.turn
            game.play(self._bots[seat].choose(game.view(seat), game.legal_moves()))
        self._turn = Turn(game)

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self._done:
            raise RuntimeError("the mesa is over: call reset() first")
        game = self.game
        if self.illegal_action == "lose" and not self._is_legal(action):
            self._done = True
            self._turn.actions, self._turn.mask = {}, no_actions()
            observation = observation_array(game.view(self.seat))
            return observation, -1.0, True, False, {"action_mask": no_actions(), "illegal_action": action}
        game.push(self._turn.action(action, f"seat {self.seat}"))  # one of the Turn's legal moves
        self._advance()
        after = points(game) if self.reward_kind == "points" else self._points
        reward = team_rewards(game, self.reward_kind, self._points, after)[self.seat % 2]
        self._points = after
        self._done = game.is_over
        if self.render_mode == "human":
            self.render()
        info = {"action_mask": self._turn.mask.copy()}
        return observation_array(game.view(self.seat)), reward, self._done, False, info

    def _is_legal(self, action: Any) -> bool:
        try:
            return int(action) in self._turn.actions
        except (TypeError, ValueError):
            return False

    def action_masks(self) -> np.ndarray:
        """The legal ids as booleans (sb3-contrib's ``MaskablePPO`` calls this)."""
        return self._turn.mask.astype(bool)

    def render(self) -> str | None:
        """The agent's view as text (``"ansi"`` returns it, ``"human"`` prints it)."""
        if self.render_mode is None:
            return None
        text = observation_string(self.game.view(self.seat))
        if self.render_mode == "human":
            print(text)
            return None
        return text


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="cuarenta.research.gymnasium:CuarentaEnv")

__all__ = ["ENV_ID", "ILLEGAL_ACTIONS", "CuarentaEnv"]
