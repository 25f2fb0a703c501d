"""Rule options and presets (RULES.md "Presets" table).

:class:`Rules` is an immutable set of every option. Build it from a preset or
option by option; anything impossible raises :class:`~cuarenta.RulesError`::

    >>> from cuarenta import Rules
    >>> rules = Rules.preset("todo_dos", players=4)
    >>> rules.caida_limpia_points, rules.players, rules.preset_name
    (2, 4, 'todo_dos')
    >>> custom = rules.replace(target=30)
    >>> custom.preset_name
    'custom'
    >>> Rules.preset("campeonato", players=2)
    Traceback (most recent call last):
    ...
    cuarenta.errors.RulesError: preset 'campeonato' is played by 4 players (two pairs), not 2
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Final, Literal

from cuarenta.errors import RulesError

SumCards = Literal["two_or_more", "two"]
CaptureMode = Literal["auto", "manual"]
FourOfAKind = Literal["wins_chica", "points"]
CartonShort = Literal["most_cards", "dos_por_dar"]

PRESET_NAMES: Final = ("a_todo_rigor", "todo_dos", "basico", "campeonato")

_CHOICES: Final[dict[str, tuple[object, ...]]] = {
    "players": (2, 4),
    "sum_cards": ("two_or_more", "two"),
    "capture": ("auto", "manual"),
    "four_of_a_kind": ("wins_chica", "points"),
    "carton_short": ("most_cards", "dos_por_dar"),
    "chicas": (1, 2, 3),
}
_BOOLS: Final = ("treinta_y_ocho", "cuatro_caidas_gana", "caida_across_deals", "zapatero_wins_mesa")


@dataclass(frozen=True)
class Rules:
    """Every rule option, with the defaults of the ``a_todo_rigor`` preset for 2 players.

    Option ids and meanings are those of RULES.md; each field cites its rule.
    """

    players: int = 2  #: R3: 2 (mano a mano) or 4 (two pairs).
    sum_cards: SumCards = "two_or_more"  #: R8: cards a sum may take.
    capture: CaptureMode = "auto"  #: R12: compulsory full captures, or declared ones.
    caida_limpia_points: int = 4  #: R15.
    ronda_points: int = 2  #: R16.
    four_of_a_kind: FourOfAKind = "wins_chica"  #: R17.
    caida_ronda_points: int = 10  #: R18 (0 = off).
    ronda_limit: int | None = 30  #: R19 (None = off).
    treinta_y_ocho: bool = True  #: R20.
    cuatro_caidas_gana: bool = False  #: R21.
    carton_short: CartonShort = "most_cards"  #: R23.
    caida_across_deals: bool = False  #: R13.
    carton_cap: int | None = None  #: R23: count the cartón only up to this many cards.
    target: int = 40  #: R24.
    chicas: int = 2  #: R26: chicas needed to win the mesa.
    zapatero_wins_mesa: bool = False  #: R25.

    def __post_init__(self) -> None:
        for name, choices in _CHOICES.items():
            value = getattr(self, name)
            if value not in choices or isinstance(value, bool):
                raise RulesError(
                    f"option {name}={value!r} is not valid: choose one of "
                    + ", ".join(repr(c) for c in choices)
                )
        for name in _BOOLS:
            if not isinstance(getattr(self, name), bool):
                raise RulesError(f"option {name}={getattr(self, name)!r} must be true or false")
        for name in ("caida_limpia_points", "ronda_points", "caida_ronda_points", "target"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0 or value % 2:
                raise RulesError(
                    f"option {name}={value!r} must be an even number of points (scores move in tantos of 2)"
                )
        if self.caida_limpia_points < 2:
            raise RulesError("option caida_limpia_points must be at least 2")
        if self.target < 2:
            raise RulesError("option target must be at least 2")
        if self.ronda_limit is not None and (
            not isinstance(self.ronda_limit, int)
            or isinstance(self.ronda_limit, bool)
            or not 0 < self.ronda_limit <= self.target
        ):
            raise RulesError(
                f"option ronda_limit={self.ronda_limit!r} must be None (off) "
                f"or a score between 1 and the target {self.target}"
            )
        if self.carton_cap is not None and (
            not isinstance(self.carton_cap, int)
            or isinstance(self.carton_cap, bool)
            or not 20 <= self.carton_cap <= 40
        ):
            raise RulesError(
                f"option carton_cap={self.carton_cap!r} must be None (no cap) or a card count 20..40"
            )

    # -- construction -------------------------------------------------------------------
    @classmethod
    def preset(cls, name: str = "a_todo_rigor", players: int | None = None) -> Rules:
        """The options of a named preset for a number of players.

        With ``players=None``: 2 players, or 4 for a preset played only in pairs.

        >>> Rules.preset("basico").chicas
        1
        >>> Rules.preset("campeonato").players
        4
        """
        if name not in _PRESETS:
            raise RulesError(f"unknown preset {name!r}: choose one of {', '.join(PRESET_NAMES)}")
        allowed, options = _PRESETS[name]
        if players is None:
            players = allowed[0]
        if players not in (2, 4):
            raise RulesError(f"players={players!r} is not valid: Cuarenta is played by 2 or 4")
        if players not in allowed:
            who = "4 players (two pairs)" if allowed == (4,) else "2 players (mano a mano)"
            raise RulesError(f"preset {name!r} is played by {who}, not {players}")
        return cls(players=players, **options)

    def replace(self, **options: Any) -> Rules:
        """A copy with some options changed; unknown options are refused.

        >>> Rules().replace(players=4, chicas=3).chicas
        3
        """
        unknown = sorted(set(options) - set(OPTION_NAMES))
        if unknown:
            raise RulesError(
                f"unknown option(s) {', '.join(unknown)}: valid options are {', '.join(OPTION_NAMES)}"
            )
        return dataclasses.replace(self, **options)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Rules from a dict of options (as written by :meth:`to_dict`).

        A ``"preset"`` key, if present, is the base the other options change.
        """
        if not isinstance(data, dict):
            raise RulesError(f"rules must be an object of options, not {type(data).__name__}")
        data = dict(data)
        base_name = data.pop("preset", None)
        players = data.get("players", 2)
        base = cls() if base_name in (None, "custom") else cls.preset(str(base_name), players)
        return base.replace(**data)

    def to_dict(self) -> dict[str, Any]:
        """Every option as a JSON-ready dict (plus ``"preset"``, the matching preset or ``"custom"``)."""
        out: dict[str, Any] = {"preset": self.preset_name}
        out.update(dataclasses.asdict(self))
        return out

    # -- derived facts ---------------------------------------------------------------------
    @property
    def preset_name(self) -> str:
        """The preset these options equal, or ``"custom"``."""
        for name in PRESET_NAMES:
            allowed, options = _PRESETS[name]
            if self.players in allowed and self == Rules(players=self.players, **options):
                return name
        return "custom"

    @property
    def teams(self) -> int:
        """Always two teams: the two players, or the two pairs."""
        return 2

    @property
    def deals_per_hand(self) -> int:
        """R5: 4 deals of 5 cards each per hand with 2 players, 2 with 4 players."""
        return 40 // (5 * self.players)

    def carton(
        self, counts: tuple[int, int], dealer_team: int
    ) -> tuple[tuple[int, str | None], tuple[int, str | None]]:
        """R23: each team's nominal cartón points and reason for final pile sizes ``counts``.

        The reason is ``"carton"`` (20 cards or more), ``"most_cards"``, ``"dos_por_dar"`` or
        ``None``; R20 (38 que no juega) is applied by the game, not here.

        >>> Rules().carton((23, 15), dealer_team=0)
        ((10, 'carton'), (0, None))
        >>> Rules().carton((15, 15), dealer_team=0)
        ((0, None), (2, 'most_cards'))
        """
        pts = [0, 0]
        reasons: list[str | None] = [None, None]
        if max(counts) >= 20:
            for t in (0, 1):
                if counts[t] >= 20:
                    capped = min(counts[t], self.carton_cap) if self.carton_cap else counts[t]
                    p = 6 + capped - 20
                    pts[t], reasons[t] = p + (p & 1), "carton"
        elif self.carton_short == "most_cards":
            t = 0 if counts[0] > counts[1] else 1 if counts[1] > counts[0] else 1 - dealer_team
            pts[t], reasons[t] = 2, "most_cards"
        elif counts[dealer_team] > counts[1 - dealer_team]:
            pts[dealer_team], reasons[dealer_team] = 2, "dos_por_dar"
        return (pts[0], reasons[0]), (pts[1], reasons[1])

    def team_of(self, seat: int) -> int:
        """R3: seats 0 and 2 are team 0, seats 1 and 3 team 1."""
        return seat % 2

    def options_table(self) -> list[tuple[str, object]]:
        """(option, value) pairs in RULES.md order, for display."""
        return [(f.name, getattr(self, f.name)) for f in dataclasses.fields(self)]


OPTION_NAMES: Final = tuple(f.name for f in dataclasses.fields(Rules))

_PRESETS: Final[dict[str, tuple[tuple[int, ...], dict[str, Any]]]] = {
    "a_todo_rigor": ((2, 4), {}),
    "todo_dos": ((2, 4), {"caida_limpia_points": 2, "caida_ronda_points": 4}),
    "basico": (
        (2,),
        {"caida_ronda_points": 0, "ronda_limit": None, "treinta_y_ocho": False, "chicas": 1},
    ),
    "campeonato": (
        (4,),
        {
            "capture": "manual",
            "caida_ronda_points": 0,
            "ronda_limit": None,
            "cuatro_caidas_gana": True,
        },
    ),
}
