"""Evaluation helpers shared by the computer players.

Everything here is a pure function of a :class:`~cuarenta.players.knowledge.Knowledge`
(what one seat can know), a table and some cards: no game object, no hidden
cards, no randomness. Values are in *points* of the chica from the point of
view of one team: a scoring capture is worth the points the rules would really
give it (R13–R20, so a limpia at 38 is worth nothing), plus :data:`WIN_BONUS`
when it reaches the target, plus the cartón worth of the cards it takes
(:func:`carton_card_values`).

The pieces:

- :func:`capture_points` — the points a capture would score for a team, after R18–R20.
- :func:`prob_none` — hypergeometric chance that a hidden hand holds none of some cards.
- :func:`expected_best` — expected best of per-rank gains for a seat whose hand is drawn
  from the unseen cards ("what is the next seat's best reply worth, on average?").
- :func:`mates_gone` / :func:`unseen_mates` — cards whose other cards of the rank are all seen.
- :func:`carton_card_values` — what one more card in each team's pile is worth, near and
  below the 20 cards of the cartón (R23) and near the target.
- :class:`Outlook` with :func:`outlook` — these facts gathered once per turn for one seat,
  and :func:`reply_gains` / :func:`reply_risk` — what a seat can make of a table we leave:
  the risk that the next seat makes a caída or a limpia after we play.

>>> from cuarenta import Game, Rules
>>> from cuarenta.players.knowledge import Knowledge
>>> game = Game.new(Rules(), seed=4)
>>> know = Knowledge.from_view(game.view(game.turn))
>>> look = outlook(know)
>>> look.next_seat == (game.turn + 1) % 2
True
>>> reply_risk(look, [], None) == 0.0          # nothing on the table: nothing to take
True
>>> round(prob_none(pool=10, hand=5, cards=1), 3)   # a given card is in a 5-card hand half the time
0.5
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from cuarenta.captures import RANK_UNIT, capture_options
from cuarenta.cards import Card
from cuarenta.events import ClaimMade, Deal, Play
from cuarenta.players.knowledge import Knowledge
from cuarenta.rules import Rules
from cuarenta.view import SeatView

#: Worth of winning the chica at once, in points (a caída is 2).
WIN_BONUS = 30.0
#: Cards expected to stay on the table at the end of a hand (R22), for the cartón forecast.
_LEFTOVERS = 3
#: Spread of the final pile sizes relative to a coin toss per card (measured: about 1.6).
_LUMP = 1.6


# -- points --------------------------------------------------------------------------------------
def award(rules: Rules, score: int, points: int, caida: bool) -> int:
    """The points a team with ``score`` really gets for ``points`` (R20, :meth:`Rules.award`).

    >>> award(Rules(), 38, 2, caida=False), award(Rules(), 38, 4, caida=True), award(Rules(), 20, 4, True)
    (0, 2, 4)
    """
    return rules.award(score, points, caida=caida)[0]


def capture_points(rules: Rules, score: int, *, caida: bool, limpia: bool, ronda_caida: bool = False) -> int:
    """Points a capture scores for a team with ``score`` (R13–R15, R18–R20, :meth:`Rules.capture_score`).

    >>> capture_points(Rules(), 0, caida=True, limpia=True)
    4
    >>> capture_points(Rules(), 36, caida=False, limpia=True)
    2
    >>> capture_points(Rules(), 0, caida=True, limpia=False, ronda_caida=True)
    10
    """
    return rules.capture_score(score, caida=caida, limpia=limpia, ronda_caida=ronda_caida).points


def points_value(rules: Rules, score: int, points: int) -> float:
    """``points`` for a team with ``score``, plus :data:`WIN_BONUS` if they reach the target (R24)."""
    if points and score + points >= rules.target:
        return points + WIN_BONUS
    return float(points)


# -- probabilities -------------------------------------------------------------------------------
def prob_none(pool: float, hand: int, cards: float) -> float:
    """Chance that ``hand`` cards drawn from ``pool`` unseen ones miss all of ``cards`` given ones.

    >>> prob_none(pool=5, hand=5, cards=1), prob_none(pool=20, hand=0, cards=3)
    (0.0, 1.0)
    """
    if cards <= 0 or hand <= 0:
        return 1.0
    if cards > pool - hand:
        return 0.0
    p = 1.0
    for i in range(hand):
        p *= (pool - cards - i) / (pool - i)
    return p


def expected_best(
    gains: Sequence[float],
    counts: Sequence[float],
    pool: float,
    hand: int,
    certain: Sequence[int] = (),
) -> float:
    """Expected best of ``gains[rank]`` over the ranks a hidden hand holds (0 if none gains).

    The hand holds ``hand`` cards drawn at random from ``pool`` unseen cards, ``counts[rank]``
    of them of each rank; it also surely holds the ranks in ``certain`` (announced rondas).
    Only positive gains count: a seat with nothing to gain simply drops a card.

    >>> expected_best([4.0, 2.0], [1, 1], pool=2, hand=1)   # one of the two cards, equally likely
    3.0
    >>> expected_best([4.0, 2.0], [0, 1], pool=2, hand=1, certain=[1])
    2.0
    """
    order = sorted((r for r in range(len(gains)) if gains[r] > 0), key=lambda r: -gains[r])
    total = 0.0
    missing = 0.0  # unseen cards of the better ranks (all missed so far)
    p_prev = 1.0
    for r in order:
        if r in certain:
            return total + gains[r] * p_prev
        missing += counts[r]
        p_now = prob_none(pool, hand, missing)
        total += gains[r] * (p_prev - p_now)
        p_prev = p_now
        if p_now <= 0.0:
            break
    return total


# -- cards whose mates are gone ------------------------------------------------------------------
def unseen_mates(know: Knowledge, rank: int) -> int:
    """How many cards of ``rank`` the seat has not seen (they are in other hands or the stock)."""
    return know.unseen_by_rank[rank]


def mates_gone(know: Knowledge, rank: int) -> bool:
    """True when every other card of ``rank`` is seen (captured, on the table or in our hand):
    a card of that rank dropped now can never be fallen on (no caída, R13).

    >>> from cuarenta import Game, Rules
    >>> know = Knowledge.from_view(Game.new(Rules(), seed=4).view(0))
    >>> mates_gone(know, 0)
    False
    """
    return know.unseen_by_rank[rank] == 0


# -- the cartón ----------------------------------------------------------------------------------
def _carton_utility(
    rules: Rules, counts: tuple[int, int], scores: tuple[int, int], dealer_team: int
) -> float:
    """Team 0's gain from the cartón at the end of the hand: its points minus team 1's, or
    ±:data:`WIN_BONUS` when the count decides the chica (R24)."""
    (p0, _), (p1, _) = rules.carton(counts, dealer_team)
    nominal = (p0, p1)
    got = [award(rules, scores[t], nominal[t], False) for t in (0, 1)]
    final = (scores[0] + got[0], scores[1] + got[1])
    diff = float(got[0] - got[1])
    zapatero = rules.zapatero_winner(final)
    winner = zapatero if zapatero is not None else rules.chica_winner(final, dealer_team)
    if winner is None:
        return diff
    return diff + (WIN_BONUS if winner == 0 else -WIN_BONUS)


@lru_cache(maxsize=4096)
def _carton_forecast(
    rules: Rules, piles: tuple[int, int], left: int, scores: tuple[int, int], dealer_team: int
) -> float:
    """Expected :func:`_carton_utility` when the ``left`` cards still in play (minus a few
    leftovers) are shared between the teams: evenly on average, with the spread of real
    hands (cards are won a few at a time, so the spread is wider than a coin toss per card)."""
    share = max(0, left - _LEFTOVERS)
    if share == 0:
        return _carton_utility(rules, piles, scores, dealer_team)
    mean = share / 2
    sd = _LUMP * 0.5 * math.sqrt(share)
    total = 0.0
    prev = 0.0
    for x in range(share + 1):
        cdf = 1.0 if x == share else 0.5 * (1 + math.erf((x + 0.5 - mean) / (sd * math.sqrt(2))))
        p = cdf - prev
        prev = cdf
        if p > 1e-6:
            total += p * _carton_utility(rules, (piles[0] + x, piles[1] + share - x), scores, dealer_team)
    return total


def carton_card_values(know: Knowledge, team: int, dealer: int) -> tuple[float, float]:
    """(worth to ``team`` of one more card in its own pile, worth to the other team of one more
    card in theirs), both in points for their owner.

    The rest of the hand's cards are forecast to be shared evenly, with the spread real hands
    show. Far from 20 cards a card is worth about two thirds of a point; near the 20 cards that
    decide the cartón (R23), or when the cartón can end the chica (R24), two points or more. For a
    team at 38 with ``treinta_y_ocho`` (R20) its own cartón gives nothing, and a card is worth
    only what it denies the other team.

    >>> from cuarenta import Game, Rules
    >>> know = Knowledge.from_view(Game.new(Rules(), seed=4).view(0))
    >>> [round(v, 2) for v in carton_card_values(know, 0, dealer=1)]   # the start of a hand
    [0.91, 0.91]
    """
    piles = (len(know.piles[0]), len(know.piles[1]))
    left = 40 - piles[0] - piles[1]
    scores = (int(know.scores[0]), int(know.scores[1]))
    dt = dealer & 1
    base = _carton_forecast(know.rules, piles, left, scores, dt)
    if left <= 0:
        return 0.0, 0.0
    more0 = _carton_forecast(know.rules, (piles[0] + 1, piles[1]), left - 1, scores, dt) - base
    more1 = base - _carton_forecast(know.rules, (piles[0], piles[1] + 1), left - 1, scores, dt)
    # more0: team 0's gain from one more card of its own; more1: team 1's gain from one of its own
    return (more0, more1) if team == 0 else (more1, more0)


# -- what the other seats showed they do not hold -----------------------------------------------
#: How sure we are that a seat holds no card of a rank after it let a caída on that rank pass
#: (nearly every player takes a caída), and after it dropped a card while that rank would have
#: taken something (most players take what they can).
DECLINED_CAIDA = 0.95
DECLINED_CAPTURE = 0.7


#: A public event of the hand as :func:`shown_absent` reads it: (kind, seat, card played, cards taken).
_HandEvent = tuple[str, int, Card | None, tuple[Card, ...]]


def _hand_events(view: SeatView) -> list[_HandEvent]:
    """The plays, claims and deals of the view's public history, in order."""
    events: list[_HandEvent] = []
    for e in view.history:
        if isinstance(e, Play):
            events.append(("play", e.seat, e.move.card, e.move.taken))
        elif isinstance(e, ClaimMade):
            events.append(("claim", e.seat, None, e.cards))
        elif isinstance(e, Deal):
            events.append(("deal", -1, None, ()))
    return events


