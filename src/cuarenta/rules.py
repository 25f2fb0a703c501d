"""Rule options and presets (docs/rules.md "Presets" table).

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
import functools
from dataclasses import dataclass
from typing import Any, Final, Literal, NamedTuple

from cuarenta.cards import Card
from cuarenta.errors import RulesError, brief, clip
from cuarenta.moves import Move

SumCards = Literal["two_or_more", "two"]
CaptureMode = Literal["auto", "manual"]
FourOfAKind = Literal["wins_chica", "points"]
CartonShort = Literal["most_cards", "dos_por_dar"]
#: How an option's value is checked and offered: one of ``choices``; true/false; an even number of points
#: (scores move in tantos of 2); a number of cards.
OptionKind = Literal["choice", "bool", "points", "cards"]
#: R21's running state: (team with the streak or -1, caídas in a row, the seats fallen on).
Streak = tuple[int, int, tuple[int, ...]]

PRESET_NAMES: Final = ("a_todo_rigor", "todo_dos", "basico", "campeonato")


def is_caida(move: Move, last_drop: Card | None) -> bool:
    """R13: ``move`` takes by igualdad the card the previous seat just dropped (``last_drop``).

    >>> from cuarenta import Card, Move
    >>> is_caida(Move.parse("5h x5s"), Card("5s")), is_caida(Move.parse("5h x2c+3d"), Card("2c"))
    (True, False)
    """
    return last_drop is not None and len(move.base) == 1 and move.base[0] == last_drop


def is_limpia(move: Move, table_size: int) -> bool:
    """R14: ``move`` is a capture that takes every one of the ``table_size`` cards on the table.

    >>> from cuarenta import Move
    >>> is_limpia(Move.parse("7h x3c+4d,Js"), 3), is_limpia(Move.parse("7h x3c+4d"), 3)
    (True, False)
    """
    return bool(move.base) and len(move.base) + len(move.run) == table_size


def next_streak(streak: Streak, team: int, victim: int) -> Streak:
    """R21's running state after a caída by ``team`` on ``victim`` (the win: :meth:`Rules.caida_streak`).

    >>> next_streak((-1, 0, ()), 1, 0), next_streak((1, 1, (0,)), 1, 2), next_streak((1, 2, (0, 2)), 0, 3)
    ((1, 1, (0,)), (1, 2, (0, 2)), (0, 1, (3,)))
    """
    st_team, count, victims = streak
    if st_team == team:
        return (team, count + 1, (*victims, victim))
    return (team, 1, (victim,))


#: R25: a team that loses a chica with fewer points than this is zapatero.
ZAPATERO_BELOW: Final = 10
#: R25 with ``zapatero_wins_mesa``: reaching this many points while the other team is zapatero wins the mesa.
ZAPATERO_WINS_AT: Final = 30


class CaptureScore(NamedTuple):
    """What a capture scores (R13–R15, R18–R20): the event it makes, the points added, and why they were cut.

    ``kind`` is ``"caida"``, ``"limpia"``, ``"caida_limpia"``, ``"caida_ronda"`` or ``None`` (a capture that
    scores nothing); ``note`` is ``"treinta_y_ocho"`` (R20) or ``"ronda_limit"`` (R19) when the rules
    reduced the points, else ``None``.
    """

    kind: str | None
    points: int
    note: str | None


@dataclass(frozen=True)
class OptionSpec:
    """One rule option: its rule id, how it is checked, and the values a form offers.

    The labels of an option and of its choices are texts of the catalogue, under
    :attr:`label_key` and :meth:`choice_key`.

    A ``points`` or ``cards`` option takes any whole number from :attr:`low` to :attr:`high` (points:
    even), not only the :attr:`choices` a form lists (docs/rules-decisions.md, "Option ranges").

    >>> spec = OPTIONS_BY_NAME["ronda_limit"]
    >>> spec.rule, spec.kind, spec.choices, spec.nullable, spec.low, spec.high
    ('R19', 'points', (30, None), True, 2, 200)
    >>> spec.label_key, spec.choice_key(None)
    ('option.ronda_limit', 'option.ronda_limit.off')
    >>> OPTIONS_BY_NAME["target"].check(10**9)
    Traceback (most recent call last):
    ...
    cuarenta.errors.RulesError: option target=1000000000 is out of range: give an even number of points ...
    """

    name: str
    rule: str  #: the rule id of docs/rules.md
    kind: OptionKind
    choices: tuple[
        object, ...
    ]  #: the values a form offers (the sources' values); any valid value is accepted
    nullable: bool = False  #: ``None`` turns the option off
    low: int | None = None  #: the smallest value of a ``points`` or ``cards`` option
    high: int | None = None  #: the largest value of a ``points`` or ``cards`` option

    @property
    def label_key(self) -> str:
        return f"option.{self.name}"

    def choice_key(self, value: object) -> str:
        """The catalogue key of one value's label: ``option.NAME.VALUE`` (``off``, ``yes``, ``no`` …)."""
        if value is None:
            word = "off"
        elif isinstance(value, bool):
            word = "yes" if value else "no"
        else:
            word = str(value)
        return f"{self.label_key}.{word}"

    def check(self, value: object) -> None:
        """Raise :class:`~cuarenta.RulesError` unless ``value`` is a valid value of this option."""
        if value is None and self.nullable:
            return
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise RulesError.of("option_not_bool", option=self.name, value=brief(value))
            return
        if self.kind == "choice":
            if any(type(value) is type(c) and value == c for c in self.choices):
                return
            if self.name == "players":
                raise RulesError.of("players_2_or_4", value=brief(value))
            raise RulesError.of(
                "option_not_a_choice",
                option=self.name,
                value=brief(value),
                choices=", ".join(repr(c) for c in self.choices),
            )
        if not isinstance(value, int) or isinstance(value, bool):
            raise RulesError.of(
                "option_not_a_number",
                option=self.name,
                value=brief(value),
                off=" (or None: off)" * self.nullable,
            )
        if self.kind == "points" and (value < 0 or value % 2):
            raise RulesError.of("option_not_points", option=self.name, value=brief(value))
        if self.low is not None and self.high is not None and not self.low <= value <= self.high:
            if self.kind == "cards":  # carton_cap, the one option counted in cards
                raise RulesError.of("carton_cap_range", value=brief(value))
            raise RulesError.of(
                "option_points_range", option=self.name, value=brief(value), low=self.low, high=self.high
            )

    def to_dict(self, default: object) -> dict[str, Any]:
        """The option as ``/api/options`` lists it."""
        return {
            "name": self.name,
            "rule": self.rule,
            "kind": self.kind,
            "choices": list(self.choices),
            "nullable": self.nullable,
            "default": default,
            "min": self.low,
            "max": self.high,
        }


