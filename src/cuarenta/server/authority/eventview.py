"""What the page needs to show an event or a legal move, worked out on the server (docs/protocol.md).

The page renders what the server sends and works no rule out (docs/web.md). The engine's events say what
happened in the engine's terms (a ``play`` names its move in the engine's notation, a ``hand_end`` its
leftovers and piles, each scoring event the points it added); this module adds, to the dict the wire
carries, the structured fields the page would otherwise compute:

* a ``play``: ``card`` (the card played), ``base`` and ``run`` (what it took by igualdad or suma, and in
  escalera), ``taken`` (both, in that order; empty for a card dropped on the table), and ``after``, the
  public table as the play left it (:func:`table_after`);
* a ``claim``: ``victim`` (the seat that forgot the cards, R12) and ``after``;
* every event with ``points``: ``marks``, those points as ``[perros, tantos]``;
* a ``deal``: ``deals``, the deals of a hand (R5);
* a ``hand_end``: ``end``, the end-of-hand view (``hand``, ``table``, ``cards``, ``carton``, ``scores``,
  ``score_marks``): the hand's number, the table it ended on, the cards each team took, its cartón points and
  the score after them, before anything of the next deal;
* a ``chica_won``: ``score_marks``, its ``scores`` as ``[perros, tantos]``.

Every added field is public: it says again what the event itself says (a play is made face up) or what
every seat's view shows (scores, piles, the table), so the events stay shareable by every socket of a
table, spectators included.

Every ``state`` message's ``view`` gets :func:`view_fields` (the deals of a hand, the scores' marks).
For the seat to move, :func:`describe_moves` tells the same of each legal move (``card``, ``base``,
``run``, ``taken``, ``claim``) with what the engine says it does (``caida``, ``limpia``) and what it gives
up: ``forgets`` (a drop of a card that could take) and ``leaves`` (the cards of a longer escalera the
same card and base could take, which the next seat may claim under manual capture, R12).

>>> from cuarenta import Game, Rules
>>> game = Game.new(Rules(), seed=1)
>>> wire_event(game, 1, [])["deals"]
4
>>> sorted(describe_moves(game, game.legal_moves()[:1])[0])
['base', 'caida', 'card', 'forgets', 'leaves', 'limpia', 'move', 'run', 'taken']
"""

from __future__ import annotations

import dataclasses
import weakref
from collections.abc import Sequence
from typing import Any, Final

from cuarenta.cards import NUM_CARDS, Card
from cuarenta.events import EVENT_CLASSES, Carton, ChicaWon, ClaimMade, Deal, Event, HandEnd, Play
from cuarenta.game import Game
from cuarenta.i18n import tantos_perros
from cuarenta.moves import Action, Claim, Move

#: Cards dealt to each seat at a deal (R5).
DEAL_CARDS = 5

#: The kinds whose ``points`` are added to their team's score (zapatero's points are the loser's score).
SCORING_KINDS = frozenset(
    {"ronda", "four_of_a_kind", "caida", "limpia", "caida_limpia", "caida_ronda", "carton"}
)


def marks(points: int) -> list[int]:
    """Points as the page draws them: ``[perros, tantos]`` (a perro is 10 points, a tanto 2).

    >>> marks(14), marks(0)
    ([1, 2], [0, 0])
    """
    perros, tantos = tantos_perros(max(0, points))
    return [perros, tantos]


