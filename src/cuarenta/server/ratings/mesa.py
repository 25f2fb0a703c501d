"""Rating a finished mesa (docs/ratings.md): openskill's Weng-Lin model (Plackett-Luce, the library's
default), one rating per mode; the store keeps the mesa and the ratings in one transaction
(:func:`cuarenta.server.store.ratings.record_mesa`).

>>> import tempfile, pathlib
>>> from cuarenta.server.store import Store
>>> from cuarenta.server.store.profiles import create_profile
>>> from cuarenta.server.store.ratings import leaderboard, ratings_of
>>> with tempfile.TemporaryDirectory() as d:
...     store = Store.in_dir(pathlib.Path(d))
...     ana, beto = create_profile(store, "Ana")[0], create_profile(store, "Beto")[0]
...     rate_mesa(store, room="r1", mesa=1, finished="2026-12-01T10:00:00Z",
...               teams=[[ana.id], [beto.id]], winner=0) == {ana.id: 138, beto.id: -73}
...     rate_mesa(store, room="r1", mesa=1, finished="2026-12-01T10:00:00Z",
...               teams=[[ana.id], [beto.id]], winner=0) is None
...     ratings_of(store, ana.id)["1v1"].provisional, leaderboard(store, "1v1")  # one game: provisional
...     [(p.name, p.rating) for p in leaderboard(store, "1v1", min_games=1, min_opponents=1)]
...     store.close()
True
True
(True, [])
[('Ana', 1138), ('Beto', 927)]
"""

from __future__ import annotations

from typing import Final

from openskill.models import PlackettLuce

from cuarenta.server.store import Store
from cuarenta.server.store.profilerows import START_MU, START_SIGMA, Mode
from cuarenta.server.store.ratings import MesaRow, Rater, Skill, record_mesa

#: The rating model: openskill's Weng-Lin with Plackett-Luce (its default), mu 25, sigma 25/3 (the
#: store's start, :data:`~cuarenta.server.store.profilerows.START_MU` and ``START_SIGMA``).
MODEL: Final = PlackettLuce(mu=START_MU, sigma=START_SIGMA)


def mode_of(teams: list[list[str]]) -> Mode:
    """``1v1`` for one profile a side, ``2v2`` for two; ``ValueError`` for anything else.

    >>> mode_of([["a"], ["b"]]), mode_of([["a", "c"], ["b", "d"]])
    ('1v1', '2v2')
    """
    if len(teams) != 2:
        raise ValueError(f"a rated mesa has two teams, not {len(teams)}")
    sizes = {len(team) for team in teams}
    if sizes == {1}:
        return "1v1"
    if sizes == {2}:
        return "2v2"
    raise ValueError(f"a rated mesa is 1 vs 1 or 2 vs 2, not {len(teams[0])} vs {len(teams[1])}")


def rater(teams: list[list[str]], winner: int) -> Rater:
    """How the players of a mesa that team ``winner`` won are rated: from their ratings before (``None``:
    a newcomer's), their ratings after (:data:`MODEL`).

    >>> after = rater([["a"], ["b"]], 0)({"a": None, "b": (25.0, 25.0 / 3)})
    >>> after["a"][0] > 25.0 > after["b"][0]
    True
    """

    def rate(before: dict[str, Skill | None]) -> dict[str, Skill]:
        ratings = {
            pid: MODEL.rating() if skill is None else MODEL.rating(mu=skill[0], sigma=skill[1])
            for pid, skill in before.items()
        }
        ranks = [0.0 if t == winner else 1.0 for t in range(2)]  # lower is better
        after = MODEL.rate([[ratings[pid] for pid in team] for team in teams], ranks=ranks)
        return {
            pid: (new.mu, new.sigma)
            for team, rated in zip(teams, after, strict=True)
            for pid, new in zip(team, rated, strict=True)
        }

    return rate


def rate_mesa(
    store: Store,
    *,
    room: str,
    mesa: int,
    finished: str,
    teams: list[list[str]],
    winner: int,
    unrated: str | None = None,
) -> dict[str, int] | None:
    """Rate a finished mesa: each profile's change of displayed rating, or ``None`` if it was rated before.

    With ``unrated`` (a reason of :data:`cuarenta.server.ratings.fairplay.UNRATED_REASONS`, which the tables
    code asks :func:`cuarenta.server.ratings.fairplay.unrated_reason` for) the mesa is recorded as played but
    nobody's rating moves: every change is 0.

    ``teams`` are the profile ids of team 0 and team 1 (one each: ``1v1``; two each: ``2v2``), ``winner``
    the team that won the mesa. One transaction: the ratings of every player and the ``rated_mesas`` row
    (whose primary key, room and mesa, makes a second rating of the same mesa do nothing). ``ValueError``
    for teams that are not 1 vs 1 or 2 vs 2 of distinct profiles, or a winner that is not 0 or 1;
    :class:`~cuarenta.server.store.profilerows.ProfileProblem` ``unknown_profile`` for an id that is not a
    profile's.
    """
    mode = mode_of(teams)
    ids = [pid for team in teams for pid in team]
    if len(set(ids)) != len(ids):
        raise ValueError("a profile may hold only one seat of a rated mesa")
    if winner not in (0, 1):
        raise ValueError(f"the winner is team 0 or 1, not {winner!r}")
    row = MesaRow(room, mesa, mode, finished, teams, winner, unrated)
    return record_mesa(store, row, rater(teams, winner))


__all__ = ["MODEL", "mode_of", "rate_mesa", "rater"]
