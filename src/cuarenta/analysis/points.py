"""A move's cost in points of the score (issue 29, docs/analysis.md "In points"): the chance of winning the
chica it lost, said as the points the seat's team would have to be given to make it up.

The search values moves by the chance of winning the chica, not by points (docs/analysis.md "How a move is
judged"). A player thinks in points too ("that cost you a caída"), so each loss is also converted, with the
same tables the search uses (:mod:`cuarenta.players.winprob`): the fewest points that, added to the team's
score of the moment as if a hand began there, raise its chance by the loss — between two even scores, in
proportion. It is a conversion at the score of the moment, not the points the search expects (it counts
none). Near the
end of a chica a point is worth more chance than at 0–0, so the same loss is fewer points there. A loss
that no gift short of the chica makes up is worth the points the team still needed.

>>> from cuarenta import Rules
>>> rules = Rules()
>>> points_worth(rules, (10, 10), dealer_team=0, team=0, loss=0.0)
0.0
>>> half, whole = (points_worth(rules, (10, 10), dealer_team=0, team=0, loss=x) for x in (0.05, 0.1))
>>> 0 < half < whole
True
>>> points_worth(rules, (30, 30), 0, 0, 0.05) < points_worth(rules, (0, 0), 0, 0, 0.05)
True
"""

from __future__ import annotations

from cuarenta.players.winprob import win_model
from cuarenta.rules import Rules


def points_worth(rules: Rules, scores: tuple[int, int], dealer_team: int, team: int, loss: float) -> float:
    """The points ``team`` would need, added to ``scores`` as if a hand dealt by ``dealer_team`` began
    there, to win back ``loss`` (0–1) of its chance of winning the chica (module docstring)."""
    if loss <= 0:
        return 0.0
    model = win_model(rules)

    def chance(gift: int) -> float:
        given = list(scores)
        given[team] += gift
        p0 = model.hand_start(given[0], given[1], dealer_team)
        return p0 if team == 0 else 1.0 - p0

    start = chance(0)
    needed = max(2, rules.target - scores[team])
    before, gained = 0, 0.0
    for gift in range(2, needed + 1, 2):
        now = chance(gift) - start
        if now >= loss:
            step = now - gained
            return round(before + (gift - before) * ((loss - gained) / step if step > 0 else 1.0), 1)
        before, gained = gift, now
    return float(needed)


__all__ = ["points_worth"]
