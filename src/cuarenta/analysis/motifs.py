"""What a costly move did wrong, in the game's words (docs/analysis.md "What the analysis says").

A *motif* compares the move played with the best one at the same position: it reads only what the seat
saw then (the table, the card just dropped, its own hand, the rondas announced) and, for the two motifs
that say what a rival then made of the move (``gave_caida``, ``left_caida_limpia``), the next play of the
record, which everyone saw. Each motif is a code; its words are ``analysis.motif.<code>`` of the text
catalogue, in Spanish and English.

>>> from cuarenta import CARDS, Card, Game, Rules
>>> from cuarenta.moves import Move
>>> named = Card.parse_many("5h Kc 2s 3d 5s Jd")
>>> rest = [c for c in CARDS if c not in named]
>>> game = Game.from_position(Rules(), hands=[["5h", "Kc"], ["2s", "3d"]], table=["5s", "Jd"],
...     turn=0, dealer=1, piles=[rest[:17], rest[17:]])
>>> motifs(game, played=Move.parse("Kc"), best=Move.parse("5h x5s"), after=Move.parse("2s"))
('missed_pair',)
"""

from __future__ import annotations

from typing import Final

from cuarenta.game import Game
from cuarenta.moves import Action, Claim, Move
from cuarenta.players.knowledge import Knowledge
from cuarenta.rules import is_caida

#: Every motif, in the order a move's are listed (docs/analysis.md lists their words).
MOTIFS: Final = (
    "missed_caida",  # the best move made a caída; the one played did not
    "missed_limpia",  # the best move cleared the table; the one played did not
    "missed_claim",  # manual capture: a claim was open and the move played was not it
    "missed_pair",  # the best move took cards; the one played took nothing
    "fewer_cards",  # the best move took at least two cards more (cards for the cartón)
    "forgot_cards",  # manual capture: the card played could take more than it was declared to
    "risky_drop",  # dropped a rank the others were likelier to hold (more of it unseen) than the best drop's
    "broke_ronda",  # dropped a card of the seat's own ronda (a caída on it is a caída a la ronda)
    "left_caida_limpia",  # a card dropped alone on the table, which the next seat took: caída y limpia
    "gave_caida",  # a card dropped that the next seat then took: a caída
)


def _taken(action: Action) -> int:
    """Cards an action puts in the team's pile (the played card with its capture; a claim's cards)."""
    if isinstance(action, Claim):
        return len(action.cards)
    return len(action.taken) + 1 if action.base else 0


def _caida(action: Action, game: Game) -> bool:
    return isinstance(action, Move) and is_caida(action, game.last_drop)


def _limpia(action: Action, game: Game) -> bool:
    return isinstance(action, Move) and bool(action.base) and len(action.taken) == len(game.table)


def _drop(action: Action) -> bool:
    return isinstance(action, Move) and not action.base


def _took_it(dropped: Move, after: Action | None) -> bool:
    """Whether ``after`` (the next play) took ``dropped`` by igualdad: a caída on it."""
    return isinstance(after, Move) and after.base == (dropped.card,)


def _drop_motifs(game: Game, played: Move, best: Action, after: Action | None) -> set[str]:
    """The motifs of a card dropped (``played`` takes nothing)."""
    found: set[str] = set()
    seat = game.turn
    rank = played.card >> 2
    view = game.view(seat)
    own_rondas = {r for s, r in view.rondas if s == seat}
    best_rank = best.card >> 2 if _drop(best) and isinstance(best, Move) else None
    if best_rank is not None and best_rank != rank:
        unseen = Knowledge.from_view(view).unseen_by_rank
        if unseen[rank] > unseen[best_rank]:
            found.add("risky_drop")
    if rank in own_rondas and best_rank != rank:
        found.add("broke_ronda")
    if _took_it(played, after):
        found.add("left_caida_limpia" if not game.table else "gave_caida")
    return found


def motifs(game: Game, played: Action, best: Action, after: Action | None) -> tuple[str, ...]:
    """The motifs of ``played`` against ``best`` at ``game``'s position (the seat to move played it);
    ``after`` is the next play of the record (``None`` at its end). Empty when the two do the same."""
    found: set[str] = set()
    if _caida(best, game) and not _caida(played, game):
        found.add("missed_caida")
    if _limpia(best, game) and not _limpia(played, game):
        found.add("missed_limpia")
    if isinstance(best, Claim) and not isinstance(played, Claim):
        found.add("missed_claim")
    taken_best, taken_played = _taken(best), _taken(played)
    if taken_played == 0 and taken_best > 0 and not isinstance(best, Claim):
        found.add("missed_pair")
    elif taken_best - taken_played >= 2:
        found.add("fewer_cards")
    if isinstance(played, Move) and game.rules.capture == "manual":
        more = [a for a in game.legal_moves() if isinstance(a, Move) and a.card == played.card]
        if any(len(a.taken) > len(played.taken) for a in more):
            found.add("forgot_cards")
    if isinstance(played, Move) and not played.base:
        found |= _drop_motifs(game, played, best, after)
    return tuple(m for m in MOTIFS if m in found)


__all__ = ["MOTIFS", "motifs"]
