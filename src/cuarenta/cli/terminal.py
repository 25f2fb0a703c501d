"""The terminal game: a person against the computer (``cuarenta play``).

:class:`TerminalGame` is the whole game loop. It reads the person's answers
from any text stream and writes to any text stream, so tests (and other
programs) can drive it with scripted input; the ``cuarenta play`` command only
wires it to stdin and stdout. The person always sits at seat 0 and sees only
what ``game.view(0)`` shows; the computer players get their own views through
:func:`cuarenta.players.act`, and their plays are shown as they happen.

>>> import io
>>> from cuarenta import Rules
>>> out = io.StringIO()
>>> TerminalGame(Rules(), level="facil", seed=3, inp=io.StringIO("?\\nq\\n"), out=out).run()
0
>>> text = out.getvalue()
>>> "Pista:" in text and "Llevan algo:" in text, text.rstrip().endswith("¡Hasta la próxima!")
(True, True)

Input, at the card prompt: the card's number in the hand (``1`` … ``5``), the
card itself (``7h``, ``7♥``), a whole move in the project's notation
(``7h x3c+4d``, ``claim 5s,6h``), ``?`` (or ``ayuda``/``help``) for a hint,
``consejo`` (or ``??``/``advice``) for what ``experto`` would play (thought from the person's view only),
``q`` (or ``salir``/``quit``) to leave. When the card chosen can be played in
more than one way (several bases, R9; in manual capture mode, R12, also
shorter escaleras and taking nothing) the ways are listed and numbered.
"""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, TextIO

from rich.console import Console
from rich.text import Text

import cuarenta.players as registry
from cuarenta.cards import RANK_CHARS, SUIT_CHARS, SUIT_SYMBOLS, Card
from cuarenta.cli.styles import DIM, EVENT_STYLES, SAYING_STYLE
from cuarenta.errors import CardParseError, IllegalMoveError, MoveParseError, clip
from cuarenta.events import (
    ChicaWon,
    Deal,
    DealerDraw,
    Event,
    MesaWon,
    Play,
    Zapatero,
)
from cuarenta.game import Game
from cuarenta.i18n import (
    DEFAULT_LANG,
    Narrator,
    card_text,
    cards_text,
    check_lang,
    rank_name,
    score_text,
    t,
    team_names,
)
from cuarenta.moves import Action, Claim, Move, parse_action
from cuarenta.players import Player, act, make_player
from cuarenta.players.hints import card_hints
from cuarenta.rules import Rules, is_caida, is_limpia
from cuarenta.view import SeatView

#: The computer levels offered to people, weakest first.
LEVELS: Final = ("facil", "normal", "dificil", "experto")
#: The person's seat.
HUMAN: Final = 0

HELP_WORDS: Final = frozenset({"?", "ayuda", "help"})
ADVICE_WORDS: Final = frozenset({"??", "consejo", "advice"})
#: The computer player whose judgement ``consejo`` gives (the page's advice is the same level's).
ADVICE_LEVEL: Final = "experto"
QUIT_WORDS: Final = frozenset({"q", "salir", "quit", "exit"})
CLAIM_WORDS: Final = ("reclamar", "reclamo", "claim")

ERROR_STYLE: Final = "bold red"
RULE: Final = "─" * 60
INDENT: Final = 4


# -- seat names -----------------------------------------------------------------------------------
def seat_labels(players: int, lang: str = DEFAULT_LANG) -> list[str]:
    """How the terminal names the seats: the person, then the computer players.

    >>> seat_labels(2)
    ['Jugador 1 (tú)', 'Jugador 2 (computadora)']
    >>> seat_labels(4, "en")[1:]
    ['Player 2 (opponent)', 'Player 3 (partner)', 'Player 4 (opponent)']
    """
    names = [t("term.play.you", lang)]
    for seat in range(1, players):
        if players == 2:
            key = "term.play.computer"
        else:
            key = "term.play.partner" if seat % 2 == HUMAN % 2 else "term.play.opponent"
        names.append(t(key, lang, n=seat + 1))
    return names


# -- reading the person's input -------------------------------------------------------------------
class InputProblem(ValueError):
    """Input that is not a card, a number in range, or a move; the message says why (localised)."""


