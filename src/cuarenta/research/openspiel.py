"""Cuarenta as an OpenSpiel game: ``python_cuarenta`` (needs ``pip install "cuarenta[research]"``).

Importing this module registers the game with ``pyspiel``::

    >>> import pyspiel
    >>> import cuarenta.research.openspiel  # noqa: F401 - registers python_cuarenta
    >>> game = pyspiel.load_game("python_cuarenta(players=2,target=10)")
    >>> state = game.new_initial_state()
    >>> state.is_chance_node(), len(state.chance_outcomes())   # the dealer's draw
    (True, 2)

Parameters (docs/research.md, "OpenSpiel"): ``players`` (2 or 4), ``preset`` (a name of
:data:`cuarenta.rules.PRESET_NAMES`; ``auto``: ``a_todo_rigor`` for 2 players, ``campeonato`` for 4),
``options`` (``"name=value,..."``, read into :meth:`Rules.replace`), ``target`` (0: the preset's) and
``chicas`` (default 1: one chica per game, as the arena plays).

- Chance: first the dealer (uniform over the seats), then at the start of every hand the deck, one
  card at a time (chance action = card index 0–39, uniform over the cards not dealt yet).
- Actions: the ids of :mod:`cuarenta.research.actions` (``NUM_ACTIONS`` = 1,056), sorted.
- Returns: +1 for each seat of the team that wins the mesa, −1 for the others (zero-sum).
- Observation: :func:`cuarenta.research.observation.encode` / ``observation_string`` of the seat's
  :class:`~cuarenta.SeatView` (the same vector as PettingZoo and Gymnasium).
- Information state: the string is the seat's whole history (its own cards at every deal and every
  public event, across hands); the tensor is the observation plus the current hand's record
  (:data:`INFOSTATE_PIECES`).
- IS-MCTS: ``bot.set_resampler(make_resampler(seed))``; ``state.resample_from_infostate(player,
  sampler)`` gives the same from Python.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from typing import Any, Final

import numpy as np
import pyspiel

from cuarenta.cards import CARDS, NUM_CARDS, NUM_RANKS, Card, cards_str
from cuarenta.events import ClaimMade, Deal, Event, FourOfAKind, Play, Ronda
from cuarenta.game import Game
from cuarenta.moves import Action, Move
from cuarenta.record import _parse_option
from cuarenta.research.actions import NUM_ACTIONS, action_id, actions_by_id, describe_id
from cuarenta.research.observation import DEALS, OBSERVATION_SIZE, SEATS, encode, observation_string
from cuarenta.research.variant import variant_name
from cuarenta.rules import OPTIONS_BY_NAME, PRESET_NAMES, Rules
from cuarenta.view import SeatView

SHORT_NAME: Final = "python_cuarenta"
#: The default parameters (``preset="auto"``: a_todo_rigor for 2 players, campeonato for 4).
DEFAULTS: Final = {"players": 2, "preset": "auto", "options": "", "target": 0, "chicas": 1}
#: Steps of one hand the information-state tensor records (40 plays and up to 8 claims).
MAX_STEPS: Final = 48
#: One recorded step: the seat (relative, 4), the card played (40), the cards taken or claimed (40),
#: and 1 for a claim.
STEP_SIZE: Final = SEATS + NUM_CARDS + NUM_CARDS + 1
#: The information-state tensor's pieces: (name, size).
INFOSTATE_PIECES: Final = (
    ("observation", OBSERVATION_SIZE),
    ("deal_hands", DEALS * NUM_CARDS),
    ("deal_rondas", DEALS * SEATS * NUM_RANKS),
    ("steps", MAX_STEPS * STEP_SIZE),
)
INFOSTATE_SIZE: Final = sum(size for _, size in INFOSTATE_PIECES)

GAME_TYPE: Final = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Cuarenta (Ecuador)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    provides_factored_observation_string=False,
    parameter_specification=dict(DEFAULTS),
)


def game_rules(params: dict[str, Any]) -> Rules:
    """The :class:`Rules` a parameter dict names; a bad parameter raises ``ValueError`` saying which.

    >>> rules = game_rules({"players": 2, "preset": "auto", "options": "capture=manual", "target": 10})
    >>> rules.capture, rules.target, rules.ronda_limit, rules.chicas
    ('manual', 10, 10, 1)
    """
    p = {**DEFAULTS, **params}
    players, preset = p["players"], p["preset"]
    if players not in (2, 4):
        raise ValueError(f"python_cuarenta: players={players!r}: 2 or 4")
    if preset == "auto":
        preset = "a_todo_rigor" if players == 2 else "campeonato"
    if preset not in PRESET_NAMES:
        raise ValueError(f"python_cuarenta: preset={preset!r}: one of auto, {', '.join(PRESET_NAMES)}")
    try:
        rules = Rules.preset(preset, players)
        options: dict[str, Any] = {}
        text = str(p["options"]).replace(";", ",").replace(":", "=")
        for item in filter(None, (x.strip() for x in text.split(","))):
            name, eq, text = item.partition("=")
            name = name.strip()
            if not eq or name not in {f for f in rules.to_dict() if f != "preset"}:
                raise ValueError(f"option {item!r}: write name=value with a rule option's name")
            options[name] = _parse_option(name, text)
        if p["target"]:
            options.setdefault("target", p["target"])
            OPTIONS_BY_NAME["target"].check(options["target"])
            limit = rules.ronda_limit
            if "ronda_limit" not in options and limit is not None and limit > options["target"]:
                options["ronda_limit"] = options["target"]  # R19's limit cannot exceed the target
        options.setdefault("chicas", int(p["chicas"]))
        return rules.replace(**options)
    except Exception as exc:  # RulesError, ValueError: one clear message
        raise ValueError(f"python_cuarenta: {exc}") from None


class DeckGame(Game):
    """A :class:`Game` whose hands are dealt from decks given one card at a time (chance outcomes).

    Between hands the game waits (:attr:`waiting_for_deck`) until :meth:`deal_card` has given all 40
    cards; every deal's hands are kept (:attr:`deal_hands`) for the information state.
    """

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules, 0)
        self.deck: list[Card] = []
        self.dealt_for = -1  # the hand number whose deck is complete
        self.deal_hands: dict[tuple[int, int], tuple[tuple[Card, ...], ...]] = {}

    @property
    def waiting_for_deck(self) -> bool:
        return self._outcome is None and self.dealt_for != self._hand_no

    def _new_hand(self, dealer: int) -> None:  # wait for the deck's chance outcomes
        self._dealer = dealer
        self.deck = []
        self._hands = [[] for _ in range(self._n)]
        self._table = []
        self._tcode = 0
        self._stock = []
        self._piles = [[], []]
        self._last_drop = None
        self._forgotten = ()
        self._rondas = ()

    def deal_card(self, card: Card) -> None:
        """The deck's next card; the 40th deals the hand (which may end a chica at once: R17, R24)."""
        self.deck.append(card)
        if len(self.deck) == NUM_CARDS:
            self.dealt_for = self._hand_no
            self._start_hand(self._dealer, self.deck, None)

    def _score_rondas(self) -> None:
        self.deal_hands[(self._hand_no, self._deal_no)] = tuple(tuple(h) for h in self._hands)
        super()._score_rondas()

    def clone(self) -> DeckGame:
        other: DeckGame = Game.copy(self)  # type: ignore[assignment]
        other.__class__ = DeckGame
        other.deck = list(self.deck)
        other.deal_hands = dict(self.deal_hands)
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> DeckGame:
        return self.clone()

    def __getstate__(self) -> dict[str, Any]:
        data = dict(self.__dict__)
        for key in ("_memo", "_masks", "_stack"):
            data.pop(key)
        return data

    def __setstate__(self, data: dict[str, Any]) -> None:
        fresh = Game(data["rules"], 0)
        self.__dict__.update({k: fresh.__dict__[k] for k in ("_memo", "_masks", "_stack")})
        self.__dict__.update(data)


