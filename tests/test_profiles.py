"""Anonymous profiles, their openskill ratings and the leaderboard (docs/tables.md, "Profiles and ratings"):
the Python API on a real SQLite file, the HTTP API through FastAPI's TestClient, and the migration from a
database of revision 0003."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command
from fastapi.testclient import TestClient

from cuarenta.server import create_app
from cuarenta.server.edge.ratelimits import Limits
from cuarenta.server.ratings.mesa import MODEL, rate_mesa
from cuarenta.server.store import SCHEMA_REVISION, Store, alembic_config, hash_token
from cuarenta.server.store.profilerows import START_MU, START_SIGMA
from cuarenta.server.store.profiles import (
    ProfileProblem,
    check_profile,
    create_profile,
    displayed,
    games_of,
    leaderboard,
    ratings_of,
    rename_profile,
)

WHEN = "2026-12-01T10:00:00Z"


def test_the_store_starts_a_newcomer_where_the_model_does() -> None:
    """The store's start (a profile's rating in a mode it never played) is the rating model's."""
    start = MODEL.rating()
    assert (start.mu, start.sigma) == (START_MU, START_SIGMA)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    opened = Store.in_dir(tmp_path / "data")
    yield opened
    opened.close()


#: the ``client`` fixture's app (tests/conftest.py): the default rate limits, no worker process
pytestmark = pytest.mark.app(workers=0, limits=Limits())


def people(store: Store, *names: str) -> list[str]:
    return [create_profile(store, name)[0].id for name in names]


def at(day: int) -> str:
    return f"2026-12-{day:02d}T10:00:00Z"


# -- profiles ------------------------------------------------------------------------------------------------
def test_a_profile_is_created_checked_and_renamed(store: Store) -> None:
    profile, key = create_profile(store, "  Ana  ")
    assert profile.name == "Ana" and len(profile.id) == 12 and len(key) >= 32
    assert check_profile(store, profile.id, key) == profile
    renamed = rename_profile(store, profile.id, key, "Ana María")
    assert renamed.name == "Ana María" and renamed.id == profile.id
    assert check_profile(store, profile.id, key).name == "Ana María"
    with store.engine.connect() as conn:
        stored = conn.exec_driver_sql("SELECT key_hash FROM profiles").scalar_one()
    assert stored == hash_token(key) and key not in stored  # only the hash is kept
    other, other_key = create_profile(store, "Ana")
    assert other.id != profile.id and other_key != key


def test_a_wrong_key_or_an_unknown_profile_is_refused(store: Store) -> None:
    profile, key = create_profile(store, "Ana")
    with pytest.raises(ProfileProblem) as bad:
        check_profile(store, profile.id, key + "x")
    assert bad.value.code == "bad_key"
    with pytest.raises(ProfileProblem) as unknown:
        check_profile(store, "nobody", key)
    assert unknown.value.code == "unknown_profile"
    with pytest.raises(ProfileProblem):
        rename_profile(store, profile.id, "wrong", "Eva")
    assert check_profile(store, profile.id, key).name == "Ana"


@pytest.mark.parametrize("name", ["", "   ", "x" * 41, "a\x00b", "tab\there"])
def test_bad_names_are_refused(store: Store, name: str) -> None:
    with pytest.raises(ValueError):
        create_profile(store, name)


# -- ratings -------------------------------------------------------------------------------------------------
def test_a_1v1_mesa_moves_the_winner_up_and_the_loser_down_as_openskill_says(store: Store) -> None:
    ana, beto = people(store, "Ana", "Beto")
    changes = rate_mesa(store, room="r1", mesa=1, finished=WHEN, teams=[[ana], [beto]], winner=1)
    assert changes is not None and changes[beto] > 0 > changes[ana]
    [[a], [b]] = MODEL.rate([[MODEL.rating()], [MODEL.rating()]], ranks=[1.0, 0.0])
    ratings = {pid: ratings_of(store, pid)["1v1"] for pid in (ana, beto)}
    assert (ratings[ana].mu, ratings[ana].sigma) == pytest.approx((a.mu, a.sigma))
    assert (ratings[beto].mu, ratings[beto].sigma) == pytest.approx((b.mu, b.sigma))
    assert changes == {ana: displayed(a.mu, a.sigma) - 1000, beto: displayed(b.mu, b.sigma) - 1000}
    assert (ratings[beto].games, ratings[beto].wins, ratings[ana].games, ratings[ana].wins) == (1, 1, 1, 0)
    assert ratings_of(store, ana)["2v2"].games == 0  # another mode, untouched
    assert ratings_of(store, ana)["2v2"].rating == 1000


