"""The Gymnasium environment (cuarenta.research.gymnasium): Gymnasium's own check_env, registration,
seeding, the mask in both places, the computer players, rewards, illegal actions, no leak of a hidden
card, and the training script's wiring (without torch)."""

from __future__ import annotations

import importlib.util
import random
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")

import gymnasium
from gymnasium.utils.env_checker import check_env

from cuarenta import Game, Rules
from cuarenta.research.actions import ActionIdError, action_mask, legal_ids
from cuarenta.research.gymnasium import ENV_ID, CuarentaEnv
from cuarenta.research.observation import encode, observation_string
from support.research import RULE_SETS, hidden_cards, redeal_hidden

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "train_agent.py"


def options_of(rules: Rules) -> dict[str, Any]:
    options = rules.to_dict()
    options.pop("preset")
    return {"players": options.pop("players"), "options": options}


@pytest.mark.parametrize("players", [2, 4])
def test_gymnasiums_check_env_passes(players: int) -> None:
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        check_env(gymnasium.make(ENV_ID, players=players, target=10, render_mode="ansi").unwrapped)
        check_env(CuarentaEnv(players=players, target=10, opponent="aleatorio"))
    assert [str(w.message) for w in seen if "alternative render modes" not in str(w.message)] == []


def test_registered_under_its_id() -> None:
    env = gymnasium.make("cuarenta/Cuarenta-v0", players=4, opponent="normal", partner="aleatorio")
    inner = env.unwrapped
    assert isinstance(inner, CuarentaEnv)
    assert inner.levels == {1: "normal", 2: "aleatorio", 3: "normal"}
    assert gymnasium.make("cuarenta.research.gymnasium:cuarenta/Cuarenta-v0").spec.id == ENV_ID  # type: ignore[union-attr]


def test_refuses_what_it_cannot_do() -> None:
    with pytest.raises(ValueError, match="sees every card"):
        CuarentaEnv(opponent="oracle")
    with pytest.raises(ValueError, match="not a seat"):
        CuarentaEnv(seat=2)
    with pytest.raises(ValueError, match="illegal_action"):
        CuarentaEnv(illegal_action="ignore")  # type: ignore[arg-type]


def test_reset_with_a_seed_deals_the_engines_mesa() -> None:
    env = CuarentaEnv(seat=1)
    first, _info = env.reset(seed=77)
    game = Game.new(env.rules, seed=77)
    assert env.game.actions[: len(env.game.actions)] == env.game.actions
    replay = Game.new(env.rules, seed=77)
    for action in env.game.actions:  # the computer players' moves so far, then the agent's turn
        replay.play(action)
    assert replay.hand(1) == env.game.hand(1) and game.hand(0)[:0] == []
    assert env.game.turn == 1
    again, _info = env.reset(seed=77)
    assert np.array_equal(first, again)
    env.reset()
    env.reset()  # unseeded resets go on from np_random: new mesas
    assert env.game.seed != 77


def test_a_mesa_over_before_the_agent_moves_is_dealt_anew() -> None:
    env = CuarentaEnv(options={"chicas": 1})
    assert Game.new(env.rules, seed=184).is_over  # four of a kind dealt (R17)
    _observation, info = env.reset(seed=184)
    assert not env.game.is_over and info["action_mask"].any() and env.action_masks().any()


def play(env: CuarentaEnv, seed: int, check: bool = True) -> tuple[float, int]:
    """A random legal agent through a mesa: (its rewards added up, its steps); every observation and
    mask checked against the engine."""
    observation, info = env.reset(seed=seed)
    rng = random.Random(seed)
    total, steps, terminated = 0.0, 0, False
    while not terminated:
        game = env.game
        if check:
            assert game.turn == env.seat
            assert observation.tolist() == np.asarray(encode(game.view(env.seat)), dtype=np.float32).tolist()
            legal = action_mask(legal_ids(game.legal_moves(), game.claimable))
            assert info["action_mask"].tolist() == legal and any(legal)
            assert env.action_masks().tolist() == [bool(x) for x in legal]
        action = rng.choice(np.flatnonzero(info["action_mask"]).tolist())
        observation, reward, terminated, truncated, info = env.step(action)
        assert not truncated
        total += reward
        steps += 1
    assert not info["action_mask"].any() and env.game.is_over
    return total, steps


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: f"{r.preset_name}-{r.players}-{r.capture}")
def test_observation_and_mask_match_the_engine_at_every_step(rules: Rules) -> None:
    env = CuarentaEnv(
        **options_of(rules.replace(target=12, ronda_limit=None, chicas=1)), opponent="aleatorio"
    )
    assert sum(play(env, seed)[1] for seed in range(3)) > 20


