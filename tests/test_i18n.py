"""Tests of cuarenta.i18n: the catalogue, names, points, event descriptions, sayings and narration."""

from __future__ import annotations

import dataclasses
import inspect
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cuarenta import PRESET_NAMES, Card, Game, Move, Rules, RulesError
from cuarenta import events as events_module
from cuarenta.events import (
    Caida,
    CaidaLimpia,
    CaidaRonda,
    Carton,
    ChicaWon,
    ClaimMade,
    Deal,
    DealerDraw,
    Event,
    FourOfAKind,
    HandEnd,
    Limpia,
    MesaWon,
    Play,
    Ronda,
    Zapatero,
)
from cuarenta.i18n import (
    CAPARICHE_CARDS,
    LANGS,
    SAYING_KEYS,
    Narrator,
    SayingContext,
    SayingLog,
    SayingTracker,
    card_name,
    describe_event,
    event_name,
    points_text,
    rank_name,
    saying_for,
    saying_gloss,
    saying_keys,
    saying_text,
    saying_words,
    sayings_for,
    score_text,
    seat_names,
    t,
    tantos_perros,
    team_names,
)

C = Card


def all_event_classes() -> list[type[Event]]:
    """Every concrete event class defined in cuarenta.events."""
    return [
        obj
        for _, obj in inspect.getmembers(events_module, inspect.isclass)
        if issubclass(obj, Event) and obj is not Event and obj.__module__ == events_module.__name__
    ]


#: One sample of every event class (a new class in cuarenta.events must be added here).
SAMPLES: dict[type[Event], list[Event]] = {
    DealerDraw: [
        DealerDraw(draws=(((0, C("4d")), (1, C("Kc"))),), dealer=1),
        DealerDraw(draws=(((0, C("Kd")), (1, C("Kc"))), ((0, C("2d")), (1, C("Jc")))), dealer=1),
    ],
    Deal: [Deal(dealer=1, hand=0, deal=0, cut=17), Deal(dealer=0, hand=3, deal=2, cut=None)],
    Ronda: [
        Ronda(seat=0, team=0, rank="5", points=2),
        Ronda(seat=1, team=1, rank="Q", points=0, note="ronda_limit"),
    ],
    FourOfAKind: [
        FourOfAKind(seat=1, team=1, rank="7", points=0, wins_chica=True),
        FourOfAKind(seat=0, team=0, rank="A", points=4, wins_chica=False),
    ],
    Play: [
        Play(seat=0, team=0, move=Move(C("7h"))),
        Play(seat=1, team=1, move=Move.parse("7h x3c+4d,Js")),
        Play(seat=1, team=1, move=Move.parse("5h x5c")),
    ],
    Caida: [
        Caida(seat=1, team=1, card=C("5s"), victim=0, points=2),
        Caida(seat=1, team=1, card=C("5s"), victim=0, points=2, note="ronda_limit"),
    ],
    Limpia: [Limpia(seat=0, team=0, points=2), Limpia(seat=0, team=0, points=0, note="treinta_y_ocho")],
    CaidaLimpia: [
        CaidaLimpia(seat=1, team=1, card=C("Jd"), victim=0, points=4),
        CaidaLimpia(seat=1, team=1, card=C("Jd"), victim=0, points=2, note="treinta_y_ocho"),
    ],
    CaidaRonda: [
        CaidaRonda(seat=1, team=1, card=C("5s"), victim=0, limpia=False, points=10),
        CaidaRonda(seat=1, team=1, card=C("5s"), victim=0, limpia=True, points=12),
    ],
    ClaimMade: [ClaimMade(seat=2, team=0, cards=(C("5s"), C("6h")))],
    HandEnd: [
        HandEnd(leftovers=(C("Qs"), C("2d")), pile_sizes=(18, 20)),
        HandEnd(leftovers=(), pile_sizes=(22, 18)),
    ],
    Carton: [
        Carton(team=0, cards=23, points=10, reason="carton"),
        Carton(team=1, cards=18, points=2, reason="most_cards"),
        Carton(team=1, cards=18, points=2, reason="dos_por_dar"),
        Carton(team=0, cards=15, points=0, reason=None),
        Carton(team=0, cards=24, points=0, reason="carton", note="treinta_y_ocho"),
        Carton(team=1, cards=20, points=8, reason="carton_dos_por_dar"),
    ],
    ChicaWon: [
        ChicaWon(team=0, scores=(40, 26), chica=0, reason="target"),
        ChicaWon(team=1, scores=(12, 24), chica=1, reason="four_of_a_kind"),
        ChicaWon(team=1, scores=(0, 8), chica=0, reason="cuatro_caidas"),
        ChicaWon(team=0, scores=(30, 8), chica=1, reason="zapatero"),
    ],
    Zapatero: [Zapatero(team=1, points=6, platillo=False), Zapatero(team=0, points=0, platillo=True)],
    MesaWon: [
        MesaWon(team=0, chicas=(2, 1), reason="chicas"),
        MesaWon(team=1, chicas=(0, 1), reason="zapatero"),
    ],
}


