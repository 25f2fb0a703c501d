"""Tests of the ``cuarenta`` program: the installed script as a subprocess, and the typer app in-process."""

from __future__ import annotations

import os
import re
import subprocess

import pytest
from typer.testing import CliRunner

from cuarenta import PRESET_NAMES, Rules, RulesError
from cuarenta.cli import app, chica_end, play_demo
from cuarenta.events import (
    Caida,
    CaidaLimpia,
    CaidaRonda,
    ChicaWon,
    ClaimMade,
    Deal,
    Event,
    HandEnd,
    Limpia,
    MesaWon,
    Play,
    Ronda,
    Zapatero,
)
from cuarenta.i18n import describe_event, seat_names, team_names
from support.served import program

runner = CliRunner()


def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONIOENCODING="utf-8", COLUMNS="100")
    return subprocess.run(
        [program(), *args], capture_output=True, text=True, encoding="utf-8", env=env, timeout=60, check=False
    )


def chicas_won(output: str) -> int:
    """How many "… gana la chica N" lines the output has."""
    return len(re.findall(r"gana la chica \d", output))


def demo(*args: str) -> str:
    result = runner.invoke(app, ["demo", *args])
    assert result.exit_code == 0, result.output
    return result.output


def shown_events(preset: str, players: int | None, seed: int) -> tuple[Rules, list[Event]]:
    """Replay the demo's game and keep the events of its first chica, as the program shows them."""
    rules = Rules.preset(preset, players)
    game = play_demo(rules, seed)
    end = chica_end(game.events)
    assert end is not None
    return rules, game.events[:end]


# -- the installed program ------------------------------------------------------------------------
def test_installed_program_plays_a_chica_deterministically() -> None:
    first = run("demo", "--seed", "3")
    second = run("demo", "--seed", "3")
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    assert "\x1b[" not in first.stdout  # no colour codes when stdout is not a terminal
    assert chicas_won(first.stdout) == 1
    assert "Semilla 3" in first.stdout
    # the program's output is the in-process app's output
    assert first.stdout == demo("--seed", "3")


def test_installed_program_help() -> None:
    top = run("--help")
    assert top.returncode == 0 and "demo" in top.stdout and "Usage" in top.stdout
    for command in ("demo", "play", "arena", "serve"):
        assert command in top.stdout
    sub = run("demo", "--help")
    assert sub.returncode == 0
    for option in ("--seed", "--players", "--rules", "--lang", "--chicas-only", "--mesa", *PRESET_NAMES):
        assert option in sub.stdout


def test_installed_program_refuses_an_unknown_preset_with_one_clear_line() -> None:
    result = run("demo", "--seed", "1", "--rules", "nope")
    assert result.returncode == 2
    assert result.stdout == ""
    lines = [line for line in result.stderr.splitlines() if "unknown preset 'nope'" in line]
    assert len(lines) == 1
    assert all(name in lines[0] for name in PRESET_NAMES)
    assert "Traceback" not in result.stderr


# -- determinism ----------------------------------------------------------------------------------
def test_same_seed_same_output_and_different_seeds_differ() -> None:
    outputs = [demo("--seed", str(seed)) for seed in range(1, 5)]
    assert outputs[0] == demo("--seed", "1")
    assert len(set(outputs)) == len(outputs)


def test_without_a_seed_the_header_names_the_seed_chosen_so_it_can_be_replayed() -> None:
    output = demo()
    match = re.search(r"Semilla (\d+)", output)
    assert match is not None
    assert demo("--seed", match.group(1)) == output


# -- the output tells what the engine did ---------------------------------------------------------
def count_lines(output: str, start: str) -> int:
    return sum(1 for line in output.splitlines() if line.strip().startswith(start))


@pytest.mark.parametrize(
    ("preset", "players", "seed"),
    [
        ("a_todo_rigor", 2, 3),
        ("a_todo_rigor", 4, 5),
        ("todo_dos", 2, 6),
        ("basico", 2, 7),
        ("campeonato", 4, 8),
    ],
)
def test_printed_events_are_the_engine_events(preset: str, players: int, seed: int) -> None:
    output = demo("--seed", str(seed), "--rules", preset, "--players", str(players))
    _, events = shown_events(preset, players, seed)

    def n(cls: type[Event]) -> int:
        return sum(1 for e in events if type(e) is cls)

    assert count_lines(output, "¡Caída!") == n(Caida)
    assert count_lines(output, "¡Limpia!") == n(Limpia)
    assert count_lines(output, "¡Caída y limpia!") == n(CaidaLimpia)
    assert count_lines(output, "¡Caída a la ronda") == n(CaidaRonda)
    assert count_lines(output, "¡Ronda!") == n(Ronda)
    assert count_lines(output, "Fin de la mano.") == n(HandEnd)
    assert count_lines(output, "Mano ") == n(Deal)
    assert sum(1 for line in output.splitlines() if " reclama " in line) == n(ClaimMade)

    # every move, in order, with the card played and what it took
    names = seat_names(players)
    plays = [describe_event(e, "es", names) for e in events if isinstance(e, Play)]
    numbered = [line for line in output.splitlines() if re.match(r"^\s*\d+\. ", line)]
    assert len(numbered) == len(plays)
    for i, (line, text) in enumerate(zip(numbered, plays, strict=True), start=1):
        assert line.strip().startswith(f"{i}. {text}")

    # the chica's end: the winner and the final score
    won = next(e for e in events if isinstance(e, ChicaWon))
    winner = team_names(names)[won.team]
    assert f"¡{winner} gana la chica 1" in output
    assert f"{won.scores[won.team]} a {won.scores[1 - won.team]}" in output
    assert not any(isinstance(e, MesaWon) for e in events) or "gana la mesa" in output
    assert ("zapatero" in output or "platillo" in output) == any(isinstance(e, Zapatero) for e in events)
    # it stops at the end of the first chica
    assert chicas_won(output) == 1