#: Every option, in the order of :class:`Rules`' fields (and of docs/rules.md's presets table).
OPTIONS: Final = (
    OptionSpec("players", "R3", "choice", (2, 4)),
    OptionSpec("sum_cards", "R8", "choice", ("two_or_more", "two")),
    OptionSpec("capture", "R12", "choice", ("auto", "manual")),
    OptionSpec("caida_limpia_points", "R15", "points", (4, 2), low=2, high=10),
    OptionSpec("ronda_points", "R16", "points", (2, 4), low=0, high=10),
    OptionSpec("four_of_a_kind", "R17", "choice", ("wins_chica", "points")),
    OptionSpec("caida_ronda_points", "R18", "points", (10, 4, 0), low=0, high=20),
    OptionSpec("ronda_limit", "R19", "points", (30, None), nullable=True, low=2, high=200),
    OptionSpec("treinta_y_ocho", "R20", "bool", (True, False)),
    OptionSpec("cuatro_caidas_gana", "R21", "bool", (False, True)),
    OptionSpec("carton_short", "R23", "choice", ("most_cards", "dos_por_dar")),
    OptionSpec("caida_across_deals", "R13", "bool", (False, True)),
    OptionSpec("carton_cap", "R23", "cards", (None, 28, 36), nullable=True, low=20, high=40),
    OptionSpec("target", "R24", "points", (40,), low=10, high=200),
    OptionSpec("chicas", "R26", "choice", (1, 2, 3)),
    OptionSpec("zapatero_wins_mesa", "R25", "bool", (False, True)),
)
OPTIONS_BY_NAME: Final = {o.name: o for o in OPTIONS}


