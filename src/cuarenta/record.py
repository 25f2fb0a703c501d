"""Game records: a whole mesa written down, like PGN for chess.

A :class:`GameRecord` holds everything needed to replay a mesa to the identical game: the rules
(every option), the seed, an optional starting position, and the actions in the project's notation
(``7h x3c+4d,Js``, ``claim 5s,6h``); plus the names at the seats, optional headers (event, site,
date …) and the result. It is written and read as text (``to_text`` / ``from_text``) or as JSON
(``to_json`` / ``from_json``); docs/record-format.md describes both forms.

>>> from cuarenta import Game, Rules
>>> from cuarenta.record import GameRecord
>>> game = Game.new(Rules.preset("basico"), seed=7)
>>> for _ in range(4):
...     _ = game.play(game.legal_moves()[0])
>>> record = GameRecord.from_game(game, seats=["Ana", "bot:normal"], headers={"Date": "2026-11-29"})
>>> print(record.to_text())
[Format "cuarenta-record 2"]
[Date "2026-11-29"]
[Players "2"]
[Seat0 "Ana"]
[Seat1 "bot:normal"]
[Rules "basico"]
[Seed "7"]
[Result "*"]
[Chicas "0-0"]
[Score "0-2"]
<BLANKLINE>
{hand 1, dealer 0}
1. 4c Qs 2. Qd xQs {caída +2: 0-2} Kc
<BLANKLINE>
>>> GameRecord.from_text(record.to_text()) == record == GameRecord.from_json(record.to_json())
True
>>> record.replay().state_summary() == game.state_summary()
True

Reading is strict by default: anything wrong raises :class:`~cuarenta.RecordError` saying what and
where. ``strict=False`` keeps what can be kept and lists the problems in :attr:`GameRecord.errors`:

>>> bad = record.to_text().replace("Qd xQs", "Qd xQh")
>>> GameRecord.from_text(bad)
Traceback (most recent call last):
...
cuarenta.errors.RecordError: line 13: action 3 'Qd xQh' (seat 1, hand 1): Qh is not on the table; ...
>>> lenient = GameRecord.from_text(bad, strict=False)
>>> [str(a) for a in lenient.actions]
['4c', 'Qs']
>>> for problem in lenient.errors:
...     print(problem)
line 13: action 3 'Qd xQh' (seat 1, hand 1): Qh is not on the table; open to it: Qd xQs
line 10: Score '0-2' contradicts the replay, which gives 0-0
"""

from __future__ import annotations

import dataclasses
import datetime
import difflib
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final, NoReturn

from cuarenta.errors import (
    IllegalMoveError,
    MoveParseError,
    PositionError,
    RecordError,
    RulesError,
    SeedError,
    brief,
    clip,
)
from cuarenta.events import (
    Caida,
    CaidaLimpia,
    CaidaRonda,
    Carton,
    ChicaWon,
    Deal,
    Event,
    FourOfAKind,
    Limpia,
    MesaWon,
    Ronda,
    Zapatero,
)
from cuarenta.game import Game, action_text, check_seed
from cuarenta.jsontext import loads
from cuarenta.moves import Action, Claim, Move, parse_action
from cuarenta.rules import OPTION_NAMES, PRESET_NAMES, Rules

FORMAT_NAME: Final = "cuarenta-record"
#: The version this module writes. Version 1 (cuarenta 0.1) is still read: its ``Rules`` tag named
#: the presets as they were then (:data:`PRESET_CHANGES`).
FORMAT_VERSION: Final = 2
READ_VERSIONS: Final = (1, 2)
#: What a preset named in a record of an older format version meant, as changes to today's preset:
#: in version 1 ``campeonato`` scored caída y limpia 4 (docs/rules.md R15 now gives it 2).
PRESET_CHANGES: Final[dict[int, dict[str, dict[str, object]]]] = {
    1: {"campeonato": {"caida_limpia_points": 4}}
}

#: Headers with a fixed place at the top of the text form (after Format), in this order.
KNOWN_HEADERS: Final = ("Event", "Site", "Date", "Round")
#: Tags the record writes itself; they cannot be used as free headers.
RESERVED_TAGS: Final = (
    "Format",
    "Players",
    "Rules",
    "Option",
    "Seed",
    "SeedType",
    "Position",
    "Result",
    "Chicas",
    "Score",
)
_SEAT_TAG = re.compile(r"Seat(0|[1-9][0-9]*)")
_SEAT_DIGITS: Final = 3  #: a [SeatN] tag with more digits is no seat, whatever the players
_INT_DIGITS: Final = 18  #: an option's whole number: more digits is too large (int() refuses 4,300)
_HEADER_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_TAG = re.compile(r'\[[ \t]*([A-Za-z][A-Za-z0-9_]*)[ \t]+"((?:[^"\\\n]|\\.)*)"[ \t]*\]')
_ESCAPE = re.compile(r"\\(.)")
_ESCAPES: Final = {"\\": "\\", '"': '"', "n": "\n", "r": "\r", "t": "\t"}
_NUMBER = re.compile(r"\d+\.+")
_INT = re.compile(r"-?[0-9]+")
_SEED_INT = re.compile(r"0|-?[1-9][0-9]*")  # exactly the texts that str(int) writes
_DATE = re.compile(r"[0-9]{4}(-[0-9]{2}(-[0-9]{2})?)?")
_SMALL_NUMBER = re.compile(r"[0-9]{1,9}")  # a seat, a version: ASCII digits (str.isdigit() takes "²")
_POSITION_KEYS: Final = (
    "hands",
    "table",
    "stock",
    "piles",
    "turn",
    "dealer",
    "scores",
    "chicas",
    "last_drop",
    "rondas",
)
_JSON_KEYS: Final = ("format", "version", "headers", "seats", "rules", "seed", "start", "actions", "result")


# -- small helpers -------------------------------------------------------------------------------------
def _quote(value: str) -> str:
    """A tag value in double quotes, with backslash escapes for ``\\ " newline CR tab``."""
    out = value.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + out.replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t") + '"'


def _unquote(raw: str) -> str:
    def sub(m: re.Match[str]) -> str:
        ch = m.group(1)
        if ch not in _ESCAPES:
            raise ValueError(f"unknown escape '\\{ch}' (use \\\\ \\\" \\n \\r or \\t)")
        return _ESCAPES[ch]

    return _ESCAPE.sub(sub, raw)


def _pair(value: tuple[int, ...] | list[int]) -> str:
    return "-".join(str(v) for v in value)


#: Chicas and scores are below this (a score is at most a little over the largest target, 200).
PAIR_LIMIT: Final = 10**6


def _parse_pair(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"\s*([0-9]{1,6})\s*-\s*([0-9]{1,6})\s*", text)
    if not m:
        raise ValueError(f"{brief(text)} is not two numbers like '2-1'")
    return int(m.group(1)), int(m.group(2))


