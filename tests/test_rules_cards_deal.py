"""R1–R6: the deck, values, seats, the dealer draw, the deal and who plays first.

Also the checks of :meth:`Game.from_position` (impossible positions raise PositionError).
"""

from __future__ import annotations

import itertools

import pytest

from cuarenta import CARDS, RANK_CHARS, SUIT_CHARS, Card, Game, PositionError, Rules
from support.positions import kinds, of_kind, one, position

FOUR = Rules(players=4)


# -- R1 deck ------------------------------------------------------------------------------------
def test_r1_deck_has_40_cards_ten_ranks_four_suits() -> None:
    assert len(CARDS) == 40
    assert len(set(CARDS)) == 40
    assert RANK_CHARS == "A234567JQK"
    assert SUIT_CHARS == "hsdc"
    texts = {str(c) for c in CARDS}
    assert texts == {r + s for r in "A234567JQK" for s in "hsdc"}
    # no 8, 9 or 10 in the deck
    assert not any(str(c)[0] in "89" or str(c).startswith("10") for c in CARDS)


def test_r1_rank_order_is_a_to_7_then_j_q_k() -> None:
    ranks = [Card(r + "h").rank for r in "A234567JQK"]
    assert ranks == list(range(10))
    assert Card("Jc").rank == Card("7c").rank + 1
    assert sorted(Card.parse_many("Kc Jd 7h Ah Qs")) == Card.parse_many("Ah 7h Jd Qs Kc")


def test_r1_suits_never_matter_for_play() -> None:
    """R1: a 7 of any suit takes the 7 of any other suit; the moves differ only by suit."""
    for mine, theirs in (("7h", "7c"), ("7d", "7s")):
        rest = [s for s in "hsdc" if s not in (mine[1], theirs[1])]
        game = position(hands=[[mine], ["7" + rest[0]]], table=[theirs, "Kd"], dealer=1)
        assert [str(m) for m in game.legal_moves()] == [f"{mine} x{theirs}"]


# -- R2 value -----------------------------------------------------------------------------------
def test_r2_values_ace_is_one_to_seven_and_figures_have_none() -> None:
    assert [Card(r + "s").value for r in "A234567"] == [1, 2, 3, 4, 5, 6, 7]
    assert Card("Jh").value is None
    assert Card("Qh").value is None
    assert Card("Kh").value is None


def test_r2_figures_never_take_part_in_a_sum() -> None:
    """R2: J, Q, K never sum: a K takes nothing from A..7 cards, and no sum names a figure."""
    game = position(hands=[["Kh", "2s"], ["Qs", "5c"]], table=["3c", "4d", "Jc"], dealer=1)
    moves = [str(m) for m in game.legal_moves()]
    assert moves == ["Kh", "2s"]


# -- R3 seats and teams -------------------------------------------------------------------------
def test_r3_teams_two_players_each_player_is_a_team() -> None:
    rules = Rules(players=2)
    assert [rules.team_of(s) for s in range(2)] == [0, 1]


def test_r3_teams_four_players_partners_opposite() -> None:
    assert [FOUR.team_of(s) for s in range(4)] == [0, 1, 0, 1]
    game = Game.new(FOUR, seed=1)
    assert [game.team_of(s) for s in range(4)] == [0, 1, 0, 1]


def test_r3_play_passes_to_the_right_seat_s_to_s_plus_1() -> None:
    game = position(
        FOUR,
        hands=[["Ah", "2h"], ["As", "2s"], ["Jd", "2d"], ["Qc", "2c"]],
        table=[],
        dealer=3,
    )
    order = []
    for _ in range(4):
        seat = game.turn
        order.append(seat)
        move = game.legal_moves()[0]
        play = one(game.play(move), "play")
        assert play.seat == seat
        assert play.team == seat % 2
    assert order == [0, 1, 2, 3]
    assert game.turn == 0


