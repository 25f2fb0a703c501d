"""Cuarenta in OpenSpiel (cuarenta.research.openspiel, docs/research.md "OpenSpiel"): the registered
game, its chance deal, actions, returns, clone and serialisation; OpenSpiel's own checks
(``random_sim_test``, a checked-in playthrough) and IS-MCTS with the resampler.

The playthrough was generated with OpenSpiel's own script::

    PYTHONPATH=src python -c "import sys, cuarenta.research.openspiel
    from open_spiel.python.algorithms import generate_playthrough
    sys.stdout.write(generate_playthrough.playthrough('python_cuarenta(target=10)', None, seed=27))" \\
        > tests/data/playthroughs/python_cuarenta_target_10.txt
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from cuarenta.cards import CARDS, Card  # noqa: E402
from cuarenta.research import openspiel as cos  # noqa: E402
from cuarenta.research.actions import NUM_ACTIONS, actions_by_id, legal_ids  # noqa: E402
from cuarenta.research.observation import OBSERVATION_SIZE, encode  # noqa: E402
from cuarenta.rules import Rules  # noqa: E402

PLAYTHROUGHS = Path(__file__).parent / "data" / "playthroughs"


def _deal(state: object, rng: random.Random) -> None:
    while state.is_chance_node():  # type: ignore[attr-defined]
        outcomes = state.chance_outcomes()  # type: ignore[attr-defined]
        state.apply_action(rng.choice(outcomes)[0])  # type: ignore[attr-defined]


def _deal_deck(state: object, dealer: int, deck: list[Card]) -> None:
    state.apply_action(dealer)  # type: ignore[attr-defined]
    for card in deck:
        state.apply_action(int(card))  # type: ignore[attr-defined]


def test_the_game_is_registered_with_its_parameters() -> None:
    game = pyspiel.load_game("python_cuarenta")
    assert game.num_players() == 2
    assert game.num_distinct_actions() == NUM_ACTIONS == 1056
    assert game.max_chance_outcomes() == 40
    assert game.rules == Rules.preset("a_todo_rigor").replace(chicas=1)  # one chica, as the arena plays
    four = pyspiel.load_game("python_cuarenta(players=4)")
    assert four.num_players() == 4 and four.rules == Rules.preset("campeonato").replace(chicas=1)
    manual = pyspiel.load_game("python_cuarenta", {"options": "capture=manual,sum_cards=two", "target": 20})
    assert (manual.rules.capture, manual.rules.sum_cards, manual.rules.target) == ("manual", "two", 20)
    # inside a game string the options use ':' and ';' (OpenSpiel splits its parameters on '=' and ',')
    same = pyspiel.load_game("python_cuarenta(options=capture:manual;sum_cards:two,target=20)")
    assert same.rules == manual.rules
    game_type = game.get_type()
    assert game_type.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game_type.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game_type.utility == pyspiel.GameType.Utility.ZERO_SUM


@pytest.mark.parametrize(
    ("params", "words"),
    [
        ({"options": "bogus=1"}, "bogus"),
        ({"options": "capture=sometimes"}, "capture"),
        ({"preset": "rapido"}, "rapido"),
        ({"players": 3}, "players"),
        ({"players": 2, "preset": "campeonato"}, "campeonato"),
        ({"target": 7}, "target"),
    ],
)
def test_bad_parameters_say_what_is_wrong(params: dict[str, object], words: str) -> None:
    with pytest.raises((ValueError, pyspiel.SpielError), match=words):
        pyspiel.load_game("python_cuarenta", params)


def test_the_deal_is_chance_card_by_card_and_actions_are_the_research_ids() -> None:
    game = pyspiel.load_game("python_cuarenta(target=10)")
    state = game.new_initial_state()
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 1) == "dealer 1"
    state.apply_action(1)
    rng = random.Random(5)
    deck = list(CARDS)
    rng.shuffle(deck)
    for i, card in enumerate(deck):
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 40 - i and all(p == pytest.approx(1 / (40 - i)) for _, p in outcomes)
        assert int(card) in [a for a, _ in outcomes]
        state.apply_action(int(card))
    g = state.game
    # the dealer's right plays first and gets the first five cards
    assert state.current_player() == 0 and g.hand(0) == deck[:5] and g.hand(1) == deck[5:10]
    legal = state.legal_actions()
    assert legal == sorted(legal) == legal_ids(g.legal_moves(), g.claimable)
    by_id = actions_by_id(g.legal_moves(), g.claimable)
    assert [state.action_to_string(0, a) for a in legal] == [str(by_id[a]) for a in legal]
    with pytest.raises((ValueError, pyspiel.SpielError), match="not legal"):
        state.apply_action(next(a for a in range(NUM_ACTIONS) if a not in legal))


def test_a_four_of_a_kind_at_the_deal_ends_the_chica_and_the_next_deck_is_chance() -> None:
    kings = [c for c in CARDS if c.rank_char == "K"]
    rest = [c for c in CARDS if c.rank_char != "K"]
    deck = [*kings, rest[0], *rest[1:]]  # seat 0 (the dealer's right) is dealt the four kings
    one = pyspiel.load_game("python_cuarenta(target=10)")
    state = one.new_initial_state()
    _deal_deck(state, 1, deck)
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
    two = pyspiel.load_game("python_cuarenta(target=10,chicas=2)")
    state = two.new_initial_state()
    _deal_deck(state, 1, deck)
    assert state.is_chance_node() and len(state.chance_outcomes()) == 40  # the next hand's deck
    assert state.game.chicas == (1, 0) and state.game.dealer == 0
    view = state.game.view(1)
    assert view.hand == () and view.stock_size == 0  # nothing of the new deck shows yet


def test_a_ronda_at_the_deal_is_scored_and_seen_by_everyone() -> None:
    sevens = [c for c in CARDS if c.rank_char == "7"][:3]
    rest = sorted((c for c in CARDS if c not in sevens), key=lambda c: (c & 3, c >> 2))  # by suit
    game = pyspiel.load_game("python_cuarenta(target=10)")
    state = game.new_initial_state()
    _deal_deck(state, 0, [*sevens, *rest])  # dealer 0: seat 1 (the dealer's right) gets 3 sevens
    assert state.game.rondas == [(1, 6)] and state.game.score == (0, 2)
    assert "ronda seat=1" in state.information_state_string(0)
    assert "rondas: +1:7" in state.observation_string(0)


def test_whole_games_return_one_per_team() -> None:
    rng = random.Random(1)
    for spec in ("python_cuarenta(target=10)", "python_cuarenta(players=4,target=10)"):
        game = pyspiel.load_game(spec)
        state = game.new_initial_state()
        while not state.is_terminal():
            _deal(state, rng)
            if not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
        returns = state.returns()
        assert sum(returns) == 0 and sorted(set(returns)) == [-1.0, 1.0]
        assert returns[0] == returns[-2] and returns[1] == returns[-1]  # partners share


def test_clone_and_serialisation_round_trip() -> None:
    rng = random.Random(2)
    game = pyspiel.load_game("python_cuarenta(options=capture:manual,target=10)")
    state = game.new_initial_state()
    for _ in range(120):
        _deal(state, rng)
        if state.is_terminal():
            break
        clone = state.clone()
        back = game.deserialize_state(state.serialize())
        for other in (clone, back):
            assert other.history() == state.history() and str(other) == str(state)
            assert other.legal_actions() == state.legal_actions()
            for p in range(2):
                assert other.information_state_string(p) == state.information_state_string(p)
                assert other.observation_tensor(p) == state.observation_tensor(p)
        action = rng.choice(state.legal_actions())
        clone.apply_action(action)
        assert clone.history() != state.history()  # the clone is independent
        state.apply_action(action)


def test_tensors_have_the_documented_sizes() -> None:
    game = pyspiel.load_game("python_cuarenta(players=4,target=10)")
    state = game.new_initial_state()
    _deal(state, random.Random(3))
    seat = state.current_player()
    assert game.observation_tensor_size() == OBSERVATION_SIZE
    assert game.information_state_tensor_size() == cos.INFOSTATE_SIZE
    assert state.observation_tensor(seat) == pytest.approx(encode(state.game.view(seat)))
    assert state.information_state_tensor(seat)[:OBSERVATION_SIZE] == state.observation_tensor(seat)


def test_random_simulations_quick() -> None:
    game = pyspiel.load_game("python_cuarenta(options=capture:manual,target=10)")
    pyspiel.random_sim_test(game, num_sims=10, serialize=True, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 4])
def test_random_simulations(players: int) -> None:
    """OpenSpiel's own check, 200 whole games (about 20 s for 2 players, 50 s for 4)."""
    game = pyspiel.load_game(f"python_cuarenta(players={players},target=10)")
    pyspiel.random_sim_test(game, num_sims=200, serialize=True, verbose=False)


