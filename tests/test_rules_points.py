"""R13–R21: points during play — caída, limpia, caída y limpia, ronda, four of a kind, caída a la
ronda, no ronda from 30, 38 que no juega, four caídas in a row.
"""

from __future__ import annotations

import pytest

from cuarenta import Card, Game, Rules
from cuarenta.events import Event
from support.positions import kinds, of_kind, one, position

A_TODO_RIGOR = Rules.preset("a_todo_rigor")
TODO_DOS = Rules.preset("todo_dos")
BASICO = Rules.preset("basico")


def next_deal(
    rules: Rules, deal: dict[int, str], *, dealer: int = 1, scores: tuple[int, int] = (0, 0)
) -> tuple[Game, list[Event]]:
    """The dealer drops its last card of a deal (a K that takes nothing); the next deal gives each
    seat in ``deal`` the five cards named. Returns the game and the events of that last play.
    """
    n = rules.players
    chunks = []
    for i in range(n):
        seat = (dealer + 1 + i) % n
        chunks.append(deal.get(seat, ""))
    named = " ".join(chunks)
    if any(len(c.split()) != 5 for c in chunks if c):
        raise AssertionError("each named hand has five cards")
    # seats without named cards get filled ones: name the stock only up to the last named chunk
    last = max(i for i, c in enumerate(chunks) if c)
    stock: list[str] = []
    fill_cards = iter(_spare(named))
    for i in range(last + 1):
        stock += chunks[i].split() if chunks[i] else [next(fill_cards) for _ in range(5)]
    hands: list[list[str]] = [[] for _ in range(n)]
    hands[dealer] = ["Kc"]
    stock_size = 30 if n == 2 else 20  # the second deal of the hand
    game = position(
        rules, hands=hands, table=["Qd"], stock=stock, stock_size=stock_size, dealer=dealer, scores=scores
    )
    events = game.play("Kc")
    assert "deal" in kinds(events)
    return game, events


def _spare(named: str) -> list[str]:
    """Cards for unnamed hands: no three of a rank in a row of five, none of the named ones."""
    used = set(named.split()) | {"Kc", "Qd"}
    pool = [r + s for s in "hsdc" for r in "A234567JQK"]
    return [c for c in pool if c not in used]


# -- R13 caída ----------------------------------------------------------------------------------
def test_r13_caida_on_the_card_just_dropped_scores_2() -> None:
    game = position(hands=[["5h", "Kd"], ["5s", "Qd"]], table=["2c"], dealer=1)
    assert kinds(game.play("5h")) == ["play"]
    assert game.last_drop == Card("5h")
    events = game.play("5s x5h")
    assert kinds(events) == ["play", "caida"]
    caida = one(events, "caida")
    assert (caida.seat, caida.team, caida.card, caida.victim, caida.points) == (1, 1, Card("5h"), 0, 2)
    assert game.score == (0, 2)


def test_r13_caida_only_by_igualdad_not_by_sum() -> None:
    game = position(hands=[["3h", "Kd"], ["7s", "Qd"]], table=["4d", "Jc"], dealer=1)
    game.play("3h")
    events = game.play("7s x3h+4d,Jc")
    assert kinds(events) == ["play", "limpia"]  # a limpia, but no caída
    game2 = position(hands=[["3h", "Kd"], ["7s", "Qd"]], table=["4d", "Ac"], dealer=1)
    game2.play("3h")
    events = game2.play("7s x3h+4d")
    assert kinds(events) == ["play"]
    assert game2.score == (0, 0)


def test_r13_caida_never_by_escalera() -> None:
    """The 4 just dropped is taken in the escalera of a 3, not by igualdad: no caída."""
    game = position(hands=[["4h", "Kd"], ["3s", "Qd"]], table=["3c", "Jc"], dealer=1)
    game.play("4h")
    events = game.play("3s x3c,4h")
    assert kinds(events) == ["play"]
    assert game.score == (0, 0)


