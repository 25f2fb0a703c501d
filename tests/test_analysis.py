"""The computer's analysis of a person's moves (issue 29, docs/analysis.md): ``cuarenta.analysis`` and
``cuarenta analyze``.

Worked positions (a caída let pass is graded and named; the best move is graded nothing), the seat's
knowledge only (cards the seat could not see, changed consistently with its view, change nothing for a
fixed seed), whole recorded mesas of 2 and 4 players (every turn of the seat judged or counted as forced,
in order, reproducible), and the command line in both languages with its refusals.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cuarenta import Game, Rules
from cuarenta.analysis import (
    GRADES,
    MOTIFS,
    THRESHOLDS,
    Review,
    analyst,
    analyze,
    grade,
    judge,
    motifs,
    split,
)
from cuarenta.analysis.points import points_worth
from cuarenta.catalogue import text
from cuarenta.cli.analyze import worlds_budget
from cuarenta.moves import Move
from cuarenta.players import act, make_player
from cuarenta.players.dificil import Budget
from cuarenta.record import GameRecord
from cuarenta.replay import Replay
from support.commands import run_cli
from support.examples import quick_first
from support.positions import position
from support.worlds import swapped_worlds

#: A small budget: whole mesas are analysed in a second or two.
SMALL = Budget(nodes=2000, min_worlds=4, max_worlds=8, depth=6, depth4=4)


def played_game(players: int, seed: int, preset: str = "a_todo_rigor") -> GameRecord:
    """A whole mesa of ``facil`` (seats 0, 2) against ``normal`` (seats 1, 3), as a record."""
    rules = Rules.preset(preset, players=players)
    game = Game.new(rules, seed=seed)
    bots = [make_player("facil" if s % 2 == 0 else "normal", f"{seed}/{s}") for s in range(players)]
    for s, bot in enumerate(bots):
        bot.start(s, rules)
    while not game.is_over:
        game.play(act(bots[game.turn], game))
    return GameRecord.from_game(game, seats=["Ana"] + [None] * (players - 1))


# -- grades and worked positions -----------------------------------------------------------------------------
def test_grades_follow_the_thresholds() -> None:
    assert list(THRESHOLDS) == list(GRADES)
    assert [THRESHOLDS[g] for g in GRADES] == sorted(THRESHOLDS.values())
    assert grade(0.0) is None and grade(THRESHOLDS["imprecision"] - 1e-9) is None
    for name in GRADES:
        assert grade(THRESHOLDS[name]) == name
    assert grade(1.0) == "grave"


def test_a_caida_let_pass_is_graded_and_named() -> None:
    game = position(hands=["5h Kc 2d", "6s Qd 7c"], table="5s Jd 3c", last_drop="5s", stock_size=20)
    caida = Move.parse("5h x5s")
    assert caida in game.legal_moves()
    decision = judge(game, Move.parse("Kc"), None, analyst("experto", "t", SMALL), ply=7)
    assert decision is not None
    assert decision.ply == 7 and decision.seat == 0 and decision.choices == 3
    assert decision.best == caida and decision.loss >= THRESHOLDS["imprecision"]
    assert decision.grade == grade(decision.loss)
    assert decision.motifs[0] == "missed_caida" and set(decision.motifs) <= set(MOTIFS)
    # the caída itself is the best move: nothing lost, nothing named
    best = judge(game, caida, None, analyst("experto", "t", SMALL))
    assert (
        best is not None
        and best.best == caida
        and best.loss == 0.0
        and best.grade is None
        and not best.motifs
    )


def test_a_move_with_no_choice_is_not_judged() -> None:
    game = position(hands=["5h", "6s"], stock_size=30)
    assert len(game.legal_moves()) == 1
    assert judge(game, game.legal_moves()[0], None, analyst("experto", 1, SMALL)) is None


def test_a_card_dropped_alone_that_the_rival_takes_is_named() -> None:
    """The last deal of a hand (it hides nothing from a card counter), an empty table, the rival at 36 (a
    caída y limpia wins it the chica) and holding the last king: the king dropped instead of the last
    queen is an error grave, named as the rival's caída y limpia and as the risk the seat could see."""
    game = position(hands=["Kc Qd", "Kh 2s"], piles=["Qh Qs Qc", ""], scores=(34, 36))
    decision = judge(game, Move.parse("Kc"), Move.parse("Kh xKc"), analyst("experto", 2, SMALL))
    assert decision is not None and decision.best == Move.parse("Qd")
    assert decision.grade == "grave"
    assert decision.motifs == ("risky_drop", "left_caida_limpia")
    # had the rival dropped something else, only the risk is named
    calm = judge(game, Move.parse("Kc"), Move.parse("2s"), analyst("experto", 2, SMALL))
    assert calm is not None and calm.motifs == ("risky_drop",)