# -- R4 dealer draw -----------------------------------------------------------------------------
def test_r4_dealer_draw_highest_rank_deals() -> None:
    for seed in range(30):
        for rules in (Rules(), FOUR):
            game = Game.new(rules, seed=seed)
            draw = game.events[0]
            assert draw.kind == "dealer_draw"
            last = draw.draws[-1]
            best = max(card.rank for _, card in last)
            winners = [seat for seat, card in last if card.rank == best]
            assert winners == [draw.dealer]
            assert game.dealer == draw.dealer


def test_r4_dealer_draw_ties_redraw() -> None:
    """R4: tied seats draw again; only the seats tied for the highest rank redraw."""
    tied_games = 0
    for seed in range(300):
        game = Game.new(FOUR, seed=seed)
        draw = game.events[0]
        if len(draw.draws) < 2:
            continue
        tied_games += 1
        for before, after in zip(draw.draws, draw.draws[1:], strict=False):
            best = max(card.rank for _, card in before)
            top = [seat for seat, card in before if card.rank == best]
            assert len(top) >= 2
            assert [seat for seat, _ in after] == top
        if tied_games >= 3:
            break
    assert tied_games >= 3


def test_r4_dealer_draw_is_seeded_and_reproducible() -> None:
    a, b = Game.new(FOUR, seed="mesa-7"), Game.new(FOUR, seed="mesa-7")
    assert a.events[0] == b.events[0]
    assert a.dealer == b.dealer
    assert [a.hand(s) for s in range(4)] == [b.hand(s) for s in range(4)]
    dealers = {Game.new(FOUR, seed=s).dealer for s in range(40)}
    assert len(dealers) > 1


@pytest.mark.parametrize("rules", [Rules(), FOUR], ids=["2p", "4p"])
def test_r4_deal_passes_to_the_right_after_every_hand(rules: Rules) -> None:
    game = Game.new(rules, seed=5)
    dealers = [game.dealer]
    while game.hand_number < 3 and not game.is_over:
        game.play(game.legal_moves()[0])
        if game.dealer != dealers[-1]:
            dealers.append(game.dealer)
    n = rules.players
    assert len(dealers) >= 3
    for prev, nxt in itertools.pairwise(dealers):
        assert nxt == (prev + 1) % n
    deals = [e for e in game.events if e.kind == "deal"]
    for e in deals:
        assert e.dealer == dealers[e.hand]


def test_r4_next_hand_dealt_by_seat_to_the_right_from_a_position() -> None:
    game = position(FOUR, hands=[[], [], [], ["Kc"]], table=["5h"], dealer=3, pile_sizes=(20, None))
    events = game.play("Kc")
    assert "hand_end" in kinds(events)
    deal = of_kind(events, "deal")[0]
    assert deal.dealer == 0
    assert deal.hand == 1
    assert deal.deal == 0
    assert game.dealer == 0
    assert game.turn == 1


# -- R5 deal ------------------------------------------------------------------------------------
@pytest.mark.parametrize(("rules", "deals"), [(Rules(), 4), (FOUR, 2)], ids=["2p", "4p"])
def test_r5_hand_uses_40_cards_in_deals_of_five(rules: Rules, deals: int) -> None:
    game = Game.new(rules, seed=2)
    n = rules.players
    assert game.table == []
    assert all(len(game.hand(s)) == 5 for s in range(n))
    assert len(game.stock) == 40 - 5 * n
    assert rules.deals_per_hand == deals
    start_hand = game.hand_number
    while game.hand_number == start_hand and not game.is_over:
        game.play(game.legal_moves()[0])
    hand_events = [e for e in game.events if getattr(e, "hand", None) == start_hand and e.kind == "deal"]
    assert [e.deal for e in hand_events] == list(range(deals))
    # each seat played exactly 5 cards per deal
    plays: list[list[int]] = []
    for e in game.events:
        if e.kind == "deal":
            plays.append([])
        elif e.kind == "play":
            plays[-1].append(e.seat)
    for seats in plays[:deals]:
        assert sorted(seats) == sorted(list(range(n)) * 5)
    assert one(game.events, "hand_end") is not None


