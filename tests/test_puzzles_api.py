"""``GET /api/puzzles``, ``POST /api/puzzles/{id}/answer`` and ``POST /api/puzzles/{id}/report``
(docs/protocol.md "Puzzles"): a puzzle as its seat sees it, never with its answer; a move tried is told right
or wrong with the answer and the reasons; a solver's first try moves the puzzle's rating and the solver's
(docs/analysis.md "Puzzle ratings"), kept in the store across a restart; reports stored and listed by
``cuarenta puzzle-reports``; bad requests refused clearly with nothing stored; the device host answers the
same with the shipped ratings and no reports.
"""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import sqlalchemy as sa

import cuarenta
from cuarenta.analysis.puzzles import Puzzle, shipped
from cuarenta.device.host import DEVICE_ONLY_COMPUTER, DeviceHost
from cuarenta.moves import parse_action
from cuarenta.server.answers.puzzles import MAX_REASON_CHARS
from cuarenta.server.ratings.puzzles import PuzzleRatings
from cuarenta.server.store import DB_NAME, Store, hash_token
from cuarenta.server.store.schema import (
    puzzle_ratings_table,
    puzzle_reports_table,
    puzzle_solvers_table,
    puzzle_tries_table,
)
from support.app import running
from support.commands import run_cli

ANA = "ana0123456789abcdef0123456789abc"  # a solver id as the page makes one (32 characters)
BETO = "beto_456789abcdef-0123456789abcd"


def wrong_move(puzzle: Puzzle) -> str:
    return next(str(a) for a in puzzle.game().legal_moves() if not puzzle.solves(a))


def tried(client: Any, puzzle: Puzzle, solver: str | None, *, right: bool) -> dict[str, Any]:
    body = {"move": str(puzzle.answer) if right else wrong_move(puzzle)}
    if solver is not None:
        body["solver"] = solver
    answer = client.post(f"/api/puzzles/{puzzle.id}/answer", json=body)
    assert answer.status_code == 200, answer.text
    told: dict[str, Any] = answer.json()
    assert told["right"] is right
    return told


def rows(data_dir: Path, table: sa.Table) -> list[Any]:
    """The rows of ``table`` in the data directory's store, read as another process would."""
    store = Store(data_dir / DB_NAME)
    try:
        with store.engine.connect() as conn:
            return list(conn.execute(sa.select(table)))
    finally:
        store.close()


def test_a_puzzle_is_sent_as_its_seat_sees_it_and_answered_once_tried(tmp_path: Path) -> None:
    puzzles = shipped()
    with running(tmp_path / "data", workers=0) as client:
        first = client.get("/api/puzzles").json()
        assert first["id"] == puzzles[0].id and first["index"] == 0 and first["count"] == len(puzzles)
        assert "answer" not in json.dumps(first) and "values" not in first
        game = puzzles[0].game()
        assert first["seat"] == game.turn and first["hand"] == [str(c) for c in game.hand(game.turn)]
        assert sorted(first["unseen"]) == sorted(
            str(c) for c in game.hand(1 - game.turn)
        )  # counted, not told
        assert [m["move"] for m in first["moves"]] == [str(a) for a in game.legal_moves()]
        assert [p["move"] for p in first["plays"]] == [str(a) for a in game.actions]
        second = client.get("/api/puzzles", params={"after": first["id"]}).json()
        assert second["id"] == puzzles[1].id
        last = client.get("/api/puzzles", params={"after": puzzles[-1].id}).json()
        assert last["id"] == puzzles[0].id  # after the last, the first again
        hard = client.get("/api/puzzles", params={"rating": 1800}).json()
        assert hard["rating"] == 1800
        # a move tried: right (any suit of the answer's ranks) or wrong, with the answer and its reasons
        right = client.post(
            f"/api/puzzles/{first['id']}/answer", json={"move": str(puzzles[0].answer)}
        ).json()
        assert right == {
            "right": True,
            "answer": str(puzzles[0].answer),
            "values": [[str(a), round(v, 4)] for a, v in puzzles[0].values],
            "reasons": list(puzzles[0].reasons),
            # no solver: nothing rated, the puzzle's rating told
            "rated": False,
            "puzzle_rating": {"before": puzzles[0].rating, "after": puzzles[0].rating},
            "solver_rating": None,
        }
        wrong_move = next(m["move"] for m in first["moves"] if not puzzles[0].solves(parse_action(m["move"])))
        wrong = client.post(f"/api/puzzles/{first['id']}/answer", json={"move": wrong_move}).json()
        assert wrong["right"] is False and wrong["answer"] == str(puzzles[0].answer)
        # refused clearly
        refusals: list[tuple[Any, int, str]] = [
            (client.get("/api/puzzles", params={"after": "nope"}), 404, "unknown_puzzle"),
            (client.get("/api/puzzles", params={"rating": -5}), 400, ""),
            (client.post("/api/puzzles/nope/answer", json={"move": "7h"}), 404, "unknown_puzzle"),
            (client.post(f"/api/puzzles/{first['id']}/answer", json={"move": "9z"}), 400, "bad_answer"),
            (client.post(f"/api/puzzles/{first['id']}/answer", json={"card": "7h"}), 400, ""),
        ]
        hand = set(first["hand"])
        outside = next(c for c in ("Ah", "2h", "3h", "4h", "5h", "6h", "7h") if c not in hand)
        refusals.append(
            (client.post(f"/api/puzzles/{first['id']}/answer", json={"move": outside}), 400, "bad_answer")
        )
        for response, status, code in refusals:
            assert response.status_code == status, response.text
            body = response.json()
            assert body["detail"] and (not code or body["code"] == code)


