"""The game told in words, Spanish or English: names, points, event descriptions, sayings and narration.

This module holds no text: every word comes from the one text catalogue,
``cuarenta/locale/<lang>/*.json`` (:mod:`cuarenta.catalogue`), which the web
server also serves to the page. Here is what turns the engine's cards, scores and
events into sentences with those texts, and the rules of which traditional saying
fits an event. Everything returns strings and prints nothing, so the terminal
game, the demo and the web server share one set of words and one choice of
sayings. Two languages are supported, ``"es"`` (the default; the game's own words)
and ``"en"``, which keeps the Spanish terms of the game (caída, limpia, cartón …).

>>> t("points.for", "es", points=4, team="Jugador 2")
'+4 para Jugador 2'
>>> tantos_perros(14), points_text(14, "es")
((1, 2), '14 = 1 perro y 2 tantos')

Events are described for people, with seats named ``Jugador 1`` … (``Player 1``
… in English) and teams ``Equipo A``/``Equipo B`` — or the two players' names in
a game of two:

>>> from cuarenta import Card
>>> from cuarenta.events import Caida
>>> describe_event(Caida(seat=1, team=1, card=Card("5s"), victim=0, points=2), "es")
'¡Caída! Jugador 2 le cae al 5♠ de Jugador 1: +2 para Jugador 2.'

The traditional sayings (seed 000, "Dichos del cuarenta") are attached to the
events they fit, by key; the sayings are Spanish in every language, and in
English a saying comes with a short gloss:

>>> caida = Caida(seat=1, team=1, card=Card("3s"), victim=0, points=2)
>>> saying_keys(caida)
['mosero']
>>> saying_for(caida, lang="es") == t("saying.mosero", "es")
True
>>> saying_for(caida, lang="en").startswith("“¡Mosero!” (")
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from cuarenta import catalogue
from cuarenta.cards import CARDS, NUM_CARDS, RANK_CHARS, SUIT_CHARS, Card
from cuarenta.catalogue import DEFAULT_LANG, LANGS, check_lang, placeholders
from cuarenta.events import (
    Caida,
    CaidaLimpia,
    CaidaRonda,
    Carton,
    ChicaWon,
    ClaimMade,
    Deal,
    DealerDraw,
    Event,
    FourOfAKind,
    HandEnd,
    Limpia,
    MesaWon,
    Play,
    Ronda,
    Zapatero,
)
from cuarenta.game import Game
from cuarenta.moves import Move
from cuarenta.rules import Rules

#: A caída or limpia that takes at least this many table cards is a *capariche*.
CAPARICHE_CARDS: Final = 5
#: The language of the sayings: said as they are in it, with a gloss in any other.
SAYINGS_LANG: Final = "es"
#: Every saying, by key (its words are ``saying.<key>`` of the catalogue, its gloss ``saying.<key>.gloss``).
SAYING_KEYS: Final = (
    "dos_por_guapo",
    "nobleza",
    "mosero",
    "cuatrero",
    "la_muda",
    "joto",
    "q_lo_que_caiga",
    "capariche",
    "as_que_no_caeras",
    "voy_llucho",
    "marido_tiene",
    "treinta_y_ocho",
    "zapatero",
    "platillo",
)
#: Card ranks whose caída has its own saying.
CAIDA_SAYINGS: Final[dict[str, str]] = {
    "2": "nobleza",
    "3": "mosero",
    "4": "cuatrero",
    "6": "la_muda",
    "J": "joto",
    "Q": "q_lo_que_caiga",
}


def t(key: str, lang: str = DEFAULT_LANG, **kw: object) -> str:
    """The catalogue's message ``key`` in ``lang``, with ``{placeholders}`` filled from ``kw``.

    >>> t("name.seat", "en", n=3)
    'Player 3'

    An unknown key raises ``KeyError``; an unknown language ``ValueError``.
    """
    return catalogue.text(key, lang, **kw)


# -- names ----------------------------------------------------------------------------------------
def rank_name(rank: int | str, lang: str = DEFAULT_LANG, plural: bool = False) -> str:
    """Name of a rank (index 0..9 or character ``"A"`` … ``"K"``).

    >>> rank_name("Q", "es"), rank_name(0, "en", plural=True)
    ('reina', 'aces')
    """
    char = rank if isinstance(rank, str) else RANK_CHARS[rank]
    if char not in RANK_CHARS:
        raise ValueError(f"{rank!r} is not a rank: the ranks are {' '.join(RANK_CHARS)}")
    return t(f"rank.{char}.plural" if plural else f"rank.{char}", lang)


def suit_name(suit: int, lang: str = DEFAULT_LANG) -> str:
    """Name of a suit index 0..3 (h s d c).

    >>> suit_name(2, "es")
    'brillo'
    """
    return t(f"suit.{SUIT_CHARS[suit]}", lang)


def card_name(card: Card | int, lang: str = DEFAULT_LANG) -> str:
    """The card in words.

    >>> card_name(Card("7d"), "es"), card_name(Card("Qh"), "en")
    ('siete de brillo', 'queen of hearts')
    """
    c = CARDS[int(card)]
    return t("card.name", lang, rank=rank_name(c.rank, lang), suit=suit_name(c.suit, lang))


def card_text(card: Card | int) -> str:
    """The card as shown in texts: rank and suit symbol, ``"7♦"``."""
    return CARDS[int(card)].symbol()


def cards_text(cards: Iterable[Card | int], sep: str = " ") -> str:
    """Several cards as shown in texts: ``"3♣ 4♦"``."""
    return sep.join(card_text(c) for c in cards)


def event_name(kind: str, lang: str = DEFAULT_LANG) -> str:
    """Name of an event kind (``Event.kind``), e.g. ``"caida_limpia"`` → ``"caída y limpia"``."""
    return t(f"kind.{kind}", lang)


def seat_names(players: int, lang: str = DEFAULT_LANG) -> list[str]:
    """Default seat names: ``["Jugador 1", "Jugador 2"]`` …

    >>> seat_names(4, "en")
    ['Player 1', 'Player 2', 'Player 3', 'Player 4']
    """
    return [t("name.seat", lang, n=i + 1) for i in range(players)]


_default_seat_names = seat_names  # describe_event's parameter shadows the name


def team_names(seats: Sequence[str], lang: str = DEFAULT_LANG) -> list[str]:
    """Names of the two teams: the players themselves in a game of two, else ``Equipo A``/``B``.

    >>> team_names(["Ana", "Luis"]), team_names(seat_names(4), "es")
    (['Ana', 'Luis'], ['Equipo A', 'Equipo B'])
    """
    if len(seats) == 2:
        return list(seats)
    return [t("name.team", lang, letter=letter) for letter in "AB"]


# -- points ---------------------------------------------------------------------------------------
def tantos_perros(points: int) -> tuple[int, int]:
    """Points as (perros, tantos): a perro is 10 points, a tanto 2 (seed 000, "Forma de contabilización").

    Scores are always even; an odd remainder cannot be shown with tantos and is dropped.

    >>> tantos_perros(14), tantos_perros(40), tantos_perros(0)
    ((1, 2), (4, 0), (0, 0))
    """
    if points < 0:
        raise ValueError(f"points must not be negative, got {points}")
    return points // 10, (points % 10) // 2


def _count(key: str, n: int, lang: str) -> str:
    return t(f"{key}.one" if n == 1 else f"{key}.other", lang, n=n)


def points_text(points: int, lang: str = DEFAULT_LANG) -> str:
    """Points with their perros and tantos: ``"14 = 1 perro y 2 tantos"``.

    >>> points_text(10, "es"), points_text(4, "en"), points_text(0, "es")
    ('10 = 1 perro', '4 = 2 tantos', '0')
    """
    perros, tantos = tantos_perros(points)
    words = []
    if perros:
        words.append(_count("points.perros", perros, lang))
    if tantos:
        words.append(_count("points.tantos", tantos, lang))
    if not words:
        return str(points)
    return t("points.equal", lang, points=points, words=f" {t('word.and', lang)} ".join(words))


def score_text(scores: Sequence[int], lang: str = DEFAULT_LANG, teams: Sequence[str] | None = None) -> str:
    """The score of both teams: ``"Marcador: Jugador 1 14 = 1 perro y 2 tantos · Jugador 2 0"``."""
    names = list(teams) if teams is not None else team_names(seat_names(2, lang), lang)
    entries = [
        t("score.entry", lang, team=names[i], points=points_text(s, lang)) for i, s in enumerate(scores)
    ]
    return t("score.line", lang, scores=" · ".join(entries))


def note_text(note: str, lang: str = DEFAULT_LANG, caida: bool = False) -> str:
    """Why the rules reduced a score (an event's ``note``); ``caida`` for caídas."""
    if note in ("treinta_y_ocho", "ronda_limit"):
        return t(f"note.{note}.caida" if caida else f"note.{note}", lang)
    return t("note.generic", lang, note=note)


def _award_text(points: int, team: str, note: str | None, lang: str, caida: bool = False) -> str:
    text = t("points.for", lang, points=points, team=team) if points else t("points.none", lang)
    if note:
        text += f" ({note_text(note, lang, caida=caida)})"
    return text


# -- event descriptions ---------------------------------------------------------------------------
@dataclass(frozen=True)
class _Names:
    lang: str
    seats: list[str]
    teams: list[str]

    def seat(self, seat: int) -> str:
        return self.seats[seat] if 0 <= seat < len(self.seats) else str(seat + 1)

    def team(self, team: int) -> str:
        return self.teams[team]

    def victim_of(self, seat: int) -> str:
        """The seat that played just before ``seat``."""
        return self.seat((seat - 1) % len(self.seats))


def _variant(prefix: str, variant: str | None, default: str, lang: str) -> str:
    """The key ``prefix.variant`` if the catalogue has it, else ``prefix.default``."""
    key = f"{prefix}.{variant}"
    return key if variant is not None and key in catalogue.messages(lang) else f"{prefix}.{default}"


def _d_dealer_draw(e: DealerDraw, n: _Names) -> str:
    rounds = [
        t("word.list_sep", n.lang).join(
            t("ev.dealer_draw.card", n.lang, seat=n.seat(s), card=card_text(c)) for s, c in draw
        )
        for draw in e.draws
    ]
    return t(
        "ev.dealer_draw",
        n.lang,
        draws=t("ev.dealer_draw.again", n.lang).join(rounds),
        dealer=n.seat(e.dealer),
    )


def _d_deal(e: Deal, n: _Names) -> str:
    deals = NUM_CARDS // (5 * len(n.seats))
    return t("ev.deal", n.lang, hand=e.hand + 1, deal=e.deal + 1, deals=deals, dealer=n.seat(e.dealer))


def _d_ronda(e: Ronda, n: _Names) -> str:
    points = _award_text(e.points, n.team(e.team), e.note, n.lang)
    return t(
        "ev.ronda", n.lang, seat=n.seat(e.seat), rank=rank_name(e.rank, n.lang, plural=True), points=points
    )


def _d_four(e: FourOfAKind, n: _Names) -> str:
    rank = rank_name(e.rank, n.lang, plural=True)
    if e.wins_chica:
        return t("ev.four_of_a_kind.wins", n.lang, seat=n.seat(e.seat), rank=rank, team=n.team(e.team))
    points = _award_text(e.points, n.team(e.team), e.note, n.lang)
    return t("ev.four_of_a_kind.points", n.lang, seat=n.seat(e.seat), rank=rank, points=points)


def _d_play(e: Play, n: _Names) -> str:
    move = e.move
    seat, card = n.seat(e.seat), card_text(move.card)
    if not move.base:
        return t("ev.play.drop", n.lang, seat=seat, card=card)
    base = " + ".join(card_text(c) for c in move.base)
    if not move.run:
        return t("ev.play.take", n.lang, seat=seat, card=card, base=base)
    return t("ev.play.take_run", n.lang, seat=seat, card=card, base=base, run=cards_text(move.run))


def _d_caida(e: Caida | CaidaLimpia | CaidaRonda, n: _Names) -> str:
    points = _award_text(e.points, n.team(e.team), e.note, n.lang, caida=True)
    if isinstance(e, CaidaRonda):
        key = "ev.caida_ronda.limpia" if e.limpia else "ev.caida_ronda"
    else:
        key = f"ev.{e.kind}"
    return t(key, n.lang, seat=n.seat(e.seat), card=card_text(e.card), victim=n.seat(e.victim), points=points)


def _d_limpia(e: Limpia, n: _Names) -> str:
    points = _award_text(e.points, n.team(e.team), e.note, n.lang)
    return t("ev.limpia", n.lang, seat=n.seat(e.seat), points=points)


def _d_claim(e: ClaimMade, n: _Names) -> str:
    return t("ev.claim", n.lang, seat=n.seat(e.seat), cards=cards_text(e.cards), victim=n.victim_of(e.seat))


def _d_hand_end(e: HandEnd, n: _Names) -> str:
    piles = t("word.list_sep", n.lang).join(
        t("ev.hand_end.pile", n.lang, team=n.team(i), cards=size) for i, size in enumerate(e.pile_sizes)
    )
    if e.leftovers:
        leftovers = t("ev.hand_end.leftovers", n.lang, cards=cards_text(e.leftovers))
    else:
        leftovers = t("ev.hand_end.clean", n.lang)
    return t("ev.hand_end", n.lang, piles=piles, leftovers=leftovers)


def _d_carton(e: Carton, n: _Names) -> str:
    key = _variant("ev.carton", e.reason, "none", n.lang)
    points = _award_text(e.points, n.team(e.team), e.note, n.lang)
    return t(key, n.lang, team=n.team(e.team), cards=e.cards, points=points)


def _d_chica_won(e: ChicaWon, n: _Names) -> str:
    return t(
        _variant("ev.chica_won", e.reason, "target", n.lang),
        n.lang,
        team=n.team(e.team),
        chica=e.chica + 1,
        won=e.scores[e.team],
        lost=e.scores[1 - e.team],
    )


def _d_zapatero(e: Zapatero, n: _Names) -> str:
    if e.platillo:
        return t("ev.zapatero.platillo", n.lang, team=n.team(e.team))
    return t("ev.zapatero", n.lang, team=n.team(e.team), points=e.points)


def _d_mesa_won(e: MesaWon, n: _Names) -> str:
    return t(
        _variant("ev.mesa_won", e.reason, "chicas", n.lang),
        n.lang,
        team=n.team(e.team),
        won=e.chicas[e.team],
        lost=e.chicas[1 - e.team],
    )


#: What describes each kind of event, in order (the first whose classes the event is an instance of).
_DESCRIBERS: Final[tuple[tuple[type | tuple[type, ...], Callable[[Any, _Names], str | None]], ...]] = (
    (Play, _d_play),
    ((Caida, CaidaLimpia, CaidaRonda), _d_caida),
    (Limpia, _d_limpia),
    (Deal, _d_deal),
    (Ronda, _d_ronda),
    (FourOfAKind, _d_four),
    (ClaimMade, _d_claim),
    (HandEnd, _d_hand_end),
    (Carton, _d_carton),
    (ChicaWon, _d_chica_won),
    (Zapatero, _d_zapatero),
    (MesaWon, _d_mesa_won),
    (DealerDraw, _d_dealer_draw),
)


def _describe(event: Event, n: _Names) -> str | None:
    """The sentence of ``event`` by its kind (:data:`_DESCRIBERS`), or ``None`` for a kind not there."""
    for kinds, describe in _DESCRIBERS:
        if isinstance(event, kinds):
            return describe(event, n)
    return None


def describe_event(event: Event, lang: str = DEFAULT_LANG, seat_names: Sequence[str] | None = None) -> str:
    """One sentence telling what happened, in ``lang``.

    ``seat_names`` names the seats (and so tells how many players there are);
    by default ``Jugador 1`` … for two players (four if the event names a seat
    beyond the second). An event class this module does not know gets a
    generic sentence naming its kind. Teams are named
    after the players in a game of two, else ``Equipo A`` (seats 1 and 3) and
    ``Equipo B`` (seats 2 and 4).

    >>> from cuarenta.events import Ronda
    >>> describe_event(Ronda(seat=2, team=0, rank="5", points=2), "en", seat_names=None)
    'Ronda! Player 3 holds three fives: +2 for Team A.'
    """
    check_lang(lang)
    if not isinstance(event, Event):
        raise TypeError(f"{event!r} is not an Event")
    if seat_names is None:
        seat = getattr(event, "seat", 0)
        seats = _default_seat_names(4 if isinstance(seat, int) and seat >= 2 else 2, lang)
    else:
        seats = list(seat_names)
    text = _describe(event, _Names(lang, seats, team_names(seats, lang)))
    return t("ev.unknown", lang, kind=event.kind) if text is None else text


# -- sayings --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SayingContext:
    """What a saying needs to know beyond the event itself.

    ``move`` is the move that caused the event (for *capariche*), ``scores``
    the teams' scores right after it (for *treinta y ocho que no juega*),
    ``last_caida`` the (seat, victim) of the latest earlier caída in the hand
    (for *marido tiene*), and ``table_cleared`` whether the play before this
    one left the table empty with a limpia (for *voy llucho*).
    """

    players: int = 2
    move: Move | None = None
    scores: tuple[int, int] | None = None
    target: int = 40
    treinta_y_ocho: bool = False
    last_caida: tuple[int, int] | None = None
    table_cleared: bool = False

    @classmethod
    def for_rules(
        cls,
        rules: Rules,
        move: Move | None = None,
        scores: tuple[int, int] | None = None,
        last_caida: tuple[int, int] | None = None,
        table_cleared: bool = False,
    ) -> SayingContext:
        """A context with the rule options a saying depends on."""
        return cls(rules.players, move, scores, rules.target, rules.treinta_y_ocho, last_caida, table_cleared)


_CAIDAS: Final = (Caida, CaidaLimpia, CaidaRonda)


def _clears_table(event: Event) -> bool:
    return isinstance(event, Limpia | CaidaLimpia) or (isinstance(event, CaidaRonda) and event.limpia)


def _scored(event: Event) -> tuple[int, int] | None:
    """(team, points) of an event that adds points to a team's score, else ``None``."""
    points = getattr(event, "points", 0)
    team = getattr(event, "team", None)
    if isinstance(event, Zapatero | ChicaWon) or not isinstance(points, int) or not isinstance(team, int):
        return None
    return (team, points) if points > 0 else None


def saying_keys(event: Event, context: SayingContext | None = None) -> list[str]:
    """Keys of the sayings that fit the event, most fitting first (deterministic).

    >>> from cuarenta.events import Zapatero
    >>> saying_keys(Zapatero(team=1, points=0, platillo=True))
    ['platillo']
    >>> saying_keys(Play(seat=1, team=1, move=Move(Card("Ah"))), SayingContext(table_cleared=True))
    ['voy_llucho', 'as_que_no_caeras']
    """
    ctx = context or SayingContext()
    keys: list[str] = []
    if isinstance(event, Play):
        if not event.move.base:
            if ctx.table_cleared:
                keys.append("voy_llucho")
            if event.move.card.rank_char == "A":
                keys.append("as_que_no_caeras")
        return keys
    if isinstance(event, Zapatero):
        return ["platillo" if event.platillo else "zapatero"]
    if (
        isinstance(event, (*_CAIDAS, Limpia))
        and ctx.move is not None
        and len(ctx.move.taken) >= CAPARICHE_CARDS
    ):
        keys.append("capariche")
    if isinstance(event, _CAIDAS):
        key = CAIDA_SAYINGS.get(event.card.rank_char)
        if key:
            keys.append(key)
        last = ctx.last_caida
        if (
            ctx.players == 4
            and last is not None
            and last[0] == event.victim
            and last[1] == (event.seat + 2) % 4
        ):
            keys.append("marido_tiene")
    if isinstance(event, Ronda) and event.points > 0:
        keys.append("dos_por_guapo")
    scored = _scored(event)
    if (
        ctx.treinta_y_ocho
        and ctx.scores is not None
        and scored is not None
        and ctx.scores[scored[0]] == ctx.target - 2
    ):
        keys.append("treinta_y_ocho")
    return keys


def number_word(n: int, lang: str = DEFAULT_LANG) -> str:
    """``n`` in words where the catalogue has it (the even points a saying names), else digits.

    >>> number_word(4, "es"), number_word(4, "en"), number_word(12, "es")
    ('cuatro', 'four', '12')
    """
    key = f"number.{n}"
    return t(key, lang) if key in catalogue.messages(lang) else str(n)


def saying_words(key: str, points: int = 2) -> str:
    """The saying itself, in Spanish whatever the language (``points`` for *¡Dos por guapo!*).

    >>> saying_words("dos_por_guapo", 4)
    '¡Cuatro por guapo!'
    """
    number = f"saying.number.{points}"  # the Spanish words of the sayings' numbers, in every language
    n = t(number, SAYINGS_LANG) if number in catalogue.messages(SAYINGS_LANG) else str(points)
    return t(f"saying.{key}", SAYINGS_LANG, n=n)


def saying_gloss(key: str, lang: str = DEFAULT_LANG, points: int = 2) -> str:
    """What a saying means, in ``lang``.

    >>> saying_gloss("mosero", "en")
    'a caída with a 3'
    """
    return t(f"saying.{key}.gloss", lang, n=number_word(points, lang))


def saying_text(key: str, lang: str = DEFAULT_LANG, points: int = 2, gloss: bool | None = None) -> str:
    """A saying in ``lang``: its Spanish words, with a gloss after them in any other language
    (or when ``gloss`` is true; never when it is false).

    >>> saying_text("dos_por_guapo", "es")
    '¡Dos por guapo!'
    >>> saying_text("zapatero", "en").startswith("“¡Zapatero!” (“shoemaker”")
    True
    """
    words = saying_words(key, points)
    if gloss is None:
        gloss = check_lang(lang) != SAYINGS_LANG
    if not gloss:
        check_lang(lang)
        return words
    return t("gloss.format", lang, words=words, gloss=saying_gloss(key, lang, points))


def _saying_points(event: Event) -> int:
    points = getattr(event, "points", 2)
    return points if isinstance(points, int) and points > 0 else 2


def sayings_for(event: Event, context: SayingContext | None = None, lang: str = DEFAULT_LANG) -> list[str]:
    """Every saying that fits the event, in ``lang``, most fitting first."""
    points = _saying_points(event)
    return [saying_text(k, lang, points) for k in saying_keys(event, context)]


def saying_for(event: Event, context: SayingContext | None = None, lang: str = DEFAULT_LANG) -> str | None:
    """The most fitting saying for the event, or ``None``."""
    found = sayings_for(event, context, lang)
    return found[0] if found else None


class SayingTracker:
    """Follows a mesa's events in order and tells which sayings fit each one.

    It keeps what the sayings need beyond the event (the move being played,
    the running score, the last caída of the hand, whether the table was just
    cleared) and restarts the score when a chica is won. Feed it every event
    from the dealer draw on; :class:`Narrator` (the terminal) and the web server
    both use it, so they choose the same sayings.
    """

    def __init__(self, rules: Rules, scores: tuple[int, int] = (0, 0)) -> None:
        self.rules = rules
        self.scores: tuple[int, int] = scores
        self._move: Move | None = None
        self._last_caida: tuple[int, int] | None = None
        self._table_cleared = False

    def feed(self, event: Event) -> tuple[list[str], bool]:
        """The saying keys of the next event, and whether it changed the score."""
        if isinstance(event, Play):
            self._move = event.move
        elif isinstance(event, Deal | DealerDraw):
            self._move = None
            if isinstance(event, DealerDraw) or event.deal == 0:
                self._last_caida = None
                self._table_cleared = False
        scored = _scored(event)
        if scored is not None:
            team, points = scored
            s = list(self.scores)
            s[team] += points
            self.scores = (s[0], s[1])
        context = SayingContext.for_rules(
            self.rules,
            move=self._move,
            scores=self.scores,
            last_caida=self._last_caida,
            table_cleared=self._table_cleared,
        )
        keys = saying_keys(event, context)
        if isinstance(event, _CAIDAS):
            self._last_caida = (event.seat, event.victim)
        if isinstance(event, Play):
            self._table_cleared = False
        if _clears_table(event):
            self._table_cleared = True
        if isinstance(event, ChicaWon):
            self.scores = (0, 0)
            self._last_caida = None
        return keys, scored is not None


class SayingLog:
    """The saying keys of every event of one game, each computed once as the game goes on.

    >>> from cuarenta import Game
    >>> game = Game.new(Rules(), seed=3)
    >>> log = SayingLog()
    >>> len(log.update(game)) == len(game.events)
    True
    """

    def __init__(self) -> None:
        self._game: Game | None = None
        self._tracker: SayingTracker | None = None
        self._last: Event | None = None
        self.keys: list[list[str]] = []

    def update(self, game: Game) -> list[list[str]]:
        """The keys of ``game.events``, one list per event.

        A different game, or one whose events were taken back (:meth:`~cuarenta.Game.pop`), starts
        the log again.
        """
        events = game.events
        done = len(self.keys)
        if (
            self._game is not game
            or self._tracker is None
            or len(events) < done
            or (done and events[done - 1] is not self._last)
        ):
            self._game, self._tracker, self.keys, done = game, SayingTracker(game.rules), [], 0
        for event in events[done:]:
            self.keys.append(self._tracker.feed(event)[0])
        if events:
            self._last = events[-1]
        return self.keys


# -- narration ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Line:
    """One narrated event: its sentence, its sayings (and their keys), and the score if it changed."""

    event: Event
    text: str
    sayings: tuple[str, ...] = ()
    scores: tuple[int, int] | None = None  #: both teams' scores after an event that added points
    saying_keys: tuple[str, ...] = ()


class Narrator:
    """Turns the engine's events into narrated lines, keeping the running score.

    Feed it the events in order (all of them, from the dealer draw on); its
    :class:`SayingTracker` keeps what the sayings need and restarts the score
    when a chica is won.
    """

    def __init__(self, rules: Rules, lang: str = DEFAULT_LANG, names: Sequence[str] | None = None) -> None:
        self.rules = rules
        self.lang = check_lang(lang)
        self.seat_names = list(names) if names is not None else seat_names(rules.players, lang)
        self.team_names = team_names(self.seat_names, lang)
        self.tracker = SayingTracker(rules)

    @property
    def scores(self) -> tuple[int, int]:
        """The running score (settable, for a narration that starts from a position)."""
        return self.tracker.scores

    @scores.setter
    def scores(self, value: tuple[int, int]) -> None:
        self.tracker.scores = (value[0], value[1])

    def score_text(self, scores: Sequence[int] | None = None) -> str:
        """The running score (or ``scores``) with team names, perros and tantos."""
        return score_text(self.scores if scores is None else scores, self.lang, self.team_names)

    def narrate(self, events: Iterable[Event]) -> list[Line]:
        """Narrate events in order; returns one :class:`Line` per event."""
        return [self.narrate_one(e) for e in events]

    def narrate_one(self, event: Event) -> Line:
        """Narrate the next event."""
        keys, changed = self.tracker.feed(event)
        points = _saying_points(event)
        sayings = tuple(saying_text(k, self.lang, points) for k in keys)
        text = describe_event(event, self.lang, self.seat_names)
        return Line(event, text, sayings, self.scores if changed else None, tuple(keys))


__all__ = [
    "CAIDA_SAYINGS",
    "CAPARICHE_CARDS",
    "DEFAULT_LANG",
    "LANGS",
    "SAYINGS_LANG",
    "SAYING_KEYS",
    "Line",
    "Narrator",
    "SayingContext",
    "SayingLog",
    "SayingTracker",
    "card_name",
    "card_text",
    "cards_text",
    "check_lang",
    "describe_event",
    "event_name",
    "note_text",
    "number_word",
    "placeholders",
    "points_text",
    "rank_name",
    "saying_for",
    "saying_gloss",
    "saying_keys",
    "saying_text",
    "saying_words",
    "sayings_for",
    "score_text",
    "seat_names",
    "suit_name",
    "t",
    "tantos_perros",
    "team_names",
]
