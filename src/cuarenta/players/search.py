"""Alpha-beta search over one fully known world, for the ``dificil`` and ``oracle`` players.

A *world* is a :class:`~cuarenta.Game` in which every card is placed: the true
game (``oracle``) or one dealt at random consistently with a seat's view
(``dificil``, see :func:`~cuarenta.players.dificil.sample_inferred`). From it,
:class:`WorldSearch` plays on until the end of the current deal (or a depth
limit), team 0 maximising and team 1 minimising the probability that team 0
wins the chica, and values the leaves with a
:class:`~cuarenta.players.winprob.WinModel`:

* the chica won during play: 1 or 0;
* the end of the hand (the last deal): the cartón is counted (R23, R24) and
  the value is the chance to win from the next hand's start;
* the end of an earlier deal: the chance to win given the scores, the piles
  and the deals still to come, and the chance that the first seat of the next
  deal clears what is left on the table (a limpia). The next deal's cards are
  not looked at, so a sampled world's random next deal cannot leak in;
* the depth limit in the middle of a deal: the same, counting the rest of
  the deal as one more deal to come (optionally after the caída or limpia of
  the seat to move: a quiescence step).

Moves that differ only in suits are searched once (suits never matter for
play: R1). With manual capture (R12) the search considers, besides claims,
only full captures and drops of cards that take nothing: forgetting cards only
gives them to the next player.

>>> from cuarenta import CARDS, Card, Game, Rules
>>> from cuarenta.players.winprob import win_model
>>> named = Card.parse_many("7h Qd 6s 6d 3c 4d Js")
>>> rest = [c for c in CARDS if c not in named]
>>> game = Game.from_position(Rules(), hands=[["7h", "Qd"], ["6s", "6d"]], table=["3c", "4d", "Js"],
...     turn=0, dealer=1, piles=[rest[:17], rest[17:]])
>>> moves = game.legal_moves()
>>> [str(m) for m in moves]
['7h x3c+4d,Js', 'Qd']
>>> limpia, drop = WorldSearch(game, win_model(game.rules), depth=10).values(moves)
>>> limpia > drop   # team 0's chances: a limpia now (R14); after the 6 is dropped, none
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from math import comb

from cuarenta.captures import RANK_UNIT, capture_options, table_code
from cuarenta.cards import NUM_RANKS
from cuarenta.events import Caida, CaidaLimpia, CaidaRonda, Event
from cuarenta.game import Game
from cuarenta.moves import Action, Claim, Move
from cuarenta.players.winprob import WinModel
from cuarenta.rules import ZAPATERO_WINS_AT, Streak, is_caida, next_streak
from cuarenta.view import SeatView


def _none_of(size: int, bad: int, draw: int = 5) -> float:
    """Chance that ``draw`` cards from ``size`` include none of ``bad`` marked ones."""
    if bad <= 0:
        return 1.0
    if size - bad < draw:
        return 0.0
    return comb(size - bad, draw) / comb(size, draw)


#: R21 state (:data:`cuarenta.rules.Streak`), or None when the rule is off.
OptStreak = Streak | None

__all__ = ["WorldSearch", "move_classes", "rank_key", "view_streak"]


def rank_key(action: Action) -> tuple[object, ...]:
    """What an action does, by ranks only: equal keys mean equivalent actions (R1)."""
    if type(action) is Move:
        return (action.card >> 2, tuple(c >> 2 for c in action.base), tuple(c >> 2 for c in action.run))
    assert isinstance(action, Claim)
    return ("claim", tuple(sorted(c >> 2 for c in action.cards)))


def move_classes(actions: Sequence[Action], manual: bool) -> list[Action]:
    """One action per rank class, in the given order; with manual capture, only the sensible ones.

    Manual capture (R12): if something may be claimed, only the claims (a claim is
    free cards, and the seat still plays after it); otherwise full captures, and
    drops of cards that can take nothing.
    """
    if manual:
        claims = [a for a in actions if type(a) is Claim]
        if claims:
            actions = claims
        else:
            longest: dict[tuple[int, tuple[int, ...]], int] = {}
            captures: set[int] = set()
            for a in actions:
                if type(a) is Move and a.base:
                    base = (a.card >> 2, tuple(sorted(c >> 2 for c in a.base)))
                    longest[base] = max(longest.get(base, 0), len(a.run))
                    captures.add(a.card >> 2)
            kept: list[Action] = []
            for a in actions:
                if type(a) is not Move:
                    continue
                if a.base:
                    base = (a.card >> 2, tuple(sorted(c >> 2 for c in a.base)))
                    if len(a.run) == longest[base]:
                        kept.append(a)
                elif a.card >> 2 not in captures:
                    kept.append(a)
            actions = kept
    seen: set[tuple[object, ...]] = set()
    out: list[Action] = []
    for a in actions:
        k = rank_key(a)
        if k not in seen:
            seen.add(k)
            out.append(a)
    return out


class WorldSearch:
    """Alpha-beta to the end of the current deal in one world. Values: P(team 0 wins the chica).

    The world is read once from a :class:`~cuarenta.Game` through its public API;
    the search itself runs on ranks (hands and table as counts per rank, the
    capture options from :func:`~cuarenta.captures.capture_options`), scoring
    with the same rules as the engine (R13–R15, R18–R21, R23, R24) — about three
    times faster than pushing engine moves (``tests/test_player_dificil.py``
    checks that both give the same values). Inside the search every capture is
    taken in full, so no cards are forgotten (R12).
    """

    def __init__(
        self, game: Game, model: WinModel, depth: int, quiet: bool = True, streak: OptStreak = None
    ) -> None:
        """``depth``: plies (cards played; claims are free) searched below the root at most;
        ``quiet``: at that limit, let the seat to move make its caída or limpia (a quiescence step);
        ``streak``: the R21 state when ``game`` has no history to read it from (a sampled world)."""
        rules = game.rules
        self.model = model
        self.rules = rules
        self.depth = depth
        self.quiet = quiet
        self.nodes = 0
        n = game.players
        self.n = n
        self.hands = [[0] * NUM_RANKS for _ in range(n)]
        for s in range(n):
            for c in game.hand(s):
                self.hands[s][c >> 2] += 1
        self.cards = sum(sum(h) for h in self.hands)
        self.code = table_code(c >> 2 for c in game.table)
        self.last_drop = game.last_drop
        self.drop = -1 if game.last_drop is None else game.last_drop >> 2
        self.turn = game.turn
        self.scores = game.score
        self.piles = (len(game.pile(0)), len(game.pile(1)))
        self.deals_left = len(game.stock) // (5 * n)
        self.dealer_team = game.dealer & 1
        self.rondas = frozenset(10 * s + r for s, r in game.rondas)
        self.target = rules.target
        #: the lowest score at which a scoring event may end the chica (R24, R25)
        self.decide_from = min(rules.target, ZAPATERO_WINS_AT) if rules.zapatero_wins_mesa else rules.target
        self.blocked = rules.target - 2 if rules.treinta_y_ocho else 10 * rules.target
        self.limit = rules.ronda_limit if rules.ronda_limit is not None else 10 * rules.target
        self.clp = rules.caida_limpia_points
        self.crp = rules.caida_ronda_points
        self.two_only = rules.sum_cards == "two"
        self.memo = _FAST[self.two_only]
        stock = game.stock
        self.stock_size = len(stock)
        self.stock_counts = [0] * NUM_RANKS
        for c in stock:
            self.stock_counts[c >> 2] += 1
        self.limpias: dict[int, tuple[float, int]] = {}
        self.four = rules.cuatro_caidas_gana
        self.streak: OptStreak = (streak or _streak(game.hand_events())) if self.four else None

    # -- public -----------------------------------------------------------------------------------
    def values(self, roots: Sequence[Action]) -> list[float]:
        """The exact (full-window) value of each root action, as P(team 0 wins)."""
        return [self._root(a) for a in roots]

    def _root(self, action: Action) -> float:
        seat = self.turn
        s0, s1 = self.scores
        p0, p1 = self.piles
        code = self.code
        if type(action) is Claim:
            taken = len(action.cards)
            for c in action.cards:
                code -= RANK_UNIT[c >> 2]
            if seat & 1:
                p1 += taken
            else:
                p0 += taken
            drop = -1 if self.last_drop in action.cards else self.drop
            self.nodes += 1
            depth = self.depth
            return self._node(seat, code, drop, s0, s1, p0, p1, self.cards, depth, -1.0, 2.0, self.streak)
        assert isinstance(action, Move)
        r = action.card >> 2
        if not action.base:
            return self._play(seat, r, code + RANK_UNIT[r], -1, False, s0, s1, p0, p1, -1.0, 2.0, self.streak)
        for c in action.taken:
            code -= RANK_UNIT[c >> 2]
        caida = is_caida(action, self.last_drop)
        return self._play(seat, r, code, len(action.taken), caida, s0, s1, p0, p1, -1.0, 2.0, self.streak)

    # -- search -----------------------------------------------------------------------------------
    def _options(self, code: int, rank: int) -> tuple[tuple[int, int, int], ...]:
        """(table code after, cards taken, rank of a one-card base or -1) of each capture."""
        out = []
        for base, run in capture_options(code, rank, self.two_only):
            after = code
            for x in base:
                after -= RANK_UNIT[x]
            for x in run:
                after -= RANK_UNIT[x]
            out.append((after, len(base) + len(run), base[0] if len(base) == 1 else -1))
        found = tuple(out)
        self.memo[(code << 4) | rank] = found
        return found

    def _limpia_chance(self, code: int) -> tuple[float, int]:
        """Chance that the first seat of the next deal can clear the table ``code``, and its cards."""
        found = self.limpias.get(code)
        if found is not None:
            return found
        cards = sum((code >> (3 * r)) & 7 for r in range(NUM_RANKS))
        ranks = 0
        if 0 < cards <= 3:
            for r in range(NUM_RANKS):
                opts = self.memo.get((code << 4) | r)
                if opts is None:
                    opts = self._options(code, r)
                if any(after == 0 for after, _, _ in opts):
                    ranks += self.stock_counts[r]
        chance = 1.0 - _none_of(self.stock_size, ranks) if ranks else 0.0
        self.limpias[code] = (chance, cards)
        return chance, cards

    def _node(
        self,
        seat: int,
        code: int,
        drop: int,
        s0: int,
        s1: int,
        p0: int,
        p1: int,
        cards: int,
        depth: int,
        alpha: float,
        beta: float,
        streak: OptStreak,
    ) -> float:
        hand = self.hands[seat]
        memo = self.memo
        first: list[tuple[int, int, int, bool]] = []
        rest: list[tuple[int, int, int, bool]] = []
        for r in range(NUM_RANKS):
            if not hand[r]:
                continue
            opts = memo.get((code << 4) | r)
            if opts is None:
                opts = self._options(code, r)
            if not opts:
                rest.append((r, code + RANK_UNIT[r], -1, False))
                continue
            for after, taken, pair in opts:
                if pair == drop and drop >= 0:
                    first.insert(0, (r, after, taken, True))
                else:
                    first.append((r, after, taken, False))
        first.extend(rest)
        maximize = (seat & 1) == 0
        best = -1.0 if maximize else 2.0
        for r, after, taken, caida in first:
            v = self._play(
                seat, r, after, taken, caida, s0, s1, p0, p1, alpha, beta, streak, depth, drop, cards
            )
            if maximize:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
            elif v < best:
                best = v
                if v < beta:
                    beta = v
                    if alpha >= beta:
                        break
        return best

    def _play(
        self,
        seat: int,
        r: int,
        after: int,
        taken: int,
        caida: bool,
        s0: int,
        s1: int,
        p0: int,
        p1: int,
        alpha: float,
        beta: float,
        streak: OptStreak,
        depth: int | None = None,
        drop: int | None = None,
        cards: int | None = None,
    ) -> float:
        """Play a card of rank ``r`` (taking ``taken`` cards, -1 = a drop) and value what follows."""
        self.nodes += 1
        if depth is None:
            depth = self.depth
        if drop is None:
            drop = self.drop
        if cards is None:
            cards = self.cards
        team = seat & 1
        if taken >= 0:
            if team:
                p1 += taken + 1
            else:
                p0 += taken + 1
            limpia = after == 0
            if caida or limpia:
                if team:
                    s1 += self._points(seat, s1, caida, limpia, drop)
                    s = s1
                else:
                    s0 += self._points(seat, s0, caida, limpia, drop)
                    s = s0
                if s >= self.decide_from:
                    won = self._won(s0, s1)
                    if won is not None:
                        return won
                if caida and streak is not None:
                    if self._fourth_caida(seat, streak):
                        return 0.0 if team else 1.0
                    streak = next_streak(streak, team, (seat - 1) % self.n)
            new_drop = -1
        else:
            new_drop = r
        cards -= 1
        if cards == 0:
            return self._deal_over(s0, s1, p0, p1, after)
        nxt = seat + 1 if seat + 1 < self.n else 0
        if depth <= 1 and cards > 1:  # (with one card left, play it: the deal ends)
            if not self.quiet:
                return self.model.deal_end(s0, s1, p0, p1, self.deals_left + 1, self.dealer_team)
            return self._quiet(nxt, after, new_drop, s0, s1, p0, p1, streak)
        hand = self.hands[seat]
        hand[r] -= 1
        value = self._node(nxt, after, new_drop, s0, s1, p0, p1, cards, depth - 1, alpha, beta, streak)
        hand[r] += 1
        return value

    def _fourth_caida(self, seat: int, streak: OptStreak) -> bool:
        """R21: would a caída by ``seat`` now be its team's fourth in a row, two on each opponent?"""
        if streak is None or streak[0] != seat & 1 or streak[1] < 3:
            return False
        return self.rules.caida_streak(streak, seat & 1, (seat - 1) % self.n)[1]

    def _won(self, s0: int, s1: int) -> float | None:
        """1.0 or 0.0 when these scores end the chica during play (R24, R25 ``zapatero_wins_mesa``)."""
        rules = self.rules
        winner = rules.zapatero_winner((s0, s1))
        if winner is None:
            winner = rules.chica_winner((s0, s1), self.dealer_team)
        return None if winner is None else 1.0 - winner

    def _points(self, seat: int, score: int, caida: bool, limpia: bool, drop: int) -> int:
        """Points of a caída and/or limpia by ``seat`` whose team has ``score`` (R13–R15, R18–R20)."""
        if caida:
            if self.crp and score < self.limit and (10 * ((seat - 1) % self.n) + drop) in self.rondas:
                pts = self.crp + (self.clp - 2 if limpia else 0)
            else:
                pts = self.clp if limpia else 2
            return 2 if score >= self.blocked else pts
        return 0 if score >= self.blocked else 2

    def _quiet(
        self, seat: int, code: int, drop: int, s0: int, s1: int, p0: int, p1: int, streak: OptStreak
    ) -> float:
        """Value at the depth limit, ``seat`` to move: its best scoring capture (caída or limpia),
        if it has one that beats the position as it stands."""
        model = self.model
        left = self.deals_left + 1
        dealer = self.dealer_team
        best = model.deal_end(s0, s1, p0, p1, left, dealer)
        hand = self.hands[seat]
        team = seat & 1
        memo = self.memo
        for r in range(NUM_RANKS):
            if not hand[r]:
                continue
            opts = memo.get((code << 4) | r)
            if opts is None:
                opts = self._options(code, r)
            for after, taken, pair in opts:
                caida = pair == drop and drop >= 0
                if not caida and after:
                    continue
                if caida and self._fourth_caida(seat, streak):
                    return 0.0 if team else 1.0
                if team:
                    s = s1 + self._points(seat, s1, caida, not after, drop)
                    won = self._won(s0, s) if s >= self.decide_from else None
                    v = won if won is not None else model.deal_end(s0, s, p0, p1 + taken + 1, left, dealer)
                    if v < best:
                        best = v
                else:
                    s = s0 + self._points(seat, s0, caida, not after, drop)
                    won = self._won(s, s1) if s >= self.decide_from else None
                    v = won if won is not None else model.deal_end(s, s1, p0 + taken + 1, p1, left, dealer)
                    if v > best:
                        best = v
        return best

    def _deal_over(self, s0: int, s1: int, p0: int, p1: int, code: int) -> float:
        """Value when the last card of the deal has been played on the table ``code``."""
        dealer = self.dealer_team
        if self.deals_left:
            value = self.model.deal_end(s0, s1, p0, p1, self.deals_left, dealer)
            chance, cards = self._limpia_chance(code)
            if chance:
                # the seat after the dealer plays first in the next deal (R6) and may clear the table
                award = self.rules.award
                if dealer:
                    pts = award(s0, 2, caida=False)[0]
                    then = self.model.deal_end(s0 + pts, s1, p0 + cards + 1, p1, self.deals_left, dealer)
                else:
                    pts = award(s1, 2, caida=False)[0]
                    then = self.model.deal_end(s0, s1 + pts, p0, p1 + cards + 1, self.deals_left, dealer)
                value += chance * (then - value)
            return value
        rules = self.rules
        (c0, _), (c1, _) = rules.carton((p0, p1), dealer)
        s0 += rules.award(s0, c0, caida=False)[0]
        s1 += rules.award(s1, c1, caida=False)[0]
        won = self._won(s0, s1)
        if won is not None:
            return won
        return self.model.hand_start(s0, s1, 1 - dealer)


def _streak(events: Iterable[Event]) -> Streak:
    """R21: (team, caídas in a row, their victims) in the current hand, from its events."""
    streak: Streak = (-1, 0, ())
    for e in events:
        if isinstance(e, Caida | CaidaLimpia | CaidaRonda):
            streak = next_streak(streak, e.team, e.victim)
    return streak


def view_streak(view: SeatView) -> Streak:
    """R21: the streak of caídas in the current hand, read from a view's public history."""
    return _streak(view.history)


#: Capture options by (table code << 4 | rank), in the search's own form, per ``sum_cards="two"``.
_FAST: dict[bool, dict[int, tuple[tuple[int, int, int], ...]]] = {False: {}, True: {}}
