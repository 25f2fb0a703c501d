"""No leak (issue 27, item 3) in the OpenSpiel interface (cuarenta.research.openspiel).

Many states from random play — 2 and 4 players, several presets, manual capture included — and, for
every seat, worlds the seat cannot tell from the real one: worlds from the IS-MCTS resampler and
worlds built here by swapping two cards the seat has not seen (in other hands or the stock) where
that changes no public event. In each, the seat's observation string and tensor, information-state
string and tensor and (when it moves) legal actions must be unchanged; the resampler's worlds must
also keep every public event and the seat's own cards. The test has power: most worlds really hold
other hidden cards, and the full debug text of the state (which shows every hand) tells them apart.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

from cuarenta.cards import CARDS  # noqa: E402
from cuarenta.research import openspiel as cos  # noqa: E402

CONFIGS = (
    "python_cuarenta(target=10)",
    "python_cuarenta(options=capture:manual,target=10)",
    "python_cuarenta(preset=todo_dos,options=caida_across_deals:on,target=10)",
    "python_cuarenta(players=4,target=10)",
    "python_cuarenta(players=4,options=capture:manual,target=10)",
)


def _random_states(spec: str, seed: int, games: int, every: int) -> list[Any]:
    """Decision states (clones) of random games, one in ``every``."""
    rng = random.Random(seed)
    game = pyspiel.load_game(spec)
    found = []
    for _ in range(games):
        state = game.new_initial_state()
        step = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            step += 1
            if step % every == 0:
                found.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
    return found


def _seen_by(state: Any, seat: int) -> tuple[Any, ...]:
    """Everything the interface shows ``seat``."""
    moving = state.current_player() == seat
    return (
        state.observation_string(seat),
        tuple(state.observation_tensor(seat)),
        state.information_state_string(seat),
        tuple(state.information_state_tensor(seat)),
        tuple(state.legal_actions()) if moving else None,
    )


def _hidden_cards(state: Any, seat: int) -> list[Any]:
    g = state.game
    others = [c for s in range(g.players) if s != seat for c in g.hand(s)]
    return sorted([*others, *g.stock])


def _swapped_worlds(state: Any, seat: int, rng: random.Random, count: int) -> list[Any]:
    """Worlds built by hand: two cards the seat never saw trade places (same public events)."""
    known, _ = cos._hand_facts(state.game, seat)
    deck = cos.hand_deck(state)
    hidden = [i for i, card in enumerate(known) if card is None]
    worlds = []
    for _ in range(count * 4):
        if len(worlds) == count or len(hidden) < 2:
            break
        i, j = rng.sample(hidden, 2)
        other = list(deck)
        other[i], other[j] = other[j], other[i]
        world = cos.replay_hand(state, other)
        if world is not None and world.game.events == state.game.events:
            worlds.append(world)
    return worlds


def _check(state: Any, rng: random.Random, counts: dict[str, int]) -> None:
    g = state.game
    for seat in range(g.players):
        seen = _seen_by(state, seat)
        hidden = _hidden_cards(state, seat)
        resampled = [cos.resample(state, seat, rng) for _ in range(2)]
        for world in resampled:
            # the resampler's worlds are consistent with the seat's information
            assert world.game.events == g.events
            assert world.game.hand(seat) == g.hand(seat) and world.game.table == g.table
            assert world.game.pile(0) == g.pile(0) and world.game.pile(1) == g.pile(1)
        for world in (*resampled, *_swapped_worlds(state, seat, rng, 2)):
            assert _seen_by(world, seat) == seen, f"seat {seat} can tell a world from the real state"
            counts["worlds"] += 1
            assert _hidden_cards(world, seat) == hidden  # the same cards are hidden, placed anew
            if _hidden_orders_differ(world, state, seat):
                counts["changed"] += 1
            if str(world) != str(state):
                counts["debug_text_differs"] += 1


def _hidden_orders_differ(world: Any, state: Any, seat: int) -> bool:
    g, w = state.game, world.game
    return any(w.hand(s) != g.hand(s) for s in range(g.players) if s != seat) or w.stock != g.stock


@pytest.mark.parametrize("spec", CONFIGS)
def test_no_seat_can_tell_worlds_that_differ_only_in_what_it_has_not_seen(spec: str) -> None:
    rng = random.Random(27)
    counts = {"worlds": 0, "changed": 0, "debug_text_differs": 0}
    states = _random_states(spec, seed=len(spec), games=3, every=12 if "players=4" in spec else 7)
    assert len(states) >= 10
    for state in states:
        _check(state, rng, counts)
    # power: the worlds really differ in hidden cards, and a text that showed them would be caught
    assert counts["changed"] >= 0.6 * counts["worlds"], counts
    assert counts["debug_text_differs"] >= 0.6 * counts["worlds"], counts


def test_the_resampler_keeps_the_rondas_another_seat_announced() -> None:
    sevens = [c for c in CARDS if c.rank_char == "7"][:3]
    rest = sorted((c for c in CARDS if c not in sevens), key=lambda c: (c & 3, c >> 2))
    for players in (2, 4):
        game = pyspiel.load_game(f"python_cuarenta(players={players},target=10)")
        state = game.new_initial_state()
        state.apply_action(0)  # dealer 0: seat 1 plays first and holds three sevens
        for card in [*sevens, *rest]:
            state.apply_action(int(card))
        state.apply_action(state.legal_actions()[-1])  # seat 1 plays one card
        assert (1, 6) in state.game.rondas
        rng = random.Random(players)
        seen = _seen_by(state, 0)
        holders = set()
        for _ in range(20):
            world = cos.resample(state, 0, rng)
            assert _seen_by(world, 0) == seen and world.game.rondas == state.game.rondas
            sevens_held = [c for c in world.game.hand(1) if c.rank_char == "7"]
            played = [e.move.card for e in world.game.hand_events() if e.kind == "play"]
            assert len(sevens_held) + sum(c.rank_char == "7" for c in played) == 3
            holders.add(tuple(sorted(world.game.hand(1))))
        assert len(holders) > 1  # the other cards of seat 1 really vary


def test_hidden_cards_never_appear_in_what_a_seat_is_shown() -> None:
    """A direct look: no card of another hand or the stock is named in a seat's hand line or its
    information state's own-cards lines."""
    for spec in ("python_cuarenta(target=10)", "python_cuarenta(players=4,target=10)"):
        for state in _random_states(spec, seed=5, games=1, every=5):
            g = state.game
            for seat in range(g.players):
                hidden = {str(c) for c in _hidden_cards(state, seat)}
                hand_line = next(
                    x for x in state.observation_string(seat).split("\n") if x.startswith("hand:")
                )
                assert not hidden & set(hand_line.split()[1:])
                mine = [x for x in state.information_state_string(seat).split("\n") if x.startswith("deal ")]
                current = mine[-1].split("mine=")[1].split()
                assert not hidden & set(current)
                assert set(current) >= {str(c) for c in g.hand(seat)}
