"""Card, Move and Claim notation (R1): parsing, round trips and clear errors for bad text."""

from __future__ import annotations

import pytest

from cuarenta import (
    CARDS,
    Card,
    CardParseError,
    Claim,
    IllegalMoveError,
    Move,
    MoveParseError,
    parse_action,
)
from support.positions import assert_illegal, position


# -- cards --------------------------------------------------------------------------------------
def test_card_text_round_trip_for_all_40() -> None:
    for card in CARDS:
        text = str(card)
        assert len(text) == 2
        assert Card.parse(text) is card
        assert Card(text) is card
        assert Card(int(card)) is card
        assert eval(repr(card), {"Card": Card}) is card
        assert Card.parse(card.symbol()) is card
        assert Card.parse(text.lower()) is card
        assert Card.parse(text.upper()) is card
        assert card.rank_char + card.suit_char == text


def test_card_index_is_rank_times_four_plus_suit() -> None:
    assert [int(c) for c in Card.parse_many("Ah As Ad Ac 2h Kc")] == [0, 1, 2, 3, 4, 39]
    assert Card("7d").rank == 6 and Card("7d").suit == 2
    assert Card("Jh").rank == 7


def test_card_symbols_and_spaces() -> None:
    assert Card.parse("7♥") == Card("7h")
    assert Card.parse("Q♠") == Card("Qs")
    assert Card.parse("A♦") == Card("Ad")
    assert Card.parse("K♣") == Card("Kc")
    assert Card.parse("  7h ") == Card("7h")


def test_card_parse_many() -> None:
    assert Card.parse_many("7h, 3c 4d") == [Card("7h"), Card("3c"), Card("4d")]
    assert Card.parse_many(["7h", 0]) == [Card("7h"), Card("Ah")]
    assert Card.parse_many("") == []


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("9h", "8, 9 and 10 are not in the 40-card deck"),
        ("8c", "not in the 40-card deck"),
        ("10d", "not in the 40-card deck"),
        ("7x", "suit"),
        ("Zh", "rank"),
        ("h7", "not a card"),
        ("", "not a card"),
        ("7", "rank and a suit"),
        ("7hh", "not a card"),
    ],
)
def test_card_bad_text_clear_error(text: str, fragment: str) -> None:
    with pytest.raises(CardParseError) as info:
        Card.parse(text)
    assert fragment in str(info.value)
    assert repr(text) in str(info.value)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("spec", [40, -1, True, None, 3.0])
def test_card_bad_index(spec: object) -> None:
    with pytest.raises(CardParseError):
        Card(spec)  # type: ignore[arg-type]


def test_card_parse_many_bad_item() -> None:
    with pytest.raises(CardParseError, match="9s"):
        Card.parse_many("7h 9s")


# -- moves --------------------------------------------------------------------------------------
MOVES = [
    "7h",
    "Kc",
    "7h x7s",
    "7h x3c+4d",
    "7h x3c+4d,Js",
    "7h x3c+4d,Js,Qh,Kc",
    "3s x3c,4d,5s,6h,7c,Js",
    "7h xAh+2s+4d",
    "Qd xQc,Kh",
]


@pytest.mark.parametrize("text", MOVES)
def test_move_round_trip(text: str) -> None:
    move = Move.parse(text)
    assert str(move) == text
    assert Move.parse(str(move)) == move
    assert eval(repr(move), {"Move": Move}) == move
    assert parse_action(text) == move


def test_move_fields() -> None:
    move = Move.parse("7h x3c+4d,Js,Qh")
    assert move.card == Card("7h")
    assert move.base == (Card("3c"), Card("4d"))
    assert move.run == (Card("Js"), Card("Qh"))
    assert move.taken == (Card("3c"), Card("4d"), Card("Js"), Card("Qh"))
    assert move.is_capture and not move.is_pair
    pair = Move.parse("7h x7s,Jc")
    assert pair.is_pair and pair.base == (Card("7s"),) and pair.run == (Card("Jc"),)
    drop = Move.parse("7h")
    assert not drop.is_capture and drop.taken == ()
    assert Move(Card("7h"), (Card("3c"), Card("4d"))) == Move.parse("7h x3c+4d")


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("7H X3C+4D", "7h x3c+4d"),
        ("7hx7s", "7h x7s"),
        ("  7h   x 3c + 4d , Js ", "7h x3c+4d,Js"),
        ("7♥ x3♣+4♦", "7h x3c+4d"),
    ],
)
def test_move_lenient_input(text: str, canonical: str) -> None:
    assert str(Move.parse(text)) == canonical


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "not a move"),
        ("   ", "not a move"),
        ("7h x", "nothing is named after 'x'"),
        ("7h 7s", "after 'x'"),
        ("7h x3c+", "empty card"),
        ("7h x3c++4d", "empty card"),
        ("7h x3c,,Js", "empty card"),
        ("9h", "not in the 40-card deck"),
        ("7h x9c", "not in the 40-card deck"),
        ("7h x3z", "suit"),
        ("claim 5s", "claim"),
    ],
)
def test_move_bad_text_clear_error(text: str, fragment: str) -> None:
    with pytest.raises(MoveParseError) as info:
        Move.parse(text)
    assert fragment in str(info.value)
    assert isinstance(info.value, ValueError)


def test_move_parse_not_text() -> None:
    with pytest.raises(MoveParseError):
        Move.parse(42)  # type: ignore[arg-type]


# -- claims -------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["claim 5s,6h", "claim 4d", "claim 7h,3c,4d,Jh"])
def test_claim_round_trip(text: str) -> None:
    claim = Claim.parse(text)
    assert str(claim) == text
    assert Claim.parse(str(claim)) == claim
    assert eval(repr(claim), {"Claim": Claim}) == claim
    assert parse_action(text) == claim


def test_claim_fields_and_lenient_input() -> None:
    assert Claim.parse("claim 5s,6h").cards == (Card("5s"), Card("6h"))
    assert Claim.parse("CLAIM 5S, 6H") == Claim((Card("5s"), Card("6h")))


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("claim", "name the cards"),
        ("claim   ", "name the cards"),
        ("take 5s", "not a claim"),
        ("5s", "not a claim"),
        ("claim 5s,,6h", "empty card"),
        ("claim 9s", "not in the 40-card deck"),
    ],
)
def test_claim_bad_text_clear_error(text: str, fragment: str) -> None:
    with pytest.raises(MoveParseError) as info:
        Claim.parse(text)
    assert fragment in str(info.value)


def test_parse_action_distinguishes_moves_and_claims() -> None:
    assert isinstance(parse_action("claim 4d"), Claim)
    assert isinstance(parse_action("  Claim 4d"), Claim)
    assert isinstance(parse_action("Kc"), Move)
    with pytest.raises(MoveParseError):
        parse_action("clam 4d")


# -- text through the game ----------------------------------------------------------------------
def test_game_play_accepts_text_and_refuses_bad_text() -> None:
    game = position(hands=[["7h", "Kd"], ["Qs", "Jc"]], table=["3c", "4d", "Ac"], dealer=1)
    assert_illegal(game, "7h x3c+", "empty card")
    assert_illegal(game, "8h", "not in the 40-card deck")
    with pytest.raises(IllegalMoveError):
        game.play("7h x")
    events = game.play("  7H x3C+4D ")
    assert events[0].move == Move.parse("7h x3c+4d")
