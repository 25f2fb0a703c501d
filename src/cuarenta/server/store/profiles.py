"""Anonymous profiles and their ratings (docs/tables.md, "Profiles and ratings").

A browser gets an anonymous **profile**: a name and a secret key that the browser keeps (no password, no
e-mail). The store keeps only the key's SHA-256 (:func:`cuarenta.server.store.hash_token`). A rated mesa
(people only, a standard preset, a seed chosen by the server: the tables code decides and calls
:func:`rate_mesa`) updates the ratings of its players with openskill's Weng-Lin model (Plackett-Luce,
the library's default), one rating per mode: ``1v1`` (one person a side) and ``2v2`` (pairs).

The **displayed rating** is ``round(1000 + 40 * (mu - 3 * sigma))`` (:func:`displayed`): openskill's
ordinal (a rating the player is very likely above), put on a friendly scale where a newcomer (mu 25,
sigma 25/3, ordinal 0) starts at 1000.

>>> import tempfile, pathlib
>>> from cuarenta.server.store import Store
>>> with tempfile.TemporaryDirectory() as d:
...     store = Store.in_dir(pathlib.Path(d))
...     ana, ana_key = create_profile(store, "Ana")
...     beto, _ = create_profile(store, "Beto")
...     check_profile(store, ana.id, ana_key).name
...     rate_mesa(store, room="r1", mesa=1, finished="2026-12-01T10:00:00Z",
...               teams=[[ana.id], [beto.id]], winner=0) == {ana.id: 138, beto.id: -73}
...     rate_mesa(store, room="r1", mesa=1, finished="2026-12-01T10:00:00Z",
...               teams=[[ana.id], [beto.id]], winner=0) is None
...     ratings_of(store, ana.id)["1v1"].provisional, leaderboard(store, "1v1")  # one game: provisional
...     [(p.name, p.rating) for p in leaderboard(store, "1v1", min_games=1, min_opponents=1)]
...     store.close()
'Ana'
True
True
(True, [])
[('Ana', 1138), ('Beto', 927)]
"""

from __future__ import annotations

import datetime
import hmac
import json
import secrets
from dataclasses import dataclass
from typing import Any, Final, Literal

import sqlalchemy as sa
from openskill.models import PlackettLuce

from cuarenta.server.authority.names import NAME_MAX_CHARS, clean_name
from cuarenta.server.store import Store, StoreError, dumps, hash_token
from cuarenta.server.store.schema import profiles_table, rated_mesas_table, ratings_table

#: The modes a profile is rated in: one against one, and pairs.
MODES: Final = ("1v1", "2v2")
Mode = Literal["1v1", "2v2"]
#: The displayed rating is ``BASE + SCALE * ordinal`` (ordinal = mu - 3 sigma), rounded.
BASE: Final = 1000
SCALE: Final = 40
#: The longest profile name (as a seat's name: names.NAME_MAX_CHARS).
PROFILE_NAME_MAX_CHARS: Final = NAME_MAX_CHARS
#: The most games a profile page lists.
MAX_GAMES: Final = 50
#: A rating is *provisional* until the profile has played this many rated mesas of the mode against at
#: least this many different opponents; the leaderboard lists established ratings only (issue 15: a rating
#: farmed between two profiles of one person does not reach it).
LEADERBOARD_MIN_GAMES: Final = 5
LEADERBOARD_MIN_OPPONENTS: Final = 3

#: The rating model: openskill's Weng-Lin with Plackett-Luce (its default), mu 25, sigma 25/3.
MODEL: Final = PlackettLuce()


