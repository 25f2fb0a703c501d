"""A rated championship (docs/championships.md "Rated championships"): online, a preset's rules, pairs of
people; each player sits with a profile, and the partida, played to its end at the table, rates them as a
rated table's mesa does (docs/tables.md "What is rated"); a table a restart replaced rates nobody. Each pair
plays from its own address, so that the opponents are not on one network (tests/test_fairplay.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from support.addresses import address, profile_from
from support.app import running
from support.champ_server import app, bearer, people_championship, start, until
from support.spy import Spy, check_all
from support.tables import Seat, play_out

HOSTS = ("192.0.2.10", "198.51.100.20")  #: pair 1's address, pair 2's


def test_a_rated_championship_refuses_the_hall_custom_rules_and_computer_pairs(tmp_path: Path) -> None:
    with app(tmp_path) as client:
        hall = client.post("/api/championships", json={"name": "Copa", "rated": True, "venue": "hall"})
        assert hall.status_code == 400 and "online" in hall.json()["detail"], hall.text
        custom = client.post(
            "/api/championships",
            json={"name": "Copa", "rated": True, "rules": {"preset": "campeonato", "target": 30}},
        )
        assert custom.status_code == 400 and "preset" in custom.json()["detail"], custom.text
        made = client.post("/api/championships", json={"name": "Copa", "rated": True}).json()
        assert client.get(f"/api/championships/{made['championship']}").json()["settings"]["rated"] is True
        bot = client.post(
            f"/api/championships/{made['championship']}/pairs",
            json={"name": "Reyes", "players": ["Ca", "Do"], "computer": "facil"},
            headers=bearer(made["organiser"]),
        )
        assert bot.status_code == 409 and bot.json()["code"] == "rated_computer"
        assert client.get(f"/api/championships/{made['championship']}").json()["pairs"] == []


def test_a_rated_partida_rates_the_profiles_that_sat_and_reports_its_result(tmp_path: Path, spy: Spy) -> None:
    with running(tmp_path, workers=0) as client:  # (the rate limits lifted: the test plays fast)
        made, tokens = people_championship(client, 2, rounds=1, rated=True)
        cid = made["championship"]
        start(client, made)
        profiles = [[profile_from(client, host, f"J{p}{i}") for i in (0, 1)] for p, host in enumerate(HOSTS)]
        sit = f"/api/championships/{cid}/sit"
        with address(client, HOSTS[0]):
            refused = client.post(sit, json={"player": 0}, headers=bearer(tokens[0]))
            assert refused.status_code == 403 and refused.json()["code"] == "profile_required"
            wrong = {**profiles[0][0], "key": profiles[0][1]["key"]}
            bad_key = client.post(sit, json={"player": 0, "profile": wrong}, headers=bearer(tokens[0]))
            assert bad_key.status_code == 403
            first = client.post(sit, json={"player": 0, "profile": profiles[0][0]}, headers=bearer(tokens[0]))
            assert first.status_code == 200, first.text
            twice = client.post(sit, json={"player": 1, "profile": profiles[0][0]}, headers=bearer(tokens[0]))
            assert twice.status_code == 409 and twice.json()["code"] == "profile_seated"
            other = client.post(sit, json={"player": 0, "profile": profiles[0][1]}, headers=bearer(tokens[0]))
            assert other.status_code == 409 and other.json()["code"] == "profile_differs"
        seats = sit_all(client, sit, tokens, profiles)
        # the first sat again (its page opened anew): a new token, the same profile
        assert seats[0]["token"] != first.json()["token"]
        # the judge restarts the partida: its old table stops at once (issue 25: nobody is offered a move
        # there), reports nothing and rates nobody
        restarted = client.post(
            f"/api/championships/{cid}/partidas/r1t1/decisions",
            json={"decision": "restart", "reason": "cartas mal repartidas"},
            headers=bearer(made["judge"]),
        )
        assert restarted.status_code == 200, restarted.text
        with address(client, HOSTS[0]), Seat(client, spy) as ana:
            old = ana.join(seats[0]["room"], seats[0]["token"])
            assert old["table"]["replaced"] is True and old["legal"] == []
        for proof in (p for pair in profiles for p in pair):
            assert client.get(f"/api/profiles/{proof['id']}").json()["games"] == []
        assert client.get(f"/api/championships/{cid}").json()["rounds"][0][0]["status"] == "running"
        seats = sit_all(client, sit, tokens, profiles)  # at the new table
        end = play(client, spy, seats)
        winner_team = end["view"]["outcome"]["winner"]
        # seats 0 and 2 are the first pair's (its players 0 and 1), 1 and 3 the second's
        team_of = {seat["seat"]: seat["seat"] % 2 for seat in seats}
        for seat, proof in zip(
            seats, [profiles[0][0], profiles[0][1], profiles[1][0], profiles[1][1]], strict=True
        ):
            page = client.get(f"/api/profiles/{proof['id']}").json()
            (game,) = page["games"]
            assert game["unrated"] is None and game["won"] == (team_of[seat["seat"]] == winner_team)
            assert (
                page["ratings"]["2v2"]["games"] == 1
                and (page["ratings"]["2v2"]["rating"] > 1000) == game["won"]
            )
        final = until(
            lambda: (d := client.get(f"/api/championships/{cid}").json())["status"] == "finished" and d
        )
        at_seats = final["rounds"][0][0]["seats"]  # the pair at each seat
        assert final["champion"] == at_seats[winner_team]
        check_all(spy)


def sit_all(
    client: TestClient, sit: str, tokens: list[str], profiles: list[list[dict[str, str]]]
) -> list[dict[str, Any]]:
    """Each player sits with their profile, from their pair's address: the seats in that order."""
    seats = []
    for p, host in enumerate(HOSTS):
        with address(client, host):
            for i in (0, 1):
                answer = client.post(
                    sit, json={"player": i, "profile": profiles[p][i]}, headers=bearer(tokens[p])
                )
                assert answer.status_code == 200, answer.text
                seats.append(answer.json())
    return seats


def play(client: TestClient, spy: Spy, seats: list[dict[str, Any]]) -> dict[str, Any]:
    """The four seats' people join from their addresses and play the mesa out: its last state."""
    browsers = []
    for host in HOSTS:
        with address(client, host):
            browsers += [Seat(client, spy), Seat(client, spy)]
    for browser in browsers:
        browser.__enter__()
    try:
        joined = [b.join(s["room"], s["token"]) for b, s in zip(browsers, seats, strict=True)]
        assert joined[0]["status"] == "playing" and joined[0]["table"]["rated"] is True
        # the biggest capture: with 38 que no juega (every rated preset) the first legal move can go on for
        # ever at 38–38 (hand after hand with no caída); captures make the caídas that end it
        return play_out(browsers, joined[0]["state"], choose=lambda legal: max(legal, key=len))
    finally:
        for browser in browsers:
            browser.__exit__(None, None, None)
