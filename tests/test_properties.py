"""Property-based tests: invariants that hold at every step of many seeded random games.

Every test plays whole mesas of random legal actions (chosen by a ``random.Random`` seeded from the
Hypothesis example) for every preset: ``a_todo_rigor``, ``todo_dos`` and ``basico`` with 2 players,
``campeonato``, ``a_todo_rigor`` and ``todo_dos`` with 4, and for two custom tables that switch on
the options no preset uses. The properties:

- every one of the 40 cards is in exactly one place (hands, table, stock, piles) at every step, and at a
  hand boundary the leftovers (R22) or the abandoned hand (a chica ended mid-hand, R24) account for the rest;
- scores change only through scoring events, in tantos of 2, by exactly the sum of the events' ``points``
  (reset to 0 at a new chica), and are never negative;
- dealing and turns follow R4–R6;
- ``push``/``pop`` restore the exact state, across deal, hand and chica boundaries;
- ``to_json``/``from_json`` rebuild the identical game, which then plays on identically;
- ``view(seat)`` leaks no hidden card;
- every mesa ends within ``MAX_PLIES`` actions.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from cuarenta import CARDS, Action, Card, Claim, Game, GameOverError, Move, Rules, SeatView
from cuarenta.events import ChicaWon, Deal, DealerDraw, Event, HandEnd, Play
from support.examples import examples

PRESETS = [
    ("a_todo_rigor", 2),
    ("todo_dos", 2),
    ("basico", 2),
    ("campeonato", 4),
    ("a_todo_rigor", 4),
    ("todo_dos", 4),
]
#: Two custom tables that switch on the options no preset uses (caída across deals, four of a kind for
#: points, dos por dar, sums of exactly two, a cartón cap, zapatero wins the mesa, 3 chicas, target 30 ...).
CUSTOM = [
    (
        "custom-2p",
        Rules(
            players=2, sum_cards="two", caida_across_deals=True, four_of_a_kind="points",
            carton_short="dos_por_dar", cuatro_caidas_gana=True, target=30, ronda_limit=20, carton_cap=28,
            chicas=3, zapatero_wins_mesa=True, caida_ronda_points=6,
        ),
    ),
    (
        "custom-4p-manual",
        Rules(
            players=4, capture="manual", sum_cards="two", caida_across_deals=True, four_of_a_kind="points",
            carton_short="dos_por_dar", treinta_y_ocho=False, ronda_limit=None, chicas=1, ronda_points=4,
        ),
    ),
]  # fmt: skip
RULESETS = [(f"{name}-{n}p", Rules.preset(name, players=n)) for name, n in PRESETS] + CUSTOM

#: Upper bound on the actions of a mesa of random play. Random mesas measured while writing this test
#: took at most ~1,150 actions (campeonato, which plays two or three chicas and allows claims); the bound
#: leaves room for long chicas where a team at 38 can only score by caída (R20).
MAX_PLIES = 6000

#: Event kinds that add points to a team (``Zapatero.points`` is the loser's score, not a gain).
SCORING_KINDS = frozenset(
    {"ronda", "four_of_a_kind", "caida", "limpia", "caida_limpia", "caida_ronda", "carton"}
)
ALL_CARDS = sorted(str(c) for c in CARDS)
CARD_RE = re.compile(r"[A2-7JQK][hsdc]")

seeds = st.integers(min_value=0, max_value=2**32 - 1)
#: With this seed the first deal of ``basico`` gives a seat four of a kind: the one-chica mesa is over
#: before anybody plays (R17). Every property test runs it, for every table.
FOUR_AT_ONCE = 184
presets = pytest.mark.parametrize("rules", [r for _, r in RULESETS], ids=[i for i, _ in RULESETS])


def new_game(rules: Rules, seed: int) -> Game:
    return Game.new(rules, seed=seed)


def random_plies(game: Game, rng: random.Random) -> Iterator[tuple[Action, dict[str, Any], list[Event]]]:
    """Play random legal actions to the end of the mesa; yield (action, state before, events caused)."""
    plies = 0
    while not game.is_over:
        assert plies < MAX_PLIES, f"the mesa did not end within {MAX_PLIES} actions"
        legal = game.legal_moves()
        assert legal, "a game that is not over must have a legal action"
        action = rng.choice(legal)
        before = game.state_summary()
        events = game.play(action)
        plies += 1
        yield action, before, events


def cards_placed(summary: dict[str, Any]) -> list[str]:
    s = summary
    return sorted(
        [*(c for h in s["hands"] for c in h), *s["table"], *s["stock"], *(c for p in s["piles"] for c in p)]
    )


def after_move(before: dict[str, Any], seat: int, move: Move) -> dict[str, Any]:
    """The state right after ``move`` is put on the table, before any deal, hand end or chica end."""
    hands = [list(h) for h in before["hands"]]
    hands[seat].remove(str(move.card))
    table = list(before["table"])
    piles = [list(p) for p in before["piles"]]
    if move.base:
        taken = [str(c) for c in move.base + move.run]
        table = [c for c in table if c not in taken]
        piles[seat % 2] += [str(move.card), *taken]
    else:
        table.append(str(move.card))
    return {**before, "hands": hands, "table": table, "piles": piles}


# ---------------------------------------------------------------------------------------------------------
# Cards
# ---------------------------------------------------------------------------------------------------------


@presets
@settings(max_examples=examples(20), deadline=None)
@given(seed=seeds)
@example(seed=FOUR_AT_ONCE)
def test_every_card_is_in_exactly_one_place(rules: Rules, seed: int) -> None:
    rng = random.Random(seed)
    game = new_game(rules, seed)
    if not game.is_over:
        assert cards_placed(game.state_summary()) == ALL_CARDS
    for action, before, events in random_plies(game, rng):
        kinds = [e.kind for e in events]
        if isinstance(action, Move):
            mid = after_move(before, before["turn"], action)
            # the move itself moves cards between hand, table and pile only
            assert cards_placed(mid) == ALL_CARDS
        else:
            assert isinstance(action, Claim)
            assert kinds == ["claim"]
            claimed = [str(c) for c in action.cards]
            piles = [list(p) for p in before["piles"]]
            piles[before["turn"] % 2] += claimed
            mid = {**before, "table": [c for c in before["table"] if c not in claimed], "piles": piles}
        if not {"deal", "hand_end", "chica_won"} & set(kinds):
            # R11: captured cards and the card that took them go to the team's pile; a card that takes
            # nothing stays on the table; nothing else moves
            now = game.state_summary()
            for key in ("hands", "stock"):
                assert now[key] == mid[key]
            assert sorted(now["table"]) == sorted(mid["table"])
            assert [sorted(p) for p in now["piles"]] == [sorted(p) for p in mid["piles"]]
        hand_end = next((e for e in events if isinstance(e, HandEnd)), None)
        if hand_end is not None:
            # R22: the hand ends when every card was played; the leftovers are the table's cards
            if "chica_won" in kinds:
                assert kinds.index("hand_end") < kinds.index("chica_won")
            assert mid["stock"] == [] and all(h == [] for h in mid["hands"])
            assert sorted(str(c) for c in hand_end.leftovers) == sorted(mid["table"])
            assert list(hand_end.pile_sizes) == [len(p) for p in mid["piles"]]
            assert (
                sorted([*(str(c) for c in hand_end.leftovers), *mid["piles"][0], *mid["piles"][1]])
                == ALL_CARDS
            )
        elif "chica_won" in kinds:
            # a chica ended mid-hand: the rest of the hand (hands, stock, table, piles) is abandoned
            assert cards_placed(mid) == ALL_CARDS
        if not game.is_over:
            assert cards_placed(game.state_summary()) == ALL_CARDS


# ---------------------------------------------------------------------------------------------------------
# Scores
# ---------------------------------------------------------------------------------------------------------


@presets
@settings(max_examples=examples(20), deadline=None)
@given(seed=seeds)
@example(seed=FOUR_AT_ONCE)
def test_scores_change_only_by_scoring_events(rules: Rules, seed: int) -> None:
    rng = random.Random(seed)
    game = new_game(rules, seed)
    target = game.rules.target

    def replay_points(start: tuple[int, int], events: list[Event]) -> tuple[int, ...]:
        running = list(start)
        last_chica: list[int] = running
        for e in events:
            if e.kind in SCORING_KINDS:
                points = e.points  # type: ignore[attr-defined]
                assert points >= 0 and points % 2 == 0, e
                running[e.team] += points  # type: ignore[attr-defined]
            elif hasattr(e, "points") and e.kind != "zapatero":
                pytest.fail(f"unexpected event with points: {e}")
            if isinstance(e, ChicaWon):
                assert tuple(running) == e.scores, (running, e)
                if e.reason == "target":
                    assert e.scores[e.team] >= target, e  # R24
                last_chica, running = running, [0, 0]
            if e.kind == "mesa_won":
                running = last_chica  # the mesa is over: the final scores stay
        return tuple(running)

    assert replay_points((0, 0), game.events) == game.score  # rondas of the first deal
    for _, before, events in random_plies(game, rng):
        assert replay_points(tuple(before["scores"]), events) == game.score  # type: ignore[arg-type]
        for s in game.score:
            assert s >= 0 and s % 2 == 0
            if not game.is_over:
                assert s < target
    assert game.outcome is not None


# ---------------------------------------------------------------------------------------------------------
# Dealing and turns (R4–R6)
# ---------------------------------------------------------------------------------------------------------


class DealModel:
    """What R4–R6 say about dealers, deals and turns, followed event by event."""

    def __init__(self, game: Game) -> None:
        self.n = game.players
        self.deals_per_hand = 40 // (5 * self.n)
        draw = game.events[0]
        assert isinstance(draw, DealerDraw)
        # R4: highest rank deals; ties among the highest draw again
        seats = list(range(self.n))
        for i, rnd in enumerate(draw.draws):
            assert [s for s, _ in rnd] == seats
            best = max(c.rank for _, c in rnd)
            seats = [s for s, c in rnd if c.rank == best]
            assert (len(seats) == 1) == (i == len(draw.draws) - 1)
        assert draw.dealer == seats[0]
        self.dealer = draw.dealer
        self.hand = -1
        self.deal = -1
        self.played = [5] * self.n
        self.turn = -1
        self.hand_over = True  # nothing dealt yet

    def feed(self, events: list[Event]) -> None:
        for e in events:
            if isinstance(e, Play):
                assert e.seat == self.turn, f"seat {e.seat} played, expected seat {self.turn}"
                assert self.played[e.seat] < 5
                self.played[e.seat] += 1
                self.turn = (e.seat + 1) % self.n
            elif isinstance(e, Deal):
                if e.deal == 0:  # a new hand
                    if self.hand >= 0:
                        assert e.dealer == (self.dealer + 1) % self.n, "R4: the deal passes to the right"
                    assert e.hand == self.hand + 1
                    assert e.cut is not None and 1 <= e.cut <= 39
                    if self.hand_over and self.hand >= 0:
                        assert self.played == [5] * self.n
                    self.hand, self.dealer = e.hand, e.dealer
                else:  # the next deal of the same hand: every seat played its 5 cards (R5, R6)
                    assert (e.dealer, e.hand, e.deal) == (self.dealer, self.hand, self.deal + 1)
                    assert e.deal < self.deals_per_hand
                    assert self.played == [5] * self.n, f"seats played {self.played} cards in the deal"
                    assert e.cut is None
                self.deal = e.deal
                self.played = [0] * self.n
                self.turn = (self.dealer + 1) % self.n  # R6
                self.hand_over = False
            elif isinstance(e, HandEnd):
                assert self.played == [5] * self.n and self.deal == self.deals_per_hand - 1
                self.hand_over = True
            elif isinstance(e, ChicaWon):
                self.hand_over = False  # the hand is abandoned where it stands

    def check_state(self, game: Game) -> None:
        if game.is_over:
            return
        assert game.turn == self.turn
        assert game.dealer == self.dealer
        assert (game.hand_number, game.deal_number) == (self.hand, self.deal)
        for s in range(self.n):
            assert len(game.hand(s)) == 5 - self.played[s]


def rondas_in(game: Game) -> list[tuple[int, int]]:
    """(seat, rank) of every three or four of a kind, in playing order from the dealer's right (R16, R17)."""
    out = []
    for i in range(game.players):
        seat = (game.dealer + 1 + i) % game.players
        ranks = [c.rank for c in game.hand(seat)]
        out += [(seat, r) for r in sorted(set(ranks)) if ranks.count(r) >= 3]
    return out


