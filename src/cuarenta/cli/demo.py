"""``cuarenta demo``: one chica between random players, narrated move by move.

The demo's game loop is :func:`play_demo`, a plain function that returns the
game, so tests (and other front ends) can replay exactly what was shown:

>>> from cuarenta import Rules
>>> game = play_demo(Rules(), seed=3)
>>> any(e.kind == "chica_won" for e in game.events)
True
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Sequence

import typer
from rich.console import Console
from rich.text import Text

from cuarenta.cli.styles import DIM, EVENT_STYLES, SAYING_STYLE
from cuarenta.events import (
    ChicaWon,
    Deal,
    DealerDraw,
    Event,
    HandEnd,
    MesaWon,
    Play,
    Zapatero,
)
from cuarenta.game import Game
from cuarenta.i18n import DEFAULT_LANG, Narrator, cards_text, t
from cuarenta.moves import Action, Move
from cuarenta.rules import Rules

#: Called after every step of :func:`play_demo`: the game, the action (``None`` for
#: the events of the first deal) and the events that action caused.
StepCallback = Callable[[Game, Action | None, list[Event]], None]


# -- the game loop --------------------------------------------------------------------------------
def chica_end(events: Sequence[Event]) -> int | None:
    """Index just past the end of the first chica in ``events``, or ``None``.

    The end of a chica is its :class:`~cuarenta.events.ChicaWon` event and the
    :class:`~cuarenta.events.Zapatero` / :class:`~cuarenta.events.MesaWon`
    events that follow it at once (the next deal is not part of it).
    """
    for i, event in enumerate(events):
        if isinstance(event, ChicaWon):
            end = i + 1
            while end < len(events) and isinstance(events[end], (Zapatero, MesaWon)):
                end += 1
            return end
    return None


def play_demo(
    rules: Rules,
    seed: int,
    *,
    whole_mesa: bool = False,
    on_step: StepCallback | None = None,
) -> Game:
    """Play random legal moves from ``Game.new(rules, seed)`` until the first chica is won.

    Every move is ``random.Random(seed).choice(game.legal_moves())``, so the
    same rules and seed always give the same game. With ``whole_mesa`` the
    game goes on until the mesa is won. ``on_step`` sees the events of the
    first deal (with action ``None``) and then every action with its events.
    The returned game may hold events past the stopping point (the next deal,
    when the chica ended and the mesa did not): :func:`chica_end` finds it.
    """
    game = Game.new(rules, seed=seed)
    rng = random.Random(seed)
    first = list(game.events)
    if on_step is not None:
        on_step(game, None, first)
    if not whole_mesa and chica_end(first) is not None:
        return game
    while not game.is_over:
        action = rng.choice(game.legal_moves())
        events = game.play(action)
        if on_step is not None:
            on_step(game, action, events)
        if not whole_mesa and chica_end(events) is not None:
            break
    return game


# -- output ---------------------------------------------------------------------------------------
class Output:
    """Lines of text to stdout, coloured with rich only when stdout is a terminal."""

    def __init__(self, color: bool | None = None) -> None:
        if color is None:
            color = sys.stdout.isatty()
        self.console: Console | None = Console(highlight=False, soft_wrap=True) if color else None

    def line(self, text: str = "", style: str | None = None, indent: int = 0) -> None:
        text = " " * indent + text
        if self.console is None:
            typer.echo(text)
        else:
            self.console.print(Text(text, style=style or ""))


SCORE_STYLE = DIM
INDENT = 5


class DemoPrinter:
    """Narrates the steps of :func:`play_demo` (use it as its ``on_step``)."""

    def __init__(self, rules: Rules, lang: str, out: Output, whole_mesa: bool = False) -> None:
        self.rules = rules
        self.lang = lang
        self.out = out
        self.whole_mesa = whole_mesa
        self.narrator = Narrator(rules, lang)
        self.moves = 0
        self.chicas_done = 0
        self.finished = False

    def header(self, seed: int) -> None:
        lang = self.lang
        scope = t("term.demo.scope_mesa" if self.whole_mesa else "term.demo.scope_chica", lang)
        self.out.line(t("term.demo.title", lang), "bold")
        setup = t(
            "term.demo.setup",
            lang,
            seed=seed,
            players=self.rules.players,
            preset=self.rules.preset_name,
            scope=scope,
        )
        self.out.line(setup)
        self.out.line(t("term.demo.random", lang), SCORE_STYLE)
        if self.whole_mesa:
            self.out.line()
            self.out.line(t("term.demo.chica_header", lang, n=1), "bold underline")

    def __call__(self, game: Game, action: Action | None, events: list[Event]) -> None:
        if self.finished:
            return
        shown = events
        end = chica_end(events)
        if end is not None and not self.whole_mesa:
            shown = events[:end]
            self.finished = True
        last_deal = max((i for i, e in enumerate(events) if isinstance(e, Deal)), default=None)
        ended = any(isinstance(e, (HandEnd, ChicaWon)) for e in events)
        for i, line in enumerate(self.narrator.narrate(shown)):
            event = line.event
            if isinstance(event, Play):
                self._play_line(game, line.text, table=isinstance(action, Move) and not ended)
            else:
                if isinstance(event, Deal) and event.deal == 0:
                    self.out.line()
                heading = isinstance(event, (Deal, DealerDraw))
                self.out.line(line.text, EVENT_STYLES.get(event.kind), 0 if heading else INDENT)
            for saying in line.sayings:
                self.out.line(f"« {saying} »" if self.lang == "es" else saying, SAYING_STYLE, INDENT + 2)
            if line.scores is not None:
                self.out.line(self.narrator.score_text(line.scores), SCORE_STYLE, INDENT + 2)
            if isinstance(event, Deal) and i == last_deal:
                self._hands(game)
            if isinstance(event, ChicaWon):
                self.chicas_done += 1
            group_over = i + 1 == len(shown) or not isinstance(shown[i + 1], (Zapatero, MesaWon))
            if self.whole_mesa and isinstance(event, (ChicaWon, Zapatero)) and group_over:
                # the chica is over and the mesa is not: the next chica starts
                self.out.line()
                self.out.line(
                    t("term.demo.chica_header", self.lang, n=self.chicas_done + 1), "bold underline"
                )

    def _play_line(self, game: Game, text: str, table: bool) -> None:
        """A numbered play; with ``table``, the table it leaves."""
        self.moves += 1
        text = f"{self.moves:>3}. {text}"
        if table:
            cards = cards_text(game.table) or t("table.empty", self.lang)
            text += f"  [{t('term.demo.table', self.lang, cards=cards)}]"
        self.out.line(text)

    def _hands(self, game: Game) -> None:
        """Every seat's hand, as dealt."""
        for seat in range(game.players):
            hand = t(
                "term.demo.hand",
                self.lang,
                seat=self.narrator.seat_names[seat],
                cards=cards_text(game.hand(seat)),
            )
            self.out.line(hand, SCORE_STYLE, INDENT)

    def footer(self) -> None:
        self.out.line()
        self.out.line(t("term.demo.end", self.lang, moves=self.moves), "bold")


def run_demo(
    rules: Rules,
    seed: int,
    lang: str = DEFAULT_LANG,
    whole_mesa: bool = False,
    out: Output | None = None,
) -> Game:
    """Print the narrated demo game and return it."""
    printer = DemoPrinter(rules, lang, out or Output(), whole_mesa)
    printer.header(seed)
    game = play_demo(rules, seed, whole_mesa=whole_mesa, on_step=printer)
    printer.footer()
    return game
