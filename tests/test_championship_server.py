"""Championships over the real app (docs/championships.md "Running a championship"): computer pairs play
whole rounds on their own; the standings equal the library's from the same actions; the judge's powers;
a restart of the app on the same data dir; bad input changes nothing."""

from __future__ import annotations

import csv
from pathlib import Path

from cuarenta.championship import Championship, Settings, standings
from support.champ_server import app, bearer, computer_championship, until


def test_a_swiss_of_computer_pairs_plays_to_its_ranking_as_the_library_computes(tmp_path: Path) -> None:
    with app(tmp_path) as client:
        made = computer_championship(client, 4, rounds=2)
        cid = made["championship"]
        assert client.post(f"/api/championships/{cid}/start").status_code == 401
        assert (
            client.post(f"/api/championships/{cid}/start", headers=bearer(made["judge"])).status_code == 403
        )
        started = client.post(f"/api/championships/{cid}/start", headers=bearer(made["organiser"]))
        assert started.json() == {"opened": ["r1t1", "r1t2"]}
        public = client.get(f"/api/championships/{cid}").json()
        assert set(public["tables"]) == {"r1t1", "r1t2"} and "secret" not in str(public).lower()
        done = until(
            lambda: (d := client.get(f"/api/championships/{cid}").json())["status"] == "finished" and d
        )
        # the library, replayed from the stored actions, ranks the same
        service = client.app.state.championships  # type: ignore[attr-defined]
        loaded = service.get(cid)
        again = Championship.replay(loaded.champ.settings, loaded.row.secret, loaded.champ.actions)
        assert [s.to_dict() for s in standings(again)] == done["standings"]
        rows = client.get(f"/api/championships/{cid}/standings.json").json()
        assert [r["rank"] for r in rows] == [1, 2, 3, 4]
        csv = client.get(f"/api/championships/{cid}/standings.csv").text.splitlines()
        assert csv[0] == "rank,pair,players,won,lost,byes,chicas,points,buchholz" and len(csv) == 5
        # round 1 by seed, as the library pairs it
        assert [p["pairs"] for p in done["rounds"][0]] == [list(p.pairs) for p in again.rounds[0]]
        assert isinstance(Settings.from_dict(done["settings"]), Settings)


def test_people_sit_the_judge_pauses_and_the_app_restarts_mid_round(tmp_path: Path) -> None:
    with app(tmp_path) as client:
        made = client.post("/api/championships", json={"name": "Copa", "rounds": 1}).json()
        cid = made["championship"]
        pair = client.post(
            f"/api/championships/{cid}/pairs",
            json={"name": "Ases", "players": ["Ana", "Beto"], "code": made["register"]},
        ).json()
        bad = client.post(
            f"/api/championships/{cid}/pairs", json={"name": "X", "players": ["a", "b"], "code": "nope"}
        )
        assert bad.status_code == 403 and bad.json()["code"] == "bad_championship_token"
        third = client.post(
            f"/api/championships/{cid}/pairs",
            json={"name": "Y", "players": ["a", "b", "c"], "code": made["register"]},
        )
        assert third.status_code == 400
        client.post(
            f"/api/championships/{cid}/pairs",
            json={"name": "Reyes", "players": ["Ca", "Do"], "computer": "facil"},
            headers=bearer(made["organiser"]),
        )
        assert (
            client.post(f"/api/championships/{cid}/start", headers=bearer(made["organiser"])).status_code
            == 200
        )
        mine = client.get(f"/api/championships/{cid}/pair", headers=bearer(pair["token"])).json()
        assert mine["partida"]["id"] == "r1t1" and len(mine["seats"]) == 2 and mine["room"]
        sat = client.post(f"/api/championships/{cid}/sit", json={"player": 0}, headers=bearer(pair["token"]))
        assert sat.status_code == 200 and sat.json()["room"] == mine["room"]
        # a result for a partida not running, a judge action without the token
        wrong = client.post(
            f"/api/championships/{cid}/partidas/r9t9/walkover",
            json={"winner": "p1", "reason": "x"},
            headers=bearer(made["judge"]),
        )
        assert wrong.status_code == 404
        assert (
            client.post(
                f"/api/championships/{cid}/partidas/r1t1/decisions", json={"decision": "pause", "reason": "x"}
            ).status_code
            == 401
        )
        paused = client.post(
            f"/api/championships/{cid}/partidas/r1t1/decisions",
            json={"decision": "pause", "reason": "a phone rang"},
            headers=bearer(made["judge"]),
        )
        assert paused.status_code == 200
        board = client.get(f"/api/championships/{cid}/board", headers=bearer(made["judge"])).json()
        assert board["tables"][0]["paused"] is True
        assert client.app.state.rooms.table(mine["room"]).paused  # type: ignore[attr-defined]
        before = client.get(f"/api/championships/{cid}").json()
    with app(tmp_path) as client:  # a new app on the same data: the same championship, still paused
        after = client.get(f"/api/championships/{cid}").json()
        assert after["rounds"] == before["rounds"] and after["tables"] == before["tables"]
        assert client.app.state.rooms.table(mine["room"]).paused  # type: ignore[attr-defined]
        reviewed = client.post(
            f"/api/championships/{cid}/decisions/0/review",
            json={"reverse": True, "reason": "no reason to pause"},
            headers=bearer(made["organiser"]),
        )
        assert reviewed.status_code == 200, reviewed.text
        assert client.get(f"/api/championships/{cid}").json()["rounds"][0][0]["status"] == "running"
        assert not client.app.state.rooms.table(mine["room"]).paused  # type: ignore[attr-defined]
        given = client.post(
            f"/api/championships/{cid}/partidas/r1t1/walkover",
            json={"winner": "p1", "reason": "the other pair left"},
            headers=bearer(made["judge"]),
        )
        assert given.status_code == 200
        final = client.get(f"/api/championships/{cid}").json()
        assert final["status"] == "finished" and final["champion"] == "p1"
        closed = client.post(
            f"/api/championships/{cid}/decisions/1/review",
            json={"reverse": True, "reason": "late"},
            headers=bearer(made["organiser"]),
        )
        assert closed.status_code == 409 and closed.json()["code"] == "review_round_closed"


def test_the_csv_standings_never_hand_a_spreadsheet_a_formula(tmp_path: Path) -> None:
    with app(tmp_path) as client:
        made = client.post("/api/championships", json={"name": "Copa"}).json()
        cid = made["championship"]
        for name, players in (("=HYPERLINK(1)", ["+Ana", "Beto"]), ("Reyes", ["@Ca", "-Do"])):
            answer = client.post(
                f"/api/championships/{cid}/pairs",
                json={"name": name, "players": players, "code": made["register"]},
            )
            assert answer.status_code == 200, answer.text
        answer = client.get(f"/api/championships/{cid}/standings.csv")
        assert answer.headers["content-type"].startswith("text/csv")
        rows = list(csv.reader(answer.text.splitlines()))[1:]
        assert sorted((r[1], r[2]) for r in rows) == [
            ("'=HYPERLINK(1)", "'+Ana / Beto"),
            ("Reyes", "'@Ca / -Do"),
        ]
        # the JSON keeps the names as they were entered
        names = {r["name"] for r in client.get(f"/api/championships/{cid}/standings.json").json()}
        assert names == {"=HYPERLINK(1)", "Reyes"}