def test_r5_table_starts_each_hand_empty() -> None:
    game = position(hands=[[], ["Kc"]], table=["5h", "Qd"], dealer=1, pile_sizes=(20, None))
    game.play("Kc")
    assert game.hand_number == 1
    assert game.table == []
    assert game.last_drop is None
    assert all(len(game.hand(s)) == 5 for s in range(2))
    assert len(game.stock) == 30


def test_r5_deal_order_starts_with_the_seat_to_the_dealers_right_2p() -> None:
    first = "Ah 2s 3d 4c 5h"
    second = "6s 7d Jc Qh Ks"
    game = position(hands=[[], ["Kc"]], table=["Qd"], stock=f"{first} {second}", stock_size=30, dealer=1)
    events = game.play("Kc")
    assert kinds(events)[:2] == ["play", "deal"]
    deal = one(events, "deal")
    assert (deal.dealer, deal.deal, deal.cut) == (1, 1, None)
    assert game.hand(0) == Card.parse_many(first)
    assert game.hand(1) == Card.parse_many(second)
    assert len(game.stock) == 20
    assert game.deal_number == 1


def test_r5_deal_order_four_players() -> None:
    chunks = ["Ah 2h 3h 4h 5h", "As 2s 3s 4s 5s", "Ad 2d 3d 4d 5d", "Ac 2c 3c 4c 5c"]
    game = position(
        FOUR,
        hands=[[], ["Kc"], [], []],
        table=["Qd"],
        stock=" ".join(chunks),
        dealer=1,
    )
    game.play("Kc")
    # dealer 1: seat 2 gets the first five, then 3, 0, 1
    assert game.hand(2) == Card.parse_many(chunks[0])
    assert game.hand(3) == Card.parse_many(chunks[1])
    assert game.hand(0) == Card.parse_many(chunks[2])
    assert game.hand(1) == Card.parse_many(chunks[3])
    assert game.stock == []


def test_r5_cut_recorded_on_the_first_deal_of_a_hand_only() -> None:
    game = Game.new(seed=9)
    first = one(game.events, "deal")
    assert isinstance(first.cut, int)
    assert 1 <= first.cut <= 39
    while game.deal_number == 0:
        game.play(game.legal_moves()[0])
    later = of_kind(game.events, "deal")[1]
    assert later.deal == 1
    assert later.cut is None


# -- R6 first to play ---------------------------------------------------------------------------
@pytest.mark.parametrize("rules", [Rules(), FOUR], ids=["2p", "4p"])
def test_r6_seat_to_the_dealers_right_plays_first(rules: Rules) -> None:
    for seed in range(12):
        game = Game.new(rules, seed=seed)
        assert game.turn == (game.dealer + 1) % rules.players


def test_r6_turns_continue_in_seat_order_across_deals() -> None:
    game = position(FOUR, hands=[[], [], [], ["Kc"]], table=["Qd"], stock_size=20, dealer=3)
    game.play("Kc")
    assert game.deal_number == 1
    assert game.turn == 0  # dealer 3 played last, seat 0 goes on
    seats = []
    for _ in range(8):
        seats.append(game.turn)
        game.play(game.legal_moves()[0])
    assert seats == [0, 1, 2, 3, 0, 1, 2, 3]


# -- Game.from_position checks ------------------------------------------------------------------
def _rest(*named: str) -> list[Card]:
    used = set(Card.parse_many(" ".join(named)))
    return [c for c in CARDS if c not in used]


def test_position_duplicate_card() -> None:
    with pytest.raises(PositionError, match="twice"):
        Game.from_position(
            Rules(), hands=[["7h"], ["Kc"]], table=["7h"], turn=1, dealer=1, piles=[_rest("7h Kc"), []]
        )


