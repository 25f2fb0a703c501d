"""Tests of the terminal game (``cuarenta play``): the real program driven through a pipe, and the
library loop (:class:`cuarenta.cli.terminal.TerminalGame`) driven by scripted people who read the prompts.
"""

from __future__ import annotations

import io
import os
import re
import select
import signal
import subprocess
import sys
from collections.abc import Callable, Sequence

import pytest
from typer.testing import CliRunner

from cuarenta import CARDS, Card, Claim, Game, IllegalMoveError, Move, Rules
from cuarenta.cli import app
from cuarenta.cli.terminal import (
    LEVELS,
    TerminalGame,
    interpret,
    level_problem,
    make_hint,
    seat_labels,
)
from cuarenta.events import (
    Caida,
    CaidaLimpia,
    CaidaRonda,
    ChicaWon,
    ClaimMade,
    Deal,
    Limpia,
    MesaWon,
    Play,
    Ronda,
    Zapatero,
)
from cuarenta.i18n import describe_event, score_text
from cuarenta.moves import Action
from cuarenta.players import Player, View
from cuarenta.players.hints import seat_hints
from support.positions import position
from support.served import program

runner = CliRunner()


# -- helpers --------------------------------------------------------------------------------------


ENV = dict(os.environ, PYTHONIOENCODING="utf-8", COLUMNS="100")