# -- the catalogue (tests/test_catalogue.py checks the files themselves) -----------------------------
def test_t_fills_placeholders_and_rejects_unknown_language_and_key() -> None:
    assert t("points.for", "es", points=4, team="Equipo A") == "+4 para Equipo A"
    assert t("points.for", "en", points=4, team="Team A") == "+4 for Team A"
    with pytest.raises(ValueError, match="unknown language 'fr'"):
        t("points.for", "fr", points=4, team="x")
    with pytest.raises(KeyError):
        t("no_such_key", "es")


def test_names_of_ranks_suits_cards_and_events() -> None:
    assert rank_name("A", "es") == "as" and rank_name("K", "en") == "king"
    assert rank_name(4, "es", plural=True) == "cincos"
    assert card_name(C("7d"), "es") == "siete de brillo"
    assert card_name(C("Js"), "en") == "jack of spades"
    assert card_name(C("Ac"), "es") == "as de trébol"
    for lang in LANGS:
        names = {event_name(cls.kind, lang) for cls in all_event_classes()}
        assert len(names) == len(all_event_classes()), "every kind has its own name"
    assert event_name("caida_limpia", "es") == "caída y limpia"
    assert event_name("four_of_a_kind", "en") == "four of a kind"


def test_seat_and_team_names() -> None:
    assert seat_names(2) == ["Jugador 1", "Jugador 2"]
    assert seat_names(4, "en")[3] == "Player 4"
    assert team_names(seat_names(2)) == ["Jugador 1", "Jugador 2"]
    assert team_names(["Ana", "Luis"], "en") == ["Ana", "Luis"]
    assert team_names(seat_names(4)) == ["Equipo A", "Equipo B"]
    assert team_names(seat_names(4, "en"), "en") == ["Team A", "Team B"]


# -- points ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("points", "expected"),
    [(0, (0, 0)), (2, (0, 1)), (8, (0, 4)), (10, (1, 0)), (14, (1, 2)), (38, (3, 4)), (40, (4, 0))],
)
def test_tantos_perros_examples(points: int, expected: tuple[int, int]) -> None:
    assert tantos_perros(points) == expected


@given(st.integers(min_value=0, max_value=200).map(lambda n: 2 * n))
def test_tantos_perros_adds_up(points: int) -> None:
    perros, tantos = tantos_perros(points)
    assert 10 * perros + 2 * tantos == points
    assert 0 <= tantos < 5


def test_tantos_perros_rejects_negative_points() -> None:
    with pytest.raises(ValueError, match="negative"):
        tantos_perros(-2)


