"""R7–R12: playing a card and what it takes (igualdad, suma, one base, escalera, the pile, capture
mode), manual capture and claims, and the refusal of illegal moves.
"""

from __future__ import annotations

import pytest

from cuarenta import Card, Claim, GameOverError, IllegalMoveError, Move, Rules
from support.positions import assert_illegal, kinds, legal, of_kind, one, position

CAMPEONATO = Rules.preset("campeonato", players=4)
TWO_ONLY = Rules(sum_cards="two")


# -- R7 igualdad --------------------------------------------------------------------------------
def test_r7_igualdad_takes_one_card_of_the_same_rank() -> None:
    game = position(hands=[["5h", "Kd"], ["Qs", "Jc"]], table=["5c", "Ks", "2d"], dealer=1)
    assert legal(game) == ["5h x5c", "Kd xKs"]
    events = game.play("5h x5c")
    assert kinds(events) == ["play"]
    assert one(events, "play").move == Move.parse("5h x5c")
    assert game.table == Card.parse_many("Ks 2d")
    assert Card("5h") in game.pile(0) and Card("5c") in game.pile(0)


def test_r7_igualdad_with_figures() -> None:
    game = position(hands=[["Qh"], ["Ks"]], table=["Qc", "3d"], dealer=1)
    assert legal(game) == ["Qh xQc"]
    assert_illegal(game, "Qh x3d", "igualdad")


# -- R8 suma ------------------------------------------------------------------------------------
def test_r8_sum_of_two_cards() -> None:
    """Seed 002 §2.5.1.2: a 7 takes a 4 and a 3."""
    game = position(hands=[["7d"], ["Ks"]], table=["4c", "3s", "Jh"], dealer=1)
    (move,) = game.legal_moves()
    assert isinstance(move, Move)
    assert (move.card, set(move.base), move.run) == (Card("7d"), {Card("4c"), Card("3s")}, (Card("Jh"),))
    game.play("7d x4c+3s,Jh")
    assert game.table == []


def test_r8_sum_of_three_cards_allowed_with_two_or_more() -> None:
    """R8 option sum_cards="two_or_more" (default): A+2+4 = 7."""
    game = position(hands=[["7h"], ["Ks"]], table=["Ah", "2s", "4d", "Kc"], dealer=1)
    assert Rules().sum_cards == "two_or_more"
    assert "7h xAh+2s+4d" in legal(game)
    before = len(game.pile(0))
    events = game.play("7h xAh+2s+4d")
    assert kinds(events) == ["play"]
    assert game.table == [Card("Kc")]
    assert len(game.pile(0)) == before + 4


def test_r8_sum_of_three_cards_refused_with_sum_cards_two() -> None:
    """R8 option sum_cards="two" (seed 000: "en un máximo de dos")."""
    game = position(TWO_ONLY, hands=[["7h"], ["Ks"]], table=["Ah", "2s", "4d", "Kc"], dealer=1)
    assert legal(game) == ["7h"]  # no pair of them adds up to 7
    assert_illegal(game, "7h xAh+2s+4d", "two")
    game.play("7h")
    assert Card("7h") in game.table


def test_r8_sum_of_two_still_allowed_with_sum_cards_two() -> None:
    game = position(TWO_ONLY, hands=[["6h"], ["Ks"]], table=["Ah", "2s", "4d", "Kc"], dealer=1)
    assert legal(game) == ["6h x2s+4d"]
    game.play("6h x2s+4d")
    assert game.table == Card.parse_many("Ah Kc")


def test_r8_wrong_sum_refused() -> None:
    game = position(hands=[["7h"], ["Ks"]], table=["3c", "5d", "2s"], dealer=1)
    message = assert_illegal(game, "7h x3c+5d", "adds up to 8", "not 7")
    assert "7h x2s+5d" in message  # the error lists what the card can take


def test_r8_figures_never_sum_nor_are_summed() -> None:
    """R2/R8: J, Q, K never take by suma and never take part in a sum."""
    game = position(hands=[["Jh", "7h"], ["Ks", "Ad"]], table=["3c", "4d", "Qs"], dealer=1)
    assert_illegal(game, "Jh x3c+4d", "J, Q and K")
    assert_illegal(game, "7h x3c+Qs", "J, Q and K")
    assert "Jh" in legal(game)  # the J takes nothing here