def test_r13_caida_only_on_the_immediately_preceding_players_card() -> None:
    """Four players: seat 0's 5 was dropped two plays before; seat 3 taking it is no caída."""
    game = position(
        Rules(players=4),
        hands=[["5h", "Ah"], ["Kd", "As"], ["Jd", "Ad"], ["5s", "Ac"]],
        table=["2c"],
        dealer=3,
    )
    game.play("5h")
    game.play("Kd")
    game.play("Jd")
    events = game.play("5s x5h")
    assert kinds(events) == ["play"]
    assert game.score == (0, 0)


def test_r13_caida_on_last_drop_given_in_position() -> None:
    game = position(hands=[["5s", "Kd"], ["Qd"]], table=["5h", "2c"], last_drop="5h", dealer=0)
    assert game.turn == 0
    events = game.play("5s x5h")
    assert one(events, "caida").points == 2


def test_r13_pair_on_an_older_card_is_no_caida() -> None:
    game = position(hands=[["5s", "Kd"], ["Qd", "Jh"]], table=["5h", "Qs", "2c"], last_drop="Qs", dealer=1)
    events = game.play("5s x5h")
    assert kinds(events) == ["play"]


def _across_deals(rules: Rules) -> tuple[Game, list[Event]]:
    game = position(
        rules,
        hands=[[], ["5h"]],
        table=["Kc"],
        stock="5s Ad 2c 3s Jd 6h 7d Jc Qh Ks",
        stock_size=30,
        dealer=1,
    )
    game.play("5h")
    assert game.deal_number == 1 and game.turn == 0
    return game, game.play("5s x5h")


def test_r13_no_caida_across_deals_by_default() -> None:
    assert A_TODO_RIGOR.caida_across_deals is False
    game, events = _across_deals(A_TODO_RIGOR)
    assert kinds(events) == ["play"]
    assert game.score == (0, 0)


def test_r13_caida_across_deals_option() -> None:
    game, events = _across_deals(Rules(caida_across_deals=True))
    caida = one(events, "caida")
    assert (caida.team, caida.victim, caida.points) == (0, 1, 2)
    assert game.score == (2, 0)


def test_r13_last_drop_cleared_after_redeal_by_default_and_kept_with_option() -> None:
    for rules, expected in ((A_TODO_RIGOR, None), (Rules(caida_across_deals=True), Card("5h"))):
        game = position(rules, hands=[[], ["5h"]], table=["Kc"], stock_size=30, dealer=1)
        game.play("5h")
        assert game.last_drop == expected


def test_r13_never_across_hands() -> None:
    rules = Rules(caida_across_deals=True)
    game = position(rules, hands=[[], ["5h"]], table=["Kc"], dealer=1, pile_sizes=(20, None))
    events = game.play("5h")
    assert "hand_end" in kinds(events)
    assert game.table == []
    assert game.last_drop is None


# -- R14 limpia ---------------------------------------------------------------------------------
def test_r14_limpia_scores_2() -> None:
    game = position(hands=[["5s", "Kd"], ["Qd", "Jh"]], table=["5h"], dealer=1)
    events = game.play("5s x5h")
    assert kinds(events) == ["play", "limpia"]
    limpia = one(events, "limpia")
    assert (limpia.seat, limpia.team, limpia.points) == (0, 0, 2)
    assert game.score == (2, 0)
    assert game.table == []


def test_r14_limpia_by_sum_and_escalera() -> None:
    game = position(hands=[["7s", "Kd"], ["Qd", "Jh"]], table=["3h", "4c", "Js", "Qh"], dealer=1)
    events = game.play("7s x3h+4c,Js,Qh")
    assert one(events, "limpia").points == 2


def test_r14_capture_leaving_cards_is_no_limpia() -> None:
    game = position(hands=[["5s", "Kd"], ["Qd", "Jh"]], table=["5h", "Ah"], dealer=1)
    assert kinds(game.play("5s x5h")) == ["play"]


# -- R15 caída y limpia -------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("rules", "points"),
    [(A_TODO_RIGOR, 4), (TODO_DOS, 2), (BASICO, 4), (Rules(caida_limpia_points=6), 6)],
    ids=["a_todo_rigor", "todo_dos", "basico", "custom6"],
)
def test_r15_caida_y_limpia_points(rules: Rules, points: int) -> None:
    game = position(rules, hands=[["5s", "Kd"], ["Qd", "Jh"]], table=["5h"], last_drop="5h", dealer=1)
    events = game.play("5s x5h")
    assert kinds(events) == ["play", "caida_limpia"]
    ev = one(events, "caida_limpia")
    assert (ev.team, ev.card, ev.victim, ev.points) == (0, Card("5h"), 1, points)
    assert game.score == (points, 0)


