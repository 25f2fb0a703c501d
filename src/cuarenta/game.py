"""The game state: one mesa of Cuarenta from the dealer draw to its winner.

:class:`Game` is the single mutable object of the engine. It deals from a
seed, lists legal moves, applies them (checked with :meth:`Game.play`, or
unchecked and undoable with :meth:`Game.push` / :meth:`Game.pop`), scores
every rule event and moves on through deals, hands and chicas by itself.

>>> from cuarenta import Game, Rules
>>> game = Game.new(Rules.preset("a_todo_rigor"), seed=7)
>>> game.turn, len(game.hand(game.turn)), game.table
(1, 5, [])
>>> move = game.legal_moves()[0]
>>> [e.kind for e in game.play(move)]
['play']
>>> game.pop() == move
True

A position for tests and puzzles: see :meth:`Game.from_position`.
"""

from __future__ import annotations

import json
import random
import secrets
from collections.abc import Iterable, Sequence
from typing import Any, Final

from cuarenta.captures import (
    RANK_UNIT,
    RankCapture,
    capture_mask,
    capture_options,
    masks_memo,
    options_memo,
)
from cuarenta.cards import CARDS, NUM_CARDS, RANK_CHARS, Card, rank_value
from cuarenta.errors import (
    GameOverError,
    IllegalMoveError,
    MoveParseError,
    PositionError,
    RecordError,
    RulesError,
    SeedError,
    brief,
    clip,
)
from cuarenta.events import (
    Caida,
    CaidaLimpia,
    CaidaRonda,
    Carton,
    ChicaWon,
    ClaimMade,
    Deal,
    DealerDraw,
    Event,
    FourOfAKind,
    HandEnd,
    Limpia,
    MesaWon,
    Play,
    Ronda,
    Zapatero,
)
from cuarenta.jsontext import loads
from cuarenta.moves import Action, Claim, Move, parse_action
from cuarenta.position import check_position
from cuarenta.results import ChicaResult, Outcome
from cuarenta.rules import ZAPATERO_WINS_AT, Rules, Streak, is_caida, is_limpia
from cuarenta.view import SeatView

GAME_FORMAT: Final = "cuarenta-game"
GAME_FORMAT_VERSION: Final = 1
#: The longest seed: a whole number of this many digits, or a text of this many characters.
MAX_SEED_CHARS: Final = 1000

#: The move that drops each card without taking anything (shared, immutable).
_DROPS: Final = tuple(Move(c) for c in CARDS)


class _Malformed(Exception):
    """A hand-built move names something that is not a card (turned into ``move_malformed``)."""


def check_seed(seed: object) -> int | str:
    """A game's seed: a whole number or a text as given, a random number for ``None``.

    A seed is at most :data:`MAX_SEED_CHARS` digits or characters long (the server's seeds are below
    2**63, 19 digits).

    >>> check_seed("mesa 7"), check_seed(-3)
    ('mesa 7', -3)
    >>> check_seed(10**2000)
    Traceback (most recent call last):
    ...
    cuarenta.errors.SeedError: seed <a whole number of about 2001 digits> is too long: a seed is a whole ...
    """
    if seed is None:
        return secrets.randbelow(2**63)
    if isinstance(seed, str) or (isinstance(seed, int) and not isinstance(seed, bool)):
        if (len(seed) if isinstance(seed, str) else abs(seed).bit_length() * 0.30103) > MAX_SEED_CHARS:
            raise SeedError.of("seed_too_long", value=brief(seed), limit=MAX_SEED_CHARS)
        return seed
    raise SeedError.of("bad_seed", value=brief(seed))


def action_text(action: object) -> str:
    """An action as a message shows it: its notation, cut short (a hand-built one that cannot be written
    is shown as :func:`~cuarenta.errors.brief` shows it).

    >>> action_text(Move.parse("7h x3c"))
    '7h x3c'
    >>> action_text(Move(Card("7h"), (10**5000,)))
    "Move(Card('7h'), (<a whole number of about 5001 digits>,), ())"
    """
    try:
        return clip(str(action))
    except Exception:
        return brief(action)


def _rng(seed: int | str, *parts: object) -> random.Random:
    """An independent, reproducible random stream for one use of the seed."""
    return random.Random("/".join(str(p) for p in (seed, *parts)))


