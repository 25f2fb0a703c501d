"""``cuarenta replay RECORD``: a recorded mesa step by step in the terminal (docs/terminal.md "Replay").

Each step shows what happened — the play, the sayings and the end-of-hand summaries as the game said them
(:class:`~cuarenta.i18n.Narrator` over the events the record's actions made) — then the score, the table
and one seat's hand as that seat saw it, or, once the mesa is over, every hand (``abierto``). The person
moves with words (Spanish or English, the same in both languages):

=====================================  =========================================================
Enter, ``s``, ``n``                    the next play
``a``, ``b``                           the play before
``ir N`` / ``go N``                    to play N (0: before the first)
``mano H [R]`` / ``hand H [D]``        to the start of deal R of hand H (both from 1)
``inicio``/``start``, ``fin``/``end``  to the start, to the end
``ver N`` / ``seat N``                 the hand of seat N (from 1), as it saw it
``abierto`` / ``open``                 every hand (only for a mesa that is over)
``?``, ``ayuda``, ``help``             these words
``q``, ``salir``, ``quit``             leave
=====================================  =========================================================
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Annotated, Final, TextIO

import typer

from cuarenta.cards import Card
from cuarenta.cli.options import LangOption
from cuarenta.cli.records import RecordArgument, read_record, record_names
from cuarenta.cli.styles import DIM, EVENT_STYLES, SAYING_STYLE
from cuarenta.cli.terminal import INDENT, QUIT_WORDS, RULE, Screen
from cuarenta.errors import ReplayError
from cuarenta.events import Deal, DealerDraw, Play
from cuarenta.i18n import (
    DEFAULT_LANG,
    Line,
    Narrator,
    card_text,
    check_lang,
    score_text,
    t,
    team_names,
)
from cuarenta.record import GameRecord
from cuarenta.replay import Replay

NEXT_WORDS: Final = frozenset({"", "s", "n", "siguiente", "next"})
BACK_WORDS: Final = frozenset({"a", "b", "atras", "atrás", "back"})
START_WORDS: Final = frozenset({"inicio", "start"})
END_WORDS: Final = frozenset({"fin", "end"})
OPEN_WORDS: Final = frozenset({"abierto", "open"})
HELP_WORDS: Final = frozenset({"?", "ayuda", "help"})
GO_WORDS: Final = frozenset({"ir", "go"})
HAND_WORDS: Final = frozenset({"mano", "hand"})
SEAT_WORDS: Final = frozenset({"ver", "seat"})


class TerminalReplay:
    """A record's mesa on text streams, moved by words (module docstring). ``seat`` is the hand shown
    first; ``open_cards`` shows every hand (a mesa that is over only)."""

    def __init__(
        self,
        record: GameRecord,
        *,
        seat: int = 0,
        open_cards: bool = False,
        lang: str = DEFAULT_LANG,
        inp: TextIO | None = None,
        out: TextIO | None = None,
        color: bool = False,
        echo: bool = True,
    ) -> None:
        self.lang = check_lang(lang)
        self.replay = Replay(record)
        self.replay.view(seat)  # a seat the mesa does not have is refused here (ReplayError)
        if open_cards and not self.replay.finished:
            raise ReplayError.of("replay_not_over")
        self.seat = seat
        self.open_cards = open_cards
        self.inp: TextIO = inp if inp is not None else sys.stdin
        self.out: TextIO = out if out is not None else sys.stdout
        self.screen = Screen(self.out, color)
        self.echo = echo
        self.names = record_names(record, self.lang)
        self.teams = team_names(self.names, self.lang)
        narrator = Narrator(record.rules, self.lang, self.names)
        #: every step's narration, made once in order (a jump shows a step as it was said)
        self.lines: list[list[Line]] = [
            narrator.narrate(self.replay.events(p)) for p in range(self.replay.last + 1)
        ]

    # -- the loop -------------------------------------------------------------------------------------
    def run(self, start: int = 0) -> int:
        """Show the mesa at ``start`` and follow the person's words until ``q`` or the end of the input."""
        self.replay.goto(start)
        self.screen.line(t("term.replay.title", self.lang, plies=self.replay.last), "bold")
        self.screen.line(t("term.replay.howto", self.lang), DIM)
        self.show()
        while True:
            self.screen.parts([(t("term.replay.prompt", self.lang), "bold")], end="")
            raw = self.inp.readline()
            if not raw:
                self.out.write("\n")
                return 0
            if self.echo:
                self.out.write(raw.rstrip("\r\n") + "\n")
            words = raw.strip().lower().split()
            if words and words[0] in QUIT_WORDS:
                return 0
            try:
                self.obey(words)
            except ReplayError as exc:
                self.screen.line(exc.text(self.lang), "bold red", 2)

    def obey(self, words: Sequence[str]) -> None:
        """Do what the words ask (a :class:`ReplayError` says what could not be done) and show the step."""
        head = words[0] if words else ""
        given = [_number(w) for w in words[1:]]
        numbers = [n for n in given if n is not None]
        if len(numbers) != len(given):
            self.screen.line(t("term.replay.unknown", self.lang, text=" ".join(words)), "bold red", 2)
            return
        replay = self.replay
        if head in NEXT_WORDS and not numbers:
            if replay.ply == replay.last:
                self.screen.line(t("term.replay.at_end", self.lang), DIM, 2)
                return
            replay.forward()
        elif head in BACK_WORDS and not numbers:
            replay.back()
        elif head in START_WORDS:
            replay.goto(0)
        elif head in END_WORDS:
            replay.goto(replay.last)
        elif head in GO_WORDS and len(numbers) == 1:
            replay.goto(numbers[0])
        elif head in HAND_WORDS and 1 <= len(numbers) <= 2:
            replay.goto_deal(numbers[0] - 1, (numbers[1] if len(numbers) == 2 else 1) - 1)
        elif head in SEAT_WORDS and len(numbers) == 1:
            replay.view(numbers[0] - 1)
            self.seat, self.open_cards = numbers[0] - 1, False
        elif head in OPEN_WORDS:
            replay.open_state()
            self.open_cards = True
        elif head in HELP_WORDS:
            self.screen.line(t("term.replay.help", self.lang), DIM, 2)
            return
        else:
            self.screen.line(t("term.replay.unknown", self.lang, text=" ".join(words)), "bold red", 2)
            return
        self.show()

    # -- one step -------------------------------------------------------------------------------------
    def show(self) -> None:
        """The step at the replay's ply: what happened, then the score, the table and the hands."""
        lang = self.lang
        replay = self.replay
        mark = replay.mark()
        self.screen.line(RULE, DIM)
        self.screen.line(
            t(
                "replay.where",
                lang,
                ply=replay.ply,
                plies=replay.last,
                hand=mark.hand + 1,
                deal=mark.deal + 1,
            ),
            "bold",
        )
        for line in self.lines[replay.ply]:
            event = line.event
            heading = isinstance(event, (Deal, DealerDraw, Play))
            self.screen.line(line.text, EVENT_STYLES.get(event.kind), 0 if heading else INDENT)
            for saying in line.sayings:
                self.screen.line(f"« {saying} »" if lang == "es" else saying, SAYING_STYLE, INDENT + 2)
        game = replay.game
        self.screen.line(score_text(game.score, lang, self.teams))
        table = " ".join(card_text(c) for c in game.table) or t("table.empty", lang)
        self.screen.line(t("term.demo.table", lang, cards=table))
        if self.open_cards:
            state = replay.open_state()
            for seat, hand in enumerate(state["hands"]):
                cards = " ".join(card_text(Card.parse(c)) for c in hand) or "—"
                self.screen.line(t("term.replay.hand_of", lang, name=self.names[seat], cards=cards))
            return
        view = replay.view(self.seat)
        cards = " ".join(card_text(c) for c in view.hand) or "—"
        self.screen.line(t("term.replay.hand_of", lang, name=self.names[self.seat], cards=cards))
        others = " · ".join(
            f"{self.names[s]} {size}" for s, size in enumerate(view.hand_sizes) if s != self.seat
        )
        self.screen.line(t("term.play.counts", lang, counts=others, stock=view.stock_size), DIM)