def parse_card_text(text: str, lang: str = DEFAULT_LANG, last: int = 5) -> Card:
    """A card written by a person (``7h``, ``7H``, ``7♥``), or :class:`InputProblem` saying what is wrong.

    >>> parse_card_text("Q♦")
    Card('Qd')
    >>> parse_card_text("8h")
    Traceback (most recent call last):
    ...
    cuarenta.cli.terminal.InputProblem: '8h' no es una carta: en el cuarenta no hay 8, 9 ni 10
    """
    s = text.strip()
    rank_text, suit_text = s[:-1], s[-1:]
    if rank_text in ("8", "9", "10") and suit_text:
        raise InputProblem(CardParseError.of("card_not_in_deck", text=s).text(lang))
    rank_ok = rank_text == "1" or (len(rank_text) == 1 and rank_text.upper() in RANK_CHARS)
    if not rank_ok:
        raise InputProblem(t("term.input.unknown", lang, text=s, last=last))
    if suit_text.lower() not in SUIT_CHARS and suit_text not in SUIT_SYMBOLS:
        raise InputProblem(CardParseError.of("card_bad_suit", text=s).text(lang))
    return Card.parse(("A" if rank_text == "1" else rank_text) + suit_text)


def chosen_number(text: str, low: int, high: int) -> int | None:
    """``text`` as a whole number from ``low`` to ``high``, or ``None``: what a person types to choose from a
    numbered list. Thousands of digits are ``None`` too (Python's ``int()`` refuses 4,300).

    >>> [chosen_number(text, 1, 5) for text in (" 2", "0", "9" * 5000, "²")]
    [2, None, None, None]
    """
    s = text.strip()
    if not s.isdecimal() or len(s) > len(str(high)):
        return None
    n = int(s)
    return n if low <= n <= high else None


def interpret(text: str, hand: Sequence[Card], lang: str = DEFAULT_LANG) -> Card | Action:
    """What the person typed at the card prompt: a card of ``hand`` or a whole action.

    A number picks the card by its place in the hand (1 = first); a card is
    given as text; a move or claim in the project's notation is returned as
    parsed (the engine checks it when played). Anything else raises
    :class:`InputProblem` with the reason, in ``lang``.

    >>> hand = Card.parse_many("7h 5s Kc")
    >>> interpret("2", hand), interpret("k♣", hand), interpret("7h x3c+4d", hand)
    (Card('5s'), Card('Kc'), Move.parse('7h x3c+4d'))
    >>> interpret("9", hand)
    Traceback (most recent call last):
    ...
    cuarenta.cli.terminal.InputProblem: No hay carta número 9: elige de 1 a 3.
    """
    s = text.strip()
    last = len(hand)
    low = s.lower()
    for word in CLAIM_WORDS:
        if low.startswith(word) and (len(s) == len(word) or not s[len(word)].isalnum()):
            try:
                return parse_action("claim " + s[len(word) :].strip())
            except MoveParseError as exc:
                raise InputProblem(t("term.input.move", lang, text=s, reason=exc.text(lang))) from None
    if re.fullmatch(r"[+-]?\d+", s):
        n = chosen_number(s.removeprefix("+"), 1, last)
        if n is None:
            raise InputProblem(t("term.input.number", lang, n=clip(s), last=last))
        return hand[n - 1]
    head = s.split()[0]
    if head == s and "x" in head[2:].lower():  # "7hx3c", written without the space
        head = head[:2]
    card = parse_card_text(head, lang, last)
    if card not in hand:
        raise InputProblem(t("term.input.not_in_hand", lang, card=card_text(card), hand=cards_text(hand)))
    if head == s:
        return card
    try:
        move = Move.parse(s)
    except MoveParseError as exc:
        raise InputProblem(t("term.input.move", lang, text=s, reason=exc.text(lang))) from None
    return move


