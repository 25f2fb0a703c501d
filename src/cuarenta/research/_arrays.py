"""What the PettingZoo and Gymnasium environments share: the rules from their parameters, the spaces,
the observation as a numpy array, the legal actions of the seat to move and the rewards.

Needs numpy and gymnasium (the ``research`` extra). The encoding itself is
:mod:`cuarenta.research.observation` and :mod:`cuarenta.research.actions`, unchanged.

>>> from cuarenta import Game
>>> rules = make_rules(players=2, target=20)
>>> game = Game.new(rules, seed=11)
>>> turn = Turn(game)
>>> turn.mask.dtype.name, int(turn.mask.sum()) == len(game.legal_moves())
('int8', True)
>>> observation_array(game.view(0)).shape
(396,)
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Final, Literal

import numpy as np
from gymnasium import spaces

from cuarenta.cards import NUM_RANKS
from cuarenta.game import Game
from cuarenta.moves import Action, Move
from cuarenta.research.actions import NUM_ACTIONS, ActionIdError, action_id, describe_id
from cuarenta.research.observation import DEALS, OBSERVATION_SIZE, PLANES, SEATS, encode  # noqa: F401 - encode: the examples
from cuarenta.rules import Rules
from cuarenta.view import SeatView

#: ``"win"``: +1 to each seat of the team that wins the mesa, -1 to the others, at the end only.
#: ``"points"``: the same, plus after every step (my team's points − theirs scored in it) / target.
RewardKind = Literal["win", "points"]
REWARDS: Final = ("win", "points")
#: The largest seed drawn for an unseeded reset (the engine takes any whole number).
_SEED_BITS: Final = 63


def make_rules(
    players: int = 2,
    preset: str | None = None,
    options: Mapping[str, Any] | None = None,
    target: int | None = None,
) -> Rules:
    """The rules of an environment: a preset (``a_todo_rigor`` by default) for ``players``, changed by
    ``options`` (:meth:`Rules.replace`) and ``target``. A ``target`` below the preset's R19 ronda limit
    (30) brings the limit down to the target, unless ``options`` names ``ronda_limit``.

    >>> make_rules(4, "todo_dos", {"chicas": 1}, target=20).to_dict()["chicas"]
    1
    """
    rules = Rules.preset(preset or "a_todo_rigor", players=players)
    changes = dict(options or {})
    if target is not None:
        changes["target"] = target
        limit = rules.ronda_limit
        if "ronda_limit" not in changes and limit is not None and limit > target:
            changes["ronda_limit"] = target
    return rules.replace(**changes) if changes else rules


def check_reward(reward: str) -> RewardKind:
    if reward not in REWARDS:
        raise ValueError(f"reward {reward!r}: choose one of {', '.join(REWARDS)}")
    return reward  # type: ignore[return-value]


def game_seed(seed: object, seeds: random.Random) -> int:
    """The engine's seed for a reset: ``seed`` itself when given (so ``Game.new(rules, seed)`` replays
    the same mesa), else the next number of the environment's own stream."""
    if seed is None:
        return seeds.getrandbits(_SEED_BITS)
    return int(seed)  # type: ignore[call-overload,no-any-return]


def redeal_seed(seed: int, tries: int) -> int:
    """The seed dealt in place of ``seed`` when its mesa is over before the agent could move (four of a
    kind dealt wins the chica, R17, and with ``chicas=1`` the mesa: about 1 seed in 1,000); ``tries``
    counts from 1.

    >>> redeal_seed(184, 1) == redeal_seed(184, 1) != redeal_seed(184, 2)
    True
    """
    return random.Random(f"cuarenta/redeal/{seed}/{tries}").getrandbits(_SEED_BITS)


def observation_space() -> spaces.Box:
    return spaces.Box(0.0, 1.0, (OBSERVATION_SIZE,), np.float32)


def mask_space() -> spaces.Box:
    return spaces.Box(0, 1, (NUM_ACTIONS,), np.int8)


#: Where each plane starts in the vector.
_AT: Final = {p.name: sum(q.size for q in PLANES[:i]) for i, p in enumerate(PLANES)}
_HAND, _TABLE, _DROP, _MINE, _THEIRS = (
    _AT[k] for k in ("hand", "table", "last_drop", "pile_mine", "pile_theirs")
)
_CLAIMABLE, _SIZES, _STOCK, _TURN, _DEALER = (
    _AT[k] for k in ("claimable", "hand_sizes", "stock", "turn", "dealer")
)
_RONDAS, _DEAL, _SCORES, _TO_TARGET = (_AT[k] for k in ("rondas", "deal", "scores", "to_target"))
_ONLY, _CHICAS, _RULES = (_AT[k] for k in ("only_caida", "chicas", "rules"))
_ZEROS: Final = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
#: The last rules seen and their rules plane's ones, as one tuple (read and replaced whole: thread-safe).
_rules_ones: list[tuple[Rules | None, list[int]]] = [(None, [])]


def _flags(rules: Rules) -> list[int]:
    seen, ones = _rules_ones[0]
    if seen is rules:
        return ones
    flags = (
        rules.players == 4,
        rules.capture == "manual",
        rules.sum_cards == "two",
        rules.caida_across_deals,
        rules.treinta_y_ocho,
        rules.four_of_a_kind == "wins_chica",
    )
    ones = [_RULES + i for i, f in enumerate(flags) if f]
    _rules_ones[0] = (rules, ones)
    return ones


