"""The observation: what one seat sees, as a fixed-length vector of numbers in ``[0, 1]``.

It is built from :class:`~cuarenta.SeatView` alone — so it cannot hold a card the seat could not
see — and it is the same vector in every interface (OpenSpiel's observation tensor, PettingZoo's
and Gymnasium's ``observation``). Seats are *relative*: "me" first, then the seats that play after
me in turn; teams are "mine" and "theirs". So one network can sit at any seat.

The planes, in order (:data:`PLANES` holds each one's name, size and meaning; docs/research.md
prints the table):

>>> [(p.name, p.size) for p in PLANES][:6]
[('hand', 40), ('table', 40), ('last_drop', 40), ('pile_mine', 40), ('pile_theirs', 40), ('claimable', 40)]
>>> OBSERVATION_SIZE
396
>>> from cuarenta import Game, Rules
>>> vector = encode(Game.new(Rules(), seed=11).view(0))
>>> len(vector) == OBSERVATION_SIZE, sum(vector[:40])      # five cards in hand
(True, 5.0)
>>> print(observation_string(Game.new(Rules(), seed=11).view(0)))  # doctest: +ELLIPSIS
seat 0 of 2, to move: me; dealer: +1; hand 0, deal 0
hand: ...
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from cuarenta.cards import NUM_CARDS, NUM_RANKS, cards_str
from cuarenta.view import SeatView

#: The most seats at a table; a 2-player view leaves the last two seats' entries at zero.
SEATS: Final = 4
#: Rondas are announced in the first deals only; more than this many deals per hand never happen.
DEALS: Final = 4


@dataclass(frozen=True)
class Plane:
    """One part of the observation vector."""

    name: str
    size: int
    meaning: str


#: Every plane, in the order of the vector.
PLANES: Final = (
    Plane("hand", NUM_CARDS, "each card in my hand (by card index: Ah As Ad Ac 2h … Kc)"),
    Plane("table", NUM_CARDS, "each card on the table"),
    Plane(
        "last_drop",
        NUM_CARDS,
        "the card the previous seat just dropped, if a caída on it is open (R13)",
    ),
    Plane(
        "pile_mine",
        NUM_CARDS,
        "each card my team captured this hand (taken face up: cards gone)",
    ),
    Plane("pile_theirs", NUM_CARDS, "each card the other team captured this hand (cards gone)"),
    Plane("claimable", NUM_CARDS, "each card I may claim now (manual capture, R12)"),
    Plane("hand_sizes", SEATS * 6, "for me and each next seat in turn: its card count 0–5, one-hot"),
    Plane("stock", NUM_CARDS + 1, "the stock's size 0–40, one-hot"),
    Plane("turn", SEATS + 1, "whose turn: me, +1, +2, +3, one-hot; the last entry when the mesa is over"),
    Plane("dealer", SEATS, "the dealer: me, +1, +2, +3, one-hot"),
    Plane(
        "rondas",
        SEATS * NUM_RANKS,
        "me and each next seat: the rank of each ronda announced this deal",
    ),
    Plane("deal", DEALS, "the deal of the hand (first, second …), one-hot"),
    Plane("scores", 2, "my team's and their team's points, divided by the target"),
    Plane(
        "to_target", 2 * 11, "points each team still needs: 0, 2, … 18, 20 or more, one-hot (mine, theirs)"
    ),
    Plane("only_caida", 2, "1 when R20 (38 que no juega) is in force and the team may score only by caída"),
    Plane("chicas", 2 * 3, "chicas won by my team and theirs, 0–2 or more, one-hot"),
    Plane(
        "rules",
        6,
        "4 players; manual capture; sums of two; caída across deals; R20 on; 4 of a kind wins",
    ),
)
OBSERVATION_SIZE: Final = sum(p.size for p in PLANES)


def _one_hot(out: list[float], size: int, index: int) -> None:
    block = [0.0] * size
    block[min(max(index, 0), size - 1)] = 1.0
    out.extend(block)


def _cards(out: list[float], cards: object) -> None:
    block = [0.0] * NUM_CARDS
    for c in cards:  # type: ignore[attr-defined]
        block[c] = 1.0
    out.extend(block)


def encode(view: SeatView) -> list[float]:
    """The observation vector of ``view`` (length :data:`OBSERVATION_SIZE`)."""
    n = view.players
    me = view.seat
    mine = view.team
    rules = view.rules
    out: list[float] = []
    _cards(out, view.hand)
    _cards(out, view.table)
    _cards(out, () if view.last_drop is None else (view.last_drop,))
    _cards(out, view.piles[mine])
    _cards(out, view.piles[1 - mine])
    _cards(out, [c for option in view.claimable for c in option])
    for k in range(SEATS):
        _one_hot(out, 6, view.hand_sizes[(me + k) % n] if k < n else 0)
    _one_hot(out, NUM_CARDS + 1, view.stock_size)
    _one_hot(out, SEATS + 1, SEATS if view.turn is None else (view.turn - me) % n)
    _one_hot(out, SEATS, (view.dealer - me) % n)
    rondas = [0.0] * (SEATS * NUM_RANKS)
    for seat, rank in view.rondas:
        rondas[((seat - me) % n) * NUM_RANKS + rank] = 1.0
    out.extend(rondas)
    _one_hot(out, DEALS, view.deal_number)
    scores = (view.scores[mine], view.scores[1 - mine])
    out.extend(min(s / rules.target, 1.0) for s in scores)
    for s in scores:
        _one_hot(out, 11, max(rules.target - s, 0) // 2)
    only = rules.only_caida_from
    out.extend(1.0 if only is not None and s >= only else 0.0 for s in scores)
    for c in (view.chicas[mine], view.chicas[1 - mine]):
        _one_hot(out, 3, c)
    flags = (
        n == 4,
        rules.capture == "manual",
        rules.sum_cards == "two",
        rules.caida_across_deals,
        rules.treinta_y_ocho,
        rules.four_of_a_kind == "wins_chica",
    )
    out.extend(1.0 if f else 0.0 for f in flags)
    return out


def observation_string(view: SeatView) -> str:
    """The same facts as :func:`encode`, as text a person can read (seats relative to me)."""
    n = view.players
    me = view.seat
    mine = view.team
    turn = "mesa over" if view.turn is None else ("me" if view.turn == me else f"+{(view.turn - me) % n}")
    rondas = " ".join(f"+{(s - me) % n}:{'A234567JQK'[r]}" for s, r in view.rondas) or "-"
    lines = [
        f"seat {me} of {n}, to move: {turn}; dealer: +{(view.dealer - me) % n}; "
        f"hand {view.hand_number}, deal {view.deal_number}",
        f"hand: {cards_str(view.hand) or '-'}",
        f"table: {cards_str(view.table) or '-'}; last drop: {view.last_drop or '-'}",
        f"hand sizes: {' '.join(str(view.hand_sizes[(me + k) % n]) for k in range(n))}; "
        f"stock {view.stock_size}",
        f"pile mine: {cards_str(sorted(view.piles[mine])) or '-'}",
        f"pile theirs: {cards_str(sorted(view.piles[1 - mine])) or '-'}",
        f"claimable: {' | '.join(cards_str(o) for o in view.claimable) or '-'}; rondas: {rondas}",
        f"scores: {view.scores[mine]}-{view.scores[1 - mine]} of {view.rules.target}; "
        f"chicas: {view.chicas[mine]}-{view.chicas[1 - mine]}",
    ]
    return "\n".join(lines)


__all__ = ["OBSERVATION_SIZE", "PLANES", "Plane", "encode", "observation_string"]
