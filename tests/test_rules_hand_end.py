"""R22–R26: the end of a hand (leftovers, cartón), winning a chica, zapatero and the mesa."""

from __future__ import annotations

import pytest

from cuarenta import Game, GameOverError, PositionError, Rules
from cuarenta.events import Event
from support.positions import assert_illegal, deal_points, kinds, of_kind, one, position

A_TODO_RIGOR = Rules.preset("a_todo_rigor")


def last_drop_of_hand(
    rules: Rules = A_TODO_RIGOR,
    *,
    piles: tuple[int, int | None],
    table: tuple[str, ...] = ("Qd",),
    dealer: int = 1,
    scores: tuple[int, int] = (0, 0),
) -> tuple[Game, list[Event]]:
    """The dealer plays the last card of the hand, a K that takes nothing; the table is left over."""
    hands: list[list[str]] = [[], []]
    hands[dealer] = ["Kc"]
    game = position(rules, hands=hands, table=list(table), dealer=dealer, scores=scores, pile_sizes=piles)
    events = game.play("Kc")
    assert "hand_end" in kinds(events)
    return game, events


def limpia_ends_hand(
    rules: Rules = A_TODO_RIGOR,
    *,
    piles: tuple[int, int],
    dealer: int = 1,
    scores: tuple[int, int] = (0, 0),
) -> tuple[Game, list[Event]]:
    """The dealer's last card takes the last card on the table (a limpia, no caída)."""
    hands: list[list[str]] = [[], []]
    hands[dealer] = ["5s"]
    game = position(rules, hands=hands, table=["5h"], dealer=dealer, scores=scores, pile_sizes=piles)
    events = game.play("5s x5h")
    assert kinds(events)[:3] == ["play", "limpia", "hand_end"]
    return game, events


def cartons(events: list[Event]) -> dict[int, Event]:
    return {e.team: e for e in of_kind(events, "carton")}  # type: ignore[attr-defined]


# -- R22 leftovers ------------------------------------------------------------------------------
def test_r22_leftovers_belong_to_nobody() -> None:
    """Team 0 captured last, but the three cards left on the table are nobody's: it has 19, not 22."""
    game, events = last_drop_of_hand(piles=(19, 18), table=("Qd", "3c"))
    end = one(events, "hand_end")
    assert {str(c) for c in end.leftovers} == {"Qd", "3c", "Kc"}
    assert end.pile_sizes == (19, 18)
    c = cartons(events)
    assert (c[0].cards, c[0].points, c[0].reason) == (19, 2, "most_cards")
    assert (c[1].cards, c[1].points) == (18, 0)
    assert game.table == []  # the new hand starts with an empty table
    new = deal_points(events)
    assert game.score == (2 + new[0], new[1])


# -- R23 cartón ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("cards", "points"),
    [(20, 6), (21, 8), (22, 8), (23, 10), (24, 10), (25, 12), (29, 16), (30, 16), (38, 24)],
)
def test_r23_carton_from_20_cards(cards: int, points: int) -> None:
    table = ("Qd",) if cards < 38 else ()
    game, events = last_drop_of_hand(piles=(cards, None), table=table)
    c = cartons(events)
    assert (c[0].team, c[0].cards, c[0].points, c[0].reason) == (0, cards, points, "carton")
    assert (c[1].points, c[1].reason) == (0, None)
    new = deal_points(events)
    assert game.score == (points + new[0], new[1])


def test_r23_carton_four_players_partners_share_a_pile() -> None:
    rules = Rules(players=4)
    game = position(rules, hands=[[], [], [], ["Kc"]], table=["Qd"], dealer=3, pile_sizes=(22, None))
    events = game.play("Kc")
    c = cartons(events)
    assert (c[0].cards, c[0].points, c[0].reason) == (22, 8, "carton")
    assert (c[1].cards, c[1].points) == (16, 0)
    assert one(events, "deal").dealer == 0


def test_r23_carton_both_teams_with_20() -> None:
    game, events = limpia_ends_hand(piles=(20, 18))
    c = cartons(events)
    assert (c[0].cards, c[0].points) == (20, 6)
    assert (c[1].cards, c[1].points) == (20, 6)
    new = deal_points(events)
    assert game.score == (6 + new[0], 2 + 6 + new[1])


@pytest.mark.parametrize(("cards", "points"), [(27, 14), (28, 14), (30, 14), (36, 14), (20, 6)])
def test_r23_carton_cap(cards: int, points: int) -> None:
    rules = Rules(carton_cap=28)
    _, events = last_drop_of_hand(rules, piles=(cards, None))
    c = cartons(events)
    assert (c[0].cards, c[0].points) == (cards, points)


