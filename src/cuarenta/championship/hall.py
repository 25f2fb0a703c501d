"""The hall score sheet: the Juez de Aguas keeps a table's score on a phone (issue 19).

At a championship played with real cards in a hall (seed 002), the judge of each table taps what
happened — a caída, a limpia, a ronda, the second deal, the cartón at the end of the hand, a misdeal
— and :class:`HallSheet` keeps the score exactly as the engine (:class:`~cuarenta.Game`) keeps it,
asking :class:`~cuarenta.Rules` for every point (R13–R26): the sheet computes no rule of its own.

An entry is an immutable value (:class:`Entry` and its kinds, ``to_dict()`` and
:func:`entry_from_dict`); :meth:`HallSheet.tap` applies one and returns what it scored
(:class:`Scored`), :meth:`HallSheet.undo` takes the last one back. An entry the rules forbid is
refused with a :class:`HallError` saying why, and the sheet is unchanged.
docs/championships.md ("At the hall") says which choices the sheet makes where the rules leave them open.

>>> from cuarenta import Rules
>>> from cuarenta.championship.hall import Caida, Carton, HallSheet, NewDeal, Ronda
>>> sheet = HallSheet(Rules.preset("campeonato"), dealer=0)
>>> sheet.tap(Ronda(seat=1)).points
(0, 2)
>>> sheet.tap(Caida(seat=2)).points
(2, 0)
>>> sheet.tap(NewDeal()).chica is None
True
>>> sheet.tap(Carton(cards=(23, 15), leftovers=2)).points
(10, 0)
>>> sheet.scores, sheet.hand, sheet.deal, sheet.dealer
((12, 2), 1, 0, 1)
>>> sheet.tap(Carton(cards=(23, 15), leftovers=2))
Traceback (most recent call last):
...
cuarenta.championship.hall.HallError: the cartón is counted at the end of the hand, in deal 2 of 2: ...
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar, Final, NamedTuple

from cuarenta.cards import NUM_CARDS
from cuarenta.championship.values import kind_dict
from cuarenta.errors import CuarentaError, RulesError, brief, clip
from cuarenta.results import ChicaResult, Outcome
from cuarenta.rules import Rules, Streak

#: 002 §2.12 "cartas mal repartidas": the other pair gets a perro and the deal passes ("pasa la mano con 10").
MISDEAL_POINTS: Final = 10
#: 000 "error ajeno": an error of procedure by a team gives the other team a tanto (2 points).
PROCEDURE_POINTS: Final = 2
#: The highest seat of any table (4 players); a table of 2 has seats 0 and 1 only.
MAX_SEAT: Final = 3

SHEET_FORMAT: Final = "cuarenta-hall-sheet"
SHEET_FORMAT_VERSION: Final = 1


class HallError(CuarentaError, ValueError):
    """An entry the sheet refuses (the rules forbid it, or it is malformed); the sheet is unchanged."""

    default_code = "hall"


def _check_seat(value: object, last: int) -> int:
    if type(value) is not int or not 0 <= value <= last:
        raise HallError.of("hall_seat", value=brief(value), last=last)
    return value


def _check_team(value: object) -> int:
    if type(value) is not int or value not in (0, 1):
        raise HallError.of("hall_team", value=brief(value))
    return value


# -- entries --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Entry:
    """Base class of what the judge taps; each kind checks its own fields when it is made."""

    kind: ClassVar[str] = "entry"

    def to_dict(self) -> dict[str, Any]:
        """``{"kind": ..., field: value ...}``, JSON-ready (:func:`entry_from_dict` reads it back)."""
        return kind_dict(self)


@dataclass(frozen=True)
class _SeatEntry(Entry):
    seat: int  #: the seat that did it (0..3; 0..1 with 2 players)

    def __post_init__(self) -> None:
        _check_seat(self.seat, MAX_SEAT)

    @property
    def team(self) -> int:
        """R3: the seat's team (seats 0 and 2 are team 0)."""
        return self.seat % 2


@dataclass(frozen=True)
class _TeamEntry(Entry):
    team: int  #: 0 or 1

    def __post_init__(self) -> None:
        _check_team(self.team)