@pytest.mark.parametrize("seed", [0, 3, 6])
def test_the_score_after_each_scoring_event_is_the_running_total(seed: int) -> None:
    output = demo("--seed", str(seed))
    _, events = shown_events("a_todo_rigor", None, seed)
    totals = [0, 0]
    expected = []
    for e in events:
        points = getattr(e, "points", 0)
        if isinstance(points, int) and points > 0 and not isinstance(e, Zapatero):
            totals[e.team] += points  # type: ignore[attr-defined]
            expected.append(tuple(totals))
    printed = [
        tuple(int(x) for x in re.findall(r"Jugador \d (\d+)", line))
        for line in output.splitlines()
        if line.strip().startswith("Marcador:")
    ]
    assert printed == expected
    assert expected, "a chica always has scoring events"
    # perros and tantos beside the points
    for line in output.splitlines():
        for points, words in re.findall(r"(\d+) = ([^·]+)", line):
            perros = re.search(r"(\d+) perros?", words)
            tantos = re.search(r"(\d+) tantos?", words)
            total = 10 * int(perros.group(1) if perros else 0) + 2 * int(tantos.group(1) if tantos else 0)
            assert total == int(points)


def test_sayings_appear_where_they_fit() -> None:
    hits = {"dos": 0, "mosero": 0, "as": 0}
    for seed in range(6):
        output = demo("--seed", str(seed))
        _, events = shown_events("a_todo_rigor", None, seed)
        rondas = sum(1 for e in events if isinstance(e, Ronda) and e.points > 0)
        moseros = sum(
            1 for e in events if isinstance(e, (Caida, CaidaLimpia, CaidaRonda)) and e.card.rank_char == "3"
        )
        aces = sum(
            1 for e in events if isinstance(e, Play) and not e.move.base and e.move.card.rank_char == "A"
        )
        assert output.count("¡Dos por guapo!") == rondas
        assert output.count("¡Mosero!") == moseros
        assert output.count("¡As que no caerás!") == aces
        hits["dos"] += rondas
        hits["mosero"] += moseros
        hits["as"] += aces
    assert all(hits.values()), hits  # the seeds above do exercise each saying


def test_treinta_y_ocho_saying_when_a_team_reaches_38() -> None:
    output = demo("--seed", "3")
    lines = output.splitlines()
    i = next(i for i, line in enumerate(lines) if "¡Treinta y ocho que no juega!" in line)
    score = next(line for line in lines[i:] if "Marcador:" in line)
    assert "Jugador 1 38" in score or "Jugador 2 38" in score


# -- options --------------------------------------------------------------------------------------
def test_english() -> None:
    output = demo("--seed", "3", "--lang", "en")
    assert "Player 1 plays" in output and "Score: Player 1" in output
    assert "wins chica 1" in output
    assert "Jugador" not in output and " juega " not in output
    # sayings stay Spanish, with an English gloss
    assert "“¡Q lo que caiga!” (" in output
    spanish = demo("--seed", "3")
    assert len(output.splitlines()) == len(spanish.splitlines())


def test_four_players() -> None:
    output = demo("--seed", "2", "--players", "4")
    assert "4 jugadores" in output
    assert "Mano 1, reparto 1 de 2" in output
    for seat in range(1, 5):
        assert f"Jugador {seat} juega" in output
    assert re.search(r"¡Equipo [AB] gana la chica 1", output)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_preset_works(preset: str) -> None:
    players = 4 if preset == "campeonato" else 2
    output = demo("--seed", "1", "--rules", preset)  # the preset's player count is the default
    assert f"reglas {preset}" in output and f"{players} jugadores" in output
    assert chicas_won(output) == 1
    for players in (2, 4):
        try:
            Rules.preset(preset, players)
        except RulesError:
            continue
        assert "gana la chica" in demo("--seed", "2", "--rules", preset, "--players", str(players))


def test_whole_mesa() -> None:
    output = demo("--seed", "13", "--mesa")
    game = play_demo(Rules(), 13, whole_mesa=True)
    assert game.is_over
    assert chicas_won(output) == sum(game.chicas)
    assert output.count("gana la mesa") == 1
    for n in range(1, sum(game.chicas) + 1):
        assert f"Chica {n}\n" in output
    assert f"Chica {sum(game.chicas) + 1}\n" not in output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rules", "nope"], "unknown preset 'nope'"),
        (["--rules", "campeonato", "--players", "2"], "campeonato' is played by 4 players"),
        (["--rules", "basico", "--players", "4"], "basico' is played by 2 players"),
        (["--players", "3"], "Cuarenta is played by 2 or 4"),
        (["--lang", "fr"], "unknown language 'fr'"),
        (["--seed", "many"], "--seed"),
        (["--bogus"], "--bogus"),
    ],
)
def test_bad_options_exit_with_code_2_and_a_clear_message(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["demo", *args])
    assert result.exit_code == 2
    assert message in result.output
    assert "Error:" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_play_demo_reaches_the_first_chica_and_stops() -> None:
    game = play_demo(Rules.preset("todo_dos", 4), seed=11)
    end = chica_end(game.events)
    assert end is not None
    assert sum(game.chicas) == 1
    # the game stops right after the chica (nothing is played in the next one)
    assert not any(isinstance(e, Play) for e in game.events[end:])


def test_play_demo_reports_every_step() -> None:
    seen: list[Event] = []
    game = play_demo(Rules(), seed=5, on_step=lambda g, action, events: seen.extend(events))
    assert seen == game.events
