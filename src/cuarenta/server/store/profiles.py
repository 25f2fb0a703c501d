"""Anonymous profiles and their ratings (docs/tables.md, "Profiles and ratings").

A browser gets an anonymous **profile**: a name and a secret key that the browser keeps (no password, no
e-mail). The store keeps only the key's SHA-256 (:func:`cuarenta.server.store.hash_token`). A rated mesa
(people only, a standard preset, a seed chosen by the server: the tables code decides and the ratings
service, :func:`cuarenta.server.ratings.mesa.rate_mesa`, rates it) updates the ratings of its players
with openskill's Weng-Lin model, one rating per mode: ``1v1`` (one person a side) and ``2v2`` (pairs);
the store keeps them (:mod:`cuarenta.server.store.ratings`).

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
...     ratings_of(store, beto.id)["1v1"].games, leaderboard(store, "1v1")  # no game yet
...     store.close()
'Ana'
(0, [])
"""

from __future__ import annotations

import hmac
import secrets

import sqlalchemy as sa

from cuarenta.names import clean_name
from cuarenta.server.store import Store, hash_token
from cuarenta.server.store.profilerows import (
    BASE,
    LEADERBOARD_MIN_GAMES,
    LEADERBOARD_MIN_OPPONENTS,
    MAX_GAMES,
    MODES,
    PROFILE_NAME_MAX_CHARS,
    SCALE,
    Established,
    LeaderboardRow,
    ProfileProblem,
    ProfileRow,
    RatedGame,
    RatingRow,
    displayed,
    now_text,
    run_write,
)
from cuarenta.server.store.ratings import games_of, is_rated, leaderboard, moved_to_service, ratings_of
from cuarenta.server.store.schema import profiles_table


def create_profile(store: Store, name: str) -> tuple[ProfileRow, str]:
    """A new anonymous profile and its secret key (shown once: only its hash is stored).

    ``name`` is cleaned with :func:`clean_name` (``ValueError`` if it cannot be a name).
    """
    row = ProfileRow(id=secrets.token_urlsafe(9), name=clean_name(name), created=now_text())
    key = secrets.token_urlsafe(24)
    values = {"id": row.id, "name": row.name, "key_hash": hash_token(key), "created": row.created}
    run_write(store, "storing a profile", lambda conn: conn.execute(profiles_table.insert(), values))
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
    run_write(
        store,
        f"renaming profile {profile_id}",
        lambda conn: conn.execute(
            profiles_table.update().where(profiles_table.c.id == profile_id).values(name=new_name)
        ),
    )
    return ProfileRow(id=profile.id, name=new_name, created=profile.created)


#: ``MODEL``, ``mode_of`` and ``rate_mesa`` moved to :mod:`cuarenta.server.ratings.mesa` (they warn here).
__getattr__ = moved_to_service(__name__)

__all__ = [
    "BASE",
    "LEADERBOARD_MIN_GAMES",
    "LEADERBOARD_MIN_OPPONENTS",
    "MAX_GAMES",
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
    "ratings_of",
    "rename_profile",
]
