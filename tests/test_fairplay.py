"""Rated play that cannot be farmed cheaply (issue 15; docs/tables.md "What is rated";
``cuarenta.server.ratings.fairplay``): opponents seen on one network are not rated against each other, the
same two opponents are rated at most three times a day, and the leaderboard lists established ratings only.

The attack it answers: two profiles made from one address played three rated mesas against each other and
all counted (one went 3–0 to 1336 and rank 1). Here the same is played through the real app: whole mesas
over its sockets, each person's requests and socket coming from their own client address.
"""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from cuarenta.server.ratings.fairplay import (
    PAIR_MESAS_PER_DAY,
    SHARED_ADDRESS_DAYS,
    note_address,
    unrated_reason,
)
from cuarenta.server.ratings.mesa import rate_mesa
from cuarenta.server.store import Store
from cuarenta.server.store.profiles import create_profile, games_of, leaderboard, ratings_of
from support.addresses import address, profile_from
from support.app import running
from support.spy import Spy, check_all
from support.tables import Seat, new_table, play_out, take_seat

ANA, BETO = "192.0.2.10", "198.51.100.20"
#: a mesa's end "now" (the networks noted by the test are seen now)
NOW = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def rated_mesas(
    client: TestClient, spy: Spy, ana_host: str, beto_host: str, mesas: int
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Ana (from ``ana_host``) and Beto (from ``beto_host``) make profiles, sit at a rated 1 vs 1 table and
    play ``mesas`` whole mesas (rematch between them). Returns the profile pages of both afterwards, and
    Beto's seat (room, seat, token)."""
    ana, beto = profile_from(client, ana_host, "Ana"), profile_from(client, beto_host, "Beto")
    body = {"players": 2, "rules": {"preset": "basico"}, "seats": ["friend"], "rated": True}
    with address(client, ana_host):
        made = new_table(client, **body, profile=ana)
    with address(client, beto_host):
        joined = take_seat(client, made, profile=beto)
    with address(client, ana_host):
        a = Seat(client, spy)
    with address(client, beto_host):
        b = Seat(client, spy)
    with a, b:
        state = a.join(made["room"], made["token"])
        b.join(made["room"], joined["token"])
        for played in range(1, mesas + 1):
            end = play_out([a, b], state["state"])
            if played == mesas:
                break
            a.send({"v": 1, "type": "rematch"})
            b.send({"v": 1, "type": "rematch"})
            state = a.until(lambda m, end=end: m["type"] == "state" and m["mesa"] == end["mesa"] + 1)
    return [client.get(f"/api/profiles/{p['id']}").json() for p in (ana, beto)], joined


def test_two_profiles_from_one_address_are_not_rated_against_each_other(tmp_path: Path, spy: Spy) -> None:
    with running(tmp_path) as client:
        pages, _ = rated_mesas(client, spy, ANA, ANA, mesas=3)
        for page in pages:
            assert page["ratings"]["1v1"]["games"] == 0 and page["ratings"]["1v1"]["rating"] == 1000
            assert [(g["unrated"], g["change"]) for g in page["games"]] == [("shared_address", 0)] * 3
        board = client.get("/api/leaderboard", params={"mode": "1v1"}).json()["players"]
        assert board == []
    check_all(spy)


def test_profiles_from_two_addresses_are_rated_until_one_plays_from_the_others(
    tmp_path: Path, spy: Spy
) -> None:
    with running(tmp_path) as client:
        pages, beto_seat = rated_mesas(client, spy, ANA, BETO, mesas=1)
        for page in pages:
            assert page["ratings"]["1v1"]["games"] == 1 and page["ratings"]["1v1"]["provisional"]
            (game,) = page["games"]
            assert game["unrated"] is None and game["change"] != 0
        store: Store = client.app.state.store  # type: ignore[attr-defined]
        teams = [[pages[0]["id"]], [pages[1]["id"]]]
        assert unrated_reason(store, teams, NOW) is None
        # Beto's seat is then joined from Ana's address: the two profiles share a network from now on
        with address(client, ANA):
            back = Seat(client, spy)
        with back:
            assert back.join(beto_seat["room"], beto_seat["token"])["type"] == "state"
        assert unrated_reason(store, teams, NOW) == "shared_address"
    check_all(spy)


def at_day(day: int, hour: int = 10) -> str:
    return f"2026-12-{day:02d}T{hour:02d}:00:00Z"


def test_the_same_two_opponents_are_rated_three_times_a_day(tmp_path: Path) -> None:
    store = Store.in_dir(tmp_path / "data")
    try:
        ana, beto, carla = (create_profile(store, n)[0].id for n in ("Ana", "Beto", "Carla"))
        for pid, host in ((ana, ANA), (beto, BETO), (carla, "203.0.113.30")):
            note_address(store, pid, host, when=at_day(1))
        for hour in range(10, 10 + PAIR_MESAS_PER_DAY):
            assert unrated_reason(store, [[ana], [beto]], at_day(1, hour)) is None
            rate_mesa(
                store, room=f"r{hour}", mesa=1, finished=at_day(1, hour), teams=[[ana], [beto]], winner=0
            )
        assert unrated_reason(store, [[ana], [beto]], at_day(1, 20)) == "pair_limit"
        assert unrated_reason(store, [[beto], [ana]], at_day(1, 20)) == "pair_limit"  # either side
        assert unrated_reason(store, [[ana], [carla]], at_day(1, 20)) is None  # another opponent
        assert unrated_reason(store, [[ana], [beto]], at_day(2, 11)) is None  # 24 hours after the first
        # 2 vs 2: Ana and Beto as partners are not opponents; as opponents they are limited
        dario = create_profile(store, "Darío")[0].id
        note_address(store, dario, "203.0.113.40", when=at_day(1))
        assert unrated_reason(store, [[ana, beto], [carla, dario]], at_day(1, 20)) is None
        assert unrated_reason(store, [[ana, carla], [beto, dario]], at_day(1, 20)) == "pair_limit"
        # an unrated mesa does not count toward the limit nor move a rating
        before = ratings_of(store, ana)["1v1"]
        changes = rate_mesa(
            store,
            room="u1",
            mesa=1,
            finished=at_day(1, 21),
            teams=[[ana], [beto]],
            winner=0,
            unrated="pair_limit",
        )
        assert changes == {ana: 0, beto: 0} and ratings_of(store, ana)["1v1"] == before
        assert games_of(store, ana)[0].unrated == "pair_limit"
        assert unrated_reason(store, [[ana], [beto]], at_day(2, 11)) is None
    finally:
        store.close()


def test_a_shared_network_counts_for_thirty_days_and_never_for_partners(tmp_path: Path) -> None:
    store = Store.in_dir(tmp_path / "data")
    try:
        ana, beto, carla, dario = (create_profile(store, n)[0].id for n in ("Ana", "Beto", "Carla", "Darío"))
        note_address(store, ana, ANA, when=at_day(1))
        note_address(store, beto, "2001:db8:1:2::7", when=at_day(1))
        note_address(store, carla, "2001:db8:1:2:ffff::1", when=at_day(1))  # Beto's /64
        note_address(store, dario, BETO, when=at_day(1))
        assert unrated_reason(store, [[ana], [beto]], at_day(2)) is None
        assert unrated_reason(store, [[beto], [carla]], at_day(2)) == "shared_address"
        assert unrated_reason(store, [[beto, carla], [ana, dario]], at_day(2)) is None  # partners may share
        later = f"2027-01-{1 + SHARED_ADDRESS_DAYS:02d}T10:00:00Z"  # more than 30 days on
        assert unrated_reason(store, [[beto], [carla]], later) is None
    finally:
        store.close()


def test_the_leaderboard_waits_for_enough_games_against_enough_opponents(tmp_path: Path) -> None:
    store = Store.in_dir(tmp_path / "data")
    try:
        ana, beto, carla, dario = (create_profile(store, n)[0].id for n in ("Ana", "Beto", "Carla", "Darío"))
        # five wins against one opponent: still provisional (one opponent, not three)
        for day in range(1, 6):
            rate_mesa(store, room=f"b{day}", mesa=1, finished=at_day(day), teams=[[ana], [beto]], winner=0)
        assert ratings_of(store, ana)["1v1"].provisional and leaderboard(store, "1v1") == []
        rate_mesa(store, room="c1", mesa=1, finished=at_day(6), teams=[[ana], [carla]], winner=0)
        assert leaderboard(store, "1v1") == []
        rate_mesa(store, room="d1", mesa=1, finished=at_day(7), teams=[[dario], [ana]], winner=1)
        assert [row.name for row in leaderboard(store, "1v1")] == ["Ana"]
        assert ratings_of(store, ana)["1v1"].opponents == 3 and not ratings_of(store, ana)["1v1"].provisional
    finally:
        store.close()