def _tables_before(events: list[_HandEvent], table_now: list[Card]) -> list[list[Card]]:
    """The table before each event, rebuilt backwards from the table now."""
    tables: list[list[Card]] = [[] for _ in events]
    table = table_now
    for i in range(len(events) - 1, -1, -1):
        kind, _, card, taken = events[i]
        if kind == "play" and not taken:
            table = [c for c in table if c != card]
        elif taken:
            table = table + list(taken)
        tables[i] = table
    return tables


def shown_absent(view: SeatView, rules: Rules) -> dict[int, dict[int, float]]:
    """For each seat, the ranks it has shown it does not hold in the current deal.

    Read from the public history of the hand: the table before each play is rebuilt backwards
    from the current table. A seat that did not fall on the card just dropped (R13) probably
    holds none of its rank; a seat that dropped a card when some rank would have captured
    something probably holds none of that rank (in automatic capture, R12). Hands only shrink
    within a deal, so this holds until the next deal. Values are confidences in 0..1
    (:data:`DECLINED_CAIDA`, :data:`DECLINED_CAPTURE`). A caída the position began with (a game
    from :meth:`~cuarenta.Game.from_position`) is not known and reads as nothing.
    """
    events = _hand_events(view)
    tables = _tables_before(events, list(view.table))
    manual = rules.capture == "manual"
    two = rules.sum_cards == "two"
    absent: dict[int, dict[int, float]] = {}
    drop: Card | None = None
    for i, (kind, seat, played, taken) in enumerate(events):
        if kind == "deal":
            absent = {}
            if not rules.caida_across_deals:
                drop = None
            continue
        if kind == "claim":
            if drop in taken:
                drop = None
            continue
        assert played is not None
        mine = absent.setdefault(seat, {})
        if drop is not None and not (played >> 2 == drop >> 2 and taken and taken[0] == drop):
            mine[drop >> 2] = max(mine.get(drop >> 2, 0.0), DECLINED_CAIDA)
        if not taken and not manual and tables[i]:
            code = table_code(tables[i])
            for rank in range(10):
                if capture_options(code, rank, two):
                    mine[rank] = max(mine.get(rank, 0.0), DECLINED_CAPTURE)
        mine.pop(played >> 2, None)  # it held that one: whatever we thought, start again
        drop = None if taken else played
    return absent