class _Shared:
    """A value clones share (never changed after it is made): deepcopy keeps the same object."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self


#: Each move's id, remembered (a move's id depends on the move alone; claims' on the claimable list).
_MOVE_IDS: dict[Move, int] = {}


def _by_id(legal: list[Action], claimable: list[tuple[Card, ...]]) -> dict[int, Action]:
    """:func:`~cuarenta.research.actions.actions_by_id`, with the moves' ids remembered."""
    if not claimable:
        ids = _MOVE_IDS
        pairs = []
        for a in legal:
            i = ids.get(a)  # type: ignore[arg-type]
            if i is None:
                if len(ids) > 500_000:
                    ids.clear()
                i = ids[a] = action_id(a)  # type: ignore[index]
            pairs.append((i, a))
        pairs.sort()
        return dict(pairs)
    return actions_by_id(legal, claimable)


class CuarentaGame(pyspiel.Game):  # type: ignore[misc]
    """The registered game ``python_cuarenta``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**DEFAULTS, **(params or {})}
        self.rules = game_rules(params)
        n = self.rules.players
        # a chica lasts at most `target` hands (every hand's cartón gives points), a mesa 2*chicas-1
        hands = self.rules.target * (2 * self.rules.chicas - 1)
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=NUM_CARDS,
            num_players=n,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=hands * 2 * NUM_CARDS,
        )
        super().__init__(GAME_TYPE, info, params)

    def new_initial_state(self) -> CuarentaState:
        return CuarentaState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: dict[str, Any] | None = None
    ) -> CuarentaObserver:
        if params:
            raise ValueError(f"python_cuarenta: observation parameters are not supported: {params}")
        if iig_obs_type is None:
            return CuarentaObserver("observation")
        if iig_obs_type.perfect_recall:
            return CuarentaObserver("infostate")
        private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        if iig_obs_type.public_info:
            return CuarentaObserver("observation" if private else "public")
        return CuarentaObserver("private")


class CuarentaState(pyspiel.State):  # type: ignore[misc]
    """A state of ``python_cuarenta``: the engine's game, dealt from the chance outcomes."""

    def __init__(self, game: CuarentaGame) -> None:
        super().__init__(game)
        self.game = DeckGame(game.rules)
        self._legal: _Shared | None = None
        self._base: _Shared | None = None  # (history length, game) where the current hand's deck began
        self._script: list[tuple[int, int]] | None = None  # fast-forward (resampling): (player, action)
        self._steps = 0  # actions applied (chance ones included)

    # -- OpenSpiel's API ----------------------------------------------------------------------------
    def current_player(self) -> int:
        if self._script is not None:
            return self._script[0][0]
        g = self.game
        if g.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        if g.waiting_for_deck:
            return int(pyspiel.PlayerId.CHANCE)
        return g.turn

    def _legal_map(self) -> dict[int, Action]:
        if self._legal is None:
            g = self.game
            self._legal = _Shared(_by_id(g.legal_moves(), g.claimable))
        legal: dict[int, Action] = self._legal.value
        return legal

    def _legal_actions(self, player: int) -> list[int]:
        return list(self._legal_map())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        g = self.game
        if not self._steps:
            return [(s, 1.0 / g.players) for s in range(g.players)]
        dealt = bytearray(NUM_CARDS)
        for c in g.deck:
            dealt[c] = 1
        p = 1.0 / (NUM_CARDS - len(g.deck))
        return [(c, p) for c in range(NUM_CARDS) if not dealt[c]]

    def _apply_action(self, action: int) -> None:
        if self._script is not None:  # fast-forward through a history already played
            self._script.pop(0)
            if not self._script:
                self._script = None
            return
        g = self.game
        self._steps += 1
        if self._steps == 1:  # the dealer's draw
            if not 0 <= action < g.players:
                raise ValueError(f"python_cuarenta: dealer {action} is not a seat")
            g._new_hand(action)
        elif g.waiting_for_deck:
            card = CARDS[action]
            if card in g.deck:
                raise ValueError(f"python_cuarenta: card {card} was already dealt")
            g.deal_card(card)
        else:
            chosen = self._legal_map().get(action)
            if chosen is None:
                raise ValueError(
                    f"python_cuarenta: action {action} ({describe_id(action)}) is not legal here"
                )
            g.push(chosen)
            g._stack.clear()
        self._legal = None
        if g.waiting_for_deck and not g.deck:  # a hand's deck begins: where resampling starts from
            self._base = _Shared((self._steps, g.clone()))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if not self._steps:
                return f"dealer {action}"
            return f"deal {CARDS[action]}"
        g = self.game
        if not g.is_over and not g.waiting_for_deck and player == g.turn:
            chosen = self._legal_map().get(action)
            if chosen is not None:
                return str(chosen)
        return describe_id(action)

    def is_terminal(self) -> bool:
        return self._script is None and self.game.is_over

    def returns(self) -> list[float]:
        g = self.game
        if g.outcome is None:
            return [0.0] * g.players
        return [1.0 if s % 2 == g.outcome.winner else -1.0 for s in range(g.players)]

    def __str__(self) -> str:
        g = self.game
        if not self._steps:
            return "dealer to draw"
        if g.waiting_for_deck:
            return f"hand {g.hand_number}: dealing, {len(g.deck)} cards; scores {g.score}"
        hands = " | ".join(cards_str(g.hand(s)) or "-" for s in range(g.players))
        return (
            f"hand {g.hand_number} deal {g.deal_number}; turn {'-' if g.is_over else g.turn}; "
            f"dealer {g.dealer}\nhands: {hands}\ntable: {cards_str(g.table) or '-'}\n"
            f"stock: {cards_str(g.stock) or '-'}\nscores {g.score}; chicas {g.chicas}"
        )

    # -- IS-MCTS ---------------------------------------------------------------------------------
    def resample_from_infostate(self, player: int, probability_sampler: Any = None) -> CuarentaState:
        """A state the seat ``player`` cannot tell from this one (see :func:`resample`)."""
        seed = None
        if callable(probability_sampler):
            seed = int(probability_sampler() * 2**31)
        return resample(self, player, random.Random(seed))