def test_rewards_win_and_points() -> None:
    env = CuarentaEnv(target=10, seat=1, opponent="aleatorio")
    for seed in range(3):
        total, _steps = play(env, seed, check=False)
        outcome = env.game.outcome
        assert outcome is not None and total == (1.0 if outcome.winner == 1 else -1.0)
    shaped = CuarentaEnv(target=10, reward="points", opponent="aleatorio")
    total, _steps = play(shaped, 5, check=False)
    outcome = shaped.game.outcome
    assert outcome is not None
    points = [sum(r.scores[t] for r in shaped.game.chica_results) for t in (0, 1)]
    assert total == pytest.approx((points[0] - points[1]) / 10 + (1.0 if outcome.winner == 0 else -1.0))


def test_the_computer_players_are_seeded_from_the_mesa() -> None:
    a, b = CuarentaEnv(opponent="normal"), CuarentaEnv(opponent="normal")
    for env in (a, b):
        play(env, 31, check=False)
    assert a.game.actions == b.game.actions


def test_an_illegal_action_loses_or_raises() -> None:
    env = CuarentaEnv()
    _observation, info = env.reset(seed=4)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _observation, reward, terminated, _truncated, info = env.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, illegal)
    assert not env.action_masks().any() and not info["action_mask"].any()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(illegal)
    strict = CuarentaEnv(illegal_action="raise")
    strict.reset(seed=4)
    with pytest.raises(ActionIdError, match="not legal here"):
        strict.step(illegal)


def test_render(capsys: pytest.CaptureFixture[str]) -> None:
    env = CuarentaEnv(render_mode="ansi")
    env.reset(seed=1)
    assert env.render() == observation_string(env.game.view(0))
    human = CuarentaEnv(render_mode="human")
    human.reset(seed=1)
    assert capsys.readouterr().out.strip() == observation_string(human.game.view(0))


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: f"{r.preset_name}-{r.players}-{r.capture}")
def test_no_hidden_card_reaches_the_agents_observation_or_mask(rules: Rules) -> None:
    """At the agent's turns: dealing the cards it cannot see anew (other hands, stock; same sizes, rondas
    kept) leaves its observation and mask unchanged, though the hidden cards did change."""
    short = rules.replace(target=12, ronda_limit=None, chicas=1)
    env = CuarentaEnv(**options_of(short), opponent="aleatorio")
    probe = CuarentaEnv(**options_of(short), opponent="aleatorio")
    checks = changed = 0
    for seed in range(3):
        observation, info = env.reset(seed=seed)
        rng = random.Random(seed)
        terminated = False
        while not terminated:
            game = env.game
            if not game.claimable:
                other = redeal_hidden(game, env.seat, rng)
                changed += hidden_cards(other, env.seat) != hidden_cards(game, env.seat)
                again, again_info = probe.set_game(other)
                assert np.array_equal(again, observation)
                assert np.array_equal(again_info["action_mask"], info["action_mask"])
                assert np.array_equal(probe.action_masks(), env.action_masks())
                checks += 1
            action = rng.choice(np.flatnonzero(info["action_mask"]).tolist())
            observation, _reward, terminated, _truncated, info = env.step(action)
    assert checks > 15 and changed > checks // 2


def load_script() -> object:
    spec = importlib.util.spec_from_file_location("train_agent", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_training_scripts_measurement_runs_without_torch(capsys: pytest.CaptureFixture[str]) -> None:
    script = load_script()
    script.main(["--timesteps", "0", "--chicas", "4", "--target", "10"])  # type: ignore[attr-defined]
    out = capsys.readouterr().out
    assert "random legal vs facil" in out and "random legal vs aleatorio" in out and "95% [" in out
    assert [round(x, 3) for x in script.wilson(0, 10)] == [0.0, 0.278]  # type: ignore[attr-defined]
