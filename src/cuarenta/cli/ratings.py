"""``cuarenta ratings``: a rating table of computer players from a round robin on duplicate deals.

A thin layer over :mod:`cuarenta.players.ratings`: every pairing of the players named (default
every level: aleatorio, facil, normal, dificil) plays ``--chicas`` chicas (fewer for the players
given in ``--chicas-for NAME=N``), then a Bradley–Terry fit gives each an Elo-scale rating with a
95% bootstrap interval over deal pairs. docs/strength.md shows the table and the command.
"""

from __future__ import annotations

import json
import math
import time
from typing import Annotated

import typer

from cuarenta.cli.arena import RayModeOption, RayOption, ray_messages_to_stderr, ray_pool
from cuarenta.players.arena import ArenaError, BotError, ChicaTooLongError, MatchResult, check_player
from cuarenta.players.pools import PoolError
from cuarenta.players.ratings import BOOT, Rating, rating_table, round_robin
from cuarenta.rules import PRESET_NAMES

LEVELS = ("aleatorio", "facil", "normal", "dificil")


def _chicas_for(given: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for item in given:
        name, _, count = item.partition("=")
        if not count.isdigit() or int(count) <= 0 or int(count) % 2:
            raise typer.BadParameter(
                f"{item!r}: write NAME=N, N a positive even number", param_hint="'--chicas-for'"
            )
        out[name] = int(count)
    return out


def format_table(table: list[Rating], results: list[MatchResult], seconds: float) -> list[str]:
    """The text report: the ratings, then each pairing's result."""
    width = max(len(r.name) for r in table)
    lines = [f"{'player':<{width}}  {'Elo':>7}  {'95% interval':>17}  {'chicas':>6}  {'score':>6}"]
    for r in table:
        interval = "" if math.isnan(r.low) else f"{r.low:+7.0f} … {r.high:+7.0f}"
        lines.append(
            f"{r.name:<{width}}  {r.elo:+7.0f}  {interval:>17}  {r.chicas:>6}  {100 * r.score:5.1f}%"
        )
    lines.append("")
    for m in results:
        low, high = m.ci
        lines.append(
            f"{m.a} vs {m.b}: {m.a_wins}/{m.chicas} = {100 * m.win_rate:.1f}% "
            f"(95% CI {100 * low:.1f}–{100 * high:.1f}%), {m.seconds:.1f} s"
        )
    lines.append(f"Time: {seconds:.1f} s")
    return lines


def ratings_command(  # noqa: PLR0913 - one parameter per option
    names: Annotated[
        list[str] | None,
        typer.Argument(metavar="[PLAYER]...", help=f"Players (default: {' '.join(LEVELS)})."),
    ] = None,
    chicas: Annotated[int, typer.Option("--chicas", metavar="N", help="Chicas per pairing (even).")] = 200,
    chicas_for: Annotated[
        list[str] | None,
        typer.Option(
            "--chicas-for", metavar="NAME=N", help="Fewer chicas for the pairings of a slow player."
        ),
    ] = None,
    seed: Annotated[
        int, typer.Option("--seed", metavar="S", help="Seed of the deals, bots and bootstrap.")
    ] = 0,
    players: Annotated[int, typer.Option("--players", metavar="2|4", help="Players at the table.")] = 2,
    preset: Annotated[
        str, typer.Option("--rules", metavar="PRESET", help=f"Rule preset: {', '.join(PRESET_NAMES)}.")
    ] = PRESET_NAMES[0],
    boot: Annotated[int, typer.Option("--boot", metavar="B", help="Bootstrap resamples.")] = BOOT,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", metavar="J", help="Worker processes (0: one per CPU).")
    ] = 1,
    ray: RayOption = None,
    ray_mode: RayModeOption = "tasks",
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Rate players from a round robin on duplicate deals (Bradley–Terry, bootstrap 95% intervals)."""
    chosen = list(names or LEVELS)
    if len(chosen) < 2 or len(set(chosen)) != len(chosen):
        raise typer.BadParameter(f"{chosen}: name two or more different players", param_hint="'PLAYER'")
    for name in chosen:
        try:
            check_player(name)
        except ArenaError as exc:
            raise typer.BadParameter(str(exc), param_hint="'PLAYER'") from None
    if chicas <= 0 or chicas % 2:
        raise typer.BadParameter(f"{chicas} is not a positive even number", param_hint="'--chicas'")
    if boot < 0 or jobs < 0:
        raise typer.BadParameter("--boot and --jobs take 0 or more")
    per = _chicas_for(chicas_for or [])
    pool = ray_pool(ray, jobs, ray_mode)
    with ray_messages_to_stderr(pool) as stdout:
        start = time.perf_counter()
        try:
            results = round_robin(
                chosen, chicas, seed, players=players, rules=preset, chicas_for=per, jobs=jobs, pool=pool
            )
        except ArenaError as exc:
            raise typer.BadParameter(str(exc)) from None
        except (BotError, ChicaTooLongError, PoolError) as exc:
            typer.echo(f"Error: {exc}", err=True)
            raise typer.Exit(1) from None
        seconds = time.perf_counter() - start
        table = rating_table(chosen, results, boot=boot, seed=seed)
        if as_json:
            out = {
                "ratings": [r.to_dict() for r in table],
                "matches": [m.to_dict(timings=False) for m in results],
                "seed": seed,
                "boot": boot,
                "interval": "bootstrap over deal pairs, 2.5th-97.5th percentiles",
                "seconds": round(seconds, 1),
            }
            typer.echo(json.dumps(out, ensure_ascii=False), file=stdout)
        else:
            for line in format_table(table, results, seconds):
                typer.echo(line, file=stdout)
