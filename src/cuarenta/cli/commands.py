"""The ``cuarenta`` typer application: the root command and every subcommand.

Each subcommand is one function registered on :data:`app`; the commands that
need more than a few lines live in their own modules (:mod:`.play`,
:mod:`.arena`, :mod:`.serve`, :mod:`.demo`, :mod:`.backup`, :mod:`.offline`). With no subcommand the program
starts the web app (``serve`` with its defaults).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from typing import Annotated, Literal

import typer

from cuarenta import __version__
from cuarenta.cli.analyze import analyze_command
from cuarenta.cli.arena import arena_command, bare_ray
from cuarenta.cli.backup import backup_command, restore_command
from cuarenta.cli.daily import daily_command
from cuarenta.cli.demo import run_demo
from cuarenta.cli.offline import pack_command, site_command
from cuarenta.cli.options import LangOption
from cuarenta.cli.play import play_command
from cuarenta.cli.puzzle import puzzle_command
from cuarenta.cli.ratings import ratings_command
from cuarenta.cli.replay import replay_command
from cuarenta.cli.reports import puzzle_reports_command
from cuarenta.cli.selfplay import selfplay_command
from cuarenta.cli.serve import serve_command
from cuarenta.cli.worker import worker_command
from cuarenta.errors import RulesError
from cuarenta.i18n import DEFAULT_LANG
from cuarenta.rules import PRESET_NAMES, Rules


def _rich_mode() -> Literal["rich"] | None:
    """Rich help and error panels on a terminal, plain text when the output is captured."""
    return "rich" if sys.stdout.isatty() and sys.stderr.isatty() else None


app = typer.Typer(
    name="cuarenta",
    rich_markup_mode=_rich_mode(),
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


# -- commands -------------------------------------------------------------------------------------
def _version(value: bool) -> None:
    if value:
        typer.echo(f"cuarenta {__version__}")
        raise typer.Exit()


@app.callback(invoke_without_command=True)
def _root(
    ctx: typer.Context,
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit."),
    ] = False,
) -> None:
    """Cuarenta, the national card game of Ecuador.

    With no subcommand, starts the web app (`cuarenta serve`) and prints the address to open;
    `cuarenta demo --seed 3` shows a whole chica played by random players.
    """
    if ctx.invoked_subcommand is None:
        serve_command()  # the web app with the defaults
        raise typer.Exit()


@app.command()
def demo(
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed", metavar="N", help="Seed of the deal and of the random players (random if omitted)."
        ),
    ] = None,
    players: Annotated[
        int | None,
        typer.Option(
            "--players",
            metavar="2|4",
            help="2 (mano a mano) or 4 (two pairs); default 2, or 4 if the preset needs it.",
        ),
    ] = None,
    preset: Annotated[
        str,
        typer.Option("--rules", metavar="PRESET", help=f"Rule preset: {', '.join(PRESET_NAMES)}."),
    ] = PRESET_NAMES[0],
    lang: LangOption = DEFAULT_LANG,
    chica_only: Annotated[
        bool,
        typer.Option("--chicas-only/--mesa", help="Stop after the first chica, or play the whole mesa."),
    ] = True,
) -> None:
    """Play one chica between random players and narrate it move by move (in Spanish by default)."""
    try:
        rules = Rules.preset(preset, players)
    except RulesError as exc:
        hint = "'--players'" if preset in PRESET_NAMES else "'--rules'"
        raise typer.BadParameter(str(exc), param_hint=hint) from None
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)
    run_demo(rules, seed, lang, whole_mesa=not chica_only)


app.command("arena")(arena_command)
app.command("backup")(backup_command)
app.command("daily")(daily_command)
app.command("ratings")(ratings_command)
app.command("analyze")(analyze_command)
app.command("replay")(replay_command)
app.command("puzzle")(puzzle_command)
app.command("puzzle-reports")(puzzle_reports_command)
app.command("restore")(restore_command)
app.command("pack")(pack_command)
app.command("play")(play_command)
app.command("selfplay")(selfplay_command)
app.command("serve")(serve_command)
app.command("site")(site_command)
app.command("worker")(worker_command)


def run(argv: Sequence[str] | None = None) -> None:
    """Run the program (called by :func:`cuarenta.cli.main`, the ``[project.scripts]`` entry point).

    Help and usage errors are formatted with rich on a terminal and as plain
    text otherwise; a usage error exits with code 2.
    """
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="replace")
    app.rich_markup_mode = _rich_mode()
    app(args=bare_ray(sys.argv[1:] if argv is None else argv), prog_name="cuarenta")
