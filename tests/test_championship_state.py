"""The championship's state: refusals change nothing, replay gives the live state, the public view keeps the
secret and every seed still to be played, actions round-trip, the judges' decisions and their reviews."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from cuarenta import Rules
from cuarenta.championship import (
    ACTIONS,
    Action,
    ActionError,
    Championship,
    ChampionshipError,
    Decide,
    Register,
    ReplacePlayer,
    Report,
    Review,
    SeedPair,
    Settings,
    SettingsError,
    Start,
    Walkover,
    Withdraw,
    action_from_dict,
    standings,
)
from support.championship import pairings, report, seeded
from support.examples import examples

SECRET = 918273645546372819


def started(count: int = 4, **settings: object) -> Championship:
    champ = seeded(count, secret=SECRET, **settings)
    champ.apply(Start())
    return champ


def first_open(champ: Championship) -> str:
    return next(p.id for p in champ.rounds[-1] if p.is_open)


# -- every refusal is an error with a code, and changes nothing --------------------------------------------
REFUSALS: list[tuple[str, Callable[[], Championship], Action, str]] = [
    ("register after the start", started, Register("Nuevos", ("X", "Y")), "status_running"),
    ("a third player", lambda: seeded(2), Register("Tres", ("X", "Y", "Z")), "players_two"),  # type: ignore[arg-type]
    ("the same player twice", lambda: seeded(2), Register("Dos", ("Xavier", "xavier ")), "players_same"),
    ("a pair name taken", lambda: seeded(2), Register(" a ", ("X", "Y")), "pair_name_taken"),
    ("an empty name", lambda: seeded(2), Register("   ", ("X", "Y")), "name_length"),
    ("a name too long", lambda: seeded(2), Register("x" * 41, ("X", "Y")), "name_length"),
    ("a control character", lambda: seeded(2), Register("Los\x07Ases", ("X", "Y")), "name_control"),
    ("fewer than 2 pairs", lambda: seeded(1), Start(), "too_few_pairs"),
    ("a second start", started, Start(), "status_running"),
    ("a seed taken", lambda: seeded(3), SeedPair("p1", 2), "seed_taken"),
    ("a seed out of range", lambda: seeded(3), SeedPair("p1", 0), "seed_range"),
    ("a seed after the start", started, SeedPair("p1", 9), "status_running"),
    ("an unknown pair", lambda: seeded(3), Withdraw("p9"), "pair_unknown"),
    ("a report before the start", lambda: seeded(3), Report("r1t1", (2, 0), (1, 1)), "status_registering"),
    ("an unknown partida", started, Report("r9t9", (2, 0), (1, 1)), "partida_unknown"),
    ("a report of a bye", lambda: started(3), Report("r1t2", (2, 0), (1, 1)), "partida_bye"),
    ("no winner: 1-1", started, Report("r1t1", (1, 1), (50, 50)), "chicas_no_winner"),
    ("no winner: 2-2", started, Report("r1t1", (2, 2), (50, 50)), "chicas_no_winner"),
    ("chicas beyond the mesa", started, Report("r1t1", (3, 0), (50, 50)), "chicas_no_winner"),
    ("negative points", started, Report("r1t1", (2, 0), (-2, 50)), "points_range"),
    (
        "a walkover to a pair not at the table",
        started,
        Walkover("r1t1", "p2", "no vino", "Juez"),
        "winner_not_in_partida",
    ),
    ("a decision of no kind", started, Decide("r1t1", "expel", "x", "Juez"), "decision_kind"),
    ("a pause of no partida", started, Decide(None, "pause", "x", "Juez"), "decision_needs_partida"),
    ("a resume of a running partida", started, Decide("r1t1", "resume", "x", "Juez"), "cannot_resume"),
    ("an empty reason", started, Decide("r1t1", "pause", " ", "Juez"), "reason_text"),
    ("a review of no decision", started, Review(0, True, "x"), "decision_unknown"),
]


def finished_partida() -> Championship:
    champ = started()
    champ.apply(Report("r1t1", (2, 0), (80, 20)))
    return champ


def reviewed_twice() -> Championship:
    champ = started()
    champ.apply(Decide(None, "note", "la mesa 2 llegó tarde", "Juez"))
    champ.apply(Review(0, False, "correcto"))
    return champ


def closed_round() -> Championship:
    champ = started()
    champ.apply(Walkover("r1t1", "p1", "no se presentó", "Juez"))
    champ.apply(Report("r1t2", (2, 0), (80, 20)))  # round 2 is paired
    return champ


def paused() -> Championship:
    champ = started()
    champ.apply(Decide("r1t1", "pause", "corte de luz", "Juez"))
    return champ


REFUSALS += [
    (
        "a report of a finished partida",
        finished_partida,
        Report("r1t1", (2, 0), (80, 20)),
        "partida_finished",
    ),
    ("a review of a reviewed decision", reviewed_twice, Review(0, True, "otra vez"), "decision_reviewed"),
    (
        "reversing in a closed round",
        closed_round,
        Review(0, True, "el juez se equivocó"),
        "review_round_closed",
    ),
    ("a report of a paused partida", paused, Report("r1t1", (2, 0), (80, 20)), "partida_paused"),
    ("a pause of a paused partida", paused, Decide("r1t1", "pause", "x", "Juez"), "cannot_pause"),
    ("withdrawing twice", lambda: withdrawn(), Withdraw("p1"), "pair_withdrawn"),
    ("a replacement by the partner", started, ReplacePlayer("p1", 0, "A dos"), "players_same"),
    ("a replacement of a third player", started, ReplacePlayer("p1", 2, "Nuevo"), "player_index"),
]


def walkover_then_withdrawal() -> Championship:
    champ = started()
    champ.apply(Walkover("r1t1", "p3", "no se presentó", "Juez"))
    champ.apply(Withdraw("p1"))
    return champ


REFUSALS.append(
    (
        "reversing a walkover of a withdrawn pair",
        walkover_then_withdrawal,
        Review(0, True, "x"),
        "review_pair_withdrawn",
    )
)


def withdrawn() -> Championship:
    champ = seeded(3)
    champ.apply(Withdraw("p1"))
    return champ


@pytest.mark.parametrize(("why", "make", "action", "code"), REFUSALS, ids=[r[0] for r in REFUSALS])
def test_a_refused_action_raises_its_code_and_changes_nothing(
    why: str, make: Callable[[], Championship], action: Action, code: str
) -> None:
    champ = make()
    before, actions = json.dumps(champ.to_public()), len(champ.actions)
    with pytest.raises(ChampionshipError) as caught:
        champ.apply(action)
    assert caught.value.code == code, why
    assert isinstance(caught.value, ValueError)
    assert caught.value.text("es") != caught.value.text("en")  # both languages have the text
    assert json.dumps(champ.to_public()) == before and len(champ.actions) == actions


def test_something_that_is_no_action_is_refused() -> None:
    champ = started()
    with pytest.raises(ActionError):
        champ.apply("start")  # type: ignore[arg-type]


# -- a pair in two partidas of one round: impossible by construction ---------------------------------------
@hsettings(max_examples=examples(25), deadline=None)
@given(st.integers(2, 13), st.sampled_from(["swiss", "knockout", "groups"]), st.integers(0, 2**31))
def test_no_pair_is_in_two_partidas_of_a_round(count: int, fmt: str, seed: int) -> None:
    """Random results and withdrawals in every format: each round seats a pair at most once, a pair
    withdrawn before a round opened is in none of its partidas, and replay gives the same state."""
    champ = seeded(count, secret=seed, seeds=False, format=fmt, group_size=3, advance=1)
    rng = random.Random(seed)
    champ.apply(Start())
    gone_before: dict[int, set[str]] = {1: set()}
    while champ.status == "running":
        partida = rng.choice([p for p in champ.rounds[-1] if p.is_open])
        if rng.random() < 0.1:
            loser = partida.pairs[rng.randrange(2)]
            assert loser is not None
            champ.apply(Withdraw(loser))
        else:
            won = (2, rng.randrange(2)) if rng.random() < 0.5 else (rng.randrange(2), 2)
            champ.apply(Report(partida.id, won, (rng.randrange(120), rng.randrange(120))))
        gone = {p.id for p in champ.pairs if p.withdrawn}
        gone_before.setdefault(champ.current_round, gone)
    for number, round_ in enumerate(champ.rounds, start=1):
        seen = [p for partida in round_ for p in partida.pairs if p is not None]
        assert len(seen) == len(set(seen))
        assert not set(seen) & gone_before.get(number, set())
    assert Championship.replay(champ.settings, seed, champ.actions).to_public() == champ.to_public()
    as_dicts = [a.to_dict() for a in champ.actions]
    assert Championship.replay(champ.settings, seed, as_dicts).to_public() == champ.to_public()


# -- replay, the public view, the actions' round trip ------------------------------------------------------
def a_played_championship() -> Championship:
    champ = started(6)
    champ.apply(ReplacePlayer("p2", 1, "Beto Suplente"))
    champ.apply(Decide("r1t1", "pause", "corte de luz", "Juez Pérez"))
    champ.apply(Decide("r1t1", "resume", "volvió la luz", "Juez Pérez"))
    champ.apply(Walkover("r1t2", "p2", "la pareja no se presentó a tiempo", "Juez Pérez"))
    champ.apply(Decide(None, "note", "buen ambiente", "Juez Pérez"))
    champ.apply(Review(3, False, "conforme"))
    champ.apply(Report("r1t1", (2, 1), (90, 71)))
    return champ


def test_replay_gives_the_live_state() -> None:
    champ = a_played_championship()
    again = Championship.replay(champ.settings, SECRET, [a.to_dict() for a in champ.actions])
    assert again.to_public() == champ.to_public()
    assert again.actions == champ.actions


def test_the_public_view_never_holds_the_secret_nor_a_seed_still_to_be_played() -> None:
    champ = a_played_championship()
    public = champ.to_public()
    text = json.dumps(public)
    assert str(SECRET) not in text and "secret" not in text
    for round_ in champ.rounds:
        for partida in round_:
            shown = next(p for r in public["rounds"] for p in r if p["id"] == partida.id)
            finished = partida.result is not None and not partida.result.walkover and partida.pairs[1]
            assert ("deal_seed" in shown) == bool(finished)
            if not finished and partida.pairs[1] is not None:
                assert str(partida.deal_seed) not in text
    assert public["standings"][0]["pair"] in {p.id for p in champ.pairs}
    json.loads(text)  # JSON-ready


SAMPLE_ACTIONS: list[Action] = [
    Register("Los Ases", ("Ana", "Beto")),
    ReplacePlayer("p1", 1, "Carla"),
    Withdraw("p2"),
    SeedPair("p1", 3),
    SeedPair("p1", None),
    Start(),
    Report("r1t1", (2, 1), (80, 64)),
    Walkover("r1t2", "p3", "no llegó", "Juez"),
    Decide("r1t1", "pause", "corte de luz", "Juez"),
    Decide(None, "note", "todo en orden", "Juez"),
    Review(0, True, "error del juez"),
    Review(1, False, "conforme", by="comité"),
]


@pytest.mark.parametrize("action", SAMPLE_ACTIONS, ids=lambda a: a.kind)
def test_actions_round_trip_through_their_dicts(action: Action) -> None:
    data = action.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert action_from_dict(data) == action
    assert set(ACTIONS) == {a.kind for a in SAMPLE_ACTIONS}


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        {},
        {"kind": "register", "name": "x"},
        {"kind": "register", "name": 3, "players": ["a", "b"]},
        {"kind": "register", "name": "x", "players": "ab"},
        {"kind": "register", "name": "x", "players": ["a", "b"], "colour": "red"},
        {"kind": "report", "partida": "r1t1", "chicas": [2, True], "points": [1, 2]},
        {"kind": "report", "partida": "r1t1", "chicas": [2, 10**9], "points": [1, 2]},
        {"kind": "review", "decision": "0", "reverse": True, "reason": "x"},
        {"kind": "review", "decision": 0, "reverse": 1, "reason": "x"},
        {"kind": "seed_pair", "pair": "p1", "seed": 1.5},
    ],
)
def test_malformed_actions_are_refused_clearly(data: object) -> None:
    with pytest.raises(ActionError) as caught:
        action_from_dict(data)
    assert caught.value.text("es") and str(caught.value)


# -- withdrawals, replacements, the judges and the committee -----------------------------------------------
def test_a_withdrawal_loses_the_running_partida_by_walkover_and_the_pair_is_never_paired_again() -> None:
    champ = started(4)
    assert pairings(champ) == [("A", "C"), ("B", "D")]
    report(champ, "B", "D", (2, 0), (80, 20))
    opened = champ.apply(Withdraw("p1"))
    partida = champ.partida("r1t1")
    assert partida.result is not None and partida.result.walkover and partida.result.winner == "p3"
    assert partida.result.chicas == (0, 2) and partida.result.by == "withdrawal"
    assert [p.id for p in opened] == ["r2t1"]  # the walkover closed round 1
    assert pairings(champ) == [("B", "C"), ("D", None)]  # A is gone: an odd count, D rests
    a = next(s for s in standings(champ) if s.pair == "p1")
    assert a.withdrawn and a.lost == 1


def test_replacing_a_player_keeps_the_pair_and_its_record() -> None:
    champ = started(4)
    report(champ, "A", "C", (2, 0), (80, 20))
    champ.apply(ReplacePlayer("p1", 0, "Zoila"))
    assert champ.pair("p1").players == ("Zoila", "A dos")
    assert standings(champ)[0].pair == "p1" and standings(champ)[0].won == 1


def test_reversing_a_walkover_runs_the_partida_again() -> None:
    champ = started(4)
    champ.apply(Walkover("r1t1", "p3", "no se presentó", "Juez"))
    assert champ.partida("r1t1").status == "finished"
    assert champ.decisions[0].kind == "walkover" and champ.decisions[0].winner == "p3"
    champ.apply(Review(0, True, "sí se presentó: el juez se equivocó de mesa", by="comité"))
    assert champ.partida("r1t1").status == "running" and champ.partida("r1t1").result is None
    decision = champ.decisions[0]
    assert (decision.reversed_by, decision.reviewed_by) == ("comité", "comité")
    report(champ, "A", "C", (2, 1), (80, 70))
    assert champ.partida("r1t1").result.winner == "p1"  # type: ignore[union-attr]


def test_pause_resume_restart_and_reversing_a_pause() -> None:
    champ = started(4)
    champ.apply(Decide("r1t1", "pause", "corte de luz", "Juez"))
    assert champ.partida("r1t1").status == "paused"
    champ.apply(Review(0, True, "no hacía falta"))
    assert champ.partida("r1t1").status == "running"
    champ.apply(Decide("r1t1", "pause", "corte de luz", "Juez"))
    champ.apply(Decide("r1t1", "restart", "se empieza de nuevo", "Juez"))
    assert champ.partida("r1t1").status == "running"
    assert [d.kind for d in champ.decisions] == ["pause", "pause", "restart"]


def test_a_confirmed_decision_cannot_be_reviewed_again_but_a_walkover_of_the_last_round_is_final() -> None:
    champ = started(2)
    champ.apply(Walkover("r1t1", "p1", "no se presentó", "Juez"))
    assert champ.status == "finished"
    with pytest.raises(ChampionshipError) as caught:
        champ.apply(Review(0, True, "tarde"))
    assert caught.value.code == "review_round_closed"
    champ.apply(Review(0, False, "conforme"))
    assert champ.decisions[0].reviewed and champ.decisions[0].reversed_by is None


# -- settings ----------------------------------------------------------------------------------------------
def test_settings_round_trip_and_defaults() -> None:
    settings = Settings(
        "Fiestas de Quito",
        format="groups",
        clock=30,
        venue="hall",
        duplicate=True,
        starts="2025-11-28",
        ends="2025-12-06",
        rules=Rules.preset("todo_dos", players=4),
    )
    assert Settings.from_dict(json.loads(json.dumps(settings.to_dict()))) == settings
    assert Settings("x").rules == Rules.preset("campeonato") and Settings("x").rules.chicas == 2
    rated = Settings("x", rated=True, rules=Rules.preset("a_todo_rigor", players=4))
    assert Settings.from_dict(rated.to_dict()) == rated and not Settings("x").rated


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ({"name": "x", "colour": 1}, "unknown_settings"),
        ({}, "setting_missing"),
        ({"name": ""}, "setting_invalid"),
        ({"name": "x", "format": "league"}, "setting_choice"),
        ({"name": "x", "venue": "beach"}, "setting_choice"),
        ({"name": "x", "rounds": 0}, "setting_range"),
        ({"name": "x", "rounds": "3"}, "setting_type"),
        ({"name": "x", "rounds": True}, "setting_type"),
        ({"name": "x", "group_size": 3, "advance": 4}, "advance_range"),
        ({"name": "x", "duplicate": "yes"}, "setting_type"),
        ({"name": "x", "rated": 1}, "setting_type"),
        ({"name": "x", "rated": True, "venue": "hall"}, "rated_venue"),
        (
            {"name": "x", "rated": True, "rules": {"preset": "campeonato", "players": 4, "target": 30}},
            "rated_rules",
        ),
        ({"name": "x", "starts": "28/11/2025"}, "setting_date"),
        ({"name": "x", "starts": "2025-12-02", "ends": "2025-12-01"}, "dates_order"),
        ({"name": "x", "rules": {"preset": "basico"}}, "rules_pairs"),
        ({"name": "x", "rules": {"preset": "nada"}}, "setting_invalid"),
        ("x", "settings_not_object"),
    ],
)
def test_bad_settings_are_refused_clearly(data: object, code: str) -> None:
    with pytest.raises(SettingsError) as caught:
        Settings.from_dict(data)
    assert caught.value.code == code
    assert caught.value.text("es") != str(caught.value)


def test_groups_refuse_to_start_when_a_group_is_smaller_than_advance() -> None:
    champ = seeded(5, format="groups", group_size=4, advance=3)  # groups of 3 and 2
    with pytest.raises(ChampionshipError) as caught:
        champ.apply(Start())
    assert caught.value.code == "advance_group" and champ.status == "registering"


DETERMINISM_SCRIPT = r"""
import hashlib, json
from cuarenta.championship import Championship, Register, Report, Settings, Start
out = []
for n, fmt in ((9, "swiss"), (16, "swiss"), (13, "groups"), (11, "knockout")):
    rounds = 5 if fmt == "swiss" else None
    champ = Championship.new(Settings("x", format=fmt, rounds=rounds, group_size=3), secret=n)
    for i in range(n):
        champ.apply(Register(f"P{i}", (f"a{i}", f"b{i}")))
    champ.apply(Start())
    while champ.status == "running":  # the same result everywhere: many ties for the matching to break
        champ.apply(Report(next(p for p in champ.rounds[-1] if p.is_open).id, (2, 0), (80, 40)))
    out.append(json.dumps(champ.to_public(), sort_keys=True))
print(hashlib.sha256("".join(out).encode()).hexdigest())
"""


def test_a_replay_in_another_process_pairs_the_same_whatever_the_hash_seed() -> None:
    """A server that restarts replays the actions in a new process, whose string hashes differ: the
    pairings (networkx's matching on ties included) must not depend on them."""
    src = str(Path(__file__).resolve().parents[1] / "src")
    digests = set()
    for seed in ("0", "1", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": src}
        result = subprocess.run(
            [sys.executable, "-c", DETERMINISM_SCRIPT], capture_output=True, text=True, env=env, timeout=120
        )
        assert result.returncode == 0, result.stderr
        digests.add(result.stdout.strip())
    assert len(digests) == 1