def check_fresh_deal(game: Game, deal: Deal, stock_before: list[str] | None, after: list[Event]) -> None:
    """The state right after ``deal`` (no play since)."""
    n = game.players
    first = (deal.dealer + 1) % n
    hands = [[str(c) for c in game.hand(s)] for s in range(n)]
    assert all(len(h) == 5 for h in hands)
    assert len(game.stock) == 40 - 5 * n * (deal.deal + 1)
    if stock_before is not None:
        # R5: five by five from the front of the stock, starting with the seat to the dealer's right
        for i in range(n):
            assert hands[(first + i) % n] == stock_before[5 * i : 5 * i + 5]
        assert [str(c) for c in game.stock] == stock_before[5 * n :]
    if deal.deal == 0:
        assert game.table == [] and game.pile(0) == [] and game.pile(1) == []
        assert game.last_drop is None and game.claimable == []
    # R16/R17: the rondas announced are the three-of-a-kinds held, scored in playing order
    assert game.rondas == rondas_in(game)
    announced = [(e.seat, e.rank) for e in after if e.kind in ("ronda", "four_of_a_kind")]  # type: ignore[attr-defined]
    assert announced == [(s, "A234567JQK"[r]) for s, r in game.rondas]


@presets
@settings(max_examples=examples(20), deadline=None)
@given(seed=seeds)
@example(seed=FOUR_AT_ONCE)
def test_deals_and_turns_follow_r4_to_r6(rules: Rules, seed: int) -> None:
    rng = random.Random(seed)
    game = new_game(rules, seed)
    model = DealModel(game)
    model.feed(game.events)
    model.check_state(game)
    first_deal = game.events[1]
    assert isinstance(first_deal, Deal) and first_deal.dealer == game.events[0].dealer  # type: ignore[attr-defined]
    if not game.is_over and game.hand_number == 0:
        check_fresh_deal(game, first_deal, None, game.events[2:])
    redeals = 0
    for _, before, events in random_plies(game, rng):
        assert before["turn"] == model.turn
        model.feed(events)
        model.check_state(game)
        deals = [i for i, e in enumerate(events) if isinstance(e, Deal)]
        if deals and not game.is_over:
            last = events[deals[-1]]
            assert isinstance(last, Deal)
            if last.deal > 0:
                redeals += 1
                check_fresh_deal(game, last, before["stock"], events[deals[-1] + 1 :])
            else:
                check_fresh_deal(game, last, None, events[deals[-1] + 1 :])
    if any(isinstance(e, HandEnd) for e in game.events):
        assert redeals > 0  # a hand that was played out had 2 or 4 deals