def test_r8_played_figure_with_no_pair_takes_nothing() -> None:
    game = position(hands=[["Kh"], ["Ks"]], table=["3c", "4d", "Ah", "6s"], dealer=1)
    assert legal(game) == ["Kh"]
    game.play("Kh")
    assert Card("Kh") in game.table


# -- R9 one base --------------------------------------------------------------------------------
def test_r9_pair_and_several_sums_are_separate_moves_and_the_player_chooses() -> None:
    """R9: the 7 may take the 7, or 3+4, or 2+5 — each with the escalera J — never two bases."""
    table = ["7s", "3c", "4d", "2h", "5c", "Jh"]
    game = position(hands=[["7h"], ["Ks"]], table=table, dealer=1)
    moves = set(legal(game))
    assert moves == {"7h x7s,Jh", "7h x3c+4d,Jh", "7h x2h+5c,Jh"}
    assert_illegal(game, "7h x7s+3c+4d,Jh", "adds up to 14")
    assert_illegal(game, "7h x3c+4d+2h+5c,Jh", "adds up to 14")
    # the player chooses the 2+5: the 7, 3 and 4 stay
    game.play("7h x2h+5c,Jh")
    assert game.table == Card.parse_many("7s 3c 4d")


@pytest.mark.parametrize("choice", ["7h x7s,Jh,Qd", "7h x3c+4d,Jh,Qd"])
def test_r9_each_listed_base_can_be_played(choice: str) -> None:
    game = position(hands=[["7h"], ["Ks"]], table=["7s", "3c", "4d", "Jh", "Qd"], dealer=1)
    game.play(choice)
    taken = set(Move.parse(choice).taken)
    assert set(game.table) == set(Card.parse_many("7s 3c 4d Jh Qd")) - taken
    assert Card("Qd") not in game.table  # the escalera after 7 continues with the Q


# -- R10 escalera -------------------------------------------------------------------------------
def test_r10_escalera_three_takes_3_4_5_6_7_J_seed_002() -> None:
    """Seed 002 §2.5.1.3: with a 3♠ one takes 3♣, 4♦, 5♠, 6♥, 7♣ and J♠ (no Q: the run stops)."""
    game = position(hands=[["3s"], ["Ah"]], table=["3c", "4d", "5s", "6h", "7c", "Js", "Kd"], dealer=1)
    assert legal(game) == ["3s x3c,4d,5s,6h,7c,Js"]
    events = game.play("3s x3c,4d,5s,6h,7c,Js")
    assert kinds(events) == ["play"]
    assert game.table == [Card("Kd")]
    for c in Card.parse_many("3s 3c 4d 5s 6h 7c Js"):
        assert c in game.pile(0)


def test_r10_escalera_after_a_sum_starts_after_the_played_rank() -> None:
    """R8+R10 (seed 001): a 7 takes 3+4, then J, Q, K; the 5 does not follow the 7 and stays."""
    game = position(hands=[["7h"], ["Ah"]], table=["3c", "4d", "5h", "Js", "Qh", "Kc"], dealer=1)
    assert legal(game) == ["7h x3c+4d,Js,Qh,Kc"]
    game.play("7h x3c+4d,Js,Qh,Kc")
    assert game.table == [Card("5h")]


def test_r10_escalera_stops_at_the_first_gap() -> None:
    game = position(hands=[["3s"], ["Ah"]], table=["3c", "4d", "6h", "7c"], dealer=1)
    assert legal(game) == ["3s x3c,4d"]
    game.play("3s x3c,4d")
    assert game.table == Card.parse_many("6h 7c")


def test_r10_escalera_with_a_gap_is_refused() -> None:
    game = position(hands=[["3s"], ["Ah"]], table=["3c", "4d", "6h", "7c"], dealer=1)
    assert_illegal(game, "3s x3c,4d,6h", "escalera", "without a gap")


def test_r10_no_base_no_escalera() -> None:
    """R10: a 3 with 4 and 5 on the table but no 3 (and no A+2) takes nothing."""
    game = position(hands=[["3s"], ["Ah"]], table=["4d", "5h", "6c"], dealer=1)
    assert legal(game) == ["3s"]
    assert_illegal(game, Move(Card("3s"), (), (Card("4d"), Card("5h"))), "escalera needs a base")
    game.play("3s")
    assert game.table == Card.parse_many("4d 5h 6c 3s")


