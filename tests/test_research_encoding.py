"""The research interfaces' one encoding: action ids (research/actions.py) and observation planes
(research/observation.py), checked against the engine over random mesas of every preset."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cuarenta import CARDS, Card, Claim, Game, Move, Rules
from cuarenta.research.actions import (
    CLAIM_BASE,
    MAX_CLAIMS,
    MOVE_TRIPLES,
    NUM_ACTIONS,
    ActionIdError,
    action_id,
    action_mask,
    actions_by_id,
    describe_id,
    legal_ids,
)
from cuarenta.research.observation import OBSERVATION_SIZE, PLANES, encode, observation_string
from cuarenta.rules import PRESET_NAMES

ALL_RULES = [
    rules.replace(capture=capture)
    for preset in PRESET_NAMES
    for players in (2, 4)
    if preset not in (("campeonato",) if players == 2 else ("basico",))
    for rules in [Rules.preset(preset, players=players)]
    for capture in ("auto", "manual")
]


def random_positions(rules: Rules, seed: int, every: int = 1):
    """Every ``every``-th position of one random mesa, with its game (played on after the yield)."""
    game = Game.new(rules, seed=seed)
    rng = random.Random(seed)
    ply = 0
    while game.outcome is None:
        if ply % every == 0:
            yield game
        game.play(rng.choice(game.legal_moves()))
        ply += 1


@settings(deadline=None)  # a whole mesa each
@given(rule=st.sampled_from(ALL_RULES), seed=st.integers(0, 10**6))
def test_each_legal_action_has_its_own_id_and_the_id_leads_back_to_it(rule: Rules, seed: int) -> None:
    for game in random_positions(rule, seed):
        legal = game.legal_moves()
        ids = legal_ids(legal, game.claimable)
        assert ids == sorted(set(ids)) and len(ids) == len(legal)
        assert all(0 <= i < NUM_ACTIONS for i in ids)
        back = actions_by_id(legal, game.claimable)
        assert sorted(back.values(), key=str) == sorted(legal, key=str)
        for i, action in back.items():
            assert action_id(action, game.claimable) == i
            if isinstance(action, Move):
                card, base, run = MOVE_TRIPLES[i]
                assert card == action.card and len(action.run) == run
                assert base == tuple(sorted(c >> 2 for c in action.base))
            else:
                assert i >= CLAIM_BASE
        mask = action_mask(ids)
        assert sum(mask) == len(ids) > 0


def test_automatic_capture_uses_only_whole_escaleras_and_manual_the_shorter_ones_too() -> None:
    game = Game.from_position(
        Rules(),
        hands=[["3h", "Kc"], ["5d", "Qs"]],
        table=["3c", "4d", "5s"],
        stock=[],
        turn=0,
        dealer=1,
        piles=[[c for c in CARDS if str(c) not in ("3h", "Kc", "5d", "Qs", "3c", "4d", "5s")], []],
    )
    assert [describe_id(i) for i in legal_ids(game.legal_moves())] == ["3h x3,4,5", "Kc"]
    manual = Game.from_position(
        Rules(capture="manual"),
        hands=[["3h", "Kc"], ["5d", "Qs"]],
        table=["3c", "4d", "5s"],
        stock=[],
        turn=0,
        dealer=1,
        piles=[[c for c in CARDS if str(c) not in ("3h", "Kc", "5d", "Qs", "3c", "4d", "5s")], []],
    )
    texts = [describe_id(i) for i in legal_ids(manual.legal_moves())]
    assert texts == ["3h", "3h x3", "3h x3,4", "3h x3,4,5", "Kc"]


def test_manual_capture_offers_claims_and_they_take_the_claim_ids() -> None:
    seen = 0
    for seed in range(6):
        for game in random_positions(Rules(capture="manual"), seed):
            claims = [i for i in legal_ids(game.legal_moves(), game.claimable) if i >= CLAIM_BASE]
            assert claims == list(range(CLAIM_BASE, CLAIM_BASE + len(game.claimable)))
            seen += len(claims)
    assert seen > 0


def test_a_claim_is_numbered_by_its_place_among_the_claims_offered() -> None:
    offered = [tuple(Card.parse_many("4d 5s")), tuple(Card.parse_many("6h"))]
    assert action_id(Claim(offered[1]), offered) == CLAIM_BASE + 1
    with pytest.raises(ActionIdError, match="not among the 2 claims offered"):
        action_id(Claim(tuple(Card.parse_many("7h"))), offered)
    assert NUM_ACTIONS == CLAIM_BASE + MAX_CLAIMS


def test_what_is_not_a_move_of_the_game_has_no_id() -> None:
    with pytest.raises(ActionIdError, match="no action id"):
        action_id(Move(Card("Kh"), (Card("3c"), Card("4d"))))  # a king sums nothing (R8)
    with pytest.raises(ActionIdError, match="out of range"):
        describe_id(NUM_ACTIONS)


def test_the_observation_has_its_planes_sizes_and_only_zeros_and_ones_but_the_scores() -> None:
    assert sum(p.size for p in PLANES) == OBSERVATION_SIZE
    game = Game.new(Rules.preset("campeonato", players=4), seed=5)
    rng = random.Random(5)
    for _ in range(60):
        for seat in range(4):
            vector = encode(game.view(seat))
            assert len(vector) == OBSERVATION_SIZE
            assert all(0.0 <= x <= 1.0 for x in vector)
        game.play(rng.choice(game.legal_moves()))


def plane(vector: list[float], name: str) -> list[float]:
    start = 0
    for p in PLANES:
        if p.name == name:
            return vector[start : start + p.size]
        start += p.size
    raise KeyError(name)


def test_the_planes_say_what_the_seat_sees_from_its_own_chair() -> None:
    game = Game.new(Rules(players=4), seed=8)
    rng = random.Random(8)
    for _ in range(9):
        game.play(rng.choice(game.legal_moves()))
    for seat in range(4):
        view = game.view(seat)
        vector = encode(view)
        assert [Card(i) for i, x in enumerate(plane(vector, "hand")) if x] == sorted(view.hand)
        assert [Card(i) for i, x in enumerate(plane(vector, "table")) if x] == sorted(view.table)
        mine = [Card(i) for i, x in enumerate(plane(vector, "pile_mine")) if x]
        assert mine == sorted(view.piles[seat % 2])
        turn = plane(vector, "turn")
        assert turn.index(1.0) == (game.turn - seat) % 4
        sizes = plane(vector, "hand_sizes")
        assert [sizes[6 * k : 6 * k + 6].index(1.0) for k in range(4)] == [
            view.hand_sizes[(seat + k) % 4] for k in range(4)
        ]
    text = observation_string(game.view(0))
    assert text.splitlines()[1] == "hand: " + " ".join(str(c) for c in game.hand(0))


def test_the_observation_is_the_same_function_of_the_view_whatever_seat_holds_it() -> None:
    """Relative seats: two seats with the same cards and the same situation see the same vector."""
    rules = Rules()
    kwargs = {
        "table": ["3c", "4d"],
        "stock": [],
        "dealer": 1,
        "piles": [[c for c in CARDS if str(c) not in ("7h", "Kc", "5d", "Qs", "3c", "4d")], []],
    }
    a = Game.from_position(rules, hands=[["7h", "Kc"], ["5d", "Qs"]], turn=0, **kwargs)
    b = Game.from_position(
        rules,
        hands=[["5d", "Qs"], ["7h", "Kc"]],
        turn=1,
        table=kwargs["table"],
        stock=[],
        dealer=0,
        piles=[[], kwargs["piles"][0]],
    )
    assert encode(a.view(0)) == encode(b.view(1))


def test_docs_research_lists_every_plane_as_the_code_builds_it() -> None:
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "research.md").read_text(encoding="utf-8")
    start = 0
    for i, p in enumerate(PLANES, 1):
        assert f"| {i} | `{p.name}` | {p.size} | {start} | {p.meaning} |" in text
        start += p.size