def wire_event(game: Game, index: int, sayings: list[str]) -> dict[str, Any]:
    """Event ``index`` of ``game``'s mesa as the wire sends it: ``to_dict()``, its ``sayings`` and the
    fields above (additive: every field of ``to_dict()`` is kept).

    >>> from cuarenta import Game, Rules
    >>> game = Game.new(Rules(), seed=1)
    >>> _ = game.play(game.legal_moves()[0])
    >>> event = wire_event(game, len(game.events) - 1, [])
    >>> event["kind"], event["card"] == event["move"].split()[0], event["sayings"]
    ('play', True, [])
    """
    events = game.events
    event = events[index]
    out: dict[str, Any] = {**event.to_dict(), "sayings": sayings}
    points = getattr(event, "points", None)
    if isinstance(points, int):
        out["marks"] = marks(points)
    if isinstance(event, Play):
        out.update(_move_fields(event.move))
        out["after"] = _table_after(game, index)
    elif isinstance(event, ClaimMade):
        out["victim"] = (event.seat - 1) % game.rules.players
        out["after"] = _table_after(game, index)
    elif isinstance(event, Deal):
        out["deals"] = game.rules.deals_per_hand
    elif isinstance(event, HandEnd):
        out["end"] = end_view(events, index)
    elif isinstance(event, ChicaWon):
        out["score_marks"] = [marks(s) for s in event.scores]
    return out


#: Each card's text by its index (``str(card)``, looked up: a move's description names many cards).
_TEXT: Final = tuple(str(Card(i)) for i in range(NUM_CARDS))


def _move_fields(move: Move) -> dict[str, Any]:
    text = _TEXT
    return {
        "card": text[move.card],
        "base": [text[c] for c in move.base],
        "run": [text[c] for c in move.run],
        "taken": [text[c] for c in move.taken],
    }


class TableTracker:
    """The public table of a hand, kept up to date event by event (:func:`table_after` says how).

    >>> from cuarenta.moves import Move
    >>> tracker = TableTracker(2)
    >>> tracker.apply(Deal(0, 0, 0, 9)); tracker.apply(Play(1, 1, Move.parse("5h")))
    >>> tracker.snapshot()
    {'table': ['5h'], 'last_drop': '5h', 'pile_sizes': [0, 0], 'hand_sizes': [5, 4]}
    """

    def __init__(self, players: int) -> None:
        self.players = players
        self.table: list[str] = []
        self.last_drop: str | None = None
        self.piles = [0, 0]
        self.hands = [0] * players
        self.upto = 0  #: the events applied: ``events[:upto]`` of the list it follows
        self.last: Event | None = None  #: ``events[upto - 1]``, to tell that the list is still the same

    def apply(self, event: Event) -> None:
        """One more event of the hand (a new hand starts empty at its first deal)."""
        if isinstance(event, Deal):
            if event.deal == 0:
                self.table, self.last_drop, self.piles = [], None, [0, 0]
            self.hands = [DEAL_CARDS] * self.players
        elif isinstance(event, Play):
            move = event.move
            self.hands[event.seat] -= 1
            card = _TEXT[move.card]
            if not move.base:
                self.table.append(card)
                self.last_drop = card
            else:
                taken = {_TEXT[c] for c in move.base} | {_TEXT[c] for c in move.run}
                self.table = [c for c in self.table if c not in taken]
                self.piles[event.team] += 1 + len(taken)
                self.last_drop = None
        elif isinstance(event, ClaimMade):
            claimed = {str(c) for c in event.cards}
            self.table = [c for c in self.table if c not in claimed]
            self.piles[event.team] += len(claimed)
            if self.last_drop in claimed:
                self.last_drop = None

    def snapshot(self) -> dict[str, Any]:
        """The table now, as the wire sends it (fresh lists)."""
        return {
            "table": list(self.table),
            "last_drop": self.last_drop,
            "pile_sizes": list(self.piles),
            "hand_sizes": list(self.hands),
        }


def _hand_start(events: Sequence[Event], index: int) -> int:
    """The index of the first deal of the hand that event ``index`` belongs to (0 if none is found)."""
    start = index
    while start > 0:
        before = events[start - 1]
        if isinstance(before, (HandEnd, ChicaWon)):
            break
        start -= 1
        if isinstance(before, Deal) and before.deal == 0:
            break
    return start