def test_r23_carton_cap_default_none() -> None:
    assert A_TODO_RIGOR.carton_cap is None
    _, events = last_drop_of_hand(piles=(36, None))
    assert cartons(events)[0].points == 22


def test_r23_most_cards_below_20() -> None:
    assert A_TODO_RIGOR.carton_short == "most_cards"
    _, events = last_drop_of_hand(piles=(18, 19), table=("Qd", "3c"))
    c = cartons(events)
    assert (c[1].points, c[1].reason) == (2, "most_cards")
    assert c[0].points == 0


@pytest.mark.parametrize("dealer", [0, 1])
def test_r23_most_cards_tie_goes_to_the_team_that_did_not_deal(dealer: int) -> None:
    _, events = last_drop_of_hand(piles=(18, 18), table=("Qd", "3c", "4h"), dealer=dealer)
    c = cartons(events)
    non_dealer = 1 - dealer % 2
    assert (c[non_dealer].cards, c[non_dealer].points, c[non_dealer].reason) == (18, 2, "most_cards")
    assert c[1 - non_dealer].points == 0


def test_r23_dos_por_dar_dealer_team_with_more_cards() -> None:
    rules = Rules(carton_short="dos_por_dar")
    _, events = last_drop_of_hand(rules, piles=(18, 19), table=("Qd", "3c"), dealer=1)
    c = cartons(events)
    assert (c[1].points, c[1].reason) == (2, "dos_por_dar")
    assert c[0].points == 0


@pytest.mark.parametrize("piles", [(19, 18), (18, 18)], ids=["non_dealer_more", "tie"])
def test_r23_dos_por_dar_nobody_scores_otherwise(piles: tuple[int, int]) -> None:
    rules = Rules(carton_short="dos_por_dar")
    table = ("Qd", "3c") if sum(piles) == 37 else ("Qd", "3c", "4h")
    _, events = last_drop_of_hand(rules, piles=piles, table=table, dealer=1)
    c = cartons(events)
    assert c[0].points == 0 and c[1].points == 0


@pytest.mark.parametrize(
    ("piles", "dealer", "want"),
    [
        ((20, 17), 0, {0: (8, "carton_dos_por_dar"), 1: (0, None)}),  # the dealer's team, exactly 20
        ((17, 20), 1, {1: (8, "carton_dos_por_dar"), 0: (0, None)}),
        ((21, 16), 0, {0: (8, "carton"), 1: (0, None)}),  # 21 cards: the cartón alone (R23 rounding)
        ((17, 20), 0, {0: (0, None), 1: (6, "carton")}),  # the other team with 20: no dos por dar
    ],
    ids=["dealer0", "dealer1", "dealer21", "other20"],
)
def test_r23_dos_por_dar_exactly_20_scores_6_plus_2(
    piles: tuple[int, int], dealer: int, want: dict[int, tuple[int, str | None]]
) -> None:
    """000: under dos por dar, the dealer's team with exactly 20 cards scores the cartón's 6 and the
    2 of dos por dar."""
    rules = Rules(carton_short="dos_por_dar")
    table = ("Qd", *("3c", "4h")[: 40 - sum(piles) - 2])
    _, events = last_drop_of_hand(rules, piles=piles, table=table, dealer=dealer)
    c = cartons(events)
    assert {t: (c[t].points, c[t].reason) for t in (0, 1)} == want
    # under most_cards the same count gives the plain cartón
    assert Rules().carton(piles, dealer & 1)[dealer & 1][1] in ("carton", None)


def test_r23_dos_por_dar_both_teams_with_20() -> None:
    """Both piles of 20: the cartón's 6 each, and the 2 of dos por dar only to the dealer's team."""
    _, events = limpia_ends_hand(Rules(carton_short="dos_por_dar"), piles=(18, 20), dealer=0)
    c = cartons(events)
    assert {t: (c[t].cards, c[t].points, c[t].reason) for t in (0, 1)} == {
        0: (20, 8, "carton_dos_por_dar"),
        1: (20, 6, "carton"),
    }


# -- R24 winning a chica ------------------------------------------------------------------------
def test_r24_both_reach_the_target_with_the_carton_equal_scores_non_dealer_wins() -> None:
    game, events = limpia_ends_hand(piles=(20, 18), dealer=1, scores=(36, 34))
    won = one(events, "chica_won")
    assert (won.team, won.scores, won.reason) == (0, (42, 42), "target")
    assert game.chicas == (1, 0)


def test_r24_equal_scores_non_dealer_wins_dealer_0() -> None:
    game, events = limpia_ends_hand(piles=(18, 20), dealer=0, scores=(34, 36))
    won = one(events, "chica_won")
    assert (won.team, won.scores) == (1, (42, 42))
    assert game.chicas == (0, 1)