@dataclass(frozen=True)
class Rules:
    """Every rule option, with the defaults of the ``a_todo_rigor`` preset for 2 players.

    Option ids and meanings are those of docs/rules.md; each field cites its rule.
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
        for spec in OPTIONS:
            spec.check(getattr(self, spec.name))
        if self.ronda_limit is not None and self.ronda_limit > self.target:
            raise RulesError.of("ronda_limit_range", value=self.ronda_limit, target=self.target)

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
        if not isinstance(name, str) or name not in _PRESETS:
            raise RulesError.of("unknown_preset", preset=brief(name), presets=", ".join(PRESET_NAMES))
        allowed, options = _PRESETS[name]
        if players is None:
            players = allowed[0]
        OPTIONS_BY_NAME["players"].check(players)
        if players not in allowed:
            key = "preset_pairs_only" if allowed == (4,) else "preset_two_only"
            raise RulesError.of(key, preset=name, players=players)
        return cls(players=players, **options)

    def replace(self, **options: Any) -> Rules:
        """A copy with some options changed; unknown options are refused.

        >>> Rules().replace(players=4, chicas=3).chicas
        3
        """
        unknown = sorted(clip(str(k)) for k in set(options) - set(OPTION_NAMES))
        if unknown:
            raise RulesError.of(
                "unknown_options", options=clip(", ".join(unknown)), valid=", ".join(OPTION_NAMES)
            )
        return dataclasses.replace(self, **options)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Rules from a dict of options (as written by :meth:`to_dict`).

        A ``"preset"`` key, if present, is the base the other options change; without ``"players"``
        the preset's own number of players is used.

        >>> Rules.from_dict({"preset": "campeonato"}).players
        4
        >>> Rules.from_dict({"preset": "todo_dos", "players": 4, "chicas": 3}).preset_name
        'custom'
        """
        if not isinstance(data, dict):
            raise RulesError.of("rules_not_an_object", type=type(data).__name__)
        odd = sorted(brief(k) for k in data if not isinstance(k, str))
        if odd:
            valid = ", ".join(OPTION_NAMES)
            raise RulesError.of("unknown_options", options=clip(", ".join(odd)), valid=valid)
        data = dict(data)
        base_name = data.pop("preset", None)
        players = data.get("players")
        base = cls() if base_name in (None, "custom") else cls.preset(base_name, players)
        return base.replace(**data)

    def to_dict(self) -> dict[str, Any]:
        """Every option as a JSON-ready dict (plus ``"preset"``, the matching preset or ``"custom"``).

        A new dict each call (made once per distinct rules: the server sends it in every message).
        """
        return dict(_rules_dict(self))

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

    # -- the scoring and ending rules (R13–R25): the only place they are computed --------------
    @property
    def only_caida_from(self) -> int | None:
        """R20: the score from which a team scores only with a caída (``target - 2``), or ``None``."""
        return self.target - 2 if self.treinta_y_ocho else None

    def award(self, score: int, points: int, *, caida: bool) -> tuple[int, str | None]:
        """R20 (38 que no juega): the points a team with ``score`` really gets for ``points`` nominal ones.

        At 38 a caída of any kind is worth exactly 2 (reaching 40) and nothing else scores. Returns the
        points and ``"treinta_y_ocho"`` when the rule changed them.

        >>> rules = Rules()
        >>> rules.award(38, 4, caida=True), rules.award(38, 2, caida=False), rules.award(36, 4, caida=True)
        ((2, 'treinta_y_ocho'), (0, 'treinta_y_ocho'), (4, None))
        """
        blocked = self.only_caida_from
        if blocked is not None and score >= blocked and points:
            if not caida:
                return 0, "treinta_y_ocho"
            if points != 2:
                return 2, "treinta_y_ocho"
        return points, None

    def capture_score(
        self, score: int, *, caida: bool, limpia: bool, ronda_caida: bool = False
    ) -> CaptureScore:
        """What a capture scores for a team with ``score`` (R13–R15, R18–R20).

        ``caida``: it takes by igualdad the card just dropped (R13); ``limpia``: it leaves the table
        empty (R14); ``ronda_caida``: the card fallen on is of a ronda its dropper announced in this
        deal (R18), which counts only while the team is below ``ronda_limit`` (R19).

        >>> rules = Rules()
        >>> rules.capture_score(0, caida=True, limpia=True)
        CaptureScore(kind='caida_limpia', points=4, note=None)
        >>> rules.capture_score(0, caida=True, limpia=True, ronda_caida=True)
        CaptureScore(kind='caida_ronda', points=12, note=None)
        >>> rules.capture_score(30, caida=True, limpia=False, ronda_caida=True)
        CaptureScore(kind='caida', points=2, note='ronda_limit')
        >>> rules.capture_score(38, caida=False, limpia=True)
        CaptureScore(kind='limpia', points=0, note='treinta_y_ocho')
        """
        if not caida:
            if not limpia:
                return CaptureScore(None, 0, None)
            points, note = self.award(score, 2, caida=False)
            return CaptureScore("limpia", points, note)
        limit_note = None
        ronda = False
        if ronda_caida and self.caida_ronda_points:
            if self.ronda_limit is not None and score >= self.ronda_limit:
                limit_note = "ronda_limit"
            else:
                ronda = True
        if ronda:
            kind = "caida_ronda"
            nominal = self.caida_ronda_points + (self.caida_limpia_points - 2 if limpia else 0)
        elif limpia:
            kind, nominal = "caida_limpia", self.caida_limpia_points
        else:
            kind, nominal = "caida", 2
        points, note = self.award(score, nominal, caida=True)
        return CaptureScore(kind, points, note or limit_note)

    def ronda_score(self, score: int, *, four: bool = False) -> tuple[int, str | None]:
        """R16, R17 (``four_of_a_kind="points"``), R19, R20: a ronda's points for a team with ``score``.

        >>> Rules().ronda_score(10), Rules().ronda_score(30), Rules(ronda_limit=None).ronda_score(38)
        ((2, None), (0, 'ronda_limit'), (0, 'treinta_y_ocho'))
        """
        if self.ronda_limit is not None and score >= self.ronda_limit:
            return 0, "ronda_limit"
        return self.award(score, 4 if four else self.ronda_points, caida=False)

    def carton(
        self, counts: tuple[int, int], dealer_team: int
    ) -> tuple[tuple[int, str | None], tuple[int, str | None]]:
        """R23: each team's nominal cartón points and reason for final pile sizes ``counts``.

        The reason is ``"carton"`` (20 cards or more), ``"carton_dos_por_dar"`` (the dealer's team with
        exactly 20 cards under ``dos_por_dar``: 6 + 2), ``"most_cards"``, ``"dos_por_dar"`` or ``None``;
        R20 (38 que no juega) is applied by :meth:`award`, not here.

        >>> Rules().carton((23, 15), dealer_team=0)
        ((10, 'carton'), (0, None))
        >>> Rules().carton((15, 15), dealer_team=0)
        ((0, None), (2, 'most_cards'))
        >>> Rules(carton_short="dos_por_dar").carton((20, 17), dealer_team=0)
        ((8, 'carton_dos_por_dar'), (0, None))
        """
        pts = [0, 0]
        reasons: list[str | None] = [None, None]
        if max(counts) >= 20:
            for t in (0, 1):
                if counts[t] >= 20:
                    capped = min(counts[t], self.carton_cap) if self.carton_cap else counts[t]
                    p = 6 + capped - 20
                    pts[t], reasons[t] = p + (p & 1), "carton"
            if self.carton_short == "dos_por_dar" and counts[dealer_team] == 20:
                pts[dealer_team], reasons[dealer_team] = 8, "carton_dos_por_dar"
        elif self.carton_short == "most_cards":
            t = 0 if counts[0] > counts[1] else 1 if counts[1] > counts[0] else 1 - dealer_team
            pts[t], reasons[t] = 2, "most_cards"
        elif counts[dealer_team] > counts[1 - dealer_team]:
            pts[dealer_team], reasons[dealer_team] = 2, "dos_por_dar"
        return (pts[0], reasons[0]), (pts[1], reasons[1])

    def chica_winner(self, scores: tuple[int, int], dealer_team: int) -> int | None:
        """R24: the team that wins the chica with these scores, or ``None`` while nobody reached the target.

        Only the cartón can take both teams to the target at once: then the higher score wins, and on
        equal scores the team that did not deal.

        >>> rules = Rules()
        >>> rules.chica_winner((40, 12), 1), rules.chica_winner((42, 44), 0), rules.chica_winner((40, 40), 0)
        (0, 1, 1)
        >>> Rules().chica_winner((38, 36), 0) is None
        True
        """
        over0 = scores[0] >= self.target
        over1 = scores[1] >= self.target
        if over0 and over1:
            return 0 if scores[0] > scores[1] else 1 if scores[1] > scores[0] else 1 - dealer_team
        if over0:
            return 0
        if over1:
            return 1
        return None

    def zapatero_winner(self, scores: tuple[int, int]) -> int | None:
        """R25 with ``zapatero_wins_mesa``: the team that has 30 points while the other has fewer than 10.

        That team wins the chica and the mesa at once (seed 000); ``None`` when the option is off or
        nobody is there.

        >>> rules = Rules(zapatero_wins_mesa=True)
        >>> rules.zapatero_winner((30, 8)), rules.zapatero_winner((30, 10)), Rules().zapatero_winner((30, 8))
        (0, None, None)
        """
        if not self.zapatero_wins_mesa:
            return None
        for team in (0, 1):
            if scores[team] >= ZAPATERO_WINS_AT and scores[1 - team] < ZAPATERO_BELOW:
                return team
        return None

    @staticmethod
    def is_zapatero(points: int) -> bool:
        """R25: a team that loses a chica with ``points`` is zapatero (fewer than 10; 0 is *platillo*)."""
        return points < ZAPATERO_BELOW

    def caida_streak(self, streak: Streak, team: int, victim: int) -> tuple[Streak, bool]:
        """R21: the streak after a caída by ``team`` on seat ``victim``, and whether it wins the chica.

        Four caídas in a row by one team, with no caída by the other team between them and (with 4
        players) at least two on each opponent, win at once with ``cuatro_caidas_gana``.

        >>> rules = Rules(players=4, cuatro_caidas_gana=True)
        >>> rules.caida_streak((0, 3, (1, 3, 1)), team=0, victim=3)
        ((0, 4, (1, 3, 1, 3)), True)
        >>> rules.caida_streak((0, 3, (1, 1, 1)), team=0, victim=1)[1]
        False
        """
        new = next_streak(streak, team, victim)
        if not self.cuatro_caidas_gana or new[1] < 4:
            return new, False
        wins = all(new[2].count(opp) >= 2 for opp in range(self.players) if opp % 2 != team)
        return new, wins

    def team_of(self, seat: int) -> int:
        """R3: seats 0 and 2 are team 0, seats 1 and 3 team 1."""
        return seat % 2

    def options_table(self) -> list[tuple[str, object]]:
        """(option, value) pairs in docs/rules.md order, for display."""
        return [(f.name, getattr(self, f.name)) for f in dataclasses.fields(self)]


@functools.lru_cache(maxsize=256)
def _rules_dict(rules: Rules) -> dict[str, Any]:
    out: dict[str, Any] = {"preset": rules.preset_name}
    out.update(dataclasses.asdict(rules))
    return out


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
            "caida_limpia_points": 2,
            "caida_ronda_points": 0,
            "ronda_limit": None,
            "cuatro_caidas_gana": True,
        },
    ),
}
