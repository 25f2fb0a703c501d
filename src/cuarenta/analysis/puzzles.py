"""Puzzles: positions from real mesas where one move is clearly best (issue 29, docs/analysis.md "Puzzles").

A puzzle is the last deal of a 1 vs 1 hand, at a seat's turn: the stock is empty and every card not in the
seat's hand has been seen except the rival's, so a card counter knows the whole position and the search
(:class:`~cuarenta.players.search.WorldSearch`, to the end of the deal and the hand's cartón) values every way
to play exactly, in the chance of winning the chica. A position is a puzzle when one way to play is better
than every other by at least :data:`MARGIN` of that chance: its answer is unique by that margin, and any
move that differs from it only in suits is the same answer.

A position with cards still in the stock hides the rival's hand among them: it is a puzzle (a *sampled*
one, :func:`sampled`) when one way to play leads every other by :data:`SAMPLED_MARGIN` in at least
:data:`SHARE` of :data:`WORLDS` worlds dealt at random consistent with the seat's view (each searched to
the end of the deal), so that the answer does not depend on where the hidden cards lie.

It is stored as a record (:class:`~cuarenta.record.GameRecord`) that starts at the deal's first play (a
starting position: hands, table, piles, scores, the rondas announced) and holds the plays of the deal
before the puzzle's turn, so what the seat saw in that deal is there to read; the answer, the value of
each way to play and the explanation come with it. :func:`mine` finds puzzles in seeded self-play
(``scripts/make_puzzles.py`` builds the shipped file,
``cuarenta/analysis/data/puzzles.json``).

>>> puzzle = shipped()[0]
>>> game = puzzle.game()
>>> game.turn == puzzle.seat and puzzle.answer in game.legal_moves()
True
>>> puzzle.solves(puzzle.answer), solve(game)[0][0] == puzzle.answer
(True, True)
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Final

from cuarenta.analysis.motifs import motifs
from cuarenta.game import Game
from cuarenta.moves import Action, parse_action
from cuarenta.players import act, make_player
from cuarenta.players.dificil import passed_caidas
from cuarenta.players.knowledge import Knowledge, sample_world
from cuarenta.players.search import WorldSearch, move_classes, rank_key
from cuarenta.players.winprob import win_model
from cuarenta.record import GameRecord
from cuarenta.rules import Rules

#: The least lead (in the chance of winning the chica) of a puzzle's answer over every other way to play.
MARGIN: Final = 0.10
#: A sampled puzzle's answer leads every other way to play by this much in each of the worlds it must win.
SAMPLED_MARGIN: Final = 0.05
#: The worlds a sampled puzzle is searched in, and the share of them its answer must lead in.
WORLDS: Final = 100
SHARE: Final = 0.95
#: The puzzle file's format.
FORMAT: Final = "cuarenta-puzzles 1"
#: The levels that try each puzzle when it is made: its first rating counts the ones that miss it.
TRIERS: Final = ("facil", "normal")
#: The first rating of a puzzle every trier finds, and what each trier that misses it adds.
BASE_RATING: Final = 1200
MISSED: Final = 300


def exact(game: Game) -> bool:
    """Whether ``game``'s position hides nothing from a card counter at the seat to move: two players, the
    stock empty (the last deal of the hand), so the rival holds exactly the cards the seat has not seen."""
    return game.players == 2 and not game.stock and not game.is_over


def solve(game: Game) -> list[tuple[Action, float]]:
    """Every way to play at an :func:`exact` position (one move per rank class, R1), with the chance that the
    seat to move's team wins the chica after it, best first. ``ValueError`` for a position that is not exact.
    """
    if not exact(game):
        raise ValueError("only the last deal of a 1 vs 1 hand can be solved exactly")
    classes = move_classes(game.legal_moves(), game.rules.capture == "manual")
    values = WorldSearch(game, win_model(game.rules), depth=10, quiet=False).values(classes)
    mine = [v if game.turn % 2 == 0 else 1.0 - v for v in values]
    return sorted(zip(classes, mine, strict=True), key=lambda av: -av[1])


def sampled(game: Game, seed: str) -> tuple[list[tuple[Action, float]], int] | None:
    """A position with cards in the stock, judged in :data:`WORLDS` worlds consistent with the seat to
    move's view (the caídas it saw let pass ruling cards out, as ``dificil`` samples them; seeded by
    ``seed``), each searched to the end of the deal: every way to play with its mean chance of winning the
    chica (best first) and in how many worlds the best led every other by :data:`SAMPLED_MARGIN` — or
    ``None`` when that is fewer than :data:`SHARE` of them (it stops as soon as that is certain)."""
    if game.players != 2 or not game.stock or game.is_over:
        return None
    classes = move_classes(game.legal_moves(), game.rules.capture == "manual")
    if len(classes) < 2:
        return None
    seat = game.turn
    view = game.view(seat)
    know = Knowledge.from_view(view)
    voids = passed_caidas(view)
    rng = random.Random(f"puzzle-worlds/{seed}")
    model = win_model(game.rules)
    totals = [0.0] * len(classes)
    allowed = WORLDS - round(SHARE * WORLDS)
    lead: int | None = None
    misses = 0
    for _ in range(WORLDS):
        world = sample_world(view, rng, know, voids)
        values = WorldSearch(world, model, depth=10, quiet=False).values(classes)
        mine = [v if seat % 2 == 0 else 1.0 - v for v in values]
        for i, v in enumerate(mine):
            totals[i] += v
        order = sorted(range(len(classes)), key=lambda i: -mine[i])
        lead = order[0] if lead is None else lead
        if order[0] != lead or mine[order[0]] - mine[order[1]] < SAMPLED_MARGIN:
            misses += 1
            if misses > allowed:
                return None
    means = sorted(((a, t / WORLDS) for a, t in zip(classes, totals, strict=True)), key=lambda av: -av[1])
    if lead is None or rank_key(means[0][0]) != rank_key(classes[lead]):  # pragma: no cover - it leads
        return None
    return means, WORLDS - misses


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: the record up to the seat's turn, the answer and how it was judged."""

    id: str
    record: GameRecord  #: from the deal's first play (a starting position) to the puzzle's turn
    answer: Action
    values: tuple[tuple[Action, float], ...]  #: every way to play with its chance, best first
    rating: int  #: the first difficulty rating (moved later by the people who try it)
    reasons: tuple[str, ...] = ()  #: what the second best way does wrong (:mod:`.motifs` codes)
    #: ``exact`` (the last deal: :func:`solve`) or ``sampled`` (cards in the stock: :func:`sampled`)
    kind: str = "exact"
    #: a sampled puzzle's worlds in which its answer led by :data:`SAMPLED_MARGIN` (of :data:`WORLDS`)
    agree: int = 0

    @property
    def seat(self) -> int:
        """The seat to play (whose view the puzzle shows)."""
        return self.game().turn

    @property
    def margin(self) -> float:
        """The answer's lead over the second best way to play."""
        return self.values[0][1] - self.values[1][1]

    def game(self) -> Game:
        """The position (the record replayed)."""
        return self.record.replay()

    def solves(self, action: Action) -> bool:
        """Whether ``action`` is the answer (suits aside)."""
        return rank_key(action) == rank_key(self.answer)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "record": self.record.to_text(comments=False),
            "answer": str(self.answer),
            "values": [[str(a), round(v, 4)] for a, v in self.values],
            "rating": self.rating,
            "reasons": list(self.reasons),
        }
        if self.kind != "exact":  # an exact puzzle's line is as it always was
            out["kind"], out["agree"], out["worlds"] = self.kind, self.agree, WORLDS
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Puzzle:
        """A puzzle written by :meth:`to_dict` (its record is replayed, checked)."""
        return cls(
            id=str(data["id"]),
            record=GameRecord.from_text(data["record"]),
            answer=parse_action(data["answer"]),
            values=tuple((parse_action(a), float(v)) for a, v in data["values"]),
            rating=int(data["rating"]),
            reasons=tuple(data.get("reasons", ())),
            kind=str(data.get("kind", "exact")),
            agree=int(data.get("agree", 0)),
        )