@pytest.mark.parametrize(("scores", "winner", "final"), [((34, 34), 1, (40, 42)), ((36, 32), 0, (42, 40))])
def test_r24_both_reach_the_target_higher_score_wins(
    scores: tuple[int, int], winner: int, final: tuple[int, int]
) -> None:
    _, events = limpia_ends_hand(piles=(20, 18), dealer=1, scores=scores)
    won = one(events, "chica_won")
    assert (won.team, won.scores) == (winner, final)


def test_r24_carton_reaching_the_target_wins() -> None:
    _game, events = last_drop_of_hand(piles=(24, None), scores=(30, 20))
    won = one(events, "chica_won")
    assert (won.team, won.scores) == (0, (40, 20))
    assert kinds(events).index("carton") < kinds(events).index("chica_won")


def test_r24_nobody_reached_the_target_new_hand_by_the_next_dealer() -> None:
    game, events = last_drop_of_hand(piles=(20, None), scores=(10, 30), dealer=1)
    assert "chica_won" not in kinds(events)
    deal = one(events, "deal")
    assert (deal.dealer, deal.hand, deal.deal) == (0, 1, 0)
    assert game.hand_number == 1
    new = deal_points(events)
    assert game.score == (16 + new[0], 30 + new[1])


def _caida_at_38(
    rules: Rules = A_TODO_RIGOR, *, loser: int = 12, chicas: tuple[int, int] = (0, 0)
) -> tuple[Game, list[Event]]:
    game = position(
        rules,
        hands=[["5s", "Kd"], ["Qd", "Jh"]],
        table=["5h", "Ac"],
        last_drop="5h",
        stock_size=20,
        dealer=1,
        scores=(38, loser),
        chicas=chicas,
    )
    return game, game.play("5s x5h")


def test_r24_caida_at_38_ends_the_chica_at_once_during_play() -> None:
    game, events = _caida_at_38()
    k = kinds(events)
    assert k[:3] == ["play", "caida", "chica_won"]
    won = one(events, "chica_won")
    assert (won.team, won.scores, won.reason, won.chica) == (0, (40, 12), "target", 0)
    # the rest of the hand is abandoned: a new hand is dealt by the next dealer, scores start again
    deal = one(events, "deal")
    assert (deal.dealer, deal.deal) == (0, 0)
    assert k.index("chica_won") < k.index("deal")
    assert game.chicas == (1, 0)
    assert game.score == deal_points(events)
    assert all(len(game.hand(s)) == 5 for s in range(2))
    assert len(game.stock) == 30
    assert game.table == []
    assert game.chica_results[-1].winner == 0


# -- R25 zapatero -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("loser", "zapatero", "platillo"), [(8, True, False), (0, True, True), (10, False, False)]
)
def test_r25_zapatero_and_platillo(loser: int, zapatero: bool, platillo: bool) -> None:
    game, events = _caida_at_38(loser=loser)
    result = game.chica_results[-1]
    assert (result.winner, result.scores) == (0, (40, loser))
    assert (result.zapatero, result.platillo) == (zapatero, platillo)
    if zapatero:
        z = one(events, "zapatero")
        assert (z.team, z.points, z.platillo) == (1, loser, platillo)
    else:
        assert "zapatero" not in kinds(events)
    assert not game.is_over  # zapatero_wins_mesa is off by default


def _caida_to_30(rules: Rules, *, loser: int, chicas: tuple[int, int] = (0, 0)) -> tuple[Game, list[Event]]:
    """Team 0 at 28 falls on the 5♥ (+2: 30) while team 1 has ``loser`` points."""
    game = position(
        rules,
        hands=[["5s", "Kd"], ["Qd", "Jh"]],
        table=["5h", "Ac"],
        last_drop="5h",
        stock_size=20,
        dealer=1,
        scores=(28, loser),
        chicas=chicas,
    )
    return game, game.play("5s x5h")


@pytest.mark.parametrize("loser", [0, 8])
def test_r25_zapatero_wins_mesa_the_moment_a_team_reaches_30(loser: int) -> None:
    """000: "una mesa también puede ganarse en una sola partida si un equipo consigue hacer 30 puntos y
    el equipo adversario ha conseguido menos de 10" — the chica and the mesa, at once."""
    game, events = _caida_to_30(Rules(zapatero_wins_mesa=True), loser=loser)
    assert kinds(events) == ["play", "caida", "chica_won", "zapatero", "mesa_won"]
    won = one(events, "chica_won")
    assert (won.team, won.scores, won.reason) == (0, (30, loser), "zapatero")
    assert one(events, "zapatero").platillo == (loser == 0)
    mesa = one(events, "mesa_won")
    assert (mesa.team, mesa.chicas, mesa.reason) == (0, (1, 0), "zapatero")
    assert game.is_over and game.outcome is not None
    assert (game.outcome.winner, game.outcome.chicas, game.outcome.reason) == (0, (1, 0), "zapatero")