def test_a_2v2_mesa_rates_both_partners_and_only_in_2v2(store: Store) -> None:
    ana, beto, carla, dario = people(store, "Ana", "Beto", "Carla", "Darío")
    changes = rate_mesa(
        store, room="r1", mesa=1, finished=WHEN, teams=[[ana, carla], [beto, dario]], winner=0
    )
    assert changes is not None and set(changes) == {ana, beto, carla, dario}
    assert changes[ana] > 0 and changes[carla] > 0 and changes[beto] < 0 and changes[dario] < 0
    for pid in (ana, beto, carla, dario):
        assert ratings_of(store, pid)["2v2"].games == 1
        assert ratings_of(store, pid)["1v1"].games == 0
    # a second mesa of the same seats, won by the other pair, moves them back the other way
    again = rate_mesa(store, room="r1", mesa=2, finished=at(2), teams=[[ana, carla], [beto, dario]], winner=1)
    assert again is not None and again[ana] < 0 < again[beto]
    assert ratings_of(store, ana)["2v2"].games == 2 and ratings_of(store, ana)["2v2"].wins == 1


def test_rating_a_mesa_twice_does_nothing(store: Store) -> None:
    ana, beto = people(store, "Ana", "Beto")
    first = rate_mesa(store, room="r1", mesa=1, finished=WHEN, teams=[[ana], [beto]], winner=0)
    before = ratings_of(store, ana)
    assert first is not None
    assert rate_mesa(store, room="r1", mesa=1, finished=WHEN, teams=[[ana], [beto]], winner=0) is None
    assert rate_mesa(store, room="r1", mesa=1, finished=WHEN, teams=[[beto], [ana]], winner=0) is None
    assert ratings_of(store, ana) == before and ratings_of(store, ana)["1v1"].games == 1
    with store.engine.connect() as conn:
        row = conn.exec_driver_sql("SELECT mode, teams, winner, changes FROM rated_mesas").one()
    assert (row[0], json.loads(row[1]), row[2], json.loads(row[3])) == ("1v1", [[ana], [beto]], 0, first)


def test_bad_mesas_are_refused_and_rate_nothing(store: Store) -> None:
    ana, beto, carla = people(store, "Ana", "Beto", "Carla")
    for teams in ([[ana], [beto, carla]], [[ana], [ana]], [[ana]], [[], []]):
        with pytest.raises(ValueError):
            rate_mesa(store, room="r1", mesa=1, finished=WHEN, teams=teams, winner=0)
    with pytest.raises(ValueError):
        rate_mesa(store, room="r1", mesa=1, finished=WHEN, teams=[[ana], [beto]], winner=2)
    with pytest.raises(ProfileProblem) as unknown:
        rate_mesa(store, room="r1", mesa=1, finished=WHEN, teams=[[ana], ["nobody"]], winner=0)
    assert unknown.value.code == "unknown_profile"
    assert ratings_of(store, ana)["1v1"].games == 0 and leaderboard(store, "1v1") == []
    # the mesa was not marked as rated: a right call rates it
    assert rate_mesa(store, room="r1", mesa=1, finished=WHEN, teams=[[ana], [beto]], winner=0) is not None


def test_the_leaderboard_lists_rated_players_best_first(store: Store) -> None:
    ana, beto, carla, _nobody = people(store, "Ana", "Beto", "Carla", "Sin partidas")
    rate_mesa(store, room="r1", mesa=1, finished=at(1), teams=[[ana], [beto]], winner=0)
    rate_mesa(store, room="r2", mesa=1, finished=at(2), teams=[[ana], [carla]], winner=0)
    rate_mesa(store, room="r3", mesa=1, finished=at(3), teams=[[carla], [beto]], winner=0)
    assert leaderboard(store, "1v1") == []  # two games each: provisional, not yet on the leaderboard
    board = leaderboard(store, "1v1", min_games=1, min_opponents=1)
    assert [row.name for row in board] == ["Ana", "Carla", "Beto"]  # "Sin partidas" has no rated game
    assert [row.rank for row in board] == [1, 2, 3]
    assert [row.rating for row in board] == sorted((row.rating for row in board), reverse=True)
    assert (board[0].games, board[0].wins) == (2, 2)
    assert [row.name for row in leaderboard(store, "1v1", limit=2, min_games=1, min_opponents=1)] == [
        "Ana",
        "Carla",
    ]
    assert leaderboard(store, "2v2", min_games=1, min_opponents=1) == []


