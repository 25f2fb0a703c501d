"""Tests of the arena: duplicate-deal matches between computer players, their statistics and the command.

The library (:mod:`cuarenta.players.arena`) is tested in-process with the fast players (``aleatorio``,
``facil``, and small test players registered for one test); the ``cuarenta arena`` program as a
subprocess for its JSON output and its usage errors (exit code 2).
"""

from __future__ import annotations

import json
import math
import os
import subprocess
from collections.abc import Sequence
from typing import Any

import pytest
from typer.testing import CliRunner

from cuarenta import CARDS, Game, Move, Rules
from cuarenta import players as players_mod
from cuarenta.cli import app
from cuarenta.moves import Action
from cuarenta.players import Player, View
from cuarenta.players.arena import (
    ArenaError,
    BotError,
    ChicaRecord,
    ChicaTooLongError,
    chica_rules,
    deal_seed,
    elo_difference,
    percentile,
    play_chica,
    run_match,
    seat_labels,
    wilson_interval,
)
from support.served import program

runner = CliRunner()


def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONIOENCODING="utf-8", COLUMNS="100")
    return subprocess.run(
        [program(), "arena", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        timeout=120,
        check=False,
    )


# -- statistics against known values ---------------------------------------------------------------
@pytest.mark.parametrize(
    ("wins", "n", "low", "high"),
    [
        (8, 10, 0.4902, 0.9433),  # the textbook example (z = 1.96)
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (50, 100, 0.4038, 0.5962),
        (81, 263, 0.2553, 0.3662),
    ],
)
def test_wilson_interval_known_values(wins: int, n: int, low: float, high: float) -> None:
    got_low, got_high = wilson_interval(wins, n, z=1.96)
    assert got_low == pytest.approx(low, abs=1e-4)
    assert got_high == pytest.approx(high, abs=1e-4)
    # the default z is the exact 97.5% normal quantile, 1.95996…: practically the same interval
    default = wilson_interval(wins, n)
    assert default[0] == pytest.approx(low, abs=2e-4) and default[1] == pytest.approx(high, abs=2e-4)


def test_wilson_interval_contains_the_rate_and_narrows() -> None:
    wide = wilson_interval(60, 100)
    narrow = wilson_interval(600, 1000)
    assert wide[0] < 0.6 < wide[1] and narrow[0] < 0.6 < narrow[1]
    assert narrow[1] - narrow[0] < wide[1] - wide[0]
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


@pytest.mark.parametrize(
    ("score", "elo"),
    [(0.5, 0.0), (0.75, 190.849), (0.25, -190.849), (10 / 11, 400.0), (0.64, 99.95), (0.1, -381.697)],
)
def test_elo_difference_known_values(score: float, elo: float) -> None:
    assert elo_difference(score) == pytest.approx(elo, abs=1e-2)


def test_elo_difference_inverts_the_expected_score() -> None:
    for d in (-700, -120, 35, 300, 800):
        expected = 1 / (1 + 10 ** (-d / 400))
        assert elo_difference(expected) == pytest.approx(d)
    assert elo_difference(1.0) == math.inf and elo_difference(0.0) == -math.inf
    with pytest.raises(ValueError):
        elo_difference(1.5)


def test_percentile_interpolates_like_numpy() -> None:
    values = list(range(1, 11))
    assert percentile(values, 95) == pytest.approx(9.55)
    assert percentile(values, 50) == pytest.approx(5.5)
    assert percentile([3.0, 1.0, 2.0], 0) == 1.0 and percentile([3.0, 1.0, 2.0], 100) == 3.0


# -- a small match --------------------------------------------------------------------------------
def test_small_match_facil_vs_aleatorio_is_sane() -> None:
    result = run_match("facil", "aleatorio", chicas=8, players=2, rules="a_todo_rigor", seed=3)
    assert result.chicas == 8 and len(result.games) == 8
    a, b = result.bots
    assert (a.name, b.name) == ("facil", "aleatorio")
    assert a.chicas_won + b.chicas_won == 8 and a.chicas_won == result.a_wins
    # facil wins far more often than a random player (it is > 95% over many chicas)
    assert result.a_wins >= 6
    assert result.win_rate == result.a_wins / 8
    low, high = result.ci
    assert low <= result.win_rate <= high
    assert result.elo > 0 and (result.elo_ci[0] < result.elo or result.a_wins == 8)
    assert result.margin_per_hand > 0
    assert sum(result.pairs) == 4
    assert result.hands == sum(len(g.hand_margins) for g in result.games) >= 8
    assert a.move_ms.moves > 0 and b.move_ms.moves > 0
    assert 0 <= a.move_ms.median <= a.move_ms.p95 <= a.move_ms.max
    for g in result.games:
        winner_score = g.scores[0] if g.winner == "A" else g.scores[1]
        assert winner_score >= 40 or g.reason != "target"
        assert sum(g.hand_margins) == g.scores[0] - g.scores[1]
    assert a.caidas == sum(g.caidas[0] for g in result.games) > 0


def test_records_agree_with_the_games_events() -> None:
    """Scores, caídas, limpias and hands of a record, counted independently from the played game."""
    rules = chica_rules(Rules.preset("todo_dos", 4))
    for side in (0, 1):
        game, record = play_chica("facil", "aleatorio", rules, seed=5, pair=2, side=side)
        assert game.is_over and record.plies == len(game.actions)
        a_team = side  # side 0: A holds team 0
        assert record.scores == (game.score[a_team], game.score[1 - a_team])
        dicts = [e.to_dict() for e in game.events]  # the events as JSON: kinds and fields by name
        caidas = [d["team"] for d in dicts if d["kind"] in ("caida", "caida_limpia", "caida_ronda")]
        assert record.caidas == (caidas.count(a_team), caidas.count(1 - a_team))
        limpias = [
            d["team"]
            for d in dicts
            if d["kind"] in ("limpia", "caida_limpia") or (d["kind"] == "caida_ronda" and d["limpia"])
        ]
        assert record.limpias == (limpias.count(a_team), limpias.count(1 - a_team))
        hands_started = sum(1 for d in dicts if d["kind"] == "deal" and d["deal"] == 0)
        assert len(record.hand_margins) == hands_started
        winner_team = next(d["team"] for d in dicts if d["kind"] == "chica_won")
        assert record.winner == ("A" if winner_team == a_team else "B")


# -- duplicate deals --------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 4])
def test_duplicate_deals_are_the_same_deals_with_the_seats_swapped(players: int) -> None:
    rules = chica_rules(Rules.preset("a_todo_rigor", players))
    for pair in (0, 1):
        game0, rec0 = play_chica("facil", "aleatorio", rules, seed=11, pair=pair, side=0)
        game1, rec1 = play_chica("facil", "aleatorio", rules, seed=11, pair=pair, side=1)
        assert rec0.seed == rec1.seed == deal_seed(11, pair) == game0.seed == game1.seed
        assert rec0.dealer == rec1.dealer
        # every seat was dealt the same first five cards in both games …
        assert rec0.first_hands == rec1.first_hands
        assert all(len(h) == 5 for h in rec0.first_hands)
        # … and the bots changed places: the cards A held in one game, B holds in the other
        assert rec0.seats == seat_labels(players, 0) and rec1.seats == seat_labels(players, 1)
        for seat in range(players):
            assert {rec0.seats[seat], rec1.seats[seat]} == {"A", "B"}
        assert [s % 2 for s in range(players) if rec0.seats[s] == "A"] == [0] * (players // 2)
        # the games really were dealt from that seed: they replay from it
        for game in (game0, game1):
            replayed = Game.replay(rules, game.seed, game.actions)
            assert replayed.state_summary() == game.state_summary()
            fresh = Game.new(rules, seed=game.seed)
            assert tuple(tuple(str(c) for c in fresh.hand(s)) for s in range(players)) == rec0.first_hands
    # different pairs are different deals
    _, other = play_chica("facil", "aleatorio", rules, seed=11, pair=2, side=0)
    assert other.first_hands != rec0.first_hands


def test_match_plays_each_deal_on_both_sides_in_order() -> None:
    result = run_match("facil", "aleatorio", chicas=6, players=2, rules="basico", seed=4)
    assert [(g.pair, g.side) for g in result.games] == [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)]
    for first, second in zip(result.games[::2], result.games[1::2], strict=True):
        assert first.seed == second.seed and first.first_hands == second.first_hands
    assert len({g.seed for g in result.games}) == 3


def test_same_seed_same_match_and_other_seed_other_deals() -> None:
    one = run_match("aleatorio", "facil", chicas=4, seed=8)
    two = run_match("aleatorio", "facil", chicas=4, seed=8)
    assert one.to_dict(timings=False) == two.to_dict(timings=False) and one.games == two.games
    other = run_match("aleatorio", "facil", chicas=4, seed=9)
    assert [g.first_hands for g in other.games] != [g.first_hands for g in one.games]


# -- jobs -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "preset"), [(2, "a_todo_rigor"), (4, "campeonato")])
def test_results_do_not_depend_on_jobs(players: int, preset: str) -> None:
    seen: list[int] = []

    def progress(records: Sequence[ChicaRecord]) -> None:
        seen.append(len(records))

    serial = run_match("facil", "aleatorio", chicas=12, players=players, rules=preset, seed=21, jobs=1)
    parallel = run_match(
        "facil", "aleatorio", chicas=12, players=players, rules=preset, seed=21, jobs=2, progress=progress
    )
    assert serial.to_dict(timings=False) == parallel.to_dict(timings=False)
    assert serial.games == parallel.games  # every chica, in the same order (timings aside)
    assert [g.plies for g in serial.games] == [g.plies for g in parallel.games]
    assert [len(g.move_ms[0]) for g in serial.games] == [len(g.move_ms[0]) for g in parallel.games]
    assert sum(seen) == 12 and set(seen) == {2}
    assert "move_ms" in parallel.to_dict()["bots"]["A"]


# -- players that see everything, and players that misbehave ----------------------------------------
class _SeesAll(Player):
    """A stand-in for ``oracle``: it is given the whole game and takes the first legal action."""

    name = "test_ve_todo"
    sees_all = True
    calls = 0

    def choose(self, view: View, legal: Sequence[Action]) -> Action:  # pragma: no cover - never called
        raise AssertionError("a sees_all player is asked through choose_with_game")

    def choose_with_game(self, game: Game) -> Action:
        assert isinstance(game, Game) and game.turn == self.seat
        type(self).calls += 1
        return game.legal_moves()[0]


class _Meddler(_SeesAll):
    """Plays a move on the game it is shown (not allowed)."""

    name = "test_entrometido"

    def choose_with_game(self, game: Game) -> Action:
        move = game.legal_moves()[0]
        game.play(move)
        return move


class _Cheat(Player):
    """Plays a card it does not hold."""

    name = "test_tramposo"

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        held = set(view.hand)
        return Move(next(c for c in CARDS if c not in held))


@pytest.fixture()
def test_players(monkeypatch: pytest.MonkeyPatch) -> None:
    registry: dict[str, Any] = players_mod._REGISTRY
    for cls in (_SeesAll, _Meddler, _Cheat):
        monkeypatch.setitem(registry, cls.name, cls)


@pytest.mark.usefixtures("test_players")
def test_a_player_that_sees_all_is_given_the_game() -> None:
    _SeesAll.calls = 0
    result = run_match("test_ve_todo", "facil", chicas=2, players=4, rules="todo_dos", seed=1)
    assert _SeesAll.calls == result.bots[0].move_ms.moves > 0
    assert result.chicas == 2


@pytest.mark.usefixtures("test_players")
def test_a_player_that_changes_the_game_is_stopped() -> None:
    with pytest.raises(BotError, match="changed the game"):
        run_match("test_entrometido", "facil", chicas=2, seed=1)


@pytest.mark.usefixtures("test_players")
def test_an_illegal_action_is_stopped() -> None:
    with pytest.raises(BotError, match="illegal action"):
        run_match("facil", "test_tramposo", chicas=2, seed=1)


def test_a_chica_that_does_not_end_is_an_error() -> None:
    rules = chica_rules(Rules())
    with pytest.raises(ChicaTooLongError, match="not ended after 7 actions"):
        play_chica("facil", "aleatorio", rules, seed=1, pair=0, side=0, max_plies=7)
    with pytest.raises(ChicaTooLongError):
        run_match("facil", "aleatorio", chicas=2, seed=1, max_plies=7)


# -- bad requests ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"a": "nadie"}, "unknown player 'nadie'"),
        ({"b": "Facil"}, "unknown player 'Facil'"),
        ({"chicas": 7}, "positive even number"),
        ({"chicas": 0}, "positive even number"),
        ({"rules": "rigor"}, "unknown preset 'rigor'"),
        ({"rules": "campeonato", "players": 2}, "played by 4 players"),
        ({"players": 3}, "2 or 4"),
        ({"rules": Rules.preset("todo_dos", 4)}, "rules are for 4 players"),
        ({"jobs": -1}, "jobs"),
    ],
)
def test_bad_requests_raise_arena_error(kwargs: dict[str, Any], message: str) -> None:
    args: dict[str, Any] = {
        "a": "facil",
        "b": "aleatorio",
        "chicas": 2,
        "players": 2,
        "rules": "a_todo_rigor",
    }
    args.update(kwargs)
    with pytest.raises(ArenaError, match=message) as info:
        run_match(**args)
    assert isinstance(info.value, ValueError)


