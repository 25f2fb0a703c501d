"""A championship's settings: its name, the rules of its partidas and its format.

>>> settings = Settings("Fiestas de Quito")
>>> settings.rules.preset_name, settings.rules.chicas, settings.format
('campeonato', 2, 'swiss')
>>> Settings.from_dict(settings.to_dict()) == settings
True
>>> Settings.from_dict({"name": "Copa", "colour": "red"})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
cuarenta.championship.errors.SettingsError: unknown setting(s) colour: valid settings are name, rules, ...
"""

from __future__ import annotations

import dataclasses
import datetime
import math
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from cuarenta.championship.errors import ChampionshipError, SettingsError
from cuarenta.championship.model import check_name
from cuarenta.errors import CuarentaError, brief, clip
from cuarenta.rules import Rules

Format = Literal["swiss", "knockout", "groups"]
Venue = Literal["online", "hall"]
FORMATS: Final = ("swiss", "knockout", "groups")
VENUES: Final = ("online", "hall")

#: The ranges of the whole-number settings: (smallest, largest, may be None).
RANGES: Final[dict[str, tuple[int, int, bool]]] = {
    "rounds": (1, 30, True),
    "group_size": (2, 16, False),
    "advance": (1, 16, False),
    "clock": (5, 3600, True),
    "wait_minutes": (0, 240, False),
}


def _default_rules() -> Rules:
    return Rules.preset("campeonato")


@dataclass(frozen=True)
class Settings:
    """What the organisers choose before the championship starts.

    - ``rules``: every partida's rules (4 players: pairs); a partida of three chicas is ``chicas=2``.
    - ``format``: ``"swiss"``, ``"knockout"`` or ``"groups"`` (groups, then a knockout).
    - ``rounds``: the Swiss rounds (``None``: ⌈log2(pairs)⌉ at the start).
    - ``group_size``, ``advance``: the groups' size and how many of each go to the knockout.
    - ``clock``: seconds per turn (for the server); ``wait_minutes``: how long a table waits for a pair
      before the judge may award a walkover (for the server).
    - ``venue``: ``"online"`` or ``"hall"``; ``duplicate``: twin tables with the same deals.
    - ``starts``, ``ends``: ISO dates (``"2025-12-01"``), optional.
    - ``rated``: every partida played online updates its players' ratings (docs/ratings.md): online only,
      a preset's rules unchanged, pairs of people (the server refuses a computer pair).

    >>> Settings("Copa", rated=True, venue="hall")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cuarenta.championship.errors.SettingsError: a rated championship is played online, ...
    """

    name: str
    rules: Rules = field(default_factory=_default_rules)
    format: Format = "swiss"
    rounds: int | None = None
    group_size: int = 4
    advance: int = 2
    clock: int | None = None
    venue: Venue = "online"
    duplicate: bool = False
    wait_minutes: int = 10
    starts: str | None = None
    ends: str | None = None
    rated: bool = False

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "name", check_name(self.name, "championship"))
        except ChampionshipError as exc:
            raise SettingsError.of("setting_invalid", setting="name", reason=exc) from None
        if not isinstance(self.rules, Rules):
            raise SettingsError.of("setting_type", setting="rules", value=brief(self.rules), expected="Rules")
        if self.rules.players != 4:
            raise SettingsError.of("rules_pairs", players=self.rules.players)
        self._check_numbers()
        self._check_rated()
        self._check_dates()

    def _check_numbers(self) -> None:
        """The format and venue among their choices, every number in its range (:data:`RANGES`)."""
        for name, choices in (("format", FORMATS), ("venue", VENUES)):
            value = getattr(self, name)
            if not isinstance(value, str) or value not in choices:
                raise SettingsError.of(
                    "setting_choice", setting=name, value=brief(value), choices=", ".join(choices)
                )
        for name, (low, high, nullable) in RANGES.items():
            value = getattr(self, name)
            if value is None and nullable:
                continue
            if not isinstance(value, int) or isinstance(value, bool):
                raise SettingsError.of(
                    "setting_type", setting=name, value=brief(value), expected="a whole number"
                )
            if not low <= value <= high:
                raise SettingsError.of("setting_range", setting=name, value=value, low=low, high=high)
        if self.advance > self.group_size:
            raise SettingsError.of("advance_range", advance=self.advance, group_size=self.group_size)

    def _check_rated(self) -> None:
        """The flags are true or false; a rated championship is online, with a preset's rules."""
        for name in ("duplicate", "rated"):
            if not isinstance(getattr(self, name), bool):
                raise SettingsError.of(
                    "setting_type", setting=name, value=brief(getattr(self, name)), expected="true or false"
                )
        if self.rated and self.venue != "online":
            raise SettingsError.of("rated_venue", venue=self.venue)
        if self.rated and self.rules.preset_name == "custom":
            raise SettingsError.of("rated_rules")

    def _check_dates(self) -> None:
        """``starts`` and ``ends`` are dates (``YYYY-MM-DD``), the end not before the start."""
        dates = []
        for name in ("starts", "ends"):
            value = getattr(self, name)
            if value is None:
                continue
            try:
                dates.append(datetime.date.fromisoformat(value))
            except (TypeError, ValueError):
                raise SettingsError.of("setting_date", setting=name, value=brief(value)) from None
        if self.starts is not None and self.ends is not None and dates[1] < dates[0]:
            raise SettingsError.of("dates_order", starts=self.starts, ends=self.ends)

    def swiss_rounds(self, pairs: int) -> int:
        """The Swiss rounds for ``pairs`` pairs: :attr:`rounds`, or ⌈log2(pairs)⌉ (at least 1).

        >>> copa = Settings("Copa")
        >>> copa.swiss_rounds(8), copa.swiss_rounds(7), Settings("Copa", rounds=5).swiss_rounds(8)
        (3, 3, 5)
        """
        if self.rounds is not None:
            return self.rounds
        return max(1, math.ceil(math.log2(max(pairs, 2))))

    def to_dict(self) -> dict[str, Any]:
        """Every setting as JSON-ready data (the rules as :meth:`Rules.to_dict` writes them)."""
        data = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        data["rules"] = self.rules.to_dict()
        return data

    @classmethod
    def from_dict(cls, data: object) -> Settings:
        """The settings written by :meth:`to_dict` (missing keys take their defaults, but ``name``)."""
        if not isinstance(data, dict):
            raise SettingsError.of("settings_not_object", type=type(data).__name__)
        names = [f.name for f in dataclasses.fields(cls)]
        unknown = sorted(clip(str(k)) for k in data if k not in names)
        if unknown:
            raise SettingsError.of("unknown_settings", keys=clip(", ".join(unknown)), valid=", ".join(names))
        if "name" not in data:
            raise SettingsError.of("setting_missing", setting="name")
        values = dict(data)
        if "rules" in values:
            try:
                values["rules"] = Rules.from_dict(values["rules"])
            except CuarentaError as exc:
                raise SettingsError.of("setting_invalid", setting="rules", reason=exc) from None
        return cls(**values)


__all__ = ["FORMATS", "RANGES", "VENUES", "Format", "Settings", "Venue"]
