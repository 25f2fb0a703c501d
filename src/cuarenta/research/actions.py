"""Integer action ids: one fixed number for every action any seat can ever take.

Reinforcement-learning libraries want a finite, fixed action space; Cuarenta's moves name table
cards. Captures depend on ranks only (R7–R10, :mod:`cuarenta.captures`), and the engine lists each
capture once (same-rank table cards are interchangeable, the card just dropped taken first), so a
move is fixed by three things: the card played, the *ranks* of its base, and how many cards of the
escalera it takes. Each such triple has an id:

- ids ``0 … NUM_MOVE_IDS - 1``: by card (``Ah`` … ``Kc``, the engine's card order), then the base —
  none (the card is dropped), igualdad, then each sum by its ranks (shortest first, then in rank
  order) — then the escalera's length (0 up to every rank after the played one). With automatic
  capture (R12 ``auto``) the escalera is always whole, so only its full length is ever legal; manual
  capture uses the shorter ones too.
- ids ``CLAIM_BASE … NUM_ACTIONS - 1``: manual capture's claims (R12), by their place in the seat's
  ``claimable`` list (``view.claimable``, public and in the engine's order).

In a given position the legal actions and their ids are in one-to-one correspondence
(tests/test_research_actions.py checks it over many random mesas of every preset).

>>> from cuarenta import Card, Claim, Game, Move, Rules
>>> NUM_ACTIONS, NUM_MOVE_IDS, CLAIM_BASE
(1056, 1040, 1040)
>>> action_id(Move.parse("7h x3c+4d,Js"))
774
>>> describe_id(774)
'7h x3+4,J'
>>> game = Game.new(Rules(), seed=11)
>>> ids = legal_ids(game.legal_moves(), game.claimable)
>>> ids == sorted(ids) and len(ids) == len(game.legal_moves())
True
>>> chosen = actions_by_id(game.legal_moves(), game.claimable)[ids[0]]
>>> chosen in game.legal_moves()
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from cuarenta.cards import CARDS, JACK, NUM_RANKS, RANK_CHARS, Card
from cuarenta.moves import Action, Claim, Move  # noqa: F401 - Move is used by the examples

#: The most claims (R12) a seat can be offered at once: every base of one forgotten card (15 for a 7:
#: igualdad and the 14 sums of seven) or the rest of one escalera; one slot to spare.
MAX_CLAIMS: Final = 16


def _sums(value: int, smallest: int = 1) -> list[tuple[int, ...]]:
    """Multisets of values ``smallest …`` adding up to ``value``, as ascending tuples."""
    found: list[tuple[int, ...]] = [] if value else [()]
    for first in range(smallest, value + 1):
        found.extend((first, *rest) for rest in _sums(value - first, first))
    return found


def _bases(rank: int) -> tuple[tuple[int, ...], ...]:
    """The bases a card of ``rank`` may ever take, as rank tuples: none, igualdad, then the sums (R8)."""
    bases: list[tuple[int, ...]] = [(), (rank,)]
    if rank < JACK:
        sums = [tuple(v - 1 for v in s) for s in _sums(rank + 1) if len(s) >= 2]
        bases.extend(sorted(sums, key=lambda s: (len(s), s)))
    return tuple(bases)


#: A move id's meaning: (card index, base rank indices, escalera length).
Triple = tuple[int, tuple[int, ...], int]


def _table() -> tuple[tuple[Triple, ...], dict[Triple, int]]:
    triples: list[Triple] = []
    for card in CARDS:
        rank = card >> 2
        for base in _bases(rank):
            runs = range(NUM_RANKS - rank) if base else range(1)
            triples.extend((int(card), base, k) for k in runs)
    return tuple(triples), {t: i for i, t in enumerate(triples)}


#: ``MOVE_TRIPLES[id]`` is ``(card index, base rank indices, escalera length)`` for every move id.
MOVE_TRIPLES, _IDS = _table()
NUM_MOVE_IDS: Final = len(MOVE_TRIPLES)
#: The first claim id; claim ``i`` of the seat's ``claimable`` list is ``CLAIM_BASE + i``.
CLAIM_BASE: Final = NUM_MOVE_IDS
#: The size of the action space (every interface's ``num_distinct_actions`` / ``Discrete(n)``).
NUM_ACTIONS: Final = NUM_MOVE_IDS + MAX_CLAIMS


class ActionIdError(ValueError):
    """An action id that is not a legal action here, or an action that has no id."""


def action_id(action: Action, claimable: Sequence[Sequence[Card]] = ()) -> int:
    """The id of ``action``; a claim's id needs the seat's ``claimable`` list (``view.claimable``).

    >>> action_id(Move.parse("Ah")), action_id(Move.parse("Ah xAs")), action_id(Move.parse("Ah xAs,2c"))
    (0, 1, 2)
    >>> offered = [Card.parse_many("4d"), Card.parse_many("5s")]
    >>> action_id(Claim.parse("claim 5s"), claimable=offered) - CLAIM_BASE
    1
    """
    if isinstance(action, Claim):
        for i, option in enumerate(claimable):
            if tuple(option) == action.cards:
                if i >= MAX_CLAIMS:
                    break
                return CLAIM_BASE + i
        raise ActionIdError(f"{action} is not among the {len(claimable)} claims offered")
    key = (int(action.card), tuple(sorted(c >> 2 for c in action.base)), len(action.run))
    found = _IDS.get(key)
    if found is None:
        raise ActionIdError(f"{action} is not a move of Cuarenta: no action id")
    return found


def legal_ids(legal: Sequence[Action], claimable: Sequence[Sequence[Card]] = ()) -> list[int]:
    """The sorted ids of the legal actions (``game.legal_moves()`` and ``game.claimable``)."""
    return sorted(action_id(a, claimable) for a in legal)


def actions_by_id(legal: Sequence[Action], claimable: Sequence[Sequence[Card]] = ()) -> dict[int, Action]:
    """Each legal action under its id, in id order: the way back from an id to the engine's move."""
    pairs = sorted((action_id(a, claimable), a) for a in legal)
    return dict(pairs)


def action_mask(ids: Sequence[int]) -> list[int]:
    """A 0/1 list of length :data:`NUM_ACTIONS` with a 1 at each of ``ids``.

    >>> mask = action_mask([0, 2]); len(mask), sum(mask), mask[:3]
    (1056, 2, [1, 0, 1])
    """
    mask = [0] * NUM_ACTIONS
    for i in ids:
        mask[i] = 1
    return mask


def describe_id(action: int) -> str:
    """The id's meaning in move notation with ranks for the table cards, e.g. ``'7h x3+4,J'``.

    >>> describe_id(0), describe_id(CLAIM_BASE + 2)
    ('Ah', 'claim #2')
    """
    if not 0 <= action < NUM_ACTIONS:
        raise ActionIdError(f"action id {action} is out of range: ids are 0 to {NUM_ACTIONS - 1}")
    if action >= CLAIM_BASE:
        return f"claim #{action - CLAIM_BASE}"
    card, base, run = MOVE_TRIPLES[action]
    text = str(CARDS[card])
    if base:
        text += " x" + "+".join(RANK_CHARS[r] for r in base)
        text += "".join("," + RANK_CHARS[(card >> 2) + 1 + i] for i in range(run))
    return text


__all__ = [
    "CLAIM_BASE",
    "MAX_CLAIMS",
    "MOVE_TRIPLES",
    "NUM_ACTIONS",
    "NUM_MOVE_IDS",
    "ActionIdError",
    "action_id",
    "action_mask",
    "actions_by_id",
    "describe_id",
    "legal_ids",
]