def test_the_motifs_of_a_manual_capture_and_of_a_ronda() -> None:
    manual = position(Rules(capture="manual"), hands=["7h Kc", "2s 2d"], table="3c 4d Js Ah", stock_size=20)
    short, full = Move.parse("7h x3c+4d"), Move.parse("7h x3c+4d,Js")
    assert short in manual.legal_moves() and full in manual.legal_moves()
    assert motifs(manual, short, full, None) == ("forgot_cards",)
    assert motifs(manual, Move.parse("7h"), full, None) == ("missed_pair", "forgot_cards")
    assert motifs(manual, Move.parse("Kc"), full, None) == ("missed_pair",)
    # the seat's own ronda of fives (the last five captured already): a five dropped instead of a king
    ronda = position(
        hands=["5h 5s 5d Kc", "2s 2d 3h 3s"], table="Jd", piles=["5c", ""], stock_size=20, rondas=[(0, "5")]
    )
    assert motifs(ronda, Move.parse("5h"), Move.parse("Kc"), None) == ("broke_ronda",)
    assert motifs(ronda, Move.parse("Kc"), Move.parse("5h"), None) == (
        "risky_drop",
    )  # 3 kings unseen, no five
    # a card dropped beside another that the next seat takes: a caída given
    beside = position(hands=["Kc Qd", "Kh 2s"], table="Jd", stock_size=20)
    assert motifs(beside, Move.parse("Kc"), Move.parse("Qd"), Move.parse("Kh xKc"))[-1] == "gave_caida"
    assert "gave_caida" not in motifs(beside, Move.parse("Kc"), Move.parse("Qd"), Move.parse("2s"))


def test_only_searching_levels_can_judge() -> None:
    with pytest.raises(ValueError, match="cannot value moves"):
        analyst("normal", 0)
    assert analyst("dificil", 0, SMALL).budget == SMALL


# -- the seat's knowledge only -------------------------------------------------------------------------------
def test_the_judgement_uses_only_what_the_seat_saw() -> None:
    """Two games seat 0 cannot tell apart (a card the rival holds swapped with one of the stock, after the
    same plays): the same judgement, for every seed."""
    first, second = swapped_worlds(5)
    played = first.legal_moves()[-1]
    for seed in range(3):
        one = judge(first, played, None, analyst("experto", seed))
        two = judge(second, played, None, analyst("experto", seed))
        assert one == two


# -- whole mesas ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "seed"), quick_first([(2, 3), (4, 8)]))
def test_every_turn_of_the_seat_is_judged_in_order(players: int, seed: int) -> None:
    record = played_game(players, seed)
    game = record.replay()
    seat = 1
    turns = []
    actions = list(game.actions)
    while game.actions:
        game.pop()
    for ply, action in enumerate(actions):
        if game.turn == seat:
            turns.append((ply, action))
        game.play(action)
    done: list[tuple[int, int]] = []
    review = analyze(record, seat, budget=SMALL, progress=lambda d, total: done.append((d, total)))
    assert review.seat == seat and review.forced + len(review.decisions) == len(turns)
    assert done == [(i + 1, len(turns)) for i in range(len(turns))]
    by_ply = dict(turns)
    plies = [d.ply for d in review.decisions]
    assert plies == sorted(plies) and len(set(plies)) == len(plies)
    for d in review.decisions:
        assert by_ply[d.ply] == d.played and d.seat == seat
        assert 0.0 <= d.chance <= d.best_chance <= 1.0 and d.grade == grade(d.loss)
        assert (d.best == d.played) == (d.loss == 0.0)
        assert d.choices >= 1 and (d.motifs == () or d.grade is not None)
    assert sum(review.counts.values()) == sum(1 for d in review.decisions if d.grade)
    # the same record, seat and seed: the same analysis; it is JSON
    again = analyze(record, seat, budget=SMALL)
    assert again.to_dict() == review.to_dict()
    assert json.loads(json.dumps(review.to_dict()))["summary"]["decisions"] == len(review.decisions)


def test_a_seat_the_record_does_not_have_is_refused() -> None:
    record = played_game(2, 3)
    for seat in (2, -1):
        with pytest.raises(ValueError, match="not a seat of this record"):
            analyze(record, seat)


def test_the_worst_decision_and_the_summary() -> None:
    record = played_game(2, 4)
    review = analyze(record, 0, budget=SMALL)
    worst = review.worst
    assert worst is not None and worst.loss == max(d.loss for d in review.decisions)
    summary = review.to_dict()["summary"]
    assert summary["loss"] == pytest.approx(sum(d.loss for d in review.decisions), abs=1e-3)
    assert summary["counts"] == review.counts
    empty = Review(seat=0, level="experto", seed=0, decisions=(), forced=3)
    assert empty.worst is None and empty.to_dict()["summary"]["mean_loss"] == 0.0


def test_each_loss_is_said_in_points_of_the_score_too() -> None:
    """A decision's points are its loss converted at the score of the moment (none for the best move, more
    for a larger loss at the same score, and fewer near the end of a chica for the same loss)."""
    record = played_game(2, 4)
    review = analyze(record, 0, budget=SMALL)
    replay = Replay(record)
    for d in review.decisions:
        game = replay.goto(d.ply).game
        score = (game.score[0], game.score[1])
        assert d.points == points_worth(game.rules, score, game.dealer % 2, 0, d.loss)
        assert d.points >= 0.0 and (d.loss > 0.0 or d.points == 0.0)  # a tiny loss rounds to 0.0 points
        assert d.to_dict()["points"] == d.points
    assert review.to_dict()["summary"]["points"] == round(sum(d.points for d in review.decisions), 1)
    rules = record.rules
    steps = [points_worth(rules, (10, 12), 0, 0, loss) for loss in (0.01, 0.03, 0.06, 0.12)]
    assert steps == sorted(steps) and steps[0] > 0
    assert points_worth(rules, (34, 34), 1, 0, 0.06) < points_worth(rules, (0, 0), 1, 0, 0.06)