# -- describing moves -----------------------------------------------------------------------------
def option_text(move: Move, table: Sequence[Card], last_drop: Card | None, lang: str = DEFAULT_LANG) -> str:
    """One way to play a card, for the menus and the hint: what it takes and whether it scores.

    >>> table = Card.parse_many("3c 4d Js 7s")
    >>> option_text(Move.parse("7h x3c+4d,Js"), table, Card("7s"))
    'llevar 3♣ + 4♦ y en escalera J♠'
    >>> option_text(Move.parse("7h x7s"), table, Card("7s"), "en")
    'take 7♠ (a caída)'
    """
    if not move.base:
        return t("move.drop", lang, card=card_text(move.card))
    base = " + ".join(card_text(c) for c in move.base)
    if move.run:
        text = t("move.take_run", lang, base=base, run=cards_text(move.run))
    else:
        text = t("move.take", lang, base=base)
    marks = []
    if is_caida(move, last_drop):
        marks.append(t("move.caida", lang))
    if is_limpia(move, len(table)):
        marks.append(t("move.limpia", lang))
    if marks:
        text += " (" + t("word.list_sep", lang).join(marks) + ")"
    return text


# -- the hint -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Risk:
    """What a card would leave to the next player if played now (from :mod:`cuarenta.players.hints`)."""

    card: Card
    table: tuple[Card, ...]  #: the table after the play
    caida: int  #: unseen cards of its rank when it stays on the table (0: no caída to fear)
    limpia_ranks: tuple[int, ...]  #: unseen ranks that would take the whole table next


@dataclass(frozen=True)
class Hint:
    """The hint for the seat to move: which cards take something, make caída or limpia, or leave risks."""

    captures: dict[Card, tuple[Move, ...]]  #: cards that take something, with their captures
    caidas: tuple[Card, ...]
    limpias: tuple[Card, ...]
    risks: tuple[Risk, ...]  #: cards every natural play of which leaves an easy caída or limpia

    @property
    def takers(self) -> tuple[Card, ...]:
        return tuple(self.captures)


def make_hint(view: SeatView, legal: Sequence[Action]) -> Hint:
    """The hint for the seat of ``view`` (it must be that seat's turn), from its view and legal actions.

    The same advice as the page's Ayudas (:func:`cuarenta.players.hints.card_hints`): it uses nothing
    the seat cannot see, and warns only of an *easy* caída or limpia for the next player.
    """
    hints = card_hints(view, legal)
    risks = []
    for h in hints:
        if h.risk is not None:
            caida = h.risk.unseen if h.risk.kind == "caida" else 0
            limpia = h.risk.ranks if h.risk.kind == "limpia" else ()
            risks.append(Risk(h.card, h.risk.table, caida, limpia))
    return Hint(
        captures={h.card: h.captures for h in hints if h.captures},
        caidas=tuple(h.card for h in hints if h.caida),
        limpias=tuple(h.card for h in hints if h.limpia),
        risks=tuple(risks),
    )


def hint_lines(
    hint: Hint, table: Sequence[Card], last_drop: Card | None, lang: str = DEFAULT_LANG
) -> list[str]:
    """The hint as lines of text (summary lines start at column 0; details are indented)."""
    none = t("term.hint.none", lang)
    sep = t("word.list_sep", lang)

    def listed(cards: Iterable[Card]) -> str:
        return sep.join(card_text(c) for c in cards) or none

    lines = [t("term.hint.takes", lang, cards=listed(hint.takers))]
    for card, moves in hint.captures.items():
        ways = " | ".join(option_text(m, table, last_drop, lang) for m in moves)
        lines.append(" " * INDENT + f"{card_text(card)}: {ways}")
    lines.append(t("term.hint.caidas", lang, cards=listed(hint.caidas)))
    lines.append(t("term.hint.limpias", lang, cards=listed(hint.limpias)))
    lines.append(t("term.hint.risky", lang, cards=listed(r.card for r in hint.risks)))
    for risk in hint.risks:
        reasons = []
        shown = card_text(risk.card)
        rank = rank_name(risk.card.rank, lang, plural=True)
        if risk.caida and risk.table == (risk.card,):
            reasons.append(t("term.hint.risk_caida_limpia", lang, card=shown, count=risk.caida, rank=rank))
        elif risk.caida:
            reasons.append(t("term.hint.risk_caida", lang, card=shown, count=risk.caida, rank=rank))
        if risk.limpia_ranks and risk.table != (risk.card,):
            ranks = f" {t('word.or', lang)} ".join(RANK_CHARS[r] for r in risk.limpia_ranks)
            reasons.append(
                t("term.hint.risk_limpia", lang, card=shown, table=cards_text(risk.table), ranks=ranks)
            )
        lines.append(" " * INDENT + "; ".join(reasons))
    return lines