def table_after(events: Sequence[Event], index: int, players: int) -> dict[str, Any]:
    """The public table right after the ``play`` or ``claim`` at ``index``, as that move left it (before
    anything of a next deal): ``table`` (its cards, in order), ``last_drop`` (the card a caída would
    take), ``pile_sizes`` (cards in each team's pile) and ``hand_sizes`` (cards in each seat's hand).

    Worked out from the events of the hand so far: a hand starts with an empty table and empty piles, a
    deal gives every seat five cards, a drop lays its card on the table, a capture takes its cards into
    its team's pile, a claim takes the cards it names.

    >>> from cuarenta import Card
    >>> from cuarenta.moves import Move
    >>> events = [Deal(0, 0, 0, 9), Play(1, 1, Move.parse("5h")), Play(0, 0, Move.parse("5s x5h"))]
    >>> table_after(events, 1, 2)
    {'table': ['5h'], 'last_drop': '5h', 'pile_sizes': [0, 0], 'hand_sizes': [5, 4]}
    >>> table_after(events, 2, 2)
    {'table': [], 'last_drop': None, 'pile_sizes': [2, 0], 'hand_sizes': [4, 4]}
    """
    tracker = TableTracker(players)
    for event in events[_hand_start(events, index) : index + 1]:
        tracker.apply(event)
    return tracker.snapshot()


#: Each game's tracker, so that describing a move's events costs the new events only (a room describes
#: its events once each, in order: audience.wired_events).
_trackers: weakref.WeakKeyDictionary[Game, TableTracker] = weakref.WeakKeyDictionary()


def _table_after(game: Game, index: int) -> dict[str, Any]:
    """:func:`table_after` for ``game``'s events, from where the last call for that game stopped when it
    can (the same list, no further than ``index``), else from the hand's first deal."""
    events = game.events
    tracker = _trackers.get(game)
    if (
        tracker is None
        or tracker.upto > index + 1
        or tracker.upto > len(events)
        or (tracker.upto > 0 and events[tracker.upto - 1] is not tracker.last)
    ):
        tracker = TableTracker(game.rules.players)
        tracker.upto = _hand_start(events, index)
        _trackers[game] = tracker
    for i in range(tracker.upto, index + 1):
        tracker.apply(events[i])
    tracker.upto, tracker.last = index + 1, events[index]
    return tracker.snapshot()


def scores_before(events: Sequence[Event], index: int) -> list[int]:
    """The scores of the chica just before event ``index``: the points its scoring events added since the
    chica began (a mesa starts at 0–0, each chica after a ``chica_won``).

    >>> from cuarenta.events import Caida, Ronda
    >>> from cuarenta import Card
    >>> scores_before([Ronda(0, 0, "7", 4), Caida(1, 1, Card("7h"), 0, 2)], 2)
    [4, 2]
    """
    start = index
    while start > 0 and not isinstance(events[start - 1], ChicaWon):
        start -= 1
    scores = [0, 0]
    for event in events[start:index]:
        if event.kind in SCORING_KINDS:
            scores[event.team] += event.points  # type: ignore[attr-defined]
    return scores


def end_view(events: Sequence[Event], index: int) -> dict[str, Any]:
    """The end-of-hand view of the ``hand_end`` at ``index``: what the page shows over the table the
    hand ended on, before the next deal.

    ``hand`` (1 for the mesa's first hand), ``table`` (the leftovers, nobody's: R22), ``cards`` (the cards
    each team took), ``carton`` (each team's cartón points, R23; 0 for none), ``scores`` (after the
    cartón) and ``score_marks`` (those scores as ``[perros, tantos]``).
    """
    hand_end = events[index]
    assert isinstance(hand_end, HandEnd)
    scores = scores_before(events, index)
    carton = [0, 0]
    after = index + 1
    while after < len(events) and isinstance(events[after], Carton):
        award = events[after]
        assert isinstance(award, Carton)
        carton[award.team] += award.points
        scores[award.team] += award.points
        after += 1
    hand = next((e.hand + 1 for e in reversed(events[:index]) if isinstance(e, Deal)), 1)
    return {
        "hand": hand,
        "table": [str(c) for c in hand_end.leftovers],
        "cards": list(hand_end.pile_sizes),
        "carton": carton,
        "scores": scores,
        "score_marks": [marks(s) for s in scores],
    }


