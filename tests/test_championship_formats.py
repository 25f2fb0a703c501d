"""Knockout with byes, groups and a knockout, duplicate deals: worked examples written out by hand."""

from __future__ import annotations

from cuarenta.championship import Championship, Report, Start, duplicate_comparison, standings
from cuarenta.championship.formats import bracket_order, knockout_slots, round_robin, snake_groups
from support.championship import pairings, report, seeded


def names(champ: Championship) -> list[str]:
    return [s.name for s in standings(champ)]


def test_the_bracket_puts_1_and_2_in_different_halves() -> None:
    assert bracket_order(2) == [1, 2]
    assert bracket_order(4) == [1, 4, 2, 3]
    assert bracket_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]
    assert knockout_slots(["a", "b", "c"]) == ["a", None, "b", "c"]


def test_a_knockout_of_6_pairs_gives_the_top_two_seeds_a_bye() -> None:
    champ = seeded(6, format="knockout")
    opened = champ.apply(Start())
    # a bracket of 8: (1 v 8) (4 v 5) (2 v 7) (3 v 6); seeds 7 and 8 do not exist: 1 and 2 rest
    assert pairings(champ) == [("D", "E"), ("C", "F"), ("A", None), ("B", None)]
    assert [p.id for p in opened] == ["r1t1", "r1t2"]  # the byes are not opened
    report(champ, "D", "E", (1, 2), (60, 85))
    report(champ, "C", "F", (2, 0), (80, 30))
    # winners in bracket order: A (bye), E, B (bye), C
    assert pairings(champ) == [("A", "E"), ("B", "C")]
    report(champ, "A", "E", (2, 0), (80, 20))
    report(champ, "B", "C", (1, 2), (70, 75))
    assert pairings(champ) == [("A", "C")]
    report(champ, "A", "C", (1, 2), (66, 88))
    assert champ.status == "finished" and champ.champion == "p3"
    # the round reached first: C champion (4), A finalist (3), the semi-finalists B and E (2): B has won
    # its bye 2-0 and lost 1-2 (+1), E won 2-1 and lost 0-2 (-1); the first-round losers D (-1) and F (-2)
    assert names(champ) == ["C", "A", "B", "E", "D", "F"]
    assert [s.reached for s in standings(champ)] == [4, 3, 2, 2, 1, 1]


def test_a_knockout_of_8_pairs_where_the_favourites_win() -> None:
    champ = seeded(8, format="knockout")
    champ.apply(Start())
    assert pairings(champ) == [("A", "H"), ("D", "E"), ("B", "G"), ("C", "F")]
    for first, second in pairings(champ):
        report(champ, first, second, (2, 0), (80, 40))  # type: ignore[arg-type]
    assert pairings(champ) == [("A", "D"), ("B", "C")]
    for first, second in pairings(champ):
        report(champ, first, second, (2, 1), (80, 70))  # type: ignore[arg-type]
    assert pairings(champ) == [("A", "B")]  # 1 and 2 meet in the final only
    report(champ, "A", "B", (2, 1), (90, 85))
    assert names(champ)[:2] == ["A", "B"] and champ.status == "finished"


def test_snake_groups_and_the_circle_method() -> None:
    assert snake_groups([str(i) for i in range(1, 10)], 3) == [
        ["1", "6", "7"],
        ["2", "5", "8"],
        ["3", "4", "9"],
    ]
    # a group of 4: one pair fixed, the others turning; each pair meets each other once
    assert round_robin(["1", "4", "5", "8"]) == [
        [("1", "8"), ("4", "5")],
        [("1", "5"), ("8", "4")],
        [("1", "4"), ("5", "8")],
    ]


def test_groups_of_4_then_a_knockout_with_crossover_seeding() -> None:
    champ = seeded(8, format="groups", group_size=4, advance=2)
    champ.apply(Start())
    assert champ.groups == [["p1", "p4", "p5", "p8"], ["p2", "p3", "p6", "p7"]]  # snake: A D E H | B C F G
    expected = [
        [("A", "H"), ("D", "E"), ("B", "G"), ("C", "F")],
        [("A", "E"), ("H", "D"), ("B", "F"), ("G", "C")],
        [("A", "D"), ("E", "H"), ("B", "C"), ("F", "G")],
    ]
    seed = {name: i for i, name in enumerate("ABCDEFGH")}
    for round_ in expected:
        assert pairings(champ) == round_
        for first, second in round_:  # the better seed wins 2-0, 80-40
            won = seed[first] < seed[second]
            report(champ, first, second, (2, 0) if won else (0, 2), (80, 40) if won else (40, 80))
    # group 1: A 3 wins, D 2, E 1, H 0; group 2: B 3, C 2, F 1, G 0. Crossover: A1 v B2, B1 v A2
    assert champ.knockout_from == 4
    assert pairings(champ) == [("A", "C"), ("B", "D")]
    report(champ, "A", "C", (1, 2), (70, 80))
    report(champ, "B", "D", (2, 0), (80, 40))
    assert pairings(champ) == [("C", "B")]
    report(champ, "C", "B", (0, 2), (40, 80))
    assert champ.status == "finished" and champ.champion == "p2"
    # B champion, C finalist, the semi-finalists A (3 wins) and D (2); then the groups' others: E and F
    # (1 win, -2 chicas, -40 points each: E's seed first), G and H (0 wins: G's seed first)
    assert names(champ) == ["B", "C", "A", "D", "E", "F", "G", "H"]


def test_duplicate_deals_share_the_seed_and_swap_the_seats_at_the_twin() -> None:
    champ = seeded(6, duplicate=True)
    champ.apply(Start())
    first, second, third = champ.rounds[0]
    assert (first.pairs, second.pairs, third.pairs) == (("p1", "p4"), ("p2", "p5"), ("p3", "p6"))
    assert first.deal_seed == second.deal_seed == third.deal_seed
    assert (first.twin, second.twin, third.twin) == (2, 1, None)  # an odd table out has no twin
    assert first.seats == ("p1", "p4", "p1", "p4")
    assert second.seats == ("p5", "p2", "p5", "p2")  # the first pair at seats 1 and 3
    assert third.seats == ("p3", "p6", "p3", "p6")
    champ.apply(Report(first.id, (2, 1), (80, 60)))
    public = champ.to_public()["rounds"][0][0]
    assert "deal_seed" not in public  # its twin holds the same cards and is still playing
    champ.apply(Report(second.id, (1, 2), (70, 75)))
    champ.apply(Report(third.id, (2, 0), (80, 10)))
    assert champ.to_public()["rounds"][0][0]["deal_seed"] == first.deal_seed
    # seats 0 and 2 of both tables: A (80 at table 1) and E (75 at table 2); seats 1 and 3: D (60) and B (70)
    assert [c.to_dict() for c in duplicate_comparison(champ)] == [
        {
            "round": 1,
            "tables": [1, 2],
            "seats": "0-2",
            "pairs": ["p1", "p5"],
            "points": [80, 75],
            "difference": 5,
        },
        {
            "round": 1,
            "tables": [1, 2],
            "seats": "1-3",
            "pairs": ["p4", "p2"],
            "points": [60, 70],
            "difference": -10,
        },
    ]
    assert (
        len({p.deal_seed for p in champ.rounds[1]}) == 1 and champ.rounds[1][0].deal_seed != first.deal_seed
    )


def test_without_duplicate_every_table_has_its_own_deal() -> None:
    champ = seeded(6)
    champ.apply(Start())
    assert len({p.deal_seed for p in champ.rounds[0]}) == 3
    assert all(p.twin is None for p in champ.rounds[0]) and duplicate_comparison(champ) == []
