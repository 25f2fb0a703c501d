"""``cuarenta selfplay A B``: self-play mesas written as game records and Parquet for training.

A thin layer over :func:`cuarenta.research.selfplay.selfplay` (docs/research.md, "Arenas and
self-play on Ray"): it checks the arguments (usage errors exit with code 2), plays the mesas in this
process, in ``--jobs`` worker processes or on Ray (``--ray [ADDRESS]``), and prints the summary and
the time taken. The files are the same whatever runs them.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated

import typer

from cuarenta import players as players_
from cuarenta.cli.arena import RayModeOption, RayOption, ray_messages_to_stderr, ray_pool
from cuarenta.players.arena import BotError
from cuarenta.players.pools import PoolError, make_pool
from cuarenta.research.selfplay import CHUNK_MESAS, FORMATS, SelfplayError, selfplay
from cuarenta.rules import PRESET_NAMES

FORMAT_CHOICES = {"records": ("records",), "parquet": ("parquet",), "both": FORMATS}


def selfplay_command(  # noqa: PLR0913 - one parameter per option
    a: Annotated[str, typer.Argument(metavar="A", help=f"First player: {', '.join(players_.PLAYER_NAMES)}.")],
    b: Annotated[str, typer.Argument(metavar="B", help="Second player (the same choices).")],
    mesas: Annotated[int, typer.Option("--mesas", metavar="N", help="Mesas to play.")] = 1000,
    seed: Annotated[int, typer.Option("--seed", metavar="S", help="Seed of every deal and player.")] = 0,
    out: Annotated[Path, typer.Option("--out", metavar="DIR", help="Folder to write into.")] = Path(
        "selfplay"
    ),
    fmt: Annotated[
        str, typer.Option("--format", metavar="records|parquet|both", help="What to write.")
    ] = "both",
    players: Annotated[int, typer.Option("--players", metavar="2|4", help="Players at the table.")] = 2,
    preset: Annotated[
        str, typer.Option("--rules", metavar="PRESET", help=f"Rule preset: {', '.join(PRESET_NAMES)}.")
    ] = PRESET_NAMES[0],
    one_chica: Annotated[
        bool, typer.Option("--one-chica", help="Each mesa ends after its first chica (as in the arena).")
    ] = False,
    chunk: Annotated[
        int, typer.Option("--chunk", metavar="M", help="Mesas per task and per Parquet row group.")
    ] = CHUNK_MESAS,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", metavar="J", help="Worker processes (0: one per CPU).")
    ] = 1,
    ray: RayOption = None,
    ray_mode: RayModeOption = "tasks",
    verbose: Annotated[
        bool, typer.Option("--verbose", "-v", help="A line on stderr after each chunk: mesas done, seconds.")
    ] = False,
) -> None:
    """Play MESAS mesas of A against B and write them as game records and/or Parquet tables."""
    if fmt not in FORMAT_CHOICES:
        raise typer.BadParameter(f"{fmt!r}: choose records, parquet or both", param_hint="'--format'")
    if jobs < 0:
        raise typer.BadParameter(
            f"{jobs} workers? Use 1 or more, or 0 for one per CPU", param_hint="'--jobs'"
        )
    pool = ray_pool(ray, jobs, ray_mode) or make_pool(jobs)
    with ray_messages_to_stderr(pool) as stdout:
        start = time.perf_counter()
        done = [0]

        def progress(count: int) -> None:
            done[0] += count
            if verbose:
                typer.echo(f"{done[0]}/{mesas} mesas, {time.perf_counter() - start:.1f} s", err=True)

        try:
            summary = selfplay(
                a, b, mesas, seed, out, players=players, rules=preset, one_chica=one_chica,
                formats=FORMAT_CHOICES[fmt], pool=pool, chunk=chunk, progress=progress,
            )  # fmt: skip
        except SelfplayError as exc:
            raise typer.BadParameter(str(exc)) from None
        except (BotError, PoolError) as exc:
            typer.echo(f"Error: {exc}", err=True)
            raise typer.Exit(1) from None
        seconds = time.perf_counter() - start
        size = sum(p.stat().st_size for p in Path(out).rglob("*") if p.is_file())
        summary["seconds"] = round(seconds, 2)
        summary["bytes"] = size
        typer.echo(json.dumps(summary, ensure_ascii=False), file=stdout)
