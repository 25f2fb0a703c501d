"""The PettingZoo environment (cuarenta.research.pettingzoo): PettingZoo's own checks, seeding, the mask,
rewards per team, illegal actions, rendering, and no leak of a hidden card through the observation or
the mask."""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

import pettingzoo
from pettingzoo.test import api_test, seed_test

from cuarenta import Game, Rules
from cuarenta.research._arrays import redeal_seed
from cuarenta.research.actions import ActionIdError, action_mask, legal_ids
from cuarenta.research.observation import encode, observation_string
from cuarenta.research.pettingzoo import ENV_ID, cuarenta_v0
from support.research import RULE_SETS, hidden_cards, redeal_hidden

#: PettingZoo's api_test says these of every classic environment with a dict observation and a mask
#: (connect_four's too); any other warning is a fault.
EXPECTED_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be",
    "Action mask numpy array is all zeros",
)
SHORT: dict[str, Any] = {"target": 10, "options": {"chicas": 1}}


def options_of(rules: Rules) -> dict[str, Any]:
    """The environment's parameters that give ``rules``."""
    options = rules.to_dict()
    options.pop("preset")
    return {"players": options.pop("players"), "options": options}


def random_agent(env: cuarenta_v0.raw_env, rng: random.Random) -> int | None:
    observation, _reward, terminated, truncated, _info = env.last()
    if terminated or truncated:
        return None
    return rng.choice(np.flatnonzero(observation["action_mask"]).tolist())


@pytest.mark.parametrize("players", [2, 4])
def test_pettingzoos_api_test_passes(players: int) -> None:
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        api_test(cuarenta_v0.env(players=players, **SHORT), num_cycles=1000)
    unexpected = {str(w.message) for w in seen if not str(w.message).startswith(EXPECTED_WARNINGS)}
    assert not unexpected


def test_pettingzoos_seed_test_passes() -> None:
    seed_test(lambda: cuarenta_v0.env(target=10), num_cycles=1000)
    seed_test(lambda: cuarenta_v0.env(players=4, target=10), num_cycles=1000)


def test_registered_and_laid_out_like_pettingzoos_classic_environments() -> None:
    assert ENV_ID == "cuarenta/cuarenta-v0"
    env = pettingzoo.make("aec", ENV_ID, players=4, target=20)
    assert isinstance(env.unwrapped, cuarenta_v0.raw_env)
    assert env.unwrapped.rules.players == 4 and env.unwrapped.rules.target == 20
    assert pettingzoo.make("aec", "cuarenta/cuarenta_v0").unwrapped.rules.players == 2
    assert cuarenta_v0.metadata["name"] == "cuarenta_v0" and set(cuarenta_v0.__all__) >= {"env", "raw_env"}
    env.reset(seed=1)
    assert env.possible_agents == ["player_0", "player_1", "player_2", "player_3"]


def test_parameters_make_the_rules() -> None:
    env = cuarenta_v0.raw_env(players=4, preset="todo_dos", options={"chicas": 3}, target=30)
    assert env.rules == Rules.preset("todo_dos", players=4).replace(chicas=3, target=30)
    short = cuarenta_v0.raw_env(target=10)  # the ronda limit (R19) comes down with the target
    assert short.rules.ronda_limit == 10
    with pytest.raises(ValueError, match="reward"):
        cuarenta_v0.raw_env(reward="elo")


def test_reset_with_a_seed_deals_the_engines_mesa_and_unseeded_resets_follow_it() -> None:
    env = cuarenta_v0.raw_env(players=4)
    env.reset(seed=12345)
    game = Game.new(env.rules, seed=12345)
    assert [env.game.hand(s) for s in range(4)] == [game.hand(s) for s in range(4)]
    assert env.agent_selection == f"player_{game.turn}"
    env.reset()
    after = [env.game.hand(s) for s in range(4)]
    env.reset(seed=12345)
    env.reset()
    assert [env.game.hand(s) for s in range(4)] == after
    assert after != [game.hand(s) for s in range(4)]


def test_a_mesa_over_at_the_deal_is_dealt_anew() -> None:
    rules = Rules().replace(chicas=1)
    assert Game.new(rules, seed=184).is_over  # four of a kind dealt (R17)
    env = cuarenta_v0.raw_env(options={"chicas": 1})
    env.reset(seed=184)
    assert not env.game.is_over and not any(env.terminations.values())
    assert env.game.seed == redeal_seed(184, 1)


def play_checking_masks(rules: Rules, seed: int) -> int:
    """One random mesa through the environment, every mask checked; the number of steps."""
    env = cuarenta_v0.raw_env(**options_of(rules))
    env.reset(seed=seed)
    rng = random.Random(seed)
    steps = 0
    for agent in env.agent_iter():
        game = env.game
        for other in env.agents:
            mask = env.observe(other)["action_mask"]
            assert mask.dtype == np.int8 and mask.shape == (1056,)
            if other == agent and not game.is_over:
                legal = action_mask(legal_ids(game.legal_moves(), game.claimable))
                assert mask.any() and mask.tolist() == legal
            else:
                assert not mask.any()
        env.step(random_agent(env, rng))
        steps += 1
    return steps


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: f"{r.preset_name}-{r.players}-{r.capture}")
def test_the_mask_is_the_legal_actions_of_the_seat_to_move_and_never_empty(rules: Rules) -> None:
    short = rules.replace(target=12, ronda_limit=None, chicas=1)
    assert sum(play_checking_masks(short, seed) for seed in range(4)) > 100


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: f"{r.preset_name}-{r.players}-{r.capture}")
def test_the_mask_over_whole_mesas(rules: Rules) -> None:
    for seed in range(100, 106):
        play_checking_masks(rules, seed)


