"""Rated play that cannot be farmed cheaply (docs/tables.md, "What is rated").

Two profiles made by one person from one place could otherwise play rated mesas against each other and
hand one of them every win. A finished mesa of a rated table therefore changes the ratings only when:

- **no two opponents share a network**: the networks a profile was made or used from (its client address,
  an IPv6 address by its /64, as for the rate limits) are kept for :data:`SHARED_ADDRESS_DAYS` days as keyed
  hashes (:func:`address_digest`; the key is a random ``address_salt`` of the database, the address itself
  is never stored); opponents with a network in common are not rated against each other (partners may
  share one: a couple at home playing together against others);
- **the same two opponents have not met too often**: at most :data:`PAIR_MESAS_PER_DAY` rated mesas in 24
  hours between the same two profiles; more are played, and shown, unrated.

Otherwise the mesa is recorded as unrated, with the reason (:data:`UNRATED_REASONS`), and nobody's rating
moves. The leaderboard, besides, lists a profile only once its rating is established
(:class:`cuarenta.server.store.profilerows.Established`: enough rated mesas against enough different
opponents).

>>> import tempfile, pathlib
>>> from cuarenta.server.store import Store
>>> from cuarenta.server.store.profiles import create_profile
>>> with tempfile.TemporaryDirectory() as d:
...     store = Store.in_dir(pathlib.Path(d))
...     ana, _ = create_profile(store, "Ana")
...     beto, _ = create_profile(store, "Beto")
...     note_address(store, ana.id, "192.0.2.7")
...     note_address(store, beto.id, "198.51.100.3")
...     first = unrated_reason(store, [[ana.id], [beto.id]], "2026-12-01T10:00:00Z")
...     note_address(store, beto.id, "192.0.2.7")  # Beto's profile is used from Ana's address
...     second = unrated_reason(store, [[ana.id], [beto.id]], "2026-12-01T10:00:00Z")
...     store.close()
>>> first, second
(None, 'shared_address')
"""

from __future__ import annotations

import datetime
import hashlib
import hmac
import json
import weakref
from collections.abc import Iterable
from typing import Final, Literal

import sqlalchemy as sa

from cuarenta.server.edge.ratelimits import client_key
from cuarenta.server.store import Store, StoreError
from cuarenta.server.store.schema import profile_addresses_table, rated_mesas_table, settings_table

#: Opponents whose profiles were made or used from one network within this many days are not rated.
SHARED_ADDRESS_DAYS: Final = 30
#: At most this many rated mesas in 24 hours between the same two opponents.
PAIR_MESAS_PER_DAY: Final = 3
#: Why a finished mesa of a rated table did not change the ratings.
UnratedReason = Literal["shared_address", "pair_limit"]
UNRATED_REASONS: Final[tuple[UnratedReason, ...]] = ("shared_address", "pair_limit")

_salts: weakref.WeakKeyDictionary[Store, bytes] = weakref.WeakKeyDictionary()


def _text(when: datetime.datetime) -> str:
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


def _parse(when: str) -> datetime.datetime:
    return datetime.datetime.strptime(when, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=datetime.UTC)


def address_digest(store: Store, host: str | None) -> str | None:
    """The stored form of a client's network: an HMAC-SHA256 of
    :func:`~cuarenta.server.edge.ratelimits.client_key` under the database's ``address_salt`` (``None``
    without an address)."""
    if not host:
        return None
    salt = _salts.get(store)
    if salt is None:
        with store._read("reading profiles and ratings") as conn:
            value = conn.execute(
                sa.select(settings_table.c.value).where(settings_table.c.name == "address_salt")
            ).scalar_one_or_none()
        if value is None:
            raise StoreError("the database has no address_salt setting (schema revision 0006 makes it)")
        salt = _salts[store] = bytes.fromhex(str(value))
    return hmac.new(salt, client_key(host).encode(), hashlib.sha256).hexdigest()


def note_address(store: Store, profile_id: str, host: str | None, when: str | None = None) -> None:
    """Remember that ``profile_id`` was made or used from ``host``'s network (now, or at ``when``).

    Best effort: the rating checks read it later, and a failed write is raised as :class:`StoreError`
    for the caller to log (it never stops a game)."""
    digest = address_digest(store, host)
    if digest is None:
        return
    seen = when or _text(datetime.datetime.now(datetime.UTC))
    a = profile_addresses_table.c
    try:
        with store._write() as conn:
            changed = conn.execute(
                profile_addresses_table.update()
                .where(a.profile == profile_id, a.address == digest)
                .values(last_seen=seen)
            )
            if changed.rowcount == 0:
                conn.execute(
                    profile_addresses_table.insert(),
                    {"profile": profile_id, "address": digest, "first_seen": seen, "last_seen": seen},
                )
    except sa.exc.IntegrityError:  # the same profile and network written at once elsewhere: it is there
        return
    except sa.exc.SQLAlchemyError as exc:
        raise StoreError(f"noting a profile's network failed: {exc}") from None


def _pairs(teams: list[list[str]]) -> list[tuple[str, str]]:
    return [(a, b) for a in teams[0] for b in teams[1]]


def unrated_reason(store: Store, teams: list[list[str]], finished: str) -> UnratedReason | None:
    """Why a mesa of these ``teams`` (profile ids of team 0 and team 1), finished at ``finished``, may not
    change the ratings, or ``None`` when it may (the rules of this module's docstring)."""
    end = _parse(finished)
    ids = sorted({pid for team in teams for pid in team})
    a = profile_addresses_table.c
    since = _text(end - datetime.timedelta(days=SHARED_ADDRESS_DAYS))
    with store._read("reading profiles and ratings") as conn:
        networks: dict[str, set[str]] = {pid: set() for pid in ids}
        for profile, address in conn.execute(
            sa.select(a.profile, a.address).where(a.profile.in_(ids), a.last_seen >= since)
        ):
            networks[str(profile)].add(str(address))
        if any(networks[x] & networks[y] for x, y in _pairs(teams)):
            return "shared_address"
        m = rated_mesas_table.c
        day = _text(end - datetime.timedelta(hours=24))
        recent = conn.execute(
            sa.select(m.teams).where(
                m.finished > day,
                m.finished <= finished,
                m.unrated.is_(None),
                sa.or_(*(m.teams.contains(json.dumps(pid), autoescape=True) for pid in ids)),
            )
        ).scalars()
        met = _meetings(json.loads(text) for text in recent)
    if any(met.get(frozenset(pair), 0) >= PAIR_MESAS_PER_DAY for pair in _pairs(teams)):
        return "pair_limit"
    return None


def _meetings(mesas: Iterable[list[list[str]]]) -> dict[frozenset[str], int]:
    """How many times each two profiles met as opponents in ``mesas`` (their teams)."""
    met: dict[frozenset[str], int] = {}
    for teams in mesas:
        for pair in _pairs(teams):
            key = frozenset(pair)
            met[key] = met.get(key, 0) + 1
    return met


__all__ = [
    "PAIR_MESAS_PER_DAY",
    "SHARED_ADDRESS_DAYS",
    "UNRATED_REASONS",
    "UnratedReason",
    "address_digest",
    "note_address",
    "unrated_reason",
]