# -- what a seat can make of a table -------------------------------------------------------------
@dataclass(frozen=True)
class Outlook:
    """What one seat needs, once per turn, to weigh the tables it may leave.

    Built by :func:`outlook`. ``my_card``/``their_card`` are the cartón worth of one card
    (see :func:`carton_card_values`).
    """

    rules: Rules
    seat: int
    team: int
    players: int
    scores: tuple[int, int]
    my_card: float
    their_card: float
    next_seat: int
    #: cards the next seat will hold when it plays (5 after a new deal)
    next_hand: int
    #: True when our move ends the deal (the next seat plays on a fresh deal, no caída)
    ends_deal: bool
    #: True when our move ends the hand: nobody plays on the table we leave
    ends_hand: bool
    #: unseen cards per rank not known to be in someone's ronda
    free_by_rank: tuple[int, ...]
    free_pool: int
    #: the same for the next seat's hand, less what it showed it does not hold (:func:`shown_absent`)
    next_by_rank: tuple[float, ...]
    next_pool: float
    #: ranks the next seat surely holds (an announced ronda it still holds), with counts
    next_known: tuple[tuple[int, int], ...]
    #: (seat, rank) rondas announced this deal: a caída on such a card dropped by that seat is a ronda caída
    rondas: frozenset[tuple[int, int]]
    two_only: bool


