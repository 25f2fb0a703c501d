"""Game records (cuarenta.record): text and JSON forms, round trips, stored records, every error.

The format is described in docs/record-format.md; the stored records are in tests/data/records/.
They were written by GameRecord itself; the tests check facts about them worked out by hand (first
move, the deal it came from, final chicas and score) and that the writer still writes them exactly.
If the writer's layout changes on purpose, rewrite a text file with
``GameRecord.from_text(path.read_text()).to_text()``; if the engine's dealing changes, they no longer
replay and must be made again from new games.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from pathlib import Path
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cuarenta import CARDS, Card, Claim, Game, Move, RecordError, Rules, parse_action
from cuarenta.record import GameRecord
from support.examples import examples

DATA = Path(__file__).parent / "data" / "records"
DOCS = Path(__file__).parent.parent / "docs" / "record-format.md"

PRESETS = [
    ("a_todo_rigor", 2),
    ("a_todo_rigor", 4),
    ("todo_dos", 2),
    ("todo_dos", 4),
    ("basico", 2),
    ("campeonato", 4),
]

#: Every option changed from its a_todo_rigor value (and 4 players).
ALL_CHANGED = Rules(
    players=4,
    sum_cards="two",
    capture="manual",
    caida_limpia_points=2,
    ronda_points=4,
    four_of_a_kind="points",
    caida_ronda_points=6,
    ronda_limit=None,
    treinta_y_ocho=False,
    cuatro_caidas_gana=True,
    carton_short="dos_por_dar",
    caida_across_deals=True,
    carton_cap=30,
    target=20,
    chicas=3,
    zapatero_wins_mesa=True,
)


def random_game(rules: Rules, seed: int | str, rng_seed: int, limit: int | None = None) -> Game:
    """A game played by uniformly random legal actions, to the end of the mesa or ``limit`` actions."""
    game = Game.new(rules, seed=seed)
    rng = random.Random(rng_seed)
    while not game.is_over and (limit is None or len(game.actions) < limit):
        game.play(rng.choice(game.legal_moves()))
    return game


def assert_same_game(a: Game, b: Game) -> None:
    assert a.state_summary() == b.state_summary()
    assert a.events == b.events
    assert a.to_dict() == b.to_dict()


def small_record(**changes: Any) -> GameRecord:
    """A short basico record (4 actions, a caída in it), optionally changed."""
    game = Game.new(Rules.preset("basico"), seed=7)
    for _ in range(4):
        game.play(game.legal_moves()[0])
    record = GameRecord.from_game(game, seats=["Ana", "bot:normal"], headers={"Date": "2026-11-29"})
    return dataclasses.replace(record, **changes) if changes else record


SMALL_TEXT = small_record().to_text()


def read_error(text: str) -> str:
    """The message of the RecordError a strict read of ``text`` raises."""
    with pytest.raises(RecordError) as info:
        GameRecord.from_text(text)
    assert isinstance(info.value, ValueError)
    return str(info.value)


def with_line(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


# -- round trips -------------------------------------------------------------------------------------
@pytest.mark.parametrize(("preset", "players"), PRESETS)
@pytest.mark.parametrize("seed", [1, 2])
def test_complete_games_round_trip_text_json_and_replay(preset: str, players: int, seed: int) -> None:
    game = random_game(Rules.preset(preset, players), seed, seed + 50)
    assert game.is_over
    record = GameRecord.from_game(game, seats=[f"seat {i}" for i in range(players)], headers={"Event": "t"})
    text = record.to_text()
    from_text = GameRecord.from_text(text)
    assert from_text == record
    assert from_text.errors == ()
    assert from_text.to_text() == text  # the writer's text is a fixed point
    from_json = GameRecord.from_json(from_text.to_json())
    assert from_json == record
    assert GameRecord.from_text(from_json.to_text(comments=False)) == record
    for again in (from_text, from_json):
        assert_same_game(again.replay(), game)
    assert record.result == game.outcome.winner  # type: ignore[union-attr]
    assert record.chicas == game.chicas and record.score == game.score


@settings(max_examples=examples(25), deadline=None)
@given(
    preset=st.sampled_from(PRESETS),
    seed=st.one_of(st.integers(-(10**20), 10**20), st.text(max_size=12)),
    rng_seed=st.integers(0, 10**6),
    limit=st.integers(0, 120),
)
def test_unfinished_games_round_trip(
    preset: tuple[str, int], seed: int | str, rng_seed: int, limit: int
) -> None:
    game = random_game(Rules.preset(*preset), seed, rng_seed, limit)
    record = GameRecord.from_game(game)
    for again in (GameRecord.from_text(record.to_text()), GameRecord.from_json(record.to_json())):
        assert again == record
        assert type(again.seed) is type(seed) and again.seed == seed
        assert_same_game(again.replay(), game)


@settings(max_examples=examples(40), deadline=None)
@given(
    names=st.lists(st.one_of(st.none(), st.text()), min_size=2, max_size=2),
    headers=st.dictionaries(st.from_regex(r"[A-Z][a-z]{2,8}", fullmatch=True), st.text(), max_size=3),
    event=st.text(),
)
def test_whatever_names_and_headers_a_record_accepts_round_trip(
    names: list[str | None], headers: dict[str, str], event: str
) -> None:
    try:
        record = small_record(seats=tuple(names), headers=tuple({**headers, "Event": event}.items()))
    except RecordError as exc:  # a reserved or misspelt tag name, or a bad Date
        assert "header" in str(exc) or "tag" in str(exc) or "Date" in str(exc)
        return
    assert GameRecord.from_text(record.to_text()) == record
    assert GameRecord.from_json(record.to_json()) == record


def test_text_seed_that_looks_like_a_number_keeps_its_type() -> None:
    for seed in ("42", "0", "-7", "007", " 5"):
        record = GameRecord.from_game(Game.new(seed=seed))
        text = record.to_text()
        assert ('[SeedType "text"]' in text) == (seed in ("42", "0", "-7"))
        again = GameRecord.from_text(text)
        assert again.seed == seed and isinstance(again.seed, str)
    assert (
        GameRecord.from_text(with_line(SMALL_TEXT, '[Seed "7"]', '[Seed "7"] [SeedType "integer"]')).seed == 7
    )


def test_every_option_is_written_and_read_back() -> None:
    game = random_game(ALL_CHANGED, 3, 3, limit=60)
    record = GameRecord.from_game(game)
    text = record.to_text()
    assert '[Rules "campeonato"]' in text  # the preset needing the fewest Option lines
    options = re.findall(r'\[Option "(\w+)=([^"]*)"\]', text)
    assert ("zapatero_wins_mesa", "on") in options and ("carton_cap", "30") in options
    assert ("treinta_y_ocho", "off") in options and ("sum_cards", "two") in options
    again = GameRecord.from_text(text)
    assert again.rules == ALL_CHANGED
    assert_same_game(again.replay(), game)
    assert GameRecord.from_json(record.to_json()).rules == ALL_CHANGED


def test_options_read_in_any_spelling_over_a_custom_base() -> None:
    text = with_line(SMALL_TEXT, '[Rules "basico"]', '[Rules "custom"]')
    for name, value in [
        ("caida_ronda_points", "0"),
        ("ronda_limit", "off"),
        ("treinta_y_ocho", "false"),
        ("chicas", " 1 "),
    ]:
        text = with_line(text, '[Seed "7"]', f'[Option "{name}={value}"]\n[Seed "7"]')
    assert GameRecord.from_text(text).rules == Rules.preset("basico")


def test_starting_position_round_trips() -> None:
    record = GameRecord.from_text((DATA / "position-unfinished.cuarenta").read_text())
    assert record.start is not None
    assert GameRecord.from_json(record.to_json()) == record
    game = record.replay()
    again = GameRecord.from_game(game, seats=record.seats, headers=record.headers)
    assert again == record
    assert again.to_text() == record.to_text()


def test_lenient_reading_of_a_clean_record_finds_nothing() -> None:
    record = GameRecord.from_text(SMALL_TEXT, strict=False)
    assert record == small_record() and record.errors == ()


def test_movetext_is_read_loosely_spaced_numbered_and_commented() -> None:
    head = SMALL_TEXT[: SMALL_TEXT.index("{hand")]
    moves = "; the first round\n 4c\n{a comment\n over two lines} Qs 7. Qd   x  Qs {caída} Kc ;end"
    assert GameRecord.from_text(head + moves) == small_record()
    crlf = "\ufeff" + (head + "4c Qs Qd xQs Kc").replace("\n", "\r\n")
    assert GameRecord.from_text(crlf) == small_record()
    several = head.replace('[Players "2"]\n[Seat0 "Ana"]', '[Players "2"] [Seat0 "Ana"]  ; two tags')
    assert GameRecord.from_text(several + "4c Qs Qd xQs Kc") == small_record()


def test_claims_with_spread_cards_are_read() -> None:
    game = random_game(Rules.preset("campeonato", 4), 0, 100)
    claims = [a for a in game.actions if isinstance(a, Claim) and len(a.cards) > 1]
    assert claims
    record = GameRecord.from_game(game)
    text = record.to_text(comments=False)
    spread = text.replace(f"{claims[0]}", "claim " + ", ".join(str(c) for c in claims[0].cards), 1)
    assert spread != text
    assert GameRecord.from_text(spread) == record


def test_from_game_headers_as_pairs_are_ordered_known_first() -> None:
    record = small_record(headers=(("Annotator", "Beto"), ("Date", "2026-11-29"), ("Event", "E")))
    assert [k for k, _ in record.headers] == ["Event", "Date", "Annotator"]
    assert (record.event, record.date, record.site, record.header("Annotator")) == (
        "E",
        "2026-11-29",
        None,
        "Beto",
    )


def test_record_built_in_code_and_its_repr() -> None:
    texts: Any = ("4c", "Qs", "Qd xQs", "Kc")  # text is accepted and parsed
    record = GameRecord(Rules.preset("basico"), seed=7, actions=texts, result=None)
    assert record.actions[2] == Move.parse("Qd xQs")
    assert record.seats == (None, None) and not record.finished
    assert record.replay().score == (0, 2)
    assert repr(record) == "<GameRecord basico players=2 seed=7 actions=4 result=*>"
    assert hash(record) == hash(dataclasses.replace(record))


def test_a_record_that_does_not_replay_is_still_written() -> None:
    actions = tuple(parse_action(t) for t in ("4c", "Qs", "Qd xQh", "Kc"))
    record = GameRecord(Rules.preset("basico"), seed=7, actions=actions)
    text = record.to_text()
    assert "{the moves below do not replay: Qh is not on the table" in text
    assert "Qd xQh Kc" in text
    assert "action 3 'Qd xQh' (seat 1, hand 1): Qh is not on the table" in read_error(text)


# -- stored records (written by this module; facts checked by hand) ------------------------------------
def stored(name: str) -> GameRecord:
    path = DATA / name
    text = path.read_text(encoding="utf-8")
    record = GameRecord.from_json(text) if name.endswith(".json") else GameRecord.from_text(text)
    if name.endswith(".cuarenta"):
        assert record.to_text() == text, f"{name} is not what the writer writes today"
    return record


def test_stored_records_all_read() -> None:
    names = sorted(p.name for p in DATA.iterdir())
    assert len(names) >= 5
    for name in names:
        record = stored(name)
        assert record.errors == ()
        game = record.replay()
        assert GameRecord.from_game(game, seats=record.seats, headers=record.headers) == record


def test_stored_a_todo_rigor_two_players() -> None:
    record = stored("a_todo_rigor-2p.cuarenta")
    assert record.rules == Rules.preset("a_todo_rigor") and record.seed == 5
    assert record.seats == ("Ana", "bot:random")
    assert (record.event, record.site, record.date) == ("Test mesa", "Quito", "2026-11-29")
    # By hand: seat 0 deals, so seat 1 plays first, the Kc, which was dealt to it; the deal
    # gave seat 1 a ronda of queens (2 points before anyone plays).
    first = Game.new(record.rules, 5)
    assert first.dealer == 0 and first.turn == 1 and Card("Kc") in first.hand(1)
    assert first.score == (0, 2)
    assert record.actions[0] == Move.parse("Kc")
    game = record.replay()
    assert (record.result, record.chicas, record.score) == (0, (2, 1), (40, 32))
    assert game.outcome is not None and game.outcome.chicas == (2, 1)
    # chica 2 went to team 1 with team 0 on 0 points: platillo
    assert [(r.winner, r.scores, r.platillo) for r in game.chica_results] == [
        (0, (42, 32), False),
        (1, (0, 40), True),
        (0, (40, 32), False),
    ]
    assert any(e.kind == "caida_ronda" and e.points == 10 for e in game.events)  # type: ignore[attr-defined]


def test_stored_todo_dos_four_players() -> None:
    record = stored("todo_dos-4p.cuarenta")
    assert record.rules == Rules.preset("todo_dos", 4) and record.players == 4
    assert record.seats == ("Ana", "Beto", "Carla", "Diego") and record.header("Round") == "2"
    assert (record.result, record.chicas, record.score) == (0, (2, 1), (40, 14))
    game = record.replay()
    # todo dos: the caída a la ronda is worth 4
    assert [e.points for e in game.events if e.kind == "caida_ronda"] == [4]  # type: ignore[attr-defined]
    assert [r.zapatero for r in game.chica_results] == [True, False, False]


def test_stored_campeonato_with_claims() -> None:
    record = stored("campeonato-4p.cuarenta")
    assert record.rules.capture == "manual"
    assert sum(isinstance(a, Claim) for a in record.actions) == 22
    assert record.actions[0] == Move.parse("As")
    assert (record.result, record.chicas, record.score) == (0, (2, 0), (40, 38))
    # the mesa ends with a caída at 38 (R20: only a caída scores), the Kh on the Kc just dropped
    assert record.actions[-1] == Move.parse("Kh xKc")
    game = record.replay()
    last = [e for e in game.events if e.kind == "caida"][-1]
    assert (last.card, last.points, last.team) == (Card("Kc"), 2, 0)  # type: ignore[attr-defined]


def test_a_version_1_record_keeps_the_presets_of_its_time() -> None:
    """Format version 1 (cuarenta 0.1) named ``campeonato`` when that preset scored caída y limpia 4;
    docs/rules.md now gives it 2. The old file still reads as the game it recorded, and is rewritten as
    version 2 with the difference as an Option line."""
    old = (DATA.parent / "records-v1" / "campeonato-4p.cuarenta").read_text(encoding="utf-8")
    assert '[Format "cuarenta-record 1"]' in old and "caida_limpia_points" not in old
    record = GameRecord.from_text(old)
    assert record.errors == ()
    assert record.rules == Rules.preset("campeonato").replace(caida_limpia_points=4)
    assert Rules.preset("campeonato").caida_limpia_points == 2
    assert record == stored("campeonato-4p.cuarenta")
    text = record.to_text()
    assert '[Format "cuarenta-record 2"]' in text and '[Option "caida_limpia_points=4"]' in text
    # the same moves under today's campeonato preset are a different game (written as version 2)
    today = GameRecord.from_text(text.replace('[Option "caida_limpia_points=4"]\n', ""), strict=False)
    assert today.rules == Rules.preset("campeonato") and today.errors


def test_stored_basico_json() -> None:
    record = stored("basico-2p.json")
    assert record.rules == Rules.preset("basico") and record.date == "2026-11-29"
    assert record.actions[0] == Move.parse("4d") and len(record.actions) == 177
    assert (record.result, record.chicas, record.score) == (0, (1, 0), (42, 28))
    assert GameRecord.from_text(record.to_text()) == record


def test_stored_custom_rules_and_text_seed() -> None:
    record = stored("custom-2p.cuarenta")
    assert record.seed == "tarde del domingo"
    assert record.rules == Rules.preset("todo_dos").replace(
        sum_cards="two", target=30, ronda_limit=20, carton_cap=30, chicas=1
    )
    assert record.actions[:4] == tuple(Move.parse(t) for t in ("6s", "4d", "4s x4d", "2d"))
    assert (record.result, record.chicas, record.score) == (0, (1, 0), (30, 16))


def test_stored_position_unfinished() -> None:
    record = stored("position-unfinished.cuarenta")
    assert record.start is not None and record.start["scores"] == [36, 20]
    assert [str(a) for a in record.actions] == ["Jc xJs", "7h x3c+4d", "Qs"]
    assert (record.result, record.chicas, record.score) == (None, (1, 0), (38, 30))
    events = record.replay().events
    # R18: Js dropped by seat 0, who announced a ronda of jacks; the Jc falls on it: 10 points
    assert [(e.kind, e.points) for e in events if e.kind != "play"] == [  # type: ignore[attr-defined]
        ("caida_ronda", 10),
        ("limpia", 2),
    ]


def test_docs_example_is_a_valid_record_written_exactly_so() -> None:
    docs = DOCS.read_text(encoding="utf-8")
    block = re.search(r"```text\n(\[Format .*?)```", docs, re.S)
    assert block is not None
    text = block.group(1)
    record = GameRecord.from_text(text)
    assert record.to_text() == text
    game = record.replay()
    assert game.outcome is not None and game.outcome.winner == 0 and game.score == (44, 18)
    assert record.seats == ("Ana", "bot:random") and record.rules.preset_name == "basico"


# -- errors: text form ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("old", "new", "fragments"),
    [
        ('[Format "cuarenta-record 2"]', "", ["no [Format", "Cuarenta record"]),
        ('[Format "cuarenta-record 2"]', '[Format "pgn 1"]', ["line 1", "not a Cuarenta record"]),
        (
            '[Format "cuarenta-record 2"]',
            '[Format "cuarenta-record 3"]',
            ["line 1", "version 3", "not supported"],
        ),
        (
            '[Format "cuarenta-record 2"]',
            '[Format "cuarenta-record one"]',
            ["line 1", "version must be a number"],
        ),
        ('[Seed "7"]', "[Seed 7]", ["line 7", "malformed tag '[Seed 7]'"]),
        ('[Seat0 "Ana"]', '[Seat0 "A\\na\\q"]', ["line 4", "unknown escape '\\q'"]),
        ('[Seed "7"]', '[Seed "7"]\n[Seed "8"]', ["line 8", "[Seed] is given twice"]),
        ('[Seed "7"]', '[Sed "7"]', ["line 7", "did you mean [Seed]"]),
        ('[Seed "7"]', '[seed "7"]', ["line 7", "did you mean [Seed]"]),
        ('[Date "2026-11-29"]', '[Date "29/11/2026"]', ["line 2", "not a date", "YYYY-MM-DD"]),
        ('[Date "2026-11-29"]', '[Date "2026-02-30"]', ["line 2", "not a date"]),
        ('[Players "2"]', "", ["no [Players"]),
        ('[Players "2"]', '[Players "3"]', ["line 3", "2 or 4"]),
        ('[Seat1 "bot:normal"]', '[Seat2 "bot:normal"]', ["line 5", "seats are 0..1"]),
        ('[Rules "basico"]', "", ["no [Rules"]),
        ('[Rules "basico"]', '[Rules "rigor"]', ["line 6", "unknown preset 'rigor'"]),
        ('[Rules "basico"]', '[Rules "campeonato"]', ["line 6", "4 players"]),
        ('[Rules "basico"]', '[Rules "basico"]\n[Option "target"]', ["line 7", "write name=value"]),
        (
            '[Rules "basico"]',
            '[Rules "basico"]\n[Option "colour=red"]',
            ["line 7", "unknown option 'colour'"],
        ),
        ('[Rules "basico"]', '[Rules "basico"]\n[Option "players=4"]', ["line 7", "[Players] tag"]),
        ('[Rules "basico"]', '[Rules "basico"]\n[Option "target=forty"]', ["line 7", "target='forty'"]),
        ('[Rules "basico"]', '[Rules "basico"]\n[Option "treinta_y_ocho=maybe"]', ["line 7", "on or off"]),
        ('[Rules "basico"]', '[Rules "basico"]\n[Option "target=41"]', ["line 7", "even number"]),
        (
            '[Rules "basico"]',
            '[Rules "basico"]\n[Option "capture=sometimes"]',
            ["line 7", "capture='sometimes'"],
        ),
        (
            '[Rules "basico"]',
            '[Rules "basico"]\n[Option "target=30"]\n[Option "target=20"]',
            ["line 8", "set twice"],
        ),
        (
            '[Rules "basico"]',
            '[Rules "a_todo_rigor"]\n[Option "target=20"]',
            ["line 7", "ronda_limit=30", "between 1 and the target 20"],
        ),
        ('[Seed "7"]', '[Seed "7"] [SeedType "binary"]', ["line 7", "SeedType 'binary'"]),
        ('[Seed "7"]', '[Seed "x7"] [SeedType "integer"]', ["line 7", "not a whole number"]),
        ('[Result "*"]', "", ["no [Result]"]),
        ('[Result "*"]', '[Result "2"]', ["line 8", "Result '2'"]),
        ('[Result "*"]', '[Result "0"]', ["line 8", "Result '0' (team 0 won) contradicts", "not over"]),
        ('[Chicas "0-0"]', '[Chicas "1-0"]', ["line 9", "Chicas '1-0' contradicts", "gives 0-0"]),
        ('[Chicas "0-0"]', '[Chicas "one"]', ["line 9", "'one' is not two numbers"]),
        ('[Score "0-2"]', '[Score "2-0"]', ["line 10", "Score '2-0' contradicts", "gives 0-2"]),
        ("Qd xQs", "Qd xQh", ["line 13", "action 3 'Qd xQh' (seat 1, hand 1)", "Qh is not on the table"]),
        ("Qd xQs", "Qd", ["line 13", "action 3 'Qd'", "capturing is compulsory", "open to it: Qd xQs"]),
        ("4c Qs", "4c Qs Kc", ["line 13", "action 3 'Kc'", "Kc is not in the hand of seat 1"]),
        ("4c Qs", "4c 7x", ["line 13", "action 2", "'7x' is not a move"]),
        ("Kc", "Kc claim", ["line 13", "action 5", "name the cards claimed"]),
        ("Kc", "Kc claim 4c", ["line 13", "action 5 'claim 4c'", "nothing to claim"]),
        ("Kc", 'Kc\n[Event "late"]', ["line 14", "tag [Event] after the moves"]),
        ("Kc", "Kc\n{no end", ["line 14", "never closed"]),
        ("{hand 1, dealer 0}", "hand 1, dealer 0}", ["line 12", "closes no comment"]),
    ],
)
def test_text_errors(old: str, new: str, fragments: list[str]) -> None:
    message = read_error(with_line(SMALL_TEXT, old, new))
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "the record is empty"),
        ("  \n\n", "the record is empty"),
        (SMALL_TEXT.replace('[Seed "7"]\n', ""), "no [Seed] tag"),
        (
            SMALL_TEXT.replace("[Position", "").replace('[Seed "7"]', '[Seed "7"]\n[Position "hands=7h"]'),
            "Position",
        ),
        (small_record().to_json(), "read it with GameRecord.from_json"),
    ],
)
def test_text_errors_even_a_lenient_reader_cannot_pass(text: str, fragment: str) -> None:
    for strict in (True, False):
        with pytest.raises(RecordError, match=re.escape(fragment)):
            GameRecord.from_text(text, strict=strict)


def test_text_error_for_bytes() -> None:
    with pytest.raises(RecordError, match="must be text, not bytes"):
        GameRecord.from_text(SMALL_TEXT.encode())  # type: ignore[arg-type]


def test_impossible_position_is_refused_with_the_engine_reason() -> None:
    text = (DATA / "position-unfinished.cuarenta").read_text()
    message = read_error(text.replace("turn=1", "turn=0"))
    assert "line 8: Position" in message and "turn=0" in message
    for old, new, fragment in [
        ("rondas=0:J", "rondas=0:J hands=7h", "field 'hands' is given twice"),
        ("dealer=1", "dealer=one", "dealer='one' is not a seat number"),
        ("rondas=0:J", "rondas=J", "ronda 'J' is not seat:rank"),
        ("rondas=0:J", "rondas=0:J colour=red", "unknown field 'colour'"),
        ("scores=36-20", "scores", "'scores' is not key=value"),
        ("scores=36-20", "scores=36", "'36' is not two numbers"),
        ("rondas=0:J", "rondas=0:X", "rondas"),
        ("scores=36-20", "scores=37-20", "37"),
    ]:
        message = read_error(with_line(text, old, new))
        assert message.startswith("line 8: Position: ") and fragment in message, message
    assert "field 'hands' is missing" in read_error(text.replace("hands=7h,Kc/Qs,5d,Jc ", ""))
    assert "Kc" in read_error(text.replace("hands=7h,Kc", "hands=7h,Kc,Kc"))


def test_actions_after_the_mesa_ended() -> None:
    text = (DATA / "custom-2p.cuarenta").read_text()
    message = read_error(text.rstrip("\n") + " 5h\n")
    assert "the mesa is already over (team 0 won it)" in message
    assert re.search(r"line \d+: action \d+ '5h'", message)


# -- errors: lenient reading ---------------------------------------------------------------------------
def test_lenient_illegal_move_keeps_the_moves_before_and_the_replay_result() -> None:
    record = GameRecord.from_text(with_line(SMALL_TEXT, "Qd xQs", "Qd xQh"), strict=False)
    assert [str(a) for a in record.actions] == ["4c", "Qs"]
    assert (record.result, record.chicas, record.score) == (None, (0, 0), (0, 0))
    assert len(record.errors) == 2
    assert record.errors[0].startswith("line 13: action 3 'Qd xQh'")
    assert "Score '0-2' contradicts" in record.errors[1]
    # what the lenient reader returns is a clean record
    assert GameRecord.from_text(record.to_text()) == record


def test_lenient_collects_many_problems_and_keeps_the_rest() -> None:
    text = SMALL_TEXT
    text = with_line(text, '[Date "2026-11-29"]', '[Date "someday"]\n[Annotator "Beto"]')
    text = with_line(
        text, '[Rules "basico"]', '[Rules "basico"]\n[Option "colour=red"]\n[Option "target=30"]'
    )
    text = with_line(text, '[Seat0 "Ana"]', '[Seat0 "Ana"]\n[Seat0 "Eva"]\n[Seat5 "X"]')
    text = with_line(text, '[Result "*"]', '[Result "0"]')
    text = with_line(text, "Kc", 'Kc\n[Event "late"]')
    record = GameRecord.from_text(text, strict=False)
    assert record.rules == Rules.preset("basico").replace(target=30)
    assert record.seats == ("Ana", "bot:normal")
    assert record.headers == (("Event", "late"), ("Annotator", "Beto"))
    assert len(record.actions) == 4 and record.result is None
    problems = " | ".join(record.errors)
    for fragment in [
        "not a date",
        "unknown option 'colour'",
        "[Seat0] is given twice",
        "Seat5",
        "Result '0'",
    ]:
        assert fragment in problems
    assert "after the moves" in problems
    assert GameRecord.from_text(record.to_text()) == record


def test_numbers_too_long_for_python_are_refused_in_words() -> None:
    """A [SeatN] tag or an option with thousands of digits (Python's int() refuses 4,300, and str() of a
    big one as much) is a record error that says what is wrong, strict or lenient."""
    huge = "9" * 5000
    seat = with_line(SMALL_TEXT, '[Seat0 "Ana"]', f'[Seat0 "Ana"]\n[Seat{huge} "X"]')
    option = with_line(SMALL_TEXT, '[Rules "basico"]', f'[Rules "basico"]\n[Option "target={huge}"]')
    for text, words in ((seat, "names no seat"), (option, "the number is too large")):
        with pytest.raises(RecordError) as refused:
            GameRecord.from_text(text)
        assert words in str(refused.value) and len(str(refused.value)) < 400
        lenient = GameRecord.from_text(text, strict=False)
        assert any(words in problem for problem in lenient.errors), lenient.errors
        assert lenient.actions == small_record().actions
    # a long option number that fits is read as any other (and refused by the rules' own range)
    fits = with_line(SMALL_TEXT, '[Rules "basico"]', '[Rules "basico"]\n[Option "target=' + "9" * 18 + '"]')
    assert "too large" not in " ".join(GameRecord.from_text(fits, strict=False).errors)


def test_lenient_guesses_what_is_missing() -> None:
    text = SMALL_TEXT
    for tag in ('[Format "cuarenta-record 2"]\n', '[Players "2"]\n', '[Result "*"]\n'):
        text = text.replace(tag, "")
    record = GameRecord.from_text(text, strict=False)
    assert record == small_record()
    assert len(record.errors) == 3
    no_rules = GameRecord.from_text(
        with_line(SMALL_TEXT, '[Rules "basico"]', '[Rules "bsico"]'), strict=False
    )
    assert no_rules.rules == Rules() and "line 6: Rules 'bsico': unknown preset" in no_rules.errors[0]
    assert GameRecord.from_text(no_rules.to_text()) == no_rules


def test_lenient_options_that_cannot_go_together_keep_what_applies() -> None:
    text = with_line(SMALL_TEXT, '[Rules "basico"]', '[Rules "a_todo_rigor"]\n[Option "target=20"]')
    record = GameRecord.from_text(text, strict=False)
    assert record.rules.target == 40
    assert any("target" in e and "left out" in e for e in record.errors)


# -- errors: JSON form -----------------------------------------------------------------------------
def json_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(small_record().to_json())
    return data


def json_error(data: Any, strict: bool = True) -> str:
    with pytest.raises(RecordError) as info:
        GameRecord.from_json(json.dumps(data), strict=strict)
    return str(info.value)


@pytest.mark.parametrize(
    ("change", "fragments"),
    [
        (lambda d: d.update(format="pgn"), ["not a Cuarenta record", "'pgn'"]),
        (lambda d: d.update(version=3), ["version 3 is not supported"]),
        (lambda d: d.update(version=True), ["version True is not supported"]),
        (lambda d: d.pop("seed"), ["no 'seed'"]),
        (lambda d: d.pop("actions"), ["no 'actions'"]),
        (lambda d: d.update(actions="4c Qs"), ["actions must be a list"]),
        (lambda d: d["rules"].update(target=41), ["rules:", "even number"]),
        (lambda d: d["rules"].update(colour="red"), ["rules:", "unknown option"]),
        (lambda d: d.update(seed=True), ["seed True"]),
        (lambda d: d.update(seed=[7]), ["seed [7]"]),
        (lambda d: d.update(start={"hands": [["7h"], []], "turn": 0, "dealer": 1}), ["starting position"]),
        (lambda d: d.update(start={"colour": 1}), ["unknown field(s) colour"]),
        (lambda d: d.update(start=[1]), ["must be an object"]),
    ],
)
def test_json_errors_that_stop_any_reader(change: Any, fragments: list[str]) -> None:
    data = json_data()
    change(data)
    for strict in (True, False):
        message = json_error(data, strict)
        for fragment in fragments:
            assert fragment in message, f"{fragment!r} not in {message!r}"


@pytest.mark.parametrize(
    ("change", "fragments"),
    [
        (lambda d: d.update(colour="red"), ["unknown key(s) 'colour'"]),
        (lambda d: d.update(seats=["Ana"]), ["seats:", "one name (or None) for each of the 2 seats"]),
        (lambda d: d.update(seats=["Ana", 3]), ["seats:", "seat name 3"]),
        (lambda d: d.update(headers={"Seed": "1"}), ["headers:", "written by the record itself"]),
        (lambda d: d.update(headers={"Date": "tomorrow"}), ["headers:", "not a date"]),
        (lambda d: d.update(headers={"bad name": "x"}), ["headers:", "header name 'bad name'"]),
        (lambda d: d.update(headers=["Event"]), ["headers:", "must be an object"]),
        (
            lambda d: d["actions"].__setitem__(2, "Qd xQh"),
            ["actions[2]:", "action 3 'Qd xQh'", "not on the table"],
        ),
        (lambda d: d["actions"].__setitem__(1, 7), ["actions[1]:", "action 2", "not a move"]),
        (lambda d: d.update(result=None), ["result:", "must be an object"]),
        (lambda d: d["result"].update(winner=2), ["result.winner:", "winner 2"]),
        (lambda d: d["result"].update(winner=1), ["result.winner:", "Result '1' (team 1 won) contradicts"]),
        (lambda d: d["result"].update(chicas=[0, 1]), ["result.chicas:", "Chicas '0-1' contradicts"]),
        (lambda d: d["result"].update(score=[0, -2]), ["result:", "score must be two whole numbers"]),
        (lambda d: d["result"].update(score=[2, 2]), ["result.score:", "Score '2-2' contradicts"]),
    ],
)
def test_json_errors_strict_and_lenient(change: Any, fragments: list[str]) -> None:
    data = json_data()
    change(data)
    message = json_error(data)
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"
    record = GameRecord.from_json(json.dumps(data), strict=False)
    assert len(record.errors) >= 1 and fragments[-1] in record.errors[0]
    assert GameRecord.from_json(record.to_json()) == record  # the lenient result is a clean record
    record.replay()


def test_json_errors_for_what_is_not_a_json_record() -> None:
    cases: list[tuple[str | bytes, str]] = [
        ("{", "not valid JSON"),
        ("[1, 2]", "must be an object, not list"),
        (b"\xff", "JSON"),
    ]
    for text, fragment in cases:
        with pytest.raises(RecordError, match=re.escape(fragment)):
            GameRecord.from_json(text)
    assert GameRecord.from_dict(json_data()) == small_record()


# -- errors: records built in code -------------------------------------------------------------------
@pytest.mark.parametrize(
    ("changes", "fragment"),
    [
        ({"rules": "basico"}, "rules must be a Rules object"),
        ({"seed": 1.5}, "seed 1.5 must be a whole number or text"),
        ({"seed": False}, "seed False"),
        ({"actions": ("4c", "7x")}, "action 2: '7x' is not a move"),
        ({"actions": (4,)}, "action 1: 4 is not a move or a claim"),
        ({"seats": ("Ana",)}, "one name (or None) for each of the 2 seats"),
        ({"headers": (("Players", "4"),)}, "written by the record itself"),
        ({"headers": (("Seat1", "Eva"),)}, "written by the record itself"),
        ({"headers": (("event", "x"),)}, "did you mean [Event]? (tag names are case-sensitive"),
        ({"headers": (("Scores", "x"),)}, "did you mean [Score]?"),
        ({"headers": (("Event", "x"), ("Event", "y"))}, "header 'Event' is given twice"),
        ({"headers": (("Event",),)}, "(name, value) pairs"),
        ({"headers": (("Event", 3),)}, "value must be text"),
        ({"result": 2}, "result 2 must be the winning team"),
        ({"result": True}, "result True"),
        ({"chicas": (1,)}, "chicas must be two whole numbers"),
        ({"score": (1, "2")}, "score must be two whole numbers"),
        ({"start": {"hands": [["Ah"], []], "turn": 0, "dealer": 1}}, "starting position"),
    ],
)
def test_bad_records_built_in_code(changes: dict[str, Any], fragment: str) -> None:
    with pytest.raises(RecordError, match=re.escape(fragment)):
        small_record(**changes)


def test_from_game_refuses_reserved_headers() -> None:
    with pytest.raises(RecordError, match="'Result' is written by the record itself"):
        GameRecord.from_game(Game.new(), headers={"Result": "0"})


def test_replay_names_the_illegal_action_and_checks_the_result() -> None:
    record = small_record()
    bad = dataclasses.replace(
        record, actions=(*record.actions[:2], Move.parse("Qd xQh"), *record.actions[3:])
    )
    with pytest.raises(RecordError, match=r"^action 3 'Qd xQh' \(seat 1, hand 1\): Qh is not on the table"):
        bad.replay()
    with pytest.raises(RecordError, match=r"^Score '0-4' contradicts the replay, which gives 0-2"):
        dataclasses.replace(record, score=(0, 4)).replay()
    with pytest.raises(RecordError, match="Result '1'"):
        dataclasses.replace(record, result=1).replay()
    assert dataclasses.replace(record, chicas=None, score=None).replay().score == (0, 2)


def test_records_are_compared_without_their_errors() -> None:
    record = small_record()
    assert dataclasses.replace(record, errors=("something",)) == record
    assert dataclasses.replace(record, seats=("Ana", "Eva")) != record
    assert dataclasses.replace(record, headers=()) != record


def test_every_card_of_a_deal_is_in_the_position_text() -> None:
    record = GameRecord.from_text((DATA / "position-unfinished.cuarenta").read_text())
    assert record.start is not None
    position = re.search(r'\[Position "([^"]*)"\]', record.to_text())
    assert position is not None
    named = re.findall(r"\b[A2-7JQK][hsdc]\b", position.group(1))
    assert sorted(Card(c) for c in named if c != "Js") == sorted(c for c in CARDS if c != Card("Js"))


# -- robustness: damaged records --------------------------------------------------------------------------
EDIT_CHARS = [*'[]{}";\\\n =-,+x0123456789AKQJhsdc*', "claim ", "Seed", "Option"]
DAMAGE_BASES = [SMALL_TEXT, (DATA / "position-unfinished.cuarenta").read_text(encoding="utf-8")]


@settings(max_examples=examples(150), deadline=None)
@given(
    base=st.sampled_from(DAMAGE_BASES),
    edits=st.lists(
        st.tuples(
            st.floats(0, 1), st.sampled_from(["insert", "delete", "replace"]), st.sampled_from(EDIT_CHARS)
        ),
        min_size=1,
        max_size=4,
    ),
)
def test_damaged_text_gives_record_errors_only_and_lenient_records_are_clean(
    base: str, edits: list[tuple[float, str, str]]
) -> None:
    text = base
    for where, how, what in edits:
        i = int(where * len(text))
        if how == "insert":
            text = text[:i] + what + text[i:]
        elif how == "delete":
            text = text[:i] + text[i + 1 :]
        else:
            text = text[:i] + what + text[i + 1 :]
    for strict in (True, False):
        try:
            record = GameRecord.from_text(text, strict=strict)
        except RecordError:
            continue
        if not strict:
            assert GameRecord.from_text(record.to_text()) == record
            assert GameRecord.from_json(record.to_json()) == record


def test_json_start_with_true_false_or_fractions_is_refused() -> None:
    record = GameRecord.from_text((DATA / "position-unfinished.cuarenta").read_text())
    assert record.start is not None
    for key, value in [
        ("chicas", [True, 0]),
        ("turn", True),
        ("rondas", [[1.5, "J"]]),
        ("rondas", [[True, "J"]]),
    ]:
        data = json.loads(record.to_json())
        data["start"][key] = value
        with pytest.raises(RecordError, match="starting position"):
            GameRecord.from_json(json.dumps(data))


def test_engine_from_position_refuses_non_integer_ronda_seats_and_bool_chicas() -> None:
    from cuarenta import PositionError

    rest = [c for c in CARDS if c not in (Card("7h"), Card("Kc"))]
    kwargs: dict[str, Any] = {"hands": [["7h"], ["Kc"]], "turn": 0, "dealer": 1, "piles": [rest, []]}
    with pytest.raises(PositionError):
        Game.from_position(Rules(), rondas=[(cast(int, 1.5), "J")], **kwargs)
    with pytest.raises(PositionError):
        Game.from_position(Rules(), chicas=[True, 0], **kwargs)