def test_r10_escalera_of_a_king_is_empty() -> None:
    game = position(hands=[["Kh"], ["Ah"]], table=["Ks", "Ac", "Qd"], dealer=1)
    assert legal(game) == ["Kh xKs"]


def test_r10_incomplete_escalera_refused_in_auto_mode() -> None:
    game = position(hands=[["3s"], ["Ah"]], table=["3c", "4d", "5s", "Kd"], dealer=1)
    assert_illegal(game, "3s x3c,4d", "escalera", "4,5")
    assert_illegal(game, "3s x3c", "escalera")


# -- R11 captured cards -------------------------------------------------------------------------
def test_r11_captured_cards_and_played_card_go_to_the_teams_pile() -> None:
    game = position(
        Rules(players=4),
        hands=[["Ah"], ["Ks"], ["6h", "2s"], ["Qs", "Jd"]],
        table=["2d", "4c", "7s", "Jc"],
        dealer=3,
    )
    # seat 2 (team 0) plays: the 6 takes 2+4, then 7, J
    assert game.turn == 2
    before = len(game.pile(0)), len(game.pile(1))
    game.play("6h x2d+4c,7s,Jc")
    assert len(game.pile(0)) == before[0] + 5
    assert len(game.pile(1)) == before[1]
    assert set(Card.parse_many("6h 2d 4c 7s Jc")) <= set(game.pile(0))


def test_r11_card_that_captures_nothing_stays_on_the_table() -> None:
    game = position(hands=[["Qh"], ["Ks"]], table=["3c"], dealer=1)
    piles = len(game.pile(0)), len(game.pile(1))
    game.play("Qh")
    assert game.table == Card.parse_many("3c Qh")
    assert game.last_drop == Card("Qh")
    assert (len(game.pile(0)), len(game.pile(1))) == piles


# -- R12 capture mode: auto ---------------------------------------------------------------------
def test_r12_auto_capture_is_compulsory() -> None:
    game = position(hands=[["5h", "Kd"], ["Qs", "Jc"]], table=["5c", "2d"], dealer=1)
    assert "5h" not in legal(game)
    assert_illegal(game, "5h", "compulsory")
    # a card that can take nothing may be dropped
    game.play("Kd")
    assert Card("Kd") in game.table


def test_r12_auto_mode_takes_the_whole_escalera_automatically() -> None:
    game = position(hands=[["Ah"], ["Ks"]], table=["As", "2d", "3c", "4h", "6s"], dealer=1)
    assert legal(game) == ["Ah xAs,2d,3c,4h"]


# -- R12 capture mode: manual (campeonato, 4 players) -------------------------------------------
def test_r12_campeonato_is_manual() -> None:
    assert CAMPEONATO.capture == "manual"
    assert CAMPEONATO.players == 4


def test_r12_manual_lists_the_drop_and_every_escalera_prefix() -> None:
    game = position(
        CAMPEONATO,
        hands=[["3h", "Kh"], ["Ks", "Qs"], ["Qd", "Jd"], ["Jc", "7d"]],
        table=["3c", "4d", "5s"],
        dealer=3,
    )
    assert game.turn == 0
    assert legal(game) == ["3h", "3h x3c", "3h x3c,4d", "3h x3c,4d,5s", "Kh"]


def test_r12_manual_short_escalera_leaves_the_rest_claimable_by_the_next_player() -> None:
    game = position(
        CAMPEONATO,
        hands=[["3h", "Kh"], ["Ks", "Qs"], ["Qd", "Jd"], ["Jc", "7d"]],
        table=["3c", "4d", "5s", "6h", "Ah"],
        dealer=3,
    )
    events = game.play("3h x3c,4d")
    assert kinds(events) == ["play"]
    assert game.turn == 1
    assert game.claimable == [(Card("5s"), Card("6h"))]
    assert legal(game)[0] == "claim 5s,6h"
    scores = game.score
    pile1 = len(game.pile(1))
    events = game.play("claim 5s,6h")
    claim = one(events, "claim")
    assert (claim.seat, claim.team, claim.cards) == (1, 1, (Card("5s"), Card("6h")))
    assert kinds(events) == ["claim"]
    assert game.score == scores  # R12: a claim scores no points
    assert len(game.pile(1)) == pile1 + 2
    assert game.table == [Card("Ah")]
    assert game.turn == 1  # the claimant still plays its card
    assert game.claimable == []
    assert not any(isinstance(m, Claim) for m in game.legal_moves())
    assert_illegal(game, "claim 5s,6h", "nothing to claim")
    game.play("Ks")
    assert game.turn == 2


