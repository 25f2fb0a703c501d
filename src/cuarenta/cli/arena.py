"""``cuarenta arena A B``: a match between two computer players on duplicate deals.

The command is a thin layer over :func:`cuarenta.players.arena.run_match`: it checks the
arguments (a bad player name, an odd number of chicas, an unknown preset … are
usage errors, exit code 2), shows a progress bar on stderr when stderr is a
terminal (never with ``--json``), and prints the statistics as a table, or as
one JSON object with ``--json``. A bot that misbehaves, or a chica that never
ends, stops the match with exit code 1.
"""

from __future__ import annotations

import json
import math
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Annotated, TextIO

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from cuarenta import players as players_
from cuarenta.errors import RulesError
from cuarenta.players.arena import (
    ArenaError,
    BotError,
    ChicaRecord,
    ChicaTooLongError,
    MatchResult,
    check_player,
    match_rules,
    run_match,
)
from cuarenta.players.pools import Pool, PoolError, RayPool
from cuarenta.rules import PRESET_NAMES, Rules

#: The value a bare ``--ray`` stands for (see :func:`bare_ray`): a local Ray.
LOCAL_RAY = "local"

RayOption = Annotated[
    str | None,
    typer.Option(
        "--ray",
        metavar="[ADDRESS]",
        help="Run on Ray: --ray alone starts a local Ray; --ray auto joins this machine's cluster; "
        "--ray ray://HOST:10001 a remote one. Same results as without it.",
    ),
]
RayModeOption = Annotated[
    str,
    typer.Option(
        "--ray-mode",
        metavar="tasks|pool",
        help="With --ray: Ray tasks, or ray.util.multiprocessing.Pool.",
    ),
]


def bare_ray(argv: Sequence[str]) -> list[str]:
    """The arguments with a bare ``--ray`` (last, or before another option) made ``--ray=local``:
    typer's options cannot take an optional value, so the program's entry point mends it here.

    >>> bare_ray(["arena", "facil", "normal", "--ray"]), bare_ray(["x", "--ray", "--json"])
    (['arena', 'facil', 'normal', '--ray=local'], ['x', '--ray=local', '--json'])
    >>> bare_ray(["x", "--ray", "auto"])
    ['x', '--ray', 'auto']
    """
    out = list(argv)
    for i, arg in enumerate(out):
        if arg == "--":
            break
        if arg == "--ray" and (i + 1 == len(out) or out[i + 1].startswith("-")):
            out[i] = f"--ray={LOCAL_RAY}"
    return out


def ray_pool(ray: str | None, jobs: int, mode: str) -> Pool | None:
    """The Ray pool the ``--ray`` and ``--ray-mode`` options ask for (``None``: no Ray); a bad mode is a
    usage error. ``--jobs`` above 1 sizes the batches for that many workers (default: the cluster's CPUs)."""
    if mode not in ("tasks", "pool"):
        raise typer.BadParameter(f"{mode!r}: choose tasks or pool", param_hint="'--ray-mode'")
    if ray is None:
        return None
    return RayPool(None if ray == LOCAL_RAY else ray, workers=jobs if jobs > 1 else None, mode=mode)


@contextmanager
def ray_messages_to_stderr(pool: Pool | None) -> Iterator[TextIO]:
    """The stream a command's own output goes to (standard output). While a Ray pool works, whatever else
    is written to standard output goes to standard error: Ray's driver prints the cluster's error messages
    there ("(raylet) A worker died or was killed…" when a worker is lost and its task is run again), and
    with ``--json`` standard output must hold the one JSON object alone.

    >>> import io, contextlib
    >>> err = io.StringIO()
    >>> with contextlib.redirect_stderr(err), ray_messages_to_stderr(RayPool()) as out:
    ...     print("(raylet) a message of Ray's")
    ...     print("{}", file=out)
    {}
    >>> err.getvalue()
    "(raylet) a message of Ray's\\n"
    """
    out = sys.stdout
    if not isinstance(pool, RayPool):
        yield out
        return
    sys.stdout = sys.stderr
    try:
        yield out
    finally:
        sys.stdout = out


def _signed(x: float, digits: int = 0) -> str:
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return f"{x:+.{digits}f}"


def format_result(result: MatchResult, jobs: int, where: str | None = None) -> list[str]:
    """The lines of the text report of a match."""
    a, b = result.bots
    name_a, name_b = f"A ({a.name})", f"B ({b.name})"
    low, high = result.ci
    elo_low, elo_high = result.elo_ci
    deals = result.chicas // 2
    lines = [
        f"{name_a} vs {name_b}: {result.chicas} chicas ({deals} deals, each played twice with the seats "
        f"swapped), {result.players} players, rules {result.preset}, seed {result.seed}",
        f"A won {result.a_wins} of {result.chicas} chicas: {100 * result.win_rate:.1f}% "
        f"(95% CI {100 * low:.1f}% – {100 * high:.1f}%)",
        f"Elo difference A − B: {_signed(result.elo)} (95% CI {_signed(elo_low)} … {_signed(elo_high)})",
        f"Margin per hand A − B: {_signed(result.margin_per_hand, 2)} points over {result.hands} hands",
        f"Deals won twice by A: {result.pairs[0]}, split: {result.pairs[1]}, "
        f"won twice by B: {result.pairs[2]}",
        "",
    ]
    rows: list[tuple[str, str, str]] = [
        ("", name_a, name_b),
        ("chicas won", str(a.chicas_won), str(b.chicas_won)),
        ("caídas", str(a.caidas), str(b.caidas)),
        ("limpias", str(a.limpias), str(b.limpias)),
        ("zapateros", str(a.zapateros), str(b.zapateros)),
        ("moves", str(a.move_ms.moves), str(b.move_ms.moves)),
        ("ms/move median", f"{a.move_ms.median:.3f}", f"{b.move_ms.median:.3f}"),
        ("ms/move p95", f"{a.move_ms.p95:.3f}", f"{b.move_ms.p95:.3f}"),
        ("ms/move max", f"{a.move_ms.max:.3f}", f"{b.move_ms.max:.3f}"),
    ]
    w0 = max(len(r[0]) for r in rows)
    w1 = max(len(r[1]) for r in rows)
    w2 = max(len(r[2]) for r in rows)
    lines += [f"{r[0]:<{w0}}  {r[1]:>{w1}}  {r[2]:>{w2}}" for r in rows]
    lines.append("")
    where = where or f"with {jobs} job{'s' if jobs != 1 else ''}"
    lines.append(f"Time: {result.seconds:.1f} s {where}")
    return lines