def test_r15_campeonato_scores_caida_y_limpia_2() -> None:
    """002 §2.8: "se otorgan 2 puntos más el permiso de burlarse" — the tournament preset gives 2."""
    rules = Rules.preset("campeonato")
    assert rules.caida_limpia_points == 2
    game = position(
        rules,
        hands=[["5s", "Kd"], ["Qd", "Jh"], ["Qs", "Js"], ["Qh", "Ks"]],
        table=["5h"],
        last_drop="5h",
        dealer=3,
    )
    events = game.play("5s x5h")
    assert kinds(events) == ["play", "caida_limpia"]
    assert (one(events, "caida_limpia").points, game.score) == (2, (2, 0))


# -- R16 ronda ----------------------------------------------------------------------------------
def test_r16_ronda_scores_2_after_the_deal() -> None:
    game, events = next_deal(A_TODO_RIGOR, {0: "5h 5s 5d 2c 3s"})
    assert kinds(events) == ["play", "deal", "ronda"]
    ronda = one(events, "ronda")
    assert (ronda.seat, ronda.team, ronda.rank, ronda.points, ronda.note) == (0, 0, "5", 2, None)
    assert game.score == (2, 0)


def test_r16_ronda_points_option_4() -> None:
    game, events = next_deal(Rules(ronda_points=4), {1: "Jh Js Jc 2c 3s"})
    ronda = one(events, "ronda")
    assert (ronda.seat, ronda.team, ronda.points) == (1, 1, 4)
    assert game.score == (0, 4)


def test_r16_ronda_is_announced_to_every_seat_without_naming_cards() -> None:
    game, _events = next_deal(A_TODO_RIGOR, {0: "5h 5s 5d 2c 3s"})
    assert game.rondas == [(0, Card("5h").rank)]
    view = game.view(1)
    assert view.rondas == ((0, Card("5h").rank),)
    assert view.to_dict()["rondas"] == [{"seat": 0, "rank": "5"}]
    announced = [e.to_dict() for e in view.history if e.kind == "ronda"]
    assert announced == [{"kind": "ronda", "seat": 0, "team": 0, "rank": "5", "points": 2, "note": None}]
    assert "5h" not in str(announced)


def test_r16_no_ronda_with_only_two_of_a_rank() -> None:
    game, events = next_deal(A_TODO_RIGOR, {0: "5h 5s 6d 2c 3s"})
    assert "ronda" not in kinds(events)
    assert game.score == (0, 0)


def test_r16_ronda_in_the_first_deal_of_a_new_game() -> None:
    found = 0
    for seed in range(200):
        game = Game.new(A_TODO_RIGOR, seed=seed)
        for ronda in of_kind(game.events, "ronda"):
            hand = game.hand(ronda.seat)
            assert sum(1 for c in hand if c.rank_char == ronda.rank) == 3
            assert ronda.points == 2
            assert game.score[ronda.team] >= 2
            found += 1
        if found >= 2:
            break
    assert found >= 2


def test_r17_rondas_scored_in_playing_order_from_the_dealers_right_2p() -> None:
    game, events = next_deal(A_TODO_RIGOR, {0: "5h 5s 5d 2c 3s", 1: "Jh Js Jc 2h 3c"}, dealer=0)
    assert [e.seat for e in of_kind(events, "ronda")] == [1, 0]
    assert game.score == (2, 2)


def test_r17_rondas_scored_in_playing_order_from_the_dealers_right_4p() -> None:
    rules = Rules(players=4)
    game, events = next_deal(rules, {0: "5h 5s 5d 2c 3s", 3: "Jh Js Jc 2h 3c"}, dealer=1)
    # dealer 1: the order is seats 2, 3, 0, 1
    assert [e.seat for e in of_kind(events, "ronda")] == [3, 0]
    assert game.score == (2, 2)