def test_points_text() -> None:
    assert points_text(14, "es") == "14 = 1 perro y 2 tantos"
    assert points_text(14, "en") == "14 = 1 perro and 2 tantos"
    assert points_text(2, "es") == "2 = 1 tanto"
    assert points_text(20, "es") == "20 = 2 perros"
    assert points_text(0, "es") == "0"
    assert score_text((14, 0), "es", ["Equipo A", "Equipo B"]) == (
        "Marcador: Equipo A 14 = 1 perro y 2 tantos · Equipo B 0"
    )


# -- event descriptions ---------------------------------------------------------------------------
def test_every_event_class_has_samples_here() -> None:
    assert set(SAMPLES) == set(all_event_classes())


@pytest.mark.parametrize("cls", all_event_classes(), ids=lambda c: c.__name__)
def test_every_event_class_is_described_in_both_languages(cls: type[Event]) -> None:
    for event in SAMPLES[cls]:
        seats = 4 if getattr(event, "seat", 0) >= 2 else 2
        texts = {lang: describe_event(event, lang, seat_names(seats, lang)) for lang in LANGS}
        assert texts["es"] != texts["en"]
        for lang, text in texts.items():
            assert text and "{" not in text and "}" not in text
            assert text != t("ev.unknown", lang, kind=event.kind), f"{cls.__name__} has no description"
            seat = getattr(event, "seat", None)
            if isinstance(seat, int):
                assert seat_names(seats, lang)[seat] in text
            points = getattr(event, "points", 0)
            if isinstance(points, int) and points > 0 and not isinstance(event, Zapatero):
                assert f"+{points}" in text


def test_descriptions_say_what_happened() -> None:
    assert (
        describe_event(SAMPLES[Caida][0], "es")
        == "¡Caída! Jugador 2 le cae al 5♠ de Jugador 1: +2 para Jugador 2."
    )
    play = describe_event(SAMPLES[Play][1], "es")
    assert play == "Jugador 2 juega 7♥ y lleva 3♣ + 4♦, y en escalera J♠."
    assert describe_event(SAMPLES[Play][0], "en") == "Player 1 plays 7♥ and takes nothing."
    ronda = describe_event(SAMPLES[Ronda][1], "es")
    assert "no suma" in ronda and "pasado el límite ya no se cobra ronda" in ronda
    limpia = describe_event(SAMPLES[Limpia][1], "en")
    assert "no points" in limpia and "38" in limpia
    assert "40 a 26" in describe_event(SAMPLES[ChicaWon][0], "es")
    assert "platillo" in describe_event(SAMPLES[Zapatero][1], "es")
    assert "Jugador 2" in describe_event(SAMPLES[ClaimMade][0], "es", seat_names(4))  # the seat that forgot
    draw = describe_event(SAMPLES[DealerDraw][1], "es")
    assert "empate" in draw and draw.endswith("Reparte Jugador 2.")


def test_the_new_reasons_of_0_2_have_their_own_sentences() -> None:
    """Dos por dar with exactly 20 cards (6 + 2) and zapatero at 30 (docs/rules.md R23, R25)."""
    carton = describe_event(Carton(team=1, cards=20, points=8, reason="carton_dos_por_dar"), "es")
    assert carton == "Cartón de Jugador 2, que dio: 20 cartas y dos por dar, +8 para Jugador 2."
    chica = describe_event(ChicaWon(team=0, scores=(30, 8), chica=1, reason="zapatero"), "en")
    assert chica == "Player 1 wins chica 2 with 30 against fewer than 10 (30 to 8)!"
    unknown = describe_event(Carton(team=0, cards=15, points=0, reason="no_such_reason"), "es")
    assert unknown == "Jugador 1: 15 cartas, sin puntos de cartón."


def test_teams_are_named_after_the_players_in_a_game_of_two() -> None:
    event = Carton(team=1, cards=23, points=10, reason="carton")
    assert "Luis" in describe_event(event, "es", ["Ana", "Luis"])
    assert "Equipo B" in describe_event(event, "es", seat_names(4))
    assert "Team B" in describe_event(event, "en", seat_names(4, "en"))


