"""The deal of the day (issue 29, docs/daily.md): every day the same deals for everyone, against the same
computer player, and a ranking by each person's result compared with everyone else's on the same cards
(duplicate, as bridge plays it).

What is played is one chica, mano a mano, by the rules *a todo rigor* (:func:`daily_rules`), against
``dificil`` (:data:`DAILY_LEVEL`). Each hand of a mesa is shuffled from the mesa's seed and its number
alone (:meth:`cuarenta.Game.new`), so everyone who plays the day's seed gets the same cards in the same
order, hand after hand, whatever was played before; the computer's seat is seeded from the same seed, so
it is the same player for everyone. Only the seed differs from day to day, and whoever knew it could look
at the cards before playing: the server derives it from a secret of its own (:func:`daily_seed`) and
never sends it while the day lasts.

Playing with no server (the page on the device, the terminal) needs the cards on the player's side before
they are played, and that would end the secret. So the **offline** deal of a day is another seed
(:func:`offline_seed`, ``dia/<day>/sin/…``), handed out by a server a week ahead to whoever asks: everyone
who plays offline meets the same cards, their results come back later and are ranked among the offline
results of the day, apart from the online ranking, whose cards nobody has seen before playing.

The result of a finished chica is the person's points minus the computer's (:func:`result`): a chica
won 40 to 22 is +18, one lost 31 to 40 is −9. A person is ranked by how many of the day's other
results theirs beats (a tie counts a half): :func:`standing`.

>>> import datetime
>>> rules = daily_rules()
>>> rules.players, rules.chicas, rules.preset_name
(2, 1, 'custom')
>>> seed = daily_seed(b"secret", datetime.date(2026, 12, 5))
>>> day = datetime.date(2026, 12, 5)
>>> seed == daily_seed(b"secret", day) != daily_seed(b"other", day), day_of(seed) == day
(True, True)
>>> offline = offline_seed(b"secret", day)
>>> offline.startswith("dia/2026-12-05/sin/"), is_offline(offline), is_offline(seed), day_of(offline) == day
(True, True, False, True)
>>> place, share = standing(5, [5, -3, 12, 0])
>>> place, round(share, 3)
(2, 0.667)
"""

from __future__ import annotations

import dataclasses
import datetime
import hashlib
import hmac
from collections.abc import Sequence
from typing import Final

from cuarenta.game import Game
from cuarenta.rules import Rules

#: The computer player of the deal of the day (the same for everyone).
DAILY_LEVEL: Final = "dificil"
#: What a day's seed begins with: a room with such a seed is a deal of the day's.
SEED_PREFIX: Final = "dia/"
#: What follows the day in an offline deal's seed (:func:`offline_seed`).
OFFLINE_MARK: Final = "sin"


def daily_rules() -> Rules:
    """The rules of the deal of the day: *a todo rigor*, mano a mano, one chica."""
    return dataclasses.replace(Rules.preset("a_todo_rigor", players=2), chicas=1)


def today() -> datetime.date:
    """The day of the deal of the day now (UTC: the same day everywhere)."""
    return datetime.datetime.now(datetime.UTC).date()


def daily_seed(secret: bytes, day: datetime.date) -> str:
    """The seed of ``day``'s deals under ``secret`` (the server's own): ``dia/2026-12-05/…``, the rest a
    keyed hash that nobody without the secret can work out before the day."""
    digest = hmac.new(secret, f"daily/{day.isoformat()}".encode(), hashlib.sha256).hexdigest()[:24]
    return f"{SEED_PREFIX}{day.isoformat()}/{digest}"


def offline_seed(secret: bytes, day: datetime.date) -> str:
    """The seed of ``day``'s **offline** deals under ``secret``: ``dia/2026-12-05/sin/…``. Another seed than
    :func:`daily_seed`'s, so that handing it out ahead (a device plays it with no signal) tells nothing of
    the online deal's cards."""
    digest = hmac.new(secret, f"daily-offline/{day.isoformat()}".encode(), hashlib.sha256).hexdigest()[:24]
    return f"{SEED_PREFIX}{day.isoformat()}/{OFFLINE_MARK}/{digest}"


def is_offline(seed: object) -> bool:
    """Whether ``seed`` is an offline deal of the day's (:func:`offline_seed`)."""
    if day_of(seed) is None:
        return False
    assert isinstance(seed, str)
    return seed[len(SEED_PREFIX) :].split("/")[1:2] == [OFFLINE_MARK]


def day_of(seed: object) -> datetime.date | None:
    """The day of a deal of the day's seed, or ``None`` for any other seed."""
    if not isinstance(seed, str) or not seed.startswith(SEED_PREFIX):
        return None
    try:
        return datetime.date.fromisoformat(seed[len(SEED_PREFIX) :].split("/", 1)[0])
    except ValueError:
        return None


def result(game: Game, seat: int = 0) -> int:
    """``seat``'s team's points minus the other team's at the end of the game's first chica (``ValueError``
    before it ends)."""
    if not game.chica_results:
        raise ValueError("the chica is not over: it has no result yet")
    scores = game.chica_results[0].scores
    return scores[seat % 2] - scores[1 - seat % 2]


def standing(mine: int, results: Sequence[int]) -> tuple[int, float]:
    """Where ``mine`` stands among the day's ``results`` (``mine`` among them): its place (1: the best;
    ties share the better place) and the share of the other results it beats, a tie counting a half (1.0
    alone)."""
    others = len(results) - 1
    place = 1 + sum(1 for r in results if r > mine)
    if others <= 0:
        return place, 1.0
    beaten = sum(1 for r in results if r < mine) + 0.5 * (sum(1 for r in results if r == mine) - 1)
    return place, beaten / others


__all__ = [
    "DAILY_LEVEL",
    "OFFLINE_MARK",
    "SEED_PREFIX",
    "daily_rules",
    "daily_seed",
    "day_of",
    "is_offline",
    "offline_seed",
    "result",
    "standing",
    "today",
]
