"""A model of how a seat plays, for reading the hidden hands from the play (``experto``).

Every card a seat played in this deal was chosen from the hand it held then: its
hand now plus the cards it played later in the deal. For a *world* (a guess at
every hidden hand, :func:`~cuarenta.players.knowledge.sample_world`), the model
says how likely each of those choices was, so a world in which a rival held a
caída and let it pass, or dropped a card it could have paired, is less likely
than one in which its play was the natural one.

The model is a conditional logit over the seat's choices by ranks (suits never
matter for play, R1): each choice is described by a few numbers
(:data:`FEATURES`: a caída, a limpia, cards taken, a card dropped and how risky
it is…), and the chance of a choice is ``exp(w·f) / Σ exp(w·f')`` over the
choices the seat had. The weights ``w`` are learned from self-play
(``scripts/fit_playmodel.py``, docs/strength.md "experto") and shipped as
``players/data/playmodel.json``; evaluating the model is pure Python.

>>> from cuarenta import Game, Rules
>>> from cuarenta.players import act, make_player
>>> game = Game.new(Rules(), seed=5)
>>> for _ in range(4):
...     _ = game.push(act(make_player("normal", seed=1), game))
>>> [(d.seat, str(d.card)) for d in deal_decisions(game.view(game.turn))][:2]  # doctest: +ELLIPSIS
[(..., '...'), (..., '...')]
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

from cuarenta.captures import RANK_UNIT, capture_options
from cuarenta.cards import Card
from cuarenta.events import ClaimMade, Deal, Play
from cuarenta.moves import Move
from cuarenta.rules import Rules
from cuarenta.view import SeatView, as_view

#: What describes one choice, in order (the weights of :class:`PlayModel` follow it).
FEATURES = (
    "caida",  #: pairs the card just dropped (R13)
    "limpia",  #: takes every card on the table (R14)
    "taken",  #: table cards taken
    "drop",  #: takes nothing: the card stays on the table
    "drop_risk",  #: a drop: cards of its rank the seat cannot see (one may fall on it), over 3
    "drop_figure",  #: a drop of a J, Q or K (no sum takes it)
    "drop_mate",  #: a drop of a rank the seat holds another of
    "leave_one",  #: one card left on the table (an easy limpia for the next seat)
    "left",  #: cards left on the table, over 5
    "rank",  #: the card's rank, over 9 (A = 0 … K = 9)
)

FIGURE = 7  #: rank index of the J: J, Q and K are figures (R1)

#: A choice by ranks: the card's rank, the base's ranks and the escalera's, sorted.
ChoiceKey = tuple[int, tuple[int, ...], tuple[int, ...]]


def choice_key(move: Move) -> ChoiceKey:
    """What ``move`` does, by ranks (suits never matter for play, R1)."""
    return (move.card >> 2, tuple(sorted(c >> 2 for c in move.base)), tuple(sorted(c >> 2 for c in move.run)))


@dataclass(frozen=True)
class Decision:
    """A card a seat played earlier in the current deal, with the public facts of that moment."""

    seat: int
    card: Card
    key: ChoiceKey  #: the choice by ranks: card, base, run
    table: tuple[int, ...]  #: table cards then, by rank (10 counts)
    drop: int | None  #: rank of the card just dropped then (a caída was open on it)
    gone: tuple[int, ...]  #: cards of each rank captured in the hand before it
    later: tuple[Card, ...]  #: cards this seat played after it in the deal (then still in its hand)


def deal_decisions(view: SeatView) -> list[Decision]:
    """The plays of the current deal, each with what the table showed then (the view's public history).

    The table is followed from the hand's start (it starts empty): a card that takes nothing lands on it,
    a capture and a claim (R12) take their cards from it.
    """
    view = as_view(view)
    rules = view.rules
    table = [0] * 10
    gone = [0] * 10
    drop: int | None = None
    current: list[tuple[Play, tuple[int, ...], int | None, tuple[int, ...]]] = []
    for event in view.history:
        if isinstance(event, Deal):
            current = []
            if not rules.caida_across_deals:
                drop = None
        elif isinstance(event, Play):
            move = event.move
            current.append((event, tuple(table), drop, tuple(gone)))
            taken = (*move.base, *move.run)
            if taken:
                for c in taken:
                    table[c >> 2] -= 1
                    gone[c >> 2] += 1
                gone[move.card >> 2] += 1
                drop = None
            else:
                table[move.card >> 2] += 1
                drop = move.card >> 2
        elif isinstance(event, ClaimMade):
            for c in event.cards:
                table[c >> 2] -= 1
                gone[c >> 2] += 1
                if drop == c >> 2:
                    drop = None
    out = []
    for i, (event, before, open_drop, gone_then) in enumerate(current):
        move = event.move
        later = tuple(e.move.card for e, *_ in current[i + 1 :] if e.seat == event.seat)
        out.append(Decision(event.seat, move.card, choice_key(move), before, open_drop, gone_then, later))
    return out


def _code(counts: Sequence[int]) -> int:
    return sum(RANK_UNIT[r] * n for r, n in enumerate(counts))


def choices(hand: Sequence[int], table: Sequence[int], two_only: bool) -> list[ChoiceKey]:
    """Every choice by ranks of a hand (``hand``, ``table``: counts per rank): each capture in full, or
    the drop of a card that takes nothing."""
    code = _code(table)
    out: list[ChoiceKey] = []
    for rank in range(10):
        if not hand[rank]:
            continue
        opts = capture_options(code, rank, two_only)
        if not opts:
            out.append((rank, (), ()))
        for base, run in opts:
            out.append((rank, tuple(sorted(base)), tuple(sorted(run))))
    return out


def features(
    key: ChoiceKey,
    hand: Sequence[int],
    table: Sequence[int],
    drop: int | None,
    gone: Sequence[int],
) -> tuple[float, ...]:
    """The numbers of :data:`FEATURES` for the choice ``key`` of a seat holding ``hand``."""
    rank, base, run = key
    on_table = sum(table)
    taken = len(base) + len(run)
    caida = 1.0 if taken and drop is not None and rank == drop and drop in base else 0.0
    limpia = 1.0 if taken and taken == on_table else 0.0
    left = on_table - taken if taken else on_table + 1
    if taken:
        return (caida, limpia, taken / 5, 0.0, 0.0, 0.0, 0.0, float(left == 1), left / 5, rank / 9)
    unseen = 4 - hand[rank] - table[rank] - gone[rank]
    return (
        0.0,
        0.0,
        0.0,
        1.0,
        max(unseen, 0) / 3,
        float(rank >= FIGURE),
        float(hand[rank] >= 2),
        float(left == 1),
        left / 5,
        rank / 9,
    )


@dataclass(frozen=True)
class PlayModel:
    """Weights of the conditional logit over a seat's choices (one per feature of :data:`FEATURES`)."""

    weights: tuple[float, ...]

    def log_prob(self, decision: Decision, hand: Sequence[Card], two_only: bool) -> float:
        """Log of the chance that a seat holding ``hand`` (then) chose as ``decision`` says it did."""
        counts = [0] * 10
        for c in hand:
            counts[c >> 2] += 1
        options = choices(counts, decision.table, two_only)
        if decision.key not in options:
            options.append(decision.key)  # a partial capture (manual capture, R12): weighed as it is
        if len(options) == 1:
            return 0.0
        w = self.weights
        scores = []
        chosen = 0.0
        for opt in options:
            f = features(opt, counts, decision.table, decision.drop, decision.gone)
            s = sum(a * b for a, b in zip(w, f, strict=True))
            scores.append(s)
            if opt == decision.key:
                chosen = s
        top = max(scores)
        return chosen - top - math.log(sum(math.exp(s - top) for s in scores))

    def world_log_likelihood(
        self, decisions: Sequence[Decision], hands: Sequence[Sequence[Card]], me: int, rules: Rules
    ) -> float:
        """How likely, in a world where the seats hold ``hands`` now, are the other seats' plays of
        this deal (the log of the product of their chances)."""
        two_only = rules.sum_cards == "two"
        total = 0.0
        for d in decisions:
            if d.seat == me:
                continue
            total += self.log_prob(d, (*hands[d.seat], d.card, *d.later), two_only)
        return total

    def to_json(self) -> str:
        return json.dumps(
            {"features": list(FEATURES), "weights": [round(w, 6) for w in self.weights]}, indent=1
        )

    @classmethod
    def from_json(cls, text: str) -> PlayModel:
        data = json.loads(text)
        if data.get("features") != list(FEATURES):
            raise ValueError(f"the play model's features {data.get('features')} are not {list(FEATURES)}")
        return cls(tuple(float(w) for w in data["weights"]))


@cache
def play_model() -> PlayModel:
    """The shipped model (``players/data/playmodel.json``)."""
    text = resources.files("cuarenta.players").joinpath("data/playmodel.json").read_text(encoding="utf-8")
    return PlayModel.from_json(text)