# -- the information state ------------------------------------------------------------------------
@functools.lru_cache(maxsize=65536)
def _event_text(event: Event) -> str:
    data = event.to_dict()
    kind = data.pop("kind")
    fields = " ".join(f"{k}={v}" for k, v in data.items() if v is not None)
    return f"{kind} {fields}".replace("'", "")


@functools.lru_cache(maxsize=64)
def _rules_text(rules: Rules) -> str:
    return variant_name(rules)


def infostate_string(state: CuarentaState, player: int) -> str:
    """The seat's whole history: its own cards at every deal and every public event, in order."""
    g = state.game
    lines = [f"seat {player} of {g.players}; {_rules_text(g.rules)}"]
    for event in g.events:
        if isinstance(event, Deal):
            mine = g.deal_hands[(event.hand, event.deal)][player]
            lines.append(
                f"deal hand={event.hand} deal={event.deal} dealer={event.dealer} mine={cards_str(mine)}"
            )
        else:
            lines.append(_event_text(event))
    return "\n".join(lines)


def _set_cards(block: np.ndarray, cards: Any) -> None:
    for c in cards:
        block[int(c)] = 1.0


def infostate_tensor(state: CuarentaState, player: int, out: dict[str, np.ndarray]) -> None:
    """Fill the pieces of :data:`INFOSTATE_PIECES` (``out`` zeroed by the caller)."""
    g = state.game
    view = g.view(player)
    out["observation"][:] = encode(view)
    n = g.players
    hand_no = g.hand_number
    deal = -1
    step = 0
    for event in view.history:
        if isinstance(event, Deal):
            deal = event.deal
            if deal < DEALS and (hand_no, deal) in g.deal_hands:
                _set_cards(out["deal_hands"][deal], g.deal_hands[(hand_no, deal)][player])
        elif isinstance(event, Ronda | FourOfAKind) and 0 <= deal < DEALS:
            rank = "A234567JQK".index(event.rank)
            out["deal_rondas"][deal, (event.seat - player) % n, rank] = 1.0
        elif isinstance(event, Play | ClaimMade) and step < MAX_STEPS:
            row = out["steps"][step]
            row[(event.seat - player) % n] = 1.0
            if isinstance(event, Play):
                row[SEATS + int(event.move.card)] = 1.0
                _set_cards(row[SEATS + NUM_CARDS : SEATS + 2 * NUM_CARDS], event.move.base + event.move.run)
            else:
                _set_cards(row[SEATS + NUM_CARDS : SEATS + 2 * NUM_CARDS], event.cards)
                row[-1] = 1.0
            step += 1