def _deal_start(game: Game) -> dict[str, Any]:
    """The position at the start of ``game``'s current deal, as :meth:`Game.from_position` takes it."""
    state = game.state_summary()
    return {
        "hands": state["hands"],
        "table": state["table"],
        "stock": state["stock"],
        "piles": state["piles"],
        "turn": state["turn"],
        "dealer": state["dealer"],
        "scores": state["scores"],
        "chicas": state["chicas"],
        "last_drop": state["last_drop"],
        "rondas": [(s, r) for s, r in game.rondas],
    }


def puzzle_at(game: Game, start: dict[str, Any], plies: list[Action], ident: str) -> Puzzle | None:
    """The puzzle at ``game``'s position (an :func:`exact` one), or ``None`` when no way to play leads every
    other by :data:`MARGIN`. ``start`` is the deal's first position and ``plies`` the deal's plays so far."""
    if not exact(game):
        return None
    values = solve(game)
    if len(values) < 2 or values[0][1] - values[1][1] < MARGIN:
        return None
    return _puzzle(game, start, plies, ident, values)


def sampled_puzzle_at(game: Game, start: dict[str, Any], plies: list[Action], ident: str) -> Puzzle | None:
    """The sampled puzzle at ``game``'s position (cards in the stock: :func:`sampled`), or ``None``."""
    found = sampled(game, ident)
    if found is None:
        return None
    values, agree = found
    return _puzzle(game, start, plies, ident, values, kind="sampled", agree=agree)


