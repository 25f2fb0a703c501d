"""The server's options in one object: :class:`ServerSettings` (``create_app`` and ``cuarenta serve``).

A frozen dataclass of plain values, checked when it is made (it imports no web or database package:
the command line reads its defaults without the ``web`` extra); ``cuarenta serve`` fills it from its command
line (each option's ``CUARENTA_…`` environment variable included), a program that embeds the app builds one
itself, and :func:`cuarenta.server.wiring.build_authority` reads the authority's part of it. The rate
limits (:class:`~cuarenta.server.edge.ratelimits.Limits`) and the leaderboard's threshold
(:class:`~cuarenta.server.store.profiles.Established`) are objects of their own, given beside it.

>>> ServerSettings(bot_delay=0, workers=0, max_rooms=500).max_rooms
500
>>> ServerSettings(redis="redis://localhost:6379/0")
Traceback (most recent call last):
...
ValueError: a cluster (--redis) keeps its games in PostgreSQL: give --database postgresql+psycopg://…
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, TypedDict, Unpack

#: The pause in seconds before each computer move unless the settings say otherwise.
DEFAULT_BOT_DELAY: Final = 0.8
#: The shortest time between two ``PRAGMA quick_check`` of ``/readyz`` unless the settings say otherwise
#: (:mod:`cuarenta.server.ops.health`; docs/operations.md).
INTEGRITY_SECONDS: Final = 60.0


class SettingsOptions(TypedDict, total=False):
    """The server's options as keywords (``create_app``'s, :meth:`ServerSettings.of`'s, beside
    ``bot_delay`` and ``workers``): each is the field of :class:`ServerSettings` of its name; ``max_rooms``
    0 and ``node`` ``None`` say "the default", and the origins and names may be any iterable."""

    max_rooms: int | None
    database: str | None
    init: bool
    accept_lost_wal: bool
    redis: str | None
    node: str | None
    allow_origins: Iterable[str]
    server_names: Iterable[str] | None
    integrity_seconds: float
    pack_dir: Path | None
    make_pack: bool
    championship_pairs: int | None


@dataclass(frozen=True)
class ServerSettings:
    """The server's options (module docstring).

    - ``bot_delay``: the pause in seconds before each computer move (``--bot-delay``);
    - ``workers``: the worker processes the computer players think in (``None``: one per core; 0:
      in-process, on one thread — :mod:`cuarenta.server.thinking`);
    - ``max_rooms``: the rooms kept in memory at most (``None``: the authority's default,
      :data:`~cuarenta.server.authority.model.DEFAULT_MAX_ROOMS`; docs/storage.md);
    - ``database``: where the games are kept, a SQLAlchemy URL (``None``: a SQLite file in the data
      directory); ``init`` and ``accept_lost_wal`` are for a SQLite file that is missing, empty, damaged
      or lost its WAL (docs/storage.md "Storage faults");
    - ``redis`` and ``node``: with a Redis URL the app is the node ``node`` of a cluster
      (docs/scaling.md; ``database`` must then be PostgreSQL);
    - ``allow_origins``: the browser origins besides the server's own that may open ``/ws``;
      ``server_names``: turns the Host check on (``None``: off; ``cuarenta serve`` always checks);
    - ``integrity_seconds``: the shortest time between two integrity checks of ``/readyz``;
    - ``pack_dir`` and ``make_pack``: the offline pack served at ``/device/`` (``None``: the default
      place) and whether the app makes it when it is missing or stale;
    - ``championship_pairs``: the most pairs a championship takes (``None``: the default; 0: no limit).
    """

    bot_delay: float = DEFAULT_BOT_DELAY
    workers: int | None = None
    max_rooms: int | None = None
    database: str | None = None
    init: bool = False
    accept_lost_wal: bool = False
    redis: str | None = None
    node: str = "node"
    allow_origins: tuple[str, ...] = field(default=())
    server_names: tuple[str, ...] | None = None
    integrity_seconds: float = INTEGRITY_SECONDS
    pack_dir: Path | None = None
    make_pack: bool = False
    championship_pairs: int | None = None

    @classmethod
    def of(
        cls,
        bot_delay: float = DEFAULT_BOT_DELAY,
        workers: int | None = None,
        **options: Unpack[SettingsOptions],
    ) -> ServerSettings:
        """The settings of keyword options as a caller has them (:class:`SettingsOptions`: ``create_app``'s,
        ``cuarenta serve``'s): ``max_rooms`` 0 or ``None`` and ``node`` ``None`` are the defaults.

        >>> made = ServerSettings.of(0, max_rooms=0, node=None, allow_origins=["https://a.example"])
        >>> made.bot_delay, made.max_rooms, made.node, made.allow_origins
        (0, None, 'node', ('https://a.example',))
        """
        given: dict[str, Any] = {"bot_delay": bot_delay, "workers": workers, **options}
        if not given.get("max_rooms"):
            given.pop("max_rooms", None)
        if given.get("node") is None:
            given.pop("node", None)
        return cls(**given)

    def __post_init__(self) -> None:
        if self.bot_delay < 0:
            raise ValueError(f"bot_delay must be 0 or more seconds, not {self.bot_delay}")
        rooms = self.max_rooms
        if rooms is not None and (isinstance(rooms, bool) or not isinstance(rooms, int) or rooms < 1):
            raise ValueError(f"max_rooms must be a whole number of rooms, 1 or more, not {self.max_rooms!r}")
        if self.redis is not None and (self.database is None or not self.database.startswith("postgresql")):
            raise ValueError(
                "a cluster (--redis) keeps its games in PostgreSQL: give --database postgresql+psycopg://…"
            )
        object.__setattr__(self, "allow_origins", tuple(self.allow_origins))
        if self.server_names is not None:
            object.__setattr__(self, "server_names", tuple(self.server_names))


__all__ = ["DEFAULT_BOT_DELAY", "INTEGRITY_SECONDS", "ServerSettings", "SettingsOptions"]