class CuarentaObserver:
    """OpenSpiel's observer (``make_py_observer``), one of four kinds: ``observation`` (the default:
    :func:`~cuarenta.research.observation.encode` of the seat's view), ``infostate`` (perfect recall:
    :data:`INFOSTATE_PIECES`, :func:`infostate_string`), ``public`` (the observation without the
    seat's hand) and ``private`` (the seat's hand alone)."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        shapes = {
            "observation": (OBSERVATION_SIZE,),
            "deal_hands": (DEALS, NUM_CARDS),
            "deal_rondas": (DEALS, SEATS, NUM_RANKS),
            "steps": (MAX_STEPS, STEP_SIZE),
            "hand": (NUM_CARDS,),
        }
        if kind == "infostate":
            pieces: tuple[tuple[str, int], ...] = INFOSTATE_PIECES
        elif kind == "private":
            pieces = (("hand", NUM_CARDS),)
        else:
            pieces = (("observation", OBSERVATION_SIZE),)
        self.tensor = np.zeros(sum(size for _, size in pieces), np.float32)
        self.dict: dict[str, np.ndarray] = {}
        at = 0
        for name, size in pieces:
            self.dict[name] = self.tensor[at : at + size].reshape(shapes[name])
            at += size

    def set_from(self, state: CuarentaState, player: int) -> None:
        self.tensor.fill(0.0)
        if self.kind == "infostate":
            infostate_tensor(state, player, self.dict)
            return
        view = state.game.view(player)
        if self.kind == "private":
            _set_cards(self.tensor, view.hand)
            return
        self.tensor[:] = encode(view)
        if self.kind == "public":
            self.tensor[:NUM_CARDS] = 0.0  # the "hand" plane comes first

    def string_from(self, state: CuarentaState, player: int) -> str:
        if self.kind == "infostate":
            return infostate_string(state, player)
        view = state.game.view(player)
        if self.kind == "private":
            return f"hand: {cards_str(view.hand) or '-'}"
        text = observation_string(view)
        if self.kind == "public":
            text = "\n".join(line for line in text.split("\n") if not line.startswith("hand: "))
        return text


# -- resampling for IS-MCTS -----------------------------------------------------------------------
class ResampleError(RuntimeError):
    """No consistent world was found (should not happen: the sampler places the rondas itself)."""


def _hand_facts(g: DeckGame, player: int) -> tuple[list[Card | None], list[Card]]:
    """The current hand's deck as ``player`` knows it (``None``: hidden) and the hidden cards."""
    n = g.players
    first = (g.dealer + 1) % n
    known: list[Card | None] = [None] * NUM_CARDS
    played: dict[tuple[int, int], list[Card]] = {}
    deal = -1
    for event in g.hand_events():
        if isinstance(event, Deal):
            deal = event.deal
        elif isinstance(event, Play):
            played.setdefault((deal, event.seat), []).append(event.move.card)
    for d in range(g.deal_number + 1):
        for i in range(n):
            seat = (first + i) % n
            at = 5 * n * d + 5 * i
            if seat == player:
                cards = list(g.deal_hands[(g.hand_number, d)][seat])
            else:
                cards = played.get((d, seat), [])
            known[at : at + len(cards)] = cards
    seen = {c for c in known if c is not None}
    return known, [c for c in CARDS if c not in seen]


