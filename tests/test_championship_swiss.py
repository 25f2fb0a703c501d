"""Swiss championships: worked examples computed by hand, and properties over random championships."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from cuarenta.championship import Championship, Register, Report, Settings, Start, standings
from support.championship import pairings, report, seeded
from support.examples import examples


def table(champ: Championship) -> list[tuple[object, ...]]:
    return [
        (s.rank, s.name, s.won, s.chicas_for - s.chicas_against, s.points_for - s.points_against, s.buchholz)
        for s in standings(champ)
    ]


def test_a_swiss_of_8_pairs_over_3_rounds_worked_by_hand() -> None:
    champ = seeded(8)
    assert champ.status == "registering"
    champ.apply(Start())
    assert champ.total_rounds == 3  # ceil(log2(8))
    # round 1 by seed: 1 v 5, 2 v 6, 3 v 7, 4 v 8
    assert pairings(champ) == [("A", "E"), ("B", "F"), ("C", "G"), ("D", "H")]
    report(champ, "A", "E", (2, 0), (80, 30))
    report(champ, "B", "F", (2, 1), (95, 70))
    report(champ, "C", "G", (1, 2), (60, 90))
    report(champ, "D", "H", (0, 2), (20, 80))
    # after round 1 (won, chicas diff, points diff): H 1 +2 +60, A 1 +2 +50, G 1 +1 +30, B 1 +1 +25,
    # F 0 -1 -25, C 0 -1 -30, E 0 -2 -50, D 0 -2 -60. Score groups {H A G B} and {F C E D}; within each,
    # neighbours meet (1 v 2, 3 v 4: rank distances² 1+1 beat 4+4 and 9+1); none of them met in round 1.
    assert champ.current_round == 2
    assert pairings(champ) == [("H", "A"), ("G", "B"), ("F", "C"), ("E", "D")]
    report(champ, "H", "A", (1, 2), (70, 85))
    report(champ, "G", "B", (2, 0), (90, 40))
    report(champ, "F", "C", (2, 1), (75, 65))
    report(champ, "E", "D", (0, 2), (35, 80))
    # after round 2: G 2 +3 +80, A 2 +3 +65 | H 1 +1 +45, D 1 0 -15, F 1 0 -15, B 1 -1 -25 | C 0 -2 -40,
    # E 0 -4 -95. D and F are equal up to Buchholz (D met H 1 + E 0 = 1, F met B 1 + C 0 = 1): D's seed 4
    # beats F's 6. Buchholz: G C0+B1, A E0+H1, H D1+A2, B F1+G2.
    assert table(champ)[:6] == [
        (1, "G", 2, 3, 80, 1),
        (2, "A", 2, 3, 65, 1),
        (3, "H", 1, 1, 45, 3),
        (4, "D", 1, 0, -15, 1),
        (5, "F", 1, 0, -15, 1),
        (6, "B", 1, -1, -25, 3),
    ]
    # round 3: G v A (not met); in {H D F B} H v D is a rematch (round 1): H v F + D v B (4+4) beats
    # H v B + D v F (9+1); C v E.
    assert pairings(champ) == [("G", "A"), ("H", "F"), ("D", "B"), ("C", "E")]
    report(champ, "G", "A", (2, 1), (88, 77))
    report(champ, "H", "F", (2, 0), (85, 40))
    report(champ, "D", "B", (1, 2), (60, 92))
    report(champ, "C", "E", (2, 0), (82, 25))
    assert champ.status == "finished"
    # final: wins G3 A2 H2 B2 C1 D1 F1 E0; Buchholz = the wins of the three opponents met:
    # G: C1+B2+A2=5, H: D1+A2+F1=4, A: E0+H2+G3=5, B: F1+G3+D1=5, C: G3+F1+E0=4, D: H2+E0+B2=4,
    # F: B2+C1+H2=5, E: A2+D1+C1=4
    assert table(champ) == [
        (1, "G", 3, 4, 91, 5),
        (2, "H", 2, 3, 90, 4),
        (3, "A", 2, 2, 54, 5),
        (4, "B", 2, 0, 7, 5),
        (5, "C", 1, 0, 17, 4),
        (6, "D", 1, -1, -47, 4),
        (7, "F", 1, -2, -60, 5),
        (8, "E", 0, -6, -152, 4),
    ]
    line = standings(champ)[0]
    assert (line.played, line.lost, line.byes, line.chicas_for, line.chicas_against) == (3, 0, 0, 6, 2)
    assert (line.points_for, line.points_against) == (268, 177)


def test_buchholz_breaks_a_tie_before_the_seed() -> None:
    """4 pairs, 2 rounds. Round 1: A v C, B v D; A and D win 2-1, 80-70. Round 2: A v D and B v C (A and D
    equal up to the seed), A and B win 2-1, 80-70. D and B are then equal (1 win, 0, 0): Buchholz D = B 1 +
    A 2 = 3, B = D 1 + C 0 = 1, so D (seed 4) is above B (seed 2)."""
    champ = seeded(4)
    champ.apply(Start())
    assert pairings(champ) == [("A", "C"), ("B", "D")]
    report(champ, "A", "C", (2, 1), (80, 70))
    report(champ, "B", "D", (1, 2), (70, 80))
    assert pairings(champ) == [("A", "D"), ("B", "C")]
    report(champ, "A", "D", (2, 1), (80, 70))
    report(champ, "B", "C", (2, 1), (80, 70))
    assert table(champ) == [
        (1, "A", 2, 2, 20, 1),  # met C 0 + D 1
        (2, "D", 1, 0, 0, 3),  # met B 1 + A 2
        (3, "B", 1, 0, 0, 1),  # met D 1 + C 0
        (4, "C", 0, -2, -20, 3),  # met A 2 + B 1
    ]


def test_a_swiss_of_7_pairs_gives_the_bye_to_the_lowest_ranked_pair_without_one() -> None:
    champ = seeded(7)
    champ.apply(Start())
    # round 1: the 7th seed rests; 1 v 4, 2 v 5, 3 v 6
    assert pairings(champ) == [("A", "D"), ("B", "E"), ("C", "F"), ("G", None)]
    bye = champ.rounds[0][-1]
    assert bye.status == "bye" and bye.result is not None
    assert (bye.result.chicas, bye.result.points, bye.result.walkover) == ((2, 0), (0, 0), False)
    for first, second in (("A", "D"), ("B", "E"), ("C", "F")):
        report(champ, first, second, (2, 0), (80, 40))
    # ranking: A B C (1 win, +2, +40), G (1 win by the bye: +2, 0), D E F (0, -2, -40). F is the lowest
    # ranked without a bye: it rests; A v B, C v G, D v E.
    assert pairings(champ) == [("A", "B"), ("C", "G"), ("D", "E"), ("F", None)]
    g = next(s for s in standings(champ) if s.name == "G")
    assert (g.played, g.won, g.byes, g.chicas_for, g.buchholz) == (1, 1, 1, 2, 0)


def play_random(champ: Championship, rng: random.Random) -> None:
    chicas = champ.settings.rules.chicas
    opened = champ.apply(Start())
    while opened or champ.status == "running":
        if not opened:
            opened = [p for p in champ.rounds[-1] if p.is_open]
        partida = opened.pop(0)
        loser = rng.randrange(chicas)
        won = (chicas, loser) if rng.random() < 0.5 else (loser, chicas)
        more = champ.apply(Report(partida.id, won, (rng.randrange(200), rng.randrange(200))))
        if more:
            opened = more


@settings(max_examples=examples(40), deadline=None)
@given(st.integers(4, 16), st.integers(0, 2**32), st.sampled_from([1, 2, 3]))
def test_random_swiss_championships_never_rematch_and_seat_every_pair_once_a_round(
    count: int, seed: int, chicas: int
) -> None:
    rules = Settings("x").rules.replace(chicas=chicas)
    champ = Championship.new(Settings("Copa", rules=rules), secret=seed)
    for i in range(count):
        champ.apply(Register(f"Pareja {i}", (f"J{i}a", f"J{i}b")))
    play_random(champ, random.Random(seed))
    assert champ.status == "finished"
    assert champ.current_round == champ.total_rounds
    met: set[frozenset[str]] = set()
    byes: list[str] = []
    everyone = {p.id for p in champ.pairs}
    for round_ in champ.rounds:
        seen = [p for partida in round_ for p in partida.pairs if p is not None]
        assert sorted(seen) == sorted(everyone)  # every active pair once a round
        for partida in round_:
            first, second = partida.pairs
            if second is None:
                byes.append(first)
                continue
            assert frozenset((first, second)) not in met, "a rematch"
            met.add(frozenset((first, second)))
    assert len(byes) == len(set(byes)) == (champ.current_round if count % 2 else 0)
    ranks = [s.rank for s in standings(champ)]
    assert ranks == list(range(1, count + 1))


def test_more_rounds_than_the_pairs_allow_make_the_fewest_rematches() -> None:
    """4 pairs meet each other once in 3 rounds (K4 is three perfect matchings); a 4th round must repeat
    2 partidas, and the matching repeats no more than that rather than fail."""
    champ = seeded(4, rounds=4)
    champ.apply(Start())
    met: list[frozenset[str]] = []
    while champ.status == "running":
        round_ = list(champ.rounds[-1])
        met += [frozenset(p.pairs) for p in round_]  # type: ignore[arg-type]
        for partida in round_:
            champ.apply(Report(partida.id, (2, 0), (80, 40)))
    assert champ.current_round == 4
    assert len(set(met[:6])) == 6  # the first three rounds: everyone once
    assert len(set(met)) == 6  # the fourth: two rematches, unavoidable