def _check_pair(value: Any, what: str) -> tuple[int, int]:
    if (
        not isinstance(value, (list, tuple))
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < PAIR_LIMIT for v in value)
    ):
        raise RecordError(
            f"{what} must be two whole numbers (team 0, team 1) below {PAIR_LIMIT}, not {brief(value)}"
        )
    return (value[0], value[1])


def _check_date(value: str) -> None:
    if not _DATE.fullmatch(value):
        raise ValueError(f"Date {brief(value)} is not a date: write YYYY-MM-DD (or YYYY-MM, or YYYY)")
    parts = [int(p) for p in value.split("-")] + [1, 1]
    try:
        datetime.date(parts[0], parts[1], parts[2])
    except ValueError as exc:
        raise ValueError(f"Date {brief(value)} is not a date: {exc}") from None


def _check_header(name: Any, value: Any) -> None:
    """Raise ValueError unless (name, value) may be a free header of a record."""
    if not isinstance(name, str) or not _HEADER_NAME.fullmatch(name):
        raise ValueError(f"header name {brief(name)} must be a letter followed by letters, digits or _")
    if name in RESERVED_TAGS or _SEAT_TAG.fullmatch(name):
        raise ValueError(f"header {brief(name)} is written by the record itself, not given as a header")
    if name not in KNOWN_HEADERS:
        # a misspelt tag would otherwise be kept silently as a free header
        vocabulary = (*RESERVED_TAGS, *KNOWN_HEADERS, "Seat0")
        close = difflib.get_close_matches(name.lower(), [v.lower() for v in vocabulary], n=1, cutoff=0.8)
        if close:
            meant = next(v for v in vocabulary if v.lower() == close[0])
            raise ValueError(
                f"unknown tag [{name}]: did you mean [{meant}]? (tag names are case-sensitive; "
                "a free header needs a name further from the record's own tags)"
            )
    if not isinstance(value, str):
        raise ValueError(f"header {clip(name)}: the value must be text, not {brief(value)}")
    if name == "Date":
        _check_date(value)


def _option_kind(name: str) -> str:
    """'bool', 'int', 'int?' (int or None) or 'str', from the Rules field's annotation."""
    ftype = str({f.name: f.type for f in dataclasses.fields(Rules)}[name])
    if ftype == "bool":
        return "bool"
    if ftype.startswith("int"):
        return "int?" if "None" in ftype else "int"
    return "str"


def _format_option(value: object) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if value is None:
        return "none"
    return str(value)


def _parse_option(name: str, text: str) -> object:
    kind = _option_kind(name)
    t = text.strip()
    low = t.lower()
    if kind == "bool":
        if low in ("on", "true", "yes"):
            return True
        if low in ("off", "false", "no"):
            return False
        raise ValueError(f"option {name}={brief(t)}: write on or off")
    if kind in ("int", "int?"):
        if kind == "int?" and low in ("none", "off"):
            return None
        if not _INT.fullmatch(t):
            extra = " (or none)" if kind == "int?" else ""
            raise ValueError(f"option {name}={brief(t)}: write a whole number{extra}")
        if len(t.lstrip("-")) > _INT_DIGITS:
            raise ValueError(f"option {name}={brief(t)}: the number is too large")
        return int(t)
    return t


def _base_preset(rules: Rules) -> tuple[str, list[tuple[str, object]]]:
    """The preset that needs the fewest Option lines to give ``rules``, with those options."""
    best: tuple[str, list[tuple[str, object]]] | None = None
    for name in PRESET_NAMES:
        try:
            base = Rules.preset(name, rules.players)
        except RulesError:
            continue
        diffs = [
            (o, getattr(rules, o))
            for o in OPTION_NAMES
            if o != "players" and getattr(rules, o) != getattr(base, o)
        ]
        if best is None or len(diffs) < len(best[1]):
            best = (name, diffs)
    assert best is not None  # a_todo_rigor is open to 2 and 4 players
    return best


def _cards_field(cards: Sequence[str]) -> str:
    return ",".join(cards) or "-"


def _position_text(start: Mapping[str, Any]) -> str:
    """The starting position as one line: ``hands=7h,3d/Kc table=… turn=0 …``."""
    parts = [
        "hands=" + "/".join(_cards_field(h) for h in start["hands"]),
        "table=" + _cards_field(start["table"]),
        "stock=" + _cards_field(start["stock"]),
        "piles=" + "/".join(_cards_field(p) for p in start["piles"]),
        f"turn={start['turn']}",
        f"dealer={start['dealer']}",
        "scores=" + _pair(start["scores"]),
        "chicas=" + _pair(start["chicas"]),
        "last_drop=" + (start["last_drop"] or "-"),
        "rondas=" + (",".join(f"{s}:{r}" for s, r in start["rondas"]) or "-"),
    ]
    return " ".join(parts)


def _position_cards(value: str) -> list[str]:
    """A list of cards of a Position field (``-``: none)."""
    return [] if value == "-" else value.split(",")


def _position_rondas(value: str) -> list[tuple[int, str]]:
    """The ``rondas`` field of a Position tag: ``seat:rank`` items (``-``: none)."""
    rondas = []
    for item in [] if value == "-" else value.split(","):
        seat, colon, rank = item.partition(":")
        if not colon or not _SMALL_NUMBER.fullmatch(seat) or not rank:
            raise ValueError(f"ronda {brief(item)} is not seat:rank, like 1:7")
        rondas.append((int(seat), rank))
    return rondas


def _position_seat(key: str, value: str) -> int:
    """The seat number of a Position field (``turn``, ``dealer``)."""
    if not _SMALL_NUMBER.fullmatch(value):
        raise ValueError(f"{key}={brief(value)} is not a seat number")
    return int(value)


def _parse_position(text: str) -> dict[str, Any]:
    """Arguments of Game.from_position from the text of a Position tag; ValueError if malformed."""
    cards = _position_cards
    out: dict[str, Any] = {}
    for part in text.split():
        key, eq, value = part.partition("=")
        if not eq:
            raise ValueError(f"{brief(part)} is not key=value")
        if key not in _POSITION_KEYS:
            raise ValueError(f"unknown field {brief(key)} (fields: {', '.join(_POSITION_KEYS)})")
        if key in out:
            raise ValueError(f"field {brief(key)} is given twice")
        if key in ("hands", "piles"):
            out[key] = [cards(v) for v in value.split("/")]
        elif key in ("table", "stock"):
            out[key] = cards(value)
        elif key in ("turn", "dealer"):
            out[key] = _position_seat(key, value)
        elif key in ("scores", "chicas"):
            out[key] = list(_parse_pair(value))
        elif key == "last_drop":
            out[key] = None if value == "-" else value
        else:
            out[key] = _position_rondas(value)
    for key in ("hands", "turn", "dealer"):
        if key not in out:
            raise ValueError(f"field {brief(key)} is missing")
    return out


