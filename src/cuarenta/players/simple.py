"""The simplest players: ``aleatorio`` (uniformly random) and ``facil``.

``facil`` is seed 001's easy level, which plays "sin malicia": it takes what
it sees — a caída first, then a limpia, then the capture with most cards — and
otherwise drops a card at random. No look-ahead, no care for what it leaves.
"""

from __future__ import annotations

from collections.abc import Sequence

from cuarenta.moves import Action, Claim, Move
from cuarenta.players.base import Player, View


class RandomPlayer(Player):
    """Chooses uniformly among the legal actions."""

    name = "aleatorio"

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        return legal[self.rng.randrange(len(legal))]


def capture_facts(move: Move, view: View) -> tuple[bool, bool, int]:
    """(caída, limpia, cards taken) of a move in the position of ``view``."""
    return view.is_caida(move), view.is_limpia(move), len(move.taken)


class FacilPlayer(Player):
    """Takes what it sees (caída, then limpia, then most cards); else a random drop."""

    name = "facil"

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        claims = [a for a in legal if isinstance(a, Claim)]
        if claims:
            return max(claims, key=lambda c: len(c.cards))
        moves = [a for a in legal if isinstance(a, Move)]
        best: list[Move] = []
        best_key = (False, False, 0)
        for move in moves:
            if not move.base:
                continue
            key = capture_facts(move, view)
            if key > best_key:
                best, best_key = [move], key
            elif key == best_key:
                best.append(move)
        if best:
            return best[self.rng.randrange(len(best))]
        drops = [m for m in moves if not m.base] or moves
        return drops[self.rng.randrange(len(drops))]