def test_r12_manual_forgotten_cards_are_claimable_by_the_next_player_only() -> None:
    game = position(
        CAMPEONATO,
        hands=[["3h", "Kh"], ["Ks", "Qs"], ["Qd", "Jd"], ["Jc", "7d"]],
        table=["3c", "4d", "5s", "Ah"],
        dealer=3,
    )
    game.play("3h x3c,4d")
    assert game.claimable == [(Card("5s"),)]
    game.play("Ks")  # seat 1 does not claim: the chance is gone
    assert game.turn == 2
    assert game.claimable == []
    assert_illegal(game, "claim 5s", "nothing to claim")
    assert Card("5s") in game.table


def test_r12_manual_taking_nothing_when_a_base_existed_leaves_each_capture_claimable() -> None:
    game = position(
        CAMPEONATO,
        hands=[["7h", "Kh"], ["Ks", "Qs"], ["Qd", "2d"], ["Jc", "6d"]],
        table=["7s", "3c", "4d", "Jh"],
        dealer=3,
    )
    events = game.play("7h")  # forgets both the pair and the sum
    assert kinds(events) == ["play"]
    assert Card("7h") in game.table
    open_ = {frozenset(opt) for opt in game.claimable}
    assert open_ == {
        frozenset(Card.parse_many("7h 7s Jh")),
        frozenset(Card.parse_many("7h 3c 4d Jh")),
    }
    # a claim takes one of them, not both
    assert_illegal(game, "claim 7h,7s,3c,4d,Jh", "may be claimed")
    scores = game.score
    events = game.play("claim 7h,3c,4d,Jh")
    assert kinds(events) == ["claim"]
    assert game.score == scores
    assert game.table == [Card("7s")]
    assert game.last_drop is None  # the claimed card cannot be fallen on any more


def test_r12_manual_claim_that_empties_the_table_is_no_limpia() -> None:
    game = position(
        CAMPEONATO,
        hands=[["3h", "Kh"], ["Ks", "Qs"], ["Qd", "2d"], ["Jc", "6d"]],
        table=["3c", "4d", "5s"],
        dealer=3,
    )
    game.play("3h x3c")
    events = game.play("claim 4d,5s")
    assert game.table == []
    assert kinds(events) == ["claim"]
    assert game.score == (0, 0)


def test_r12_manual_short_escalera_at_the_end_of_a_deal_claimable_after_the_redeal() -> None:
    """docs/rules-decisions.md: claims survive a re-deal (the next seat plays first in the new deal)."""
    game = position(
        CAMPEONATO,
        hands=[[], [], [], ["3h"]],
        table=["3c", "4d", "5s"],
        stock_size=20,
        dealer=3,
    )
    events = game.play("3h x3c")
    assert "deal" in kinds(events)
    assert game.turn == 0
    assert game.claimable == [(Card("4d"), Card("5s"))]
    game.play("claim 4d,5s")
    assert game.table == []


def test_r12_manual_invalid_declared_capture_raises_with_a_reason() -> None:
    game = position(
        CAMPEONATO,
        hands=[["3h", "7h"], ["Ks", "Qs"], ["Qd", "Jd"], ["Jc", "7d"]],
        table=["3c", "4d", "5s", "2h"],
        dealer=3,
    )
    assert_illegal(game, "3h x3c,5s", "escalera", "without a gap")
    assert_illegal(game, "7h x3c+5s", "adds up to 8")
    assert_illegal(game, "7h x4d", "igualdad")
    assert_illegal(game, "3h x3c,4d,5s,Jc", "not on the table")
    assert_illegal(game, "claim 4d", "nothing to claim")


def test_r12_manual_wrong_claim_raises() -> None:
    game = position(
        CAMPEONATO,
        hands=[["3h", "Kh"], ["Ks", "Qs"], ["Qd", "Jd"], ["Jc", "7d"]],
        table=["3c", "4d", "5s", "6h", "Ah"],
        dealer=3,
    )
    game.play("3h x3c")
    assert game.claimable == [(Card("4d"), Card("5s"), Card("6h"))]
    assert_illegal(game, "claim 4d,5s", "may be claimed")
    assert_illegal(game, "claim Ah", "may be claimed")
    assert_illegal(game, "claim 4d,5s,6h,Kd", "not on the table")