def observation_array(view: SeatView) -> np.ndarray:
    """:func:`~cuarenta.research.observation.encode` as a float32 array, the same numbers written
    straight into the array (faster than ``np.asarray(encode(view))``; the tests compare both over
    thousands of positions of every preset and both table sizes).

    >>> from cuarenta import Game, Rules
    >>> view = Game.new(Rules.preset("todo_dos", players=4), seed=2).view(1)
    >>> bool((observation_array(view) == np.asarray(encode(view), dtype=np.float32)).all())
    True
    """
    n, me, rules = view.players, view.seat, view.rules
    mine = me % 2
    piles = view.piles
    ones = [_HAND + c for c in view.hand]
    ones += [_TABLE + c for c in view.table]
    if view.last_drop is not None:
        ones.append(_DROP + view.last_drop)
    ones += [_MINE + c for c in piles[mine]]
    ones += [_THEIRS + c for c in piles[1 - mine]]
    if view.claimable:
        ones += [_CLAIMABLE + c for option in view.claimable for c in option]
    sizes = view.hand_sizes  # 0–5 cards, 0–40 in the stock: inside their planes
    ones += [_SIZES + 6 * k + sizes[(me + k) % n] for k in range(n)]
    ones += [_SIZES + 6 * k for k in range(n, SEATS)]
    turn = view.turn
    ones += (
        _STOCK + view.stock_size,
        _TURN + (SEATS if turn is None else (turn - me) % n),
        _DEALER + (view.dealer - me) % n,
        _DEAL + min(view.deal_number, DEALS - 1),
    )
    if view.rondas:
        ones += [_RONDAS + ((seat - me) % n) * NUM_RANKS + rank for seat, rank in view.rondas]
    scores, chicas, target = view.scores, view.chicas, rules.target
    mine_s, theirs_s = scores[mine], scores[1 - mine]
    ones += (
        _TO_TARGET + min(max(target - mine_s, 0) // 2, 10),
        _TO_TARGET + 11 + min(max(target - theirs_s, 0) // 2, 10),
        _CHICAS + min(chicas[mine], 2),
        _CHICAS + 3 + min(chicas[1 - mine], 2),
    )
    only = rules.only_caida_from
    if only is not None:
        ones += [_ONLY + i for i, s in enumerate((mine_s, theirs_s)) if s >= only]
    ones += _flags(rules)
    out = _ZEROS.copy()
    out.put(ones, 1.0)
    out[_SCORES] = min(mine_s / target, 1.0)
    out[_SCORES + 1] = min(theirs_s / target, 1.0)
    return out


def no_actions() -> np.ndarray:
    """The mask of a seat that is not to move, or of a finished mesa: all zeros."""
    return np.zeros(NUM_ACTIONS, dtype=np.int8)


#: Moves met so far and their ids (a move's id never changes; a claim's depends on the offer).
_MOVE_IDS: dict[Action, int] = {}
_MOVE_IDS_KEPT: Final = 200_000


class Turn:
    """The legal actions of the seat to move, by id, and their mask (empty once the mesa is over)."""

    __slots__ = ("actions", "mask")

    def __init__(self, game: Game) -> None:
        self.actions: dict[int, Action] = {}
        if not game.is_over:
            claimable = game.claimable
            known = _MOVE_IDS
            for a in game.legal_moves():
                i = known.get(a) if type(a) is Move else None  # a claim's id is its place in the offer
                if i is None:
                    i = action_id(a, claimable)
                    if type(a) is Move and len(known) < _MOVE_IDS_KEPT:
                        known[a] = i
                self.actions[i] = a
        self.mask = no_actions()
        self.mask.put(list(self.actions), 1)

    def action(self, action: object, who: str) -> Action:
        """The engine's action for ``action`` (an id); an id that is not legal here raises
        :class:`~cuarenta.research.actions.ActionIdError` naming it and the legal ids."""
        try:
            return self.actions[int(action)]  # type: ignore[call-overload]
        except (KeyError, TypeError, ValueError):
            legal = ", ".join(f"{i} ({describe_id(i)})" for i in sorted(self.actions)[:8])
            more = " …" if len(self.actions) > 8 else ""
            raise ActionIdError(
                f"{who}: action {action!r} is not legal here; the legal ids are {legal}{more}"
            ) from None


def points(game: Game) -> tuple[int, int]:
    """Each team's points scored in the mesa so far, every chica's added up."""
    done = game.chica_results
    totals = [sum(r.scores[t] for r in done) for t in (0, 1)]
    if not game.is_over:  # a finished mesa keeps its last chica's scores, already counted
        totals = [totals[t] + game.score[t] for t in (0, 1)]
    return totals[0], totals[1]


def team_rewards(
    game: Game, kind: RewardKind, before: tuple[int, int], after: tuple[int, int]
) -> tuple[float, float]:
    """Each team's reward for one step (``before``/``after``: :func:`points` around it)."""
    rewards = [0.0, 0.0]
    if kind == "points":
        gained = (after[0] - before[0], after[1] - before[1])
        for t in (0, 1):
            rewards[t] = (gained[t] - gained[1 - t]) / game.rules.target
    outcome = game.outcome
    if outcome is not None:
        for t in (0, 1):
            rewards[t] += 1.0 if outcome.winner == t else -1.0
    return rewards[0], rewards[1]