# ---------------------------------------------------------------------------------------------------------
# End of the mesa
# ---------------------------------------------------------------------------------------------------------


@presets
@settings(max_examples=examples(30), deadline=None)
@given(seed=seeds)
@example(seed=FOUR_AT_ONCE)
def test_every_mesa_ends(rules: Rules, seed: int) -> None:
    rng = random.Random(seed)
    game = new_game(rules, seed)
    for _ in random_plies(game, rng):
        pass
    outcome = game.outcome
    assert outcome is not None
    assert game.legal_moves() == []
    with pytest.raises(GameOverError):
        game.play(Move(CARDS[0]))
    results = game.chica_results
    assert len(results) == sum(game.chicas)
    assert tuple(sum(1 for r in results if r.winner == t) for t in (0, 1)) == game.chicas
    assert results[-1].winner == outcome.winner
    if outcome.reason == "chicas":
        assert game.chicas[outcome.winner] == game.rules.chicas
    assert game.events[-1].kind == "mesa_won"


# ---------------------------------------------------------------------------------------------------------
# push / pop
# ---------------------------------------------------------------------------------------------------------


def light_snapshot(game: Game) -> tuple[Any, ...]:
    return (game.state_summary(), len(game.events), game.legal_moves(), game.claimable, game.rondas)


