"""Championships over the real app, continued (docs/championships.md "Running a championship"): a Swiss of
8 computer pairs to its ranking, a knockout with byes, duplicate deals, the hall's score sheet, the
walkover wait, a restart decision, the judge's and the committee's powers, and what a new process picks up
(a table finished but not reported, a restart whose table was not opened, the running championships)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from cuarenta.championship import Championship, Register, Report, SeedPair, Start, standings
from cuarenta.server.authority.errors import TableError
from support.champ_server import (
    app,
    bearer,
    computer_championship,
    in_loop,
    people_championship,
    seed_all,
    start,
    until,
)
from support.spy import Spy, check_all
from support.tables import Seat


def public(client: TestClient, cid: str) -> dict[str, Any]:
    found: dict[str, Any] = client.get(f"/api/championships/{cid}").json()
    return found


def finished(client: TestClient, cid: str) -> dict[str, Any]:
    return until(lambda: (d := public(client, cid))["status"] == "finished" and d)  # type: ignore[no-any-return]


def service(client: TestClient) -> Any:
    return client.app.state.championships  # type: ignore[attr-defined]


def test_a_swiss_of_8_seeded_computer_pairs_from_registration_to_its_ranking(tmp_path: Path) -> None:
    with app(tmp_path) as client:
        made = computer_championship(client, 8, rounds=3)
        cid = made["championship"]
        seed_all(client, made, 8)
        assert start(client, made) == ["r1t1", "r1t2", "r1t3", "r1t4"]
        first = public(client, cid)["rounds"][0]
        # by hand (docs: 8 pairs, 1 v 5, 2 v 6, 3 v 7, 4 v 8)
        assert [p["pairs"] for p in first] == [["p1", "p5"], ["p2", "p6"], ["p3", "p7"], ["p4", "p8"]]
        done = finished(client, cid)
        rounds = done["rounds"]
        assert len(rounds) == 3
        met: set[frozenset[str]] = set()
        for round_ in rounds:
            seen = [p for partida in round_ for p in partida["pairs"]]
            assert sorted(seen) == sorted(f"p{i}" for i in range(1, 9))  # each pair once a round
            for partida in round_:
                met.add(frozenset(partida["pairs"]))
        assert len(met) == 12  # no rematch
        # the library, fed only the stored results, pairs and ranks the same
        loaded = service(client).get(cid)
        champ = Championship.new(loaded.champ.settings, loaded.row.secret)
        for i in range(8):
            champ.apply(Register(f"Pareja {i}", (f"A{i}", f"B{i}")))
            champ.apply(SeedPair(f"p{i + 1}", i + 1))
        champ.apply(Start())
        reports = [a for a in loaded.champ.actions if isinstance(a, Report)]
        assert len(reports) == 12
        for report in reports:
            champ.apply(report)
        assert [[list(p.pairs) for p in r] for r in champ.rounds] == [[p["pairs"] for p in r] for r in rounds]
        assert [s.to_dict() for s in standings(champ)] == done["standings"]
        # the documented tie-breaks, on the rows: won, chicas, points, Buchholz, then the seed
        rows = client.get(f"/api/championships/{cid}/standings.json").json()
        keys = [(-r["won"], -r["chicas"], -r["points"], -r["buchholz"], int(r["pair"][1:])) for r in rows]
        assert keys == sorted(keys) and [r["rank"] for r in rows] == list(range(1, 9))
        assert sum(r["won"] for r in rows) == 12


def test_a_knockout_of_6_pairs_gives_the_top_seeds_byes_and_crowns_the_finals_winner(tmp_path: Path) -> None:
    with app(tmp_path) as client:
        made = computer_championship(client, 6, format="knockout")
        cid = made["championship"]
        seed_all(client, made, 6)
        start(client, made)
        first = public(client, cid)["rounds"][0]
        byes = [p["pairs"][0] for p in first if p["status"] == "bye"]
        played = [p["pairs"] for p in first if p["status"] != "bye"]
        assert sorted(byes) == ["p1", "p2"] and sorted(map(sorted, played)) == [["p3", "p6"], ["p4", "p5"]]
        done = finished(client, cid)
        final = done["rounds"][-1]
        assert len(final) == 1 and len(done["rounds"]) == 3
        assert done["champion"] == final[0]["result"]["winner"]
        assert done["standings"][0]["pair"] == done["champion"]


def test_duplicate_deals_give_twin_tables_the_same_first_deal_by_seat(tmp_path: Path) -> None:
    with app(tmp_path) as client:
        made, _ = people_championship(client, 4, rounds=1, duplicate=True)
        cid = made["championship"]
        start(client, made)
        described = public(client, cid)
        one, two = described["rounds"][0]
        assert (one["twin"], two["twin"]) == (2, 1)
        # at the second table of the twin the first pair sits at seats 1 and 3
        assert two["seats"] == [two["pairs"][1], two["pairs"][0], two["pairs"][1], two["pairs"][0]]
        rooms = service(client).authority
        a = rooms.table(described["tables"]["r1t1"])
        b = rooms.table(described["tables"]["r1t2"])
        assert a.id != b.id and a.seed == b.seed
        for seat in range(4):
            assert a.game.hand(seat) == b.game.hand(seat) and len(a.game.hand(seat)) == 5
        assert a.game.table == b.game.table


def test_a_hall_partida_scored_through_the_api_flows_into_the_standings(tmp_path: Path) -> None:
    with app(tmp_path) as client:
        made, _ = people_championship(client, 2, rounds=1, venue="hall")
        cid = made["championship"]
        start(client, made)
        judge = bearer(made["judge"])
        url = f"/api/championships/{cid}/partidas/r1t1/hall"
        assert client.post(url, json={"entry": {"kind": "caida", "seat": 0}}).status_code == 401
        assert (
            client.post(url, json={"entry": {"kind": "caida", "seat": 0}}, headers=bearer(made["organiser"]))
        ).status_code == 403
        for _ in range(3):
            assert (
                client.post(url, json={"entry": {"kind": "caida", "seat": 0}}, headers=judge).status_code
                == 200
            )
        before = client.get(url, headers=judge).json()
        refused = client.post(
            url, json={"entry": {"kind": "carton", "cards": [20, 19], "leftovers": 0}}, headers=judge
        )
        assert refused.status_code == 400
        assert client.get(url, headers=judge).json() == before
        assert public(client, cid)["rounds"][0][0]["status"] == "running"
        last: dict[str, Any] = before
        while not last["finished"]:
            answer = client.post(url, json={"entry": {"kind": "caida", "seat": 0}}, headers=judge)
            assert answer.status_code == 200, answer.text
            last = answer.json()
        done = public(client, cid)
        partida = done["rounds"][0][0]
        seat0 = partida["seats"][0]
        assert done["status"] == "finished" and done["champion"] == seat0
        result = partida["result"]
        side = partida["pairs"].index(seat0)
        assert (
            result["chicas"][side] == 2 and result["points"][side] == 80 and result["points"][1 - side] == 0
        )
        rows = client.get(f"/api/championships/{cid}/standings.json").json()
        assert rows[0]["pair"] == seat0 and (rows[0]["won"], rows[0]["chicas"], rows[0]["points"]) == (
            1,
            2,
            80,
        )
        late = client.post(url, json={"entry": {"kind": "caida", "seat": 0}}, headers=judge)
        assert late.status_code == 409


def test_the_walkover_wait_gives_it_to_the_seated_pair_or_alerts_the_judge(tmp_path: Path) -> None:
    with app(tmp_path) as client:
        made, tokens = people_championship(client, 4, rounds=1, wait_minutes=1)
        cid = made["championship"]
        start(client, made)
        partidas = public(client, cid)["rounds"][0]
        complete = partidas[0]["pairs"][0]  # sits both players at table 1; nobody sits at table 2
        half = partidas[1]["pairs"][0]  # one player only at table 2
        for pair, players in ((complete, (0, 1)), (half, (0,))):
            for player in players:
                sat = client.post(
                    f"/api/championships/{cid}/sit",
                    json={"player": player},
                    headers=bearer(tokens[int(pair[1:]) - 1]),
                )
                assert sat.status_code == 200, sat.text
        championships = service(client)
        in_loop(client, championships.check_waits)  # not yet: the wait is not over
        assert all(p["status"] == "running" for p in public(client, cid)["rounds"][0])
        championships.wall = lambda: 4102444800.0  # 2100-01-01: every wait is over
        in_loop(client, championships.check_waits)
        one, two = public(client, cid)["rounds"][0]
        assert one["result"]["winner"] == complete and one["result"]["walkover"] is True
        assert two["status"] == "running"
        board = client.get(f"/api/championships/{cid}/board", headers=bearer(made["judge"])).json()
        assert board["tables"][1]["alerts"] == ["walkover_due"]
        assert board["decisions"][0]["kind"] == "walkover" and board["decisions"][0]["by"] == "server"


def test_a_restart_opens_a_fresh_table_with_the_same_deals_and_the_old_one_does_not_report(
    tmp_path: Path,
) -> None:
    with app(tmp_path) as client:
        made = computer_championship(client, 2, rounds=1)
        cid = made["championship"]
        start(client, made)
        rooms = service(client).authority
        old_id = public(client, cid)["tables"]["r1t1"]
        answer = client.post(
            f"/api/championships/{cid}/partidas/r1t1/decisions",
            json={"decision": "restart", "reason": "a card was seen"},
            headers=bearer(made["judge"]),
        )
        assert answer.status_code == 200, answer.text
        new_id = answer.json()["room"]
        assert new_id != old_id and public(client, cid)["tables"]["r1t1"] == new_id
        assert rooms.table(new_id).seed == rooms.table(old_id).seed
        old = rooms.table(old_id)
        stopped = old.state
        assert old.replaced and old.computer_to_move() is None  # the old table stopped at once (issue 25)
        done = finished(client, cid)
        assert rooms.table(old_id).state == stopped  # its computers never moved again: it never reported
        loaded = service(client).get(cid)
        reports = [a for a in loaded.champ.actions if isinstance(a, Report)]
        new = rooms.table(new_id).game
        assert len(reports) == 1 and tuple(new.outcome.chicas) in (reports[0].chicas, reports[0].chicas[::-1])
        assert done["champion"] is not None


def test_only_the_judge_acts_on_partidas_and_the_committee_reverses_a_walkover(tmp_path: Path) -> None:
    with app(tmp_path) as client:
        made, tokens = people_championship(client, 2, rounds=1)
        cid = made["championship"]
        start(client, made)
        url = f"/api/championships/{cid}/partidas/r1t1"
        for token in (tokens[0], made["organiser"]):
            for path, body in (
                ("/walkover", {"winner": "p1", "reason": "x"}),
                ("/decisions", {"decision": "pause", "reason": "x"}),
            ):
                refused = client.post(url + path, json=body, headers=bearer(token))
                assert refused.status_code == 403 and refused.json()["code"] == "bad_championship_token"
        board = f"/api/championships/{cid}/board"
        assert client.get(board, headers=bearer(tokens[0])).status_code == 403
        assert (
            client.get(board, headers=bearer(made["organiser"])).status_code == 200
        )  # docs: judge or organiser
        given = client.post(
            url + "/walkover", json={"winner": "p2", "reason": "p1 late"}, headers=bearer(made["judge"])
        )
        assert given.status_code == 200
        # the round is not closed in a one-round Swiss? it is: the championship is over
        assert public(client, cid)["status"] == "finished"
        review = f"/api/championships/{cid}/decisions/0/review"
        assert (
            client.post(
                review, json={"reverse": True, "reason": "x"}, headers=bearer(made["judge"])
            ).status_code
            == 403
        )
    with app(tmp_path / "two") as client:
        made, tokens = people_championship(client, 4, rounds=2)
        cid = made["championship"]
        start(client, made)
        url = f"/api/championships/{cid}/partidas/r1t1"
        winner = public(client, cid)["rounds"][0][0]["pairs"][0]
        given = client.post(
            url + "/walkover", json={"winner": winner, "reason": "late"}, headers=bearer(made["judge"])
        )
        assert given.status_code == 200
        assert public(client, cid)["rounds"][0][0]["status"] == "finished"
        review = f"/api/championships/{cid}/decisions/0/review"
        reversed_ = client.post(
            review, json={"reverse": True, "reason": "they were there"}, headers=bearer(made["organiser"])
        )
        assert reversed_.status_code == 200, reversed_.text
        partida = public(client, cid)["rounds"][0][0]
        assert partida["status"] == "running" and partida["result"] is None  # the partida runs again
        again = client.post(
            review, json={"reverse": False, "reason": "twice"}, headers=bearer(made["organiser"])
        )
        assert again.status_code == 409


def test_a_new_process_reports_a_table_that_finished_while_its_report_was_not_stored(
    tmp_path: Path, monkeypatch: Any
) -> None:
    with app(tmp_path) as client:
        made = computer_championship(client, 2, rounds=1)
        cid = made["championship"]
        championships = service(client)
        rooms = championships.authority
        # the process "stops" before the report: its tables' policy tells nobody of the finished mesa
        monkeypatch.setattr(championships, "_finished", lambda room, row: None)
        start(client, made)
        room_id = public(client, cid)["tables"]["r1t1"]
        until(lambda: rooms.table(room_id).game.is_over)
        assert public(client, cid)["status"] == "running"
    with app(tmp_path) as client:
        done = public(client, cid)
        assert done["status"] == "finished" and done["rounds"][0][0]["result"]["by"] == "report"


def test_a_restart_whose_table_was_not_opened_gets_one_on_load(tmp_path: Path, monkeypatch: Any) -> None:
    with app(tmp_path) as client:
        made, _ = people_championship(client, 2, rounds=1)
        cid = made["championship"]
        start(client, made)
        old_id = public(client, cid)["tables"]["r1t1"]
        rooms = service(client).authority

        def broken(**_: Any) -> Any:
            raise TableError("store_unavailable", "the table could not be stored")

        monkeypatch.setattr(rooms, "open_partida", broken)
        answer = client.post(
            f"/api/championships/{cid}/partidas/r1t1/decisions",
            json={"decision": "restart", "reason": "a card was seen"},
            headers=bearer(made["judge"]),
        )
        assert answer.status_code == 200 and answer.json()["room"] is None
        assert "r1t1" not in public(client, cid)["tables"]  # the old table is unmapped with the decision
    with app(tmp_path) as client:
        described = public(client, cid)
        new_id = described["tables"]["r1t1"]
        assert new_id != old_id and described["decisions"][0]["kind"] == "restart"
        rooms = service(client).authority
        assert rooms.table(new_id).seed == rooms.table(old_id).seed


def test_the_running_championships_load_at_start_so_their_waits_are_checked(tmp_path: Path) -> None:
    with app(tmp_path) as client:
        made, tokens = people_championship(client, 2, rounds=1, wait_minutes=1)
        cid = made["championship"]
        start(client, made)
        for player in (0, 1):
            client.post(f"/api/championships/{cid}/sit", json={"player": player}, headers=bearer(tokens[0]))
        other = people_championship(client, 2, rounds=1)[0]["championship"]  # registering: no table
    with app(tmp_path) as client:
        championships = service(client)
        assert cid in championships._cache and other not in championships._cache
        championships.wall = lambda: 4102444800.0
        in_loop(client, championships.check_waits)
        done = public(client, cid)
        assert done["status"] == "finished" and done["champion"] == "p1"


def test_a_paused_table_refuses_a_move_and_a_championship_table_refuses_a_rematch(
    tmp_path: Path, spy: Spy
) -> None:
    with app(tmp_path) as client:
        made, (ases,) = people_championship(client, 1, rounds=1)
        cid = made["championship"]
        client.post(
            f"/api/championships/{cid}/pairs",
            json={"name": "Reyes", "players": ["Ca", "Do"], "computer": "facil"},
            headers=bearer(made["organiser"]),
        )
        start(client, made)
        seats = [
            client.post(f"/api/championships/{cid}/sit", json={"player": p}, headers=bearer(ases)).json()
            for p in (0, 1)
        ]
        room = seats[0]["room"]
        with Seat(client, spy) as ana, Seat(client, spy) as beto:
            assert ana.join(room, seats[0]["token"])["status"] == "playing"  # both sat: it started
            beto.join(room, seats[1]["token"])
            paused = client.post(
                f"/api/championships/{cid}/partidas/r1t1/decisions",
                json={"decision": "pause", "reason": "a phone rang"},
                headers=bearer(made["judge"]),
            )
            assert paused.status_code == 200, paused.text
            table = client.app.state.rooms.table(room)  # type: ignore[attr-defined]
            before = (table.game.to_json(), table.state)
            for seat in (ana, beto):
                last = seat.last
                assert last is not None
                move = {"v": 1, "type": "move", "move": last["view"]["hand"][0], "state": table.state}
                assert seat.error(move)["code"] == "paused"
                assert seat.error({"v": 1, "type": "rematch"})["code"] == "championship_table"
            assert (table.game.to_json(), table.state) == before
        check_all(spy)
