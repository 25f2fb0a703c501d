"""Luck and skill: how much of each chica's result the cards decided (docs/analysis.md "Luck and skill").

A team starts a chica with some chance of winning it (the win model's, from 0 to 0: the dealing team's
small disadvantage) and ends it with 1 or 0. Between the two, its own moves lost some chances (the sum of
its seats' losses in the analysis), the rivals' moves gave some away (the sum of theirs), and the rest is
what the cards did — the deals, and the cards the rivals happened to hold:

    result − start = luck − own losses + rivals' losses

so ``luck`` is what is left once the moves are accounted for, as backgammon analysers split a match. It is
an estimate: each loss is judged from one seat's view by a sampling search, so a few points of the luck are
the analysis's own noise.

>>> from cuarenta.analysis.luck import ChicaSplit
>>> split = ChicaSplit(chica=0, team=0, start=0.48, won=True, own=0.10, rivals=0.25)
>>> round(split.luck, 2)
0.37
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cuarenta.analysis.review import Review
from cuarenta.players.winprob import win_model
from cuarenta.record import GameRecord
from cuarenta.replay import Replay


@dataclass(frozen=True)
class ChicaSplit:
    """One finished chica from one team's side."""

    chica: int  #: from 0
    team: int
    start: float  #: the team's chance of winning it when it began
    won: bool
    own: float  #: the chances the team's own moves lost (its seats' losses)
    rivals: float  #: the chances the rivals' moves lost

    @property
    def luck(self) -> float:
        """What the cards did for the team (negative: against it), in the chance of winning the chica."""
        return (1.0 if self.won else 0.0) - self.start + self.own - self.rivals

    def to_dict(self) -> dict[str, Any]:
        return {
            "chica": self.chica,
            "team": self.team,
            "start": round(self.start, 4),
            "won": self.won,
            "own": round(self.own, 4),
            "rivals": round(self.rivals, 4),
            "luck": round(self.luck, 4),
        }


def split(record: GameRecord, reviews: Mapping[int, Review], team: int) -> list[ChicaSplit]:
    """The luck and the skill of ``team`` in each finished chica of ``record``, from ``reviews``: the
    analysis of every seat of the mesa (``ValueError`` when one is missing)."""
    players = record.players
    missing = [s for s in range(players) if s not in reviews]
    if missing:
        raise ValueError(f"the luck needs every seat analysed: seat {missing[0]} is not")
    if team not in (0, 1):
        raise ValueError(f"team {team!r} is not a team: 0 or 1")
    replay = Replay(record)
    model = win_model(record.rules)
    starts: list[float] = []
    chica_of: dict[int, int] = {}
    for ply, _, game in replay.walk():
        finished = len(game.chica_results)
        if len(starts) == finished:  # a chica begins: 0 to 0, this dealer
            chance = model.hand_start(0, 0, game.dealer % 2)
            starts.append(chance if team == 0 else 1.0 - chance)
        chica_of[ply] = finished
    results = replay.game.chica_results
    out = []
    for k, result in enumerate(results):
        own = rivals = 0.0
        for seat, review in reviews.items():
            lost = sum(d.loss for d in review.decisions if chica_of.get(d.ply) == k)
            if seat % 2 == team:
                own += lost
            else:
                rivals += lost
        out.append(ChicaSplit(k, team, starts[k], result.winner == team, own, rivals))
    return out


__all__ = ["ChicaSplit", "split"]