def test_r12_manual_drop_is_allowed_even_when_a_capture_exists() -> None:
    game = position(CAMPEONATO, hands=[["5h"], ["Ks"], ["Qd"], []], table=["5c"], dealer=2)
    assert "5h" in legal(game)
    assert "5h x5c" in legal(game)
    game.play("5h")
    assert game.table == Card.parse_many("5c 5h")
    assert game.claimable == [(Card("5h"), Card("5c"))]


def test_r12_claim_in_auto_mode_is_refused() -> None:
    game = position(hands=[["5h"], ["Ks"]], table=["5c"], dealer=1)
    assert_illegal(game, "claim 5c", "nothing to claim")


# -- illegal moves leave the game unchanged ------------------------------------------------------
def test_illegal_card_not_in_hand() -> None:
    game = position(hands=[["5h", "Kd"], ["Qs", "Jc"]], table=["5c", "2d"], dealer=1)
    assert_illegal(game, "Qs", "not in the hand")
    assert_illegal(game, "Ah", "not in the hand")


def test_illegal_card_not_on_table() -> None:
    game = position(hands=[["5h", "Kd"], ["Qs", "Jc"]], table=["5c", "2d"], dealer=1)
    assert_illegal(game, "5h x5s", "not on the table")
    assert_illegal(game, "Kd xKs", "not on the table")


def test_illegal_card_named_twice() -> None:
    game = position(hands=[["4h"], ["Qs"]], table=["2c", "Kd"], dealer=1)
    assert_illegal(game, Move(Card("4h"), (Card("2c"), Card("2c"))), "twice")


def test_illegal_bad_text() -> None:
    game = position(hands=[["5h", "Kd"], ["Qs", "Jc"]], table=["5c", "2d"], dealer=1)
    assert_illegal(game, "5h y5c", "not a move")
    assert_illegal(game, "", "not a move")


def test_illegal_move_after_mesa_over_raises_game_over() -> None:
    game = position(
        Rules.preset("basico"),
        hands=[["5h", "Kd"], ["Qs", "Js"]],
        table=["5c", "Jd"],
        last_drop="5c",
        dealer=1,
        scores=(38, 0),
    )
    events = game.play("5h x5c")
    assert "mesa_won" in kinds(events)
    assert game.is_over
    assert game.legal_moves() == []
    with pytest.raises(GameOverError):
        game.play("Kd")
    assert issubclass(GameOverError, IllegalMoveError)
    assert_illegal(game, "Kd", "mesa is over")


def test_illegal_moves_raise_value_error_subclass() -> None:
    assert issubclass(IllegalMoveError, ValueError)
    game = position(hands=[["5h"], ["Qs"]], table=["5c"], dealer=1)
    with pytest.raises(ValueError, match="compulsory"):
        game.play("5h")


def test_legal_moves_all_accepted_by_play() -> None:
    for table in (["7s", "3c", "4d", "Jh"], ["Ac", "2d", "3s", "5h"], []):
        game = position(hands=["7h 3h Ah 6h Kh", "Qs Js Ks 4s 5s"], table=table, dealer=1)
        for move in game.legal_moves():
            copy = game.copy()
            copy.play(move)
            assert of_kind(copy.events, "play")[-1].move == move


def test_r12_r13_manual_caida_is_on_the_card_just_dropped_only() -> None:
    """Manual capture lets two 5s lie on the table: a pair on the one just dropped is a caída,
    a pair on the older one is not (R13)."""
    for move, caida in (("5s x5h", True), ("5s x5c", False)):
        game = position(
            CAMPEONATO,
            hands=[["5h", "Kh"], ["5s", "Qs"], ["Qd", "Jd"], ["Jc", "7d"]],
            table=["5c", "Ah"],
            dealer=3,
        )
        game.play("5h")  # could have taken the 5c: forgotten, and now on the table
        assert game.last_drop == Card("5h")
        assert "5s x5h" in legal(game)
        events = game.play(move)
        assert ("caida" in kinds(events)) is caida
        assert game.score == ((0, 2) if caida else (0, 0))