# -- the command -----------------------------------------------------------------------------------
def test_command_json_output() -> None:
    proc = run("facil", "aleatorio", "--chicas", "6", "--seed", "2", "--json", "--jobs", "2")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""  # no progress bar when stderr is not a terminal
    data = json.loads(proc.stdout)
    for key in ("win_rate", "ci_low", "ci_high", "elo", "margin_per_hand", "chicas", "bots"):
        assert key in data
    assert data["chicas"] == 6
    assert data["ci_low"] <= data["win_rate"] <= data["ci_high"]
    for label, name in (("A", "facil"), ("B", "aleatorio")):
        bot = data["bots"][label]
        assert bot["name"] == name
        assert set(bot["move_ms"]) == {"median", "p95", "max"}
        assert 0 <= bot["move_ms"]["median"] <= bot["move_ms"]["p95"] <= bot["move_ms"]["max"]
        assert {"chicas_won", "caidas", "limpias"} <= set(bot)
    assert data["bots"]["A"]["chicas_won"] + data["bots"]["B"]["chicas_won"] == 6
    # the command reports what the library computes
    expected = run_match("facil", "aleatorio", chicas=6, players=2, rules="a_todo_rigor", seed=2).to_dict()
    for key in ("win_rate", "ci_low", "ci_high", "elo", "margin_per_hand", "hands", "a_wins", "pairs"):
        assert data[key] == expected[key]


