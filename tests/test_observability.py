"""Health, readiness, metrics and structured logs (docs/operations.md): the real app through Starlette's
TestClient with real WebSocket games, a real Redis client, and ``cuarenta serve --log-format json`` as a
subprocess."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from typer.testing import CliRunner

from cuarenta.cli import app as cli_app
from cuarenta.cli.serve import uvicorn_options
from cuarenta.server import create_app
from cuarenta.server.ops.health import Probe
from cuarenta.server.ops.logs import JsonFormatter, RedactTokens, logging_config
from cuarenta.server.ops.metrics import Metrics
from cuarenta.server.store import Store, StoreError
from support.app import Browser, bearer, new_room, running, server_room
from support.ports import free_port
from support.served import Served, serve_process
from support.spy import Spy

#: the ``client`` fixture's app (tests/conftest.py): computer players think on a thread
pytestmark = pytest.mark.app(workers=0)


def scrape(client: TestClient) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    """Every sample of ``GET /metrics``, parsed by Prometheus' own parser: (name, labels) → value."""
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8"
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(response.text)
        for sample in family.samples
    }


def value(samples: dict[tuple[str, frozenset[tuple[str, str]]], float], name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def wait_for(client: TestClient, name: str, expected: float, **labels: str) -> None:
    """Scrape until a sample has its expected value (a socket's close reaches the server a little later)."""
    deadline = time.monotonic() + 10
    while (found := value(scrape(client), name, **labels)) != expected:
        assert time.monotonic() < deadline, f"{name}{labels} is {found}, not {expected}"
        time.sleep(0.02)


# -- metrics ------------------------------------------------------------------------------------------------
def test_metrics_count_moves_sockets_and_refusals(data_dir: Path, spy: Spy) -> None:
    with running(data_dir, workers=0) as client:
        before = scrape(client)
        assert value(before, "cuarenta_sockets") == 0
        assert value(before, "cuarenta_moves_total", by="person") == 0
        assert value(before, "cuarenta_moves_total", by="computer") == 0

        made = new_room(client, level="facil")
        browser = Browser(client, spy)
        browser.join(made["room"], made["token"])
        wait_for(client, "cuarenta_sockets", 1)
        other = Browser(client, spy)  # a second socket, joined to nothing
        wait_for(client, "cuarenta_sockets", 2)

        person = 5
        for _ in range(person):
            browser.play_first_legal()
        state = browser.until_my_turn_or_end()  # the computer has answered: nothing is in flight
        game = server_room(client, made["room"]).game
        samples = scrape(client)
        assert value(samples, "cuarenta_moves_total", by="person") == person
        computer = len(game.actions) - person
        assert computer >= person - 1
        assert value(samples, "cuarenta_moves_total", by="computer") == computer
        assert value(samples, "cuarenta_move_seconds_count") == len(game.actions)
        assert value(samples, "cuarenta_move_seconds_bucket", le="+Inf") == len(game.actions)
        assert value(samples, "cuarenta_store_write_seconds_count") == len(game.actions)
        assert 0 < value(samples, "cuarenta_move_seconds_sum") < 5 * len(game.actions)
        assert value(samples, "cuarenta_rooms_in_memory") == 1
        assert value(samples, "cuarenta_tables_playing") == 0

        # refused: a stale move and a move from a socket that joined nothing; nothing else changes
        stale = browser.error(
            {"v": 1, "type": "move", "move": state["legal"][0], "state": state["state"] - 1}
        )
        assert stale["code"] == "stale"
        other.send({"v": 1, "type": "move", "move": state["legal"][0], "state": state["state"]})
        assert other.recv()["code"] == "not_joined"
        samples = scrape(client)
        assert value(samples, "cuarenta_refused_total", code="stale") == 1
        assert value(samples, "cuarenta_refused_total", code="not_joined") == 1
        assert value(samples, "cuarenta_moves_total", by="person") == person

        other.close()
        wait_for(client, "cuarenta_sockets", 1)
        browser.close()
        wait_for(client, "cuarenta_sockets", 0)


def test_the_tables_gauge_counts_tables_in_play(client: TestClient) -> None:
    made = client.post("/api/tables", json={"name": "Ana", "seats": ["friend"]})
    assert made.status_code == 200, made.text
    table = made.json()
    samples = scrape(client)
    assert value(samples, "cuarenta_rooms_in_memory") == 1
    assert value(samples, "cuarenta_tables_playing") == 0  # it waits for a friend (or its creator)
    started = client.post(f"/api/tables/{table['room']}/start", headers=bearer(table["token"]))
    assert started.status_code == 200, started.text
    assert value(scrape(client), "cuarenta_tables_playing") == 1
    new_room(client)  # a room against the computer is no table
    samples = scrape(client)
    assert value(samples, "cuarenta_rooms_in_memory") == 2
    assert value(samples, "cuarenta_tables_playing") == 1


def test_each_app_has_its_own_registry(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "a", bot_delay=0, workers=0)) as a:
        a.app.state.rooms.metrics.moves.labels(by="person").inc(3)  # type: ignore[attr-defined]
        with TestClient(create_app(tmp_path / "b", bot_delay=0, workers=0)) as b:
            assert value(scrape(a), "cuarenta_moves_total", by="person") == 3
            assert value(scrape(b), "cuarenta_moves_total", by="person") == 0
    # the cluster's metrics are defined (the bus, the job queue and the workers set them)
    metrics = Metrics(process=False)
    metrics.bus_messages.labels(direction="published").inc()
    metrics.queue_depth.set(4)
    metrics.think_seconds.labels(level="dificil").observe(0.3)
    assert metrics.sample("cuarenta_bus_messages_total", direction="published") == 1
    assert metrics.sample("cuarenta_queue_depth") == 4
    assert metrics.sample("cuarenta_think_seconds_count", level="dificil") == 1


