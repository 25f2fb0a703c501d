"""Ratings (docs/ratings.md): rating a finished mesa with openskill's Weng-Lin model (Plackett-Luce, the
library's default), one rating per mode, and the queries of ratings — a profile's, the leaderboard, a
profile's rated games. The rows are :mod:`~cuarenta.server.store.profilerows`'.

>>> mode_of([["a"], ["b"]])
'1v1'
"""

from __future__ import annotations

import json
from typing import Any, Final

import sqlalchemy as sa
from openskill.models import PlackettLuce

from cuarenta.server.store import Store, StoreError, dumps
from cuarenta.server.store.profilerows import (
    LEADERBOARD_MIN_GAMES,
    LEADERBOARD_MIN_OPPONENTS,
    MAX_GAMES,
    MODES,
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

#: The rating model: openskill's Weng-Lin with Plackett-Luce (its default), mu 25, sigma 25/3.
MODEL: Final = PlackettLuce()


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
    :class:`ProfileProblem` ``unknown_profile`` for an id that is not a profile's.
    """
    mode = mode_of(teams)
    ids = [pid for team in teams for pid in team]
    if len(set(ids)) != len(ids):
        raise ValueError("a profile may hold only one seat of a rated mesa")
    if winner not in (0, 1):
        raise ValueError(f"the winner is team 0 or 1, not {winner!r}")
    p, m = profiles_table.c, rated_mesas_table.c
    when = now_text()
    mesa_row = {
        "room": room,
        "mesa": mesa,
        "mode": mode,
        "finished": finished,
        "teams": teams,
        "winner": winner,
    }

    def work(conn: sa.Connection) -> dict[str, int] | None:
        done = conn.execute(sa.select(m.room).where(m.room == room, m.mesa == mesa)).first()
        if done is not None:
            return None
        known = set(conn.execute(sa.select(p.id).where(p.id.in_(ids))).scalars())
        missing = [pid for pid in ids if pid not in known]
        if missing:
            raise ProfileProblem("unknown_profile", f"there is no profile {missing[0]!r}")
        if unrated is not None:
            _record(conn, mesa_row, dict.fromkeys(ids, 0), unrated)
            return dict.fromkeys(ids, 0)
        changes = _rate(conn, mode, teams, winner, when)
        _record(conn, mesa_row, changes, None)
        r = ratings_table.c
        for pid in ids:  # each one's count of different opponents, this mesa included
            conn.execute(
                ratings_table.update()
                .where(r.profile == pid, r.mode == mode)
                .values(opponents=len(_opponents(conn, pid, mode)))
            )
        return changes

    try:
        result: dict[str, int] | None = run_write(store, f"rating mesa {mesa} of room {room}", work)
    except StoreError:
        # a concurrent rating of the same mesa won the race: the primary key refused this one
        if is_rated(store, room, mesa):
            return None
        raise
    return result


def _rate(conn: sa.Connection, mode: str, teams: list[list[str]], winner: int, when: str) -> dict[str, int]:
    """Rate the players of a mesa that ``winner`` won: store each one's new rating (its games and wins
    counted) and return each one's change of displayed rating."""
    r = ratings_table.c
    ids = [pid for team in teams for pid in team]
    stored = {
        row.profile: row
        for row in conn.execute(
            sa.select(r.profile, r.mu, r.sigma, r.games, r.wins).where(r.profile.in_(ids), r.mode == mode)
        )
    }
    before = {
        pid: MODEL.rating(mu=stored[pid].mu, sigma=stored[pid].sigma) if pid in stored else MODEL.rating()
        for pid in ids
    }
    ranks = [0.0 if t == winner else 1.0 for t in range(2)]  # lower is better
    after = MODEL.rate([[before[pid] for pid in team] for team in teams], ranks=ranks)
    changes: dict[str, int] = {}
    for t, team in enumerate(teams):
        for pid, new in zip(team, after[t], strict=True):
            old = before[pid]
            changes[pid] = displayed(new.mu, new.sigma) - displayed(old.mu, old.sigma)
            won = 1 if t == winner else 0
            if pid in stored:
                conn.execute(
                    ratings_table.update()
                    .where(r.profile == pid, r.mode == mode)
                    .values(
                        mu=new.mu,
                        sigma=new.sigma,
                        games=stored[pid].games + 1,
                        wins=stored[pid].wins + won,
                        updated=when,
                    )
                )
            else:
                conn.execute(
                    ratings_table.insert(),
                    {
                        "profile": pid,
                        "mode": mode,
                        "mu": new.mu,
                        "sigma": new.sigma,
                        "games": 1,
                        "wins": won,
                        "updated": when,
                    },
                )
    return changes


def _record(
    conn: sa.Connection, mesa_row: dict[str, Any], changes: dict[str, int], unrated: str | None
) -> None:
    """The ``rated_mesas`` row of a mesa (``mesa_row``: room, mesa, mode, finished, teams, winner) with
    each player's change and, for a mesa that changed nobody's rating, why."""
    conn.execute(
        rated_mesas_table.insert(),
        {**mesa_row, "teams": dumps(mesa_row["teams"]), "changes": dumps(changes), "unrated": unrated},
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
    start = MODEL.rating()
    return {mode: found.get(mode, RatingRow(mode, start.mu, start.sigma, 0, 0)) for mode in MODES}


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


__all__ = ["MODEL", "games_of", "is_rated", "leaderboard", "mode_of", "rate_mesa", "ratings_of"]