def test_position_missing_card() -> None:
    with pytest.raises(PositionError, match="missing: Ah"):
        Game.from_position(Rules(), hands=[[], ["Kc"]], turn=1, dealer=1, piles=[_rest("Kc Ah"), []])


def test_position_inconsistent_hand_sizes() -> None:
    rest = _rest("Ah 2h 3h 4h 5h Kc")
    with pytest.raises(PositionError, match="should hold"):
        Game.from_position(
            Rules(), hands=[["Ah", "2h", "3h", "4h", "5h"], ["Kc"]], turn=0, dealer=1, piles=[rest, []]
        )
    with pytest.raises(PositionError, match="more than 5"):
        Game.from_position(
            Rules(),
            hands=[["Ah", "2h", "3h", "4h", "5h", "6h"], ["Kc"]],
            turn=0,
            dealer=1,
            piles=[_rest("Ah 2h 3h 4h 5h 6h Kc"), []],
        )


def test_position_wrong_number_of_hands() -> None:
    with pytest.raises(PositionError, match="hands"):
        Game.from_position(FOUR, hands=[[], ["Kc"]], turn=1, dealer=1, piles=[_rest("Kc"), []])


def test_position_wrong_turn() -> None:
    with pytest.raises(PositionError, match="turn"):
        Game.from_position(Rules(), hands=[[], ["Kc"]], turn=0, dealer=1, piles=[_rest("Kc"), []])


def test_position_seat_out_of_range() -> None:
    with pytest.raises(PositionError, match="dealer"):
        Game.from_position(Rules(), hands=[[], ["Kc"]], turn=1, dealer=2, piles=[_rest("Kc"), []])


def test_position_two_same_rank_table_cards_in_auto_mode() -> None:
    with pytest.raises(PositionError, match="two cards of one rank"):
        position(hands=[[], ["Kc"]], table=["5h", "5s"], dealer=1)


def test_position_two_same_rank_table_cards_allowed_in_manual_mode() -> None:
    rules = Rules.preset("campeonato", players=4)
    game = position(rules, hands=[["Ah"], ["As"], ["Ad"], []], table=["5h", "5s"], dealer=2)
    assert game.table == Card.parse_many("5h 5s")


def test_position_last_drop_not_on_table() -> None:
    with pytest.raises(PositionError, match="last_drop"):
        position(hands=[["Ah"], ["Kc"]], table=["5h"], last_drop="6h", dealer=1)


def test_position_last_drop_at_start_of_deal_without_caida_across_deals() -> None:
    with pytest.raises(PositionError, match="caida_across_deals"):
        position(hands=["Ah 2h 3h 4h 5h", "As 2s 3s 4s 5s"], table=["6h"], last_drop="6h", dealer=1)
    game = position(
        Rules(caida_across_deals=True),
        hands=["Ah 2h 3h 4h 5h", "As 2s 3s 4s 5s"],
        table=["6h"],
        last_drop="6h",
        dealer=1,
    )
    assert game.last_drop == Card("6h")


def test_position_stock_not_a_whole_number_of_deals() -> None:
    with pytest.raises(PositionError, match="stock"):
        position(hands=[[], ["Kc"]], stock_size=7, dealer=1)


def test_position_bad_card_text_and_bad_scores() -> None:
    with pytest.raises(PositionError, match="9h"):
        Game.from_position(Rules(), hands=[[], ["9h"]], turn=1, dealer=1)
    with pytest.raises(PositionError, match="score"):
        position(hands=[[], ["Kc"]], scores=(3, 0), dealer=1)
    with pytest.raises(PositionError, match="score"):
        position(hands=[[], ["Kc"]], scores=(40, 0), dealer=1)
    with pytest.raises(PositionError, match="chicas"):
        position(hands=[[], ["Kc"]], chicas=(2, 0), dealer=1)


def test_position_errors_are_value_errors() -> None:
    assert issubclass(PositionError, ValueError)