def test_equal_ratings_share_a_rank(store: Store) -> None:
    ana, beto, carla, dario = people(store, "Ana", "Beto", "Carla", "Darío")
    rate_mesa(store, room="r1", mesa=1, finished=at(1), teams=[[ana, carla], [beto, dario]], winner=0)
    board = leaderboard(store, "2v2", min_games=1, min_opponents=1)
    assert [row.rank for row in board] == [1, 1, 3, 3]
    assert {row.name for row in board[:2]} == {"Ana", "Carla"}


def test_a_profiles_games_newest_first_with_the_current_names(store: Store) -> None:
    ana, beto, carla, dario = people(store, "Ana", "Beto", "Carla", "Darío")
    one = rate_mesa(store, room="r1", mesa=1, finished=at(1), teams=[[ana], [beto]], winner=1)
    two = rate_mesa(store, room="r2", mesa=3, finished=at(2), teams=[[beto, dario], [ana, carla]], winner=1)
    rate_mesa(store, room="r3", mesa=1, finished=at(3), teams=[[beto], [carla]], winner=0)  # not Ana's
    assert one is not None and two is not None
    games = games_of(store, ana)
    assert [(g.room, g.mesa, g.mode) for g in games] == [("r2", 3, "2v2"), ("r1", 1, "1v1")]
    assert games[0].won and games[0].team == ["Ana", "Carla"] and games[0].opponents == ["Beto", "Darío"]
    assert games[0].change == two[ana] and games[1].change == one[ana] and not games[1].won
    assert [g.room for g in games_of(store, ana, limit=1)] == ["r2"]
    # an id with LIKE's wildcards in it finds only its own games
    assert games_of(store, "%") == [] and games_of(store, "_" * 12) == []


# -- HTTP ----------------------------------------------------------------------------------------------------
def test_the_http_api_creates_renames_and_shows_a_profile(client: TestClient) -> None:
    made = client.post("/api/profiles", json={"name": "  <b>Ana</b> & co  "})
    assert made.status_code == 200, made.text
    body = made.json()
    assert set(body) == {"id", "key", "name"} and body["name"] == "<b>Ana</b> & co"  # plain text, kept as is
    page = client.get(f"/api/profiles/{body['id']}")
    assert page.status_code == 200
    shown = page.json()
    assert shown["name"] == "<b>Ana</b> & co" and shown["games"] == []
    start = {"rating": 1000, "games": 0, "wins": 0, "provisional": True}
    assert shown["ratings"] == {m: start for m in ("1v1", "2v2")}
    assert body["key"] not in page.text and "key" not in shown
    renamed = client.patch(
        f"/api/profiles/{body['id']}",
        json={"name": "Ana"},
        headers={"Authorization": f"Bearer {body['key']}"},
    )
    assert renamed.status_code == 200, renamed.text
    assert renamed.json()["name"] == "Ana" and body["key"] not in renamed.text
    assert client.get(f"/api/profiles/{body['id']}").json()["name"] == "Ana"