def _checked(a: str, b: str, chicas: int, players: int | None, preset: str, jobs: int) -> int:
    """The command's arguments checked (:class:`typer.BadParameter` naming the wrong one); the number of
    players of the match."""
    for hint, name in (("'A'", a), ("'B'", b)):
        try:
            check_player(name)
        except ArenaError as exc:
            raise typer.BadParameter(str(exc), param_hint=hint) from None
    if chicas <= 0 or chicas % 2:
        raise typer.BadParameter(
            f"{chicas} is not a positive even number: each deal is played twice, with the seats swapped",
            param_hint="'--chicas'",
        )
    if jobs < 0:
        raise typer.BadParameter(
            f"{jobs} workers? Use 1 or more, or 0 for one per CPU", param_hint="'--jobs'"
        )
    try:
        n_players = Rules.preset(preset, players).players
    except RulesError:
        n_players = players or 2  # match_rules below says what is wrong
    try:
        match_rules(preset, n_players)
    except ArenaError as exc:
        hint = "'--players'" if preset in PRESET_NAMES else "'--rules'"
        raise typer.BadParameter(str(exc), param_hint=hint) from None
    return n_players


def arena_command(  # noqa: PLR0913 - one parameter per option
    a: Annotated[str, typer.Argument(metavar="A", help=f"First player: {', '.join(players_.PLAYER_NAMES)}.")],
    b: Annotated[str, typer.Argument(metavar="B", help="Second player (the same choices).")],
    chicas: Annotated[
        int,
        typer.Option(
            "--chicas",
            metavar="N",
            help="Chicas to play, an even number: N/2 deals, each played twice with the seats swapped.",
        ),
    ] = 100,
    players: Annotated[
        int | None,
        typer.Option(
            "--players",
            metavar="2|4",
            help="2 (mano a mano) or 4 (A,A against B,B); default 2, or 4 if the preset needs it.",
        ),
    ] = None,
    preset: Annotated[
        str,
        typer.Option("--rules", metavar="PRESET", help=f"Rule preset: {', '.join(PRESET_NAMES)}."),
    ] = PRESET_NAMES[0],
    seed: Annotated[int, typer.Option("--seed", metavar="S", help="Seed of the deals and the bots.")] = 0,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", metavar="J", help="Worker processes (0: one per CPU).")
    ] = 1,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print one JSON object instead of a table.")
    ] = False,
    ray: RayOption = None,
    ray_mode: RayModeOption = "tasks",
) -> None:
    """Play a match of A against B on duplicate deals and print win rate, Elo, margin and move times."""
    n_players = _checked(a, b, chicas, players, preset, jobs)
    pool = ray_pool(ray, jobs, ray_mode)
    show_progress = not as_json and sys.stderr.isatty()
    with ray_messages_to_stderr(pool) as out:
        try:
            if show_progress:
                result = _run_with_progress(a, b, chicas, n_players, preset, seed, jobs, pool)
            else:
                result = run_match(a, b, chicas, n_players, preset, seed, jobs, pool=pool)
        except (BotError, ChicaTooLongError, PoolError) as exc:
            typer.echo(f"Error: {exc}", err=True)
            raise typer.Exit(1) from None
        except KeyboardInterrupt:
            typer.echo("Interrupted.", err=True)
            raise typer.Exit(130) from None

        if as_json:
            summary = result.to_dict()
            summary["jobs"] = jobs
            if ray is not None:
                summary["ray"] = ray
            typer.echo(json.dumps(summary, ensure_ascii=False), file=out)
        else:
            for line in format_result(result, jobs, None if ray is None else f"on Ray ({ray}, {ray_mode})"):
                typer.echo(line, file=out)


def _run_with_progress(
    a: str, b: str, chicas: int, players: int, preset: str, seed: int, jobs: int, pool: Pool | None
) -> MatchResult:
    """:func:`run_match` with a rich progress bar on stderr showing the running win rate of A."""
    console = Console(stderr=True)
    # no refresh thread (auto_refresh=False): worker processes may be forked while the bar is shown
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("chicas  A {task.fields[rate]}"),
        TimeElapsedColumn(),
        console=console,
        auto_refresh=False,
        transient=True,
    ) as bar:
        task = bar.add_task(f"{a} vs {b}", total=chicas, rate="–")
        done = [0, 0]
        last = [0.0]

        def advance(records: Sequence[ChicaRecord]) -> None:
            done[0] += len(records)
            done[1] += sum(1 for r in records if r.winner == "A")
            bar.update(task, advance=len(records), rate=f"{100 * done[1] / done[0]:.1f}%")
            now = time.monotonic()
            if now - last[0] >= 0.1 or done[0] == chicas:  # at most ten redraws a second
                last[0] = now
                bar.refresh()

        bar.refresh()
        return run_match(a, b, chicas, players, preset, seed, jobs, progress=advance, pool=pool)
