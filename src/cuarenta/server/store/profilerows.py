"""What the store keeps of profiles and ratings, as rows: a profile, a rating in one mode, a line of the
leaderboard, a rated game as one of its players saw it; what a page shows of a rating (:func:`displayed`)
and when it is established (:class:`Established`); :class:`ProfileProblem`. The queries are in
:mod:`~cuarenta.server.store.profiles` (profiles) and :mod:`~cuarenta.server.store.ratings` (ratings).

>>> RatingRow("1v1", 25.0, 25 / 3, games=0, wins=0).rating
1000
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any, Final, Literal

import sqlalchemy as sa

from cuarenta.names import NAME_MAX_CHARS
from cuarenta.server.store import Store, StoreError

#: The modes a profile is rated in: one against one, and pairs.
MODES: Final = ("1v1", "2v2")
Mode = Literal["1v1", "2v2"]
#: The displayed rating is ``BASE + SCALE * ordinal`` (ordinal = mu - 3 sigma), rounded.
BASE: Final = 1000
SCALE: Final = 40
#: A newcomer's rating, mu and sigma: openskill's start (the ratings service's model,
#: :data:`cuarenta.server.ratings.mesa.MODEL`, starts there too).
START_MU: Final = 25.0
START_SIGMA: Final = 25.0 / 3
#: The longest profile name (as a seat's name: names.NAME_MAX_CHARS).
PROFILE_NAME_MAX_CHARS: Final = NAME_MAX_CHARS
#: The most games a profile page lists.
MAX_GAMES: Final = 50
#: A rating is *provisional* until the profile has played this many rated mesas of the mode against at
#: least this many different opponents; the leaderboard lists established ratings only (issue 15: a rating
#: farmed between two profiles of one person does not reach it).
LEADERBOARD_MIN_GAMES: Final = 5
LEADERBOARD_MIN_OPPONENTS: Final = 3


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


def run_write(store: Store, what: str, work: Any) -> Any:
    """``work(conn)`` in one write transaction of ``store``, its answer returned; a failure is a
    :class:`StoreError` saying ``what`` was refused or failed."""
    try:
        with store._write() as conn:
            return work(conn)
    except sa.exc.IntegrityError as exc:
        raise StoreError(f"the database refused {what}: {exc.orig}") from None
    except sa.exc.SQLAlchemyError as exc:
        raise StoreError(f"{what} failed: {exc}") from None


__all__ = [
    "BASE",
    "LEADERBOARD_MIN_GAMES",
    "LEADERBOARD_MIN_OPPONENTS",
    "MAX_GAMES",
    "MODES",
    "PROFILE_NAME_MAX_CHARS",
    "SCALE",
    "START_MU",
    "START_SIGMA",
    "Established",
    "LeaderboardRow",
    "Mode",
    "ProfileProblem",
    "ProfileRow",
    "RatedGame",
    "RatingRow",
    "displayed",
    "now_text",
    "run_write",
]