def outlook(
    know: Knowledge,
    dealer: int | None = None,
    rondas: Sequence[tuple[int, int]] = (),
    absent: dict[int, float] | None = None,
) -> Outlook:
    """Gather the per-turn facts for ``know.seat``.

    ``dealer`` is the dealer's seat (``view.dealer``; it breaks cartón ties, R23; when not
    given, the next seat is taken for the dealer), ``rondas``
    the (seat, rank index) rondas announced in this deal (``view.rondas``), ``absent`` the
    ranks the next seat showed it does not hold, with confidences (:func:`shown_absent`).
    """
    n = know.players
    seat = know.seat
    team = seat & 1
    nxt = (seat + 1) % n
    others_left = sum(know.hand_sizes) - know.hand_sizes[seat]
    mine_left = know.hand_sizes[seat] - 1
    ends_deal = others_left == 0 and mine_left == 0
    ends_hand = ends_deal and know.stock_size == 0
    next_hand = 5 if ends_deal else know.hand_sizes[nxt]
    free = list(know.unseen_by_rank)
    known_total = 0
    next_known: list[tuple[int, int]] = []
    if not ends_deal:
        for s, ranks in know.known_held.items():
            for rank, count in ranks.items():
                count = min(count, free[rank])
                free[rank] -= count
                known_total += count
                if s == nxt:
                    next_known.append((rank, count))
    if dealer is None:
        dealer = (seat + 1) % n
    my_card, their_card = carton_card_values(know, team, dealer)
    pool = len(know.unseen) - known_total
    next_counts = [float(c) for c in free]
    next_pool = float(pool)
    if absent and not ends_deal:
        for rank, conf in absent.items():
            cut = free[rank] * conf
            next_counts[rank] -= cut
            next_pool -= cut
    return Outlook(
        rules=know.rules,
        seat=seat,
        team=team,
        players=n,
        scores=(int(know.scores[0]), int(know.scores[1])),
        my_card=my_card,
        their_card=their_card,
        next_seat=nxt,
        next_hand=next_hand,
        ends_deal=ends_deal,
        ends_hand=ends_hand,
        free_by_rank=tuple(free),
        free_pool=pool,
        next_by_rank=tuple(next_counts),
        next_pool=next_pool,
        next_known=tuple(next_known),
        rondas=frozenset(rondas),
        two_only=know.rules.sum_cards == "two",
    )


