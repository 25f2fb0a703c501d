"""Chances to win the chica, for the search players' leaf evaluation.

Points are not all worth the same: 2 points that take a team from 36 to 38
matter less than 2 points that take it from 38 to 40, and the cartón at the
end of the hand is worth more to a team at 34 than to one at 10. The search
players therefore value a position by the probability that a team wins the
chica from it, using two tables estimated by simulation
(``scripts/make_winprob.py``, which writes them to the data file
``cuarenta/players/data/winprob.json``):

* ``V(x, y)``: the probability that the *dealer's* team wins the chica when
  a hand starts with the dealer's team at ``x`` points and the other team at
  ``y`` (every even score below the target). Hands are replayed from
  simulated ones under each preset's scoring rules (R15–R20, R23, R24).
* For a position at the end of a deal with deals still to come: the joint
  distribution of the points still to be made in play (caídas, limpias,
  rondas) by each team in the remaining deals, and of how the remaining
  cards split between the piles, so that the cartón (R23) can be counted.

:class:`WinModel` combines them. Every value is the probability that
**team 0** wins; a caller playing for team 1 uses ``1 - value``.

>>> from cuarenta import Rules
>>> model = WinModel(Rules())
>>> 0.45 < model.hand_start(0, 0, dealer_team=0) < 0.55
True
>>> model.hand_start(36, 0, dealer_team=1) > 0.9 > 0.1 > model.hand_start(0, 36, dealer_team=0)
True
>>> model.deal_end(20, 20, 16, 4, deals_left=1, dealer_team=0) > model.deal_end(20, 20, 4, 16, 1, 0)
True

Rules that are not a preset use the table of the closest preset, with
scores rescaled when the target is not 40.
"""

from __future__ import annotations

import dataclasses
import json
from functools import lru_cache
from importlib import resources
from typing import Any, Final

from cuarenta.rules import PRESET_NAMES, Rules

#: Atom of the in-play distribution: (probability, points x, caída x, points y, caída y).
Atom = tuple[float, int, bool, int, bool]


def carton_points(rules: Rules, mine: int, other: int, mine_deals: bool) -> int:
    """R23: the nominal cartón points of a team with ``mine`` cards against ``other`` cards.

    ``mine_deals`` says whether this team dealt the hand (for ``carton_short``).
    The 38 rule (R20) is not applied here.

    >>> rules = Rules()
    >>> [carton_points(rules, n, 40 - n, False) for n in (19, 20, 21, 22, 23)]
    [0, 6, 8, 8, 10]
    >>> carton_points(rules, 15, 15, mine_deals=False), carton_points(rules, 15, 15, mine_deals=True)
    (2, 0)
    """
    (points, _), _ = rules.carton((mine, other), dealer_team=0 if mine_deals else 1)
    return points


def table_key(rules: Rules) -> tuple[str, float]:
    """The stored table that fits ``rules`` best, and the factor that maps its scores to 40.

    >>> table_key(Rules.preset("todo_dos", players=4))
    ('4/todo_dos', 1.0)
    >>> table_key(Rules().replace(target=30, chicas=3))
    ('2/a_todo_rigor', 1.3333333333333333)
    """
    n = rules.players
    best = ""
    best_diff = 99
    mine = dataclasses.asdict(rules)
    for name in PRESET_NAMES:
        key = f"{n}/{name}"
        if key not in tables():
            continue
        ref = dataclasses.asdict(Rules.preset(name, players=n))
        diff = sum(1 for k, v in mine.items() if k not in ("chicas", "target") and ref[k] != v)
        if diff < best_diff:
            best, best_diff = key, diff
    return best, 40 / rules.target