@dataclass(frozen=True)
class Caida(_SeatEntry):
    """R13: ``seat`` took by igualdad the card the seat before it just dropped (that seat is the victim)."""

    kind: ClassVar[str] = "caida"


@dataclass(frozen=True)
class Limpia(_TeamEntry):
    """R14: a player of ``team`` took every card on the table (without a caída)."""

    kind: ClassVar[str] = "limpia"


@dataclass(frozen=True)
class CaidaLimpia(_SeatEntry):
    """R15: a caída by ``seat`` that also left the table empty."""

    kind: ClassVar[str] = "caida_limpia"


@dataclass(frozen=True)
class CaidaRonda(_SeatEntry):
    """R18: a caída by ``seat`` on a card of the ronda announced by the seat before it (``limpia``: and
    the table left empty)."""

    kind: ClassVar[str] = "caida_ronda"
    limpia: bool = False

    def __post_init__(self) -> None:
        super().__post_init__()
        if type(self.limpia) is not bool:
            raise HallError.of("hall_limpia_flag", value=brief(self.limpia))


@dataclass(frozen=True)
class Ronda(_SeatEntry):
    """R16: ``seat`` was dealt three cards of one rank (tapped right after the deal)."""

    kind: ClassVar[str] = "ronda"


@dataclass(frozen=True)
class FourOfAKind(_SeatEntry):
    """R17: ``seat`` was dealt four cards of one rank: it wins the chica, or scores like a ronda."""

    kind: ClassVar[str] = "four_of_a_kind"


@dataclass(frozen=True)
class CuatroCaidas(_TeamEntry):
    """R21: ``team`` made four caídas in a row in this hand and wins the chica (``cuatro_caidas_gana``)."""

    kind: ClassVar[str] = "cuatro_caidas"


@dataclass(frozen=True)
class Carton(Entry):
    """R22, R23: the hand's end: the cards in each team's pile and the leftovers on the table (40 in all)."""

    kind: ClassVar[str] = "carton"
    cards: tuple[int, int]
    leftovers: int = 0

    def __post_init__(self) -> None:
        cards = self.cards
        if (
            type(cards) is not tuple
            or len(cards) != 2
            or not all(type(c) is int and c >= 0 for c in cards)
            or type(self.leftovers) is not int
            or self.leftovers < 0
        ):
            raise HallError.of("hall_carton_counts", cards=brief(cards), leftovers=brief(self.leftovers))
        total = cards[0] + cards[1] + self.leftovers
        if total != NUM_CARDS:
            raise HallError.of(
                "hall_carton_total", cards=f"{cards[0]} + {cards[1]}", leftovers=self.leftovers, total=total
            )


@dataclass(frozen=True)
class Misdeal(_TeamEntry):
    """002 §2.12: ``team`` (the dealer's) dealt wrong: 10 points to the other pair and the deal passes."""

    kind: ClassVar[str] = "misdeal"


@dataclass(frozen=True)
class Procedure(_TeamEntry):
    """000 "error ajeno": a player of ``team`` made an error of procedure: 2 points to the other team."""

    kind: ClassVar[str] = "procedure"


@dataclass(frozen=True)
class NewDeal(Entry):
    """R5: the next deal of five cards each in this hand (the second of two with 4 players)."""

    kind: ClassVar[str] = "new_deal"


@dataclass(frozen=True)
class FirstDealer(_SeatEntry):
    """002 §2.4: the draw the judge held gave ``seat`` the first deal; the sheet's first entry only (a
    sheet made without it has the dealer it was made with)."""

    kind: ClassVar[str] = "first_dealer"


#: Every kind of entry by its ``kind``.
ENTRY_CLASSES: Final[dict[str, type[Entry]]] = {
    cls.kind: cls
    for cls in (
        Caida,
        Limpia,
        CaidaLimpia,
        CaidaRonda,
        Ronda,
        FourOfAKind,
        CuatroCaidas,
        Carton,
        Misdeal,
        Procedure,
        NewDeal,
        FirstDealer,
    )
}