def test_describe_event_rejects_non_events_and_unknown_languages() -> None:
    with pytest.raises(TypeError):
        describe_event("caida", "es")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        describe_event(SAMPLES[Limpia][0], "fr")


def test_an_unknown_event_class_gets_a_generic_sentence() -> None:
    @dataclasses.dataclass(frozen=True)
    class Sneeze(Event):
        kind = "sneeze"

    assert describe_event(Sneeze(), "en") == "Event: sneeze."


# -- sayings --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("rank", "key"),
    [
        ("2", "nobleza"),
        ("3", "mosero"),
        ("4", "cuatrero"),
        ("6", "la_muda"),
        ("J", "joto"),
        ("Q", "q_lo_que_caiga"),
    ],
)
@pytest.mark.parametrize("cls", [Caida, CaidaLimpia, CaidaRonda])
def test_a_caida_with_a_named_rank_has_its_saying(rank: str, key: str, cls: type[Event]) -> None:
    card = C(rank + "s")
    if cls is CaidaRonda:
        event: Event = CaidaRonda(seat=1, team=1, card=card, victim=0, limpia=False, points=10)
    else:
        event = cls(seat=1, team=1, card=card, victim=0, points=2)  # type: ignore[call-arg]
    assert saying_keys(event) == [key]


@pytest.mark.parametrize("rank", ["A", "5", "7", "K"])
def test_other_caidas_have_no_rank_saying(rank: str) -> None:
    assert saying_keys(Caida(seat=1, team=1, card=C(rank + "h"), victim=0, points=2)) == []


def test_spanish_sayings_from_seed_000() -> None:
    caida = Caida(seat=1, team=1, card=C("4s"), victim=0, points=2)
    assert saying_for(caida, SayingContext(), "es") == "¡Cuatrero has de ser!"
    assert saying_for(Ronda(seat=0, team=0, rank="5", points=2), None, "es") == "¡Dos por guapo!"
    assert saying_for(Zapatero(team=1, points=6, platillo=False), None, "es") == "¡Zapatero!"
    assert saying_for(Zapatero(team=1, points=0, platillo=True), None, "es") == "¡Platillo!"
    ace = Play(seat=0, team=0, move=Move(C("Ah")))
    assert saying_for(ace, None, "es") == "¡As que no caerás!"


def test_english_sayings_keep_the_spanish_words_with_a_gloss() -> None:
    for key in SAYING_KEYS:
        spanish = saying_words(key)
        assert spanish.startswith("¡") and spanish.endswith("!") and "{" not in spanish
        assert saying_text(key, "es") == spanish
        english = saying_text(key, "en")
        assert english == f"“{spanish}” ({saying_gloss(key, 'en')})", english
        assert len(english) > len(spanish) + 10
        assert saying_gloss(key, "es") != saying_gloss(key, "en")
    # the Spanish gloss is there for whoever asks (the page's tooltips, the rules pages)
    assert saying_text("mosero", "es", gloss=True) == "«¡Mosero!» (caída con un 3)"
    assert saying_text("mosero", "en", gloss=False) == "¡Mosero!"


def test_no_saying_for_a_ronda_that_scores_nothing_or_an_ace_that_captures() -> None:
    assert saying_keys(Ronda(seat=0, team=0, rank="5", points=0, note="ronda_limit")) == []
    assert saying_keys(Play(seat=0, team=0, move=Move.parse("Ah xAs"))) == []
    assert saying_keys(Play(seat=0, team=0, move=Move(C("2h")))) == []
    assert saying_keys(Deal(dealer=0, hand=0, deal=0, cut=3)) == []


