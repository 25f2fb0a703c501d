"""Bad inputs to the library fail with the engine's own errors, say what was wrong, and change nothing.

Each case here crashed with the wrong error type (TypeError, AttributeError) or was accepted and broke
later, in cuarenta 0.1 (issue 7). Every engine error also carries a ``code`` and ``params`` that the
text catalogue renders in Spanish and in English.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from cuarenta import (
    CARDS,
    Card,
    Claim,
    CuarentaError,
    Game,
    IllegalMoveError,
    Move,
    PositionError,
    RecordError,
    Rules,
    RulesError,
    SeedError,
)
from cuarenta.catalogue import LANGS, messages, placeholders
from support.positions import position

SRC = Path(__file__).resolve().parents[1] / "src" / "cuarenta"


# -- seeds ----------------------------------------------------------------------------------------------
def test_a_missing_seed_is_a_random_one_that_saves_and_loads() -> None:
    game = Game.new(seed=None)
    assert isinstance(game.seed, int)
    game.play(game.legal_moves()[0])
    again = Game.from_json(game.to_json())
    assert again.seed == game.seed and again.state_summary() == game.state_summary()
    assert Game.new(seed=None).seed != game.seed or Game.new(seed=None).seed != game.seed


@pytest.mark.parametrize("seed", [[1], 1.5, True, {"a": 1}, b"7"])
def test_a_seed_that_is_not_a_number_or_text_is_refused(seed: Any) -> None:
    with pytest.raises(SeedError, match="must be a whole number or a text") as info:
        Game.new(seed=seed)
    assert info.value.code == "bad_seed" and isinstance(info.value, ValueError)
    with pytest.raises(PositionError, match="seed"):
        position(hands=[["5s"], ["Qd"]], table=["5h"], dealer=1, seed=seed)


# -- rules ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        ({"players": 2.0}, "Cuarenta is played by 2 or 4"),
        ({"players": True}, "Cuarenta is played by 2 or 4"),
        ({"chicas": 2.0}, "option chicas=2.0 is not valid"),
        ({"chicas": "2"}, "option chicas='2' is not valid"),
        ({"sum_cards": 2}, "option sum_cards=2 is not valid"),
        ({"target": 40.0}, "option target=40.0 must be a whole number"),
        ({"ronda_limit": "30"}, "must be a whole number (or None: off)"),
        ({"treinta_y_ocho": 1}, "must be true or false"),
        ({"carton_cap": 19}, "carton_cap=19 must be None"),
    ],
)
def test_rules_of_the_wrong_type_are_refused_at_once(options: dict[str, Any], fragment: str) -> None:
    with pytest.raises(RulesError) as info:
        Rules(**options)
    assert fragment in str(info.value)
    with pytest.raises(RulesError):
        Rules.from_dict({"preset": "a_todo_rigor", **options})


def test_rules_from_a_dict_naming_only_a_pairs_preset() -> None:
    assert Rules.from_dict({"preset": "campeonato"}) == Rules.preset("campeonato")
    assert Rules.from_dict({"preset": "basico"}) == Rules.preset("basico")
    with pytest.raises(RulesError, match="played by 4 players"):
        Rules.from_dict({"preset": "campeonato", "players": 2})
    with pytest.raises(RulesError, match="unknown preset"):
        Rules.from_dict({"preset": ["campeonato"]})


# -- saved games ----------------------------------------------------------------------------------------
def saved() -> dict[str, Any]:
    game = Game.new(seed=4)
    for _ in range(6):
        game.play(game.legal_moves()[0])
    data: dict[str, Any] = json.loads(game.to_json())
    return data


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        (lambda d: d.update(state=[]), "state must be an object, not list"),
        (lambda d: d.update(state=None), "state must be an object"),
        (lambda d: d.pop("state"), "has no 'state'"),
        (lambda d: d.update(actions=None), "actions must be a list of moves, not NoneType"),
        (lambda d: d.update(actions="4c Qs"), "actions must be a list"),
        (lambda d: d.update(actions=[1, 2]), "action 1: 1 is not a move or a claim"),
        (lambda d: d.update(seed=None), "seed None must be a whole number or a text"),
        (lambda d: d.update(seed=1.5), "seed 1.5"),
        (lambda d: d.update(rules=[]), "rules must be an object of options"),
        (lambda d: d.update(start=[1]), "starting position must be an object"),
        (lambda d: d.update(start={"colour": 1}), "starting position"),
        (lambda d: d["state"].update(turn=1 - d["state"]["turn"]), "corrupt"),
    ],
)
def test_a_broken_save_is_a_record_error_saying_what_is_wrong(change: Any, fragment: str) -> None:
    data = saved()
    change(data)
    with pytest.raises(RecordError) as info:
        Game.from_dict(data)
    assert fragment in str(info.value)
    with pytest.raises(RecordError):
        Game.from_json(json.dumps(data))


@pytest.mark.parametrize("text", ["", "[", "null", "7", b"\xff\xfe"])
def test_a_save_that_is_not_a_json_object(text: str | bytes) -> None:
    with pytest.raises(RecordError):
        Game.from_json(text)


# -- positions ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("field", "value", "fragment"),
    [
        ("scores", None, "scores: give two whole numbers"),
        ("scores", (2, 2.5), "scores: give two whole numbers"),
        ("chicas", "00", "chicas: give two whole numbers"),
        ("piles", None, "piles: give one list of cards per team"),
        ("table", 5, "table: give a list of cards"),
        ("stock", {"7h": 1}, "stock: give a list of cards"),
        ("rondas", 5, "rondas: give a list of (seat, rank) pairs"),
    ],
)
def test_a_position_field_of_the_wrong_type_is_a_position_error(
    field: str, value: Any, fragment: str
) -> None:
    game = position(hands=[["5s", "Kd"], ["Qd", "Jh"]], table=["5h"], dealer=1)
    args: dict[str, Any] = {
        "hands": [game.hand(0), game.hand(1)],
        "table": game.table,
        "stock": game.stock,
        "turn": game.turn,
        "dealer": game.dealer,
        "piles": [game.pile(0), game.pile(1)],
    }
    Game.from_position(Rules(), **args)  # the position itself is fine
    args[field] = value
    with pytest.raises(PositionError) as info:
        Game.from_position(Rules(), **args)
    assert fragment in str(info.value)


@pytest.mark.parametrize(
    ("rondas", "fragment"),
    [
        ([(0, "Q"), (1, "Q")], "two rondas of Q"),
        ([(1, "Q")], "seat 1 cannot have a ronda of Q"),  # seat 0 holds three of the four queens
        ([(0, "Q"), (0, "5")], "seat 0 is given two rondas"),
        ([(0, "9")], "not a (seat, rank) pair"),
        ([(5, "Q")], "not a (seat, rank) pair"),
        (["Q"], "not a (seat, rank) pair"),
    ],
)
def test_impossible_rondas_are_refused(rondas: list[Any], fragment: str) -> None:
    hands = [["Qh", "Qs", "Qd", "5s", "2c"], ["5d", "6h", "7c", "Kd", "Jh"]]
    assert position(hands=hands, dealer=1, stock_size=30, rondas=[(0, "Q")]).rondas == [(0, 8)]
    with pytest.raises(PositionError) as info:
        position(hands=hands, dealer=1, stock_size=30, rondas=rondas)
    assert fragment in str(info.value)


# -- moves and claims built by hand ---------------------------------------------------------------------
def playing() -> Game:
    return position(hands=[["7h", "Kc"], ["5d", "Qs"]], table=["3c", "4d", "Js"], dealer=1)


@pytest.mark.parametrize(
    "action",
    [
        Move(Card("7h"), None),  # type: ignore[arg-type]
        Move(Card("7h"), "3c"),  # type: ignore[arg-type]
        Move(Card("7h"), ("3c", "4d")),  # type: ignore[arg-type]
        Move("7h"),  # type: ignore[arg-type]
        Move(Card("7h"), (Card("3c"), Card("4d")), None),  # type: ignore[arg-type]
    ],
    ids=["base-None", "base-text", "base-texts", "card-text", "run-None"],
)
def test_a_malformed_move_is_an_illegal_move_saying_so(action: Move) -> None:
    game = playing()
    before = game.state_summary()
    with pytest.raises(IllegalMoveError, match="not a well-formed move") as info:
        game.play(action)
    assert info.value.code == "move_malformed"
    assert game.state_summary() == before and not game.is_legal(action)


def manual_with_forgotten() -> Game:
    rules = Rules.preset("campeonato")
    game = position(
        rules, hands=[["7h", "Kc"], ["4h", "Qs"], ["Qh", "Js"], ["Kh", "Ks"]], table=["4d"], dealer=3
    )
    game.play("7h")  # the 7 could have taken nothing; drop it
    game.play("4h")  # seat 1 drops its 4 instead of taking the 4d: seat 2 may claim 4h x4d
    assert game.claimable
    return game


@pytest.mark.parametrize(
    ("claim", "fragment"),
    [
        (Claim(None), "not a well-formed claim"),  # type: ignore[arg-type]
        (Claim(("4d",)), "not a well-formed claim"),  # type: ignore[arg-type]
        (Claim(()), "not a well-formed claim"),
        (Claim((Card("4d"), Card("4d"))), "named twice"),
        (Claim((Card("Kd"),)), "Kd is not on the table"),
    ],
)
def test_a_malformed_claim_says_what_is_wrong(claim: Claim, fragment: str) -> None:
    game = manual_with_forgotten()
    before = game.state_summary()
    with pytest.raises(IllegalMoveError) as info:
        game.play(claim)
    assert fragment in str(info.value)
    assert game.state_summary() == before


def test_view_takes_a_seat_number_only() -> None:
    game = Game.new(seed=3)
    for seat in (True, False, 2, -1, "0", 0.0):
        with pytest.raises(ValueError, match="is not a seat"):
            game.view(seat)  # type: ignore[arg-type]
    assert game.view(1).seat == 1


# -- every error in two languages -----------------------------------------------------------------------
def raised_codes() -> set[str]:
    codes: set[str] = set()
    for path in SRC.rglob("*.py"):
        codes |= set(re.findall(r"""\.of\(\s*["'](\w+)["']""", path.read_text(encoding="utf-8")))
    return codes


def test_every_engine_error_code_has_a_text_in_every_language() -> None:
    codes = raised_codes()
    assert len(codes) > 60
    for lang in LANGS:
        missing = sorted(c for c in codes if f"error.{c}" not in messages(lang))
        assert not missing, f"{lang}: no text for {missing}"
    for key, template in messages("en").items():
        if key.startswith("error."):
            assert placeholders(template) == placeholders(messages("es")[key]), key


@pytest.mark.parametrize(
    ("call", "es"),
    [
        (lambda: Card.parse("9h"), "'9h' no es una carta: en el cuarenta no hay 8, 9 ni 10"),
        (lambda: Rules.preset("campeonato", 2), "se juega entre 4 (en parejas), no entre 2"),
        (lambda: playing().play("7h x3c"), "7h no puede llevarse 3c"),
        (lambda: playing().play("5d"), "5d no está en la mano del puesto 0"),
        (lambda: playing().play("5d x"), "'5d x' no es una jugada: no hay nada después de 'x'"),
    ],
)
def test_an_engine_error_reads_in_spanish(call: Any, es: str) -> None:
    with pytest.raises(CuarentaError) as info:
        call()
    exc = info.value
    assert es in exc.text("es")
    assert exc.text("en") == str(exc)
    wire = exc.to_dict()
    assert json.loads(json.dumps(wire)) == wire and wire["code"] == exc.code


def test_nothing_in_a_refused_play_changes_the_game() -> None:
    game = playing()
    before = (game.state_summary(), list(game.events), list(game.actions))
    for bad in ["", "7h x", "9h", "7h x3c", "7h x3c+4d", "7h x3c+4d,Js,Qd", "Qs", "claim 3c", 42, None]:
        with pytest.raises(IllegalMoveError):
            game.play(bad)  # type: ignore[arg-type]
    assert (game.state_summary(), list(game.events), list(game.actions)) == before
    assert {c for c in CARDS} == set(
        game.hand(0) + game.hand(1) + game.table + game.stock + game.pile(0) + game.pile(1)
    )