def test_the_device_answers_the_puzzles_as_the_server_does(tmp_path: Path) -> None:
    host = DeviceHost()
    asks = [("GET", "api/puzzles", None), ("GET", "api/puzzles?rating=1500", None)]
    first = shipped()[0]
    with running(tmp_path / "data", workers=0) as client:
        for method, path, _ in asks:
            device = json.loads(host.http(method, path, None, None))
            assert device["status"] == 200 and device["body"] == client.get("/" + path).json()
        body = {"move": str(first.answer)}
        device = json.loads(host.http("POST", f"api/puzzles/{first.id}/answer", json.dumps(body), None))
        assert device["body"] == client.post(f"/api/puzzles/{first.id}/answer", json=body).json()
        refused = json.loads(host.http("GET", "api/puzzles?after=nope", None, None))
        assert refused["status"] == 404 and refused["body"]["code"] == "unknown_puzzle"


def test_a_first_try_moves_both_ratings_and_a_second_moves_nothing(tmp_path: Path) -> None:
    data = tmp_path / "data"
    easy, hard = shipped()[0], next(p for p in shipped() if p.rating == 1800)
    with running(data, workers=0) as client:
        # solved: the puzzle was easier than thought (down), the solver better (up from 1500)
        solved = tried(client, easy, ANA, right=True)
        assert solved["rated"] is True
        assert solved["puzzle_rating"]["before"] == easy.rating > solved["puzzle_rating"]["after"]
        assert solved["solver_rating"] > 1500
        # missed: the puzzle harder (up), the solver worse (down from where Ana stood)
        missed = tried(client, hard, ANA, right=False)
        assert missed["rated"] is True
        assert missed["puzzle_rating"]["before"] == 1800 < missed["puzzle_rating"]["after"]
        assert missed["solver_rating"] < solved["solver_rating"]
        # a second try of the same puzzle by the same solver moves nothing, right or wrong
        for right in (True, False):
            again = tried(client, easy, ANA, right=right)
            assert again["rated"] is False
            after = solved["puzzle_rating"]["after"]
            assert again["puzzle_rating"] == {"before": after, "after": after}
            assert again["solver_rating"] == missed["solver_rating"]
        # another solver's first try moves the puzzle again, from where Ana left it
        beto = tried(client, easy, BETO, right=False)
        assert beto["rated"] is True and beto["puzzle_rating"]["before"] == solved["puzzle_rating"]["after"]
        assert beto["puzzle_rating"]["after"] > beto["puzzle_rating"]["before"]
        assert beto["solver_rating"] < 1500
        # the page is sent the current rating, and a rating asked for picks by the current ratings
        shown = client.get("/api/puzzles", params={"after": shipped()[-1].id}).json()
        assert shown["id"] == easy.id and shown["rating"] == beto["puzzle_rating"]["after"]
        wanted = client.get("/api/puzzles", params={"rating": missed["puzzle_rating"]["after"]}).json()
        assert wanted["id"] == hard.id and wanted["rating"] == missed["puzzle_rating"]["after"]
        # without a solver, nothing is rated; the current rating is told
        anon = tried(client, easy, None, right=True)
        assert anon["rated"] is False and anon["solver_rating"] is None
        assert anon["puzzle_rating"]["after"] == beto["puzzle_rating"]["after"]
    # the store: solvers by their ids' hashes only, one try each of a solver and a puzzle, counts kept
    solvers = {row.solver_hash: row for row in rows(data, puzzle_solvers_table)}
    assert set(solvers) == {hash_token(ANA), hash_token(BETO)}
    assert (solvers[hash_token(ANA)].tries, solvers[hash_token(ANA)].solved) == (2, 1)
    assert len(rows(data, puzzle_tries_table)) == 3
    ratings = {row.puzzle: row for row in rows(data, puzzle_ratings_table)}
    assert set(ratings) == {easy.id, hard.id}
    # a puzzle's "solved" counts the tries it won (Beto's miss)
    assert (ratings[easy.id].tries, ratings[easy.id].solved) == (2, 1)
    # a restart on the same data directory: the ratings are the stored ones
    with running(data, workers=0) as client:
        shown = client.get("/api/puzzles", params={"after": shipped()[-1].id}).json()
        assert shown["rating"] == beto["puzzle_rating"]["after"]
        again = tried(client, easy, ANA, right=False)
        assert again["rated"] is False and again["solver_rating"] == missed["solver_rating"]
        beto_next = tried(client, hard, BETO, right=True)
        assert beto_next["puzzle_rating"]["before"] == missed["puzzle_rating"]["after"]
        assert beto_next["solver_rating"] > beto["solver_rating"]