# -- health and readiness -----------------------------------------------------------------------------------
def test_healthz_readyz_and_metrics_are_outside_the_api_schema(client: TestClient) -> None:
    health = client.get("/healthz")
    assert health.status_code == 200 and health.json() == {"ok": True}
    ready = client.get("/readyz")
    assert ready.status_code == 200 and ready.json() == {"ready": True, "checks": {"store": "ok"}}
    for path in ("/healthz", "/readyz", "/metrics"):
        answer = client.get(path, headers={"Accept-Encoding": "gzip"})
        assert answer.status_code == 200
        assert answer.headers["Cache-Control"] == "no-store"
        assert answer.headers["X-Content-Type-Options"] == "nosniff"  # the security headers still apply
    paths = client.get("/api/openapi.json").json()["paths"]
    assert not {"/healthz", "/readyz", "/metrics"} & set(paths)
    assert client.get("/api/health").json()["ok"] is True  # unchanged


def test_readyz_says_why_when_the_store_is_gone(data_dir: Path) -> None:
    with running(data_dir, workers=0) as client:
        assert client.get("/readyz").status_code == 200
        shutil.rmtree(data_dir)  # the data directory is deleted under the running server
        ready = client.get("/readyz")
        assert ready.status_code == 503
        body = ready.json()
        assert body["ready"] is False and "is gone" in body["checks"]["store"]
        assert client.get("/healthz").status_code == 200  # alive all the same: only not ready


def test_store_ping_reports_a_database_that_does_not_answer(tmp_path: Path) -> None:
    store = Store.in_dir(tmp_path)
    store.ping()
    store.close()
    for extra in ("-wal", "-shm"):
        (tmp_path / f"cuarenta.sqlite3{extra}").unlink(missing_ok=True)
    (tmp_path / "cuarenta.sqlite3").write_bytes(b"not a database, " * 512)  # the file is damaged
    with pytest.raises(StoreError, match="does not answer: file is not a database"):
        store.ping()
    store.close()