def test_r25_zapatero_wins_mesa_needs_the_other_below_10() -> None:
    game, events = _caida_to_30(Rules(zapatero_wins_mesa=True), loser=10)
    assert kinds(events) == ["play", "caida"]
    assert game.score == (30, 10) and not game.is_over


def test_r25_zapatero_wins_mesa_off_by_default() -> None:
    game, events = _caida_to_30(Rules(), loser=4)
    assert kinds(events) == ["play", "caida"] and not game.is_over


def test_r25_zapatero_wins_mesa_after_the_whole_carton_count() -> None:
    """The cartón is counted for both teams before the rule looks: a team reaching 30 with its cartón
    wins only if the other is still below 10 after its own."""
    rules = Rules(zapatero_wins_mesa=True)
    _, events = last_drop_of_hand(rules, piles=(20, None), scores=(24, 8), dealer=1)
    won = one(events, "chica_won")
    assert (won.team, won.scores, won.reason) == (0, (30, 8), "zapatero")
    assert one(events, "mesa_won").reason == "zapatero"
    # 22 cards for team 1 (no 20 for team 0: most cards goes to team 1): 24 vs 8 + 8 = 16, nothing
    game, events = last_drop_of_hand(rules, piles=(17, None), scores=(28, 8), dealer=1)
    assert "chica_won" not in kinds(events)
    assert game.score[1] >= 10


def test_r25_zapatero_win_is_not_a_four_of_a_kind_win() -> None:
    """R17's win is its own: the chica goes by four of a kind, the mesa goes on by chicas."""
    rules = Rules(zapatero_wins_mesa=True)
    game = position(rules, hands=[[], ["Kc"]], table=["Qd"], stock="5h 5s 5d 5c 2c", stock_size=30, dealer=1)
    events = game.play("Kc")
    won = one(events, "chica_won")
    assert won.reason == "four_of_a_kind" and "mesa_won" not in kinds(events)


def test_r25_a_position_already_won_by_zapatero_is_refused() -> None:
    with pytest.raises(PositionError, match="zapatero"):
        position(
            Rules(zapatero_wins_mesa=True), hands=[["5s"], ["Qd"]], table=["5h"], dealer=1, scores=(30, 4)
        )
    assert position(Rules(), hands=[["5s"], ["Qd"]], table=["5h"], dealer=1, scores=(30, 4)).score == (30, 4)


# -- R26 mesa -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("chicas_needed", "before", "over"),
    [
        (1, (0, 0), True),
        (2, (0, 0), False),
        (2, (1, 0), True),
        (2, (0, 1), False),
        (3, (1, 0), False),
        (3, (2, 1), True),
    ],
)
def test_r26_mesa_of_1_2_3_chicas(chicas_needed: int, before: tuple[int, int], over: bool) -> None:
    rules = Rules(chicas=chicas_needed)
    game, events = _caida_at_38(rules, chicas=before)
    after = (before[0] + 1, before[1])
    assert game.chicas == after
    assert game.is_over is over
    if over:
        mesa = one(events, "mesa_won")
        assert (mesa.team, mesa.chicas, mesa.reason) == (0, after, "chicas")
        assert game.outcome is not None and game.outcome.winner == 0
        assert game.legal_moves() == []
    else:
        assert "mesa_won" not in kinds(events)
        assert game.outcome is None
        assert game.legal_moves()


def test_r26_presets_chicas() -> None:
    assert Rules.preset("a_todo_rigor").chicas == 2
    assert Rules.preset("basico").chicas == 1
    assert Rules.preset("campeonato", players=4).chicas == 2


def test_r26_no_move_after_the_mesa_is_over() -> None:
    game, _ = _caida_at_38(Rules(chicas=1))
    assert game.is_over
    with pytest.raises(GameOverError):
        game.play("Kd")
    assert_illegal(game, "Kd", "over")


def test_r24_r26_a_whole_mesa_plays_to_its_end() -> None:
    """A seeded mesa played with the first legal move ends with a winner holding the chicas needed."""
    game = Game.new(Rules(chicas=1), seed=3)
    for _ in range(5000):
        if game.is_over:
            break
        game.play(game.legal_moves()[0])
    assert game.is_over and game.outcome is not None
    won = of_kind(game.events, "chica_won")
    assert len(won) == 1
    assert won[0].scores[won[0].team] >= 40 or won[0].reason != "target"
    assert game.outcome.chicas[game.outcome.winner] == 1