def test_voy_llucho_when_dropping_on_a_table_just_cleared() -> None:
    drop = Play(seat=1, team=1, move=Move(C("5h")))
    assert saying_keys(drop, SayingContext(table_cleared=True)) == ["voy_llucho"]
    assert saying_keys(drop, SayingContext()) == []
    ace = Play(seat=1, team=1, move=Move(C("Ah")))
    assert saying_keys(ace, SayingContext(table_cleared=True)) == ["voy_llucho", "as_que_no_caeras"]
    # the tracker: a limpia, then the next seat drops a card; a further drop is no longer "llucho"
    tracker = SayingTracker(Rules())
    tracker.feed(Deal(dealer=0, hand=0, deal=0, cut=None))
    tracker.feed(Play(seat=1, team=1, move=Move.parse("7h x3c+4d")))
    assert tracker.feed(Limpia(seat=1, team=1, points=2)) == ([], True)
    assert tracker.feed(Play(seat=0, team=0, move=Move(C("5h"))))[0] == ["voy_llucho"]
    assert tracker.feed(Play(seat=1, team=1, move=Move(C("6h"))))[0] == []
    # a caída a la ronda y limpia clears the table too; a new hand forgets it
    tracker.feed(CaidaRonda(seat=1, team=1, card=C("6h"), victim=0, limpia=True, points=12))
    tracker.feed(Deal(dealer=1, hand=1, deal=0, cut=None))
    assert tracker.feed(Play(seat=0, team=0, move=Move(C("2h"))))[0] == []


def test_ronda_saying_names_its_points() -> None:
    assert saying_for(Ronda(seat=0, team=0, rank="5", points=4), None, "es") == "¡Cuatro por guapo!"


def test_capariche_needs_many_cards() -> None:
    many = Move.parse("3h x3c,4d,5s,6h,7c")
    assert len(many.taken) == CAPARICHE_CARDS
    few = Move.parse("3h x3c,4d,5s,6h")
    limpia = Limpia(seat=0, team=0, points=2)
    assert saying_keys(limpia, SayingContext(move=many)) == ["capariche"]
    assert saying_keys(limpia, SayingContext(move=few)) == []
    caida = Caida(seat=1, team=1, card=C("3c"), victim=0, points=2)
    assert saying_keys(caida, SayingContext(move=many)) == ["capariche", "mosero"]


def test_treinta_y_ocho_que_no_juega() -> None:
    limpia = Limpia(seat=0, team=0, points=2)
    on = SayingContext(scores=(38, 10), treinta_y_ocho=True)
    assert saying_keys(limpia, on) == ["treinta_y_ocho"]
    assert saying_keys(limpia, dataclasses.replace(on, treinta_y_ocho=False)) == []
    assert saying_keys(limpia, dataclasses.replace(on, scores=(36, 10))) == []
    assert saying_keys(Limpia(seat=1, team=1, points=2), on) == []  # the other team is not at 38
    assert saying_keys(Limpia(seat=0, team=0, points=0, note="treinta_y_ocho"), on) == []
    rules = Rules.preset("a_todo_rigor")
    assert SayingContext.for_rules(rules, scores=(38, 0)).treinta_y_ocho is True
    assert SayingContext.for_rules(Rules.preset("basico"), scores=(38, 0)).treinta_y_ocho is False


def test_marido_tiene_when_the_partner_pays_back_a_caida() -> None:
    # seat 2 fell on seat 1 earlier in the hand; now seat 3, seat 1's partner, falls on seat 2
    payback = Caida(seat=3, team=1, card=C("5s"), victim=2, points=2)
    ctx = SayingContext(players=4, last_caida=(2, 1))
    assert saying_keys(payback, ctx) == ["marido_tiene"]
    assert saying_keys(payback, dataclasses.replace(ctx, last_caida=(2, 3))) == []
    assert saying_keys(payback, dataclasses.replace(ctx, last_caida=(0, 1))) == []
    assert saying_keys(payback, dataclasses.replace(ctx, players=2)) == []


