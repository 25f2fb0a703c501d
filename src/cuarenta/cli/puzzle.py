"""``cuarenta puzzle``: the shipped puzzles in the terminal, one after another, with a streak
(docs/analysis.md "Puzzles").

Each puzzle shows what its seat sees — the score, the table, the card just dropped, the plays of the deal
so far and the hand — and asks for the move, typed as in ``cuarenta play`` (the card's number or the card;
when it can be played several ways, which). The answer is told at once with the reason in the game's
words: what the best move leaves in the chance of winning the chica, what the next best leaves and what it
does wrong. A right answer adds one to the streak, a wrong one ends it. ``saltar`` (``skip``) passes,
``q`` leaves.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Annotated, Final, TextIO

import typer

from cuarenta.analysis.puzzles import Puzzle, shipped
from cuarenta.cards import Card
from cuarenta.cli.analyze import describe_action
from cuarenta.cli.options import LangOption
from cuarenta.cli.terminal import QUIT_WORDS, RULE, InputProblem, Screen, chosen_number, interpret
from cuarenta.game import Game
from cuarenta.i18n import DEFAULT_LANG, card_text, check_lang, score_text, t
from cuarenta.moves import Action, Move
from cuarenta.players.knowledge import Knowledge
from cuarenta.players.search import rank_key

SKIP_WORDS: Final = frozenset({"saltar", "skip"})


def pick(puzzles: Sequence[Puzzle], rating: int | None = None, start: str | None = None) -> list[Puzzle]:
    """The order the puzzles are offered in: from the one named ``start`` on; or the nearest to ``rating``
    first (then by id); or as shipped."""
    order = list(puzzles)
    if start is not None:
        ids = [p.id for p in order]
        if start not in ids:
            raise ValueError(f"there is no puzzle {start!r}: the ids run from {ids[0]} to {ids[-1]}")
        return order[ids.index(start) :]
    if rating is not None:
        order.sort(key=lambda p: (abs(p.rating - rating), p.id))
    return order


class TerminalPuzzles:
    """Puzzles on text streams (module docstring); ``streak`` is the run of right answers."""

    def __init__(
        self,
        puzzles: Sequence[Puzzle],
        *,
        lang: str = DEFAULT_LANG,
        inp: TextIO | None = None,
        out: TextIO | None = None,
        echo: bool = True,
    ) -> None:
        self.puzzles = list(puzzles)
        self.lang = check_lang(lang)
        self.inp: TextIO = inp if inp is not None else sys.stdin
        self.out: TextIO = out if out is not None else sys.stdout
        self.screen = Screen(self.out, False)
        self.echo = echo
        self.streak = 0
        self.best_streak = 0
        self.solved = 0
        self.tried = 0

    def run(self) -> int:
        """Offer the puzzles until ``q``, the end of the input or the last puzzle."""
        lang = self.lang
        self.screen.line(t("term.puzzle.title", lang, count=len(self.puzzles)), "bold")
        try:
            for puzzle in self.puzzles:
                self.one(puzzle)
        except EOFError:
            self.out.write("\n")
        self.screen.line(
            t("term.puzzle.bye", lang, solved=self.solved, tried=self.tried, best=self.best_streak)
        )
        return 0

    def _read(self, prompt: str) -> str:
        self.screen.parts([(prompt, "bold")], end="")
        raw = self.inp.readline()
        if not raw:
            raise EOFError
        if self.echo:
            self.out.write(raw.rstrip("\r\n") + "\n")
        text = raw.strip()
        if text.lower() in QUIT_WORDS:
            raise EOFError
        return text

    def show(self, puzzle: Puzzle, game: Game) -> None:
        """The puzzle's position as its seat sees it."""
        lang = self.lang
        view = game.view(game.turn)
        self.screen.line(RULE)
        self.screen.line(t("term.puzzle.heading", lang, id=puzzle.id, rating=puzzle.rating), "bold")
        names = [t("puzzle.you", lang), t("puzzle.rival", lang)]
        if game.turn == 1:
            names.reverse()
        self.screen.line(score_text(game.score, lang, names))
        plays = []
        for ply, action in enumerate(game.actions):  # the deal's plays so far: the seats alternate
            who = names[(puzzle.record.start or {}).get("turn", 0) + ply & 1] if puzzle.record.start else "?"
            plays.append(f"{who} {card_text(_card(action))}")
        if plays:
            self.screen.line(t("term.puzzle.plays", lang, plays=" · ".join(plays)))
        table = " ".join(card_text(c) for c in view.table) or t("table.empty", lang)
        self.screen.line(t("term.demo.table", lang, cards=table))
        if view.last_drop is not None:
            self.screen.line(t("term.play.last_drop", lang, card=card_text(view.last_drop)))
        unseen = sorted(Knowledge.from_view(view).unseen)  # the last deal: exactly the rival's hand
        sampled = puzzle.kind == "sampled"  # else the rival's hand and the stock's cards
        key = "term.puzzle.unseen_sampled" if sampled else "term.puzzle.unseen"
        self.screen.line(t(key, lang, cards=" ".join(card_text(c) for c in unseen)))
        hand = "   ".join(f"{i}) {card_text(c)}" for i, c in enumerate(view.hand, start=1))
        self.screen.line(t("term.play.hand", lang, cards=hand))
        self.screen.line(t("term.puzzle.task_sampled" if sampled else "term.puzzle.task", lang))

    def answer(self, game: Game) -> Action | None:
        """The move typed (``None``: skipped)."""
        lang = self.lang
        hand = list(game.hand(game.turn))
        legal = game.legal_moves()
        while True:
            text = self._read(t("term.puzzle.prompt", lang))
            if text.lower() in SKIP_WORDS:
                return None
            try:
                given = interpret(text, hand, lang)
            except InputProblem as exc:
                self.screen.line(str(exc), "bold red", 2)
                continue
            if isinstance(given, Card):
                ways = _ways(legal, given)
                if len(ways) == 1:
                    return ways[0]
                for i, move in enumerate(ways, start=1):
                    self.screen.line(f"{i}) {describe_action(move, game, lang)}", None, 4)
                choice = self._read(t("term.play.choose_prompt", lang, last=len(ways)))
                n = chosen_number(choice, 1, len(ways))
                if n is not None:
                    return ways[n - 1]
                self.screen.line(t("term.input.choice", lang, last=len(ways)), "bold red", 2)
                continue
            if given in legal:
                return given
            self.screen.line(t("term.puzzle.illegal", lang, move=str(given)), "bold red", 2)

    def one(self, puzzle: Puzzle) -> None:
        """Offer one puzzle and tell the answer."""
        lang = self.lang
        game = puzzle.game()
        self.show(puzzle, game)
        given = self.answer(game)
        best, best_value = puzzle.values[0]
        second, second_value = puzzle.values[1]
        if given is None:
            self.screen.line(t("term.puzzle.skipped", lang, best=describe_action(best, game, lang)), None, 2)
            return
        self.tried += 1
        if puzzle.solves(given):
            self.solved += 1
            self.streak += 1
            self.best_streak = max(self.best_streak, self.streak)
            self.screen.line(t("puzzle.right", lang, streak=self.streak), "bold green", 2)
        else:
            self.streak = 0
            self.screen.line(
                t("term.puzzle.wrong", lang, best=describe_action(best, game, lang)), "bold red", 2
            )
        why = t(
            "puzzle.why",
            lang,
            best=describe_action(best, game, lang),
            best_chance=f"{100 * best_value:.0f}",
            second=describe_action(second, game, lang),
            second_chance=f"{100 * second_value:.0f}",
        )
        self.screen.line(why, None, 2)
        if puzzle.reasons:
            words = t("word.list_sep", lang).join(t(f"analysis.motif.{m}", lang) for m in puzzle.reasons)
            second_card = card_text(_card(second))
            self.screen.line(t("term.puzzle.reasons", lang, second=second_card, reasons=words), None, 2)


def _ways(legal: Sequence[Action], card: Card) -> list[Action]:
    """The ways to play ``card``, one per rank class (suits aside), in the engine's order."""
    seen: set[tuple[object, ...]] = set()
    out: list[Action] = []
    for a in legal:
        if isinstance(a, Move) and a.card == card and rank_key(a) not in seen:
            seen.add(rank_key(a))
            out.append(a)
    return out


def _card(action: Action) -> Card:
    return action.card if isinstance(action, Move) else action.cards[0]


def puzzle_command(
    rating: Annotated[
        int | None, typer.Option("--rating", metavar="R", help="Start with the puzzles nearest this rating.")
    ] = None,
    start: Annotated[str | None, typer.Option("--id", metavar="ID", help="Start at this puzzle.")] = None,
    lang: LangOption = DEFAULT_LANG,
) -> None:
    """Solve puzzles from real mesas: one move is clearly best. `saltar` passes, `q` leaves."""
    try:
        order = pick(shipped(), rating, start)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="'--id'") from None
    raise typer.Exit(TerminalPuzzles(order, lang=lang, echo=not sys.stdin.isatty()).run())


__all__ = ["TerminalPuzzles", "pick", "puzzle_command"]