def test_bad_answers_and_reports_are_refused_with_nothing_stored(tmp_path: Path) -> None:
    data = tmp_path / "data"
    puzzle = shipped()[0]
    url = f"/api/puzzles/{puzzle.id}"
    with running(data, workers=0) as client:
        refusals: list[tuple[str, Any, int, str]] = [
            ("answer", {"move": str(puzzle.answer), "solver": "short"}, 400, "bad_solver"),
            ("answer", {"move": str(puzzle.answer), "solver": "x" * 16 + "!"}, 400, "bad_solver"),
            ("answer", {"move": str(puzzle.answer), "solver": 12345678901234567}, 400, "bad_input"),
            ("answer", {"move": "9z", "solver": ANA}, 400, "bad_answer"),  # the move is checked first
            ("report", {"reason": ""}, 400, "bad_report"),
            ("report", {"reason": " \n\t "}, 400, "bad_report"),
            ("report", {"reason": "x" * (MAX_REASON_CHARS + 1)}, 400, "bad_report"),
            ("report", {"reason": "x" * 10_000}, 400, "bad_input"),  # too long to read at all
            ("report", {"reason": "wrong\u202eanswer"}, 400, "bad_report"),  # an invisible override
            ("report", {"reason": "wrong\x00answer"}, 400, "bad_report"),
            ("report", {"reason": 5}, 400, "bad_input"),
            ("report", {"why": "wrong"}, 400, "bad_input"),
            ("report", {"reason": "wrong", "extra": 1}, 400, "bad_input"),
        ]
        for route, body, status, code in refusals:
            answer = client.post(f"{url}/{route}", json=body)
            assert answer.status_code == status, (body, answer.text)
            assert answer.json()["code"] == code and answer.json()["detail"], answer.text
        unknown = client.post("/api/puzzles/nope/report", json={"reason": "wrong"})
        assert unknown.status_code == 404 and unknown.json()["code"] == "unknown_puzzle"
        answer = client.post(
            f"{url}/report", content=b"not json", headers={"content-type": "application/json"}
        )
        assert answer.status_code == 400
    for table in (puzzle_reports_table, puzzle_solvers_table, puzzle_tries_table, puzzle_ratings_table):
        assert rows(data, table) == [], table.name


