"""The computer's analysis of one seat's moves in a recorded mesa (docs/analysis.md).

At each turn of the seat that had a real choice (two ways to play that differ in more than suits), the
strongest level (:data:`ANALYSIS_LEVEL`) values every way to play, and the move played, from the seat's
view alone — what the seat knew then, never the cards it could not see — in the chance that the seat's
team wins the chica (:meth:`~cuarenta.players.dificil.DificilPlayer.values`). The move's *loss* is the
best chance minus the chance after the move played; it is graded (:mod:`.grades`) and, when graded,
named in the game's words (:mod:`.motifs`). Each position is thought with a player of its own, seeded by
the analysis's seed and the position's place in the record: the same record, seat and seed give the same
analysis, whatever else was analysed before.

>>> from cuarenta import Game, Rules
>>> from cuarenta.players import act, make_player
>>> from cuarenta.players.dificil import Budget
>>> from cuarenta.record import GameRecord
>>> game = Game.new(Rules.preset("basico"), seed=4)
>>> bots = [make_player("facil", 1), make_player("normal", 2)]
>>> for seat, bot in enumerate(bots):
...     bot.start(seat, game.rules)
>>> while len(game.actions) < 10:
...     _ = game.play(act(bots[game.turn], game))
>>> review = analyze(GameRecord.from_game(game), seat=0, budget=Budget(nodes=0, min_worlds=4, max_worlds=4))
>>> review.seat, len(review.decisions) + review.forced
(0, 5)
>>> all(0.0 <= d.chance <= d.best_chance <= 1.0 for d in review.decisions)
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from cuarenta.analysis.grades import GRADES, Grade, grade
from cuarenta.analysis.motifs import motifs
from cuarenta.analysis.points import points_worth
from cuarenta.game import Game
from cuarenta.moves import Action
from cuarenta.players import make_player
from cuarenta.players.dificil import Budget, DificilPlayer
from cuarenta.players.experto import EXPERTO_BUDGET
from cuarenta.players.search import move_classes, rank_key
from cuarenta.record import GameRecord
from cuarenta.replay import Replay
from cuarenta.view import SeatView

#: The level whose judgement the analysis is (the strongest a person can choose).
ANALYSIS_LEVEL: Final = "experto"
#: The analysis's budget: four times ``experto``'s nodes and at least 80 worlds a decision (its play takes
#: at least 20), so that two analyses with different seeds grade a move alike (docs/analysis.md "Measured":
#: ``experto``'s own budget gave the same grade to 93.9% of the decisions, short of the 95% asked).
ANALYSIS_BUDGET: Final = dataclasses.replace(
    EXPERTO_BUDGET,
    nodes=4 * EXPERTO_BUDGET.nodes,
    nodes4=4 * EXPERTO_BUDGET.nodes4,
    min_worlds=80,
    max_worlds=400,
)


@dataclass(frozen=True)
class Decision:
    """One turn of the seat with a real choice, as the analysis judged it."""

    ply: int  #: the action's place in the record (0: the first action)
    seat: int
    hand: int  #: the hand (0: the first) and the deal of the hand (0: the first) it was played in
    deal: int
    played: Action
    best: Action  #: the best way to play (the move played, when nothing was better)
    chance: float  #: the chance that the seat's team wins the chica after the move played (0–1)
    best_chance: float  #: the same after the best move
    choices: int  #: ways to play that differ in more than suits
    grade: Grade | None  #: ``None``: no worse than :data:`~cuarenta.analysis.grades.THRESHOLDS` allows
    motifs: tuple[str, ...] = ()  #: what the move did wrong (graded moves only)
    #: the loss said in points of the score (:func:`~cuarenta.analysis.points.points_worth`)
    points: float = 0.0

    @property
    def loss(self) -> float:
        """What the move played cost in the chance of winning the chica (0 for the best move)."""
        return self.best_chance - self.chance

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (docs/analysis.md "JSON")."""
        return {
            "ply": self.ply,
            "seat": self.seat,
            "hand": self.hand,
            "deal": self.deal,
            "played": str(self.played),
            "best": str(self.best),
            "chance": round(self.chance, 4),
            "best_chance": round(self.best_chance, 4),
            "loss": round(self.loss, 4),
            "choices": self.choices,
            "grade": self.grade,
            "motifs": list(self.motifs),
            "points": self.points,
        }