def test_r17_ronda_order_decides_who_reaches_the_target_first() -> None:
    """basico (no 38 que no juega, no ronda limit): both at 38, both dealt a ronda; dealer 0, so
    seat 1 scores first, reaches 40 and wins; seat 0's ronda is never scored."""
    _game, events = next_deal(BASICO, {0: "5h 5s 5d 2c 3s", 1: "Jh Js Jc 2h 3c"}, dealer=0, scores=(38, 38))
    rondas = of_kind(events, "ronda")
    assert rondas[0].seat == 1 and rondas[0].points == 2
    won = one(events, "chica_won")
    assert (won.team, won.scores, won.reason) == (1, (38, 40), "target")
    assert events.index(rondas[0]) < events.index(won)
    assert all(e.seat != 0 for e in rondas)


# -- R17 four of a kind -------------------------------------------------------------------------
def test_r17_four_of_a_kind_wins_the_chica_by_default() -> None:
    assert A_TODO_RIGOR.four_of_a_kind == "wins_chica"
    game, events = next_deal(A_TODO_RIGOR, {0: "5h 5s 5d 5c 3s"})
    four = one(events, "four_of_a_kind")
    assert (four.seat, four.team, four.rank, four.wins_chica) == (0, 0, "5", True)
    won = one(events, "chica_won")
    assert (won.team, won.reason) == (0, "four_of_a_kind")
    assert game.chicas == (1, 0)


@pytest.mark.parametrize("scores", [(30, 0), (38, 0), (36, 38)])
def test_r17_four_of_a_kind_never_blocked_by_r19_or_r20(scores: tuple[int, int]) -> None:
    game, events = next_deal(A_TODO_RIGOR, {0: "5h 5s 5d 5c 3s"}, scores=scores)
    won = one(events, "chica_won")
    assert (won.team, won.reason, won.scores) == (0, "four_of_a_kind", scores)
    assert game.chicas == (1, 0)


def test_r17_four_of_a_kind_scores_4_with_option_points() -> None:
    rules = Rules(four_of_a_kind="points")
    game, events = next_deal(rules, {1: "5h 5s 5d 5c 3s"})
    four = one(events, "four_of_a_kind")
    assert (four.seat, four.team, four.points, four.wins_chica) == (1, 1, 4, False)
    assert "chica_won" not in kinds(events)
    assert game.score == (0, 4)


def test_r17_four_of_a_kind_points_follows_the_ronda_limit() -> None:
    """docs/rules-decisions.md: with "points" it is scored like a ronda, so R19 applies."""
    rules = Rules(four_of_a_kind="points")
    game, events = next_deal(rules, {1: "5h 5s 5d 5c 3s"}, scores=(0, 30))
    four = one(events, "four_of_a_kind")
    assert four.points == 0
    assert game.score == (0, 30)


# -- R18 caída a la ronda -----------------------------------------------------------------------
def _caida_ronda(
    rules: Rules,
    *,
    table: tuple[str, ...] = ("Kc",),
    rondas: tuple[tuple[int, str], ...] = ((0, "5"),),
    scores: tuple[int, int] = (0, 0),
) -> tuple[Game, list[Event]]:
    """Seat 0 (which announced a ronda of 5s this deal) drops a 5; seat 1 falls on it."""
    game = position(
        rules, hands=[["5h", "Qd"], ["5s", "Jc"]], table=list(table), rondas=rondas, dealer=1, scores=scores
    )
    game.play("5h")
    return game, game.play("5s x5h")


@pytest.mark.parametrize(
    ("rules", "points"), [(A_TODO_RIGOR, 10), (TODO_DOS, 4)], ids=["a_todo_rigor", "todo_dos"]
)
def test_r18_caida_a_la_ronda(rules: Rules, points: int) -> None:
    game, events = _caida_ronda(rules)
    assert kinds(events) == ["play", "caida_ronda"]
    ev = one(events, "caida_ronda")
    assert (ev.seat, ev.team, ev.card, ev.victim, ev.limpia, ev.points) == (
        1,
        1,
        Card("5h"),
        0,
        False,
        points,
    )
    assert game.score == (0, points)


