"""An independent, naive reference for the capture rules R7–R12, checked against the engine.

The reference below is written from the wording of docs/rules.md only. It does not use
``cuarenta.captures`` nor any engine helper: it reads a card's rank from its text
(``"7h"`` → ``"7"``) and enumerates every subset of the table cards directly:

- R7 igualdad: a one-card base of the played card's rank;
- R8 suma: a base of two or more (``sum_cards="two"``: exactly two) table cards, all of ranks A…7,
  whose values add up to the value of the played card, itself A…7 (R2: J, Q, K never sum);
- R9: a capture has exactly one base;
- R10 escalera: after a base, the table cards of the ranks that follow the *played* rank, one per rank,
  with no gap;
- R12 ``auto``: a card that has a base must capture, with the whole escalera; ``manual``: any base with
  any gap-free prefix of the escalera, or nothing; what was left is claimable by the next seat.

Moves are compared by *rank signature* ``(card, sorted base ranks, escalera ranks)``: suits never matter
for play (R1) and the engine lists each capture once however many same-rank cards could realise it.
Every engine move is also checked to be a real realisation (distinct table cards of those ranks), and
random declared moves, legal or not, are checked against the reference with ``Game.is_legal``.

This is the check that gives the perft numbers (``tests/test_perft.py``) their meaning; the reference
itself is tests/support/movegen.py, which both files import.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from cuarenta import CARDS, Card, Claim, Game, Move, Rules
from support.examples import examples
from support.movegen import (
    Key,
    engine_claim_keys,
    engine_move_keys,
    move_key,
    ref_rank,
    reference_captures,
    reference_claims,
    reference_move_keys,
)

# ---------------------------------------------------------------------------------------------
# Random positions
# ---------------------------------------------------------------------------------------------


def random_position(rng: random.Random, players: int, capture: str) -> dict[str, Any]:
    """Keyword arguments for ``Game.from_position``: a random, structurally valid position.

    Any deal of the hand, any number of plays into it, a random table (distinct ranks with automatic
    capture, as the engine requires; any cards with manual capture), the rest in the two piles, and a
    random ``last_drop`` when somebody already played in this deal.
    """
    n = players
    per_deal = 5 * n
    deal = rng.randrange(40 // per_deal)
    k = rng.randrange(per_deal)
    dealer = rng.randrange(n)
    first = (dealer + 1) % n
    deck = list(CARDS)
    rng.shuffle(deck)
    stock_size = 40 - per_deal * (deal + 1)
    stock, deck = deck[:stock_size], deck[stock_size:]
    hands: list[list[Card]] = [[] for _ in range(n)]
    for s in range(n):
        i = (s - first) % n
        played = (k - i + n - 1) // n if k > i else 0
        hands[s], deck = deck[: 5 - played], deck[5 - played :]
    # ``deck`` now holds the cards already out of the hands: table or piles
    limit = min(len(deck), 10 if capture == "auto" else 12)
    size = rng.randint(0, limit) if rng.random() < 0.3 else rng.randint(limit // 2, limit)
    table: list[Card] = []
    ranks: set[int] = set()
    for c in list(deck):
        if len(table) == size:
            break
        if capture == "auto" and ref_rank(c) in ranks:
            continue
        table.append(c)
        ranks.add(ref_rank(c))
        deck.remove(c)
    cut = rng.randint(0, len(deck))
    piles = [deck[:cut], deck[cut:]]
    last_drop = rng.choice(table) if table and k > 0 and rng.random() < 0.6 else None
    return {
        "hands": [[str(c) for c in h] for h in hands],
        "table": [str(c) for c in table],
        "stock": [str(c) for c in stock],
        "turn": (first + k) % n,
        "dealer": dealer,
        "piles": [[str(c) for c in p] for p in piles],
        "last_drop": None if last_drop is None else str(last_drop),
        "seed": rng.randrange(1 << 30),
    }


def make_rules(players: int, capture: str, sum_cards: str) -> Rules:
    return Rules(players=players, capture=capture, sum_cards=sum_cards)  # type: ignore[arg-type]


positions = st.tuples(
    st.integers(min_value=0, max_value=2**32 - 1),
    st.sampled_from((2, 4)),
    st.sampled_from(("auto", "manual")),
    st.sampled_from(("two_or_more", "two")),
)


# ---------------------------------------------------------------------------------------------
# Tests
# ---------------------------------------------------------------------------------------------


def assert_matches_reference(game: Game) -> None:
    """The engine's legal moves equal the reference's, each listed once and each a real capture."""
    rules = game.rules
    hand = game.hand(game.turn)
    table = game.table
    expected = reference_move_keys(hand, table, rules.capture, rules.sum_cards == "two")
    moves = [m for m in game.legal_moves() if isinstance(m, Move)]
    keys = [move_key(m) for m in moves]
    assert len(keys) == len(set(keys)), f"a move is listed twice: {sorted(map(str, moves))}"
    missing = expected - set(keys)
    extra = set(keys) - expected
    assert not missing and not extra, (
        f"table {' '.join(map(str, table))}, hand {' '.join(map(str, hand))}: "
        f"missing {sorted(missing)}, not legal {sorted(extra)}"
    )
    for m in moves:
        taken = m.base + m.run
        assert m.card in hand
        assert len(set(taken)) == len(taken) and all(c in table for c in taken), str(m)
        assert game.is_legal(m), str(m)
        drop = game.last_drop
        if drop is not None and len(m.base) == 1 and ref_rank(m.base[0]) == ref_rank(drop):
            # documented in legal_moves: a pair on the rank of the last dropped card takes that card
            assert m.base[0] == drop, str(m)


@settings(max_examples=examples(250), deadline=None)
@given(positions)
def test_legal_moves_equal_the_reference(params: tuple[int, int, str, str]) -> None:
    seed, players, capture, sum_cards = params
    rng = random.Random(seed)
    game = Game.from_position(
        make_rules(players, capture, sum_cards), **random_position(rng, players, capture)
    )
    assert game.claimable == []  # a position starts with nothing forgotten
    assert_matches_reference(game)


def realise(key: Key, table: Sequence[Card], rng: random.Random) -> Move | None:
    """A move with that rank signature using random distinct table cards, if the table has them."""
    card, base_ranks, run_ranks = key
    pool = list(table)
    rng.shuffle(pool)
    chosen: list[Card] = []
    for r in (*base_ranks, *run_ranks):
        found = next((c for c in pool if ref_rank(c) == r and c not in chosen), None)
        if found is None:
            return None
        chosen.append(found)
    nb = len(base_ranks)
    base = chosen[:nb]
    rng.shuffle(base)  # the order of a sum's cards does not matter
    return Move(card, tuple(base), tuple(chosen[nb:]))


def reference_accepts(move: Move, hand: Sequence[Card], table: Sequence[Card], keys: set[Key]) -> bool:
    taken = move.base + move.run
    if move.card not in hand or len(set(taken)) != len(taken) or any(c not in table for c in taken):
        return False
    return move_key(move) in keys


@settings(max_examples=examples(200), deadline=None)
@given(positions)
def test_declared_moves_are_checked_like_the_reference(params: tuple[int, int, str, str]) -> None:
    """``is_legal`` of any declared move (every suit realisation, and random junk) agrees with R7–R12."""
    seed, players, capture, sum_cards = params
    rng = random.Random(seed)
    game = Game.from_position(
        make_rules(players, capture, sum_cards), **random_position(rng, players, capture)
    )
    hand, table = game.hand(game.turn), game.table
    keys = reference_move_keys(hand, table, capture, sum_cards == "two")
    for key in sorted(keys):
        move = realise(key, table, rng)
        assert move is not None
        assert game.is_legal(move), f"{move} is legal by R7–R12 on table {' '.join(map(str, table))}"
    others = [c for c in CARDS if c not in hand]
    for _ in range(60):
        card = rng.choice(hand) if rng.random() < 0.9 else rng.choice(others)
        pool = table + ([rng.choice(others)] if rng.random() < 0.1 else [])
        base = tuple(rng.sample(pool, min(len(pool), rng.choice((0, 1, 1, 2, 2, 3)))))
        rest = [c for c in pool if c not in base]
        rest.sort(key=ref_rank)
        run = tuple(rest[: rng.choice((0, 0, 1, 2, 3))]) if base or rng.random() < 0.2 else ()
        move = Move(card, base, run)
        expected = reference_accepts(move, hand, table, keys)
        assert game.is_legal(move) == expected, f"{move} on table {' '.join(map(str, table))}"
    before = game.state_summary()
    bad = [m for m in (Move(c) for c in hand) if not reference_accepts(m, hand, table, keys)]
    for m in bad:  # an illegal action is refused and changes nothing
        assert not game.is_legal(m)
    assert game.state_summary() == before


def step_claim_check(game: Game, action: Move | Claim, rng: random.Random) -> None:
    """Push ``action``; the claimable captures then equal the reference's (R12). Leaves it pushed."""
    two = game.rules.sum_cards == "two"
    table_before = game.table
    start = len(game.events)
    game.push(action)
    kinds = {e.kind for e in game.events[start:]}
    if isinstance(action, Claim) or kinds & {"hand_end", "chica_won"}:
        expected: set[tuple[int, ...]] = set()
    else:
        expected = reference_claims(action.card, table_before, action, two)
    got = engine_claim_keys(game)
    assert len(got) == len(set(got)), f"claim listed twice: {game.claimable}"
    assert set(got) == expected, (
        f"after {action} on table {' '.join(map(str, table_before))}: claimable {got}, expected {expected}"
    )
    for opt in game.claimable:
        assert all(c in game.table for c in opt)
        assert Claim(opt) in game.legal_moves()
    if not game.is_over:
        # any declared claim is legal exactly when its ranks are one of the forgotten captures
        table = game.table
        for _ in range(8):
            cards = tuple(rng.sample(table, rng.randint(0, min(4, len(table)))))
            ranks = tuple(sorted(ref_rank(c) for c in cards))
            assert game.is_legal(Claim(cards)) == (ranks in expected), f"claim {cards}, open {expected}"


