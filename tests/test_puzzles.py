"""Puzzles from real mesas (issue 29, docs/analysis.md "Puzzles"): every shipped puzzle's answer is what the
exact solver finds, unique by the margin; the file is rebuilt by its script to the same bytes; a move that
differs from the answer only in suits is the answer; the terminal's trainer keeps the streak.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from cuarenta import Game, Rules
from cuarenta.analysis.puzzles import (
    BASE_RATING,
    FORMAT,
    MARGIN,
    SHARE,
    WORLDS,
    Puzzle,
    exact,
    read,
    sampled,
    shipped,
    solve,
)
from cuarenta.cli.puzzle import TerminalPuzzles, _ways, pick
from cuarenta.moves import Move
from cuarenta.players.knowledge import Knowledge
from cuarenta.players.search import rank_key
from support.commands import run_cli
from support.examples import quick_first
from support.worlds import swapped_worlds

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ROOT / "src" / "cuarenta" / "analysis" / "data" / "puzzles.json"


def test_every_shipped_puzzle_is_solved_by_its_answer_alone() -> None:
    puzzles = shipped()
    assert len({p.id for p in puzzles}) == len(puzzles)
    assert sum(p.kind == "exact" for p in puzzles) >= 1000 and {p.kind for p in puzzles} == {
        "exact",
        "sampled",
    }
    for puzzle in puzzles:
        if puzzle.kind == "sampled":
            continue  # test_every_sampled_puzzle_leads_in_its_worlds
        game = puzzle.game()
        assert exact(game) and game.turn == puzzle.seat
        # what the seat could not see is exactly the rival's hand: a card counter knows the position
        assert sorted(Knowledge.from_view(game.view(game.turn)).unseen) == sorted(game.hand(1 - game.turn))
        values = solve(game)
        assert values[0][0] == puzzle.answer and puzzle.answer in game.legal_moves()
        assert values[0][1] - values[1][1] >= MARGIN and puzzle.margin >= MARGIN
        assert [(str(a), round(v, 4)) for a, v in values] == [(str(a), round(v, 4)) for a, v in puzzle.values]
        assert puzzle.rating > BASE_RATING


SAMPLED = [p for p in shipped() if p.kind == "sampled"]


@pytest.mark.parametrize("puzzle", quick_first(SAMPLED, keep=2), ids=lambda p: p.id)
def test_every_sampled_puzzle_leads_in_its_worlds(puzzle: Puzzle) -> None:
    """A sampled puzzle (cards in the stock) is judged again in its worlds: its answer leads every other way
    by the sampled margin in at least 95 of 100, and the mean values are the file's."""
    game = puzzle.game()
    assert game.stock and game.turn == puzzle.seat and not exact(game)
    found = sampled(game, puzzle.id)
    assert found is not None
    values, agree = found
    assert agree == puzzle.agree >= SHARE * WORLDS and values[0][0] == puzzle.answer
    assert [(str(a), round(v, 4)) for a, v in values] == [(str(a), round(v, 4)) for a, v in puzzle.values]
    assert puzzle.rating > BASE_RATING and puzzle.to_dict()["worlds"] == WORLDS


def test_a_sampled_puzzle_is_judged_from_the_seat_s_view_alone() -> None:
    """Two games the seat cannot tell apart (a hidden card swapped with one of the stock) are judged alike."""
    first, second = swapped_worlds()
    assert first.hand(1) != second.hand(1) and first.view(0) == second.view(0)
    assert sampled(first, "same") == sampled(second, "same")
    assert sampled(Game.new(Rules.preset("a_todo_rigor", players=4), seed=1), "x") is None  # 1 vs 1 only


def test_the_script_rebuilds_the_shipped_file(tmp_path: Path) -> None:
    """The first puzzles the script keeps are the shipped file's first, byte for byte (the whole file is
    the same with ``--count 1000``: docs/analysis.md)."""
    out = tmp_path / "puzzles.json"
    run = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "make_puzzles.py"), "--count", "6", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    built = out.read_text(encoding="utf-8").splitlines()
    shipped_lines = SHIPPED.read_text(encoding="utf-8").splitlines()
    assert built[0] == shipped_lines[0]
    assert [line.rstrip(",") for line in built[1:7]] == [line.rstrip(",") for line in shipped_lines[1:7]]
    assert "6 puzzles kept" in run.stderr


def test_a_move_that_differs_only_in_suits_is_the_answer() -> None:
    for puzzle in shipped()[:60]:
        game = puzzle.game()
        same = [a for a in game.legal_moves() if rank_key(a) == rank_key(puzzle.answer)]
        other = [a for a in game.legal_moves() if rank_key(a) != rank_key(puzzle.answer)]
        assert same and other and all(puzzle.solves(a) for a in same)
        assert not any(puzzle.solves(a) for a in other)


def test_the_file_and_the_solver_refuse_what_they_cannot_take() -> None:
    with pytest.raises(ValueError, match="not a puzzle file"):
        read(json.dumps({"format": "something else", "puzzles": []}))
    assert read(json.dumps({"format": FORMAT, "puzzles": [shipped()[0].to_dict()]}))[0] == shipped()[0]
    with pytest.raises(ValueError, match="only the last deal"):
        solve(Game.new(Rules(), seed=1))
    assert not exact(Game.new(Rules(players=4), seed=1))