@pytest.mark.parametrize(
    ("rules", "points"), [(A_TODO_RIGOR, 12), (TODO_DOS, 4)], ids=["a_todo_rigor", "todo_dos"]
)
def test_r18_caida_a_la_ronda_with_limpia(rules: Rules, points: int) -> None:
    game, events = _caida_ronda(rules, table=())
    ev = one(events, "caida_ronda")
    assert ev.limpia is True
    assert ev.points == points
    assert game.score == (0, points)


def test_r18_caida_a_la_ronda_off_in_basico_is_an_ordinary_caida() -> None:
    game, events = _caida_ronda(BASICO)
    assert kinds(events) == ["play", "caida"]
    assert one(events, "caida").points == 2
    assert game.score == (0, 2)
    _game, events = _caida_ronda(BASICO, table=())
    assert one(events, "caida_limpia").points == 4


def test_r18_only_on_a_ronda_of_the_seat_that_dropped_the_card() -> None:
    # the ronda is the scorer's own
    game, events = _caida_ronda(A_TODO_RIGOR, rondas=((1, "5"),))
    assert kinds(events) == ["play", "caida"]
    assert game.score == (0, 2)
    # the victim's ronda is of another rank
    game, events = _caida_ronda(A_TODO_RIGOR, rondas=((0, "Q"),))
    assert kinds(events) == ["play", "caida"]


def test_r18_r19_caida_a_la_ronda_is_ordinary_when_the_scorer_has_30() -> None:
    game, events = _caida_ronda(A_TODO_RIGOR, scores=(0, 30))
    assert kinds(events) == ["play", "caida"]
    assert one(events, "caida").points == 2
    assert game.score == (0, 32)
    game, events = _caida_ronda(A_TODO_RIGOR, scores=(0, 28))
    assert one(events, "caida_ronda").points == 10
    assert game.score == (0, 38)


def test_r18_r19_limited_caida_a_la_ronda_with_limpia_is_an_ordinary_caida_y_limpia() -> None:
    game, events = _caida_ronda(A_TODO_RIGOR, table=(), scores=(0, 30))
    assert kinds(events) == ["play", "caida_limpia"]
    assert one(events, "caida_limpia").points == 4
    assert game.score == (0, 34)


def test_r18_r20_caida_a_la_ronda_at_38_gives_2_and_wins() -> None:
    rules = Rules(ronda_limit=None)  # so that only R20 is at work
    _game, events = _caida_ronda(rules, scores=(0, 38))
    ev = one(events, "caida_ronda")
    assert (ev.points, ev.note) == (2, "treinta_y_ocho")
    won = one(events, "chica_won")
    assert (won.team, won.scores) == (1, (0, 40))


def test_r18_r19_limit_looks_at_the_scorer_not_the_victim() -> None:
    _game, events = _caida_ronda(A_TODO_RIGOR, scores=(30, 0))
    assert one(events, "caida_ronda").points == 10


# -- R19 no ronda from 30 -----------------------------------------------------------------------
@pytest.mark.parametrize(("score", "points"), [(28, 2), (30, 0), (32, 0)])
def test_r19_no_ronda_from_30(score: int, points: int) -> None:
    game, events = next_deal(A_TODO_RIGOR, {0: "5h 5s 5d 2c 3s"}, scores=(score, 0))
    ronda = one(events, "ronda")  # announced even when it scores nothing
    assert ronda.points == points
    if points == 0:
        assert ronda.note == "ronda_limit"
    assert game.score == (score + points, 0)


def test_r19_ronda_limit_off_in_basico() -> None:
    assert BASICO.ronda_limit is None
    game, events = next_deal(BASICO, {0: "5h 5s 5d 2c 3s"}, scores=(30, 0))
    assert one(events, "ronda").points == 2
    assert game.score == (32, 0)


def test_r19_limit_applies_to_the_ronda_team_only() -> None:
    _game, events = next_deal(A_TODO_RIGOR, {0: "5h 5s 5d 2c 3s"}, scores=(0, 30))
    assert one(events, "ronda").points == 2