def full_snapshot(game: Game) -> tuple[Any, ...]:
    views = [game.view(s) for s in range(game.players)]
    return (*light_snapshot(game), list(game.events), list(game.actions), views, game.chica_results)


@presets
@settings(max_examples=examples(10), deadline=None)
@given(seed=seeds)
@example(seed=FOUR_AT_ONCE)
def test_push_pop_restores_the_exact_state(rules: Rules, seed: int) -> None:
    rng = random.Random(seed)
    game = new_game(rules, seed)
    snapshots = []
    crossed = 0
    deal_ends = 0
    while not game.is_over:
        assert len(snapshots) < MAX_PLIES
        # the dealer holding its last card: the next move ends the deal (and maybe the hand)
        deal_end_next = game.turn == game.dealer and len(game.hand(game.turn)) == 1
        deal_ends += deal_end_next
        if rng.random() < 0.06 or (deal_end_next and (crossed == 0 or rng.random() < 0.3)):
            # an excursion of several random actions, undone; often across deal/hand/chica boundaries
            snap = full_snapshot(game)
            pushed: list[Action] = []
            for _ in range(rng.randint(1, 45)):
                if game.is_over:
                    break
                pushed.append(rng.choice(game.legal_moves()))
                game.push(pushed[-1])
            new_kinds = {e.kind for e in game.events[snap[1] :]}
            crossed += bool(new_kinds & {"deal", "hand_end", "chica_won", "mesa_won"})
            while pushed:
                assert game.pop() == pushed.pop()
            assert full_snapshot(game) == snap
        snapshots.append(light_snapshot(game))
        game.push(rng.choice(game.legal_moves()))
    final_events = list(game.events)
    final_actions = list(game.actions)
    # unwind the whole mesa, through every chica, hand and deal boundary
    for i in reversed(range(len(snapshots))):
        assert game.pop() == final_actions[i]
        assert light_snapshot(game) == snapshots[i]
        assert game.events == final_events[: snapshots[i][1]]
    with pytest.raises(IndexError):
        game.pop()
    # and the same actions replay to the same events (a mesa is a function of rules, seed and actions)
    for action in final_actions:
        game.push(action)
    assert game.events == final_events
    assert crossed > 0 or deal_ends == 0


