"""What the server tells the page of each event and legal move (authority/eventview.py, docs/protocol.md).

Worked examples at fixed positions, and properties over random games: the points the events describe add
up to the engine's scores, the end-of-hand view is the engine's, and every added field is public.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from cuarenta import Card, Game, Rules
from cuarenta.errors import RulesError
from cuarenta.events import Caida, Carton, ChicaWon, Deal, HandEnd, Limpia, Ronda
from cuarenta.i18n import SayingLog
from cuarenta.moves import Claim, Move
from cuarenta.rules import PRESET_NAMES
from cuarenta.server.authority.eventview import (
    describe_moves,
    end_view,
    marks,
    scores_before,
    table_after,
    wire_event,
)
from support.examples import examples


def random_game(preset: str, players: int, seed: int, stop: int | None = None) -> Game:
    """A mesa of random legal moves (all of it, or its first ``stop`` moves)."""
    game = Game.new(Rules.preset(preset, players), seed=seed)
    rng = random.Random(seed)
    moves = 0
    while not game.is_over and (stop is None or moves < stop):
        game.play(rng.choice(game.legal_moves()))
        moves += 1
    return game


def wired(game: Game) -> list[dict[str, Any]]:
    sayings = SayingLog().update(game)
    return [wire_event(game, i, sayings[i]) for i in range(len(game.events))]


# -- worked examples ----------------------------------------------------------------------------------------
def test_marks_are_perros_and_tantos() -> None:
    assert [marks(p) for p in (0, 2, 8, 10, 14, 38, 40)] == [
        [0, 0],
        [0, 1],
        [0, 4],
        [1, 0],
        [1, 2],
        [3, 4],
        [4, 0],
    ]


def test_a_play_names_its_card_and_what_it_took() -> None:
    game = random_game("basico", 2, 1)
    plays = [e for e in wired(game) if e["kind"] == "play"]
    drops = [e for e in plays if not e["taken"]]
    runs = [e for e in plays if e["run"]]
    assert drops and runs
    for e in plays:
        move = Move.parse(e["move"])
        assert e["card"] == str(move.card)
        assert e["base"] == [str(c) for c in move.base]
        assert e["run"] == [str(c) for c in move.run]
        assert e["taken"] == e["base"] + e["run"]


def test_the_wire_keeps_every_field_of_the_engine() -> None:
    game = random_game("a_todo_rigor", 4, 2)
    sayings = SayingLog().update(game)
    for i, event in enumerate(game.events):
        out = wire_event(game, i, sayings[i])
        assert {**out, **event.to_dict()} == out  # additive: nothing of to_dict() changed
        assert out["sayings"] == sayings[i]


def test_a_deal_says_how_many_deals_a_hand_has() -> None:
    for players, deals in ((2, 4), (4, 2)):
        game = random_game("a_todo_rigor", players, 3, stop=3)
        assert {e["deals"] for e in wired(game) if e["kind"] == "deal"} == {deals}


def test_scores_before_sums_a_chica_only() -> None:
    events = [
        Ronda(0, 0, "7", 4),
        Caida(1, 1, Card("7h"), 0, 2),
        ChicaWon(0, (40, 2), 0, "target"),
        Limpia(1, 1, 2),
    ]
    assert scores_before(events, 2) == [4, 2]
    assert scores_before(events, 3) == [0, 0]
    assert scores_before(events, 4) == [0, 2]


def test_the_end_of_a_hand_worked_example() -> None:
    """A hand of 38 cards taken, 2 left: 22 and 16 cards, the cartón 6 + 2 for the team of 22."""
    events = [
        Deal(0, 0, 0, 7),
        Ronda(1, 1, "5", 4),
        Limpia(0, 0, 2),
        HandEnd((Card("Ks"), Card("2h")), (22, 16)),
        Carton(0, 22, 8, "carton"),
        Carton(1, 16, 0, None),
        Deal(1, 1, 0, 3),
    ]
    assert end_view(events, 3) == {
        "hand": 1,
        "table": ["Ks", "2h"],
        "cards": [22, 16],
        "carton": [8, 0],
        "scores": [10, 4],
        "score_marks": [[1, 0], [0, 2]],
    }


def test_moves_say_what_a_shorter_escalera_leaves() -> None:
    """Manual capture (R12): a shorter escalera than the same card and base could take leaves the rest."""
    found = 0
    for seed in range(40):
        game = Game.new(Rules.preset("a_todo_rigor", 2).replace(capture="manual"), seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            actions = game.legal_moves()
            for m in describe_moves(game, actions):
                if m.get("leaves"):
                    found += 1
                    longer = [
                        o
                        for o in describe_moves(game, actions)
                        if o.get("card") == m["card"] and o.get("base") == m["base"]
                    ]
                    best = max(longer, key=lambda o: len(o["run"]))
                    assert m["leaves"] == [c for c in best["run"] if c not in m["run"]]
            game.play(rng.choice(actions))
        if found > 3:
            break
    assert found > 3


# -- properties over random games ---------------------------------------------------------------------------
@settings(max_examples=examples(25), deadline=None)
@given(
    preset=st.sampled_from(sorted(PRESET_NAMES)),
    players=st.sampled_from([2, 4]),
    seed=st.integers(0, 2**32),
)
def test_described_points_add_up_to_the_engines_scores(preset: str, players: int, seed: int) -> None:
    try:
        rules = Rules.preset(preset, players)
    except RulesError:
        return  # a preset for the other number of players
    game = Game.new(rules, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        # after every move the chica's described points are the engine's score
        assert scores_before(game.events, len(game.events)) == list(game.score)
        game.play(rng.choice(game.legal_moves()))
    events = game.events
    for i, event in enumerate(events):
        out = wire_event(game, i, [])
        if "after" in out:  # described in order (as a room does), from the hand's start: the same
            assert out["after"] == table_after(events, i, players)
        if "points" in out and isinstance(out["points"], int):
            assert out["marks"] == marks(out["points"])
        if isinstance(event, HandEnd):
            end = out["end"]
            assert end["cards"] == list(event.pile_sizes)
            assert sum(end["cards"]) + len(end["table"]) == 40
            cartons = [e for e in events[i + 1 : i + 1 + rules.teams] if isinstance(e, Carton)]
            assert end["carton"] == [sum(c.points for c in cartons if c.team == t) for t in (0, 1)]
            after = i + 1 + len(cartons)
            assert end["scores"] == scores_before(events, after)
            if after < len(events) and isinstance(events[after], ChicaWon):
                assert end["scores"] == list(events[after].scores)  # type: ignore[attr-defined]
        if isinstance(event, ChicaWon):
            assert scores_before(events, i) == list(event.scores)
            assert out["score_marks"] == [marks(s) for s in event.scores]


@settings(max_examples=examples(20), deadline=None)
@given(seed=st.integers(0, 2**32), players=st.sampled_from([2, 4]), manual=st.booleans())
def test_moves_are_the_legal_moves_in_their_order(seed: int, players: int, manual: bool) -> None:
    game = Game.new(
        Rules.preset("a_todo_rigor", players).replace(capture="manual" if manual else "auto"), seed=seed
    )
    rng = random.Random(seed)
    while not game.is_over:
        actions = game.legal_moves()
        described = describe_moves(game, actions)
        assert [m["move"] for m in described] == [str(a) for a in actions]
        for m, a in zip(described, actions, strict=True):
            if isinstance(a, Claim):
                assert m["claim"] == [str(c) for c in a.cards] and not m["caida"] and not m["limpia"]
                assert m["victim"] == (game.turn - 1) % players
                continue
            assert m["caida"] == game.is_caida(a) and m["limpia"] == game.is_limpia(a)
            assert m["taken"] == [str(c) for c in a.taken]
            assert m["forgets"] == (
                not a.base and any(isinstance(o, Move) and o.base and o.card == a.card for o in actions)
            )
        game.play(rng.choice(actions))


@settings(max_examples=examples(20), deadline=None)
@given(seed=st.integers(0, 2**32), players=st.sampled_from([2, 4]), manual=st.booleans())
def test_the_table_after_a_play_is_the_engines(seed: int, players: int, manual: bool) -> None:
    """After each move that neither ends a deal nor a chica, the last play's (or claim's) ``after`` is the
    engine's own table, last drop, piles and hand sizes."""
    rules = Rules.preset("a_todo_rigor", players).replace(capture="manual" if manual else "auto")
    game = Game.new(rules, seed=seed)
    rng = random.Random(seed)
    checked = 0
    while not game.is_over:
        start = len(game.events)
        game.play(rng.choice(game.legal_moves()))
        new = game.events[start:]
        if any(isinstance(e, Deal | HandEnd | ChicaWon) for e in new):
            continue
        at = max(i for i, e in enumerate(game.events) if e.kind in ("play", "claim"))
        after = wire_event(game, at, [])["after"]
        assert after == {
            "table": [str(c) for c in game.table],
            "last_drop": None if game.last_drop is None else str(game.last_drop),
            "pile_sizes": [len(game.pile(t)) for t in (0, 1)],
            "hand_sizes": [len(game.hand(s)) for s in range(players)],
        }
        checked += 1
    assert checked > 10