@settings(max_examples=examples(150), deadline=None)
@given(
    st.integers(min_value=0, max_value=2**32 - 1),
    st.sampled_from((2, 4)),
    st.sampled_from(("two_or_more", "two")),
)
def test_claims_follow_the_reference(seed: int, players: int, sum_cards: str) -> None:
    """Manual capture: after every move of a position, what is claimable is what R12 says."""
    rng = random.Random(seed)
    game = Game.from_position(
        make_rules(players, "manual", sum_cards), **random_position(rng, players, "manual")
    )
    for move in game.legal_moves():
        assert isinstance(move, Move)
        step_claim_check(game, move, rng)
        if game.claimable and not game.is_over:
            seat, team = game.turn, game.turn % 2
            opt = rng.choice(game.claimable)
            pile, table, scores = game.pile(team), game.table, game.score
            step_claim_check(game, Claim(opt), rng)
            # a claim moves exactly those cards to the claimant's pile, scores nothing, keeps the turn
            assert game.turn == seat
            assert game.score == scores
            assert game.pile(team) == pile + list(opt)
            assert sorted(game.table) == sorted(c for c in table if c not in opt)
            assert all(isinstance(m, Move) for m in game.legal_moves())
            game.pop()
        game.pop()


@settings(max_examples=examples(12), deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1), st.sampled_from(("two_or_more", "two")))
def test_random_manual_games_follow_the_reference(seed: int, sum_cards: str) -> None:
    """A whole campeonato-like mesa of random actions: moves and claims match the reference at every ply."""
    rng = random.Random(seed)
    rules = Rules.preset("campeonato", players=4).replace(sum_cards=sum_cards)
    game = Game.new(rules, seed=seed)
    plies = 0
    while not game.is_over and plies < 6000:
        assert_matches_reference(game)
        step_claim_check(game, rng.choice(game.legal_moves()), rng)
        plies += 1
    assert game.is_over


