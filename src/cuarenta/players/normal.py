"""``normal``: seed 001's middle level, which "cuida sus cartas".

It counts cards (what has been captured, what lies on the table, what is
still unseen) and weighs every legal move by one ply of risk:

    value = what the move scores now (points, the win, the cartón worth of the cards)
          - the expected best reply of the next seat on the table it leaves

The next seat's hand is drawn from the unseen cards (an announced ronda is
known to be there; a rank it let a caída on pass, or could have captured with
and did not, is probably not), so the chances are hypergeometric odds by rank
(:mod:`cuarenta.players.heuristics`). From this follow the habits seed 001
recommends: a caída on the card just dropped is taken (it gets a small bonus
on top of its points, so it wins close calls); a capture that leaves a lone
card (an easy limpia) or an easy sum-limpia is weighed against the alternatives
by how likely the next seat is to hold the card that clears the table; when
nothing can be taken the card dropped is the one the next seat is least likely
to fall on — first a rank whose mates are all gone. The
cartón (20 cards, R23) makes cards worth more near and below 20 cards, and the
thresholds follow from scoring every gain with the real rules: from 30 a
caída a la ronda is an ordinary caída (R19), at 36 a caída y limpia wins, at
38 only a caída scores (R20) — so at 38 it plays for caídas, and against a
team at 38 it denies them above all. With 4 players the next seat is an
opponent and the one after a partner: cards left that the partner can take
weigh a little in favour. No search beyond that one ply (that is ``dificil``).
"""

from __future__ import annotations

from collections.abc import Sequence

from cuarenta.captures import capture_options
from cuarenta.cards import Card
from cuarenta.moves import Action, Claim, Move
from cuarenta.players.base import Player, View
from cuarenta.players.heuristics import (
    Outlook,
    capture_points,
    expected_best,
    outlook,
    points_value,
    reply_gains,
    reply_risk,
    shown_absent,
    table_code,
)
from cuarenta.players.knowledge import Knowledge
from cuarenta.rules import is_caida, is_limpia

#: Weight of the partner's expected gain on the table we leave (4 players): the opponent
#: plays in between and may take it first.
PARTNER_WEIGHT = 0.35
#: Extra worth of a caída beyond its points and cards: seed 001's "si tienes una igual,
#: llévatela" settles close calls (measured neutral for strength against facil).
CAIDA_BONUS = 1.0
#: Values closer than this are ties, broken by the seeded random generator.
_TIE = 1e-9


class NormalPlayer(Player):
    """Counts cards and looks one reply ahead (see the module docstring)."""

    name = "normal"

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        scored = self.evaluate(view, legal)
        best = max(v for v, _ in scored)
        top = [a for v, a in scored if v >= best - _TIE]
        return top[0] if len(top) == 1 else top[self.rng.randrange(len(top))]

    def evaluate(self, view: View, legal: Sequence[Action]) -> list[tuple[float, Action]]:
        """(value, action) for the actions worth weighing, in points for our team.

        In manual capture (R12) partial captures are left out (see :func:`_candidates`).
        """
        know = Knowledge.from_view(view)
        absent = shown_absent(view, know.rules).get((know.seat + 1) % know.players)
        look = outlook(know, dealer=view.dealer, rondas=view.rondas, absent=absent)
        scored: list[tuple[float, Action]] = [
            (_move_value(look, know, know.table, know.last_drop, m), m) for m in _candidates(legal, know)
        ]
        for claim in legal:
            if isinstance(claim, Claim):
                scored.append((_claim_value(look, know, claim), claim))
        return scored


def _claim_value(look: Outlook, know: Knowledge, claim: Claim) -> float:
    """A claim (R12) is free cards, then the best whole move on the table it leaves."""
    taken = set(claim.cards)
    table = [c for c in know.table if c not in taken]
    drop = None if know.last_drop in taken else know.last_drop
    best = max(_move_value(look, know, table, drop, move) for move in _full_moves(know.hand, table, drop))
    return look.my_card * len(claim.cards) + best


def _move_value(
    look: Outlook,
    know: Knowledge,
    table: Sequence[Card],
    drop: Card | None,
    move: Move,
) -> float:
    """What playing ``move`` on ``table`` (``drop`` just dropped) gains now, minus the next seat's
    expected best reply on the table it leaves, plus a share of the partner's (4 players)."""
    rules = look.rules
    score = look.scores[look.team]
    card, taken = move.card, move.taken
    if taken:
        caida = is_caida(move, drop)  # R13 and R14, as the engine says them
        limpia = is_limpia(move, len(table))
        prev = (look.seat - 1) % look.players
        ronda_caida = caida and drop is not None and (prev, drop >> 2) in look.rondas
        pts = capture_points(rules, score, caida=caida, limpia=limpia, ronda_caida=ronda_caida)
        gain = points_value(rules, score, pts) + look.my_card * (len(taken) + 1) + CAIDA_BONUS * caida
        gone = set(taken)
        left = [c for c in table if c not in gone]
        new_drop: Card | None = None
    else:
        gain = 0.0
        left = [*table, card]
        new_drop = card
    value = gain - reply_risk(look, left, new_drop)
    if look.players == 4 and left and not look.ends_deal:
        value += PARTNER_WEIGHT * _partner_gain(look, know, left)
    return value


def _partner_gain(look: Outlook, know: Knowledge, table: Sequence[Card]) -> float:
    """Expected best gain of our partner (two seats on) on ``table``, with no caída open."""
    partner = (look.seat + 2) % look.players
    gains = reply_gains(look, table, None, team=look.team, victim=-1, card_value=look.my_card)
    return expected_best(gains, look.free_by_rank, look.free_pool, know.hand_sizes[partner])


def _candidates(legal: Sequence[Action], know: Knowledge) -> list[Move]:
    """The moves worth weighing: in manual capture (R12) only whole captures (base and the full
    escalera) and drops of cards that take nothing — anything less leaves cards to claim."""
    moves = [a for a in legal if isinstance(a, Move)]
    if know.rules.capture != "manual":
        return moves
    longest: dict[tuple[Card, tuple[Card, ...]], Move] = {}
    capturing: set[Card] = set()
    for m in moves:
        if m.base:
            capturing.add(m.card)
            key = (m.card, m.base)
            if key not in longest or len(m.run) > len(longest[key].run):
                longest[key] = m
    chosen = [m for m in moves if not m.base and m.card not in capturing]
    chosen += longest.values()
    return chosen or moves


def _full_moves(hand: Sequence[Card], table: Sequence[Card], drop: Card | None) -> list[Move]:
    """Every whole capture or drop of ``hand`` on ``table`` (by rank), a pair taking the dropped card
    ``drop`` when it can (as the engine does)."""
    by: dict[int, list[Card]] = {}
    for c in table:
        by.setdefault(c >> 2, []).append(c)
    if drop is not None and drop in table:
        same = by[drop >> 2]
        same.remove(drop)
        same.insert(0, drop)
    code = table_code(table)
    out: list[Move] = []
    for card in hand:
        opts = capture_options(code, card >> 2)
        if not opts:
            out.append(Move(card))
            continue
        for base, run in opts:
            used: dict[int, int] = {}
            cards: list[Card] = []
            for r in (*base, *run):
                k = used.get(r, 0)
                cards.append(by[r][k])
                used[r] = k + 1
            out.append(Move(card, tuple(cards[: len(base)]), tuple(cards[len(base) :])))
    return out