# ---------------------------------------------------------------------------------------------------------
# JSON save and load
# ---------------------------------------------------------------------------------------------------------


def assert_same_game(a: Game, b: Game) -> None:
    assert b.state_summary() == a.state_summary()
    assert b.events == a.events
    assert [e.to_dict() for e in b.events] == [e.to_dict() for e in a.events]
    assert [str(x) for x in b.actions] == [str(x) for x in a.actions]
    assert b.legal_moves() == a.legal_moves()
    assert b.claimable == a.claimable and b.rondas == a.rondas
    assert b.chica_results == a.chica_results and b.outcome == a.outcome
    assert [b.view(s) for s in range(b.players)] == [a.view(s) for s in range(a.players)]


@presets
@settings(max_examples=examples(6), deadline=None)
@given(seed=seeds)
@example(seed=FOUR_AT_ONCE)
def test_json_round_trip_replays_to_the_identical_game(rules: Rules, seed: int) -> None:
    rng = random.Random(seed)
    game = new_game(rules, seed)
    checks = 0

    def round_trip() -> None:
        text = game.to_json()
        loaded = Game.from_json(text)
        assert_same_game(game, loaded)
        assert loaded.to_json() == text
        # the loaded game plays on identically, through the next deals and hands (dealt from the seed)
        copy = game.copy()
        for _ in range(rng.randint(0, 40)):
            if copy.is_over:
                break
            i = rng.randrange(len(copy.legal_moves()))
            assert loaded.play(loaded.legal_moves()[i]) == copy.play(copy.legal_moves()[i])
            assert loaded.state_summary() == copy.state_summary()

    round_trip()  # no action yet
    for _ in random_plies(game, rng):
        if rng.random() < 0.02 or game.is_over:
            round_trip()
            checks += 1
    assert checks > 0 or game.actions == []


@presets
@settings(max_examples=examples(4), deadline=None)
@given(seed=seeds)
@example(seed=FOUR_AT_ONCE)
def test_json_round_trip_of_a_game_from_a_position(rules: Rules, seed: int) -> None:
    """A game started with ``from_position`` (mid-hand, later hands dealt from its seed) saves and loads."""
    rng = random.Random(seed)
    game = new_game(rules, seed)
    for _ in range(rng.randrange(120)):
        if game.is_over:
            break
        game.play(rng.choice(game.legal_moves()))
    if game.is_over:
        return
    s = game.state_summary()
    start = Game.from_position(game.rules, **position_args(game, s["hands"], s["stock"]))
    for _ in random_plies(start, rng):
        if rng.random() < 0.05 or start.is_over:
            loaded = Game.from_json(start.to_json())
            assert_same_game(start, loaded)
            if not start.is_over:
                assert loaded.play(loaded.legal_moves()[0]) == start.copy().play(start.legal_moves()[0])


