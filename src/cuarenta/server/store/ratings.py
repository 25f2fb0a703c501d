"""Ratings (docs/ratings.md): a rated mesa and its players' new ratings stored in one transaction (the
ratings themselves are computed by the ratings service, :mod:`cuarenta.server.ratings.mesa`), one rating
per mode, and the queries of ratings — a profile's, the leaderboard, a profile's rated games. The rows are
:mod:`~cuarenta.server.store.profilerows`'.

>>> MesaRow("r1", 1, "1v1", "2026-12-01T10:00:00Z", [["a"], ["b"]], winner=0).unrated is None
True
"""

from __future__ import annotations

import importlib
import json
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from cuarenta.server.store import Store, StoreError, dumps
from cuarenta.server.store.profilerows import (
    LEADERBOARD_MIN_GAMES,
    LEADERBOARD_MIN_OPPONENTS,
    MAX_GAMES,
    MODES,
    START_MU,
    START_SIGMA,
    LeaderboardRow,
    Mode,
    ProfileProblem,
    RatedGame,
    RatingRow,
    displayed,
    now_text,
    run_write,
)
from cuarenta.server.store.schema import profiles_table, rated_mesas_table, ratings_table

#: A rating as the store keeps it: ``(mu, sigma)``.
Skill = tuple[float, float]
#: How a mesa's players are rated (the ratings service's, :func:`cuarenta.server.ratings.mesa.rate_mesa`):
#: given each player's stored rating (``None``: none yet in the mode), each one's new rating.
Rater = Callable[[dict[str, Skill | None]], dict[str, Skill]]


@dataclass(frozen=True)
class MesaRow:
    """A finished mesa to rate: its room and number, mode, end, the profile ids of team 0 and team 1, the
    team that won, and the reason it is played unrated (``None``: rated)."""

    room: str
    mesa: int
    mode: Mode
    finished: str
    teams: list[list[str]]
    winner: int
    unrated: str | None = None


def record_mesa(store: Store, mesa: MesaRow, rate: Rater) -> dict[str, int] | None:
    """Store a finished mesa and its players' new ratings (``rate`` computes them from the stored ones,
    inside the transaction): each profile's change of displayed rating, or ``None`` if the mesa was rated
    before. An unrated mesa (``mesa.unrated``) is recorded with every change 0, ``rate`` not called.

    One transaction: the ratings of every player (their games, wins and different opponents counted) and
    the ``rated_mesas`` row (whose primary key, room and mesa, makes a second rating of the same mesa do
    nothing). :class:`ProfileProblem` ``unknown_profile`` for an id that is not a profile's.
    """
    p, m = profiles_table.c, rated_mesas_table.c
    ids = [pid for team in mesa.teams for pid in team]
    when = now_text()

    def work(conn: sa.Connection) -> dict[str, int] | None:
        done = conn.execute(sa.select(m.room).where(m.room == mesa.room, m.mesa == mesa.mesa)).first()
        if done is not None:
            return None
        known = set(conn.execute(sa.select(p.id).where(p.id.in_(ids))).scalars())
        missing = [pid for pid in ids if pid not in known]
        if missing:
            raise ProfileProblem("unknown_profile", f"there is no profile {missing[0]!r}")
        if mesa.unrated is not None:
            _record(conn, mesa, dict.fromkeys(ids, 0))
            return dict.fromkeys(ids, 0)
        changes = _rate(conn, mesa, rate, when)
        _record(conn, mesa, changes)
        r = ratings_table.c
        for pid in ids:  # each one's count of different opponents, this mesa included
            conn.execute(
                ratings_table.update()
                .where(r.profile == pid, r.mode == mesa.mode)
                .values(opponents=len(_opponents(conn, pid, mesa.mode)))
            )
        return changes

    try:
        result: dict[str, int] | None = run_write(store, f"rating mesa {mesa.mesa} of room {mesa.room}", work)
    except StoreError:
        # a concurrent rating of the same mesa won the race: the primary key refused this one
        if is_rated(store, mesa.room, mesa.mesa):
            return None
        raise
    return result


