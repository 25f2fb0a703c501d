"""The HTTP API of anonymous profiles and the leaderboard (docs/tables.md, "Profiles and ratings").

- ``POST /api/profiles`` ``{"name"}`` → ``{"id", "key", "name"}`` (the key is shown this once);
- ``PATCH /api/profiles/{id}`` with ``Authorization: Bearer KEY``, ``{"name"}`` → the profile;
- ``GET /api/profiles/{id}`` → the profile's name, ratings and rated games (never its key);
- ``GET /api/leaderboard?mode=1v1|2v2&limit=50`` → the best rated profiles of a mode.

>>> import tempfile, pathlib
>>> from fastapi.testclient import TestClient
>>> from cuarenta.server import create_app
>>> with tempfile.TemporaryDirectory() as d, TestClient(create_app(pathlib.Path(d), workers=0)) as client:
...     made = client.post("/api/profiles", json={"name": " Ana "}).json()
...     page = client.get(f"/api/profiles/{made['id']}").json()
...     made["name"], page["ratings"]["1v1"], "key" in page
('Ana', {'rating': 1000, 'games': 0, 'wins': 0, 'provisional': True}, False)
"""

from __future__ import annotations

import logging
from typing import Annotated, Any, Final, Literal

from fastapi import APIRouter, Depends, Query, Request
from fastapi import Path as PathParameter
from pydantic import BaseModel, ConfigDict, Field, StrictStr, field_validator

from cuarenta.server.edge.deps import (
    MAX_KEY_CHARS,
    StoreDep,
    limit_profile_creation,
    problem_http,
    profile_key,
)
from cuarenta.server.edge.deps import profile_errors as _errors
from cuarenta.server.edge.options import NAME_PATTERN
from cuarenta.server.ratings.fairplay import note_address
from cuarenta.server.store import Store, StoreError
from cuarenta.server.store.profilerows import (
    MAX_GAMES,
    MODES,
    PROFILE_NAME_MAX_CHARS,
    Established,
    ProfileProblem,
)
from cuarenta.server.store.profiles import clean_name, create_profile, get_profile, rename_profile
from cuarenta.server.store.ratings import games_of, leaderboard, ratings_of

#: At most this many profiles on the leaderboard.
MAX_LEADERBOARD: Final = 100

log = logging.getLogger("cuarenta.server")
router = APIRouter()
_ProfileId = Annotated[str, PathParameter(min_length=1, max_length=100)]
_Name = Annotated[
    StrictStr,
    Field(min_length=1, max_length=PROFILE_NAME_MAX_CHARS, json_schema_extra={"pattern": NAME_PATTERN}),
]


class ProfileName(BaseModel):
    """The body of ``POST /api/profiles`` and ``PATCH /api/profiles/{id}``: a name, plain text."""

    model_config = ConfigDict(extra="forbid")

    name: _Name

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return clean_name(value)


class NewProfileAnswer(BaseModel):
    """A new profile: its id, its secret key (kept by the browser; the server keeps only its hash), name."""

    id: str
    key: str
    name: str


class Rating(BaseModel):
    rating: int
    games: int
    wins: int
    #: too few rated mesas or different opponents for the leaderboard (docs/tables.md "What is rated")
    provisional: bool = True


class ProfileGame(BaseModel):
    """A rated mesa of the profile: its team's names (the profile's first), the opponents', the change."""

    room: str
    mesa: int
    finished: str
    mode: str
    won: bool
    team: list[str]
    opponents: list[str]
    change: int
    #: why the mesa did not change the ratings ("shared_address", "pair_limit"), null when it did
    unrated: str | None = None


class ProfilePage(BaseModel):
    id: str
    name: str
    created: str
    ratings: dict[str, Rating]
    games: list[ProfileGame]


class LeaderboardPlayer(BaseModel):
    rank: int
    id: str
    name: str
    rating: int
    games: int
    wins: int


