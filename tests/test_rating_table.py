"""The rating table: Bradley–Terry recovers known strengths, stays finite on perfect records, and its
bootstrap intervals are seeded and hold the point estimate."""

from __future__ import annotations

import json
import math

import pytest

from cuarenta.players.arena import ArenaError, run_match
from cuarenta.players.ratings import bradley_terry, rating_table, round_robin


def test_bradley_terry_recovers_the_strengths_of_exact_counts() -> None:
    # strengths 1 : 2 : 4, so i beats j with probability g_i / (g_i + g_j); counts of 3000 games each
    truth = [1.0, 2.0, 4.0]
    games = {}
    for i in range(3):
        for j in range(i + 1, 3):
            p = truth[i] / (truth[i] + truth[j])
            games[(i, j)] = (3000 * p - 0.5, 3000 * (1 - p) - 0.5)  # the prior adds half a win each way
    ratings = bradley_terry(3, games)
    assert ratings[0] == 0.0
    assert ratings[1] == pytest.approx(400 * math.log10(2), abs=1e-3)
    assert ratings[2] == pytest.approx(400 * math.log10(4), abs=1e-3)


def test_a_perfect_record_has_a_finite_rating() -> None:
    ratings = bradley_terry(2, {(0, 1): (0, 100)})
    assert math.isfinite(ratings[1]) and ratings[1] == pytest.approx(400 * math.log10(100.5 / 0.5))


def test_the_table_of_a_round_robin() -> None:
    names = ["aleatorio", "facil", "normal"]
    results = round_robin(names, chicas=12, seed=2, chicas_for={"normal": 8})
    assert [(m.a, m.b, m.chicas) for m in results] == [
        ("aleatorio", "facil", 12),
        ("aleatorio", "normal", 8),
        ("facil", "normal", 8),
    ]
    table = rating_table(names, results, boot=200, seed=1)
    again = rating_table(names, results, boot=200, seed=1)
    assert table == again  # the bootstrap is seeded
    by_name = {r.name: r for r in table}
    assert by_name["aleatorio"].elo == 0.0 and by_name["aleatorio"].chicas == 20
    assert sum(r.wins for r in table) == sum(m.chicas for m in results)
    for r in table:
        assert r.low <= r.elo <= r.high
    # each row's wins are what its matches say
    assert by_name["facil"].wins == results[0].bots[1].chicas_won + results[2].a_wins


def test_the_table_refuses_players_it_was_not_given() -> None:
    result = run_match("facil", "aleatorio", chicas=2, seed=1)
    with pytest.raises(ArenaError, match="not among"):
        rating_table(["facil", "normal"], [result])
    with pytest.raises(ArenaError, match="named twice"):
        rating_table(["facil", "facil"], [result])


def test_the_command_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    from cuarenta.cli.commands import run

    with pytest.raises(SystemExit) as stop:
        run(["ratings", "aleatorio", "facil", "--chicas", "4", "--boot", "20", "--json"])
    assert stop.value.code in (0, None)
    out = json.loads(capsys.readouterr().out)
    assert [r["name"] for r in out["ratings"]][-1] == "aleatorio" and len(out["matches"]) == 1
    with pytest.raises(SystemExit) as stop:
        run(["ratings", "facil", "--chicas", "4"])
    assert stop.value.code == 2
    with pytest.raises(SystemExit) as stop:
        run(["ratings", "facil", "normal", "--chicas-for", "normal=3"])
    assert stop.value.code == 2