def _rate(conn: sa.Connection, mesa: MesaRow, rate: Rater, when: str) -> dict[str, int]:
    """Rate the players of ``mesa``: store each one's new rating from ``rate`` (its games and wins
    counted) and return each one's change of displayed rating."""
    r = ratings_table.c
    ids = [pid for team in mesa.teams for pid in team]
    stored = {
        row.profile: row
        for row in conn.execute(
            sa.select(r.profile, r.mu, r.sigma, r.games, r.wins).where(
                r.profile.in_(ids), r.mode == mesa.mode
            )
        )
    }
    after = rate({pid: (stored[pid].mu, stored[pid].sigma) if pid in stored else None for pid in ids})
    changes: dict[str, int] = {}
    for t, team in enumerate(mesa.teams):
        for pid in team:
            (mu, sigma), old = after[pid], stored.get(pid)
            changes[pid] = displayed(mu, sigma) - (
                displayed(START_MU, START_SIGMA) if old is None else displayed(old.mu, old.sigma)
            )
            won = 1 if t == mesa.winner else 0
            values = {"mu": mu, "sigma": sigma, "updated": when}
            if old is not None:
                conn.execute(
                    ratings_table.update()
                    .where(r.profile == pid, r.mode == mesa.mode)
                    .values(**values, games=old.games + 1, wins=old.wins + won)
                )
            else:
                conn.execute(
                    ratings_table.insert(),
                    {"profile": pid, "mode": mesa.mode, **values, "games": 1, "wins": won},
                )
    return changes


def _record(conn: sa.Connection, mesa: MesaRow, changes: dict[str, int]) -> None:
    """The ``rated_mesas`` row of a mesa with each player's change and, for a mesa that changed nobody's
    rating, why."""
    conn.execute(
        rated_mesas_table.insert(),
        {
            "room": mesa.room,
            "mesa": mesa.mesa,
            "mode": mesa.mode,
            "finished": mesa.finished,
            "teams": dumps(mesa.teams),
            "winner": mesa.winner,
            "changes": dumps(changes),
            "unrated": mesa.unrated,
        },
    )


def _opponents(conn: sa.Connection, profile_id: str, mode: str) -> set[str]:
    """The profiles ``profile_id`` met as opponents in rated mesas of ``mode`` (unrated ones left out)."""
    m = rated_mesas_table.c
    found: set[str] = set()
    for text in conn.execute(
        sa.select(m.teams).where(
            m.mode == mode, m.unrated.is_(None), m.teams.contains(json.dumps(profile_id), autoescape=True)
        )
    ).scalars():
        teams = json.loads(text)
        for t, team in enumerate(teams):
            if profile_id in team:
                found.update(teams[1 - t])
    return found


def is_rated(store: Store, room: str, mesa: int) -> bool:
    m = rated_mesas_table.c
    with store._read("reading profiles and ratings") as conn:
        return conn.execute(sa.select(m.room).where(m.room == room, m.mesa == mesa)).first() is not None


def ratings_of(store: Store, profile_id: str) -> dict[str, RatingRow]:
    """A profile's rating in every mode (a mode without games: the starting rating, 0 games)."""
    r = ratings_table.c
    with store._read("reading profiles and ratings") as conn:
        rows = conn.execute(
            sa.select(r.mode, r.mu, r.sigma, r.games, r.wins, r.opponents).where(r.profile == profile_id)
        ).all()
    found = {
        str(row.mode): RatingRow(str(row.mode), row.mu, row.sigma, row.games, row.wins, row.opponents)
        for row in rows
    }
    return {mode: found.get(mode, RatingRow(mode, START_MU, START_SIGMA, 0, 0)) for mode in MODES}