@settings(max_examples=examples(12), deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1), st.sampled_from((2, 4)))
def test_random_auto_games_follow_the_reference(seed: int, players: int) -> None:
    rng = random.Random(seed)
    game = Game.new(Rules.preset("a_todo_rigor", players=players), seed=seed)
    while not game.is_over:
        assert_matches_reference(game)
        game.push(rng.choice(game.legal_moves()))


def rest_of_deck(*used: Iterable[str]) -> list[str]:
    seen = {str(Card(c)) for group in used for c in group}
    return [str(c) for c in CARDS if str(c) not in seen]


def test_reference_on_the_rules_examples() -> None:
    """Worked examples of docs/rules.md and the sources, on the reference and on the engine."""
    # R10 (002): a 3 takes 3, 4, 5, 6, 7, J
    table = Card.parse_many("3c 4d 5s 6h 7c Js")
    assert reference_captures(Card("3s"), table, False) == {((2,), (3, 4, 5, 6, 7))}
    # 001: with a 7 you take the 3 and the 4; after a sum the run starts after the played 7: J, Q
    table = Card.parse_many("3c 4d Js Qh 5s")
    assert reference_captures(Card("7h"), table, False) == {((2, 3), (7, 8))}
    # a sum of three cards only with two_or_more; J, Q, K never sum; no base, no escalera
    table = Card.parse_many("Ac 2d 4s 5h")
    assert reference_captures(Card("7h"), table, False) == {((0, 1, 3), ()), ((1, 4), ())}
    assert reference_captures(Card("7h"), table, True) == {((1, 4), ())}
    assert reference_captures(Card("Kh"), Card.parse_many("Qc Jd"), False) == set()
    assert reference_captures(Card("6h"), Card.parse_many("7c Jd"), False) == set()
    # the same examples on the engine, as positions
    hands = [["3s", "7h", "Kh", "6h", "2h"], ["Ks", "Kc", "Kd", "Qs", "Qd"]]
    tbl = ["4d", "5s", "Js", "3c", "Ac", "2d"]
    game = Game.from_position(
        Rules(),
        hands=hands,
        table=tbl,
        stock=[],
        turn=0,
        dealer=1,
        piles=[rest_of_deck(*hands, tbl), []],
    )
    assert_matches_reference(game)
    keys = set(engine_move_keys(game))
    c3, c7, c6, c2 = Card("3s"), Card("7h"), Card("6h"), Card("2h")
    assert (c3, (2,), (3, 4)) in keys  # R10: after the pair, the run 4 5, then no 6
    assert (Card("Kh"), (), ()) in keys
    assert {k for k in keys if k[0] == c7} == {(c7, (2, 3), (7,)), (c7, (1, 4), (7,)), (c7, (0, 1, 3), (7,))}
    assert {k for k in keys if k[0] == c6} == {(c6, (0, 4), ()), (c6, (1, 3), ()), (c6, (0, 1, 2), ())}
    assert {k for k in keys if k[0] == c2} == {(c2, (1,), (2, 3, 4))}