def test_readyz_checks_redis_when_the_app_has_a_client(data_dir: Path) -> None:
    redis = pytest.importorskip("redis.asyncio")
    from redis.asyncio.retry import Retry
    from redis.backoff import NoBackoff

    closed = free_port()  # nothing listens there
    with running(data_dir, workers=0) as client:
        # no retries: the check's text is the client's error (a client that retries longer than the check
        # may wait is reported as "no answer within 2 s")
        no_retry = Retry(NoBackoff(), 0)
        client.app.state.redis = redis.Redis(host="127.0.0.1", port=closed, retry=no_retry)  # type: ignore[attr-defined]
        ready = client.get("/readyz")
        assert ready.status_code == 503
        checks = ready.json()["checks"]
        assert checks["store"] == "ok" and "ConnectionError" in checks["redis"]
        if shutil.which("redis-server") is None:
            return
        port = free_port()
        server = subprocess.Popen(
            ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            client.app.state.redis = redis.Redis(host="127.0.0.1", port=port)  # type: ignore[attr-defined]
            deadline = time.monotonic() + 10
            while (ready := client.get("/readyz")).status_code != 200:
                assert time.monotonic() < deadline, ready.json()
                time.sleep(0.05)
            assert ready.json() == {"ready": True, "checks": {"store": "ok", "redis": "ok"}}
        finally:
            server.terminate()
            server.wait(timeout=10)


def test_a_check_that_hangs_is_never_started_twice() -> None:
    started: list[int] = []
    release = threading.Event()

    def hang() -> None:  # a database that does not answer (until released)
        started.append(1)
        release.wait(10)

    async def scenario() -> list[str]:
        runs: list[asyncio.Future[None]] = []

        def start() -> asyncio.Future[None]:
            runs.append(asyncio.ensure_future(asyncio.to_thread(hang)))
            return runs[-1]

        probe = Probe(start, timeout=0.05)
        answers = [await probe.check(), await probe.check()]  # the second waits for the first's thread
        release.set()
        await asyncio.wait_for(asyncio.shield(runs[0]), 10)
        answers.append(await probe.check())  # the first has answered: a new check starts
        return answers

    assert asyncio.run(scenario()) == ["no answer within 0.05 s", "no answer within 0.05 s", "ok"]
    assert len(started) == 2


# -- logs ---------------------------------------------------------------------------------------------------
def json_handler(stream: io.StringIO) -> logging.Handler:
    """A handler as ``cuarenta serve --log-format json`` makes them (the filter, then the formatter)."""
    handler = logging.StreamHandler(stream)
    handler.addFilter(RedactTokens())
    handler.setFormatter(JsonFormatter(fields={"node": "web-1"}))
    return handler


def test_json_lines_parse_and_hide_tokens() -> None:
    stream = io.StringIO()
    logger = logging.getLogger("cuarenta.test_observability")
    logger.addHandler(handler := json_handler(stream))
    logger.propagate, logger.level = False, logging.DEBUG
    try:
        logger.warning("room %s refused %s", "AbC", "/api/rooms/AbC?token=SECRETSECRET", extra={"seat": 2})
        logger.info("a line\nover two lines: GET /x?token=SECRETSECRET", extra={"room": "AbC"})
        try:
            raise ValueError("bad ?token=SECRETSECRET")
        except ValueError:
            logger.exception("it failed")
    finally:
        logger.removeHandler(handler)
    access = logging.LogRecord(
        "uvicorn.access", logging.INFO, "", 0, '%s - "%s %s HTTP/%s" %d',
        ("1.2.3.4:5", "GET", "/x?token=SECRETSECRET", "1.1", 200), None,
    )  # fmt: skip
    RedactTokens().filter(access)
    lines = [*stream.getvalue().splitlines(), JsonFormatter().format(access)]
    assert len(lines) == 4 and "SECRET" not in "".join(lines)
    first, second, failed, request = (json.loads(line) for line in lines)
    assert first["level"] == "warning" and first["logger"] == "cuarenta.test_observability"
    assert first["msg"] == "room AbC refused /api/rooms/AbC?token=[redacted]"
    assert first["seat"] == 2 and first["node"] == "web-1" and first["ts"].endswith("Z")
    assert second["room"] == "AbC" and second["msg"].startswith("a line\nover")
    assert "ValueError: bad ?token=[redacted]" in failed["exc"]
    assert request["path"] == "/x?token=[redacted]" and request["status"] == 200


def test_the_logging_config_of_both_formats() -> None:
    for fmt in ("text", "json"):
        config = logging_config(fmt, "info")  # type: ignore[arg-type]
        assert all(h["filters"] == ["no_tokens"] for h in config["handlers"].values())
        assert config["loggers"]["cuarenta"]["level"] == "INFO"
        json_formatters = [
            f for f in config["formatters"].values() if f.get("()", "").endswith("JsonFormatter")
        ]
        assert len(json_formatters) == (len(config["formatters"]) if fmt == "json" else 0)
    with pytest.raises(ValueError, match="unknown log format"):
        logging_config("xml")  # type: ignore[arg-type]
    # a process' constant fields (a cluster node's name) on every JSON line
    options = uvicorn_options("info", "json", {"node": "n1"})
    assert all(f["fields"] == {"node": "n1"} for f in options["log_config"]["formatters"].values())


def test_serve_log_format_option(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import uvicorn

    ran: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda application, **options: ran.append(options))
    data = ["serve", "--data", str(tmp_path / "d"), "--workers", "0"]
    result = CliRunner().invoke(cli_app, [*data, "--log-format", "json"])
    assert result.exit_code == 0, result.output
    first = json.loads(result.output.strip())  # the start lines are one JSON object too
    assert first["msg"] == "serving" and first["address"] == "http://127.0.0.1:8000/"
    formatters = ran[0]["log_config"]["formatters"].values()
    assert formatters and all(f["()"] == f"{JsonFormatter.__module__}.JsonFormatter" for f in formatters)
    assert CliRunner().invoke(cli_app, data).exit_code == 0  # text by default
    assert all(
        "()" not in f or "JsonFormatter" not in f["()"] for f in ran[1]["log_config"]["formatters"].values()
    )
    assert CliRunner().invoke(cli_app, [*data, "--log-format", "xml"]).exit_code == 2
    assert len(ran) == 2


@pytest.fixture
def json_server(tmp_path: Path) -> Iterator[Served]:
    """``cuarenta serve --log-format json --log-level info`` on a free port, until /healthz answers."""
    options = ["--data", str(tmp_path / "data"), "--workers", "0", "--bot-delay", "0"]
    with serve_process(
        tmp_path / "serve.log", *options, "--log-format", "json", "--log-level", "info", health="/healthz"
    ) as served:
        yield served


@pytest.mark.slow
def test_serve_log_format_json_writes_only_json_lines(json_server: Served) -> None:
    base = json_server.base
    assert httpx.get(f"{base}/readyz?token=SECRETSECRET", timeout=10).status_code == 200
    assert "cuarenta_sockets" in httpx.get(f"{base}/metrics", timeout=10).text
    made = httpx.post(f"{base}/api/rooms", json={}, timeout=10).json()
    written = json_server.stop()  # stdout and stderr
    lines = [line for line in written.splitlines() if line.strip()]
    records: list[dict[str, Any]] = [json.loads(line) for line in lines]  # every line is one JSON object
    assert {"ts", "level", "logger", "msg"} <= set(records[0])
    loggers = {r["logger"] for r in records}
    assert {"cuarenta.serve", "uvicorn.error", "uvicorn.access"} <= loggers
    assert "SECRETSECRET" not in written and made["token"] not in written
    paths = [r.get("path") for r in records if r["logger"] == "uvicorn.access"]
    assert "/readyz?token=[redacted]" in paths and "/metrics" in paths