def _start_game(rules: Rules, seed: int | str, start: Mapping[str, Any] | None) -> Game:
    """The game before the first action: a new deal from the seed, or the starting position."""
    if start is None:
        try:
            return Game.new(rules, seed)
        except SeedError as exc:
            raise RecordError(str(exc), code=exc.code, params=exc.params) from None
    try:
        return Game.from_position(rules, seed=seed, **start)
    except (PositionError, TypeError) as exc:
        raise RecordError(f"starting position: {clip(str(exc))}") from None


def _check_seed(seed: object) -> int | str:
    """A record's seed: a whole number or a text, of at most ``MAX_SEED_CHARS`` (RecordError if not)."""
    if not isinstance(seed, (int, str)) or isinstance(seed, bool):
        raise RecordError(f"seed {brief(seed)} must be a whole number or text")
    try:
        return check_seed(seed)
    except SeedError as exc:
        raise RecordError(str(exc), code=exc.code, params=exc.params) from None


def _normal_start(rules: Rules, seed: int | str, start: Any) -> dict[str, Any]:
    """A starting position checked and in the canonical form that Game.to_dict() writes."""
    if not isinstance(start, Mapping):
        raise RecordError(
            f"the starting position must be an object of Game.from_position arguments, not {brief(start)}"
        )
    unknown = sorted(
        clip(str(k)) if isinstance(k, str) else brief(k) for k in set(start) - set(_POSITION_KEYS)
    )
    if unknown:
        raise RecordError(f"starting position: unknown field(s) {clip(', '.join(unknown))}")
    for key in ("turn", "dealer", "scores", "chicas"):
        value = start.get(key)
        if isinstance(value, bool) or (
            isinstance(value, (list, tuple)) and any(isinstance(v, bool) for v in value)
        ):
            shown = brief(value)
            raise RecordError(f"starting position: {key}={shown} must be whole numbers, not true/false")
    rondas = start.get("rondas")
    for item in rondas if isinstance(rondas, (list, tuple)) else ():
        if not isinstance(item, (list, tuple)) or len(item) != 2 or type(item[0]) is not int:
            raise RecordError(f"starting position: ronda {brief(item)} is not a [seat, rank] pair")
    out: dict[str, Any] = _start_game(rules, seed, start).to_dict()["start"]
    return out


def _seat_names(seats: Any, players: int) -> tuple[str | None, ...]:
    if seats is None or (isinstance(seats, (list, tuple)) and not seats):
        return (None,) * players
    if not isinstance(seats, (list, tuple)) or len(seats) != players:
        raise RecordError(
            f"seats must hold one name (or None) for each of the {players} seats, not {brief(seats)}"
        )
    for s in seats:
        if s is not None and not isinstance(s, str):
            raise RecordError(f"seat name {brief(s)} must be text or None")
    return tuple(seats)


def _record_actions(given: Any) -> tuple[Action, ...]:
    """A record's actions: moves and claims, or their text (:class:`RecordError` if not)."""
    if isinstance(given, str | bytes | Mapping) or not isinstance(given, Iterable):
        raise RecordError(f"actions must be a sequence of moves, not {brief(given)}")
    actions: list[Action] = []
    for i, a in enumerate(given, 1):
        if isinstance(a, str):
            try:
                a = parse_action(a)
            except MoveParseError as exc:
                raise RecordError(f"action {i}: {exc}") from None
        if not isinstance(a, (Move, Claim)):
            raise RecordError.of("save_action_type", number=i, value=brief(a))
        actions.append(a)
    return tuple(actions)


def _record_headers(given: Any) -> list[tuple[str, str]]:
    """A record's free headers: (name, value) pairs or a mapping, each checked, no name twice."""
    if isinstance(given, str | bytes) or not isinstance(given, Iterable):
        raise RecordError(f"headers must be (name, value) pairs, not {brief(given)}")
    pairs = list(given.items()) if isinstance(given, Mapping) else list(given)
    seen: set[str] = set()
    for item in pairs:
        if not isinstance(item, tuple) or len(item) != 2:
            raise RecordError(f"headers must be (name, value) pairs, not {brief(item)}")
        try:
            _check_header(*item)
        except ValueError as exc:
            raise RecordError(str(exc)) from None
        if item[0] in seen:
            raise RecordError(f"header {brief(item[0])} is given twice")
        seen.add(item[0])
    return pairs