class Game:
    """A mesa of Cuarenta. Build it with :meth:`new`, :meth:`from_position` or :meth:`from_json`."""

    # -- construction -----------------------------------------------------------------------------
    def __init__(self, rules: Rules, seed: int | str | None = 0) -> None:
        """Use :meth:`new` or :meth:`from_position`; this makes an empty, unplayable table."""
        if not isinstance(rules, Rules):
            raise RulesError.of("not_rules", value=type(rules).__name__)
        self.rules: Final = rules
        self.seed: Final = check_seed(seed)
        n = rules.players
        self._n = n
        self._two_only = rules.sum_cards == "two"
        self._memo = options_memo(self._two_only)
        self._masks = masks_memo(self._two_only)
        self._manual = rules.capture == "manual"
        #: below this score neither R24 nor R25 can end a chica (a guard before asking the rules)
        self._decide_from = min(rules.target, ZAPATERO_WINS_AT) if rules.zapatero_wins_mesa else rules.target
        self._hands: list[list[Card]] = [[] for _ in range(n)]
        self._table: list[Card] = []
        self._tcode = 0
        self._stock: list[Card] = []
        self._piles: list[list[Card]] = [[], []]
        self._scores: tuple[int, int] = (0, 0)
        self._chicas: tuple[int, int] = (0, 0)
        self._turn = 0
        self._dealer = 0
        self._last_drop: Card | None = None
        self._hand_no = 0
        self._deal_no = 0
        self._rondas: tuple[tuple[int, int], ...] = ()
        self._forgotten: tuple[tuple[Card, ...], ...] = ()
        self._streak: Streak = (-1, 0, ())
        self._outcome: Outcome | None = None
        self._results: tuple[ChicaResult, ...] = ()
        self._hand_start = 0  # index in events where the current hand begins
        self.events: list[Event] = []
        self.actions: list[Action] = []
        self._stack: list[tuple[Any, ...]] = []
        self._start: dict[str, Any] | None = None

    @classmethod
    def new(cls, rules: Rules | None = None, seed: int | str | None = 0) -> Game:
        """Draw for the dealer and deal the first hand, all from ``seed`` (R4–R6).

        Every later hand is shuffled from the same seed, so a mesa is a pure
        function of its rules, seed and moves. The seed is a whole number or a
        text; ``None`` picks a random one (kept in :attr:`seed`, so the game can
        still be saved and replayed).

        >>> a, b = Game.new(seed=3), Game.new(seed=3)
        >>> a.hand(a.turn) == b.hand(b.turn)
        True
        >>> isinstance(Game.new(seed=None).seed, int)
        True
        >>> Game.new(seed=1.5)
        Traceback (most recent call last):
        ...
        cuarenta.errors.SeedError: seed 1.5 must be a whole number or a text (or None: a random seed)
        """
        game = cls(rules or Rules(), seed)
        game._draw_dealer()
        game._new_hand(game._dealer)
        return game

    def _draw_dealer(self) -> None:
        rng = _rng(self.seed, "draw")
        seats = list(range(self._n))
        rounds: list[tuple[tuple[int, Card], ...]] = []
        while True:
            deck = list(CARDS)
            rng.shuffle(deck)
            draw = tuple((s, deck[i]) for i, s in enumerate(seats))
            rounds.append(draw)
            best = max(c >> 2 for _, c in draw)
            seats = [s for s, c in draw if c >> 2 == best]
            if len(seats) == 1:
                break
        self._dealer = seats[0]
        self.events.append(DealerDraw(tuple(rounds), seats[0]))

    @classmethod
    def from_position(  # noqa: PLR0913 - a position is these keyword-only parts (docs/engine.md)
        cls,
        rules: Rules,
        *,
        hands: Sequence[Iterable[str | int]],
        table: Iterable[str | int] = (),
        stock: Iterable[str | int] = (),
        turn: int,
        dealer: int,
        scores: Sequence[int] = (0, 0),
        piles: Sequence[Iterable[str | int]] = ((), ()),
        last_drop: str | int | None = None,
        chicas: Sequence[int] = (0, 0),
        rondas: Iterable[tuple[int, str | int]] = (),
        seed: int | str | None = 0,
    ) -> Game:
        """Any position in the middle of a hand, checked for consistency.

        ``hands`` holds one list of cards per seat, ``stock`` the undealt cards
        in dealing order, ``piles`` the cards each team captured this hand,
        ``last_drop`` the card the previous seat just dropped (still on the
        table), ``rondas`` the (seat, rank) rondas announced in this deal. All
        40 cards must appear exactly once. Later hands are dealt from ``seed``.

        >>> game = Game.from_position(Rules(), hands=[["7h"], ["Kc"]], table=["3c", "4d", "Js"],
        ...     stock=[], turn=0, dealer=1, piles=[Card.parse_many(
        ...     "Ah As Ad Ac 2h 2s 2d 2c 3h 3s 3d 4h 4s 4c 5h 5s 5d 5c 6h 6s 6d 6c 7s 7d"),
        ...     Card.parse_many("7c Jh Jd Jc Qh Qs Qd Qc Ks Kd Kh")])
        >>> [str(m) for m in game.legal_moves()]
        ['7h x3c+4d,Js']
        """
        try:
            game = cls(rules, seed)
        except (RulesError, SeedError) as exc:
            raise PositionError(str(exc), code=exc.code, params=exc.params) from None
        pos = check_position(
            rules,
            hands=hands,
            table=table,
            stock=stock,
            turn=turn,
            dealer=dealer,
            scores=scores,
            piles=piles,
            last_drop=last_drop,
            chicas=chicas,
            rondas=rondas,
        )
        game._hands = pos.hands
        game._table = pos.table
        game._tcode = sum(RANK_UNIT[c >> 2] for c in pos.table)
        game._stock = pos.stock
        game._piles = pos.piles
        game._scores = pos.scores
        game._chicas = pos.chicas
        game._turn = turn
        game._dealer = dealer
        game._last_drop = pos.last_drop
        game._deal_no = pos.deal_number
        game._rondas = pos.rondas
        game._start = pos.to_dict()
        return game

    # -- read-only state --------------------------------------------------------------------------
    @property
    def players(self) -> int:
        return self._n

    @property
    def turn(self) -> int:
        """The seat to move (meaningless once :attr:`outcome` is set)."""
        return self._turn

    @property
    def dealer(self) -> int:
        return self._dealer

    def hand(self, seat: int) -> list[Card]:
        """The cards a seat holds, in the order dealt (a copy)."""
        return list(self._hands[seat])

    @property
    def table(self) -> list[Card]:
        """Cards on the table, in the order they were put there (a copy)."""
        return list(self._table)

    @property
    def stock(self) -> list[Card]:
        """Undealt cards, first to be dealt first (a copy)."""
        return list(self._stock)

    def pile(self, team: int) -> list[Card]:
        """Cards a team captured this hand (its cartón), a copy."""
        return list(self._piles[team])

    @property
    def last_drop(self) -> Card | None:
        """The card the previous seat just dropped, if a caída on it is possible (R13)."""
        return self._last_drop

    @property
    def score(self) -> tuple[int, int]:
        """Points of each team in this chica."""
        return self._scores

    @property
    def chicas(self) -> tuple[int, int]:
        """Chicas each team has won in this mesa."""
        return self._chicas

    @property
    def chica_results(self) -> tuple[ChicaResult, ...]:
        return self._results

    @property
    def outcome(self) -> Outcome | None:
        """``None`` until the mesa is won."""
        return self._outcome

    @property
    def is_over(self) -> bool:
        return self._outcome is not None

    @property
    def hand_number(self) -> int:
        """Hands dealt in this mesa before the current one."""
        return self._hand_no

    @property
    def deal_number(self) -> int:
        """0 for the first deal of the current hand, up to 3 (2 players) or 1 (4 players)."""
        return self._deal_no

    @property
    def rondas(self) -> list[tuple[int, int]]:
        """(seat, rank index) of the rondas announced in the current deal."""
        return list(self._rondas)

    @property
    def claimable(self) -> list[tuple[Card, ...]]:
        """Manual capture (R12): the captures the seat to move may claim, each a tuple of cards."""
        return list(self._forgotten)

    def team_of(self, seat: int) -> int:
        return seat % 2

    def hand_events(self) -> list[Event]:
        """Events since the current hand was dealt."""
        return self.events[self._hand_start :]

    # -- move generation --------------------------------------------------------------------------
    def _by_rank(self) -> dict[int, list[Card]]:
        """Table cards grouped by rank, the last dropped card first (so pairs on it are caídas)."""
        by: dict[int, list[Card]] = {}
        for c in self._table:
            by.setdefault(c >> 2, []).append(c)
        drop = self._last_drop
        if drop is not None:
            lst = by[drop >> 2]
            if lst[0] != drop:
                lst.remove(drop)
                lst.insert(0, drop)
        return by

    @staticmethod
    def _pick(by: dict[int, list[Card]], ranks: tuple[int, ...]) -> tuple[Card, ...]:
        """One distinct table card per rank in ``ranks`` (ranks may repeat in a sum)."""
        out = []
        prev = -1
        k = 0
        for r in ranks:
            k = k + 1 if r == prev else 0
            prev = r
            out.append(by[r][k])
        return tuple(out)

    def _options(self, rank: int) -> tuple[RankCapture, ...]:
        return capture_options(self._tcode, rank, self._two_only)

    def legal_moves(self) -> list[Action]:
        """Every legal action of the seat to move, in hand order.

        Automatic capture (R12 ``auto``): one move per card and base, with the
        whole escalera; a card that can take something must take. Manual
        capture: also every shorter escalera and the plain drop, and first any
        claim of forgotten cards. Same-rank table cards are interchangeable, so
        each capture is listed once (taking the last dropped card when it can).
        """
        if self._outcome is not None:
            return []
        if self._manual:
            return self._legal_manual()
        # Automatic capture: the table holds at most one card per rank.
        moves: list[Action] = []
        tcode = self._tcode
        mask = self._masks.get(tcode)
        if mask is None:
            mask = capture_mask(tcode, self._two_only)
        code = tcode << 4
        memo = self._memo
        drops = _DROPS
        by: dict[int, Card] | None = None
        for c in self._hands[self._turn]:
            r = c >> 2
            if not (mask >> r) & 1:
                moves.append(drops[c])
                continue
            opts = memo.get(code | r)
            if opts is None:
                opts = capture_options(self._tcode, r, self._two_only)
            if not opts:
                moves.append(_DROPS[c])
                continue
            if by is None:
                by = {t >> 2: t for t in self._table}
            for base_r, run_r in opts:
                moves.append(Move(c, tuple([by[x] for x in base_r]), tuple([by[x] for x in run_r])))
        return moves

    def _legal_manual(self) -> list[Action]:
        moves: list[Action] = [Claim(opt) for opt in self._forgotten]
        code = self._tcode
        two = self._two_only
        by: dict[int, list[Card]] | None = None
        for c in self._hands[self._turn]:
            moves.append(_DROPS[c])
            opts = capture_options(code, c >> 2, two)
            if not opts:
                continue
            if by is None:
                by = self._by_rank()
            for base_r, run_r in opts:
                base = self._pick(by, base_r)
                run = tuple(by[r][0] for r in run_r)
                for k in range(len(run) + 1):
                    moves.append(Move(c, base, run[:k]))
        return moves

    def is_legal(self, action: Action) -> bool:
        """Whether :meth:`play` would accept the action."""
        try:
            self._check(action)
        except IllegalMoveError:
            return False
        return True

    def is_caida(self, move: Move) -> bool:
        """R13: whether ``move`` takes by igualdad the card the previous seat just dropped.

        Like python-chess's ``is_capture``, it tells what a move does in the current position
        (whether it is legal is :meth:`is_legal`'s question).

        >>> game = Game.from_position(Rules(), hands=[["5h", "Kc"], ["Ks"]], table=["5s", "2c"], stock=[],
        ...     turn=0, dealer=0, last_drop="5s", piles=[[c for c in CARDS if str(c) not in
        ...     ("5h", "Kc", "Ks", "5s", "2c")], []])
        >>> [(str(m), game.is_caida(m), game.is_limpia(m)) for m in game.legal_moves()]
        [('5h x5s', True, False), ('Kc', False, False)]
        """
        return is_caida(move, self._last_drop)

    def is_limpia(self, move: Move) -> bool:
        """R14: whether ``move`` is a capture that leaves the table empty."""
        return is_limpia(move, len(self._table))

    # -- checked play ----------------------------------------------------------------------------
    def play(self, action: Action | str) -> list[Event]:
        """Check and apply an action (a :class:`Move`, a :class:`Claim` or its text).

        Returns the events it caused, including any deal, cartón or chica
        result that followed. An illegal action raises
        :class:`~cuarenta.IllegalMoveError` saying why, and changes nothing.
        """
        if isinstance(action, str):
            try:
                action = parse_action(action)
            except MoveParseError as exc:
                raise IllegalMoveError(str(exc), code=exc.code, params=exc.params) from None
        self._check(action)
        start = len(self.events)
        self.push(action)
        return self.events[start:]

    def _check(self, action: object) -> None:
        if self._outcome is not None:
            raise GameOverError.of("game_over")
        seat = self._turn
        if isinstance(action, Claim):
            self._check_claim(action)
            return
        if not isinstance(action, Move):
            raise IllegalMoveError.of("not_an_action", value=brief(action))
        card, base, run = action
        # a Move built by hand holds a Card and two tuples of Cards (the cards are checked below)
        if type(card) is not Card or type(base) is not tuple or type(run) is not tuple:
            raise IllegalMoveError.of("move_malformed", value=brief(tuple(action)))
        if card not in self._hands[seat]:
            raise IllegalMoveError.of("card_not_in_hand", card=card, seat=seat)
        try:
            self._check_capture(action)
        except _Malformed:
            raise IllegalMoveError.of("move_malformed", value=brief(tuple(action))) from None
        except IllegalMoveError as exc:
            options = [str(m) for m in self.legal_moves() if isinstance(m, Move) and m.card == card]
            if options == [str(card)]:
                raise IllegalMoveError.of("capture_takes_nothing", reason=exc, card=card) from None
            raise IllegalMoveError.of("capture_options", reason=exc, options=" | ".join(options)) from None

    def _check_capture(self, action: Move) -> None:
        card = action.card
        taken = action.base + action.run
        for c in taken:
            if type(c) is not Card:
                raise _Malformed(action)
            if c not in self._table:
                raise IllegalMoveError.of("card_not_on_table", card=c)
        if len(set(taken)) != len(taken):
            raise IllegalMoveError.of("card_named_twice", move=action)
        rank = card >> 2
        opts = self._options(rank)
        if not action.base:
            if action.run:
                raise IllegalMoveError.of("escalera_without_base", move=action)
            if opts and not self._manual:
                raise IllegalMoveError.of("capture_compulsory", card=card)
            return
        base_ranks = tuple(sorted(c >> 2 for c in action.base))
        if len(base_ranks) == 1:
            if base_ranks[0] != rank:
                raise IllegalMoveError.of("pair_same_rank", card=card, taken=action.base[0])
        else:
            self._check_sum(action, base_ranks)
        match = [o for o in opts if o[0] == base_ranks]
        if not match:  # pragma: no cover - every valid base is among the options
            raise IllegalMoveError.of("capture_not_open", move=action, card=card)
        run_ranks = match[0][1]
        got = tuple(c >> 2 for c in action.run)
        full = len(got) == len(run_ranks)
        if got != run_ranks[: len(got)] or (not full and not self._manual):
            expected = ",".join(RANK_CHARS[r] for r in run_ranks) or "-"
            raise IllegalMoveError.of(
                "escalera_wrong", move=action, card=card, rank=card.rank_char, run=expected
            )

    def _check_sum(self, action: Move, base_ranks: tuple[int, ...]) -> None:
        """A capture by sum (R8): number cards only, adding up to the played card's value (two of them
        when the rules say so)."""
        card = action.card
        value = rank_value(card >> 2)
        if value is None:
            raise IllegalMoveError.of("figure_no_sum", card=card)
        vals = [rank_value(r) for r in base_ranks]
        if any(v is None for v in vals):
            raise IllegalMoveError.of("figure_in_sum", move=action)
        total = sum(v for v in vals if v is not None)
        if total != value:
            base = "+".join(str(c) for c in action.base)
            raise IllegalMoveError.of("sum_wrong", move=action, base=base, total=total, value=value)
        if self._two_only and len(base_ranks) != 2:
            raise IllegalMoveError.of("sum_two_only", move=action)

    def _check_claim(self, claim: Claim) -> None:
        cards = claim.cards
        if not isinstance(cards, tuple) or not cards or not all(isinstance(c, Card) for c in cards):
            raise IllegalMoveError.of("claim_malformed", value=brief(tuple(claim)))
        if not self._forgotten:
            raise IllegalMoveError.of("nothing_to_claim")
        for c in cards:
            if c not in self._table:
                raise IllegalMoveError.of("card_not_on_table", card=c)
        if len(set(cards)) != len(cards):
            raise IllegalMoveError.of("claim_card_twice", claim=claim)
        ranks = sorted(c >> 2 for c in cards)
        for opt in self._forgotten:
            if sorted(c >> 2 for c in opt) == ranks:
                return
        open_ = " | ".join(",".join(str(c) for c in opt) for opt in self._forgotten)
        raise IllegalMoveError.of("claim_wrong", claim=claim, options=open_)

    # -- unchecked play and undo ------------------------------------------------------------------
    def _save(self) -> tuple[Any, ...]:
        return (
            self._hands,
            self._hands[self._turn],
            self._table,
            self._tcode,
            self._stock,
            self._piles,
            len(self._piles[0]),
            len(self._piles[1]),
            self._scores,
            self._chicas,
            self._turn,
            self._dealer,
            self._last_drop,
            self._hand_no,
            self._deal_no,
            self._rondas,
            self._forgotten,
            self._streak,
            self._outcome,
            self._results,
            self._hand_start,
            len(self.events),
        )

    def push(self, action: Action) -> None:
        """Apply an action without checking it (fast, for search); undo with :meth:`pop`.

        Pushing an illegal action corrupts the state: use :meth:`play` for
        anything that did not come from :meth:`legal_moves`.
        """
        self._stack.append(self._save())
        self.actions.append(action)
        if type(action) is Move:
            self._apply_move(action)
        else:
            self._apply_claim(action)  # type: ignore[arg-type]

    def pop(self) -> Action:
        """Undo the last action (checked or not) and return it."""
        if not self._stack:
            raise IndexError("pop from a game with no moves")
        (
            hands,
            hand,
            self._table,
            self._tcode,
            self._stock,
            piles,
            len0,
            len1,
            self._scores,
            self._chicas,
            self._turn,
            self._dealer,
            self._last_drop,
            self._hand_no,
            self._deal_no,
            self._rondas,
            self._forgotten,
            self._streak,
            self._outcome,
            self._results,
            self._hand_start,
            nev,
        ) = self._stack.pop()
        hands[self._turn] = hand  # the only in-place change a push makes to a hands list
        self._hands = hands
        del piles[0][len0:]
        del piles[1][len1:]
        self._piles = piles
        del self.events[nev:]
        return self.actions.pop()

    def _apply_claim(self, claim: Claim) -> None:
        seat = self._turn
        team = seat & 1
        # match by rank, whatever suits the caller named
        cards = list(claim.cards)
        self._table = [c for c in self._table if c not in cards]
        for c in cards:
            self._tcode -= RANK_UNIT[c >> 2]
        self._piles[team].extend(cards)
        if self._last_drop in cards:
            self._last_drop = None
        self._forgotten = ()
        self.events.append(ClaimMade(seat, team, tuple(cards)))

    def _apply_move(self, move: Move) -> None:
        seat = self._turn
        team = seat & 1
        card = move.card
        hand = self._hands[seat]
        new_hand = hand.copy()
        new_hand.remove(card)
        self._hands[seat] = new_hand
        events = self.events
        events.append(Play(seat, team, move))
        base = move.base
        if self._manual:
            self._forgotten = self._forgotten_by(move)
        if not base:
            self._table = [*self._table, card]
            self._tcode += RANK_UNIT[card >> 2]
            self._last_drop = card
        else:
            taken = base + move.run
            self._table = [c for c in self._table if c not in taken]
            code = self._tcode
            for c in taken:
                code -= RANK_UNIT[c >> 2]
            self._tcode = code
            pile = self._piles[team]
            pile.append(card)
            pile.extend(taken)
            drop = self._last_drop
            self._last_drop = None
            caida = drop is not None and len(base) == 1 and base[0] == drop
            limpia = not self._table
            if (caida or limpia) and self._score_capture(seat, team, caida, limpia, drop):
                return  # the chica ended: the next hand is dealt (or the mesa is over)
        n = self._n
        self._turn = (seat + 1) % n
        if not new_hand and seat == self._dealer:
            self._end_of_deal()

    def _forgotten_by(self, move: Move) -> tuple[tuple[Card, ...], ...]:
        """R12 manual capture: what the next seat may claim after ``move``."""
        card = move.card
        opts = self._options(card >> 2)
        if not opts:
            return ()
        by = self._by_rank()
        if not move.base:
            return tuple((card, *self._pick(by, b), *(by[r][0] for r in run)) for b, run in opts)
        base_ranks = tuple(sorted(c >> 2 for c in move.base))
        for b, run in opts:
            if b == base_ranks and len(move.run) < len(run):
                rest = run[len(move.run) :]
                return (tuple(by[r][0] for r in rest),)
        return ()

    # -- scoring ----------------------------------------------------------------------------------
    def _add(self, team: int, points: int) -> None:
        if points:
            s0, s1 = self._scores
            self._scores = (s0 + points, s1) if team == 0 else (s0, s1 + points)

    def _score_capture(self, seat: int, team: int, caida: bool, limpia: bool, drop: Card | None) -> bool:
        """Score a caída and/or limpia (R13–R15, R18–R21); True if that ended the chica."""
        rules = self.rules
        victim = (seat - 1) % self._n
        ronda_caida = caida and drop is not None and (victim, drop >> 2) in self._rondas
        kind, pts, note = rules.capture_score(
            self._scores[team], caida=caida, limpia=limpia, ronda_caida=ronda_caida
        )
        self._add(team, pts)
        if kind == "limpia":
            self.events.append(Limpia(seat, team, pts, note))
            return self._check_end()
        assert drop is not None
        if kind == "caida_ronda":
            self.events.append(CaidaRonda(seat, team, drop, victim, limpia, pts, note))
        elif kind == "caida_limpia":
            self.events.append(CaidaLimpia(seat, team, drop, victim, pts, note))
        else:
            self.events.append(Caida(seat, team, drop, victim, pts, note))
        if self._check_end():
            return True
        if rules.cuatro_caidas_gana:
            self._streak, wins = rules.caida_streak(self._streak, team, victim)
            if wins:
                self._end_chica(team, "cuatro_caidas")
                return True
        return False

    def _check_end(self) -> bool:
        """End the chica the moment the scores decide it (R25 ``zapatero_wins_mesa``, then R24)."""
        s0, s1 = self._scores
        if s0 < self._decide_from and s1 < self._decide_from:  # nothing to decide yet (the common case)
            return False
        rules = self.rules
        winner = rules.zapatero_winner(self._scores)
        if winner is not None:
            self._end_chica(winner, "zapatero")
            return True
        winner = rules.chica_winner(self._scores, self._dealer & 1)
        if winner is not None:
            self._end_chica(winner, "target")
            return True
        return False

    # -- deals, hands, chicas ---------------------------------------------------------------------
    def _new_hand(self, dealer: int) -> None:
        rng = _rng(self.seed, "hand", self._hand_no)
        deck = list(CARDS)
        rng.shuffle(deck)
        cut = rng.randint(1, NUM_CARDS - 1)
        self._start_hand(dealer, deck[cut:] + deck[:cut], cut)

    def _start_hand(self, dealer: int, deck: list[Card], cut: int | None) -> None:
        """Deal a new hand from ``deck`` (first card dealt first): the protected hook a subclass that
        deals from a deck of its own calls (cuarenta.research.openspiel: the deck as chance outcomes)."""
        self._dealer = dealer
        self._stock = deck
        self._table = []
        self._tcode = 0
        self._piles = [[], []]
        self._last_drop = None
        self._forgotten = ()
        self._streak = (-1, 0, ())
        self._hand_start = len(self.events)
        self._deal_no = -1
        self._deal(cut)

    def _deal(self, cut: int | None = None) -> None:
        n = self._n
        stock = self._stock
        first = (self._dealer + 1) % n
        hands: list[list[Card]] = [[] for _ in range(n)]
        for i in range(n):
            hands[(first + i) % n] = stock[5 * i : 5 * i + 5]
        self._hands = hands
        self._stock = stock[5 * n :]
        self._deal_no += 1
        self._turn = first
        self._rondas = ()
        self.events.append(Deal(self._dealer, self._hand_no, self._deal_no, cut))
        self._score_rondas()

    def _score_rondas(self) -> None:
        """R16/R17: rondas and four of a kind, in playing order from the dealer's right."""
        rules = self.rules
        n = self._n
        first = (self._dealer + 1) % n
        rondas = []
        for i in range(n):
            seat = (first + i) % n
            counts: dict[int, int] = {}
            for c in self._hands[seat]:
                counts[c >> 2] = counts.get(c >> 2, 0) + 1
            for rank, cnt in counts.items():
                if cnt < 3:
                    continue
                team = seat & 1
                rondas.append((seat, rank))
                self._rondas = tuple(rondas)
                if cnt == 4 and rules.four_of_a_kind == "wins_chica":
                    self.events.append(FourOfAKind(seat, team, RANK_CHARS[rank], 0, True))
                    self._end_chica(team, "four_of_a_kind")
                    return
                pts, note = rules.ronda_score(self._scores[team], four=cnt == 4)
                self._add(team, pts)
                if cnt == 3:
                    self.events.append(Ronda(seat, team, RANK_CHARS[rank], pts, note))
                else:
                    self.events.append(FourOfAKind(seat, team, RANK_CHARS[rank], pts, False, note))
                if self._check_end():
                    return

    def _end_of_deal(self) -> None:
        if self._stock:
            if not self.rules.caida_across_deals:
                self._last_drop = None
            self._deal()
            return
        self._end_of_hand()

    def _end_of_hand(self) -> None:
        rules = self.rules
        leftovers = tuple(self._table)
        counts = (len(self._piles[0]), len(self._piles[1]))
        self.events.append(HandEnd(leftovers, counts))
        self._table = []
        self._tcode = 0
        self._last_drop = None
        self._forgotten = ()
        carton = rules.carton(counts, self._dealer & 1)
        for t in (0, 1):
            nominal, reason = carton[t]
            pts, note = rules.award(self._scores[t], nominal, caida=False)
            self._add(t, pts)
            self.events.append(Carton(t, counts[t], pts, reason, note))
        if self._check_end():
            return
        self._hand_no += 1
        self._new_hand((self._dealer + 1) % self._n)

    def _end_chica(self, winner: int, reason: str) -> None:
        rules = self.rules
        loser = 1 - winner
        scores = self._scores
        self.events.append(ChicaWon(winner, scores, len(self._results), reason))
        lost_with = scores[loser]
        zapatero = rules.is_zapatero(lost_with)
        if zapatero:
            self.events.append(Zapatero(loser, lost_with, lost_with == 0))
        self._results = (
            *self._results,
            ChicaResult(winner, scores, reason, zapatero, zapatero and lost_with == 0),
        )
        ch = list(self._chicas)
        ch[winner] += 1
        self._chicas = (ch[0], ch[1])
        mesa_reason = None
        if reason == "zapatero":  # R25 with zapatero_wins_mesa: the chica and the mesa at once
            mesa_reason = "zapatero"
        elif ch[winner] >= rules.chicas:
            mesa_reason = "chicas"
        if mesa_reason:
            self._outcome = Outcome(winner, self._chicas, mesa_reason)
            self.events.append(MesaWon(winner, self._chicas, mesa_reason))
            self._hands = [[] for _ in range(self._n)]
            self._table = []
            self._tcode = 0
            self._stock = []
            self._last_drop = None
            self._forgotten = ()
            self._rondas = ()
            return
        self._scores = (0, 0)
        self._hand_no += 1
        self._new_hand((self._dealer + 1) % self._n)

    # -- views and serialisation ------------------------------------------------------------------
    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know, and nothing more: an immutable :class:`~cuarenta.view.SeatView`.

        Its own hand; the table and the card just dropped; every seat's card
        count; the cards each team captured this hand (taken face up, so
        public); scores and chicas; the announced rondas; the public events of
        the current hand (deals name no cards). Never other seats' cards, the
        stock order or the seed. ``view.to_dict()`` is its JSON form.

        >>> view = Game.new(seed=2).view(0)
        >>> view.seat, len(view.hand), view.stock_size
        (0, 5, 30)
        """
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self._n:
            raise ValueError(f"seat {seat!r} is not a seat (0..{self._n - 1})")
        piles = self._piles
        return SeatView(
            seat=seat,
            players=self._n,
            rules=self.rules,
            turn=None if self._outcome else self._turn,
            dealer=self._dealer,
            hand=tuple(self._hands[seat]),
            hand_sizes=tuple(len(h) for h in self._hands),
            table=tuple(self._table),
            last_drop=self._last_drop,
            stock_size=len(self._stock),
            piles=(tuple(piles[0]), tuple(piles[1])),
            scores=self._scores,
            chicas=self._chicas,
            hand_number=self._hand_no,
            deal_number=self._deal_no,
            rondas=self._rondas,
            claimable=self._forgotten,
            history=tuple(self.events[self._hand_start :]),
            chica_results=self._results,
            outcome=self._outcome,
        )

    def state_summary(self) -> dict[str, Any]:
        """The full current state (hidden cards included), for saves and checks."""
        return {
            "hands": [[str(c) for c in h] for h in self._hands],
            "table": [str(c) for c in self._table],
            "stock": [str(c) for c in self._stock],
            "piles": [[str(c) for c in p] for p in self._piles],
            "scores": list(self._scores),
            "chicas": list(self._chicas),
            "turn": self._turn,
            "dealer": self._dealer,
            "last_drop": None if self._last_drop is None else str(self._last_drop),
            "hand_number": self._hand_no,
            "deal_number": self._deal_no,
            "outcome": None if self._outcome is None else self._outcome.to_dict(),
        }

    def to_dict(self) -> dict[str, Any]:
        """The whole game: rules, seed, starting position, actions, and the resulting state."""
        return {
            "format": GAME_FORMAT,
            "version": GAME_FORMAT_VERSION,
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "start": self._start,
            "actions": [str(a) for a in self.actions],
            "state": self.state_summary(),
        }

    def to_json(self, indent: int | None = None) -> str:
        """The whole game as JSON text; :meth:`from_json` replays it to the identical game.

        >>> game = Game.new(seed=5)
        >>> _ = game.play(game.legal_moves()[0])
        >>> Game.from_json(game.to_json()).state_summary() == game.state_summary()
        True
        """
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: Any) -> Game:
        """Rebuild a game written by :meth:`to_dict`, replaying and checking every action.

        The stored state must equal the replay's (a corrupt or edited save is refused), and every
        problem raises :class:`~cuarenta.RecordError` saying what is wrong.
        """
        if not isinstance(data, dict):
            raise RecordError.of("save_not_object", type=type(data).__name__)
        if data.get("format") != GAME_FORMAT:
            raise RecordError.of("save_format", value=brief(data.get("format")), expected=GAME_FORMAT)
        if data.get("version") != GAME_FORMAT_VERSION:
            raise RecordError.of(
                "save_version", value=brief(data.get("version")), expected=GAME_FORMAT_VERSION
            )
        for key in ("rules", "seed", "actions", "state"):
            if key not in data:
                raise RecordError.of("save_missing", key=key)
        try:
            rules = Rules.from_dict(data["rules"])
        except RulesError as exc:
            raise RecordError.of("save_rules", reason=exc) from None
        state = data["state"]
        if not isinstance(state, dict):
            raise RecordError.of("save_state_not_object", type=type(state).__name__)
        game = cls.replay(rules, data["seed"], data["actions"], data.get("start"))
        now = game.state_summary()
        if state != now:
            diff = sorted(
                clip(k) if isinstance(k, str) else brief(k)
                for k in set(now) | set(state)
                if state.get(k) != now.get(k)
            )
            raise RecordError.of("save_corrupt", fields=clip(", ".join(diff)))
        return game

    @classmethod
    def from_json(cls, text: str | bytes) -> Game:
        """Rebuild a game from :meth:`to_json` text; errors say what was wrong.

        Any input — not JSON, nested too deep, numbers too long, wrong types — raises
        :class:`~cuarenta.RecordError` and nothing else (:mod:`cuarenta.jsontext`).

        >>> Game.from_json("[" * 10_000)
        Traceback (most recent call last):
        ...
        cuarenta.errors.RecordError: saved game is not valid JSON: it is nested more than 64 levels deep
        """
        try:
            data = loads(text)
        except RecordError as exc:
            raise RecordError.of("save_not_json", reason=exc) from None
        return cls.from_dict(data)

    @classmethod
    def replay(
        cls,
        rules: Rules,
        seed: int | str,
        actions: Iterable[Action | str],
        start: dict[str, Any] | None = None,
    ) -> Game:
        """Play ``actions`` (checked) from a new game or a starting position; :class:`RecordError` if
        anything does not replay."""
        if seed is None or isinstance(seed, bool) or not isinstance(seed, int | str):
            raise RecordError.of("save_seed", value=brief(seed))
        if isinstance(actions, str | bytes | dict) or not isinstance(actions, Iterable):
            raise RecordError.of("save_actions", type=type(actions).__name__)
        if start is None:
            try:
                game = cls.new(rules, seed)
            except SeedError as exc:  # a seed too long
                raise RecordError(str(exc), code=exc.code, params=exc.params) from None
        else:
            if not isinstance(start, dict):
                raise RecordError.of("save_start_not_object", type=type(start).__name__)
            try:
                game = cls.from_position(rules, seed=seed, **start)
            except PositionError as exc:
                raise RecordError.of("save_start", reason=exc) from None
            except TypeError as exc:  # a field from_position does not take
                raise RecordError.of("save_start", reason=clip(str(exc))) from None
        for i, action in enumerate(actions):
            if not isinstance(action, str | Move | Claim):
                raise RecordError.of("save_action_type", number=i + 1, value=brief(action))
            try:
                game.play(action)
            except IllegalMoveError as exc:
                shown = action_text(action)
                raise RecordError.of("save_action", number=i + 1, action=shown, reason=exc) from None
        return game

    def copy(self) -> Game:
        """An independent copy with the same history (the undo stack is not shared)."""
        other = Game.__new__(Game)
        other.__dict__.update(self.__dict__)
        other._hands = [list(h) for h in self._hands]
        other._table = list(self._table)
        other._stock = list(self._stock)
        other._piles = [list(p) for p in self._piles]
        other.events = list(self.events)
        other.actions = list(self.actions)
        other._stack = []
        return other

    def __repr__(self) -> str:
        return (
            f"<Game {self.rules.preset_name} players={self._n} seed={self.seed!r} "
            f"score={self._scores} chicas={self._chicas} turn={self._turn}>"
        )
