"""Perft: recount the legal action sequences of fixed positions and compare with the stored numbers.

The positions and their counts are in ``tests/data/perft/*.json``, written by ``scripts/make_perft.py``
(which documents what is counted; regenerate them only after a deliberate rule change). Each file
names the rules, the ``Game.from_position`` arguments, the setup actions, and ``counts[d - 1]``, the
number of sequences of ``d`` actions from ``Game.legal_moves()``.

The counts are only as good as the move generator, so the first levels of every tree are also
counted with the independent reference generator of ``tests/test_reference_movegen.py`` (R7–R12,
with claims), node by node.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cuarenta import Claim, Game, Move, Rules, parse_action
from support.movegen import move_key, ref_rank, reference_claims, reference_move_keys

DATA = Path(__file__).parent / "data" / "perft"
FILES = sorted(DATA.glob("*.json"))

#: Event kinds each tree must reach within its depth: the boundaries and rules the position is for.
MUST_REACH = {
    "mano_a_mano_mid_deal": {"caida", "limpia", "deal", "ronda"},
    "parejas_mid_deal": {"caida_ronda", "caida", "limpia", "caida_limpia"},
    "campeonato_claim": {"claim", "hand_end", "carton", "deal"},
    "deal_boundary": {"caida", "limpia", "deal", "ronda", "hand_end", "carton"},
    "hand_end": {"hand_end", "carton", "deal"},
    "chica_end": {"caida", "chica_won", "mesa_won", "hand_end", "carton", "deal"},
}

#: Levels of each tree checked node by node against the reference generator.
REFERENCE_LEVELS = 6


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def build(data: dict[str, Any]) -> Game:
    game = Game.from_position(Rules.from_dict(data["rules"]), **data["position"])
    for action in data["setup"]:
        game.play(action)
    return game


def perft(game: Game, depth: int) -> tuple[list[int], set[str]]:
    """Counts of action sequences of length 1..depth, and the event kinds met on the way."""
    counts = [0] * depth
    kinds: set[str] = set()

    def walk(level: int) -> None:
        moves = game.legal_moves()
        counts[level] += len(moves)
        if level + 1 < depth:
            for move in moves:
                n = len(game.events)
                game.push(move)
                kinds.update(e.kind for e in game.events[n:])
                walk(level + 1)
                game.pop()

    walk(0)
    return counts, kinds


def test_the_perft_files_are_there() -> None:
    assert {p.stem for p in FILES} == set(MUST_REACH)
    for path in FILES:
        data = load(path)
        assert data["name"] == path.stem
        assert len(data["counts"]) == data["depth"] >= 4


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_perft_counts(path: Path) -> None:
    data = load(path)
    game = build(data)
    before = game.state_summary()
    assert sorted(str(m) for m in game.legal_moves()) == sorted(data["root_moves"])
    counts, kinds = perft(game, data["depth"])
    assert counts == data["counts"]
    assert game.state_summary() == before  # push/pop left the position as it was
    assert MUST_REACH[data["name"]] <= kinds, f"never reached {MUST_REACH[data['name']] - kinds}"


def expected_claims(
    game: Game, table_before: list[Any], action: Any, new_kinds: set[str]
) -> set[tuple[int, ...]]:
    """R12 by the reference: what the seat to move may claim after ``action``."""
    if game.rules.capture != "manual" or isinstance(action, Claim) or new_kinds & {"hand_end", "chica_won"}:
        return set()
    return reference_claims(action.card, table_before, action, game.rules.sum_cards == "two")


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_perft_first_levels_match_the_reference(path: Path) -> None:
    """Count the first levels with the reference generator, comparing every node's actions."""
    data = load(path)
    game = Game.from_position(Rules.from_dict(data["rules"]), **data["position"])
    claims: set[tuple[int, ...]] = set()
    for text in data["setup"]:
        table = game.table
        n = len(game.events)
        action = parse_action(text)
        game.play(action)
        claims = expected_claims(game, table, action, {e.kind for e in game.events[n:]})
    two = game.rules.sum_cards == "two"
    levels = min(REFERENCE_LEVELS, data["depth"])
    ref_counts = [0] * levels

    def walk(level: int, claims: set[tuple[int, ...]]) -> None:
        if game.is_over:
            assert game.legal_moves() == []
            return
        keys = reference_move_keys(game.hand(game.turn), game.table, game.rules.capture, two)
        legal = game.legal_moves()
        moves = [m for m in legal if isinstance(m, Move)]
        got_claims = [tuple(sorted(ref_rank(c) for c in m.cards)) for m in legal if isinstance(m, Claim)]
        assert sorted(move_key(m) for m in moves) == sorted(keys), str(game.state_summary())
        assert sorted(got_claims) == sorted(claims)
        ref_counts[level] += len(keys) + len(claims)
        if level + 1 < levels:
            for action in legal:
                table = game.table
                n = len(game.events)
                game.push(action)
                walk(level + 1, expected_claims(game, table, action, {e.kind for e in game.events[n:]}))
                game.pop()

    walk(0, claims)
    assert ref_counts == data["counts"][:levels]
