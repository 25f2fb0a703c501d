"""The "Ayudas": per-card marks for the seat to move, from its view and legal moves only.

For each card in the hand (seed 001's help): whether it takes something,
whether it makes a caída (R13) or a limpia (R14); and, beyond 001, a warning
when playing it would leave the next player an easy caída or limpia: *easy*
meaning that, from the cards this seat has not seen, the next player more
likely than not holds a card that does it (:data:`EASY`). The
facts come from :class:`~cuarenta.players.knowledge.Knowledge`, which reads
the view alone, so a hint can never reveal a hidden card.

>>> from cuarenta import CARDS, Game, Rules
>>> named = ["7h", "Kc", "Ks", "Qh", "3c", "4d"]
>>> game = Game.from_position(Rules(), hands=[["7h", "Kc"], ["Ks", "Qh"]], table=["3c", "4d"], stock=[],
...     turn=0, dealer=1, piles=[[], [c for c in CARDS if str(c) not in named]])
>>> legal = [str(m) for m in game.legal_moves()]
>>> legal
['7h x3c+4d', 'Kc']
>>> for hint in seat_hints(game.view(0), legal):
...     print(hint)
{'card': '7h', 'takes': True, 'caida': False, 'limpia': True, 'warning': None}
{'card': 'Kc', 'takes': False, 'caida': False, 'limpia': False, 'warning': 'caida'}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from math import comb
from typing import Any, Final

from cuarenta.captures import capture_options, table_code
from cuarenta.cards import NUM_RANKS, Card
from cuarenta.moves import Move, parse_action
from cuarenta.players.knowledge import Knowledge

#: A chance at least this high that the next player can do it makes a warning.
EASY: Final = 0.5


def holds_any(wanted: int, unseen: int, hand_size: int) -> float:
    """Chance that a hand of ``hand_size`` cards drawn from ``unseen`` cards holds one of ``wanted``.

    >>> holds_any(3, 25, 5) > 0.5 > holds_any(2, 25, 5)
    True
    >>> holds_any(1, 5, 5)
    1.0
    """
    if wanted <= 0 or hand_size <= 0 or unseen <= 0:
        return 0.0
    hand_size = min(hand_size, unseen)
    return 1.0 - comb(unseen - wanted, hand_size) / comb(unseen, hand_size)


def _natural_moves(card: Card, moves: Sequence[Move]) -> list[Move]:
    """The ways of playing ``card`` worth judging: each base with its longest escalera, else the drop."""
    longest: dict[tuple[Card, ...], Move] = {}
    for m in moves:
        if m.card == card and m.base and (m.base not in longest or len(m.run) > len(longest[m.base].run)):
            longest[m.base] = m
    return list(longest.values()) or [Move(card)]


def _risk(
    move: Move,
    table: Sequence[Card],
    know: Knowledge,
    next_seat: int,
    next_hand: int,
    two_only: bool,
    caida_possible: bool,
) -> str | None:
    """What ``move`` is likely to leave the next player: ``"caida"``, ``"limpia"`` or ``None``."""
    after = [c for c in table if c not in move.taken] if move.base else [*table, move.card]
    if not after:
        return None
    unseen_by_rank = know.unseen_by_rank
    unseen = len(know.unseen)
    certain = know.known_held.get(next_seat, {})  # ranks of a ronda it announced
    if not move.base and caida_possible:
        rank = move.card.rank
        if certain.get(rank) or holds_any(unseen_by_rank[rank], unseen, next_hand) >= EASY:
            return "caida"
    code = table_code(c.rank for c in after)
    clearing = [
        rank
        for rank in range(NUM_RANKS)
        if unseen_by_rank[rank]
        and any(len(base) + len(run) == len(after) for base, run in capture_options(code, rank, two_only))
    ]
    if any(certain.get(rank) for rank in clearing) or (
        holds_any(sum(unseen_by_rank[r] for r in clearing), unseen, next_hand) >= EASY
    ):
        return "limpia"
    return None


def seat_hints(view: Mapping[str, Any], legal: Sequence[str]) -> list[dict[str, Any]]:
    """The hints of the seat of ``view`` on its turn (``legal``: its legal actions as text).

    One dict per card of the hand, in hand order: ``card``, ``takes``, ``caida``, ``limpia`` (some way
    of playing the card does it) and ``warning`` (``"caida"``/``"limpia"`` when every full way of
    playing it leaves the next player an easy chance of it, else ``None``). No legal moves, no hints.
    """
    if not legal:
        return []
    know = Knowledge.from_view(dict(view))
    table = know.table
    drop = know.last_drop
    two_only = view["rules"].get("sum_cards") == "two"
    moves = [a for a in (parse_action(text) for text in legal) if isinstance(a, Move)]
    seat = int(view["seat"])
    ends_deal = seat == view["dealer"] and len(know.hand) == 1
    ends_hand = ends_deal and view["stock_size"] == 0
    caida_possible = not ends_deal or bool(view["rules"].get("caida_across_deals"))
    out: list[dict[str, Any]] = []
    for card in know.hand:
        natural = _natural_moves(card, moves)
        caps = [m for m in natural if m.base]
        caida = any(drop is not None and len(m.base) == 1 and m.base[0] == drop for m in caps)
        limpia = any(len(m.taken) == len(table) for m in caps)
        warning: str | None = None
        if not ends_hand:
            next_seat = (seat + 1) % know.players
            next_hand = 5 if ends_deal else know.hand_sizes[next_seat]
            risks = [_risk(m, table, know, next_seat, next_hand, two_only, caida_possible) for m in natural]
            if all(r is not None for r in risks):
                warning = "caida" if "caida" in risks else risks[0]
        out.append(
            {"card": str(card), "takes": bool(caps), "caida": caida, "limpia": limpia, "warning": warning}
        )
    return out