# -- output ---------------------------------------------------------------------------------------
class Screen:
    """Writes lines to a text stream: coloured with rich when ``color``, else plain text."""

    def __init__(self, out: TextIO, color: bool) -> None:
        self.out = out
        self.console: Console | None = (
            Console(file=out, force_terminal=True, highlight=False, soft_wrap=True, emoji=False)
            if color
            else None
        )

    def parts(self, parts: Sequence[tuple[str, str | None]], end: str = "\n") -> None:
        """Write pieces of text, each with its rich style (ignored in plain text)."""
        if self.console is None:
            self.out.write("".join(p for p, _ in parts) + end)
        else:
            text = Text()
            for piece, style in parts:
                text.append(piece, style=style or "")
            self.console.print(text, end=end)
        self.out.flush()

    def line(self, text: str = "", style: str | None = None, indent: int = 0) -> None:
        self.parts([(" " * indent + text, style)])


def _card_style(card: Card) -> str:
    return "bold red" if card.suit_char in "hd" else "bold"


class _Quit(Exception):
    """The person asked to leave."""


class _EndOfInput(Exception):
    """The input stream ended."""


# -- the game loop --------------------------------------------------------------------------------
class TerminalGame:
    """A mesa of Cuarenta between a person (seat 0) and computer players, on text streams.

    ``rules`` and ``seed`` make the game (or pass a ready ``game``, e.g. from
    :meth:`Game.from_position`); ``level`` names the computer players
    (``make_player(level, seed=f"{seed}/{seat}")``), or ``players`` gives them
    by seat. ``inp``/``out`` default to stdin/stdout; ``color`` defaults to
    whether ``out`` is a terminal; ``echo`` (default: ``inp`` is not a
    terminal) writes each answer after its prompt so a transcript reads well.
    ``delay`` seconds pass (through ``sleep``) before each computer move.
    """

    def __init__(  # noqa: PLR0913 - the public constructor: keyword-only settings, each with its default
        self,
        rules: Rules | None = None,
        *,
        level: str = "facil",
        seed: int | str = 0,
        lang: str = DEFAULT_LANG,
        inp: TextIO | None = None,
        out: TextIO | None = None,
        color: bool | None = None,
        echo: bool | None = None,
        delay: float = 0.0,
        sleep: Callable[[float], None] = time.sleep,
        game: Game | None = None,
        players: Mapping[int, Player] | None = None,
    ) -> None:
        self.lang = check_lang(lang)
        self.game = game if game is not None else Game.new(rules or Rules(), seed=seed)
        self.rules = self.game.rules
        self.seed = seed
        self.level = level
        self.inp: TextIO = inp if inp is not None else sys.stdin
        self.out: TextIO = out if out is not None else sys.stdout
        self.screen = Screen(self.out, _isatty(self.out) if color is None else color)
        self.echo = (not _isatty(self.inp)) if echo is None else echo
        self.delay = delay
        self.sleep = sleep
        n = self.game.players
        given = dict(players or {})
        self.bots: dict[int, Player] = {}
        for seat in range(n):
            if seat == HUMAN:
                continue
            bot = given.get(seat) or make_player(level, seed=f"{seed}/{seat}")
            bot.start(seat, self.rules)
            self.bots[seat] = bot
        self.names = seat_labels(n, self.lang)
        self.teams = team_names(self.names, self.lang)
        self.narrator = Narrator(self.rules, self.lang, self.names)
        start = self.game.to_dict().get("start")
        if start:  # a game from a position: its narration starts from the position's scores
            self.narrator.scores = (start["scores"][0], start["scores"][1])
        self._pending_prompt = False
        self._chicas_seen = sum(start["chicas"]) if start else 0  # ChicaWon events narrated so far

    # -- the whole game ---------------------------------------------------------------------------
    def run(self) -> int:
        """Play until the mesa is won, the person quits or the input ends.

        Returns the exit code: 0 for a finished mesa, ``q`` or the end of the
        input, 130 for Ctrl-C (``KeyboardInterrupt``). Prints no traceback.
        """
        try:
            self._intro()
            self._narrate(self.game.events)
            while not self.game.is_over:
                events = self._person_turn() if self.game.turn == HUMAN else self._computer_turn()
                self._narrate(events)
            self._result()
            return 0
        except _Quit:
            self._farewell("term.play.quit")
            return 0
        except _EndOfInput:
            self._farewell("term.play.eof")
            return 0
        except KeyboardInterrupt:
            self._farewell("term.play.interrupted")
            return 130

    def _farewell(self, key: str) -> None:
        if self._pending_prompt:
            self.out.write("\n")
        self.screen.line()
        if not self.game.is_over:
            self.screen.line(score_text(self.game.score, self.lang, self.teams), DIM)
        self.screen.line(t(key, self.lang), "bold")

    def _intro(self) -> None:
        lang = self.lang
        n = self.game.players
        self.screen.line(t("term.play.title" if n == 2 else "term.play.title_pairs", lang), "bold")
        preset = self.rules.preset_name
        self.screen.line(
            t("term.play.setup", lang, seed=self.seed, players=n, preset=preset, level=self.level)
        )
        self.screen.line(t("term.play.goal", lang, target=self.rules.target, chicas=self.rules.chicas), DIM)
        if n == 4:
            teams = t(
                "term.play.teams",
                lang,
                team_a=self.teams[0],
                partner=self.names[2],
                team_b=self.teams[1],
                first=self.names[1],
                second=self.names[3],
            )
            self.screen.line(teams, DIM)
        self.screen.line(t("term.play.howto", lang), DIM)

    # -- narration --------------------------------------------------------------------------------
    def _narrate(self, events: Sequence[Event]) -> None:
        lang = self.lang
        for i, line in enumerate(self.narrator.narrate(events)):
            event = line.event
            if isinstance(event, Deal) and event.deal == 0:
                self.screen.line()
            if isinstance(event, Play):
                self.screen.line(line.text, "bold" if event.seat == HUMAN else None)
            else:
                heading = isinstance(event, (Deal, DealerDraw))
                self.screen.line(line.text, EVENT_STYLES.get(event.kind), 0 if heading else INDENT)
            for saying in line.sayings:
                self.screen.line(f"« {saying} »" if lang == "es" else saying, SAYING_STYLE, INDENT + 2)
            if line.scores is not None:
                self.screen.line(self.narrator.score_text(line.scores), DIM, INDENT + 2)
            if isinstance(event, ChicaWon):
                self._chicas_seen += 1
            following = events[i + 1] if i + 1 < len(events) else None
            chica_over = isinstance(event, (ChicaWon, Zapatero)) and not isinstance(
                following, (Zapatero, MesaWon)
            )
            if chica_over and not self.game.is_over:
                self.screen.line()
                self.screen.line(t("term.demo.chica_header", lang, n=self._chicas_seen + 1), "bold underline")

    def _result(self) -> None:
        lang = self.lang
        game = self.game
        self.screen.line()
        self.screen.line(t("result.title", lang), "bold underline")
        for n, res in enumerate(game.chica_results, start=1):
            scores = score_text(res.scores, lang, self.teams).split(": ", 1)[-1]
            text = t("result.chica", lang, n=n, scores=scores, team=self.teams[res.winner])
            if res.zapatero:
                key = "result.platillo" if res.platillo else "result.zapatero"
                text += " (" + t(key, lang, team=self.teams[1 - res.winner]) + ")"
            self.screen.line(text, None, INDENT)
        outcome = game.outcome
        assert outcome is not None
        mine = HUMAN % 2
        won, lost = outcome.chicas[outcome.winner], outcome.chicas[1 - outcome.winner]
        if outcome.winner == mine:
            key = "result.you_win" if game.players == 2 else "result.team_win"
            style = "bold green"
        else:
            key = "result.you_lose" if game.players == 2 else "result.team_lose"
            style = "bold"
        self.screen.line(f"{t(key, lang)} {t('result.chicas', lang, won=won, lost=lost)}", style)

    # -- the status before the person's turn ------------------------------------------------------
    def _status(self) -> None:
        lang = self.lang
        game = self.game
        view = game.view(HUMAN)
        sep = " · "
        self.screen.line(RULE, DIM)
        self.screen.line(score_text(game.score, lang, self.teams))
        chicas = sep.join(f"{self.teams[i]} {c}" for i, c in enumerate(game.chicas))
        self.screen.line(t("term.play.chicas", lang, chicas=chicas), DIM)
        counts = sep.join(f"{self.names[s]} {size}" for s, size in enumerate(view.hand_sizes) if s != HUMAN)
        self.screen.line(t("term.play.counts", lang, counts=counts, stock=view.stock_size), DIM)
        table = list(view.table)
        label = t("term.demo.table", lang, cards="").rstrip()
        parts: list[tuple[str, str | None]] = [(label + " ", "bold")]
        if table:
            for i, c in enumerate(table):
                parts.append((("" if i == 0 else " ") + card_text(c), _card_style(c)))
        else:
            parts.append((t("table.empty", lang), DIM))
        drop = view.last_drop
        if drop is not None:
            parts.append(("   " + t("term.play.last_drop", lang, card=card_text(drop)), "yellow"))
        self.screen.parts(parts)
        hand = list(view.hand)
        label = t("term.play.hand", lang, cards="").rstrip()
        parts = [(label + " ", "bold")]
        for i, c in enumerate(hand, start=1):
            parts.append((f"{'' if i == 1 else '   '}{i}) ", None))
            parts.append((card_text(c), _card_style(c)))
        self.screen.parts(parts)

    # -- input ------------------------------------------------------------------------------------
    def _read(self, prompt: str) -> str:
        """Ask, and return the answer; help and quit words are handled here."""
        while True:
            self.screen.parts([(prompt, "bold")], end="")
            self._pending_prompt = True
            if self.inp is sys.stdin and _isatty(sys.stdin):
                try:
                    raw = input()
                except EOFError:
                    raise _EndOfInput from None
                self._pending_prompt = False
            else:
                raw = self.inp.readline()
                if not raw:
                    raise _EndOfInput
                self._pending_prompt = False
                if self.echo:
                    self.out.write(raw.rstrip("\r\n") + "\n")
                    self.out.flush()
            text = raw.strip()
            low = text.lower()
            if not text:
                continue
            if low in QUIT_WORDS:
                raise _Quit
            if low in HELP_WORDS:
                self._show_hint()
                continue
            if low in ADVICE_WORDS:
                self._show_advice()
                continue
            return text

    def _problem(self, message: str) -> None:
        self.screen.line(message, ERROR_STYLE, 2)

    def _show_hint(self) -> None:
        game = self.game
        view = game.view(HUMAN)
        hint = make_hint(view, game.legal_moves())
        table = list(view.table)
        drop = view.last_drop
        self.screen.line(t("term.hint.title", self.lang), "bold green", 2)
        for line in hint_lines(hint, table, drop, self.lang):
            self.screen.line(line, "green", 2)
        self.screen.line(t("term.advice.more", self.lang), DIM, 2)

    def advice(self) -> Action:
        """What ``experto`` would play for the person now, from the person's view only (seeded from the
        game's seed: the same position is given the same advice). It must be the person's turn."""
        game = self.game
        if game.is_over or game.turn != HUMAN:
            raise ValueError("advice is for the person's turn")
        # a player of its own for each position, seeded by it: the same position is given the same advice
        # however often (and after whatever other questions) it is asked
        advisor = make_player(ADVICE_LEVEL, seed=f"{self.seed}/advice/{len(game.actions)}")
        advisor.start(HUMAN, self.rules)
        return act(advisor, game)

    def _show_advice(self) -> None:
        lang = self.lang
        game = self.game
        if game.is_over or game.turn != HUMAN:  # pragma: no cover - asked only at the person's prompt
            return
        self.screen.line(t("term.advice.thinking", lang), DIM, 2)
        action = self.advice()
        if isinstance(action, Claim):
            what = t("claim.take", lang, cards=cards_text(action.cards))
        else:
            what = f"{card_text(action.card)}: {option_text(action, list(game.table), game.last_drop, lang)}"
        self.screen.line(t("term.advice.says", lang, what=what, move=str(action)), "bold green", 2)

    # -- turns ------------------------------------------------------------------------------------
    def _computer_turn(self) -> list[Event]:
        if self.delay > 0:
            self.sleep(self.delay)
        game = self.game
        action = act(self.bots[game.turn], game)
        return game.play(action)

    def _person_turn(self) -> list[Event]:
        game = self.game
        lang = self.lang
        self._status()
        legal = game.legal_moves()
        claims = [a for a in legal if isinstance(a, Claim)]
        if claims:
            claim = self._offer_claims(claims)
            if claim is not None:
                return game.play(claim)
        while True:
            hand = game.hand(HUMAN)
            text = self._read(t("term.play.prompt", lang, last=len(hand)))
            try:
                chosen = interpret(text, hand, lang)
            except InputProblem as exc:
                self._problem(str(exc))
                continue
            if isinstance(chosen, Card):
                options = [m for m in game.legal_moves() if isinstance(m, Move) and m.card == chosen]
                if len(options) <= 1:
                    action: Action | None = options[0] if options else Move(chosen)
                else:
                    action = self._choose(chosen, options)
                if action is None:
                    continue
            else:
                action = chosen
            try:
                return game.play(action)
            except IllegalMoveError as exc:
                self._problem(t("move.illegal", lang, reason=exc.text(lang)))

    def _choose(self, card: Card, options: Sequence[Move]) -> Move | None:
        """List the ways to play ``card`` and return the one chosen (``None``: pick another card)."""
        lang = self.lang
        table = self.game.table
        drop = self.game.last_drop
        # captures first, longest escalera first; taking nothing (manual capture) last
        options = sorted(options, key=lambda m: (not m.base, -len(m.run)))
        self.screen.line(t("move.choose", lang, card=card_text(card)), "bold", 2)
        for i, move in enumerate(options, start=1):
            text = option_text(move, table, drop, lang)
            full = [m for m in options if m.base == move.base and len(m.run) > len(move.run)]
            if move.base and full:
                rest = max(full, key=lambda m: len(m.run)).run[len(move.run) :]
                text += " — " + t("move.short", lang, cards=cards_text(rest))
            elif not move.base and options[0].base:
                left = (move.card, *options[0].taken)
                text += " — " + t("move.short", lang, cards=cards_text(left))
            self.screen.line(f"{i}) {text}", None, INDENT)
        while True:
            answer = self._read(t("term.play.choose_prompt", lang, last=len(options)))
            n = chosen_number(answer, 0, len(options))
            if n is not None:
                return None if n == 0 else options[n - 1]
            self._problem(t("term.input.choice", lang, last=len(options)))

    def _offer_claims(self, claims: Sequence[Claim]) -> Claim | None:
        """Manual capture (R12): offer what the previous seat forgot; ``None`` if declined."""
        lang = self.lang
        victim = self.names[(HUMAN - 1) % self.game.players]
        self.screen.line(t("claim.header", lang, victim=victim), "yellow", 2)
        for i, claim in enumerate(claims, start=1):
            text = t("claim.take", lang, cards=cards_text(claim.cards))
            self.screen.line(f"{i}) {text}", None, INDENT)
        last = len(claims) + 1
        self.screen.line(f"{last}) " + t("term.play.no_claim", lang), None, INDENT)
        while True:
            answer = self._read(t("term.play.claim_prompt", lang, last=last))
            if answer.isdigit() and 1 <= int(answer) <= last:
                return None if int(answer) == last else claims[int(answer) - 1]
            self._problem(t("term.input.claim_choice", lang, last=last))


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


# -- setting up a game from options ---------------------------------------------------------------
def level_problem(level: str) -> str | None:
    """Why ``level`` cannot be played now (unknown, or not written yet), or ``None`` if it can.

    >>> level_problem("facil") is None
    True
    >>> level_problem("maestro")
    "unknown level 'maestro': choose one of facil, normal, dificil, experto"
    """
    if level not in LEVELS:
        return f"unknown level {level!r}: choose one of {', '.join(LEVELS)}"
    try:
        make_player(level)
    except ValueError:
        ready = [name for name in LEVELS if name in registry.PLAYER_NAMES]
        return (
            f"level {level!r} is not available yet in this version of cuarenta; "
            f"available now: {', '.join(ready)}"
        )
    return None


def default_level() -> str:
    """``normal`` when it is available, else ``facil``."""
    return "normal" if level_problem("normal") is None else "facil"