class Leaderboard(BaseModel):
    mode: str
    players: list[LeaderboardPlayer]
    #: a profile is listed once it has this many rated mesas against this many different opponents
    min_games: int
    min_opponents: int


def _established(request: Request) -> Established:
    """The app's rule for an established rating (``create_app(established=…)``, default
    :class:`Established`)."""
    rule = getattr(request.app.state, "established", None)
    return rule if isinstance(rule, Established) else Established()


def profile_page(store: Store, profile_id: str, established: Established | None = None) -> dict[str, Any]:
    """``GET /api/profiles/{id}``'s answer (no key); a rating is ``provisional`` until ``established``
    holds for it."""
    rule = established or Established()
    try:
        profile = get_profile(store, profile_id)
    except ProfileProblem as exc:
        raise problem_http(exc) from None
    ratings = ratings_of(store, profile_id)
    return {
        "id": profile.id,
        "name": profile.name,
        "created": profile.created,
        "ratings": {
            mode: {"rating": r.rating, "games": r.games, "wins": r.wins, "provisional": not rule.holds(r)}
            for mode, r in ratings.items()
        },
        "games": [game.__dict__ for game in games_of(store, profile_id, MAX_GAMES)],
    }


@router.post(
    "/api/profiles",
    response_model=NewProfileAnswer,
    responses=_errors(400, 413, 429),
    dependencies=[Depends(limit_profile_creation)],
)
def new_profile(body: ProfileName, request: Request, store: StoreDep) -> dict[str, Any]:
    """A new anonymous profile. Keep the key: it is never shown again, and renames need it."""
    profile, key = create_profile(store, body.name)
    _note(store, request, profile.id)
    return {"id": profile.id, "key": key, "name": profile.name}


def _note(store: Store, request: Request, profile_id: str) -> None:
    """Note the client's network for the profile (rated play, :mod:`cuarenta.server.ratings.fairplay`)."""
    try:
        note_address(store, profile_id, request.client.host if request.client else None)
    except StoreError:
        log.exception("the network of profile %s could not be noted", profile_id)


@router.patch(
    "/api/profiles/{profile_id}",
    response_model=ProfilePage,
    responses=_errors(400, 401, 403, 404, 413),
)
def rename(
    profile_id: _ProfileId,
    body: ProfileName,
    request: Request,
    key: Annotated[str, Depends(profile_key)],
    store: StoreDep,
) -> dict[str, Any]:
    """Rename a profile (its key in the ``Authorization`` header)."""
    rename_profile(store, profile_id, key, body.name)  # a refused key answers 403 (deps)
    _note(store, request, profile_id)
    return profile_page(store, profile_id, _established(request))


@router.get("/api/profiles/{profile_id}", response_model=ProfilePage, responses=_errors(400, 404))
def get_profile_page(profile_id: _ProfileId, request: Request, store: StoreDep) -> dict[str, Any]:
    """A profile's name, ratings per mode and rated games (newest first, at most 50)."""
    return profile_page(store, profile_id, _established(request))


@router.get("/api/leaderboard", response_model=Leaderboard, responses=_errors(400))
def get_leaderboard(
    request: Request,
    store: StoreDep,
    mode: Annotated[Literal["1v1", "2v2"], Query()] = "1v1",
    limit: Annotated[int, Query(ge=1, le=MAX_LEADERBOARD)] = 50,
) -> dict[str, Any]:
    """The profiles with an established rating in ``mode`` (``min_games`` rated mesas against
    ``min_opponents`` different opponents), best first (equal ratings share a rank)."""
    assert mode in MODES
    rule = _established(request)
    board = leaderboard(store, mode, limit, min_games=rule.games, min_opponents=rule.opponents)
    return {
        "mode": mode,
        "players": [row.__dict__ for row in board],
        "min_games": rule.games,
        "min_opponents": rule.opponents,
    }


__all__ = [
    "MAX_KEY_CHARS",
    "NAME_PATTERN",
    "ProfileName",
    "limit_profile_creation",
    "profile_key",
    "profile_page",
    "router",
]
