"""Learning the play model of :mod:`cuarenta.players.playmodel` from self-play.

:func:`collect` plays chicas between computer players (seeded, so the same
arguments give the same decisions) and keeps every decision by ranks that had a
real choice: the features of each choice and which one was played.
:func:`fit` finds the weights of the conditional logit by Newton's method (a
ten-by-ten system per step, pure Python), with a small ridge so that a feature
never seen in a sample stays at zero. ``scripts/fit_playmodel.py`` runs both
and writes ``players/data/playmodel.json``.

>>> rows = collect("normal", "normal", chicas=1, players=2, seed=1)
>>> model = fit(rows)
>>> len(model.weights) == len(FEATURES)
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

from cuarenta.game import Game
from cuarenta.moves import Move
from cuarenta.players import act, make_player
from cuarenta.players.arena import match_rules
from cuarenta.players.playmodel import FEATURES, PlayModel, choice_key, choices, features

#: One decision: the features of every choice the seat had, and the index of the one it played.
Row = tuple[tuple[tuple[float, ...], ...], int]


def _counts(cards: Sequence[int]) -> list[int]:
    out = [0] * 10
    for c in cards:
        out[c >> 2] += 1
    return out


def _chica(args: tuple[str, str, int, str, int, str]) -> list[Row]:
    a, b, players, preset, chica, seed = args
    rules, _ = match_rules(preset, players)
    game = Game.new(rules, seed=f"playfit/{seed}/{chica}")
    names = [a if s % 2 == chica % 2 else b for s in range(players)]  # a on team 0, then on team 1
    bots = [make_player(name, seed=f"playfit/{seed}/{chica}/{s}") for s, name in enumerate(names)]
    two_only = rules.sum_cards == "two"
    rows: list[Row] = []
    steps = 0
    while not game.is_over:
        seat = game.turn
        assert seat is not None
        view = game.view(seat)
        action = act(bots[seat], game)
        if type(action) is Move:
            hand = _counts(view.hand)
            table = _counts(view.table)
            drop = None if view.last_drop is None else view.last_drop >> 2
            gone = _counts([*view.piles[0], *view.piles[1]])
            options = choices(hand, table, two_only)
            key = choice_key(action)
            if len(options) > 1 and key in options:
                rows.append(
                    (tuple(features(o, hand, table, drop, gone) for o in options), options.index(key))
                )
        game.push(action)
        steps += 1
        if steps > 20000:  # pragma: no cover - a guard, as the arena's
            raise RuntimeError("a self-play chica did not end")
    return rows


def collect(
    a: str, b: str, chicas: int, players: int, seed: int | str, preset: str = "a_todo_rigor", jobs: int = 1
) -> list[Row]:
    """The decisions of ``chicas`` chicas of ``a`` against ``b`` (teams swapped every other chica),
    in chica order whatever ``jobs`` is."""
    tasks = [(a, b, players, preset, i, str(seed)) for i in range(chicas)]
    if jobs <= 1:
        parts = [_chica(t) for t in tasks]
    else:
        with ProcessPoolExecutor(jobs) as pool:
            parts = list(pool.map(_chica, tasks, chunksize=4))
    return [row for part in parts for row in part]


def log_likelihood(model: PlayModel, rows: Sequence[Row]) -> float:
    """Mean log-chance of the choices played (the figure the fit maximises, minus its ridge)."""
    total = 0.0
    for options, chosen in rows:
        scores = [sum(w * x for w, x in zip(model.weights, f, strict=True)) for f in options]
        top = max(scores)
        total += scores[chosen] - top - math.log(sum(math.exp(s - top) for s in scores))
    return total / max(len(rows), 1)


def _solve(h: list[list[float]], g: list[float]) -> list[float]:
    """``h·x = g`` by Gaussian elimination with partial pivoting (``h`` is small and positive definite)."""
    n = len(g)
    m = [[*row, gi] for row, gi in zip(h, g, strict=True)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[piv] = m[piv], m[col]
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            for c in range(col, n + 1):
                m[r][c] -= f * m[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def fit(rows: Sequence[Row], ridge: float = 1e-2, steps: int = 25) -> PlayModel:
    """The weights that make the played choices most likely (Newton's method on the conditional logit)."""
    k = len(FEATURES)
    w = [0.0] * k
    for _ in range(steps):
        grad = [-ridge * wi for wi in w]
        hess = [[ridge * (i == j) for j in range(k)] for i in range(k)]
        for options, chosen in rows:
            scores = [sum(wi * x for wi, x in zip(w, f, strict=True)) for f in options]
            top = max(scores)
            exps = [math.exp(s - top) for s in scores]
            z = sum(exps)
            probs = [e / z for e in exps]
            mean = [sum(p * f[i] for p, f in zip(probs, options, strict=True)) for i in range(k)]
            fc = options[chosen]
            for i in range(k):
                grad[i] += fc[i] - mean[i]
            for p, f in zip(probs, options, strict=True):
                d = [f[i] - mean[i] for i in range(k)]
                for i in range(k):
                    if d[i]:
                        row = hess[i]
                        pdi = p * d[i]
                        for j in range(k):
                            row[j] += pdi * d[j]
        step = _solve(hess, grad)
        w = [wi + si for wi, si in zip(w, step, strict=True)]
        if max(abs(s) for s in step) < 1e-7:
            break
    return PlayModel(tuple(w))