#: The fields :func:`view_fields` adds to a ``state`` message's ``view``.
VIEW_KEYS = ("deals", "score_marks")


def view_fields(game: Game) -> dict[str, Any]:
    """Fields added to every ``state`` message's ``view``: ``deals`` (the deals of a hand, R5) and
    ``score_marks`` (each team's score as ``[perros, tantos]``); both public.

    >>> from cuarenta import Game, Rules
    >>> view_fields(Game.new(Rules.preset("a_todo_rigor", 4), seed=1))["deals"]
    2
    """
    return {"deals": game.rules.deals_per_hand, "score_marks": [marks(s) for s in game.score]}


def engine_fields(event: dict[str, Any]) -> dict[str, Any]:
    """A wired event less what the server adds (its sayings and the fields above): what ``to_dict()`` of
    the engine's event writes.

    >>> from cuarenta import Card
    >>> from cuarenta.events import Caida
    >>> event = Caida(seat=1, team=1, card=Card("5s"), victim=0, points=2).to_dict()
    >>> engine_fields({**event, "sayings": ["mosero"], "marks": [0, 1]}) == event
    True
    """
    names = ["kind", *(f.name for f in dataclasses.fields(EVENT_CLASSES[event["kind"]]))]
    return {name: event[name] for name in names if name in event}


def engine_view(view: dict[str, Any]) -> dict[str, Any]:
    """A ``state`` message's ``view`` less what the server adds (:data:`VIEW_KEYS`, and in its history
    what :func:`engine_fields` removes): the engine's ``View.to_dict()``."""
    bare = {k: v for k, v in view.items() if k not in VIEW_KEYS}
    bare["history"] = [engine_fields(e) for e in view.get("history", [])]
    return bare


def describe_moves(
    game: Game, actions: Sequence[Action], texts: Sequence[str] | None = None
) -> list[dict[str, Any]]:
    """The ``moves`` of a ``state`` message: one dict per legal action, in the same order as ``legal``.

    Each has ``move`` (its notation), ``caida`` and ``limpia`` (what the engine says it scores), and
    either ``card``, ``base``, ``run``, ``taken``, ``forgets`` and ``leaves`` (a move) or ``claim`` and
    ``victim`` (the cards of a claim and the seat that forgot them, R12). ``texts``: the actions' notations
    (``str(action)``) if the caller has them.

    >>> from cuarenta import Game, Rules
    >>> game = Game.new(Rules(), seed=1)
    >>> legal = game.legal_moves()
    >>> [m["move"] for m in describe_moves(game, legal)] == [str(a) for a in legal]
    True
    """
    text = _TEXT
    moves = [a for a in actions if isinstance(a, Move)]
    captures = {m.card for m in moves if m.base}
    longest: dict[tuple[str, tuple[str, ...]], tuple[str, ...]] = {}
    for m in moves:
        if not m.base:
            continue
        key = (text[m.card], tuple(text[c] for c in m.base))
        run = tuple(text[c] for c in m.run)
        if len(run) > len(longest.get(key, ())):
            longest[key] = run
    if texts is None:
        texts = [str(a) for a in actions]
    out: list[dict[str, Any]] = []
    for action, notation in zip(actions, texts, strict=True):
        if isinstance(action, Claim):
            claim = [text[c] for c in action.cards]
            victim = (game.turn - 1) % game.rules.players  # the seat that forgot them (R12)
            out.append({"move": notation, "caida": False, "limpia": False, "claim": claim, "victim": victim})
            continue
        fields = _move_fields(action)
        run = fields["run"]
        best = longest.get((fields["card"], tuple(fields["base"])), ()) if action.base else ()
        out.append(
            {
                "move": notation,
                "caida": game.is_caida(action),
                "limpia": game.is_limpia(action),
                **fields,
                "forgets": not action.base and action.card in captures,
                "leaves": [c for c in best if c not in run] if action.base else [],
            }
        )
    return out