def table_code(cards: Sequence[int]) -> int:
    """The capture-table code (3 bits per rank) of some cards."""
    code = 0
    for c in cards:
        code += RANK_UNIT[c >> 2]
    return code


def reply_gains(
    look: Outlook,
    table: Sequence[Card],
    last_drop: Card | None,
    *,
    team: int,
    victim: int,
    card_value: float,
) -> list[float]:
    """For each rank: the best a seat of ``team`` gains by playing a card of that rank on ``table``.

    ``last_drop`` is the card it may fall on (R13), dropped by seat ``victim``; a gain is the
    capture's points (:func:`capture_points`, :func:`points_value`) plus ``card_value`` per card
    taken (the played card included). A rank that takes nothing gains 0.
    """
    rules = look.rules
    score = look.scores[team]
    code = table_code(table)
    n_table = len(table)
    drop_rank = -1 if last_drop is None else last_drop >> 2
    ronda_drop = last_drop is not None and (victim, drop_rank) in look.rondas
    gains = [0.0] * 10
    if not n_table:
        return gains
    for rank in range(10):
        best = 0.0
        for base, run in capture_options(code, rank, look.two_only):
            taken = len(base) + len(run)
            caida = rank == drop_rank and len(base) == 1
            limpia = taken == n_table
            pts = capture_points(rules, score, caida=caida, limpia=limpia, ronda_caida=caida and ronda_drop)
            value = points_value(rules, score, pts) + card_value * (taken + 1)
            if value > best:
                best = value
        gains[rank] = best
    return gains


def reply_risk(look: Outlook, table: Sequence[Card], last_drop: Card | None) -> float:
    """Expected gain (in points for the other team) of the next seat's best reply on ``table``.

    ``last_drop`` is our dropped card (it may fall on it: a caída) or ``None`` after a capture.
    Its hand is drawn from the unseen cards (with any ronda it announced); after the last move of
    a deal it plays a fresh hand and cannot fall on our card (R13, ``caida_across_deals`` off);
    after the last move of a hand, nobody plays on the table (R22): no risk.
    """
    if look.ends_hand or not table:
        return 0.0
    drop = last_drop
    if look.ends_deal and not look.rules.caida_across_deals:
        drop = None
    gains = reply_gains(look, table, drop, team=1 - look.team, victim=look.seat, card_value=look.their_card)
    certain = [r for r, _ in look.next_known]
    known = sum(c for _, c in look.next_known)
    return expected_best(gains, look.next_by_rank, look.next_pool, look.next_hand - known, certain)


def limpia_chance(look: Outlook, table: Sequence[Card]) -> float:
    """Chance that the next seat can clear ``table`` (a limpia, R14) with one card.

    A lone card is cleared by any card of its rank; two or more by a pair-and-escalera or a sum.
    """
    if look.ends_hand or not table:
        return 0.0
    code = table_code(table)
    n_table = len(table)
    ranks = [
        r
        for r in range(10)
        if any(len(b) + len(run) == n_table for b, run in capture_options(code, r, look.two_only))
    ]
    if any(r == k for r, _ in look.next_known for k in ranks):
        return 1.0
    known = sum(c for _, c in look.next_known)
    missing = sum(look.next_by_rank[r] for r in ranks)
    return 1.0 - prob_none(look.next_pool, look.next_hand - known, missing)