def play(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    """Run ``cuarenta play ARGS`` with ``stdin`` piped in."""
    return subprocess.run(
        [program(), "play", *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=ENV,
        timeout=120,
        check=False,
    )


PROMPTS = {
    "es": {"card": "Tu turno: ¿qué carta juegas?", "choose": "¿Cuál?", "claim": "¿Reclamas?"},
    "en": {"card": "Your turn: which card?", "choose": "Which one?", "claim": "Claim?"},
}


class Person:
    """Scripted input for :class:`TerminalGame`: reads the pending prompt and answers.

    ``answer(kind, game)`` returns the line to type (``None``: end of input) for a prompt of kind
    ``card``, ``choose`` or ``claim``. Every prompt is recorded with the game state at that moment.
    """

    def __init__(self, answer: Callable[[str, Game], str | None], lang: str = "es") -> None:
        self.answer = answer
        self.lang = lang
        self.out = io.StringIO()
        self.tg: TerminalGame | None = None
        self.prompts: list[tuple[str, int]] = []  #: (kind, offset in the output)

    def start(self, **kw: object) -> TerminalGame:
        self.tg = TerminalGame(inp=self, out=self.out, lang=self.lang, **kw)  # type: ignore[arg-type]
        return self.tg

    def isatty(self) -> bool:
        return False

    def readline(self) -> str:
        assert self.tg is not None
        text = self.out.getvalue()
        pending = text.rsplit("\n", 1)[-1]
        kinds = [k for k, p in PROMPTS[self.lang].items() if pending.startswith(p)]
        assert len(kinds) == 1, f"unexpected prompt {pending!r}"
        self.prompts.append((kinds[0], len(text)))
        line = self.answer(kinds[0], self.tg.game)
        return "" if line is None else line + "\n"


def first_legal(kind: str, game: Game) -> str:
    """Answer with the first legal card, by its number; in a menu, the first way; never claim."""
    if kind == "card":
        move = next(m for m in game.legal_moves() if isinstance(m, Move))
        return str(game.hand(0).index(move.card) + 1)
    if kind == "choose":
        return "1"
    return str(len(game.claimable) + 1)  # the last option: do not claim


def run_scripted(
    answer: Callable[[str, Game], str | None], lang: str = "es", **kw: object
) -> tuple[int, str, TerminalGame]:
    person = Person(answer, lang)
    tg = person.start(**kw)
    code = tg.run()
    return code, person.out.getvalue(), tg


def lines_after(text: str, marker: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip().startswith(marker)]


def cards_listed(line: str) -> list[Card]:
    """The cards of a hint summary line ``Label: 7♥, 5♠`` (none for ``ninguna``/``none``)."""
    body = line.split(":", 1)[1].strip()
    if body in ("ninguna", "none"):
        return []
    return [Card(c.strip()) for c in body.split(",")]


SYMBOL_TO_TEXT = {c.symbol(): c for c in CARDS}


def deals_of_person(game: Game) -> list[set[Card]]:
    """For every Deal event of the game, in order, the cards seat 0 received (replayed from the seed)."""
    replay = Game.new(game.rules, seed=game.seed)
    got: list[set[Card]] = []

    def note(events: Sequence[object]) -> None:
        deals = [e for e in events if isinstance(e, Deal)]
        for i, _ in enumerate(deals):
            # only the last deal of a batch can be seen; an earlier one ended at once (four of a kind)
            got.append(set(replay.hand(0)) if i == len(deals) - 1 else set())

    note(replay.events)
    for action in game.actions:
        note(replay.play(action))
    assert [e for e in replay.events if e.kind == "deal"] == [e for e in game.events if e.kind == "deal"]
    return got


DEAL_LINE = {
    "es": re.compile(r"^Mano \d+, reparto (\d+) de \d+:"),
    "en": re.compile(r"^Hand \d+, deal (\d+) of"),
}
PLAYS = {"es": " juega ", "en": " plays "}


def assert_no_hidden_card_shown(transcript: str, game: Game, lang: str = "es") -> None:
    """No card reaches the transcript before seat 0 could see it.

    Within each hand, a card's first mention must be either the line where some seat plays it, or
    come after the deal that gave it to seat 0. Other seats' hands and the stock are never shown.
    """
    lines = transcript.splitlines()
    deals = deals_of_person(game)
    deal_at = [i for i, line in enumerate(lines) if DEAL_LINE[lang].match(line)]
    assert len(deal_at) == len(deals), "every deal is announced"
    firsts = [k for k, i in enumerate(deal_at) if DEAL_LINE[lang].match(lines[i]).group(1) == "1"]  # type: ignore[union-attr]
    checked = 0
    for h, k0 in enumerate(firsts):
        k1 = firsts[h + 1] if h + 1 < len(firsts) else len(deal_at)
        start = deal_at[k0]
        end = deal_at[k1] if k1 < len(deal_at) else len(lines)
        for card in CARDS:
            sym = card.symbol()
            visible_from = next((deal_at[k] for k in range(k0, k1) if card in deals[k]), None)
            first = next((i for i in range(start, end) if sym in lines[i]), None)
            if first is None:
                continue
            checked += 1
            played_here = f"{PLAYS[lang]}{sym}" in lines[first]
            mine = visible_from is not None and first > visible_from
            assert played_here or mine, f"{sym} shown before it was seen, line {first}: {lines[first]!r}"
    assert checked > 0


# -- the real program through a pipe ----------------------------------------------------------------
def test_program_plays_a_whole_mesa_on_piped_input_and_matches_the_library() -> None:
    stdin = "1\n" * 3000
    result = play("--seed", "3", "--level", "facil", stdin=stdin)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    out = result.stdout
    assert "\x1b[" not in out  # plain text when stdout is not a terminal
    assert "Resultado de la mesa" in out and "gana la mesa" in out
    assert "Semilla 3" in out and "nivel facil" in out
    # the program is the library loop on stdin/stdout: same input, same transcript
    code, transcript, tg = run_scripted(lambda kind, game: "1", rules=Rules(), level="facil", seed=3)
    assert code == 0 and tg.game.is_over
    assert transcript == out


def test_program_2v2_until_the_input_ends_exits_cleanly() -> None:
    result = play("--seed", "4", "--players", "4", "--level", "facil", stdin="1\n" * 25)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    out = result.stdout
    assert "Cuarenta en parejas" in out
    assert "Equipo A: tú y Jugador 3 (compañero)" in out
    assert "Mano 2, reparto 1 de 2" in out  # a few hands were played
    assert "Resultado de la mesa" not in out
    assert out.rstrip().endswith("Se acabó la entrada: la partida queda sin terminar. ¡Hasta la próxima!")
    assert lines_after(out, "Marcador:")  # the score at the end


def test_program_quits_on_q_and_speaks_english() -> None:
    result = play("--seed", "2", "--level", "facil", "--lang", "en", stdin="8h\n?\nq\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for text in (
        "Cuarenta: you against the computer",
        "Seed 2 · 2 players · rules a_todo_rigor · level facil",
        "Your hand: 1) ",
        "Score: Player 1 (you) 0",
        "'8h' is not a card: 8, 9 and 10 are not in the 40-card deck",
        "Hint:",
        "Take something:",
        "Make a caída:",
        "Game abandoned. See you next time!",
    ):
        assert text in out, text
    assert "Tu mano" not in out and "Pista" not in out


def read_until(proc: subprocess.Popen[bytes], marker: bytes) -> bytes:
    """Read the program's stdout until ``marker`` appears (30 s safety limit, not a timing check)."""
    assert proc.stdout is not None
    data = b""
    fd = proc.stdout.fileno()
    while marker not in data:
        ready, _, _ = select.select([fd], [], [], 30)
        assert ready, f"no {marker!r} in {data[-300:]!r}"
        chunk = os.read(fd, 4096)
        assert chunk, f"the program ended early: {data[-300:]!r}"
        data += chunk
    return data


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_program_ctrl_c_exits_130_without_traceback() -> None:
    proc = subprocess.Popen(
        [program(), "play", "--seed", "3", "--level", "facil"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ENV,
        # Ctrl-C as at a terminal: a test run started in the background (bash without job control)
        # ignores SIGINT, and a Python started with it ignored keeps ignoring it
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        read_until(proc, "¿qué carta juegas?".encode())
        proc.send_signal(signal.SIGINT)
        # wait for the exit with stdin still open: communicate() closes it, and an end of input is a
        # quit of its own (exit 0) should it come before the signal is handled
        proc.wait(timeout=60)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:  # pragma: no cover - only if the test failed
            proc.kill()
            proc.wait()
    assert proc.returncode == 130
    assert "Partida interrumpida (Ctrl-C)" in out.decode()
    assert b"Traceback" not in err


def test_program_refuses_bad_options_clearly() -> None:
    for args, fragment in [
        (["--level", "maestro"], "unknown level 'maestro': choose one of facil, normal, dificil, experto"),
        (["--players", "3"], "Cuarenta is played by 2 or 4"),
        (["--rules", "campeonato", "--players", "2"], "campeonato"),
        (["--rules", "nope"], "unknown preset 'nope'"),
        (["--lang", "fr"], "unknown language 'fr'"),
    ]:
        result = runner.invoke(app, ["play", *args], input="q\n")
        assert result.exit_code == 2, (args, result.output)
        assert fragment in result.output, (args, result.output)
        assert result.exception is None or isinstance(result.exception, SystemExit)


def test_a_level_not_written_yet_is_named_clearly(monkeypatch: pytest.MonkeyPatch) -> None:
    import cuarenta.cli.terminal as terminal

    assert LEVELS == ("facil", "normal", "dificil", "experto")

    def only_facil(name: str, seed: int | str = 0) -> Player:
        if name != "facil":
            raise ValueError(f"unknown player {name!r}")
        return real(name, seed)

    real = terminal.make_player
    monkeypatch.setattr(terminal, "make_player", only_facil)
    problem = level_problem("dificil")
    assert problem is not None and "'dificil' is not available yet" in problem
    assert level_problem("facil") is None
    result = runner.invoke(app, ["play", "--level", "dificil"], input="q\n")
    assert result.exit_code == 2 and "is not available yet" in result.output
    # without --level the game falls back to the level that exists
    result = runner.invoke(app, ["play", "--seed", "1"], input="q\n")
    assert result.exit_code == 0 and "nivel facil" in result.output


# -- a whole mesa through the library ------------------------------------------------------------
@pytest.mark.parametrize(("players", "seed"), [(2, 11), (4, 12)])
def test_whole_mesa_with_the_first_legal_card(players: int, seed: int) -> None:
    checks: list[str] = []

    def answer(kind: str, game: Game) -> str:
        if kind == "card":
            # the status just printed shows this seat's view: hand, table, counts, score
            out = person.out.getvalue()
            block = out[out.rindex("─" * 20) :]
            view = game.view(0)
            hand = "   ".join(f"{i}) {c.symbol()}" for i, c in enumerate(view.hand, start=1))
            assert f"Tu mano: {hand}\n" in block
            table = " ".join(c.symbol() for c in view.table) or "vacía"
            assert f"Mesa: {table}" in block
            assert score_text(game.score, "es", tg.teams) in block
            for seat in range(1, players):
                assert f"{tg.names[seat]} {view.hand_sizes[seat]}" in block
            assert f"en el mazo: {view.stock_size}" in block
            if view.last_drop is not None:
                assert f"({view.last_drop.symbol()} se acaba de echar" in block
            checks.append(kind)
        return first_legal(kind, game)

    person = Person(answer)
    tg = person.start(rules=Rules.preset("a_todo_rigor", players), level="facil", seed=seed)
    code = tg.run()
    out = person.out.getvalue()
    game = tg.game
    assert code == 0 and game.is_over and checks
    # every play is printed, in order, as the narrator tells it
    plays = [describe_event(e, "es", tg.names) for e in game.events if isinstance(e, Play)]
    shown = [line for line in out.splitlines() if re.match(r"^Jugador \d .* juega ", line)]
    assert shown == plays
    # every scoring event is announced
    for cls, start in [
        (Caida, "¡Caída!"),
        (Limpia, "¡Limpia!"),
        (CaidaLimpia, "¡Caída y limpia!"),
        (CaidaRonda, "¡Caída a la ronda"),
        (Ronda, "¡Ronda!"),
    ]:
        assert len(lines_after(out, start)) == sum(1 for e in game.events if type(e) is cls), start
    # the result: each chica and the mesa
    assert "Resultado de la mesa" in out
    for n, res in enumerate(game.chica_results, start=1):
        scores = score_text(res.scores, "es", tg.teams).split(": ", 1)[1]
        expected = f"Chica {n}: {scores}; gana {tg.teams[res.winner]}"
        if res.zapatero:
            expected += f" ({tg.teams[1 - res.winner]} queda {'platillo' if res.platillo else 'zapatero'})"
        assert expected in lines_after(out, f"Chica {n}:")
    headings = [line for line in out.splitlines() if re.fullmatch(r"Chica \d", line)]
    assert headings == [f"Chica {k}" for k in range(2, len(game.chica_results) + 1)]
    outcome = game.outcome
    assert outcome is not None
    won, lost = outcome.chicas[outcome.winner], outcome.chicas[1 - outcome.winner]
    if outcome.winner == 0:
        assert ("¡Ganaste la mesa!" if players == 2 else "¡Tu equipo ganó la mesa!") in out
    else:
        assert ("Perdiste la mesa." if players == 2 else "Tu equipo perdió la mesa.") in out
    assert out.rstrip().endswith(f"Chicas: {won} a {lost}.")
    assert sum(1 for e in game.events if isinstance(e, MesaWon)) == 1
    assert ("zapatero" in out.lower() or "platillo" in out.lower()) == any(
        isinstance(e, Zapatero) for e in game.events
    )
    # and no hidden card was ever shown
    assert_no_hidden_card_shown(out, game)


def test_no_hidden_card_check_would_catch_a_leak() -> None:
    """The transcript check itself: printing the computer's hand is caught."""
    code, out, tg = run_scripted(lambda kind, game: None, rules=Rules(), level="facil", seed=5)
    assert code == 0
    assert_no_hidden_card_shown(out, tg.game)
    leaked = out + "\n" + " ".join(c.symbol() for c in tg.game.hand(1)) + "\n"
    with pytest.raises(AssertionError, match="shown before it was seen"):
        assert_no_hidden_card_shown(leaked, tg.game)


def test_the_score_is_shown_in_tantos_and_perros() -> None:
    code, out, _ = run_scripted(first_legal, rules=Rules(), level="facil", seed=11)
    assert code == 0
    assert re.search(r"Marcador: .* \d+ = \d perros? y \d tantos?", out)
    assert re.search(r"= \d tantos?", out)


# -- input: bad input, illegal moves, menus ------------------------------------------------------
def menu_position() -> Game:
    """Seat 0 to move with 7♥, which takes 7♠ (pair) or 3♣+4♦ (sum), each with the escalera J♠."""
    return position(
        hands=["7h Kc Qd 2s 5c", "Ah 6h 6s Jh Kh"],
        table="3c 4d Js 7s",
        stock_size=20,
        dealer=1,
        seed=9,
    )


def test_invalid_inputs_get_clear_messages_and_the_game_goes_on() -> None:
    game = menu_position()
    illegal = "7h x3c+4d"
    with pytest.raises(IllegalMoveError) as info:
        game.copy().play(illegal)
    reason = info.value.text("es")
    script = iter(["0", "9", "9" * 5000, "8h", "zz", "10c", "7x", "Ah", illegal, "7h x", "5"])

    def answer(kind: str, g: Game) -> str | None:
        return next(script, None)

    code, out, tg = run_scripted(answer, game=game, level="facil", seed=9)
    assert code == 0
    messages = [line.strip() for line in out.splitlines() if re.match(r"^  \S", line)]
    expected = [
        "No hay carta número 0: elige de 1 a 5.",
        "No hay carta número 9: elige de 1 a 5.",
        f"No hay carta número {'9' * 77}...: elige de 1 a 5.",  # (cut: int() refuses 4,300 digits)
        "'8h' no es una carta: en el cuarenta no hay 8, 9 ni 10",
        "No entiendo «zz»: escribe el número de la carta (1 a 5), la carta (como 7h), "
        "? para una pista o q para salir.",
        "'10c' no es una carta: en el cuarenta no hay 8, 9 ni 10",
        "'7x' no es una carta: el palo debe ser h, s, d o c (♥ ♠ ♦ ♣)",
        "A♥ no está en tu mano; tienes 7♥ K♣ Q♦ 2♠ 5♣.",
        f"Esa jugada no vale: {reason}",
    ]
    assert messages[: len(expected)] == expected
    assert "escalera" in reason  # the engine's reason: the escalera J♠ must be taken too (R10)
    assert "No entiendo la jugada «7h x»" in out
    # after all that, "5" played the 5♣: the game went on
    assert isinstance(tg.game.events[0], Play) and tg.game.actions[0] == Move(Card("5c"))
    assert "Jugador 1 (tú) juega 5♣ y no lleva nada." in out
    assert out.rstrip().endswith("¡Hasta la próxima!")


def test_choosing_among_several_captures() -> None:
    script = iter(["1", "3", "9" * 5000, "0", "7♥", "2"])  # (int() refuses 4,300 digits)
    code, out, tg = run_scripted(lambda kind, g: next(script, None), game=menu_position(), level="facil")
    assert code == 0
    assert out.count("Elige un número de 1 a 2, o 0 para volver.") == 2  # "3" and the long one
    legal = [m for m in menu_position().legal_moves() if isinstance(m, Move) and m.card == Card("7h")]
    assert len(legal) == 2
    assert out.count("¿Qué haces con 7♥?") == 2  # shown again after "0" (pick another card)
    assert "1) llevar 7♠ y en escalera J♠" in out
    assert "2) llevar 3♣ + 4♦ y en escalera J♠" in out
    assert tg.game.actions[0] == Move.parse("7h x3c+4d,Js")
    assert "Jugador 1 (tú) juega 7♥ y lleva 3♣ + 4♦, y en escalera J♠." in out


def test_a_whole_move_in_notation_is_played_directly() -> None:
    script = iter(["7h x7s,Js"])
    code, out, tg = run_scripted(lambda kind, g: next(script, None), game=menu_position(), level="facil")
    assert code == 0
    assert tg.game.actions[0] == Move.parse("7h x7s,Js")
    assert "¿Qué haces con" not in out


def test_interpret_reads_numbers_cards_and_moves() -> None:
    hand = Card.parse_many("7h 5s Kc")
    assert interpret("1", hand) == Card("7h")
    assert interpret(" 3 ", hand) == Card("Kc")
    assert interpret("5S", hand) == Card("5s")
    assert interpret("K♣", hand) == Card("Kc")
    assert interpret("7h x3c+4d,Js", hand) == Move.parse("7h x3c+4d,Js")
    assert interpret("reclamar 5s,6h", hand) == Claim.parse("claim 5s,6h")
    assert interpret("claim 5s", hand) == Claim.parse("claim 5s")
    with pytest.raises(ValueError, match="no está en tu mano"):
        interpret("Kd x3c", hand)
    with pytest.raises(ValueError, match="choose 1 to 3"):
        interpret("4", hand, "en")


# -- the hint -------------------------------------------------------------------------------------
def expected_hint(game: Game) -> tuple[list[Card], list[Card], list[Card]]:
    """Takers, caídas and limpias straight from the engine's legal moves for seat 0."""
    moves = [m for m in game.legal_moves() if isinstance(m, Move)]
    drop, table = game.last_drop, game.table
    takers = list(dict.fromkeys(m.card for m in moves if m.base))
    caidas = list(dict.fromkeys(m.card for m in moves if len(m.base) == 1 and m.base[0] == drop))
    limpias = list(dict.fromkeys(m.card for m in moves if m.base and len(m.base) + len(m.run) == len(table)))
    return takers, caidas, limpias


@pytest.mark.parametrize(("players", "seed"), [(2, 21), (4, 22)])
def test_hint_names_the_cards_that_take_make_caida_or_limpia(players: int, seed: int) -> None:
    expected: list[tuple[list[Card], list[Card], list[Card]]] = []
    asked: set[int] = set()

    def answer(kind: str, game: Game) -> str | None:
        if len(expected) >= 40:
            return None
        if kind == "card" and len(game.actions) not in asked:
            asked.add(len(game.actions))
            expected.append(expected_hint(game))
            return "?"
        return first_legal(kind, game)

    code, out, _ = run_scripted(answer, rules=Rules.preset("a_todo_rigor", players), level="facil", seed=seed)
    assert code == 0
    takes = [cards_listed(x) for x in lines_after(out, "Llevan algo:")]
    caidas = [cards_listed(x) for x in lines_after(out, "Hacen caída:")]
    limpias = [cards_listed(x) for x in lines_after(out, "Hacen limpia:")]
    assert len(takes) == len(expected) == 40
    assert [e[0] for e in expected] == takes
    assert [e[1] for e in expected] == caidas
    assert [e[2] for e in expected] == limpias
    assert any(takes) and any(caidas)  # the positions seen were not all trivial


def test_hint_warns_about_leaving_an_easy_caida_or_limpia() -> None:
    # The last deal of a hand, 1 vs 1: every card seat 0 has not seen is in the other hand, so the
    # hint knows for sure what the next player can do. 5♥ falls on the 5♠ just dropped; K♣ dropped
    # can be fallen on by the K♥ seat 1 holds; 7♥ takes 5♠+2♦ and leaves the Q♣ alone, which the Q♥
    # takes (a limpia). 2♠ dropped is safe: no 2 is unseen.
    game = position(
        hands=["5h 7h Kc 2s", "Ah 6h Kh Qh"],
        table="5s 2d Qc",
        last_drop="5s",
        stock_size=0,
        dealer=1,
    )
    hint = make_hint(game.view(0), game.legal_moves())
    assert hint.takers == (Card("5h"), Card("7h"), Card("2s"))
    assert hint.caidas == (Card("5h"),)
    assert hint.limpias == ()
    risky = {r.card: r for r in hint.risks}
    assert set(risky) == {Card("Kc"), Card("7h")}
    assert risky[Card("Kc")].caida == 1  # one king unseen: the K♥
    assert risky[Card("7h")].limpia_ranks == (Card("Qh").rank,)
    # the same advice as the page's Ayudas (one hints module)
    ayudas = {h["card"]: h["warning"] for h in seat_hints(game.view(0), game.legal_moves())}
    assert ayudas == {"5h": None, "7h": "limpia", "Kc": "caida", "2s": None}
    unseen_kings = 1
    script = iter(["?"])
    code, out, _ = run_scripted(lambda kind, g: next(script, None), game=game, level="facil")
    assert code == 0
    assert "Llevan algo: 5♥, 7♥, 2♠" in out
    assert "Hacen caída: 5♥" in out
    assert "Hacen limpia: ninguna" in out
    assert f"K♣ se queda en la mesa con reyes sin salir ({unseen_kings}): te pueden hacer caída" in out
    assert "tras jugar 7♥ la mesa queda con Q♣, y quien tenga Q la limpia" in out


# -- manual capture (campeonato): claims ----------------------------------------------------------
class Forgetful(Player):
    """Always drops its first card, taking nothing (legal with manual capture)."""

    name = "forgetful"

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        return next(a for a in legal if isinstance(a, Move) and not a.base)


def claim_position() -> Game:
    """Campeonato, seat 3 to move holding 5♦ first; 5♠ on the table. Seat 3 will forget it."""
    rules = Rules.preset("campeonato", 4)
    return position(
        rules,
        hands=["7h Kc Qd 2s 6c", "Ah 6h 6s Jh Kh", "3h 3s Js Qs 4c", "5d Jd Qh Kd 2h"],
        table="5s Ac",
        dealer=2,
        seed=4,
    )


@pytest.mark.parametrize("take", [True, False])
def test_manual_capture_offers_claims(take: bool) -> None:
    seen: list[list[tuple[Card, ...]]] = []
    script = iter(["1" if take else "2", "1", "1"])

    def answer(kind: str, game: Game) -> str | None:
        if kind == "claim":
            seen.append(game.claimable)
        return next(script, None)

    bots = {seat: Forgetful() for seat in (1, 2, 3)}
    code, out, tg = run_scripted(answer, game=claim_position(), players=bots)
    assert code == 0
    assert seen == [[(Card("5d"), Card("5s"))]]
    assert "Jugador 4 (rival) no se llevó todo lo que podía. Antes de jugar puedes reclamarlo:" in out
    assert "1) reclamar 5♦ 5♠" in out and "2) no reclamar y jugar" in out
    claims = [e for e in tg.game.events if isinstance(e, ClaimMade)]
    if take:
        assert tg.game.actions[1] == Claim((Card("5d"), Card("5s")))
        assert claims and claims[0].seat == 0
        assert "Jugador 1 (tú) reclama 5♦ 5♠, que Jugador 4 (rival) no se llevó." in out
    else:
        assert not claims and isinstance(tg.game.actions[1], Move)
    # the card chosen next is played (7♥ takes nothing here, or the menu offers its ways)
    assert any(isinstance(e, Play) and e.seat == 0 for e in tg.game.events)


def test_manual_capture_lists_shorter_escaleras_and_taking_nothing() -> None:
    rules = Rules.preset("campeonato", 4)
    game = position(
        rules,
        hands=["3h Kc Qd 2s 6c", "Ah 6h 6s Jh Kh", "7h 3s Js Qs 4c", "5d Jd Qh Kd 2h"],
        table="3c 4d 5s",
        dealer=3,
        seed=4,
    )
    script = iter(["1", "3"])
    code, out, tg = run_scripted(lambda kind, g: next(script, None), game=game, level="facil")
    assert code == 0
    assert "¿Qué haces con 3♥?" in out
    assert "1) llevar 3♣ y en escalera 4♦ 5♠ (deja la mesa limpia)" in out
    assert "2) llevar 3♣ y en escalera 4♦ — deja 5♠, que el siguiente puede reclamar" in out
    assert "3) llevar 3♣ — deja 4♦ 5♠, que el siguiente puede reclamar" in out
    assert "4) no llevar nada y dejar 3♥ en la mesa — deja 3♥ 3♣ 4♦ 5♠" in out
    assert tg.game.actions[0] == Move.parse("3h x3c")


# -- exits, delay, languages ----------------------------------------------------------------------
def test_ctrl_c_in_the_library_returns_130_and_eof_returns_0() -> None:
    class Interrupting(io.StringIO):
        def readline(self, size: int = -1) -> str:
            raise KeyboardInterrupt

    out = io.StringIO()
    code = TerminalGame(Rules(), level="facil", seed=1, inp=Interrupting(), out=out).run()
    assert code == 130
    assert out.getvalue().rstrip().endswith("Partida interrumpida (Ctrl-C). ¡Hasta la próxima!")
    out = io.StringIO()
    assert TerminalGame(Rules(), level="facil", seed=1, inp=io.StringIO(""), out=out, lang="en").run() == 0
    assert "End of input: the game is left unfinished." in out.getvalue()


def test_delay_before_each_computer_move() -> None:
    pauses: list[float] = []
    script = iter(["1"] * 12)
    person = Person(lambda kind, g: next(script, None))
    rules = Rules.preset("a_todo_rigor", 4)
    tg = person.start(rules=rules, level="facil", seed=2, delay=0.25, sleep=pauses.append)
    assert tg.run() == 0
    computer_plays = sum(1 for e in tg.game.events if isinstance(e, Play) and e.seat != 0)
    assert computer_plays > 0 and pauses == [0.25] * computer_plays


def test_colour_only_when_asked() -> None:
    out = io.StringIO()
    TerminalGame(Rules(), level="facil", seed=1, inp=io.StringIO("q\n"), out=out, color=True).run()
    assert "\x1b[" in out.getvalue()
    out = io.StringIO()
    TerminalGame(Rules(), level="facil", seed=1, inp=io.StringIO("q\n"), out=out).run()
    assert "\x1b[" not in out.getvalue()


def test_seat_names_and_english_transcript() -> None:
    assert seat_labels(4) == [
        "Jugador 1 (tú)",
        "Jugador 2 (rival)",
        "Jugador 3 (compañero)",
        "Jugador 4 (rival)",
    ]
    rules = Rules.preset("todo_dos", 4)
    code, out, tg = run_scripted(first_legal, lang="en", rules=rules, level="facil", seed=6)
    assert code == 0 and tg.game.is_over
    assert "Result of the mesa" in out
    assert "Your team won the mesa!" in out or "Your team lost the mesa." in out
    assert "Tu " not in out and "Jugador" not in out
    assert_no_hidden_card_shown(out, tg.game, "en")


def test_a_chica_won_by_the_first_deal_is_announced_and_the_next_one_headed() -> None:
    seed = next(
        s for s in range(5000) if any(isinstance(e, ChicaWon) for e in Game.new(Rules(), seed=s).events)
    )
    code, out, _ = run_scripted(lambda kind, g: None, rules=Rules(), level="facil", seed=seed)
    assert code == 0
    lines = out.splitlines()
    assert sum(1 for line in lines if "gana la chica 1 con cuatro cartas iguales" in line) == 1
    assert [line for line in lines if re.fullmatch(r"Chica \d", line)] == ["Chica 2"]
    assert lines.index("Chica 2") < next(i for i, line in enumerate(lines) if line.startswith("Mano 2,"))


# -- the expert's advice (issue 28) ------------------------------------------------------------------------
def test_consejo_says_what_experto_would_play_from_the_persons_view() -> None:
    from cuarenta.players.experto import ExpertoPlayer

    def played(seed: int, script: str) -> tuple[TerminalGame, str]:
        out = io.StringIO()
        game = TerminalGame(Rules(), level="facil", seed=seed, inp=io.StringIO(script), out=out, color=False)
        game.run()
        return game, out.getvalue()

    for seed in range(6):
        game, text = played(seed, "consejo\n??\nq\n")  # at the person's first turn; then quit
        says = [line.strip() for line in text.splitlines() if "Consejo del experto:" in line]
        assert len(says) == 2 and says[0] == says[1], text  # asked twice: the same advice
        move = says[0].rsplit("(jugada: ", 1)[1].rstrip(")")
        legal = [str(a) for a in game.game.legal_moves()]
        assert move in legal
        # experto for seat 0, from the person's view alone
        local = ExpertoPlayer(f"{seed}/advice/{len(game.game.actions)}")
        local.start(0, game.rules)
        assert move == str(local.choose(game.game.view(0), game.game.legal_moves()))
        assert "El experto piensa…" in text
    _, hint = played(1, "?\nq\n")
    assert "Escribe «consejo» para saber qué jugaría el experto." in hint