def leaderboard(
    store: Store,
    mode: str,
    limit: int = 50,
    *,
    min_games: int = LEADERBOARD_MIN_GAMES,
    min_opponents: int = LEADERBOARD_MIN_OPPONENTS,
) -> list[LeaderboardRow]:
    """The profiles with an established rating in ``mode`` (at least ``min_games`` rated mesas against
    at least ``min_opponents`` different opponents, and one game in any case), best displayed rating first.

    Equal ratings share a rank (1, 2, 2, 4); among them, more games first, then the id.
    """
    r, p = ratings_table.c, profiles_table.c
    with store._read("reading profiles and ratings") as conn:
        rows = conn.execute(
            sa.select(p.id, p.name, r.mu, r.sigma, r.games, r.wins)
            .select_from(ratings_table.join(profiles_table, p.id == r.profile))
            .where(
                r.mode == mode,
                r.games > 0,
                r.games >= min_games,
                r.opponents >= min_opponents,
            )
            .order_by((r.mu - 3 * r.sigma).desc(), r.games.desc(), p.id)
            .limit(limit)
        ).all()
    board: list[LeaderboardRow] = []
    for i, row in enumerate(rows):
        rating = displayed(row.mu, row.sigma)
        rank = board[-1].rank if board and board[-1].rating == rating else i + 1
        board.append(LeaderboardRow(rank, str(row.id), str(row.name), rating, row.games, row.wins))
    return board


def games_of(store: Store, profile_id: str, limit: int = MAX_GAMES) -> list[RatedGame]:
    """The rated mesas of a profile, newest first, at most ``limit``, with the players' current names."""
    m, p = rated_mesas_table.c, profiles_table.c
    with store._read("reading profiles and ratings") as conn:
        rows = conn.execute(
            sa.select(m.room, m.mesa, m.mode, m.finished, m.teams, m.winner, m.changes, m.unrated)
            .where(m.teams.contains(json.dumps(profile_id), autoescape=True))
            .order_by(m.finished.desc(), m.room.desc(), m.mesa.desc())
            .limit(limit)
        ).all()
        decoded = [(row, json.loads(row.teams), json.loads(row.changes)) for row in rows]
        ids = {pid for _, teams, _ in decoded for team in teams for pid in team}
        names = dict(conn.execute(sa.select(p.id, p.name).where(p.id.in_(sorted(ids)))).all())
    games = []
    for row, teams, changes in decoded:
        mine = next((t for t, team in enumerate(teams) if profile_id in team), None)
        if mine is None:  # pragma: no cover - an id that only contains this one as text
            continue
        own = [profile_id] + [pid for pid in teams[mine] if pid != profile_id]
        games.append(
            RatedGame(
                room=str(row.room),
                mesa=int(row.mesa),
                finished=str(row.finished),
                mode=str(row.mode),
                won=row.winner == mine,
                team=[str(names.get(pid, "?")) for pid in own],
                opponents=[str(names.get(pid, "?")) for pid in teams[1 - mine]],
                change=int(changes.get(profile_id, 0)),
                unrated=None if row.unrated is None else str(row.unrated),
            )
        )
    return games


#: Names that moved to the ratings service (issue 26: the store computes no rating): still read from here
#: and from :mod:`cuarenta.server.store.profiles`, with a ``DeprecationWarning``.
MOVED_TO_SERVICE = ("MODEL", "mode_of", "rate_mesa")


def moved_to_service(module: str) -> Callable[[str], Any]:
    """The ``__getattr__`` of a store module that still answers :data:`MOVED_TO_SERVICE`'s names, each
    read from :mod:`cuarenta.server.ratings.mesa` when first asked (the store imports no service)."""

    def forward(name: str) -> Any:
        if name not in MOVED_TO_SERVICE:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        warnings.warn(
            f"{module}.{name} moved to cuarenta.server.ratings.mesa; import it from there "
            "(the old name will go in a later version)",
            DeprecationWarning,
            stacklevel=2,
        )
        return getattr(importlib.import_module("cuarenta.server.ratings.mesa"), name)

    return forward


__getattr__ = moved_to_service(__name__)

__all__ = [
    "MesaRow",
    "Rater",
    "Skill",
    "games_of",
    "is_rated",
    "leaderboard",
    "moved_to_service",
    "ratings_of",
    "record_mesa",
]