class WinModel:
    """Probability that team 0 wins the chica, at the start of a hand or at the end of a deal."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        key, self.scale = table_key(rules)
        data = tables()[key]
        self.key = key
        self.deals = rules.deals_per_hand
        size = len(data["v"])
        self._size = size
        self._v: list[list[float]] = [[x / 10000 for x in row] for row in data["v"]]
        self._atoms: dict[int, list[Atom]] = {
            int(k): [(p / 10000, a, bool(ca), b, bool(cb)) for p, a, ca, b, cb in atoms]
            for k, atoms in data["atoms"].items()
        }
        self._shares: dict[int, list[float]] = {int(k): list(v) for k, v in data["shares"].items()}
        self._left: dict[int, float] = {int(k): v for k, v in data["left"].items()}
        self._memo: dict[tuple[int, ...], float] = {}
        self.target = rules.target
        self.blocked_from = rules.target - 2 if rules.treinta_y_ocho else rules.target * 10

    # -- the hand-start table ---------------------------------------------------------------------
    def _index(self, score: int) -> int:
        i = int(score * self.scale / 2 + 0.5)
        return min(max(i, 0), self._size - 1)

    def dealer_wins(self, x: int, y: int) -> float:
        """P(the dealer's team wins) when a hand starts at dealer ``x``, other ``y`` (both below target)."""
        return self._v[self._index(x)][self._index(y)]

    def hand_start(self, s0: int, s1: int, dealer_team: int) -> float:
        """P(team 0 wins) when a hand starts with scores ``s0``, ``s1`` and ``dealer_team`` dealing."""
        # scores at the target here come from the last hand's cartón, dealt by the other team (R24)
        winner = self.rules.chica_winner((s0, s1), 1 - dealer_team)
        if winner is not None:
            return 1.0 - winner
        if dealer_team == 0:
            return self.dealer_wins(s0, s1)
        return 1.0 - self.dealer_wins(s1, s0)

    # -- the end of a deal ------------------------------------------------------------------------
    def deal_end(self, s0: int, s1: int, p0: int, p1: int, deals_left: int, dealer_team: int) -> float:
        """P(team 0 wins) at the end of a deal with ``deals_left`` deals still to come in the hand.

        ``p0``, ``p1`` are the cards each team has captured so far in this hand.
        """
        key = (s0, s1, p0, p1, deals_left, dealer_team)
        found = self._memo.get(key)
        if found is not None:
            return found
        if dealer_team == 0:
            value = self._dealer_deal_end(s0, s1, p0, p1, deals_left)
        else:
            value = 1.0 - self._dealer_deal_end(s1, s0, p1, p0, deals_left)
        if len(self._memo) > 200_000:
            self._memo.clear()
        self._memo[key] = value
        return value

    def _dealer_deal_end(self, x: int, y: int, px: int, py: int, deals_left: int) -> float:
        """P(the dealer's team wins), dealer at ``x`` with ``px`` cards, the other at ``y``, ``py``."""
        target = self.target
        blocked = self.blocked_from
        rules = self.rules
        left = min(max(deals_left, 1), self.deals)
        atoms = self._atoms[left]
        shares = self._shares[left]
        remaining = 40 - px - py
        half = max(0.0, (remaining - self._left[left]) / 2)
        finals = []
        for d in shares:
            fx = min(max(int(px + half + d + 0.5), px), 40 - py)
            fy = min(max(int(py + half - d + 0.5), py), 40 - fx)
            finals.append((carton_points(rules, fx, fy, True), carton_points(rules, fy, fx, False)))
        weight = 1.0 / len(finals)
        total = 0.0
        for p, ax, cx, ay, cy in atoms:
            x1 = (x + 2 if cx else x) if x >= blocked else x + ax
            y1 = (y + 2 if cy else y) if y >= blocked else y + ay
            if x1 >= target or y1 >= target:
                total += p * (0.5 if x1 >= target and y1 >= target else 1.0 if x1 >= target else 0.0)
                continue
            sub = 0.0
            for cxp, cyp in finals:
                x2 = x1 if x1 >= blocked else x1 + cxp
                y2 = y1 if y1 >= blocked else y1 + cyp
                winner = rules.chica_winner((x2, y2), dealer_team=0)
                if winner is not None:
                    sub += 1.0 - winner
                else:
                    sub += 1.0 - self.dealer_wins(y2, x2)
            total += p * sub * weight
        return total


@lru_cache(maxsize=32)
def win_model(rules: Rules) -> WinModel:
    """A shared :class:`WinModel` for ``rules`` (its memo is reused across games)."""
    return WinModel(rules)


#: The data file written by ``scripts/make_winprob.py`` (inside the installed package).
DATA_FILE: Final = "data/winprob.json"
DATA_FORMAT: Final = "cuarenta-winprob"


@lru_cache(maxsize=1)
def tables() -> dict[str, dict[str, Any]]:
    """The stored tables by ``"players/preset"`` (read once from :data:`DATA_FILE`)."""
    text = resources.files("cuarenta.players").joinpath(DATA_FILE).read_text(encoding="utf-8")
    data = json.loads(text)
    if data.get("format") != DATA_FORMAT or data.get("version") != 1:
        raise ValueError(f"{DATA_FILE} is not a version 1 {DATA_FORMAT} file")
    found: dict[str, dict[str, Any]] = data["tables"]
    return found