def entry_from_dict(data: object) -> Entry:
    """The entry written by :meth:`Entry.to_dict`; anything else raises :class:`HallError` saying why.

    >>> entry_from_dict({"kind": "caida_ronda", "seat": 3, "limpia": True})
    CaidaRonda(seat=3, limpia=True)
    >>> entry_from_dict({"kind": "caida", "seat": 4})
    Traceback (most recent call last):
    ...
    cuarenta.championship.hall.HallError: not a hall entry in the form Entry.to_dict writes: seat 4 is not ...
    """
    if not isinstance(data, dict):
        raise HallError.of(
            "hall_entry_malformed", reason=HallError.of("hall_not_object", type=type(data).__name__)
        )
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in ENTRY_CLASSES:
        reason = HallError.of("hall_entry_kind", kind=brief(kind), kinds=", ".join(ENTRY_CLASSES))
        raise HallError.of("hall_entry_malformed", reason=reason)
    cls = ENTRY_CLASSES[kind]
    fields = dataclasses.fields(cls)
    names = [f.name for f in fields]
    extra = sorted(brief(k) for k in data if k != "kind" and k not in names)
    if extra:
        reason = HallError.of(
            "hall_entry_keys", kind=kind, keys=clip(", ".join(extra)), valid=", ".join(names)
        )
        raise HallError.of("hall_entry_malformed", reason=reason)
    for f in fields:
        if f.name not in data and f.default is dataclasses.MISSING:
            raise HallError.of("hall_entry_malformed", reason=HallError.of("hall_entry_missing", key=f.name))
    values = {
        n: tuple(data[n]) if n == "cards" and type(data[n]) is list else data[n] for n in names if n in data
    }
    try:
        return cls(**values)
    except HallError as exc:
        raise HallError.of("hall_entry_malformed", reason=exc) from None


# -- what a tap did -------------------------------------------------------------------------------------
class Marks(NamedTuple):
    """Points as the judge hands them out: perros (10 points) and tantos (2 points)."""

    perros: int
    tantos: int


class ZapateroMark(NamedTuple):
    """R25: the team that lost chica ``chica`` (0 for the first) with fewer than 10 points (0: platillo)."""

    chica: int
    team: int
    points: int
    platillo: bool


@dataclass(frozen=True)
class Scored:
    """What one tap did: the points it gave each team, why the rules cut them, and what it ended."""

    entry: Entry
    points: tuple[int, int]  #: points added to each team (after R19/R20)
    #: per team: ``"treinta_y_ocho"`` (R20) or ``"ronda_limit"`` (R19) when the rules cut its points
    notes: tuple[str | None, str | None]
    chica: ChicaResult | None  #: the chica this tap ended
    mesa: Outcome | None  #: the mesa this tap ended
    #: the team whose four caídas in a row (R21) just won the chica: the sheet waits for its tap
    cuatro_caidas_due: int | None


@dataclass
class _State:
    """Everything the sheet knows (all fields immutable values: a shallow copy is a snapshot)."""

    dealer: int
    scores: tuple[int, int] = (0, 0)
    chicas: tuple[int, int] = (0, 0)
    results: tuple[ChicaResult, ...] = ()
    zapateros: tuple[ZapateroMark, ...] = ()
    hand: int = 0
    deal: int = 0
    streak: Streak = (-1, 0, ())
    rondas: tuple[int, ...] = ()  #: seats with a ronda or four of a kind in this deal, as tapped
    played: bool = False  #: a caída or limpia was tapped in this deal (no more rondas)
    due: int | None = None  #: a team whose four caídas won the chica, until its cuatro_caidas tap
    outcome: Outcome | None = None