def test_command_text_output() -> None:
    result = runner.invoke(app, ["arena", "facil", "aleatorio", "--chicas", "4", "--seed", "1"])
    assert result.exit_code == 0, result.output
    out = result.output
    summary = run_match("facil", "aleatorio", chicas=4, seed=1)
    assert f"A won {summary.a_wins} of 4 chicas" in out
    assert "A (facil) vs B (aleatorio)" in out
    assert "95% CI" in out and "Elo difference" in out and "Margin per hand" in out
    for row in ("chicas won", "caídas", "limpias", "ms/move median", "ms/move p95", "ms/move max"):
        assert row in out


def test_command_four_players_default_for_campeonato() -> None:
    result = runner.invoke(
        app, ["arena", "facil", "facil", "--chicas", "2", "--rules", "campeonato", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["players"] == 4 and data["rules"] == "campeonato"


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["facil", "nadie", "--chicas", "4"], "unknown player 'nadie'"),
        (["nadie", "facil", "--chicas", "4"], "unknown player 'nadie'"),
        (["facil", "aleatorio", "--chicas", "5"], "5 is not a positive even number"),
        (["facil", "aleatorio", "--chicas", "-2"], "not a positive even number"),
        (["facil", "aleatorio", "--rules", "rigor"], "unknown preset 'rigor'"),
        (["facil", "aleatorio", "--rules", "campeonato", "--players", "2"], "played by 4 players"),
        (["facil", "aleatorio", "--players", "3"], "2 or 4"),
        (["facil", "aleatorio", "--jobs", "-1"], "--jobs"),
        (["facil"], "Missing argument"),
    ],
)
def test_command_usage_errors_exit_2(args: list[str], fragment: str) -> None:
    proc = run(*args, "--json")
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert fragment in proc.stderr
    assert proc.stdout == ""