# ---------------------------------------------------------------------------------------------------------
# Views: no hidden card leaks
# ---------------------------------------------------------------------------------------------------------

#: View fields that depend on the history, which a position built by ``Game.from_position`` does not
#: carry: ``history`` (the events of the current hand), ``chica_results`` (earlier chicas),
#: ``hand_number`` (a position starts at hand 0) and ``claimable`` (manual capture: what the previous
#: player forgot is known from its move only). Every other field depends only on the current position
#: and is compared, so a field added later is covered too. None of the four can hold a hidden card:
#: ``claimable`` names table cards only (checked below), and the card-text check covers the whole view.
HISTORY_FIELDS = frozenset({"history", "chica_results", "hand_number", "claimable"})


def position_part(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in HISTORY_FIELDS}


def position_args(game: Game, hands: list[list[str]], stock: list[str]) -> dict[str, Any]:
    s = game.state_summary()
    return {
        "hands": hands,
        "table": s["table"],
        "stock": stock,
        "turn": s["turn"],
        "dealer": s["dealer"],
        "scores": s["scores"],
        "piles": s["piles"],
        "last_drop": s["last_drop"],
        "chicas": s["chicas"],
        "rondas": game.rondas,
        "seed": game.seed,
    }


def check_views(game: Game, rng: random.Random) -> None:
    n = game.players
    s = game.state_summary()
    for seat in range(n):
        typed = game.view(seat)
        view = typed.to_dict()
        assert SeatView.from_dict(view) == typed  # the wire form reads back to the same view
        hidden = {c for o in range(n) if o != seat for c in s["hands"][o]} | set(s["stock"])
        text = json.dumps(view, ensure_ascii=False)
        leaked = set(CARD_RE.findall(text)) & hidden
        assert not leaked, f"view({seat}) names hidden cards {sorted(leaked)}"
        assert view["hand"] == s["hands"][seat]
        assert view["hand_sizes"] == [len(h) for h in s["hands"]] and view["stock_size"] == len(s["stock"])
        assert all(c in s["table"] for opt in view["claimable"] for c in opt)

        # the same public position with the hidden cards dealt differently gives the same view
        # (an announced ronda is public: its cards stay with the seat that announced it)
        announced = {(o, r) for o, r in game.rondas}
        pool = [c for o in range(n) if o != seat for c in s["hands"][o] if (o, Card(c).rank) not in announced]
        pool += list(s["stock"])
        rng.shuffle(pool)
        hands = [list(h) for h in s["hands"]]
        for o in range(n):
            if o != seat:
                fixed = [c for c in hands[o] if (o, Card(c).rank) in announced]
                take = len(hands[o]) - len(fixed)
                hands[o], pool = fixed + pool[:take], pool[take:]
        same = Game.from_position(game.rules, **position_args(game, s["hands"], s["stock"]))
        shuffled = Game.from_position(game.rules, **position_args(game, hands, pool))
        want = position_part(view)
        assert len(want) >= 15 and set(view) == set(same.view(seat).to_dict())
        assert position_part(same.view(seat).to_dict()) == want  # the position rebuilds these exactly
        assert position_part(shuffled.view(seat).to_dict()) == want
        if seat == game.turn:  # and the same moves (claims are not part of a position)
            assert shuffled.legal_moves() == [m for m in game.legal_moves() if isinstance(m, Move)]


@presets
@settings(max_examples=examples(6), deadline=None)
@given(seed=seeds)
@example(seed=FOUR_AT_ONCE)
def test_views_leak_no_hidden_card(rules: Rules, seed: int) -> None:
    rng = random.Random(seed)
    game = new_game(rules, seed)
    checks = 0
    if not game.is_over:  # (a four of a kind in the first deal can end a one-chica mesa at once)
        check_views(game, rng)
        checks += 1
    for _ in random_plies(game, rng):
        if not game.is_over and rng.random() < 0.08:
            check_views(game, rng)
            checks += 1
    assert checks > 0 or game.actions == []
    final = game.view(0)  # at the end of the mesa nobody holds cards, and nothing is hidden
    assert final.turn is None and final.outcome == game.outcome
