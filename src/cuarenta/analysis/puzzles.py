"""Puzzles: positions from real mesas where one move is clearly best (issue 29, docs/analysis.md "Puzzles").

A puzzle is the last deal of a 1 vs 1 hand, at a seat's turn: the stock is empty and every card not in the
seat's hand has been seen except the rival's, so a card counter knows the whole position and the search
(:class:`~cuarenta.players.search.WorldSearch`, to the end of the deal and the hand's cartón) values every way
to play exactly, in the chance of winning the chica. A position is a puzzle when one way to play is better
than every other by at least :data:`MARGIN` of that chance: its answer is unique by that margin, and any
move that differs from it only in suits is the same answer.

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
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Final

from cuarenta.analysis.motifs import motifs
from cuarenta.game import Game
from cuarenta.moves import Action, parse_action
from cuarenta.players import act, make_player
from cuarenta.players.search import WorldSearch, move_classes, rank_key
from cuarenta.players.winprob import win_model
from cuarenta.record import GameRecord
from cuarenta.rules import Rules

#: The least lead (in the chance of winning the chica) of a puzzle's answer over every other way to play.
MARGIN: Final = 0.10
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


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: the record up to the seat's turn, the answer and how it was judged."""

    id: str
    record: GameRecord  #: from the deal's first play (a starting position) to the puzzle's turn
    answer: Action
    values: tuple[tuple[Action, float], ...]  #: every way to play with its chance, best first
    rating: int  #: the first difficulty rating (moved later by the people who try it)
    reasons: tuple[str, ...] = ()  #: what the second best way does wrong (:mod:`.motifs` codes)

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
        return {
            "id": self.id,
            "record": self.record.to_text(comments=False),
            "answer": str(self.answer),
            "values": [[str(a), round(v, 4)] for a, v in self.values],
            "rating": self.rating,
            "reasons": list(self.reasons),
        }

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
    rules = Rules.preset(preset, players=2)
    for k in range(mesas):
        game = Game.new(rules, seed=f"puzzles/{seed}/{k}")
        bots = [make_player(players[s], f"puzzles/{seed}/{k}/{s}") for s in range(2)]
        for s, bot in enumerate(bots):
            bot.start(s, rules)
        start: dict[str, Any] | None = None
        plies: list[Action] = []
        where = (-1, -1)
        found: Puzzle | None = None
        while not game.is_over:
            if (game.hand_number, game.deal_number) != where:
                where = (game.hand_number, game.deal_number)
                start, plies, found = _deal_start(game), [], None
            if start is not None and found is None and exact(game):  # one puzzle a deal at most
                found = puzzle_at(game, start, plies, f"{seed}-{k}-{len(game.actions)}")
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


__all__ = ["FORMAT", "MARGIN", "Puzzle", "exact", "mine", "puzzle_at", "read", "shipped", "solve", "write"]