def _deck_for(g: DeckGame, player: int, rng: random.Random) -> list[Card]:
    """A deck for the current hand with ``player``'s cards and the public plays where they were,
    the rondas announced in the current deal placed, every other card at random."""
    n = g.players
    known, pool = _hand_facts(g, player)
    rng.shuffle(pool)
    first = (g.dealer + 1) % n
    d = g.deal_number
    wanted: list[tuple[int, int, int]] = []  # (seat, rank, count) announced in this deal
    for event in g.view(player).history:
        if isinstance(event, Deal):
            wanted = []
        elif isinstance(event, Ronda | FourOfAKind):
            count = 4 if isinstance(event, FourOfAKind) else 3
            wanted.append((event.seat, "A234567JQK".index(event.rank), count))
    for seat, rank, count in wanted:
        if seat == player:
            continue
        at = 5 * n * d + 5 * ((seat - first) % n)
        block = known[at : at + 5]
        need = count - sum(1 for c in block if c is not None and c >> 2 == rank)
        for i in range(5):
            if need <= 0:
                break
            if block[i] is None:
                card = next(c for c in pool if c >> 2 == rank)
                pool.remove(card)
                known[at + i] = card
                need -= 1
    return [c if c is not None else pool.pop() for c in known]


def hand_deck(state: CuarentaState) -> list[Card]:
    """The current hand's deck (hidden cards included: for tests and tools, never for a seat)."""
    start, _ = _start_of_hand(state)
    return [CARDS[pa.action] for pa in state.full_history()[start : start + NUM_CARDS]]


