"""``cuarenta play``: a person against the computer in the terminal.

The command only checks its options and hands over to
:class:`cuarenta.cli.terminal.TerminalGame`, wired to stdin and stdout. It exits
with 0 when the mesa is won, on ``q`` and at the end of the input, and with
130 on Ctrl-C. Registered in :mod:`cuarenta.cli` as ``app.command("play")``.
"""

from __future__ import annotations

import os
import random
import sys
from typing import Annotated

import typer

from cuarenta.cli.options import LangOption
from cuarenta.cli.terminal import LEVELS, TerminalGame, default_level, level_problem
from cuarenta.errors import RulesError
from cuarenta.i18n import DEFAULT_LANG
from cuarenta.rules import PRESET_NAMES, Rules

#: Seconds before each computer move when a person types at a terminal.
TTY_DELAY = 0.6


def play_command(
    players: Annotated[
        int | None,
        typer.Option(
            "--players",
            metavar="2|4",
            help="2 (you against the computer) or 4 (you and a computer partner against two); "
            "default 2, or 4 if the preset needs it.",
        ),
    ] = None,
    level: Annotated[
        str | None,
        typer.Option(
            "--level",
            metavar="|".join(LEVELS),
            help="Strength of the computer players (default normal, or facil if normal is not available).",
        ),
    ] = None,
    preset: Annotated[
        str,
        typer.Option("--rules", metavar="PRESET", help=f"Rule preset: {', '.join(PRESET_NAMES)}."),
    ] = PRESET_NAMES[0],
    lang: LangOption = DEFAULT_LANG,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed", metavar="S", help="Seed of the deal and of the computer players (random if omitted)."
        ),
    ] = None,
    delay: Annotated[
        float | None,
        typer.Option(
            "--delay",
            metavar="SECONDS",
            min=0.0,
            help=f"Pause before each computer move (default {TTY_DELAY} at a terminal, 0 when piped).",
        ),
    ] = None,
) -> None:
    """Play Cuarenta against the computer: type a card's number, ? for a hint, q to quit."""
    if players is not None and players not in (2, 4):
        raise typer.BadParameter(f"{players} players: Cuarenta is played by 2 or 4", param_hint="'--players'")
    try:
        rules = Rules.preset(preset, players)
    except RulesError as exc:
        hint = "'--players'" if preset in PRESET_NAMES else "'--rules'"
        raise typer.BadParameter(str(exc), param_hint=hint) from None
    chosen = level if level is not None else default_level()
    problem = level_problem(chosen)
    if problem is not None:
        raise typer.BadParameter(problem, param_hint="'--level'")
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)
    if delay is None:
        delay = TTY_DELAY if sys.stdin.isatty() else 0.0
    try:
        code = TerminalGame(rules, level=chosen, seed=seed, lang=lang, delay=delay).run()
    except BrokenPipeError:
        # the output was closed (say, piped into `head`): stop quietly, as a finished program
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = 0
    if code:
        raise typer.Exit(code)
