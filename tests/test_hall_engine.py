"""The hall sheet keeps the engine's score: random engine mesas, each event tapped as the judge would.

Each mesa is played with random legal actions (as tests/test_properties.py plays them); every engine
event becomes the judge's tap (a caída by the seat that made it, a limpia, a ronda, the next deal, the
cartón counts at the hand's end, four caídas in a row), and after every event the points the sheet gave
equal the event's, and after every action the sheet's scores, chicas, chica results, zapateros, hand,
deal, dealer and winner equal the game's. A limpia that gives a pair at 38 nothing is refused by the
sheet (the judge does not tap it): the test checks the refusal and that it changed nothing.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cuarenta import Game, Rules
from cuarenta.championship import hall as h
from cuarenta.events import (
    Caida,
    CaidaLimpia,
    CaidaRonda,
    Carton,
    ChicaWon,
    Deal,
    DealerDraw,
    Event,
    FourOfAKind,
    HandEnd,
    Limpia,
    MesaWon,
    Ronda,
    Zapatero,
)
from support.examples import examples

#: 4 players (pairs): the presets played in pairs and custom tables switching on what no preset uses.
RULESETS = [
    ("campeonato", Rules.preset("campeonato")),
    ("a_todo_rigor-4p", Rules.preset("a_todo_rigor", players=4)),
    ("todo_dos-4p", Rules.preset("todo_dos", players=4)),
    (
        "custom-4p",
        Rules(
            players=4, four_of_a_kind="points", carton_short="dos_por_dar", cuatro_caidas_gana=True,
            target=30, ronda_limit=20, carton_cap=28, chicas=3, zapatero_wins_mesa=True,
            caida_ronda_points=6, caida_across_deals=True,
        ),
    ),
    (
        "custom-4p-manual",
        Rules(
            players=4, capture="manual", sum_cards="two", four_of_a_kind="points", ronda_points=4,
            caida_limpia_points=6, treinta_y_ocho=True, ronda_limit=None, chicas=1, caida_ronda_points=10,
        ),
    ),
    (
        "custom-4p-short",
        Rules(players=4, target=20, ronda_limit=10, ronda_points=4, caida_ronda_points=20, chicas=2),
    ),
    # 2-player rules too: 4 deals per hand, every seat a team
    ("a_todo_rigor-2p", Rules.preset("a_todo_rigor")),
    (
        "custom-2p",
        Rules(
            players=2, four_of_a_kind="points", cuatro_caidas_gana=True, zapatero_wins_mesa=True,
            carton_short="dos_por_dar", target=30, ronda_limit=20,
        ),
    ),
]  # fmt: skip
rulesets = pytest.mark.parametrize("rules", [r for _, r in RULESETS], ids=[i for i, _ in RULESETS])

MAX_PLIES = 6000
#: The seeded loop's mesas: seed 13 deals four of a kind in the first chica of every table above (R17).
SEEDS = range(16)


class Judge:
    """Taps every engine event on a hall sheet and checks what the sheet scored."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.sheet: h.HallSheet | None = None
        self.refused = 0
        self.ronda_limited = 0
        self.taps = 0

    def tap(self, entry: h.Entry) -> h.Scored:
        assert self.sheet is not None
        scored = self.sheet.tap(entry)
        self.taps += 1
        return scored

    def check_points(self, scored: h.Scored, event: Event, team: int) -> None:
        points = event.points  # type: ignore[attr-defined]
        note = event.note  # type: ignore[attr-defined]
        assert scored.points[team] == points, (event, scored)
        assert scored.points[1 - team] == 0, (event, scored)
        assert scored.notes[team] == note, (event, scored)

    def see_scoring(self, event: Event, sheet: h.HallSheet) -> bool:
        """Tap a scoring event of the hand (a ronda, four of a kind, a caída, a limpia) on the sheet and
        check what it scored; False for any other event."""
        if isinstance(event, Ronda):
            self.check_points(self.tap(h.Ronda(event.seat)), event, event.team)
        elif isinstance(event, FourOfAKind):
            scored = self.tap(h.FourOfAKind(event.seat))
            self.check_points(scored, event, event.team)
            assert (scored.chica is not None and scored.chica.reason == "four_of_a_kind") == event.wins_chica
        elif isinstance(event, CaidaRonda):
            self.check_points(self.tap(h.CaidaRonda(event.seat, limpia=event.limpia)), event, event.team)
        elif isinstance(event, Caida | CaidaLimpia) and event.note == "ronda_limit":
            # the judge saw a caída a la ronda; the team is past ronda_limit: an ordinary caída (R19)
            limpia = isinstance(event, CaidaLimpia)
            self.check_points(self.tap(h.CaidaRonda(event.seat, limpia=limpia)), event, event.team)
            self.ronda_limited += 1
        elif isinstance(event, CaidaLimpia):
            self.check_points(self.tap(h.CaidaLimpia(event.seat)), event, event.team)
        elif isinstance(event, Caida):
            self.check_points(self.tap(h.Caida(event.seat)), event, event.team)
        elif isinstance(event, Limpia):
            if event.note == "treinta_y_ocho":
                before = sheet.snapshot()
                with pytest.raises(h.HallError) as info:
                    sheet.tap(h.Limpia(event.team))
                assert info.value.code == "hall_limpia_at_38"
                assert sheet.snapshot() == before
                self.refused += 1
            else:
                self.check_points(self.tap(h.Limpia(event.team)), event, event.team)
        else:
            return False
        return True

    def see_chica_won(self, event: ChicaWon, sheet: h.HallSheet) -> None:
        """A chica won: by cuatro caídas the judge taps it, otherwise the sheet saw it; the result agrees."""
        if event.reason == "cuatro_caidas":
            assert sheet.cuatro_caidas_due == event.team
            scored = self.tap(h.CuatroCaidas(event.team))
            assert scored.chica is not None and scored.chica.reason == "cuatro_caidas"
        else:
            assert sheet.cuatro_caidas_due is None
        result = sheet.chica_results[-1]
        assert (result.winner, result.scores, result.reason) == (
            event.team,
            event.scores,
            event.reason,
        )
        assert len(sheet.chica_results) == event.chica + 1

    def see(self, events: list[Event]) -> None:
        cartons: list[Carton] = []
        carton_scored: h.Scored | None = None
        for event in events:
            if isinstance(event, DealerDraw):
                self.sheet = h.HallSheet(self.game.rules, dealer=event.dealer)
                continue
            sheet = self.sheet
            assert sheet is not None
            if self.see_scoring(event, sheet):
                continue
            if isinstance(event, Deal):
                if event.deal > 0:
                    self.tap(h.NewDeal())
                assert (sheet.hand, sheet.deal, sheet.dealer) == (event.hand, event.deal, event.dealer)
            elif isinstance(event, HandEnd):
                sizes = event.pile_sizes
                carton_scored = self.tap(h.Carton((sizes[0], sizes[1]), len(event.leftovers)))
            elif isinstance(event, Carton):
                cartons.append(event)
                if len(cartons) == 2:
                    assert carton_scored is not None
                    assert carton_scored.points == (cartons[0].points, cartons[1].points)
                    assert carton_scored.notes == (cartons[0].note, cartons[1].note)
            elif isinstance(event, ChicaWon):
                self.see_chica_won(event, sheet)
            elif isinstance(event, Zapatero):
                mark = sheet.zapatero[-1]
                assert (mark.chica, mark.team, mark.points, mark.platillo) == (
                    len(sheet.chica_results) - 1,
                    event.team,
                    event.points,
                    event.platillo,
                )
            elif isinstance(event, MesaWon):
                assert sheet.finished and sheet.winner == event.team
                assert sheet.outcome is not None and sheet.outcome.reason == event.reason

    def check_state(self) -> None:
        game, sheet = self.game, self.sheet
        assert sheet is not None
        assert sheet.scores == game.score
        assert sheet.chicas == game.chicas
        assert sheet.chica_results == game.chica_results
        assert sheet.outcome == game.outcome
        assert sheet.finished == game.is_over
        assert sheet.hand == game.hand_number
        assert sheet.cuatro_caidas_due is None
        if not game.is_over:
            assert (sheet.deal, sheet.dealer) == (game.deal_number, game.dealer)
            assert sorted(sheet.rondas) == sorted({seat for seat, _ in game.rondas})
        zapateros = [r for r in game.chica_results if r.zapatero]
        assert [(z.team, z.points, z.platillo) for z in sheet.zapatero] == [
            (1 - r.winner, r.scores[1 - r.winner], r.platillo) for r in zapateros
        ]