# -- luck and skill ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "seed"), quick_first([(2, 3), (4, 8)]))
def test_luck_is_what_the_moves_leave_of_each_chica(players: int, seed: int) -> None:
    record = played_game(players, seed)
    reviews = {s: analyze(record, s, budget=SMALL) for s in range(players)}
    results = record.replay().chica_results
    ours, theirs = split(record, reviews, 0), split(record, reviews, 1)
    assert len(ours) == len(theirs) == len(results) >= 1
    game = record.replay()
    actions = list(game.actions)
    while game.actions:
        game.pop()
    chica_of = {}
    for ply, action in enumerate(actions):
        chica_of[ply] = len(game.chica_results)
        game.play(action)
    for k, (a, b) in enumerate(zip(ours, theirs, strict=True)):
        assert a.won == (results[k].winner == 0) and b.won == (not a.won)
        assert 0.3 < a.start < 0.7 and a.start + b.start == pytest.approx(1.0)
        lost = [sum(d.loss for d in reviews[s].decisions if chica_of[d.ply] == k) for s in range(players)]
        assert a.own == pytest.approx(sum(lost[0::2])) and a.rivals == pytest.approx(sum(lost[1::2]))
        assert a.luck == pytest.approx(-b.luck)  # what the cards gave one team they took from the other
        assert a.luck == pytest.approx((1.0 if a.won else 0.0) - a.start + a.own - a.rivals)
    with pytest.raises(ValueError, match="every seat analysed"):
        split(record, {0: reviews[0]}, 0)


# -- the command line ----------------------------------------------------------------------------------------
#: The command line's ``--worlds 4``: the budget it makes.
FOUR = worlds_budget(4)


@pytest.mark.slow
def test_the_command_line_in_both_languages_and_as_json(tmp_path: Path) -> None:
    record = played_game(2, 3)
    as_text, as_json = tmp_path / "mesa.txt", tmp_path / "mesa.json"
    as_text.write_text(record.to_text(), encoding="utf-8")
    as_json.write_text(record.to_json(), encoding="utf-8")
    spanish = run_cli("analyze", str(as_text), "--seat", "0", "--worlds", "4")
    assert spanish.returncode == 0, spanish.stderr
    lines = spanish.stdout.splitlines()
    assert lines[0].startswith("Análisis de las jugadas de Ana")
    review = analyze(record, 0, budget=FOUR)
    graded = [d for d in review.decisions if d.grade]
    assert sum(1 for line in lines if line.startswith("Mano ")) == len(graded)
    for d in graded:
        assert f", jugada {d.ply + 1}: " in spanish.stdout
    english = run_cli("analyze", str(as_json), "--seat", "0", "--lang", "en", "--all", "--worlds", "4")
    assert english.returncode == 0, english.stderr
    assert english.stdout.startswith("Analysis of Ana's moves")
    assert sum(1 for line in english.stdout.splitlines() if line.startswith("Hand ")) == len(review.decisions)
    for name in GRADES:
        if review.counts[name]:
            assert text(f"analysis.grade.{name}", "en") in english.stdout
    machine = run_cli("analyze", str(as_text), "--seat", "0", "--json", "--worlds", "4")
    assert machine.returncode == 0 and json.loads(machine.stdout) == review.to_dict()
    lucky = run_cli("analyze", str(as_text), "--seat", "1", "--luck", "--worlds", "4", "--lang", "en")
    assert lucky.returncode == 0, lucky.stderr
    splits = split(record, {s: analyze(record, s, budget=FOUR) for s in range(2)}, 1)
    for s in splits:
        assert f"Chica {s.chica + 1} ({'won' if s.won else 'lost'})" in lucky.stdout
        assert f"the cards: {100 * s.luck:+.0f}." in lucky.stdout


def test_the_command_line_refuses_clearly(tmp_path: Path) -> None:
    broken = tmp_path / "broken.txt"
    broken.write_text('[Format "cuarenta-record 2"]\n[Players "2"]\n\n1. 9z\n', encoding="utf-8")
    refused = run_cli("analyze", str(broken))
    assert refused.returncode == 2 and "not a valid record" in refused.stderr
    missing = run_cli("analyze", str(tmp_path / "none.txt"))
    assert missing.returncode == 2 and "cannot be read" in missing.stderr
    good = tmp_path / "mesa.txt"
    good.write_text(played_game(2, 3).to_text(), encoding="utf-8")
    seat = run_cli("analyze", str(good), "--seat", "3")
    assert seat.returncode == 2 and "not a seat of this record" in seat.stderr