def _number(word: str) -> int | None:
    return int(word) if word.isdigit() else None


def replay_command(
    record_path: RecordArgument,
    seat: Annotated[
        int, typer.Option("--seat", metavar="N", help="Whose hand to show, as it saw it (0: the first seat).")
    ] = 0,
    open_cards: Annotated[
        bool, typer.Option("--open", help="Show every hand (a finished mesa only).")
    ] = False,
    ply: Annotated[
        int, typer.Option("--ply", metavar="P", help="Start at play P (0: before the first).")
    ] = 0,
    lang: LangOption = DEFAULT_LANG,
) -> None:
    """Replay a recorded mesa step by step: Enter for the next play, `a` back, `ir N`, `mano H`, `abierto`.

    Example: `cuarenta replay mesa.cuarenta --open`; `?` lists the words.
    """
    record = read_record(record_path)
    try:
        viewer = TerminalReplay(
            record,
            seat=seat,
            open_cards=open_cards,
            lang=lang,
            color=sys.stdout.isatty(),
            echo=not sys.stdin.isatty(),
        )
        viewer.replay.goto(ply)
    except ReplayError as exc:
        raise typer.BadParameter(str(exc)) from None
    raise typer.Exit(viewer.run(ply))


__all__ = ["TerminalReplay", "replay_command"]