@dataclass(frozen=True)
class Review:
    """The analysis of one seat's moves in a mesa: every decision with a real choice, in order."""

    seat: int
    level: str
    seed: int | str
    decisions: tuple[Decision, ...]
    forced: int  #: the seat's turns with one way to play (not judged)
    counts: dict[str, int] = field(init=False)  #: decisions per grade

    def __post_init__(self) -> None:
        counts = {name: 0 for name in GRADES}
        for d in self.decisions:
            if d.grade is not None:
                counts[d.grade] += 1
        object.__setattr__(self, "counts", counts)

    @property
    def loss(self) -> float:
        """The chances lost over the mesa: the sum of every decision's loss."""
        return sum(d.loss for d in self.decisions)

    @property
    def points(self) -> float:
        """The losses over the mesa in points of the score: the sum of every decision's
        :attr:`Decision.points`."""
        return sum(d.points for d in self.decisions)

    @property
    def worst(self) -> Decision | None:
        """The decision that cost the most, or ``None`` when none cost anything."""
        costly = [d for d in self.decisions if d.loss > 0]
        return max(costly, key=lambda d: (d.loss, -d.ply)) if costly else None

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (docs/analysis.md "JSON")."""
        return {
            "seat": self.seat,
            "level": self.level,
            "seed": self.seed,
            "decisions": [d.to_dict() for d in self.decisions],
            "forced": self.forced,
            "summary": {
                "decisions": len(self.decisions),
                "counts": dict(self.counts),
                "loss": round(self.loss, 4),
                "mean_loss": round(self.loss / len(self.decisions), 4) if self.decisions else 0.0,
                "points": round(self.points, 1),
            },
        }


def analyst(level: str, seed: int | str, budget: Budget | None = None) -> DificilPlayer:
    """A player of ``level`` that can value moves (a searching level: ``dificil``, ``experto``), on
    ``budget`` (default: :data:`ANALYSIS_BUDGET` for the analysis's own level, the level's own otherwise)."""
    player = make_player(level, seed)
    if not isinstance(player, DificilPlayer):
        raise ValueError(f"level {level!r} cannot value moves: analyse with dificil or experto")
    if budget is not None:
        player.budget = budget
    elif level == ANALYSIS_LEVEL:
        player.budget = ANALYSIS_BUDGET
    return player


@dataclass(frozen=True)
class Question:
    """One turn of the seat to move in :attr:`game` that had a real choice, asked of the analysis: the ways
    to value (:attr:`roots`: one of each class of moves that differ in suits only, and the move played)
    from the seat's view (:meth:`view`), then :meth:`answer`, from their chances, the :class:`Decision`.
    Where the values are thought is the caller's: :func:`judge` on this thread, the server in its workers.
    """

    ply: int  #: the action's place in the record
    game: Game  #: the game before the action (read only)
    played: Action
    after: Action | None  #: the next action of the record, or ``None``
    roots: tuple[Action, ...]
    choices: int  #: ways to play that differ in more than suits

    @classmethod
    def at(cls, game: Game, played: Action, after: Action | None, ply: int = 0) -> Question | None:
        """The question of the seat to move in ``game`` that played ``played``; ``None`` when it had one way
        to play (nothing to judge)."""
        classes = move_classes(game.legal_moves(), game.rules.capture == "manual")
        key = rank_key(played)
        keys = [rank_key(a) for a in classes]
        if len(classes) == 1 and keys[0] == key:
            return None
        roots = tuple(classes) if key in keys else (*classes, played)
        return cls(ply=ply, game=game, played=played, after=after, roots=roots, choices=len(classes))

    @property
    def seat(self) -> int:
        """The seat to move."""
        return self.game.turn

    def view(self) -> SeatView:
        """What the seat knew: the only thing the values may be thought from."""
        return self.game.view(self.seat)

    def seed(self, seed: int | str) -> str:
        """The seed of this question's analyst in an analysis seeded ``seed``: its place in the record
        decides it, so the same position gets the same judgement whatever was asked before."""
        return f"{seed}/analysis/{self.ply}"

    def answer(self, chances: Sequence[float]) -> Decision:
        """The decision, from the chance of winning the chica after each of :attr:`roots` (in order)."""
        if len(chances) != len(self.roots):
            raise ValueError(f"{len(chances)} chances for {len(self.roots)} ways to play")
        key = rank_key(self.played)
        keys = [rank_key(a) for a in self.roots]
        chance = chances[keys.index(key)]
        best_index = max(range(len(self.roots)), key=lambda i: chances[i])
        best, best_chance = self.roots[best_index], chances[best_index]
        if rank_key(best) == key or best_chance <= chance:
            best, best_chance = self.played, chance
        graded = grade(best_chance - chance)
        game = self.game
        named = motifs(game, self.played, best, self.after) if graded is not None else ()
        score = game.score
        points = points_worth(
            game.rules, (score[0], score[1]), game.dealer % 2, self.seat % 2, best_chance - chance
        )
        return Decision(
            ply=self.ply,
            seat=self.seat,
            hand=game.hand_number,
            deal=game.deal_number,
            played=self.played,
            best=best,
            chance=chance,
            best_chance=best_chance,
            choices=self.choices,
            grade=graded,
            motifs=named,
            points=points,
        )


def questions(record: GameRecord | Replay, seat: int) -> tuple[list[Question], int]:
    """Every question of ``seat``'s turns in ``record`` (or its replay; each question with a copy of its
    game) and how many turns had one way to play: what :func:`analyze` asks, for a caller that thinks the
    values elsewhere."""
    replay = record if isinstance(record, Replay) else Replay(record)
    _check_seat(replay.record, seat)
    asked: list[Question] = []
    forced = 0
    for ply, action, game in replay.walk():
        if game.turn != seat:
            continue
        after = replay.actions[ply + 1] if ply + 1 < replay.last else None
        question = Question.at(game.copy(), action, after, ply)
        if question is None:
            forced += 1
        else:
            asked.append(question)
    return asked, forced


def judge(
    game: Game, played: Action, after: Action | None, player: DificilPlayer, ply: int = 0
) -> Decision | None:
    """The decision of the seat to move in ``game`` that played ``played`` (``after``: the next action of
    the record, or ``None``), judged by ``player`` from the seat's view; ``None`` when the seat had one
    way to play. ``player`` is started here, at the seat."""
    question = Question.at(game, played, after, ply)
    if question is None:
        return None
    player.start(question.seat, game.rules)
    return question.answer(player.values(question.view(), list(question.roots)))


def _check_seat(record: GameRecord, seat: object) -> None:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < record.players:
        raise ValueError(
            f"seat {seat!r} is not a seat of this record: it has seats 0 to {record.players - 1}"
        )


def analyze(
    record: GameRecord,
    seat: int,
    *,
    level: str = ANALYSIS_LEVEL,
    seed: int | str = 0,
    budget: Budget | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """The analysis of ``seat``'s moves in ``record`` (module docstring). ``budget`` replaces
    :data:`ANALYSIS_BUDGET` (a deeper or a quicker analysis); ``progress(done, total)`` is called after
    each of the seat's turns. Raises :class:`ValueError` for a seat the record does not have."""
    _check_seat(record, seat)
    replay = Replay(record)
    turns = replay.turns.count(seat)
    decisions: list[Decision] = []
    forced = 0
    done = 0
    for ply, action, game in replay.walk():
        if game.turn == seat:
            after = replay.actions[ply + 1] if ply + 1 < replay.last else None
            decision = judge(game, action, after, analyst(level, f"{seed}/analysis/{ply}", budget), ply)
            if decision is None:
                forced += 1
            else:
                decisions.append(decision)
            done += 1
            if progress is not None:
                progress(done, turns)
    return Review(seat=seat, level=level, seed=seed, decisions=tuple(decisions), forced=forced)


__all__ = [
    "ANALYSIS_BUDGET",
    "ANALYSIS_LEVEL",
    "Decision",
    "Question",
    "Review",
    "analyst",
    "analyze",
    "judge",
    "questions",
]