def _start_of_hand(state: CuarentaState) -> tuple[int, DeckGame]:
    g = state.game
    if state._base is None or g.is_over or g.waiting_for_deck:
        raise ResampleError("python_cuarenta resamples a state where a seat is to move")
    start, base = state._base.value
    return start, base


def replay_hand(state: CuarentaState, deck: list[Card]) -> CuarentaState | None:
    """``state`` with the current hand dealt from ``deck`` instead and the same actions played since;
    ``None`` if an action is not legal there. Earlier hands are kept as they were (fast-forwarded)."""
    start, base = _start_of_hand(state)
    full = [(int(pa.player), int(pa.action)) for pa in state.full_history()]
    new: CuarentaState = state.get_game().new_initial_state()
    if start:
        new._script = full[:start]
        for _, action in full[:start]:
            new.apply_action(action)
    new.game = base.clone()
    new._base = state._base
    new._steps = start
    for card in deck:
        new.apply_action(int(card))
    for _, action in full[start + NUM_CARDS :]:
        if new.is_terminal() or new.is_chance_node() or action not in new._legal_map():
            return None
        new.apply_action(action)
    return new


def resample(state: CuarentaState, player: int, rng: random.Random, tries: int = 200) -> CuarentaState:
    """A new state with the same public actions and ``player``'s own cards, the hidden cards of the
    current hand dealt again at random consistently with what ``player`` saw.

    Exact by construction and by check: the new deck is replayed and accepted only if ``player``'s
    information state is unchanged (rejection sampling; the rondas announced are placed first, so
    few tries are needed). Earlier hands are kept as they were played: they cannot change the future.
    """
    target = infostate_string(state, player)
    for _ in range(tries):
        new = replay_hand(state, _deck_for(state.game, player, rng))
        if new is not None and infostate_string(new, player) == target:
            return new
    raise ResampleError(f"python_cuarenta: no consistent world in {tries} tries")


def make_resampler(seed: int | None = None) -> Callable[[CuarentaState, int], CuarentaState]:
    """A resampler for ``ISMCTSBot.set_resampler``: ``resampler(state, player) -> state``.

    >>> resampler = make_resampler(seed=1)
    """
    rng = random.Random(seed)

    def resampler(state: CuarentaState, player: int) -> CuarentaState:
        return resample(state, player, rng)

    return resampler


def view_of(state: CuarentaState, player: int) -> SeatView:
    """The engine's view of ``player`` in ``state`` (what the observation encodes)."""
    return state.game.view(player)


pyspiel.register_game(GAME_TYPE, CuarentaGame)

__all__ = [
    "DEFAULTS",
    "GAME_TYPE",
    "INFOSTATE_PIECES",
    "INFOSTATE_SIZE",
    "MAX_STEPS",
    "SHORT_NAME",
    "CuarentaGame",
    "CuarentaObserver",
    "CuarentaState",
    "DeckGame",
    "ResampleError",
    "game_rules",
    "hand_deck",
    "infostate_string",
    "infostate_tensor",
    "make_resampler",
    "replay_hand",
    "resample",
    "view_of",
]
