"""Every public reader of the library raises the library's own errors for any input (issue 15).

An attacker fed ``Game.from_json`` and ``GameRecord.from_json`` deeply nested JSON (``RecursionError``) and
whole numbers of thousands of digits (a bare ``ValueError`` from Python's int/str limit). Here every reader
— saves, records in both forms, rules, cards, moves, positions, seeds, views — is given nested and huge
values, random JSON, wrong types, NaN and Infinity, bytes, ``None``, and mutated valid saves and records
(hypothesis). Each either reads the input or raises a :class:`~cuarenta.CuarentaError` with a code, a
short English message and a Spanish one; never ``RecursionError``, ``KeyError``, ``TypeError``,
``AttributeError`` or a bare ``ValueError``, and never a message of megabytes.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cuarenta import Card, Claim, CuarentaError, Game, Move, Rules, SeatView, parse_action
from cuarenta.cards import parse_rank
from cuarenta.catalogue import messages
from cuarenta.events import event_from_dict
from cuarenta.jsontext import MAX_DEPTH, MAX_DIGITS, too_deep
from cuarenta.record import GameRecord
from cuarenta.results import ChicaResult, Outcome
from support.examples import examples

#: A message is a sentence or two, whatever the input (a nested reason adds a little).
MAX_MESSAGE = 2000
SETTINGS = settings(
    max_examples=examples(60),
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
)


def _game() -> Game:
    game = Game.new(Rules.preset("campeonato"), seed=9)
    for _ in range(14):
        game.play(game.legal_moves()[-1])
    return game


GAME = _game()
SAVE: dict[str, Any] = json.loads(GAME.to_json())
RECORD = GameRecord.from_game(GAME, seats=["Ana", "Beto", None, "bot:normal"], headers={"Date": "2026-12-01"})
RECORD_JSON: dict[str, Any] = json.loads(RECORD.to_json())
RECORD_TEXT = RECORD.to_text()
POSITION: dict[str, Any] = {
    "hands": [["7h", "Kc"], ["5d", "Qs"]],
    "table": ["3c", "4d", "Js"],
    "stock": [],
    "turn": 0,
    "dealer": 1,
    "piles": [
        "Ah As Ad Ac 2h 2s 2d 2c 3h 3s 3d 4h 4s 4c 5h 5s 5c 6h 6s 6d 6c 7s 7d",
        "7c Jh Jd Jc Qh Qd Qc Ks Kd Kh",
    ],
}
VIEW: dict[str, Any] = GAME.view(1).to_dict()


def refused_or_read(read: Callable[[], object]) -> CuarentaError | None:
    """Run a reader; it may read the input, and otherwise must raise a short, two-language engine error."""
    try:
        read()
    except CuarentaError as exc:
        message = str(exc)
        assert message and len(message) <= MAX_MESSAGE, (type(exc).__name__, message[:300])
        assert exc.code, message
        spanish = exc.text("es")
        assert spanish and len(spanish) <= MAX_MESSAGE, spanish[:300]
        assert json.loads(json.dumps(exc.to_dict())) == exc.to_dict()
        return exc
    return None


# -- values an attacker sends ------------------------------------------------------------------------
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(10**60), max_value=10**60),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    st.sampled_from(["7h", "Kc", "claim 4d", "7h x3c+4d,Js", "a_todo_rigor", "campeonato", "", " "]),
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=12), inner, max_size=5),
    max_leaves=25,
)


def nested(depth: int, kind: str) -> Any:
    """A list or dict nested ``depth`` deep, built without recursion."""
    value: Any = 1
    for _ in range(depth):
        value = [value] if kind == "list" else {"a": value}
    return value


#: Python values no JSON text holds, and values too big to show.
odd_values = st.one_of(
    st.binary(max_size=20),
    st.builds(lambda d, k: nested(d, k), st.integers(MAX_DEPTH + 1, 3000), st.sampled_from(["list", "dict"])),
    st.builds(lambda n: 10**n, st.integers(MAX_DIGITS + 1, 6000)),
    st.builds(lambda n: "x" * n, st.integers(10_000, 200_000)),
    st.builds(lambda n: "7h x" + "3c+" * n, st.integers(1000, 20_000)),
    st.just(float("nan")),
    st.just(math.inf),
    st.just(object()),
    st.just({1: 2, "a": 3}),
    st.just((Card("7h"), 10**5000)),
)
anything = st.one_of(json_values, odd_values)

#: JSON texts: broken, nested, with huge numbers or constants that are not JSON.
json_texts = st.one_of(
    st.text(max_size=200),
    json_values.map(lambda v: json.dumps(v, allow_nan=True)),
    st.builds(lambda n: "[" * n + "]" * n, st.integers(MAX_DEPTH + 1, 100_000)),
    st.builds(lambda n: "[" * n, st.integers(MAX_DEPTH + 1, 100_000)),
    st.builds(lambda n: '{"a":' * n + "1" + "}" * n, st.integers(MAX_DEPTH + 1, 20_000)),
    st.builds(lambda n: "9" * n, st.integers(MAX_DIGITS + 1, 10_000)),
    st.builds(lambda n: '{"seed": -' + "1" * n + "}", st.integers(4000, 6000)),
    st.sampled_from(["NaN", "[Infinity]", '{"a": -Infinity}', "", "null", "{", "\ufeff{}", '"\\ud800"']),
)
byte_texts = st.one_of(st.binary(max_size=60), json_texts.map(lambda t: t.encode("utf-16")))


def replace_at(data: Any, rng: st.DataObject, value: Any) -> Any:
    """``data`` (a JSON value) with one node, picked by hypothesis, replaced by ``value``."""
    copy = json.loads(json.dumps(data))  # (data is a valid save, record or view)
    node = copy
    while True:
        children = (
            list(node.items())
            if isinstance(node, dict)
            else list(enumerate(node))
            if isinstance(node, list)
            else []
        )
        if not children:
            return value if node is copy else copy
        key, child = rng.draw(st.sampled_from(children))
        if not isinstance(child, dict | list) or rng.draw(st.booleans()):
            node[key] = value
            return copy
        node = child


def mutate_text(text: str, rng: st.DataObject) -> str:
    """``text`` with a few characters deleted, doubled or replaced."""
    chars = list(text)
    for _ in range(rng.draw(st.integers(1, 4))):
        i = rng.draw(st.integers(0, max(0, len(chars) - 1)))
        how = rng.draw(st.sampled_from(["delete", "double", "replace", "insert"]))
        if how == "delete" and chars:
            del chars[i]
        elif how == "double" and chars:
            chars.insert(i, chars[i])
        else:
            new = rng.draw(
                st.sampled_from(['"', "[", "]", "{", "}", "\\", "9" * 5000, "-", "²", "\x00", "\n", ","])
            )
            chars[i : i + (how == "replace")] = [new]
    return "".join(chars)


# -- the readers ---------------------------------------------------------------------------------------
TEXT_READERS: dict[str, Callable[[Any], object]] = {
    "Game.from_json": Game.from_json,
    "GameRecord.from_json": GameRecord.from_json,
    "GameRecord.from_json(lenient)": lambda t: GameRecord.from_json(t, strict=False),
    "GameRecord.from_text": GameRecord.from_text,
    "GameRecord.from_text(lenient)": lambda t: GameRecord.from_text(t, strict=False),
}
VALUE_READERS: dict[str, Callable[[Any], object]] = {
    "Game.from_dict": Game.from_dict,
    "GameRecord.from_dict": GameRecord.from_dict,
    "GameRecord.from_dict(lenient)": lambda v: GameRecord.from_dict(v, strict=False),
    "Rules.from_dict": Rules.from_dict,
    "Rules.preset": Rules.preset,
    "Card": Card,
    "Card.parse": Card.parse,
    "Card.parse_many": Card.parse_many,
    "parse_rank": parse_rank,
    "Move.parse": Move.parse,
    "Claim.parse": Claim.parse,
    "parse_action": parse_action,
    "Game.new(seed)": lambda v: Game.new(seed=v),
    "Game.play": lambda v: GAME.copy().play(v),
    "SeatView.from_dict": SeatView.from_dict,
    "event_from_dict": event_from_dict,
    "ChicaResult.from_dict": ChicaResult.from_dict,
    "Outcome.from_dict": Outcome.from_dict,
    "GameRecord(actions)": lambda v: GameRecord(Rules(), seed=1, actions=v),
    "GameRecord(headers)": lambda v: GameRecord(Rules(), seed=1, headers=v),
    "GameRecord(seed)": lambda v: GameRecord(Rules(), seed=v),
    "GameRecord.from_game": GameRecord.from_game,
}


@pytest.mark.parametrize("reader", list(TEXT_READERS), ids=list(TEXT_READERS))
@SETTINGS
@given(text=st.one_of(json_texts, byte_texts, anything))
def test_a_text_reader_raises_only_engine_errors(reader: str, text: Any) -> None:
    refused_or_read(lambda: TEXT_READERS[reader](text))


@pytest.mark.parametrize("reader", list(VALUE_READERS), ids=list(VALUE_READERS))
@SETTINGS
@given(value=anything)
def test_a_value_reader_raises_only_engine_errors(reader: str, value: Any) -> None:
    refused_or_read(lambda: VALUE_READERS[reader](value))


@SETTINGS
@given(options=st.dictionaries(st.sampled_from([*Rules().to_dict(), "colour"]), anything, max_size=4))
def test_rules_of_any_values_raise_only_rules_errors(options: dict[str, Any]) -> None:
    refused_or_read(lambda: Rules.from_dict(options))
    refused_or_read(lambda: Rules().replace(**options))


@SETTINGS
@given(rng=st.data(), value=anything)
def test_a_position_of_any_values_raises_only_position_errors(rng: st.DataObject, value: Any) -> None:
    args = dict(POSITION)
    args[rng.draw(st.sampled_from([*POSITION, "scores", "chicas", "last_drop", "rondas", "seed"]))] = value
    refused_or_read(lambda: Game.from_position(Rules(), **args))


@SETTINGS
@given(rng=st.data(), value=anything, which=st.sampled_from(["save", "record", "view"]))
def test_a_valid_save_or_record_with_one_value_changed(rng: st.DataObject, value: Any, which: str) -> None:
    base = {"save": SAVE, "record": RECORD_JSON, "view": VIEW}[which]
    changed = replace_at(base, rng, value)
    readers: list[Callable[[], object]] = {
        "save": [lambda: Game.from_dict(changed)],
        "record": [
            lambda: GameRecord.from_dict(changed),
            lambda: GameRecord.from_dict(changed, strict=False),
        ],
        "view": [lambda: SeatView.from_dict(changed)],
    }[which]
    for read in readers:
        refused_or_read(read)
    try:
        text = json.dumps(changed, allow_nan=True)
    except (TypeError, ValueError, RecursionError):  # a value JSON cannot write: read as a dict above
        return
    if which != "view":
        refused_or_read(lambda: Game.from_json(text) if which == "save" else GameRecord.from_json(text))


@SETTINGS
@given(rng=st.data(), which=st.sampled_from(["save", "record json", "record text"]))
def test_a_valid_save_or_record_with_its_text_mutated(rng: st.DataObject, which: str) -> None:
    base = {"save": GAME.to_json(), "record json": RECORD.to_json(), "record text": RECORD_TEXT}[which]
    text = mutate_text(base, rng)
    if which == "save":
        refused_or_read(lambda: Game.from_json(text))
    elif which == "record json":
        refused_or_read(lambda: GameRecord.from_json(text))
    else:
        refused_or_read(lambda: GameRecord.from_text(text))
        refused_or_read(lambda: GameRecord.from_text(text, strict=False))


# -- the cases the attacker found, by name -------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("[" * 100_000 + "]" * 100_000, "json_too_deep"),
        ('{"a":' * 5000 + "1" + "}" * 5000, "json_too_deep"),
        ("[" * 5000, "json_too_deep"),
        ("1" * 5000, "json_number_too_long"),
        ('{"format": "cuarenta-game", "seed": ' + "7" * 4301 + "}", "json_number_too_long"),
        ('{"seed": NaN}', "json_constant"),
        ("[Infinity]", "json_constant"),
        (None, "json_not_text"),
        (b"\xff\xfe\xfd", "json_encoding"),
        ("{", "json_syntax"),
    ],
    ids=[
        "deep-list",
        "deep-object",
        "deep-open",
        "huge-int",
        "huge-seed",
        "nan",
        "infinity",
        "none",
        "bytes",
        "eof",
    ],
)
def test_the_attackers_inputs_are_record_errors_with_a_reason(text: Any, code: str) -> None:
    for reader, outer in ((Game.from_json, "save_not_json"), (GameRecord.from_json, "record_not_json")):
        exc = refused_or_read(lambda: reader(text))  # noqa: B023
        assert exc is not None and exc.code == outer, exc
        assert exc.params["reason"]["code"] == code
        assert messages("es")[f"error.{code}"].split("{")[0] in exc.text("es")


def test_a_deep_value_in_a_python_dict_is_shown_short() -> None:
    deep = nested(100_000, "list")
    for read in (
        lambda: Game.from_dict({**SAVE, "seed": deep}),
        lambda: Game.from_dict({**SAVE, "actions": [deep]}),
        lambda: GameRecord.from_dict({**RECORD_JSON, "seats": deep}),
        lambda: Rules.from_dict({"target": deep}),
        lambda: Card(deep),
    ):
        exc = refused_or_read(read)
        assert exc is not None and "[[[" in str(exc) and len(str(exc)) < 300


def test_a_seed_of_more_digits_than_python_writes_is_refused() -> None:
    for read in (
        lambda: Game.new(seed=10**5000),
        lambda: Game.from_dict({**SAVE, "seed": 10**5000}),
        lambda: GameRecord(Rules(), seed=10**5000),
        lambda: GameRecord.from_dict({**RECORD_JSON, "seed": 10**5000}),
        lambda: GameRecord.from_text(RECORD_TEXT.replace('[Seed "9"]', f'[Seed "{"9" * 5000}"]')),
    ):
        exc = refused_or_read(read)
        assert exc is not None and exc.code == "seed_too_long", exc


def test_a_record_version_in_other_digits_is_refused_with_a_record_error() -> None:
    def with_version(version: str) -> str:
        return RECORD_TEXT.replace("cuarenta-record 2", f"cuarenta-record {version}")

    for text in (with_version("²"), with_version("٣"), with_version("9" * 5000)):
        exc = refused_or_read(lambda: GameRecord.from_text(text))  # noqa: B023
        assert exc is not None and "version" in str(exc)
    position = '[Seed "9"]\n[Position "hands=- turn=² dealer=0"]'
    exc = refused_or_read(lambda: GameRecord.from_text(RECORD_TEXT.replace('[Seed "9"]', position)))
    assert exc is not None and "not a seat number" in str(exc)


def test_too_deep_counts_levels_and_skips_strings() -> None:
    assert not too_deep("[" * MAX_DEPTH + "]" * MAX_DEPTH)
    assert too_deep("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    assert not too_deep(json.dumps({"a": "[" * 10_000, "b": ["{" * 500]}))
    assert not too_deep(json.dumps([[{"a": [[1]]}], [2]] * 1000))