# -- R20 38 que no juega ------------------------------------------------------------------------
def test_r20_at_38_a_limpia_gives_nothing() -> None:
    game = position(hands=[["5s", "Kd"], ["Qd", "Jh"]], table=["5h"], dealer=1, scores=(38, 0))
    events = game.play("5s x5h")
    limpia = one(events, "limpia")
    assert (limpia.points, limpia.note) == (0, "treinta_y_ocho")
    assert game.score == (38, 0)
    assert "chica_won" not in kinds(events)


def test_r20_at_38_a_ronda_gives_nothing() -> None:
    rules = Rules(ronda_limit=None)  # so that only R20 is at work
    game, events = next_deal(rules, {0: "5h 5s 5d 2c 3s"}, scores=(38, 0))
    ronda = one(events, "ronda")
    assert (ronda.points, ronda.note) == (0, "treinta_y_ocho")
    assert game.score == (38, 0)


def test_r20_at_38_the_carton_gives_nothing() -> None:
    game = position(hands=[[], ["Kc"]], table=["Qd"], dealer=1, scores=(38, 0), pile_sizes=(24, None))
    events = game.play("Kc")
    carton = next(e for e in of_kind(events, "carton") if e.team == 0)
    assert (carton.cards, carton.points, carton.note) == (24, 0, "treinta_y_ocho")
    assert "chica_won" not in kinds(events)
    assert game.score[0] == 38


def test_r20_at_38_a_caida_gives_2_and_wins() -> None:
    game = position(
        hands=[["5s", "Kd"], ["Qd", "Jh"]], table=["5h", "Ac"], last_drop="5h", dealer=1, scores=(38, 12)
    )
    events = game.play("5s x5h")
    assert kinds(events)[:3] == ["play", "caida", "chica_won"]
    assert one(events, "caida").points == 2
    won = one(events, "chica_won")
    assert (won.team, won.scores, won.reason) == (0, (40, 12), "target")


def test_r20_at_38_a_caida_y_limpia_gives_2() -> None:
    game = position(
        hands=[["5s", "Kd"], ["Qd", "Jh"]], table=["5h"], last_drop="5h", dealer=1, scores=(38, 12)
    )
    events = game.play("5s x5h")
    ev = one(events, "caida_limpia")
    assert (ev.points, ev.note) == (2, "treinta_y_ocho")
    assert one(events, "chica_won").scores == (40, 12)


def test_r20_at_36_a_caida_y_limpia_wins() -> None:
    game = position(
        hands=[["5s", "Kd"], ["Qd", "Jh"]], table=["5h"], last_drop="5h", dealer=1, scores=(36, 12)
    )
    events = game.play("5s x5h")
    assert one(events, "caida_limpia").points == 4
    won = one(events, "chica_won")
    assert (won.team, won.scores) == (0, (40, 12))


def test_r20_at_36_a_limpia_reaches_38_only() -> None:
    game = position(hands=[["5s", "Kd"], ["Qd", "Jh"]], table=["5h"], dealer=1, scores=(36, 0))
    events = game.play("5s x5h")
    assert one(events, "limpia").points == 2
    assert game.score == (38, 0)
    assert "chica_won" not in kinds(events)


def test_r20_off_in_basico_a_limpia_at_38_wins() -> None:
    assert BASICO.treinta_y_ocho is False
    game = position(BASICO, hands=[["5s", "Kd"], ["Qd", "Jh"]], table=["5h"], dealer=1, scores=(38, 0))
    events = game.play("5s x5h")
    assert one(events, "limpia").points == 2
    assert one(events, "chica_won").scores == (40, 0)


def test_r20_only_the_team_with_38_is_restricted() -> None:
    game = position(hands=[["5s", "Kd"], ["Qd", "Jh"]], table=["5h"], dealer=1, scores=(0, 38))
    events = game.play("5s x5h")
    assert one(events, "limpia").points == 2
    assert game.score == (2, 38)


# -- R21 four caídas in a row -------------------------------------------------------------------
FOUR_CAIDAS_2P = ["Ah", "As xAh", "2h", "2s x2h", "3h", "3s x3h", "4h", "4s x4h"]