def test_the_playthrough_replays() -> None:
    from absl import flags
    from open_spiel.python.algorithms import generate_playthrough

    if not flags.FLAGS.is_parsed():
        flags.FLAGS.mark_as_parsed()
    files = sorted(PLAYTHROUGHS.glob("python_cuarenta*.txt"))
    assert files
    for path in files:
        original, again = generate_playthrough.replay(str(path))
        assert again == original, (
            f"{path.name} no longer replays: regenerate it (see this module's docstring)"
        )


def test_ismcts_with_the_resampler_plays_a_whole_game() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("python_cuarenta(target=10)")
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=np.random.RandomState(2))
    bot.set_resampler(cos.make_resampler(seed=3))
    rng = random.Random(4)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        _deal(state, rng)
        if state.is_terminal():
            break
        if state.current_player() == 0:
            state.apply_action(bot.step(state))
            moves += 1
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert moves > 5 and sum(state.returns()) == 0


def test_resample_from_infostate_on_the_python_state() -> None:
    game = pyspiel.load_game("python_cuarenta(target=10)")
    state = game.new_initial_state()
    _deal(state, random.Random(6))
    seat = state.current_player()
    world = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert world.information_state_string(seat) == state.information_state_string(seat)
    assert world.legal_actions() == state.legal_actions()