def test_reports_are_stored_and_listed_by_the_command(tmp_path: Path) -> None:
    data = tmp_path / "data"
    first, second = shipped()[0], shipped()[1]
    with running(data, workers=0) as client:
        made = [
            client.post(f"/api/puzzles/{first.id}/report", json={"reason": "  La respuesta\n  está mal "}),
            client.post(f"/api/puzzles/{second.id}/report", json={"reason": "x" * MAX_REASON_CHARS}),
        ]
        assert [m.status_code for m in made] == [200, 200]
        assert [m.json() for m in made] == [{"reported": 1}, {"reported": 2}]
    listed = run_cli("puzzle-reports", "--data", str(data))
    assert listed.returncode == 0, listed.stderr
    lines = [line.split("\t") for line in listed.stdout.splitlines()]
    assert [(n, p, r) for n, _, p, r in lines] == [
        ("1", first.id, "La respuesta está mal"),
        ("2", second.id, "x" * MAX_REASON_CHARS),
    ]
    assert "2 report(s)" in listed.stderr
    only = run_cli("puzzle-reports", "--data", str(data), "--puzzle", second.id, "--json")
    assert only.returncode == 0
    assert [json.loads(line)["puzzle"] for line in only.stdout.splitlines()] == [second.id]
    missing = run_cli("puzzle-reports", "--data", str(tmp_path / "nowhere"))
    assert missing.returncode == 1 and "no database" in missing.stderr
    assert not (tmp_path / "nowhere").exists()  # refused, never made


def test_the_page_bounds_a_reason_as_the_server_does() -> None:
    page = Path(cuarenta.__file__).parent / "web" / "static" / "puzzles.js"
    assert f"const MAX_REASON = {MAX_REASON_CHARS};" in page.read_text(encoding="utf-8")


def test_the_device_keeps_the_shipped_ratings_and_refuses_reports() -> None:
    host = DeviceHost()
    puzzle = shipped()[0]
    body = json.dumps({"move": str(puzzle.answer), "solver": ANA})
    for _ in range(2):
        told = json.loads(host.http("POST", f"api/puzzles/{puzzle.id}/answer", body, None))["body"]
        assert told["rated"] is False and told["solver_rating"] is None
        assert told["puzzle_rating"] == {"before": puzzle.rating, "after": puzzle.rating}
    report = json.dumps({"reason": "wrong"})
    refused = json.loads(host.http("POST", f"api/puzzles/{puzzle.id}/report", report, None))
    assert refused["status"] == 404 and refused["body"]["code"] == DEVICE_ONLY_COMPUTER
    assert "server" in refused["body"]["detail"]


def test_tries_at_once_each_count_once(tmp_path: Path) -> None:
    """Many solvers trying one new puzzle at once are each rated; one solver trying it from many requests
    at once is rated once (the store's keys, not luck: each request is its own thread and transaction)."""
    store = Store.in_dir(tmp_path / "data")
    ratings = PuzzleRatings(store)
    try:
        with ThreadPoolExecutor(8) as pool:
            solvers = [f"{i:032d}" for i in range(16)]
            many = list(pool.map(lambda s: ratings.try_puzzle("p1", 1800, s, s.endswith("1")), solvers))
            one = list(pool.map(lambda _: ratings.try_puzzle("p2", 1500, ANA, True), range(8)))
        assert sum(r.rated for r in many) == 16 and sum(r.rated for r in one) == 1
        with store.engine.connect() as conn:
            r = puzzle_ratings_table.c
            rows = {row.puzzle: row.tries for row in conn.execute(sa.select(r.puzzle, r.tries))}
        assert rows == {"p1": 16, "p2": 1}
        assert set(ratings.current()) == {"p1", "p2"}
    finally:
        store.close()
