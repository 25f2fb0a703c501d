"""``cuarenta serve``: the real program as a subprocess (uvicorn, a real WebSocket), and its options."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner
from websockets.sync.client import ClientConnection, connect

from cuarenta.cli import app
from cuarenta.cli.serve import DEFAULT_BOT_DELAY, address, default_data_dir
from support.served import Served, serve_process

#: real `cuarenta serve` processes: left out of the quick loop (pytest -m "not slow")
pytestmark = pytest.mark.slow


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[Served, Path]]:
    """``cuarenta serve`` on a free port with a fresh data directory, until /api/health answers."""
    data = tmp_path / "data"
    with serve_process(tmp_path / "serve.log", "--data", str(data), "--bot-delay", "0") as served:
        yield served, data


def receive(ws: ClientConnection) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(ws.recv(timeout=30))
    return message


def test_the_real_server_plays_over_a_real_websocket(server: tuple[Served, Path]) -> None:
    served, data = server
    base = served.base
    health = httpx.get(f"{base}/api/health").json()
    assert health["ok"] is True and health["protocol"] == 2 and health["protocols"] == [1, 2]
    assert httpx.get(f"{base}/").status_code == 200
    made = httpx.post(f"{base}/api/rooms", json={"players": 2, "level": "facil"}).json()
    with connect(base.replace("http", "ws") + "/ws") as ws:
        ws.send(json.dumps({"v": 1, "type": "join", "room": made["room"], "token": made["token"]}))
        state = receive(ws)
        assert state["type"] == "state" and state["seat"] == 0
        played = 0
        while played < 4:
            if not state["legal"]:
                state = receive(ws)
                assert state["type"] == "state"
                continue
            ws.send(json.dumps({"v": 1, "type": "move", "move": state["legal"][0], "state": state["state"]}))
            state = receive(ws)
            assert state["type"] == "state", state
            assert state["events"][0]["kind"] == "play" and state["events"][0]["seat"] == 0
            played += 1
        ws.send(json.dumps({"v": 1, "type": "ping"}))
        while (reply := receive(ws))["type"] != "pong":
            assert reply["type"] == "state"
    # saved in the data directory given on the command line
    assert (data / "cuarenta.sqlite3").is_file()
    info = httpx.get(
        f"{base}/api/rooms/{made['room']}", headers={"Authorization": f"Bearer {made['token']}"}
    ).json()
    assert info["status"] == "playing"
    assert f"{base}/" in served.stop()


# -- the command's options, in-process (uvicorn.run replaced) -----------------------------------------------
@pytest.fixture
def ran(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    import uvicorn

    calls: list[dict[str, Any]] = []

    def fake_run(application: Any, **options: Any) -> None:
        calls.append({"app": application, **options})

    monkeypatch.setattr(uvicorn, "run", fake_run)
    return calls


def test_cuarenta_alone_starts_the_web_app_with_the_defaults(
    ran: list[dict[str, Any]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    result = CliRunner().invoke(app, [])
    assert result.exit_code == 0, result.output
    assert "http://127.0.0.1:8000/" in result.output
    assert len(ran) == 1 and ran[0]["host"] == "127.0.0.1" and ran[0]["port"] == 8000
    assert ran[0]["app"].state.rooms.bot_delay == DEFAULT_BOT_DELAY
    assert default_data_dir() == tmp_path / "xdg" / "cuarenta"
    assert (tmp_path / "xdg" / "cuarenta" / "cuarenta.sqlite3").is_file()
    # --help still shows the help, and lists serve
    help_result = CliRunner().invoke(app, ["--help"])
    assert help_result.exit_code == 0 and "serve" in help_result.output and len(ran) == 1


def test_serve_options(ran: list[dict[str, Any]], tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app,
        ["serve", "--host", "0.0.0.0", "--port", "8123", "--data", str(tmp_path / "d"), "--bot-delay", "0"],
    )
    assert result.exit_code == 0, result.output
    assert "http://127.0.0.1:8123/" in result.output and str(tmp_path / "d") in result.output
    assert ran[0]["host"] == "0.0.0.0" and ran[0]["port"] == 8123
    assert ran[0]["app"].state.rooms.bot_delay == 0
    assert (tmp_path / "d" / "cuarenta.sqlite3").is_file()
    for bad in (["--port", "0"], ["--bot-delay", "-1"], ["--port", "x"]):
        refused = CliRunner().invoke(app, ["serve", "--data", str(tmp_path / "d"), *bad])
        assert refused.exit_code == 2, bad
    assert len(ran) == 1


def test_serve_refuses_an_unusable_data_directory(ran: list[dict[str, Any]], tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "cuarenta.sqlite3").write_bytes(b"not a database" * 200)
    result = CliRunner().invoke(app, ["serve", "--data", str(tmp_path / "d")])
    assert result.exit_code == 1 and "not a usable cuarenta database" in result.output
    assert ran == []


def test_address() -> None:
    assert address("127.0.0.1", 8000) == "http://127.0.0.1:8000/"
    assert address("::", 9000) == "http://[::1]:9000/"
    assert address("example.org", 80) == "http://example.org:80/"


def test_serve_keeps_the_games_in_a_database_given_by_url(ran: list[dict[str, Any]], tmp_path: Path) -> None:
    """``--database URL`` (any SQLAlchemy URL: PostgreSQL for a cluster; here a SQLite file elsewhere)."""
    db = tmp_path / "elsewhere" / "games.db"
    db.parent.mkdir()
    url = f"sqlite:///{db}"
    result = CliRunner().invoke(
        app, ["serve", "--data", str(tmp_path / "d"), "--database", url, "--max-rooms", "7", "--workers", "0"]
    )
    assert result.exit_code == 0, result.output
    assert str(db) in result.output
    rooms = ran[0]["app"].state.rooms
    assert rooms.max_rooms == 7 and rooms.store.where.endswith("games.db")
    assert db.is_file() and not (tmp_path / "d" / "cuarenta.sqlite3").exists()
    refused = CliRunner().invoke(app, ["serve", "--database", "nosuchdb://x/y", "--workers", "0"])
    assert refused.exit_code == 1 and "Error:" in refused.output and len(ran) == 1