def play_mesa(rules: Rules, seed: int, *, undo_every: int = 0) -> Judge:
    """One random mesa judged on a sheet; with ``undo_every``, now and then undo a few taps and tap them
    again, checking the sheet comes back to exactly the same state."""
    rng = random.Random(seed)
    game = Game.new(rules, seed=seed)
    judge = Judge(game)
    judge.see(list(game.events))
    judge.check_state()
    plies = 0
    while not game.is_over:
        assert plies < MAX_PLIES
        judge.see(game.play(rng.choice(game.legal_moves())))
        judge.check_state()
        plies += 1
        sheet = judge.sheet
        assert sheet is not None
        if undo_every and plies % undo_every == 0 and sheet.entries:
            now = sheet.snapshot()
            back = [sheet.undo() for _ in range(min(len(sheet.entries), rng.randint(1, 4)))]
            for entry in reversed(back):
                sheet.tap(entry)
            assert sheet.snapshot() == now
    assert judge.sheet is not None
    saved = judge.sheet.to_dict()
    assert h.HallSheet.from_dict(saved).snapshot() == judge.sheet.snapshot()
    return judge


@rulesets
@settings(max_examples=examples(8), deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_the_sheet_keeps_the_engines_score(rules: Rules, seed: int) -> None:
    play_mesa(rules, seed)


@rulesets
def test_the_sheet_keeps_the_engines_score_in_many_seeded_mesas(rules: Rules) -> None:
    """A fixed loop of seeds (reproducible in every run), undoing and redoing taps now and then."""
    chica_reasons: set[str] = set()
    for seed in SEEDS:
        judge = play_mesa(rules, seed, undo_every=37)
        assert judge.sheet is not None
        chica_reasons |= {r.reason for r in judge.sheet.chica_results}
    expected = {"target", "four_of_a_kind"} if rules.four_of_a_kind == "wins_chica" else {"target"}
    assert expected <= chica_reasons


def test_the_loops_meet_the_rare_cases() -> None:
    """The seeds above are not all plain: some caída a la ronda, cuatro caídas, a limpia refused at 38."""
    kinds: set[str] = set()
    refused = ronda_limited = 0
    for name in ("campeonato", "custom-4p", "custom-4p-manual", "custom-4p-short"):
        rules = dict(RULESETS)[name]
        for seed in SEEDS:
            judge = play_mesa(rules, seed)
            refused += judge.refused
            ronda_limited += judge.ronda_limited
            kinds |= {e.kind for e in judge.game.events}
            assert judge.sheet is not None
            kinds |= {f"chica:{r.reason}" for r in judge.sheet.chica_results}
    rare = {"caida_ronda", "ronda", "four_of_a_kind", "chica:cuatro_caidas", "chica:four_of_a_kind"}
    assert rare | {"chica:zapatero", "zapatero"} <= kinds, kinds
    assert refused > 0 and ronda_limited > 0