def test_the_http_api_refuses_bad_input(client: TestClient) -> None:
    body = client.post("/api/profiles", json={"name": "Ana"}).json()
    where = f"/api/profiles/{body['id']}"
    for bad in (
        {"name": "x" * 41},
        {"name": ""},
        {"name": "   "},
        {"name": "a\nb"},
        {"name": "Ana\x1e"},  # a control character Python's strip() would take for a space (schemathesis)
        {"name": "\x1fAna"},
        {"name": 7},
        {},
        {"name": "A", "x": 1},
    ):
        answer = client.post("/api/profiles", json=bad)
        assert answer.status_code == 400, (bad, answer.text)
        assert isinstance(answer.json()["detail"], str)
    missing = client.patch(where, json={"name": "Eva"})
    assert missing.status_code == 401 and "Authorization: Bearer" in missing.json()["detail"]
    wrong = client.patch(where, json={"name": "Eva"}, headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 403 and isinstance(wrong.json()["detail"], str)
    too_long = client.patch(where, json={"name": "Eva"}, headers={"Authorization": "Bearer " + "k" * 201})
    assert too_long.status_code == 403
    assert (
        client.patch(
            where, json={"name": "x" * 41}, headers={"Authorization": f"Bearer {body['key']}"}
        ).status_code
        == 400
    )
    unknown = client.patch(
        "/api/profiles/nobody", json={"name": "Eva"}, headers={"Authorization": "Bearer k"}
    )
    assert unknown.status_code == 404
    assert client.get("/api/profiles/nobody").status_code == 404
    assert client.get(where).json()["name"] == "Ana"
    # the key never travels in an address
    refused = client.get(f"{where}?key={body['key']}")
    assert refused.status_code == 400 and "Authorization header" in refused.json()["detail"]
    assert client.get("/api/leaderboard?mode=3v3").status_code == 400
    assert client.get("/api/leaderboard?limit=0").status_code == 400


def test_the_http_leaderboard_and_profile_page_show_rated_games(client: TestClient) -> None:
    names = ("Ana", "Beto", "Carla", "Darío")
    ids = [client.post("/api/profiles", json={"name": name}).json()["id"] for name in names]
    store: Store = client.app.state.store  # type: ignore[attr-defined]
    changes = rate_mesa(store, room="r1", mesa=1, finished=WHEN, teams=[[ids[1]], [ids[0]]], winner=0)
    assert changes is not None
    board = client.get("/api/leaderboard", params={"mode": "1v1"}).json()
    assert board == {"mode": "1v1", "players": [], "min_games": 5, "min_opponents": 3}  # all provisional
    # Beto plays four more, against three different opponents in all: his rating is established
    for room, other in (("r2", 2), ("r3", 3), ("r4", 2), ("r5", 3)):
        rate_mesa(store, room=room, mesa=1, finished=WHEN, teams=[[ids[1]], [ids[other]]], winner=0)
    board = client.get("/api/leaderboard", params={"mode": "1v1"}).json()
    assert [(p["rank"], p["name"], p["games"], p["wins"]) for p in board["players"]] == [(1, "Beto", 5, 5)]
    assert client.get(f"/api/profiles/{ids[1]}").json()["ratings"]["1v1"]["provisional"] is False
    assert client.get("/api/leaderboard", params={"mode": "2v2"}).json()["players"] == []
    page = client.get(f"/api/profiles/{ids[0]}").json()
    assert page["ratings"]["1v1"] == {
        "rating": 1000 + changes[ids[0]],
        "games": 1,
        "wins": 0,
        "provisional": True,
    }
    assert page["games"] == [
        {
            "room": "r1",
            "mesa": 1,
            "finished": WHEN,
            "mode": "1v1",
            "won": False,
            "team": ["Ana"],
            "opponents": ["Beto"],
            "change": changes[ids[0]],
            "unrated": None,
        }
    ]


def test_profile_creation_is_rate_limited(tmp_path: Path) -> None:
    app = create_app(
        tmp_path / "data", bot_delay=0, workers=0, limits=Limits(rooms_per_minute=1, rooms_burst=2)
    )
    with TestClient(app) as limited:
        answers = [limited.post("/api/profiles", json={"name": "Ana"}).status_code for _ in range(3)]
        assert answers == [200, 200, 429]


# -- the migration -------------------------------------------------------------------------------------------
def test_a_0003_database_is_upgraded_with_its_rooms_kept(tmp_path: Path) -> None:
    path = tmp_path / "data" / "cuarenta.sqlite3"
    path.parent.mkdir()
    engine = sa.create_engine(f"sqlite:///{path}")
    with engine.begin() as conn:
        command.upgrade(alembic_config(conn), "0003")
        conn.exec_driver_sql("PRAGMA user_version = 2")
        conn.exec_driver_sql(
            "INSERT INTO rooms (id, created, updated, players, level, rules, seed, mesa, state, status) "
            "VALUES ('r1', 'then', 'then', 2, 'facil', '{\"preset\":\"basico\"}', '7', 1, 0, 'playing')"
        )
        conn.exec_driver_sql(
            "INSERT INTO seats (room, seat, kind, name, level, token_hash, profile) "
            "VALUES ('r1', 0, 'person', 'Ana', NULL, 'h0', 'p1')"
        )
        assert "profiles" not in sa.inspect(conn).get_table_names()
    engine.dispose()
    store = Store.in_dir(path.parent)
    try:
        assert store.schema_revision() == SCHEMA_REVISION == "0011"  # 0004 … 0011 applied
        room = store.load_room("r1")
        assert room is not None and room.seats[0].name == "Ana" and room.seats[0].profile == "p1"
        ana, beto = people(store, "Ana", "Beto")
        assert rate_mesa(store, room="r1", mesa=1, finished=WHEN, teams=[[ana], [beto]], winner=0) is not None
    finally:
        store.close()