def finish(env: cuarenta_v0.raw_env, seed: int) -> dict[str, float]:
    """Play a random mesa to its end; each agent's rewards added up."""
    env.reset(seed=seed)
    rng = random.Random(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        _observation, reward, _terminated, _truncated, _info = env.last()
        totals[agent] += reward
        env.step(random_agent(env, rng))
    return totals


def test_rewards_are_per_team_at_the_end() -> None:
    env = cuarenta_v0.raw_env(players=4, **SHORT)
    for seed in range(3):
        totals = finish(env, seed)
        outcome = env.game.outcome
        assert outcome is not None
        for agent, total in totals.items():
            seat = int(agent.split("_")[1])
            assert total == (1.0 if seat % 2 == outcome.winner else -1.0)


def test_points_rewards_add_up_to_the_points_difference() -> None:
    env = cuarenta_v0.raw_env(players=2, target=10, options={"chicas": 2}, reward="points")
    totals = finish(env, 5)  # seed 5 deals a ronda: points before the first step count too
    outcome = env.game.outcome
    assert outcome is not None
    mine = [sum(r.scores[t] for r in env.game.chica_results) for t in (0, 1)]
    for seat, agent in enumerate(env.possible_agents):
        t = seat % 2
        expected = (mine[t] - mine[1 - t]) / 10 + (1.0 if outcome.winner == t else -1.0)
        assert totals[agent] == pytest.approx(expected)


def test_an_illegal_action_raises_unwrapped_and_loses_wrapped() -> None:
    raw = cuarenta_v0.raw_env(**SHORT)
    raw.reset(seed=3)
    mask = raw.observe(raw.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ActionIdError, match=rf"action {illegal} is not legal here; the legal ids are"):
        raw.step(illegal)
    wrapped = cuarenta_v0.env(**SHORT)
    wrapped.reset(seed=3)
    mover = wrapped.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo's own "illegal move made" warning
        wrapped.step(illegal)
    assert all(wrapped.terminations.values())
    assert wrapped.rewards[mover] == -1.0 and sum(wrapped.rewards.values()) == -1.0


def test_render_shows_the_view_of_the_seat_to_move(capsys: pytest.CaptureFixture[str]) -> None:
    env = cuarenta_v0.raw_env(render_mode="ansi")
    env.reset(seed=2)
    assert env.render() == observation_string(env.game.view(env.game.turn))
    human = cuarenta_v0.raw_env(render_mode="human")
    human.reset(seed=2)
    assert human.render() is None
    assert capsys.readouterr().out.strip() == observation_string(human.game.view(human.game.turn))
    assert cuarenta_v0.raw_env().render() is None


def check_no_leak(rules: Rules, seeds: range, every: int = 3) -> tuple[int, int]:
    """Random mesas; at every ``every``-th step, for each seat: its observation is ``encode`` of its view,
    and dealing the cards it cannot see anew changes neither its observation nor its mask. Returns
    (checks, checks where another seat's observation changed: the redeal had something to hide)."""
    env = cuarenta_v0.raw_env(**options_of(rules))
    probe = cuarenta_v0.raw_env(**options_of(rules))
    checks = changed = 0
    for seed in seeds:
        env.reset(seed=seed)
        rng = random.Random(seed)
        for step, _agent in enumerate(env.agent_iter()):
            game = env.game
            if step % every == 0 and not game.is_over and not game.claimable:
                for seat, name in enumerate(env.possible_agents):
                    seen = env.observe(name)
                    assert (
                        seen["observation"].tolist()
                        == np.asarray(encode(game.view(seat)), dtype=np.float32).tolist()
                    )
                    other = redeal_hidden(game, seat, rng)
                    assert hidden_cards(other, seat) != hidden_cards(game, seat) or not game.stock
                    probe.set_game(other)
                    again = probe.observe(name)
                    assert np.array_equal(again["observation"], seen["observation"])
                    assert np.array_equal(again["action_mask"], seen["action_mask"])
                    checks += 1
                    others = [n for n in env.possible_agents if n != name]
                    changed += any(
                        not np.array_equal(probe.observe(n)["observation"], env.observe(n)["observation"])
                        for n in others
                    )
            env.step(random_agent(env, rng))
    return checks, changed


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: f"{r.preset_name}-{r.players}-{r.capture}")
def test_no_hidden_card_reaches_an_observation_or_a_mask(rules: Rules) -> None:
    checks, changed = check_no_leak(rules.replace(target=12, ronda_limit=None, chicas=1), range(2))
    assert checks > 20
    assert changed > checks // 2  # the test has power: what was hidden did change, others saw it


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: f"{r.preset_name}-{r.players}-{r.capture}")
def test_no_leak_over_whole_mesas(rules: Rules) -> None:
    checks, changed = check_no_leak(rules, range(200, 202), every=2)
    assert checks > 200 and changed > checks // 2