def _four_caidas_2p(rules: Rules) -> tuple[Game, list[Event]]:
    game = position(rules, hands=["As 2s 3s 4s Jd", "Ah 2h 3h 4h Qh"], table=["Kc"], stock_size=20, dealer=0)
    assert game.turn == 1
    events: list[Event] = []
    for move in FOUR_CAIDAS_2P:
        events += game.play(move)
    return game, events


def test_r21_four_caidas_in_a_row_win_the_chica_with_the_option() -> None:
    game, events = _four_caidas_2p(Rules(cuatro_caidas_gana=True))
    assert len(of_kind(events, "caida")) == 4
    won = one(events, "chica_won")
    assert (won.team, won.reason, won.scores) == (0, "cuatro_caidas", (8, 0))
    assert events.index(won) > events.index(of_kind(events, "caida")[3])
    assert game.chicas == (1, 0)


def test_r21_off_by_default() -> None:
    assert A_TODO_RIGOR.cuatro_caidas_gana is False
    game, events = _four_caidas_2p(A_TODO_RIGOR)
    assert len(of_kind(events, "caida")) == 4
    assert "chica_won" not in kinds(events)
    assert game.score == (8, 0)


def test_r21_a_caida_by_the_other_team_breaks_the_streak() -> None:
    """Two caídas, a caída by the other team, then four more: the chica is won at the fourth one
    after the break (the sixth of the hand), not before. The streak runs across deals."""
    rules = Rules(cuatro_caidas_gana=True)
    game = position(
        rules,
        hands=["As 2s Jd 5s 7d", "Ah 2h Qh Jh 6h"],
        table=["Kc"],
        stock="3h 4h Kh Qc Ad 3s 4s Ks Qs 2d",
        stock_size=20,
        dealer=0,
    )
    deal1 = ["Ah", "As xAh", "2h", "2s x2h", "Qh", "Jd", "Jh xJd,Qh,Kc", "5s", "6h", "7d"]
    deal2 = ["3h", "3s x3h", "4h", "4s x4h,5s,6h,7d", "Kh", "Ks xKh", "Qc"]
    caidas = 0
    for move in deal1 + deal2:
        events = game.play(move)
        assert "chica_won" not in kinds(events), move
        caidas += sum(1 for e in events if e.kind in ("caida", "caida_limpia", "caida_ronda"))
    assert caidas == 6
    assert game.deal_number == 2
    events = game.play("Qs xQc")
    won = one(events, "chica_won")
    assert (won.team, won.reason) == (0, "cuatro_caidas")


FOUR_CAIDAS_4P = [
    # seat 1 drops, seat 2 falls (victim 1); seat 3 and seat 0 play on
    "Ah", "As xAh", "Jd", "Qs",
    "2h", "2s x2h", "Kd", "Jh xJd,Qs,Kd",
    "3h", "3s x3h", "Jc", "Qh",
    "4h", "4s x4h", "Kh", "Ks xKh",
    "5h", "5s x5h", "6d", "6c x6d",
]  # fmt: skip


@pytest.mark.parametrize(
    "rules",
    [Rules(players=4, cuatro_caidas_gana=True), Rules.preset("campeonato", players=4)],
    ids=["a_todo_rigor+option", "campeonato"],
)
def test_r21_four_players_need_two_caidas_against_each_opponent(rules: Rules) -> None:
    """Four caídas all against seat 1 do not win; the chica is won at the caída that makes two
    against seat 3 as well (the seventh in a row)."""
    game = position(
        rules,
        hands=["Qs Jh Qh Ks 6c", "Ah 2h 3h 4h 5h", "As 2s 3s 4s 5s", "Jd Kd Jc Kh 6d"],
        dealer=0,
    )
    victims: list[int] = []
    for i, move in enumerate(FOUR_CAIDAS_4P):
        events = game.play(move)
        for e in events:
            if e.kind in ("caida", "caida_limpia", "caida_ronda"):
                victims.append(e.victim)
        if i < len(FOUR_CAIDAS_4P) - 1:
            assert "chica_won" not in kinds(events), (move, victims)
    assert victims == [1, 1, 1, 1, 3, 1, 3]
    won = one(events, "chica_won")
    assert (won.team, won.reason) == (0, "cuatro_caidas")