# -- rows -------------------------------------------------------------------------------------------------
class ProfileProblem(Exception):
    """A profile that cannot be used: ``code`` is ``unknown_profile`` or ``bad_key``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class ProfileRow:
    id: str
    name: str
    created: str


@dataclass(frozen=True)
class RatingRow:
    """A profile's rating in one mode (a profile with no rated game there has none stored)."""

    mode: str
    mu: float
    sigma: float
    games: int
    wins: int
    opponents: int = 0  #: different opponents met in rated mesas of the mode

    @property
    def rating(self) -> int:
        return displayed(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        """Too few rated mesas, or too few different opponents, for the leaderboard (:class:`Established`'s
        defaults)."""
        return not Established().holds(self)


@dataclass(frozen=True)
class Established:
    """When a rating is established: at least ``games`` rated mesas of the mode against at least
    ``opponents`` different opponents. Until then it is *provisional* and the leaderboard leaves it out
    (``cuarenta serve --leaderboard-games N --leaderboard-opponents N``; a club's own server may ask less).

    >>> rule = Established(games=5, opponents=3)
    >>> rule.holds(RatingRow("1v1", 30.0, 4.0, games=5, wins=4, opponents=2))
    False
    >>> Established(games=0)
    Traceback (most recent call last):
    ...
    ValueError: an established rating needs at least 1 game and 1 opponent, not 0 and 3
    """

    games: int = LEADERBOARD_MIN_GAMES
    opponents: int = LEADERBOARD_MIN_OPPONENTS

    def __post_init__(self) -> None:
        if not (self.games >= 1 and self.opponents >= 1):
            raise ValueError(
                f"an established rating needs at least 1 game and 1 opponent, not {self.games} and "
                f"{self.opponents}"
            )

    def holds(self, rating: RatingRow) -> bool:
        """Whether ``rating`` is established."""
        return rating.games >= self.games and rating.opponents >= self.opponents


@dataclass(frozen=True)
class LeaderboardRow:
    rank: int
    id: str
    name: str
    rating: int
    games: int
    wins: int


@dataclass(frozen=True)
class RatedGame:
    """A rated mesa as one of its players saw it."""

    room: str
    mesa: int
    finished: str
    mode: str
    won: bool
    team: list[str]  #: the names of the player's team (the player first)
    opponents: list[str]
    change: int
    unrated: str | None = None  #: why the mesa did not change the ratings (cuarenta.server.ratings.fairplay)


def now_text() -> str:
    return datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def displayed(mu: float, sigma: float) -> int:
    """The rating a page shows: ``round(1000 + 40 * (mu - 3 * sigma))``.

    >>> displayed(25.0, 25 / 3), displayed(30.0, 5.0)
    (1000, 1600)
    """
    return round(BASE + SCALE * (mu - 3 * sigma))


# -- profiles ----------------------------------------------------------------------------------------------
def _run(store: Store, what: str, work: Any) -> Any:
    try:
        with store._write() as conn:
            return work(conn)
    except sa.exc.IntegrityError as exc:
        raise StoreError(f"the database refused {what}: {exc.orig}") from None
    except sa.exc.SQLAlchemyError as exc:
        raise StoreError(f"{what} failed: {exc}") from None


def create_profile(store: Store, name: str) -> tuple[ProfileRow, str]:
    """A new anonymous profile and its secret key (shown once: only its hash is stored).

    ``name`` is cleaned with :func:`clean_name` (``ValueError`` if it cannot be a name).
    """
    row = ProfileRow(id=secrets.token_urlsafe(9), name=clean_name(name), created=now_text())
    key = secrets.token_urlsafe(24)
    values = {"id": row.id, "name": row.name, "key_hash": hash_token(key), "created": row.created}
    _run(store, "storing a profile", lambda conn: conn.execute(profiles_table.insert(), values))
    return row, key


def get_profile(store: Store, profile_id: str) -> ProfileRow:
    """A stored profile; :class:`ProfileProblem` ``unknown_profile`` if there is none with that id."""
    p = profiles_table.c
    with store._read("reading profiles and ratings") as conn:
        row = conn.execute(sa.select(p.id, p.name, p.created).where(p.id == profile_id)).first()
    if row is None:
        raise ProfileProblem("unknown_profile", f"there is no profile {profile_id!r}")
    return ProfileRow(id=str(row.id), name=str(row.name), created=str(row.created))


def check_profile(store: Store, profile_id: str, key: str) -> ProfileRow:
    """The profile if ``key`` is its key; :class:`ProfileProblem` ``unknown_profile`` or ``bad_key``."""
    p = profiles_table.c
    with store._read("reading profiles and ratings") as conn:
        row = conn.execute(sa.select(p.id, p.name, p.created, p.key_hash).where(p.id == profile_id)).first()
    if row is None:
        raise ProfileProblem("unknown_profile", f"there is no profile {profile_id!r}")
    if not hmac.compare_digest(str(row.key_hash), hash_token(key)):
        raise ProfileProblem("bad_key", f"that is not the key of profile {profile_id}")
    return ProfileRow(id=str(row.id), name=str(row.name), created=str(row.created))


def rename_profile(store: Store, profile_id: str, key: str, name: str) -> ProfileRow:
    """Give a profile a new name (its key must match: :func:`check_profile`)."""
    profile = check_profile(store, profile_id, key)
    new_name = clean_name(name)
    _run(
        store,
        f"renaming profile {profile_id}",
        lambda conn: conn.execute(
            profiles_table.update().where(profiles_table.c.id == profile_id).values(name=new_name)
        ),
    )
    return ProfileRow(id=profile.id, name=new_name, created=profile.created)


# -- ratings -----------------------------------------------------------------------------------------------
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
    p, r, m = profiles_table.c, ratings_table.c, rated_mesas_table.c
    when = now_text()

    def work(conn: sa.Connection) -> dict[str, int] | None:
        done = conn.execute(sa.select(m.room).where(m.room == room, m.mesa == mesa)).first()
        if done is not None:
            return None
        known = set(conn.execute(sa.select(p.id).where(p.id.in_(ids))).scalars())
        missing = [pid for pid in ids if pid not in known]
        if missing:
            raise ProfileProblem("unknown_profile", f"there is no profile {missing[0]!r}")
        stored = {
            row.profile: row
            for row in conn.execute(
                sa.select(r.profile, r.mu, r.sigma, r.games, r.wins).where(r.profile.in_(ids), r.mode == mode)
            )
        }
        if unrated is not None:
            _record(conn, room, mesa, mode, finished, teams, winner, dict.fromkeys(ids, 0), unrated)
            return dict.fromkeys(ids, 0)
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
        _record(conn, room, mesa, mode, finished, teams, winner, changes, None)
        for pid in ids:  # each one's count of different opponents, this mesa included
            conn.execute(
                ratings_table.update()
                .where(r.profile == pid, r.mode == mode)
                .values(opponents=len(_opponents(conn, pid, mode)))
            )
        return changes

    try:
        result: dict[str, int] | None = _run(store, f"rating mesa {mesa} of room {room}", work)
    except StoreError:
        # a concurrent rating of the same mesa won the race: the primary key refused this one
        if is_rated(store, room, mesa):
            return None
        raise
    return result


def _record(
    conn: sa.Connection,
    room: str,
    mesa: int,
    mode: str,
    finished: str,
    teams: list[list[str]],
    winner: int,
    changes: dict[str, int],
    unrated: str | None,
) -> None:
    conn.execute(
        rated_mesas_table.insert(),
        {
            "room": room,
            "mesa": mesa,
            "mode": mode,
            "finished": finished,
            "teams": dumps(teams),
            "winner": winner,
            "changes": dumps(changes),
            "unrated": unrated,
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


__all__ = [
    "BASE",
    "LEADERBOARD_MIN_GAMES",
    "LEADERBOARD_MIN_OPPONENTS",
    "MAX_GAMES",
    "MODEL",
    "MODES",
    "PROFILE_NAME_MAX_CHARS",
    "SCALE",
    "Established",
    "LeaderboardRow",
    "ProfileProblem",
    "ProfileRow",
    "RatedGame",
    "RatingRow",
    "check_profile",
    "clean_name",
    "create_profile",
    "displayed",
    "games_of",
    "get_profile",
    "is_rated",
    "leaderboard",
    "mode_of",
    "rate_mesa",
    "ratings_of",
    "rename_profile",
]