def test_puzzles_are_offered_by_rating_or_from_an_id() -> None:
    puzzles = list(shipped())
    near = pick(puzzles, rating=1800)
    assert sorted(abs(p.rating - 1800) for p in near) == [abs(p.rating - 1800) for p in near]
    assert pick(puzzles, start=puzzles[5].id)[0] == puzzles[5]
    with pytest.raises(ValueError, match="there is no puzzle"):
        pick(puzzles, start="nope")


def wrong_move(puzzle: Puzzle) -> Move:
    game = puzzle.game()
    return next(a for a in game.legal_moves() if isinstance(a, Move) and not puzzle.solves(a))


def typed(puzzle: Puzzle, move: Move) -> str:
    """What a person types for ``move``: its card's number in the hand, then the way if asked."""
    game = puzzle.game()
    hand = list(game.hand(game.turn))
    ways = []
    for a in game.legal_moves():
        if isinstance(a, Move) and a.card == move.card and rank_key(a) not in {rank_key(w) for w in ways}:
            ways.append(a)
    text = f"{hand.index(move.card) + 1}\n"
    if len(ways) > 1:
        text += f"{[rank_key(w) for w in ways].index(rank_key(move)) + 1}\n"
    return text


def test_the_trainer_keeps_the_streak_and_explains() -> None:
    puzzles = [p for p in shipped() if isinstance(p.answer, Move)][:4]
    script = (
        typed(puzzles[0], puzzles[0].answer)  # type: ignore[arg-type]
        + typed(puzzles[1], puzzles[1].answer)  # type: ignore[arg-type]
        + typed(puzzles[2], wrong_move(puzzles[2]))
        + "saltar\n"
    )
    out = io.StringIO()
    assert TerminalPuzzles(puzzles, inp=io.StringIO(script), out=out).run() == 0
    text = out.getvalue()
    assert "¡Correcto! Racha: 1." in text and "¡Correcto! Racha: 2." in text
    assert "No. La mejor era" in text and "Saltado. La mejor era" in text
    assert "Resolviste 2 de 3. Mejor racha: 2." in text
    for puzzle in puzzles[:3]:
        assert f"Problema {puzzle.id}" in text
        chance = f"deja {100 * puzzle.values[0][1]:.0f} de cada 100 chances"
        assert chance in text


def test_the_trainer_says_where_a_sampled_puzzle_s_unseen_cards_may_be() -> None:
    """A sampled puzzle's unseen cards are the rival's hand and the stock's: the terminal says so."""
    puzzle = SAMPLED[0]
    out = io.StringIO()
    assert TerminalPuzzles([puzzle], inp=io.StringIO("saltar\n"), out=out).run() == 0
    text = out.getvalue()
    assert "(en la mano del rival o en el mazo)" in text and "Aún quedan cartas en el mazo" in text
    assert "las tiene el rival" not in text


@pytest.mark.slow
def test_the_script_rebuilds_the_first_sampled_puzzle(tmp_path: Path) -> None:
    """The first sampled puzzle the script keeps is the shipped file's first, byte for byte, where it goes."""
    out = tmp_path / "puzzles.json"
    script = str(ROOT / "scripts" / "make_puzzles.py")
    run = subprocess.run(
        [sys.executable, script, "--count", "2", "--sampled", "1", "--every", "1", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    built = [line.rstrip(",") for line in out.read_text(encoding="utf-8").splitlines()[1:4]]
    shipped_lines = [line.rstrip(",") for line in SHIPPED.read_text(encoding="utf-8").splitlines()]
    assert json.loads(built[1])["id"] == SAMPLED[0].id and built[1] in shipped_lines
    assert "1 sampled puzzles kept" in run.stderr


def test_the_puzzle_command_asks_again_for_a_way_it_cannot_read() -> None:
    """A card with several ways to take: a number that is no way (thousands of digits too, which Python's
    int() refuses) is asked again, and the puzzle goes on."""
    for puzzle in shipped():
        game = puzzle.game()
        hand = list(game.hand(game.turn))
        several = [i for i, c in enumerate(hand, start=1) if len(_ways(game.legal_moves(), c)) > 1]
        if several:
            break
    else:
        pytest.fail("no shipped puzzle offers a card with two ways to take")
    stdin = f"{several[0]}\n{'9' * 5000}\nskip\nq\n"
    run = run_cli("puzzle", "--id", puzzle.id, "--lang", "en", stdin=stdin)
    assert run.returncode == 0, run.stderr
    assert "Choose a number from 1 to" in run.stdout and "Skipped. The best was" in run.stdout


def test_the_puzzle_command() -> None:
    first = shipped()[0]
    run = run_cli("puzzle", "--id", first.id, "--lang", "en", stdin="skip\nq\n")
    assert run.returncode == 0, run.stderr
    assert f"Puzzle {first.id}" in run.stdout and "Skipped. The best was" in run.stdout
    refused = run_cli("puzzle", "--id", "nope")
    assert refused.returncode == 2 and "there is no puzzle" in refused.stderr
