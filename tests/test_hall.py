"""The hall score sheet (cuarenta.championship.hall): worked examples by hand, every refusal, undo and
the entries' dict form. The sheet against the engine over whole random mesas: tests/test_hall_engine.py."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cuarenta import Rules, catalogue
from cuarenta.championship import hall as h
from cuarenta.championship.hall import (
    Caida,
    CaidaLimpia,
    CaidaRonda,
    Carton,
    CuatroCaidas,
    FourOfAKind,
    HallError,
    HallSheet,
    Limpia,
    Misdeal,
    NewDeal,
    Procedure,
    Ronda,
)
from cuarenta.errors import CuarentaError, RulesError
from cuarenta.i18n import tantos_perros
from cuarenta.results import ChicaResult, Outcome
from support.examples import examples

CAMPEONATO = Rules.preset("campeonato")
RIGOR4 = Rules.preset("a_todo_rigor", players=4)


def sheet_of(rules: Rules, dealer: int, *entries: h.Entry) -> HallSheet:
    sheet = HallSheet(rules, dealer=dealer)
    for entry in entries:
        sheet.tap(entry)
    return sheet


def two_hands_to_38() -> HallSheet:
    """Campeonato, team 0 at 38 and team 1 at 0 after two hands (dealers 0 and 1), in hand 3."""
    sheet = HallSheet(CAMPEONATO, dealer=0)
    assert sheet.tap(Limpia(0)).points == (2, 0)
    assert sheet.tap(Caida(seat=2)).points == (2, 0)
    sheet.tap(NewDeal())
    assert sheet.tap(CaidaLimpia(seat=0)).points == (2, 0)  # campeonato: caída y limpia is 2 (002 §2.8)
    assert sheet.tap(Carton((30, 10), 0)).points == (16, 0)  # 30 cards: 6 + 10
    assert (sheet.scores, sheet.hand, sheet.dealer, sheet.deal) == ((22, 0), 1, 1, 0)
    sheet.tap(NewDeal())
    assert sheet.tap(Carton((30, 10), 0)).points == (16, 0)
    assert (sheet.scores, sheet.hand, sheet.dealer) == ((38, 0), 2, 2)
    return sheet


# -- worked examples ------------------------------------------------------------------------------------
def test_a_chica_from_0_to_40_ends_with_a_caida_at_38() -> None:
    sheet = two_hands_to_38()
    # at 38 only a caída scores (R20): a ronda gives nothing, a limpia alone is refused
    scored = sheet.tap(Ronda(seat=0))
    assert (scored.points, scored.notes) == ((0, 0), ("treinta_y_ocho", None))
    with pytest.raises(HallError) as info:
        sheet.tap(Limpia(0))
    assert info.value.code == "hall_limpia_at_38" and info.value.params == {"team": 0, "score": 38}
    assert sheet.tap(Caida(seat=3)).points == (0, 2)
    scored = sheet.tap(CaidaLimpia(seat=0))  # worth 2 at 38, reaching 40
    assert (scored.points, scored.notes) == ((2, 0), (None, None))
    assert scored.chica == ChicaResult(0, (40, 2), "target", zapatero=True, platillo=False)
    assert scored.mesa is None
    assert sheet.chicas == (1, 0) and sheet.chica_results == (scored.chica,)
    assert sheet.zapatero == (h.ZapateroMark(chica=0, team=1, points=2, platillo=False),)
    # the next chica: scores from 0, the deal passes to the right as Game does
    assert (sheet.scores, sheet.hand, sheet.deal, sheet.dealer) == ((0, 0), 3, 0, 3)


def test_the_carton_of_a_pair_at_38_gives_it_nothing() -> None:
    sheet = two_hands_to_38()
    sheet.tap(NewDeal())
    scored = sheet.tap(Carton((25, 15), 0))
    assert (scored.points, scored.notes) == ((0, 0), ("treinta_y_ocho", None))
    assert sheet.scores == (38, 0) and sheet.hand == 3


def test_36_and_a_caida_y_limpia_of_4_wins_the_chica() -> None:
    sheet = sheet_of(RIGOR4, 0, NewDeal(), Carton((35, 5), 0))  # 35 cards: 6 + 15 → 22 → 22
    assert sheet.scores == (22, 0)
    sheet.tap(NewDeal())
    sheet.tap(Carton((27, 13), 0))  # 27 cards: 13 → 14
    assert sheet.scores == (36, 0)
    scored = sheet.tap(CaidaLimpia(seat=2))
    assert scored.points == (4, 0) and scored.chica is not None
    assert scored.chica.scores == (40, 0) and scored.chica.platillo
    # with campeonato's caída y limpia of 2 the same tap only reaches 38
    other = sheet_of(CAMPEONATO, 0, NewDeal(), Carton((35, 5), 0), NewDeal(), Carton((27, 13), 0))
    assert other.scores == (36, 0)
    assert other.tap(CaidaLimpia(seat=2)).chica is None and other.scores == (38, 0)


def test_a_misdeal_gives_10_to_the_other_pair_and_passes_the_deal() -> None:
    sheet = sheet_of(CAMPEONATO, 1, Caida(seat=2))
    assert sheet.dealer == 1
    with pytest.raises(HallError) as info:
        sheet.tap(Misdeal(0))
    assert info.value.code == "hall_misdeal_not_dealer"
    scored = sheet.tap(Misdeal(1))
    assert scored.points == (10, 0)
    assert (sheet.scores, sheet.hand, sheet.deal, sheet.dealer) == ((12, 0), 1, 0, 2)
    assert sheet.streak == (-1, 0, ())  # a new hand


def test_the_draw_s_dealer_is_the_first_entry_and_counts_for_the_carton() -> None:
    sheet = HallSheet(CAMPEONATO, dealer=0)
    assert sheet.tap(h.FirstDealer(seat=1)).points == (0, 0) and sheet.dealer == 1
    sheet.tap(NewDeal())
    # on equal counts the team that did not deal scores 2: now team 0 (seat 1 dealt)
    assert sheet.tap(Carton((19, 19), 2)).points == (2, 0)
    with pytest.raises(HallError) as info:
        sheet.tap(h.FirstDealer(seat=3))
    assert info.value.code == "hall_first_dealer_late" and "3 entries" in str(info.value)
    again = HallSheet.from_dict(sheet.to_dict())
    assert again.snapshot() == sheet.snapshot()
    while sheet.entries:
        sheet.undo()
    assert sheet.dealer == 0


def test_a_carton_of_23_cards_scores_10() -> None:
    sheet = sheet_of(CAMPEONATO, 0, NewDeal())
    scored = sheet.tap(Carton((23, 15), 2))
    assert scored.points == (10, 0)
    assert HallSheet.tantos_perros(10) == (1, 0)
    # no team with 20 cards: the team with more scores 2, on equal counts the team that did not deal
    assert sheet_of(CAMPEONATO, 0, NewDeal()).tap(Carton((19, 19), 2)).points == (0, 2)
    assert sheet_of(CAMPEONATO, 1, NewDeal()).tap(Carton((19, 19), 2)).points == (2, 0)


def test_undo_restores_exactly() -> None:
    sheet = two_hands_to_38()
    sheet.tap(Caida(seat=3))
    before = sheet.snapshot()
    entries = sheet.entries
    sheet.tap(CaidaLimpia(seat=0))  # ends the chica
    assert sheet.snapshot() != before
    assert sheet.undo() == CaidaLimpia(seat=0)
    assert sheet.snapshot() == before and sheet.entries == entries
    while sheet.entries:
        sheet.undo()
    assert sheet.snapshot() == HallSheet(CAMPEONATO, dealer=0).snapshot()
    with pytest.raises(HallError) as info:
        sheet.undo()
    assert info.value.code == "hall_nothing_to_undo"


def test_a_penalty_of_procedure_is_2_for_the_other_team_and_may_win_the_chica() -> None:
    sheet = sheet_of(RIGOR4, 0, Procedure(1))
    assert sheet.scores == (2, 0) and (sheet.hand, sheet.deal, sheet.dealer) == (0, 0, 0)
    sheet = sheet_of(RIGOR4, 0, NewDeal(), Carton((34, 6), 0), NewDeal(), Carton((26, 14), 0))
    assert sheet.scores == (32, 0) and sheet.dealer == 2
    assert sheet.tap(Procedure(0)).points == (0, 2)
    assert sheet.tap(Misdeal(0)).points == (0, 10) and sheet.dealer == 3
    scored = sheet.tap(Misdeal(1))  # 32 + 10 = 42: past the target, the chica is won (R24)
    assert scored.points == (10, 0)
    assert scored.chica == ChicaResult(0, (42, 12), "target", zapatero=False, platillo=False)
    assert sheet.scores == (0, 0) and sheet.dealer == 0


def test_a_pair_at_38_gets_nothing_from_a_penalty() -> None:
    at38 = two_hands_to_38()  # dealer 2: team 0 deals
    with pytest.raises(HallError) as info:
        at38.tap(Procedure(1))
    assert info.value.code == "hall_procedure_at_38"
    scored = at38.tap(Misdeal(0))  # 10 for team 1
    assert scored.points == (0, 10) and at38.dealer == 3
    scored = at38.tap(Misdeal(1))  # team 0 at 38 gets nothing, and the deal still passes
    assert (scored.points, scored.notes) == ((0, 0), ("treinta_y_ocho", None))
    assert at38.scores == (38, 10) and at38.dealer == 0 and at38.hand == 4
    sheet = sheet_of(RIGOR4, 1, NewDeal(), Carton((10, 30), 0), NewDeal(), Carton((10, 30), 0))
    assert sheet.scores == (0, 32) and sheet.dealer == 3
    for _ in range(3):
        sheet.tap(Procedure(0))
    assert sheet.scores == (0, 38)
    with pytest.raises(HallError):
        sheet.tap(Procedure(0))


def test_four_of_a_kind_wins_the_chica_or_scores_4() -> None:
    sheet = sheet_of(CAMPEONATO, 0, Caida(seat=1), NewDeal())
    scored = sheet.tap(FourOfAKind(seat=3))
    assert scored.chica == ChicaResult(1, (0, 2), "four_of_a_kind", zapatero=True, platillo=True)
    assert sheet.dealer == 1 and sheet.scores == (0, 0) and sheet.zapatero[0].platillo
    scored = sheet.tap(FourOfAKind(seat=2))
    assert scored.chica is not None and scored.chica.winner == 0 and scored.mesa is None
    assert sheet.chicas == (1, 1)
    points = sheet_of(RIGOR4.replace(four_of_a_kind="points"), 0).tap(FourOfAKind(seat=1))
    assert points.points == (0, 4) and points.chica is None


def test_the_mesa_ends_with_its_chicas_and_takes_no_more_entries() -> None:
    sheet = sheet_of(CAMPEONATO, 0, FourOfAKind(seat=1))
    scored = sheet.tap(FourOfAKind(seat=3))  # dealer 1: seat 2 plays first, seat 3 next
    assert scored.mesa == Outcome(1, (0, 2), "chicas")
    assert sheet.finished and sheet.winner == 1 and sheet.outcome == scored.mesa
    before = sheet.snapshot()
    for entry in (Caida(seat=0), NewDeal(), Misdeal(0), Carton((20, 20), 0)):
        with pytest.raises(HallError) as info:
            sheet.tap(entry)
        assert info.value.code == "hall_mesa_over"
    assert sheet.snapshot() == before
    sheet.undo()
    assert not sheet.finished and sheet.winner is None


def test_zapatero_wins_the_mesa_when_the_option_is_on() -> None:
    rules = RIGOR4.replace(zapatero_wins_mesa=True)
    sheet = sheet_of(rules, 0, NewDeal(), Carton((40, 0), 0))  # 6 + 20 = 26
    assert sheet.scores == (26, 0)
    sheet.tap(Caida(seat=0))
    scored = sheet.tap(Caida(seat=2))  # 30 against 0
    assert scored.chica == ChicaResult(0, (30, 0), "zapatero", zapatero=True, platillo=True)
    assert scored.mesa == Outcome(0, (1, 0), "zapatero") and sheet.finished
    assert sheet_of(RIGOR4, 0, NewDeal(), Carton((40, 0), 0), Caida(seat=0), Caida(seat=2)).chicas == (0, 0)


def test_rondas_right_after_each_deal_in_playing_order() -> None:
    sheet = HallSheet(RIGOR4, dealer=0)  # seat 1 plays first, then 2, 3, 0
    assert sheet.tap(Ronda(seat=2)).points == (2, 0)
    for entry, code in (
        (Ronda(seat=2), "hall_ronda_twice"),
        (Ronda(seat=1), "hall_ronda_order"),
        (FourOfAKind(seat=2), "hall_ronda_twice"),
    ):
        before = sheet.snapshot()
        with pytest.raises(HallError) as info:
            sheet.tap(entry)
        assert info.value.code == code and sheet.snapshot() == before
    assert sheet.tap(Ronda(seat=0)).points == (2, 0)
    sheet.tap(Caida(seat=1))
    with pytest.raises(HallError) as info:
        sheet.tap(Ronda(seat=3))
    assert info.value.code == "hall_ronda_after_play"
    sheet.tap(NewDeal())
    assert sheet.rondas == () and sheet.tap(Ronda(seat=1)).points == (0, 2)


def test_ronda_limit_and_caida_a_la_ronda() -> None:
    sheet = HallSheet(RIGOR4, dealer=0)
    with pytest.raises(HallError) as info:
        sheet.tap(CaidaRonda(seat=2))
    assert info.value.code == "hall_caida_ronda_no_ronda" and info.value.params["victim"] == 1
    sheet.tap(Ronda(seat=1))
    assert sheet.tap(CaidaRonda(seat=2)).points == (10, 0)
    assert sheet.tap(CaidaRonda(seat=2, limpia=True)).points == (12, 0)  # a todo rigor: 10 + 2
    sheet.tap(Caida(seat=0))
    sheet.tap(Caida(seat=2))
    assert sheet.scores == (26, 2)
    sheet.tap(Caida(seat=0))
    sheet.tap(Caida(seat=2))
    assert sheet.scores == (30, 2)
    scored = sheet.tap(CaidaRonda(seat=2))  # from 30 (ronda_limit) an ordinary caída (R19)
    assert (scored.points, scored.notes) == ((2, 0), ("ronda_limit", None))
    sheet.tap(NewDeal())
    scored = sheet.tap(Ronda(seat=2))
    assert (scored.points, scored.notes) == ((0, 0), ("ronda_limit", None))
    off = HallSheet(CAMPEONATO, dealer=0)
    off.tap(Ronda(seat=1))
    with pytest.raises(HallError) as info:
        off.tap(CaidaRonda(seat=2))
    assert info.value.code == "hall_caida_ronda_off"


def test_cuatro_caidas_win_the_chica_when_the_judge_taps_them() -> None:
    sheet = HallSheet(CAMPEONATO, dealer=0)
    sheet.tap(Caida(seat=0))  # on seat 3
    sheet.tap(Caida(seat=2))  # on seat 1
    sheet.tap(Caida(seat=0))
    with pytest.raises(HallError) as info:
        sheet.tap(CuatroCaidas(0))
    assert info.value.code == "hall_cuatro_caidas_not_made" and info.value.params["count"] == 3
    scored = sheet.tap(Caida(seat=2))
    assert scored.cuatro_caidas_due == 0 and scored.chica is None and sheet.cuatro_caidas_due == 0
    before = sheet.snapshot()
    for entry in (Caida(seat=1), CuatroCaidas(1), NewDeal(), Limpia(0)):
        with pytest.raises(HallError) as info:
            sheet.tap(entry)
        assert info.value.code == "hall_cuatro_caidas_due" and sheet.snapshot() == before
    scored = sheet.tap(CuatroCaidas(0))
    assert scored.chica == ChicaResult(0, (8, 0), "cuatro_caidas", zapatero=True, platillo=True)
    assert sheet.dealer == 1 and sheet.cuatro_caidas_due is None


def test_four_caidas_on_one_seat_or_broken_by_the_other_team_do_not_win() -> None:
    sheet = sheet_of(CAMPEONATO, 0, *[Caida(seat=0)] * 4)  # four on seat 3 only: two on each are needed
    assert sheet.cuatro_caidas_due is None and sheet.streak == (0, 4, (3, 3, 3, 3))
    sheet = sheet_of(CAMPEONATO, 0, Caida(seat=0), Caida(seat=2), Caida(seat=3), Caida(seat=0), Caida(seat=2))
    assert sheet.streak == (0, 2, (3, 1)) and sheet.cuatro_caidas_due is None
    sheet = sheet_of(CAMPEONATO, 0, Caida(seat=0), Caida(seat=2), NewDeal(), Caida(seat=0), Caida(seat=2))
    assert sheet.cuatro_caidas_due == 0  # a streak runs across the deals of a hand
    sheet = sheet_of(CAMPEONATO, 0, Caida(seat=0), Caida(seat=2), NewDeal(), Carton((20, 20), 0))
    assert sheet.streak == (-1, 0, ())  # but not across hands
    with pytest.raises(HallError) as info:
        sheet_of(RIGOR4, 0, *[Caida(seat=s) for s in (0, 2, 0, 2)]).tap(CuatroCaidas(0))
    assert info.value.code == "hall_cuatro_caidas_off"


def test_two_players_deal_four_times_a_hand() -> None:
    sheet = HallSheet(Rules.preset("todo_dos"), dealer=1)
    with pytest.raises(HallError) as info:
        sheet.tap(Caida(seat=2))
    assert info.value.code == "hall_seat" and info.value.params["last"] == 1
    sheet.tap(Ronda(seat=0))
    sheet.tap(CaidaRonda(seat=1))  # on seat 0's ronda: todo dos 4
    assert sheet.scores == (2, 4)
    for _ in range(3):
        with pytest.raises(HallError):
            sheet.tap(Carton((20, 20), 0))
        sheet.tap(NewDeal())
    with pytest.raises(HallError) as info:
        sheet.tap(NewDeal())
    assert info.value.code == "hall_new_deal_last"
    sheet.tap(Carton((20, 20), 0))
    assert sheet.scores == (8, 10) and sheet.dealer == 0 and sheet.deal == 0


# -- refusals -------------------------------------------------------------------------------------------
def refused(make: Callable[[], Any], code: str) -> HallError:
    with pytest.raises(HallError) as info:
        make()
    error = info.value
    assert error.code == code, error
    assert isinstance(error, CuarentaError) and isinstance(error, ValueError)
    for lang in catalogue.LANGS:
        assert error.text(lang) and "{" not in error.text(lang)
    assert error.text("es") != error.text("en")
    return error


@pytest.mark.parametrize(
    ("make", "code"),
    [
        (lambda: Caida(seat=4), "hall_seat"),
        (lambda: Caida(seat=-1), "hall_seat"),
        (lambda: Ronda(seat=True), "hall_seat"),
        (lambda: Ronda(seat="1"), "hall_seat"),
        (lambda: Limpia(2), "hall_team"),
        (lambda: Misdeal(False), "hall_team"),
        (lambda: CaidaRonda(seat=1, limpia=1), "hall_limpia_flag"),
        (lambda: Carton((20, 19), 0), "hall_carton_total"),
        (lambda: Carton((42, -2), 0), "hall_carton_counts"),
        (lambda: Carton([20, 20], 0), "hall_carton_counts"),
        (lambda: Carton((20, 20, 0), 0), "hall_carton_counts"),
        (lambda: Carton((20, 20), 0.0), "hall_carton_counts"),
        (lambda: HallSheet(CAMPEONATO, dealer=4), "hall_seat"),
        (lambda: HallSheet(Rules(), dealer=2), "hall_seat"),
        (lambda: HallSheet(CAMPEONATO, dealer=0).tap("caida"), "hall_not_an_entry"),
        (lambda: HallSheet(CAMPEONATO, dealer=0).tap(h.Entry()), "hall_not_an_entry"),
        (lambda: HallSheet(CAMPEONATO, dealer=0).tap(Carton((20, 20), 0)), "hall_carton_early"),
        (lambda: sheet_of(CAMPEONATO, 0, NewDeal()).tap(NewDeal()), "hall_new_deal_last"),
        (lambda: HallSheet.tantos_perros(-2), "hall_points"),
    ],
)
def test_bad_entries_are_refused_clearly(make: Callable[[], Any], code: str) -> None:
    refused(make, code)


def test_a_sheet_needs_rules() -> None:
    with pytest.raises(RulesError):
        HallSheet("campeonato", dealer=0)  # type: ignore[arg-type]


def test_a_refused_tap_leaves_the_sheet_unchanged() -> None:
    sheet = two_hands_to_38()
    sheet.tap(Ronda(seat=3))
    before, entries = sheet.snapshot(), sheet.entries
    for entry in (
        Limpia(0),
        Procedure(1),
        Ronda(seat=3),
        Carton((20, 20), 0),
        CaidaRonda(seat=1),
        CuatroCaidas(0),
        Misdeal(1),
    ):
        with pytest.raises(HallError):
            sheet.tap(entry)
        assert sheet.snapshot() == before and sheet.entries == entries


def test_the_sheets_texts_are_in_both_languages() -> None:
    en = {k for k in catalogue.messages("en") if k.startswith("error.hall_")}
    es = {k for k in catalogue.messages("es") if k.startswith("error.hall_")}
    assert en == es and len(en) > 25
    error = refused(lambda: two_hands_to_38().tap(Limpia(0)), "hall_limpia_at_38")
    assert "38 que no juega" in error.text("es") and "solo suma con caída" in error.text("es")


def test_tantos_perros_counts_as_the_texts_do() -> None:
    assert HallSheet.tantos_perros(26) == h.Marks(perros=2, tantos=3)
    assert all(tuple(HallSheet.tantos_perros(p)) == tantos_perros(p) for p in range(0, 202, 2))


# -- dict forms -----------------------------------------------------------------------------------------
seats = st.integers(min_value=0, max_value=3)
teams = st.integers(min_value=0, max_value=1)
cartons = st.tuples(st.integers(0, 40), st.integers(0, 40)).filter(lambda c: sum(c) <= 40)
entries = st.one_of(
    st.builds(Caida, seats),
    st.builds(CaidaLimpia, seats),
    st.builds(CaidaRonda, seats, st.booleans()),
    st.builds(Limpia, teams),
    st.builds(Ronda, seats),
    st.builds(FourOfAKind, seats),
    st.builds(CuatroCaidas, teams),
    cartons.map(lambda c: Carton(c, 40 - sum(c))),
    st.builds(Misdeal, teams),
    st.builds(Procedure, teams),
    st.just(NewDeal()),
    st.builds(h.FirstDealer, seats),
)


@settings(max_examples=examples(200), deadline=None)
@given(entry=entries)
def test_an_entry_reads_back_from_its_dict(entry: h.Entry) -> None:
    data = entry.to_dict()
    assert data["kind"] == entry.kind
    assert h.entry_from_dict(data) == entry
    import json

    assert h.entry_from_dict(json.loads(json.dumps(data))) == entry


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ([], "hall_not_object"),
        ({}, "hall_entry_kind"),
        ({"kind": "parada"}, "hall_entry_kind"),
        ({"kind": "caida"}, "hall_entry_missing"),
        ({"kind": "caida", "seat": 1, "card": "5s"}, "hall_entry_keys"),
        ({"kind": "caida", "seat": 9}, "hall_seat"),
        ({"kind": "carton", "cards": [20, 19], "leftovers": 0}, "hall_carton_total"),
        ({"kind": "carton", "cards": "20 20"}, "hall_carton_counts"),
        ({"kind": "caida_ronda", "seat": 1, "limpia": "yes"}, "hall_limpia_flag"),
    ],
)
def test_a_bad_entry_dict_is_refused_saying_why(data: Any, code: str) -> None:
    error = refused(lambda: h.entry_from_dict(data), "hall_entry_malformed")
    assert error.params["reason"]["code"] == code


def test_the_missing_leftovers_of_a_carton_default_to_0() -> None:
    assert h.entry_from_dict({"kind": "carton", "cards": [25, 15]}) == Carton((25, 15), 0)
    assert h.entry_from_dict({"kind": "caida_ronda", "seat": 2}) == CaidaRonda(2, limpia=False)


def test_a_sheet_reads_back_from_its_dict_and_refuses_a_bad_one() -> None:
    sheet = two_hands_to_38()
    assert HallSheet.from_dict(sheet.to_dict()).snapshot() == sheet.snapshot()
    data = sheet.to_dict()
    assert data["dealer"] == 0 and data["rules"]["preset"] == "campeonato"
    bad = {**data, "entries": [*data["entries"], Limpia(0).to_dict()]}
    error = refused(lambda: HallSheet.from_dict(bad), "hall_sheet_entry")
    assert error.params["number"] == len(bad["entries"])
    refused(lambda: HallSheet.from_dict({**data, "version": 2}), "hall_sheet_format")
    refused(lambda: HallSheet.from_dict({**data, "entries": "all"}), "hall_sheet_malformed")
    refused(lambda: HallSheet.from_dict({**data, "dealer": 7}), "hall_sheet_malformed")
    refused(lambda: HallSheet.from_dict("sheet"), "hall_sheet_malformed")


# -- random taps ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "rules",
    [CAMPEONATO, RIGOR4, Rules.preset("todo_dos", players=4).replace(zapatero_wins_mesa=True), Rules()],
    ids=["campeonato", "a_todo_rigor-4p", "todo_dos-4p-zapatero", "a_todo_rigor-2p"],
)
@settings(max_examples=examples(60), deadline=None)
@given(taps=st.lists(entries, max_size=80), dealer=seats)
def test_random_taps_refused_or_applied_keep_the_sheet_sound(
    rules: Rules, taps: list[h.Entry], dealer: int
) -> None:
    sheet = HallSheet(rules, dealer=dealer % rules.players)
    start = sheet.snapshot()
    states = [start]
    for entry in taps:
        before = sheet.snapshot()
        try:
            scored = sheet.tap(entry)
        except HallError as exc:
            assert sheet.snapshot() == before, exc
            assert exc.text("es") and exc.text("en")
            continue
        states.append(sheet.snapshot())
        assert all(p >= 0 and p % 2 == 0 for p in scored.points)
        assert all(0 <= s < rules.target for s in sheet.scores) or sheet.finished
        assert sum(sheet.chicas) == len(sheet.chica_results) <= 2 * rules.chicas - 1
        assert 0 <= sheet.deal < rules.deals_per_hand and 0 <= sheet.dealer < rules.players
        if scored.chica is not None:
            assert scored.chica == sheet.chica_results[-1]
            assert scored.chica.scores[scored.chica.winner] >= rules.target or scored.chica.reason != "target"
    assert HallSheet.from_dict(sheet.to_dict()).snapshot() == sheet.snapshot()
    while sheet.entries:
        states.pop()
        sheet.undo()
        assert sheet.snapshot() == states[-1]
    assert sheet.snapshot() == start
