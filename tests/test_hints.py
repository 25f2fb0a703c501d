"""The Ayudas' warnings: only an *easy* caída or limpia (the next player more likely than not can)."""

from __future__ import annotations

from typing import Any

from cuarenta import Game, Rules
from cuarenta.players.hints import EASY, holds_any, seat_hints
from support.positions import position


def hints_by_card(game: Game) -> dict[str, dict[str, Any]]:
    legal = [str(m) for m in game.legal_moves()]
    return {h["card"]: h for h in seat_hints(game.view(game.turn), legal)}


def test_holds_any_is_the_hypergeometric_chance() -> None:
    # 2 wanted cards among 25 unseen, next hand of 5: 1 - C(23,5)/C(25,5)
    assert abs(holds_any(2, 25, 5) - (1 - 33649 / 53130)) < 1e-12
    assert holds_any(0, 25, 5) == 0.0
    assert holds_any(1, 3, 3) == 1.0


def test_early_in_a_hand_a_drop_with_two_unseen_mates_is_not_flagged() -> None:
    # first deal of a hand: 35 cards unseen by seat 0, the next seat holds 5 of them
    game = position(Rules(), hands=["Kc Qh 2s 5d Jh", "Ah 6h 6s Jc 3d"], dealer=1, stock_size=30)
    view = game.view(0)
    unseen = 40 - len(view.hand) - len(view.table) - sum(len(p) for p in view.piles)
    assert holds_any(3, unseen, 5) < EASY
    assert all(h["warning"] is None for h in hints_by_card(game).values())


def test_a_drop_the_next_player_surely_falls_on_is_flagged() -> None:
    # last deal of a 1v1 hand: the only unseen cards are the opponent's, and it holds a king
    game = position(Rules(), hands=["Kc 2s", "Ks 3d"], table=["Qd"], dealer=1, stock_size=0)
    hints = hints_by_card(game)
    assert hints["Kc"]["warning"] == "caida"
    assert hints["2s"]["warning"] is None  # no 2 is unseen


def test_leaving_a_lone_card_the_next_player_surely_takes_is_a_limpia_warning() -> None:
    # 7c takes 3h+4s and leaves the Qd alone; the opponent (the only unseen cards) holds a Q
    game = position(Rules(), hands=["7c 2s", "Qs 5d"], table=["3h", "4s", "Qd"], dealer=1, stock_size=0)
    hints = hints_by_card(game)
    assert hints["7c"]["takes"] and hints["7c"]["warning"] == "limpia"