# -- the sheet --------------------------------------------------------------------------------------------
class HallSheet:
    """The score sheet of one table: ``rules`` of the championship and the seat who deals first.

    The dealer comes from the draw the judge held (002 §2.4); afterwards the deal passes to the right
    (seat + 1) after every hand, as in :class:`~cuarenta.Game`.
    """

    def __init__(self, rules: Rules, dealer: int) -> None:
        if not isinstance(rules, Rules):
            raise RulesError.of("not_rules", value=type(rules).__name__)
        self.rules: Final = rules
        _check_seat(dealer, rules.players - 1)
        self._state = _State(dealer=dealer)
        self._history: list[tuple[Entry, _State]] = []

    # -- the state ----------------------------------------------------------------------------------
    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def scores(self) -> tuple[int, int]:
        """Each team's points in this chica."""
        return self._state.scores

    @property
    def chicas(self) -> tuple[int, int]:
        """Chicas each team has won in this mesa."""
        return self._state.chicas

    @property
    def chica_results(self) -> tuple[ChicaResult, ...]:
        """How each finished chica ended (as :attr:`cuarenta.Game.chica_results`)."""
        return self._state.results

    @property
    def zapatero(self) -> tuple[ZapateroMark, ...]:
        """R25: every chica lost with fewer than 10 points, in order."""
        return self._state.zapateros

    @property
    def hand(self) -> int:
        """Hands dealt in this mesa before the current one (as :attr:`cuarenta.Game.hand_number`)."""
        return self._state.hand

    @property
    def deal(self) -> int:
        """0 for the first deal of the hand, up to ``rules.deals_per_hand - 1``."""
        return self._state.deal

    @property
    def dealer(self) -> int:
        """The seat who deals the current hand."""
        return self._state.dealer

    @property
    def streak(self) -> Streak:
        """R21's running state in this hand: (team or -1, caídas in a row, the seats fallen on)."""
        return self._state.streak

    @property
    def rondas(self) -> tuple[int, ...]:
        """The seats with a ronda (or four of a kind) tapped in this deal."""
        return self._state.rondas

    @property
    def cuatro_caidas_due(self) -> int | None:
        """The team whose four caídas in a row won the chica, until the judge taps it (R21)."""
        return self._state.due

    @property
    def outcome(self) -> Outcome | None:
        """``None`` until the mesa is won."""
        return self._state.outcome

    @property
    def finished(self) -> bool:
        """The mesa is over (a team won ``rules.chicas`` chicas, or R25 with ``zapatero_wins_mesa``)."""
        return self._state.outcome is not None

    @property
    def winner(self) -> int | None:
        """The team that won the mesa, or ``None``."""
        return None if self._state.outcome is None else self._state.outcome.winner

    @property
    def entries(self) -> tuple[Entry, ...]:
        """Every entry tapped (and not undone), in order."""
        return tuple(e for e, _ in self._history)

    @staticmethod
    def tantos_perros(score: int) -> Marks:
        """A score as perros (10) and tantos (2), as the judge hands them out (seed 002 §2.15).

        The same count as :func:`cuarenta.i18n.tantos_perros`, which this layer may not import.

        >>> HallSheet.tantos_perros(26), HallSheet.tantos_perros(40)
        (Marks(perros=2, tantos=3), Marks(perros=4, tantos=0))
        """
        if type(score) is not int or score < 0:
            raise HallError.of("hall_points", value=brief(score))
        return Marks(score // 10, (score % 10) // 2)

    def snapshot(self) -> dict[str, Any]:
        """The whole state as JSON-ready data (for a display, and for checks)."""
        st = self._state
        return {
            "scores": list(st.scores),
            "chicas": list(st.chicas),
            "chica_results": [r.to_dict() for r in st.results],
            "zapatero": [z._asdict() for z in st.zapateros],
            "hand": st.hand,
            "deal": st.deal,
            "dealer": st.dealer,
            "streak": [st.streak[0], st.streak[1], list(st.streak[2])],
            "rondas": list(st.rondas),
            "played": st.played,
            "cuatro_caidas_due": st.due,
            "outcome": None if st.outcome is None else st.outcome.to_dict(),
            "finished": self.finished,
            "entries": len(self._history),
        }

    # -- taps ----------------------------------------------------------------------------------------
    def tap(self, entry: Entry) -> Scored:
        """Apply one entry and say what it scored; a refused entry raises :class:`HallError` and changes
        nothing."""
        if not isinstance(entry, Entry) or type(entry) not in _APPLY:
            raise HallError.of("hall_not_an_entry", value=brief(entry))
        if isinstance(entry, FirstDealer) and self._history:
            raise HallError.of("hall_first_dealer_late", entries=len(self._history))
        before = self._state
        st = dataclasses.replace(before)
        step = _Step(self.rules, st)
        _APPLY[type(entry)](step, entry)
        self._history.append((entry, before))
        self._state = st
        chica = st.results[-1] if len(st.results) > len(before.results) else None
        return Scored(
            entry,
            (step.points[0], step.points[1]),
            (step.notes[0], step.notes[1]),
            chica,
            st.outcome,
            st.due,
        )

    def undo(self) -> Entry:
        """Take back the last entry and return it (the sheet is exactly as before it was tapped)."""
        if not self._history:
            raise HallError.of("hall_nothing_to_undo")
        entry, self._state = self._history.pop()
        return entry

    # -- saving --------------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The rules, the first dealer and every entry: :meth:`from_dict` taps them again."""
        return {
            "format": SHEET_FORMAT,
            "version": SHEET_FORMAT_VERSION,
            "rules": self.rules.to_dict(),
            "dealer": self._history[0][1].dealer if self._history else self._state.dealer,
            "entries": [e.to_dict() for e in self.entries],
        }

    @classmethod
    def from_dict(cls, data: object) -> HallSheet:
        """A sheet written by :meth:`to_dict`, every entry tapped again (:class:`HallError` if one is
        refused).

        >>> sheet = HallSheet(Rules.preset("campeonato"), dealer=3)
        >>> _ = sheet.tap(Caida(seat=1))
        >>> HallSheet.from_dict(sheet.to_dict()).snapshot() == sheet.snapshot()
        True
        """
        if not isinstance(data, dict):
            raise HallError.of(
                "hall_sheet_malformed", reason=HallError.of("hall_not_object", type=type(data).__name__)
            )
        if data.get("format") != SHEET_FORMAT or data.get("version") != SHEET_FORMAT_VERSION:
            raise HallError.of(
                "hall_sheet_format",
                format=brief(data.get("format")),
                version=brief(data.get("version")),
                expected=f"{SHEET_FORMAT} {SHEET_FORMAT_VERSION}",
            )
        entries = data.get("entries")
        if not isinstance(entries, list):
            raise HallError.of(
                "hall_sheet_malformed", reason=HallError.of("hall_sheet_entries", value=brief(entries))
            )
        try:
            rules = Rules.from_dict(data.get("rules"))  # type: ignore[arg-type]
            sheet = cls(rules, data.get("dealer"))  # type: ignore[arg-type]
        except (RulesError, HallError) as exc:
            raise HallError.of("hall_sheet_malformed", reason=exc) from None
        for i, item in enumerate(entries):
            try:
                sheet.tap(entry_from_dict(item))
            except HallError as exc:
                raise HallError.of("hall_sheet_entry", number=i + 1, reason=exc) from None
        return sheet

    def __repr__(self) -> str:
        st = self._state
        return (
            f"<HallSheet {self.rules.preset_name} players={self.players} scores={st.scores} "
            f"chicas={st.chicas} hand={st.hand} deal={st.deal} dealer={st.dealer}>"
        )


# -- applying an entry (every point from Rules) ----------------------------------------------------------
class _Step:
    """One tap applied to a copy of the state: refused (HallError) before the copy is kept, or kept whole."""

    def __init__(self, rules: Rules, st: _State) -> None:
        self.rules = rules
        self.st = st
        self.points = [0, 0]
        self.notes: list[str | None] = [None, None]

    # -- checks shared by the kinds
    def open(self, entry: Entry) -> None:
        """Refuse any entry after the mesa, and any but the due cuatro caídas while they wait."""
        st = self.st
        if st.outcome is not None:
            raise HallError.of("hall_mesa_over")
        if st.due is not None and not (isinstance(entry, CuatroCaidas) and entry.team == st.due):
            raise HallError.of("hall_cuatro_caidas_due", team=st.due)
        if isinstance(entry, _SeatEntry):
            _check_seat(entry.seat, self.rules.players - 1)

    # -- scores and ends (R24–R26), as Game._add, _check_end, _end_chica and _new_hand
    def add(self, team: int, points: int, note: str | None) -> None:
        s = list(self.st.scores)
        s[team] += points
        self.st.scores = (s[0], s[1])
        self.points[team] += points
        self.notes[team] = note or self.notes[team]

    def check_end(self) -> bool:
        rules, st = self.rules, self.st
        winner = rules.zapatero_winner(st.scores)
        if winner is not None:
            self.end_chica(winner, "zapatero")
            return True
        winner = rules.chica_winner(st.scores, rules.team_of(st.dealer))
        if winner is not None:
            self.end_chica(winner, "target")
            return True
        return False

    def end_chica(self, winner: int, reason: str) -> None:
        rules, st = self.rules, self.st
        lost_with = st.scores[1 - winner]
        zapatero = rules.is_zapatero(lost_with)
        if zapatero:
            st.zapateros = (
                *st.zapateros,
                ZapateroMark(len(st.results), 1 - winner, lost_with, lost_with == 0),
            )
        st.results = (
            *st.results,
            ChicaResult(winner, st.scores, reason, zapatero, zapatero and lost_with == 0),
        )
        chicas = list(st.chicas)
        chicas[winner] += 1
        st.chicas = (chicas[0], chicas[1])
        st.due = None
        mesa = "zapatero" if reason == "zapatero" else "chicas" if chicas[winner] >= rules.chicas else None
        if mesa is not None:
            st.outcome = Outcome(winner, st.chicas, mesa)
            st.rondas, st.played = (), False
            return
        st.scores = (0, 0)
        self.next_hand()

    def next_hand(self) -> None:
        st = self.st
        st.hand += 1
        st.dealer = (st.dealer + 1) % self.rules.players
        st.deal = 0
        st.rondas, st.played = (), False
        st.streak, st.due = (-1, 0, ()), None

    # -- the kinds
    def capture(self, seat: int, *, limpia: bool, ronda_caida: bool = False) -> None:
        """A caída by ``seat`` (R13, R15, R18–R21); the seat before it dropped the card."""
        rules, st = self.rules, self.st
        team = rules.team_of(seat)
        score = rules.capture_score(st.scores[team], caida=True, limpia=limpia, ronda_caida=ronda_caida)
        st.played = True
        self.add(team, score.points, score.note)
        if self.check_end():
            return
        st.streak, wins = rules.caida_streak(st.streak, team, (seat - 1) % rules.players)
        if wins:
            st.due = team

    def caida(self, entry: Caida) -> None:
        self.open(entry)
        self.capture(entry.seat, limpia=False)

    def caida_limpia(self, entry: CaidaLimpia) -> None:
        self.open(entry)
        self.capture(entry.seat, limpia=True)

    def caida_ronda(self, entry: CaidaRonda) -> None:
        self.open(entry)
        if not self.rules.caida_ronda_points:
            raise HallError.of("hall_caida_ronda_off")
        victim = (entry.seat - 1) % self.rules.players
        if victim not in self.st.rondas:
            raise HallError.of("hall_caida_ronda_no_ronda", seat=entry.seat, victim=victim)
        self.capture(entry.seat, limpia=entry.limpia, ronda_caida=True)

    def limpia(self, entry: Limpia) -> None:
        """R14; R20: a limpia alone gives a pair at 38 nothing, so it is refused (a mistaken tap)."""
        self.open(entry)
        st = self.st
        score = self.rules.capture_score(st.scores[entry.team], caida=False, limpia=True)
        if score.note == "treinta_y_ocho":
            raise HallError.of("hall_limpia_at_38", team=entry.team, score=st.scores[entry.team])
        st.played = True
        self.add(entry.team, score.points, score.note)
        self.check_end()

    def ronda(self, entry: Ronda | FourOfAKind) -> None:
        self.open(entry)
        rules, st = self.rules, self.st
        seat = entry.seat
        if st.played:
            raise HallError.of("hall_ronda_after_play", seat=seat)
        if seat in st.rondas:
            raise HallError.of("hall_ronda_twice", seat=seat)
        first = (st.dealer + 1) % rules.players  # R6, R17: rondas count in playing order from here

        def turn(s: int) -> int:
            return (s - first) % rules.players

        if st.rondas and turn(seat) < turn(st.rondas[-1]):
            raise HallError.of("hall_ronda_order", seat=seat, last=st.rondas[-1], first=first)
        st.rondas = (*st.rondas, seat)
        team = rules.team_of(seat)
        four = isinstance(entry, FourOfAKind)
        if four and rules.four_of_a_kind == "wins_chica":
            self.end_chica(team, "four_of_a_kind")
            return
        points, note = rules.ronda_score(st.scores[team], four=four)
        self.add(team, points, note)
        self.check_end()

    def cuatro_caidas(self, entry: CuatroCaidas) -> None:
        self.open(entry)
        rules, st = self.rules, self.st
        if not rules.cuatro_caidas_gana:
            raise HallError.of("hall_cuatro_caidas_off")
        if st.due != entry.team:
            count = st.streak[1] if st.streak[0] == entry.team else 0
            raise HallError.of("hall_cuatro_caidas_not_made", team=entry.team, count=count)
        self.end_chica(entry.team, "cuatro_caidas")

    def carton(self, entry: Carton) -> None:
        self.open(entry)
        rules, st = self.rules, self.st
        last = rules.deals_per_hand - 1
        if st.deal != last:
            raise HallError.of("hall_carton_early", deal=st.deal + 1, deals=last + 1)
        nominal = rules.carton(entry.cards, rules.team_of(st.dealer))
        for team in (0, 1):
            points, note = rules.award(st.scores[team], nominal[team][0], caida=False)
            self.add(team, points, note)
        if not self.check_end():
            self.next_hand()

    def misdeal(self, entry: Misdeal) -> None:
        self.open(entry)
        rules, st = self.rules, self.st
        dealt = rules.team_of(st.dealer)
        if entry.team != dealt:
            raise HallError.of(
                "hall_misdeal_not_dealer", team=entry.team, dealer=st.dealer, dealer_team=dealt
            )
        other = 1 - entry.team
        points, note = rules.award(st.scores[other], MISDEAL_POINTS, caida=False)
        self.add(other, points, note)
        if not self.check_end():
            self.next_hand()

    def procedure(self, entry: Procedure) -> None:
        self.open(entry)
        other = 1 - entry.team
        score = self.st.scores[other]
        points, note = self.rules.award(score, PROCEDURE_POINTS, caida=False)
        if note == "treinta_y_ocho":
            raise HallError.of("hall_procedure_at_38", team=other, score=score)
        self.add(other, points, note)
        self.check_end()

    def new_deal(self, entry: NewDeal) -> None:
        self.open(entry)
        rules, st = self.rules, self.st
        if st.deal >= rules.deals_per_hand - 1:
            raise HallError.of("hall_new_deal_last", deal=st.deal + 1, deals=rules.deals_per_hand)
        st.deal += 1
        st.rondas, st.played = (), False

    def first_dealer(self, entry: FirstDealer) -> None:
        self.open(entry)  # (HallSheet.tap refused it after another entry)
        self.st.dealer = entry.seat


_APPLY: Final[dict[type[Entry], Any]] = {
    Caida: _Step.caida,
    CaidaLimpia: _Step.caida_limpia,
    CaidaRonda: _Step.caida_ronda,
    Limpia: _Step.limpia,
    Ronda: _Step.ronda,
    FourOfAKind: _Step.ronda,
    CuatroCaidas: _Step.cuatro_caidas,
    Carton: _Step.carton,
    Misdeal: _Step.misdeal,
    Procedure: _Step.procedure,
    NewDeal: _Step.new_deal,
    FirstDealer: _Step.first_dealer,
}

__all__ = [
    "ENTRY_CLASSES",
    "MISDEAL_POINTS",
    "PROCEDURE_POINTS",
    "Caida",
    "CaidaLimpia",
    "CaidaRonda",
    "Carton",
    "CuatroCaidas",
    "Entry",
    "FirstDealer",
    "FourOfAKind",
    "HallError",
    "HallSheet",
    "Limpia",
    "Marks",
    "Misdeal",
    "NewDeal",
    "Procedure",
    "Ronda",
    "Scored",
    "ZapateroMark",
    "entry_from_dict",
]