def _order_headers(headers: Iterable[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    """Known headers first (Event, Site, Date, Round), the others in the order given."""
    items = list(headers)
    known = sorted((h for h in items if h[0] in KNOWN_HEADERS), key=lambda h: KNOWN_HEADERS.index(h[0]))
    return (*known, *(h for h in items if h[0] not in KNOWN_HEADERS))


# -- the record ----------------------------------------------------------------------------------------
@dataclass(frozen=True, repr=False)
class GameRecord:
    """A mesa written down: rules, seed, start, actions, seats, headers and result.

    Build one with :meth:`from_game`, :meth:`from_text` or :meth:`from_json`, or directly (actions
    may be given as text). Records compare equal when they describe the same game with the same
    names, headers and result; :attr:`errors` (problems a lenient reader met) is not compared.

    >>> from cuarenta import Rules
    >>> record = GameRecord(Rules(), seed=3, actions=["Kh"], result=None)
    >>> record.actions, record.seats
    ((Move.parse('Kh'),), (None, None))
    """

    FORMAT: ClassVar[str] = FORMAT_NAME
    VERSION: ClassVar[int] = FORMAT_VERSION

    rules: Rules
    seed: int | str
    actions: tuple[Action, ...] = ()
    #: One name per seat (a person, or a bot such as ``"bot:normal"``), ``None`` where unnamed.
    seats: tuple[str | None, ...] = ()
    #: Free headers as (name, value) pairs: Event, Site, Date (YYYY-MM-DD), Round, and any other.
    headers: tuple[tuple[str, str], ...] = ()
    #: Game.from_position arguments (as in Game.to_dict()["start"]), or None for a game from the deal.
    start: dict[str, Any] | None = field(default=None, hash=False)
    #: The team that won the mesa, or None if the record ends before the mesa does ("*").
    result: int | None = None
    #: Chicas won by each team when the record ends (None: not stated).
    chicas: tuple[int, int] | None = None
    #: Points of each team in the chica in play when the record ends (None: not stated).
    score: tuple[int, int] | None = None
    #: Problems met by a lenient reader (``strict=False``); empty for a clean record.
    errors: tuple[str, ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.rules, Rules):
            raise RecordError.of("not_rules", value=type(self.rules).__name__)
        _check_seed(self.seed)
        object.__setattr__(self, "actions", _record_actions(self.actions))
        object.__setattr__(self, "seats", _seat_names(self.seats, self.rules.players))
        object.__setattr__(self, "headers", _order_headers(_record_headers(self.headers)))
        if self.start is not None:
            object.__setattr__(self, "start", _normal_start(self.rules, self.seed, self.start))
        if self.result not in (None, 0, 1) or isinstance(self.result, bool):
            raise RecordError(
                f"result {brief(self.result)} must be the winning team (0 or 1) or None (unfinished)"
            )
        if self.chicas is not None:
            object.__setattr__(self, "chicas", _check_pair(self.chicas, "chicas"))
        if self.score is not None:
            object.__setattr__(self, "score", _check_pair(self.score, "score"))
        errors = self.errors if isinstance(self.errors, Iterable) and not isinstance(self.errors, str) else ()
        object.__setattr__(self, "errors", tuple(str(e) for e in errors))

    def __repr__(self) -> str:
        result = "*" if self.result is None else self.result
        return (
            f"<GameRecord {self.rules.preset_name} players={self.rules.players} seed={brief(self.seed)} "
            f"actions={len(self.actions)} result={result}>"
        )

    # -- facts ---------------------------------------------------------------------------------------
    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def finished(self) -> bool:
        """Whether the record ends with the mesa won."""
        return self.result is not None

    def header(self, name: str, default: str | None = None) -> str | None:
        """The value of a free header (``"Event"``, ``"Date"`` …), or ``default``."""
        for key, value in self.headers:
            if key == name:
                return value
        return default

    @property
    def event(self) -> str | None:
        return self.header("Event")

    @property
    def site(self) -> str | None:
        return self.header("Site")

    @property
    def date(self) -> str | None:
        """The Date header, ``YYYY-MM-DD`` (or ``YYYY-MM``, ``YYYY``)."""
        return self.header("Date")

    # -- from a game, and back -----------------------------------------------------------------------
    @classmethod
    def from_game(
        cls,
        game: Game,
        seats: Sequence[str | None] | None = None,
        headers: Mapping[str, str] | Iterable[tuple[str, str]] | None = None,
    ) -> GameRecord:
        """The record of a game as it stands (finished or not).

        ``seats`` names the player at each seat; ``headers`` adds Event, Site, Date and the like.
        """
        if not isinstance(game, Game):
            raise RecordError(f"GameRecord.from_game takes a Game, not {brief(game)}")
        data = game.to_dict()
        outcome = game.outcome
        if headers is not None and not isinstance(headers, Iterable):
            raise RecordError(f"headers must be (name, value) pairs, not {brief(headers)}")
        if seats is not None and (isinstance(seats, str) or not isinstance(seats, Iterable)):
            raise RecordError(f"seats must hold one name (or None) for each seat, not {brief(seats)}")
        pairs = list(headers.items()) if isinstance(headers, Mapping) else list(headers or ())
        return cls(
            rules=game.rules,
            seed=game.seed,
            actions=tuple(game.actions),
            seats=tuple(seats) if seats is not None else (),
            headers=tuple(pairs),
            start=data["start"],
            result=None if outcome is None else outcome.winner,
            chicas=game.chicas,
            score=game.score,
        )

    def replay(self) -> Game:
        """Replay the actions, checked, to the game they make.

        Raises :class:`~cuarenta.RecordError` naming the first illegal action and why, or saying how
        the stated result (winner, chicas, score) differs from the replay.
        """
        reader = _Reader(strict=True)
        game, _ = _play(reader, self.rules, self.seed, self.start, [(a, None) for a in self.actions])
        _check_result(reader, game, self.result, self.chicas, self.score, {})
        return game

    # -- text ----------------------------------------------------------------------------------------
    def to_text(self, comments: bool = True) -> str:
        """The record as text: tags, a blank line, then the moves, one line per deal.

        Moves are numbered by round (every seat playing once) and each hand begins with a comment.
        With ``comments`` (the default) the writer also notes the points scored, in ``{braces}``;
        readers ignore every comment, so they never change the game.
        """
        lines = [f"[Format {_quote(f'{FORMAT_NAME} {FORMAT_VERSION}')}]"]
        lines += [f"[{k} {_quote(v)}]" for k, v in self.headers]
        lines.append(f'[Players "{self.players}"]')
        lines += [f"[Seat{i} {_quote(s)}]" for i, s in enumerate(self.seats) if s is not None]
        base, options = _base_preset(self.rules)
        lines.append(f'[Rules "{base}"]')
        lines += [f'[Option "{name}={_format_option(value)}"]' for name, value in options]
        lines.append(f"[Seed {_quote(str(self.seed))}]")
        if isinstance(self.seed, str) and _SEED_INT.fullmatch(self.seed):
            lines.append('[SeedType "text"]')
        if self.start is not None:
            lines.append(f"[Position {_quote(_position_text(self.start))}]")
        lines.append(f'[Result "{"*" if self.result is None else self.result}"]')
        if self.chicas is not None:
            lines.append(f'[Chicas "{_pair(self.chicas)}"]')
        if self.score is not None:
            lines.append(f'[Score "{_pair(self.score)}"]')
        lines.append("")
        lines += _movetext(self, comments)
        return "\n".join(lines) + "\n"

    @classmethod
    def from_text(cls, text: str, strict: bool = True) -> GameRecord:
        """Read the text form and check it by replaying every action.

        Strict (the default): the first problem raises :class:`~cuarenta.RecordError`, with the line.
        ``strict=False``: problems are listed in :attr:`errors` and the record keeps what replays
        (the actions before the first bad one, the result of the replay). A text that is not a
        record at all, of another format or version, without a Seed or with an impossible starting
        position still raises.
        """
        return _read_text(text, _Reader(strict))[0]

    # -- JSON ----------------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The JSON form as a dict (see docs/record-format.md)."""
        return {
            "format": FORMAT_NAME,
            "version": FORMAT_VERSION,
            "headers": dict(self.headers),
            "seats": list(self.seats),
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "start": None if self.start is None else json.loads(json.dumps(self.start)),
            "actions": [str(a) for a in self.actions],
            "result": {
                "winner": self.result,
                "chicas": None if self.chicas is None else list(self.chicas),
                "score": None if self.score is None else list(self.score),
            },
        }

    def to_json(self, indent: int | None = None) -> str:
        """The record as JSON text."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: Any, strict: bool = True) -> GameRecord:
        """Read the JSON form already decoded into a dict; checks as :meth:`from_json`."""
        return _read_dict(data, _Reader(strict))[0]

    @classmethod
    def from_json(cls, text: str | bytes, strict: bool = True) -> GameRecord:
        """Read the JSON form and check it by replaying every action (``strict`` as in :meth:`from_text`).

        Any input raises :class:`~cuarenta.RecordError` and nothing else (:mod:`cuarenta.jsontext`).

        >>> GameRecord.from_json('{"seed": ' + "9" * 5000 + "}")
        Traceback (most recent call last):
        ...
        cuarenta.errors.RecordError: the record is not valid JSON: a whole number has more than 1000 digits
        """
        try:
            data = loads(text)
        except RecordError as exc:
            raise RecordError.of("record_not_json", reason=exc) from None
        return _read_dict(data, _Reader(strict))[0]


# -- reading ---------------------------------------------------------------------------------------------
class _Reader:
    """Error policy of one read: strict raises at the first problem, lenient collects them."""

    def __init__(self, strict: bool) -> None:
        self.strict = strict
        self.errors: list[str] = []

    @staticmethod
    def _text(msg: str, where: str | None) -> str:
        return f"{where}: {msg}" if where else msg

    def error(self, msg: str, where: str | None = None) -> None:
        if self.strict:
            raise RecordError(self._text(msg, where))
        self.errors.append(self._text(msg, where))

    def fatal(self, msg: str, where: str | None = None) -> NoReturn:
        raise RecordError(self._text(msg, where))


def _play(
    reader: _Reader,
    rules: Rules,
    seed: int | str,
    start: Mapping[str, Any] | None,
    actions: Sequence[tuple[Action | str, str | None]],
) -> tuple[Game, list[Action]]:
    """Replay checked actions; on the first bad one report it and stop (lenient: keep the rest out)."""
    game = _start_game(rules, seed, start)
    done: list[Action] = []
    for i, (item, where) in enumerate(actions, 1):
        if isinstance(item, str):
            try:
                action = parse_action(item)
            except MoveParseError as exc:
                reader.error(f"action {i}: {exc}", where)
                break
        else:
            action = item
        seat = game.turn
        try:
            game.play(action)
        except IllegalMoveError as exc:
            if game.is_over:
                over = f"the mesa is already over (team {game.outcome.winner} won it)"  # type: ignore[union-attr]
                msg = f"action {i} '{action_text(action)}': {over}"
            else:
                msg = f"action {i} '{action_text(action)}' (seat {seat}, hand {game.hand_number + 1}): {exc}"
            reader.error(msg, where)
            break
        done.append(action)
    return game, done


def _check_result(
    reader: _Reader,
    game: Game,
    result: int | None,
    chicas: tuple[int, int] | None,
    score: tuple[int, int] | None,
    where: Mapping[str, str],
) -> tuple[int | None, tuple[int, int] | None, tuple[int, int] | None]:
    """Compare the stated result with the replay; return the values the record should keep."""
    outcome = game.outcome
    winner = None if outcome is None else outcome.winner
    if result != winner:
        said = "'*' (unfinished)" if result is None else f"'{result}' (team {result} won)"
        got = "the mesa is not over" if winner is None else f"team {winner} wins the mesa"
        reader.error(
            f"Result {said} contradicts the replay: after the last action {got}", where.get("result")
        )
        result = winner
    if chicas is not None and chicas != game.chicas:
        reader.error(
            f"Chicas '{_pair(chicas)}' contradicts the replay, which gives {_pair(game.chicas)}",
            where.get("chicas"),
        )
        chicas = game.chicas
    if score is not None and score != game.score:
        reader.error(
            f"Score '{_pair(score)}' contradicts the replay, which gives {_pair(game.score)}",
            where.get("score"),
        )
        score = game.score
    return result, chicas, score


@dataclass(frozen=True)
class _Stated:
    """What a record says of its end (Result, Chicas, Score), and where it says it.

    ``known`` is false when the result could not be read (lenient): the replay's is taken then."""

    result: int | None
    known: bool
    chicas: tuple[int, int] | None
    score: tuple[int, int] | None
    where: Mapping[str, str]


def _finish(
    reader: _Reader,
    *,
    rules: Rules,
    seed: int | str,
    seats: tuple[str | None, ...],
    headers: list[tuple[str, str]],
    start: dict[str, Any] | None,
    actions: list[tuple[str, str | None]],
    stated: _Stated,
) -> tuple[GameRecord, Game]:
    """Replay the actions and build the record, its stated end checked against the replay; the record and
    the game its actions made."""
    game, done = _play(reader, rules, seed, start, actions)
    if stated.known:
        result, chicas, score = _check_result(
            reader, game, stated.result, stated.chicas, stated.score, stated.where
        )
    else:  # lenient, without a readable result: take the replay's
        result = None if game.outcome is None else game.outcome.winner
        chicas, score = game.chicas, game.score
    return GameRecord(
        rules=rules,
        seed=seed,
        actions=tuple(done),
        seats=seats,
        headers=tuple(headers),
        start=start,
        result=result,
        chicas=chicas,
        score=score,
        errors=tuple(reader.errors),
    ), game


def _tag(s: str, i: int, line: int, in_moves: bool, reader: _Reader, tags: list[tuple[str, str, int]]) -> int:
    """Read the tag that opens at ``s[i]`` (on ``line``) into ``tags``; return where reading goes on."""
    m = _TAG.match(s, i)
    if not m:
        end = s.find("\n", i)
        end = len(s) if end < 0 else end
        bad = s[i:end].strip()
        bad = bad if len(bad) <= 60 else bad[:57] + "..."
        reader.error(
            f'malformed tag {brief(bad)}: write [Name "value"], one or more to a line', f"line {line}"
        )
        return end
    name = m.group(1)
    if in_moves:
        reader.error(f"tag [{clip(name)}] after the moves: every tag comes before the moves", f"line {line}")
    try:
        value = _unquote(m.group(2))
    except ValueError as exc:
        reader.error(f"tag [{clip(name)}]: {exc}", f"line {line}")
        return m.end()
    tags.append((name, value, line))
    return m.end()


def _tokens(text: str, reader: _Reader) -> tuple[list[tuple[str, str, int]], list[tuple[str, int]]]:
    """Split the text into tags (name, value, line) and movetext tokens (token, line)."""
    tags: list[tuple[str, str, int]] = []
    tokens: list[tuple[str, int]] = []
    s = text
    n = len(s)
    i = 0
    line = 1
    in_moves = False
    while i < n:
        ch = s[i]
        if ch == "\n":
            line += 1
            i += 1
        elif ch.isspace():
            i += 1
        elif ch == ";":
            j = s.find("\n", i)
            i = n if j < 0 else j
        elif ch == "{":
            j = s.find("}", i)
            if j < 0:
                reader.error("a comment opened with '{' is never closed with '}'", f"line {line}")
                j = n
            line += s.count("\n", i, j)
            i = j + 1
        elif ch == "}":
            reader.error("'}' closes no comment", f"line {line}")
            i += 1
        elif ch == "[":
            i = _tag(s, i, line, in_moves, reader, tags)
        else:
            in_moves = True
            j = i
            while j < n and not s[j].isspace() and s[j] not in "{};[":
                j += 1
            tokens.append((s[i:j], line))
            i = j
    return tags, tokens


def _group_actions(tokens: list[tuple[str, int]]) -> list[tuple[str, str | None]]:
    """Join movetext tokens into actions: ``7h`` ``x3c+4d,Js`` → ``7h x3c+4d,Js``; skip round numbers."""
    out: list[tuple[str, str | None]] = []
    k = 0
    n = len(tokens)
    while k < n:
        tok, line = tokens[k]
        k += 1
        if _NUMBER.fullmatch(tok):
            continue
        parts = [tok]
        if tok.lower() == "claim":
            if k < n:
                parts.append(tokens[k][0])
                k += 1
        elif k < n and tokens[k][0][:1] in ("x", "X"):
            parts.append(tokens[k][0])
            k += 1
        else:
            out.append((tok, f"line {line}"))
            continue
        # the list of cards may be spread over tokens: "x 3c + 4d", "claim 5s, 6h"
        while k < n and (
            parts[-1].endswith((",", "+")) or parts[-1] in ("x", "X") or tokens[k][0][:1] in ",+"
        ):
            parts.append(tokens[k][0])
            k += 1
        text = parts[0] + " " + "".join(parts[1:])
        out.append((text, f"line {line}"))
    return out


@dataclass
class _TextTags:
    """The tags of a text record, sorted: the reserved ones by name (and the line each is on), the
    ``Option`` tags, the ``SeatN`` tags and the free headers, in the order they came."""

    values: dict[str, str] = field(default_factory=dict)
    where: dict[str, str] = field(default_factory=dict)
    options: list[tuple[str, int]] = field(default_factory=list)
    seats: list[tuple[int, str, int]] = field(default_factory=list)
    headers: list[tuple[str, str]] = field(default_factory=list)

    def given(self, name: str) -> bool:
        """Whether a tag of this name (other than ``Option``) was already read."""
        return (
            name in self.values
            or any(h == name for h, _ in self.headers)
            or any(f"Seat{s}" == name for s, _, _ in self.seats)
        )


def _sort_tags(tags: list[tuple[str, str, int]], reader: _Reader) -> _TextTags:
    """Sort the tags (name, value, line) into a :class:`_TextTags`; a repeated or bad header is an error."""
    out = _TextTags()
    for name, value, line in tags:
        loc = f"line {line}"
        if name == "Option":
            out.options.append((value, line))
            continue
        if out.given(name):
            reader.error(f"tag [{clip(name)}] is given twice", loc)
            continue
        seat = _SEAT_TAG.fullmatch(name)
        if seat and len(seat.group(1)) > _SEAT_DIGITS:  # (int() refuses 4,300 digits, and str() as much)
            reader.error(f"tag [{clip(name)}] names no seat: the seats are 0..3 at most", loc)
        elif seat:
            out.seats.append((int(seat.group(1)), value, line))
        elif name in RESERVED_TAGS:
            out.values[name] = value
            out.where[name.lower()] = loc
        else:
            try:
                _check_header(name, value)
            except ValueError as exc:
                reader.error(str(exc), loc)
                continue
            out.headers.append((name, value))
    return out


def _text_version(tags: _TextTags, reader: _Reader) -> int:
    """The record's format version, from ``[Format]``: without it nothing else can be trusted."""
    fmt = tags.values.get("Format")
    if fmt is None:
        reader.error(f'no [Format "{FORMAT_NAME} {FORMAT_VERSION}"] tag: is this a Cuarenta record?')
        return FORMAT_VERSION
    name, _, version = fmt.strip().partition(" ")
    loc = tags.where["format"]
    if name != FORMAT_NAME:
        reader.fatal(
            f"Format {brief(fmt)} is not a Cuarenta record: expected '{FORMAT_NAME} {FORMAT_VERSION}'",
            loc,
        )
    if not _SMALL_NUMBER.fullmatch(version.strip()):
        reader.fatal(
            f"Format {brief(fmt)}: the version must be a number, like '{FORMAT_NAME} {FORMAT_VERSION}'",
            loc,
        )
    if int(version) not in READ_VERSIONS:
        reader.fatal(
            f"record format version {int(version)} is not supported "
            f"(this reader knows versions {', '.join(map(str, READ_VERSIONS))})",
            loc,
        )
    return int(version)


def _text_players(tags: _TextTags, reader: _Reader) -> int:
    """The number of players, from ``[Players]`` (lenient: guessed from the preset or the seats)."""
    players_text = tags.values.get("Players")
    if players_text is None:
        reader.error('no [Players "2"] or [Players "4"] tag')
    elif players_text.strip() in ("2", "4"):
        return int(players_text)
    else:
        reader.error(
            f"[Players {brief(players_text)}]: {RulesError.of('players_2_or_4', value=clip(players_text))}",
            tags.where["players"],
        )
    preset = tags.values.get("Rules")
    if preset in ("basico", "campeonato"):
        return 2 if preset == "basico" else 4
    return 4 if any(s >= 2 for s, _, _ in tags.seats) else 2


def _text_preset(tags: _TextTags, reader: _Reader, players: int, version: int) -> Rules:
    """The rules of the ``[Rules]`` preset, as the record's format version knew it."""
    preset = tags.values.get("Rules")
    if preset is None:
        reader.error('no [Rules "…"] tag naming the preset (a_todo_rigor, todo_dos, basico, campeonato)')
        preset = "a_todo_rigor"
    preset = preset.strip()
    try:
        rules = Rules(players=players) if preset == "custom" else Rules.preset(preset, players)
        then = PRESET_CHANGES.get(version, {}).get(preset)
        if then:
            rules = rules.replace(**then)
    except RulesError as exc:
        reader.error(f"Rules {brief(preset)}: {exc}", tags.where.get("rules"))
        rules = Rules(players=players)
    return rules


def _text_option_changes(options: list[tuple[str, int]], reader: _Reader) -> dict[str, tuple[object, int]]:
    """The ``[Option "name=value"]`` tags read: name → (value, line); a bad one is an error."""
    changes: dict[str, tuple[object, int]] = {}
    for value, line in options:
        loc = f"line {line}"
        key, eq, val = value.partition("=")
        key = key.strip()
        if not eq:
            reader.error(f"Option {brief(value)}: write name=value, like 'target=30'", loc)
        elif key == "players":
            reader.error("Option 'players': the number of players is the [Players] tag", loc)
        elif key not in OPTION_NAMES:
            reader.error(f"unknown option {brief(key)}: the options are {', '.join(OPTION_NAMES[1:])}", loc)
        elif key in changes:
            reader.error(f"option {brief(key)} is set twice", loc)
        else:
            try:
                changes[key] = (_parse_option(key, val), line)
            except ValueError as exc:
                reader.error(str(exc), loc)
    return changes


def _apply_options(rules: Rules, changes: dict[str, tuple[object, int]], reader: _Reader) -> Rules:
    """The rules with the options applied (lenient, when together they break a rule: the ones that can be)."""
    try:
        return rules.replace(**{k: v for k, (v, _) in changes.items()})
    except RulesError as exc:
        first = min((line for _, line in changes.values()), default=None)
        reader.error(f"Option: {exc}", None if first is None else f"line {first}")
    for key, (setting, line) in changes.items():  # lenient: keep the options that can be applied
        try:
            rules = rules.replace(**{key: setting})
        except RulesError as exc2:
            reader.errors.append(f"line {line}: option {brief(key)} is left out: {exc2}")
    return rules


def _text_seed(tags: _TextTags, reader: _Reader) -> int | str:
    """The seed, from ``[Seed]`` and ``[SeedType]``: a whole number unless the type says text."""
    seed_text = tags.values.get("Seed")
    if seed_text is None:
        reader.fatal("no [Seed] tag: the deals cannot be known without it")
    seed: int | str = _check_seed(seed_text)  # (not too long for int() either)
    seed_type = tags.values.get("SeedType")
    if seed_type not in (None, "text", "integer"):
        reader.error(f"SeedType {brief(seed_type)}: write text or integer", tags.where.get("seedtype"))
    elif seed_type != "text" and _SEED_INT.fullmatch(seed_text):
        try:
            seed = int(seed_text)
        except ValueError as exc:  # more digits than Python converts
            reader.fatal(f"Seed: {exc}", tags.where["seed"])
    elif seed_type == "integer":
        reader.error(f"Seed {brief(seed_text)} is not a whole number, as SeedType says", tags.where["seed"])
    return seed


def _text_seats(tags: _TextTags, reader: _Reader, players: int) -> tuple[str | None, ...]:
    """The name at each seat, from the ``[SeatN]`` tags (a seat past the players is an error)."""
    names: list[str | None] = [None] * players
    for index, value, line in tags.seats:
        if index >= players:
            reader.error(
                f"tag [Seat{index}]: with {players} players the seats are 0..{players - 1}", f"line {line}"
            )
        else:
            names[index] = value
    return tuple(names)


def _text_stated(tags: _TextTags, reader: _Reader) -> _Stated:
    """The end the record states: ``[Result]``, ``[Chicas]`` and ``[Score]``."""
    values = tags.values
    result: int | None = None
    known = True
    result_text = values.get("Result")
    if result_text is None:
        reader.error('no [Result] tag: write the winning team ("0" or "1"), or "*" if the mesa is unfinished')
        known = False
    elif result_text.strip() in ("0", "1", "*"):
        result = None if result_text.strip() == "*" else int(result_text)
    else:
        reader.error(
            f"Result {brief(result_text)}: write the winning team (0 or 1), or * if unfinished",
            tags.where["result"],
        )
        known = False
    pairs: dict[str, tuple[int, int] | None] = {"Chicas": None, "Score": None}
    for tag in pairs:
        if tag in values:
            try:
                pairs[tag] = _parse_pair(values[tag])
            except ValueError as exc:
                reader.error(f"{tag}: {exc}", tags.where[tag.lower()])
                known = False
    return _Stated(result, known, pairs["Chicas"], pairs["Score"], tags.where)


def _read_text_game(text: str) -> tuple[GameRecord, Game]:
    """Read a record's text form, strictly (:meth:`GameRecord.from_text`), and keep the game its replay
    made: the record and that game, for a caller that would otherwise replay the record again."""
    return _read_text(text, _Reader(True))


def _read_text(text: str, reader: _Reader) -> tuple[GameRecord, Game]:
    """Read the text form: its tags in the order a reader trusts them, then its moves, replayed."""
    if not isinstance(text, str):
        reader.fatal(f"a record must be text, not {type(text).__name__}")
    s = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    if not s.strip():
        reader.fatal("the record is empty")
    if s.lstrip().startswith('{"'):
        reader.fatal("this looks like the JSON form of a record: read it with GameRecord.from_json")
    raw_tags, tokens = _tokens(s, reader)
    tags = _sort_tags(raw_tags, reader)
    version = _text_version(tags, reader)
    players = _text_players(tags, reader)
    rules = _text_preset(tags, reader, players, version)
    rules = _apply_options(rules, _text_option_changes(tags.options, reader), reader)
    seed = _text_seed(tags, reader)
    seats = _text_seats(tags, reader, players)
    start: dict[str, Any] | None = None
    if "Position" in tags.values:
        try:
            start = _normal_start(rules, seed, _parse_position(tags.values["Position"]))
        except (ValueError, RecordError) as exc:
            reader.fatal(f"Position: {exc}", tags.where["position"])
    return _finish(
        reader,
        rules=rules,
        seed=seed,
        seats=seats,
        headers=tags.headers,
        start=start,
        actions=_group_actions(tokens),
        stated=_text_stated(tags, reader),
    )


def _dict_version(data: Any, reader: _Reader) -> None:
    """Check that ``data`` is a JSON record of a version this reader knows, with the keys it needs."""
    if not isinstance(data, dict):
        reader.fatal(f"a JSON record must be an object, not {type(data).__name__}")
    if data.get("format") != FORMAT_NAME:
        shown = brief(data.get("format"))
        reader.fatal(f"not a Cuarenta record: format is {shown}, expected {FORMAT_NAME!r}")
    version = data.get("version")
    if version not in READ_VERSIONS or isinstance(version, bool):
        reader.fatal(
            f"record format version {brief(version)} is not supported "
            f"(this reader knows versions {', '.join(map(str, READ_VERSIONS))})"
        )
    unknown = sorted(brief(k) for k in set(data) - set(_JSON_KEYS))
    if unknown:
        reader.error(f"unknown key(s) {clip(', '.join(unknown))}: the keys are {', '.join(_JSON_KEYS)}")
    for key in ("rules", "seed", "actions"):
        if key not in data:
            reader.fatal(f"the record has no {brief(key)}")


def _dict_headers(raw_headers: Any, reader: _Reader) -> list[tuple[str, str]]:
    """The free headers of a JSON record (an object of text values); a bad one is an error."""
    headers: list[tuple[str, str]] = []
    if not isinstance(raw_headers, dict):
        reader.error(f"headers must be an object of text values, not {brief(raw_headers)}", "headers")
        return headers
    for name, value in raw_headers.items():
        try:
            _check_header(name, value)
        except ValueError as exc:
            reader.error(str(exc), "headers")
            continue
        headers.append((name, value))
    return headers


def _dict_actions(raw_actions: Any, reader: _Reader) -> list[tuple[str, str | None]]:
    """The actions of a JSON record, each with where it is (``actions[i]``), not yet parsed."""
    if not isinstance(raw_actions, list):
        reader.fatal(
            f'actions must be a list of moves in the notation, like "7h x3c+4d", not {brief(raw_actions)}'
        )
    return [(a if isinstance(a, str) else brief(a), f"actions[{i}]") for i, a in enumerate(raw_actions)]


def _dict_stated(raw: Any, reader: _Reader) -> _Stated:
    """The end a JSON record states: ``{"winner": …, "chicas": […], "score": […]}``."""
    where = {"result": "result.winner", "chicas": "result.chicas", "score": "result.score"}
    if not isinstance(raw, dict) or "winner" not in raw:
        reader.error(
            'result must be an object {"winner": 0, 1 or null, "chicas": [a, b], "score": [a, b]}', "result"
        )
        return _Stated(None, False, None, None, where)
    result: int | None = None
    known = True
    winner = raw["winner"]
    if winner in (0, 1, None) and not isinstance(winner, bool):
        result = winner
    else:
        reader.error(f"winner {brief(winner)} must be 0, 1 or null (unfinished)", "result.winner")
        known = False
    chicas = score = None
    try:
        chicas = None if raw.get("chicas") is None else _check_pair(raw["chicas"], "chicas")
        score = None if raw.get("score") is None else _check_pair(raw["score"], "score")
    except RecordError as exc:
        reader.error(str(exc), "result")
        known = False
    return _Stated(result, known, chicas, score, where)


def _read_dict(data: Any, reader: _Reader) -> tuple[GameRecord, Game]:
    """Read the JSON form (already parsed): its rules, seed and start, seats, headers, then its actions."""
    _dict_version(data, reader)
    try:
        rules = Rules.from_dict(data["rules"])
    except (RulesError, TypeError) as exc:
        reader.fatal(f"rules: {exc}")
    seed = _check_seed(data["seed"])
    start = None
    if data.get("start") is not None:
        try:
            start = _normal_start(rules, seed, data["start"])
        except RecordError as exc:
            reader.fatal(str(exc))
    seats: tuple[str | None, ...] = (None,) * rules.players
    try:
        seats = _seat_names(data.get("seats"), rules.players)
    except RecordError as exc:
        reader.error(str(exc), "seats")
    headers = _dict_headers(data.get("headers") or {}, reader)
    actions = _dict_actions(data["actions"], reader)
    return _finish(
        reader,
        rules=rules,
        seed=seed,
        seats=seats,
        headers=headers,
        start=start,
        actions=actions,
        stated=_dict_stated(data.get("result"), reader),
    )


# -- writing the moves -----------------------------------------------------------------------------------
def _note(ev: Event) -> str | None:  # noqa: PLR0911 - a flat dispatch: one sentence per kind of scoring event
    """A short comment for a scoring event (points as actually scored, with the rule that cut them)."""
    note = getattr(ev, "note", None)
    tail = f" ({note})" if note else ""
    if isinstance(ev, CaidaRonda):
        return f"caída a la ronda{' y limpia' if ev.limpia else ''} +{ev.points}{tail}"
    if isinstance(ev, CaidaLimpia):
        return f"caída y limpia +{ev.points}{tail}"
    if isinstance(ev, Caida):
        return f"caída +{ev.points}{tail}"
    if isinstance(ev, Limpia):
        return f"limpia +{ev.points}{tail}"
    if isinstance(ev, FourOfAKind):
        if ev.wins_chica:
            return f"four of a kind ({ev.rank}) for seat {ev.seat}: the chica is won"
        return f"four of a kind ({ev.rank}) for seat {ev.seat} +{ev.points}{tail}"
    if isinstance(ev, Ronda):
        return f"ronda of {ev.rank} for seat {ev.seat} +{ev.points}{tail}"
    return None


class _Writer:
    """Lays out the movetext: one line per deal, round numbers, comments from the events."""

    def __init__(self, players: int, comments: bool, score: tuple[int, int]) -> None:
        self.n = players
        self.comments = comments
        self.lines: list[str] = []
        self.cur: list[str] = []
        self.running = list(score)
        self.number = 0
        self.cartons: list[Carton] = []

    def flush(self) -> None:
        if self.cur:
            self.lines.append(" ".join(self.cur))
            self.cur = []

    def comment_line(self, text: str) -> None:
        if self.comments:
            self.flush()
            self.lines.append("{" + text + "}")

    def score_text(self) -> str:
        return _pair(self.running)

    def events(self, events: Iterable[Event]) -> None:
        for ev in events:
            if isinstance(ev, (Caida, Limpia, CaidaLimpia, CaidaRonda, Ronda, FourOfAKind)):
                self.running[ev.team] += ev.points
                if self.comments:
                    self.cur.append("{" + f"{_note(ev)}: {self.score_text()}" + "}")
            elif isinstance(ev, Carton):
                self.running[ev.team] += ev.points
                self.cartons.append(ev)
                if len(self.cartons) == 2:
                    a, b = self.cartons
                    self.cartons = []
                    self.comment_line(
                        f"cartón {a.cards}-{b.cards}: +{a.points} +{b.points}: {self.score_text()}"
                    )
            elif isinstance(ev, ChicaWon):
                self.comment_line(f"chica {ev.chica + 1} to team {ev.team}: {_pair(ev.scores)}")
                self.running = [0, 0]
            elif isinstance(ev, Zapatero):
                word = "platillo" if ev.platillo else "zapatero"
                self.comment_line(f"team {ev.team} {word} with {ev.points}")
            elif isinstance(ev, MesaWon):
                self.comment_line(f"mesa to team {ev.team}: chicas {_pair(ev.chicas)}")
            elif isinstance(ev, Deal):
                self.flush()
                if ev.deal == 0:
                    self.comment_line(f"hand {ev.hand + 1}, dealer {ev.dealer}")

    def action(self, first: int, turn: int, action: Action, after_claim: bool) -> None:
        """Write an action; a new round number when the deal's first seat begins its turn."""
        if not after_claim and (turn == first or self.number == 0 or not self.cur):
            self.number += 1
            self.cur.append(f"{self.number}.")
        self.cur.append(str(action))


def _movetext(record: GameRecord, comments: bool) -> list[str]:
    try:
        game = _start_game(record.rules, record.seed, record.start)
    except RecordError:
        return _raw_lines(record.actions)
    writer = _Writer(record.players, comments, (0, 0) if record.start is None else game.score)
    writer.events(game.events)
    after_claim = False
    for i, action in enumerate(record.actions):
        before = len(game.events)
        first, turn = (game.dealer + 1) % record.players, game.turn
        try:
            game.play(action)
        except IllegalMoveError as exc:
            writer.comment_line(
                f"the moves below do not replay: {str(exc).replace('{', '(').replace('}', ')')}"
            )
            writer.flush()
            writer.lines += _raw_lines(record.actions[i:])
            break
        writer.action(first, turn, action, after_claim)
        writer.events(game.events[before:])
        after_claim = isinstance(action, Claim)
    writer.flush()
    return writer.lines


def _raw_lines(actions: Sequence[Action]) -> list[str]:
    texts = [str(a) for a in actions]
    return [" ".join(texts[i : i + 10]) for i in range(0, len(texts), 10)]