def test_sayings_are_deterministic() -> None:
    event = Caida(seat=1, team=1, card=C("Qs"), victim=0, points=2)
    ctx = SayingContext(move=Move.parse("Qh xQs,Kd"), scores=(0, 38), treinta_y_ocho=True)
    first = sayings_for(event, ctx, "es")
    assert first == ["¡Q lo que caiga!", "¡Treinta y ocho que no juega!"]
    assert all(sayings_for(event, ctx, "es") == first for _ in range(5))


# -- narration over real games --------------------------------------------------------------------
def configs() -> list[tuple[str, int]]:
    out = []
    for preset in PRESET_NAMES:
        for players in (2, 4):
            try:
                Rules.preset(preset, players)
            except RulesError:
                continue
            out.append((preset, players))
    return out


@pytest.mark.parametrize(("preset", "players"), configs())
def test_narrator_keeps_the_engine_score(preset: str, players: int) -> None:
    rules = Rules.preset(preset, players)
    for seed in range(6):
        game = Game.new(rules, seed=seed)
        rng = random.Random(seed)
        narrator = Narrator(rules, "es")
        narrator.narrate(game.events)
        chicas = 0
        while not game.is_over:
            lines = narrator.narrate(game.play(rng.choice(game.legal_moves())))
            for line in lines:
                if isinstance(line.event, ChicaWon):
                    chicas += 1
            won = [line.event for line in lines if isinstance(line.event, ChicaWon)]
            if not won:
                assert narrator.scores == game.score
        assert chicas == sum(game.chicas)


@pytest.mark.parametrize(("preset", "players"), configs())
def test_narrator_score_at_chica_won_is_the_events_score(preset: str, players: int) -> None:
    rules = Rules.preset(preset, players)
    for seed in range(6):
        game = Game.new(rules, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            game.play(rng.choice(game.legal_moves()))
        narrator = Narrator(rules, "en")
        for event in game.events:
            before = narrator.scores
            line = narrator.narrate_one(event)
            if isinstance(event, ChicaWon):
                assert before == event.scores
            if line.scores is not None:
                assert sum(line.scores) == sum(before) + getattr(event, "points", 0)


def test_narration_prints_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    game = Game.new(Rules(), seed=4)
    rng = random.Random(4)
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
    lines = Narrator(Rules(), "es").narrate(game.events)
    assert len(lines) == len(game.events)
    assert capsys.readouterr() == ("", "")


@pytest.mark.parametrize(("preset", "players"), configs())
def test_saying_log_is_the_narrators_choice_computed_once(preset: str, players: int) -> None:
    """The server's log of saying keys (one list per event, built as the game goes on) equals what the
    terminal's narrator says for the same events, and renders to the narrator's texts."""
    rules = Rules.preset(preset, players)
    seen = set()
    for seed in range(4):
        game = Game.new(rules, seed=seed)
        rng = random.Random(seed)
        log = SayingLog()
        log.update(game)
        while not game.is_over:
            game.play(rng.choice(game.legal_moves()))
            if rng.random() < 0.3:
                log.update(game)
        keys = log.update(game)
        assert keys == SayingLog().update(game), "incremental and whole computations agree"
        for lang in LANGS:
            lines = Narrator(rules, lang).narrate(game.events)
            assert [list(line.saying_keys) for line in lines] == keys
            for line in lines:
                points = getattr(line.event, "points", 2)
                points = points if isinstance(points, int) and points > 0 else 2
                assert line.sayings == tuple(saying_text(k, lang, points) for k in line.saying_keys)
        seen.update(k for ks in keys for k in ks)
    assert seen, "random games say something"


def test_saying_log_starts_again_for_another_game() -> None:
    one, two = Game.new(Rules(), seed=1), Game.new(Rules(), seed=2)
    log = SayingLog()
    first = [list(k) for k in log.update(one)]
    assert log.update(two) == SayingLog().update(two)
    assert log.update(one) == first