def _puzzle(
    game: Game,
    start: dict[str, Any],
    plies: list[Action],
    ident: str,
    values: list[tuple[Action, float]],
    kind: str = "exact",
    agree: int = 0,
) -> Puzzle:
    """The puzzle of a judged position: its record from the deal's start, its first rating from the
    trying levels that miss it, and what the second best way does wrong."""
    answer, second = values[0][0], values[1][0]
    position = Game.from_position(game.rules, seed=game.seed, **start)
    for action in plies:
        position.play(action)
    record = GameRecord.from_game(position)
    missed = 0
    for level in TRIERS:
        trier = make_player(level, f"{ident}/{level}")
        trier.start(game.turn, game.rules)
        if rank_key(act(trier, game)) != rank_key(answer):
            missed += 1
    return Puzzle(
        id=ident,
        record=record,
        answer=answer,
        values=tuple(values),
        rating=BASE_RATING + MISSED * missed,
        reasons=motifs(game, second, answer, None),
        kind=kind,
        agree=agree,
    )


def mine(
    seed: int | str,
    mesas: int,
    players: tuple[str, str] = ("normal", "normal"),
    preset: str = "a_todo_rigor",
) -> Iterator[Puzzle]:
    """The puzzles of ``mesas`` seeded self-play mesas (1 vs 1, ``players``), in order: at each turn of the
    last deal of a hand where one way to play leads by :data:`MARGIN` (the first such turn of a deal).
    The same arguments give the same puzzles."""
    return _mine(f"puzzles/{seed}", f"{seed}", mesas, players, preset, exact, puzzle_at)


def mine_sampled(
    seed: int | str, mesas: int, players: tuple[str, str] = ("normal", "normal")
) -> Iterator[Puzzle]:
    """The sampled puzzles of ``mesas`` seeded self-play mesas (1 vs 1, *a todo rigor*), in order: at each
    turn with cards in the stock that :func:`sampled` keeps (the first such turn of a deal). The same
    arguments give the same puzzles; their ids begin with ``s``."""
    return _mine(
        f"puzzles-sampled/{seed}", f"s{seed}", mesas, players, "a_todo_rigor", _stocked, sampled_puzzle_at
    )


def _stocked(game: Game) -> bool:
    return bool(game.stock)


def _mine(
    games: str,
    ids: str,
    mesas: int,
    players: tuple[str, str],
    preset: str,
    where_to_look: Callable[[Game], bool],
    judge: Callable[[Game, dict[str, Any], list[Action], str], Puzzle | None],
) -> Iterator[Puzzle]:
    """Self-play mesas seeded ``{games}/{k}``: at each turn ``where_to_look`` allows, ``judge`` says whether
    it is a puzzle (its id ``{ids}-{k}-{ply}``); the first of a deal is kept, the deal's later turns are
    skipped."""
    rules = Rules.preset(preset, players=2)
    for k in range(mesas):
        game = Game.new(rules, seed=f"{games}/{k}")
        bots = [make_player(players[s], f"{games}/{k}/{s}") for s in range(2)]
        for s, bot in enumerate(bots):
            bot.start(s, rules)
        start: dict[str, Any] = _deal_start(game)
        plies: list[Action] = []
        where = (-1, -1)
        found: Puzzle | None = None
        while not game.is_over:
            if (game.hand_number, game.deal_number) != where:
                where = (game.hand_number, game.deal_number)
                start, plies, found = _deal_start(game), [], None
            if found is None and where_to_look(game):  # one puzzle a deal at most
                found = judge(game, start, plies, f"{ids}-{k}-{len(game.actions)}")
                if found is not None:
                    yield found
            action = act(bots[game.turn], game)
            plies.append(action)
            game.play(action)


def write(puzzles: list[Puzzle]) -> str:
    """The puzzle file's text (sorted keys, one puzzle a line: the same puzzles give the same bytes)."""
    lines = [json.dumps(p.to_dict(), sort_keys=True, ensure_ascii=False) for p in puzzles]
    return '{"format": "' + FORMAT + '", "puzzles": [\n' + ",\n".join(lines) + "\n]}\n"


def read(text: str) -> list[Puzzle]:
    """The puzzles of a puzzle file (``ValueError`` for a file of another format)."""
    data = json.loads(text)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"not a puzzle file: its format must be {FORMAT!r}")
    return [Puzzle.from_dict(p) for p in data["puzzles"]]


@cache
def shipped() -> tuple[Puzzle, ...]:
    """The puzzles shipped with the package (``cuarenta/analysis/data/puzzles.json``)."""
    text = resources.files("cuarenta.analysis").joinpath("data/puzzles.json").read_text(encoding="utf-8")
    return tuple(read(text))


__all__ = [
    "FORMAT",
    "MARGIN",
    "SAMPLED_MARGIN",
    "SHARE",
    "WORLDS",
    "Puzzle",
    "exact",
    "mine",
    "mine_sampled",
    "puzzle_at",
    "read",
    "sampled",
    "sampled_puzzle_at",
    "shipped",
    "solve",
    "write",
]
