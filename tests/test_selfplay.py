"""Self-play: the records replay to the mesas described in the tables, and the files do not depend on
who played them (this process, worker processes, Ray)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from cuarenta import Game
from cuarenta.players.pools import ProcessPool, RayPool
from cuarenta.record import GameRecord
from cuarenta.research.actions import actions_by_id
from cuarenta.research.selfplay import SelfplayError, selfplay

pq = pytest.importorskip("pyarrow.parquet")


def digests(folder: Path) -> dict[str, str]:
    """Every file below ``folder`` and the SHA-256 of its bytes."""
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.fixture(scope="module")
def serial(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("serial")
    selfplay("facil", "aleatorio", mesas=7, seed=4, out=out, chunk=3)
    return out


def test_the_tables_and_the_records_tell_the_same_mesas(serial: Path) -> None:
    mesas = pq.read_table(serial / "mesas.parquet").to_pylist()
    plies = pq.read_table(serial / "plies.parquet").to_pylist()
    summary = json.loads((serial / "selfplay.json").read_text())
    assert [m["mesa"] for m in mesas] == list(range(7)) and summary["mesas"] == 7
    assert pq.ParquetFile(serial / "plies.parquet").num_row_groups == 3  # one per chunk
    assert len(plies) == sum(m["plies"] for m in mesas) == summary["plies"]
    assert summary["a_wins"] == sum(m["winner"] == "facil" for m in mesas)
    for m in mesas:
        # mesas 2k and 2k+1: the same deals, the players' teams swapped
        assert m["seed"] == f"selfplay/4/{m['mesa'] // 2}" and m["a_team"] == m["mesa"] % 2
        assert m["seats"][m["a_team"]] == "facil" and m["seats"][1 - m["a_team"]] == "aleatorio"
        path = serial / "records" / f"{m['mesa'] // 3:05d}" / f"mesa-{m['mesa']:07d}.cuarenta"
        record = GameRecord.from_text(path.read_text(encoding="utf-8"))
        game = record.replay()
        assert game.outcome is not None and game.outcome.winner == m["winner_team"]
        assert " ".join(str(a) for a in record.actions) == m["actions"]
        assert list(game.chicas) == m["chicas"] and list(game.score) == m["score"]
        assert record.seats == tuple(f"bot:{name}" for name in m["seats"])
    _check_plies(serial, mesas, plies)


def _check_plies(serial: Path, mesas: list[dict[str, Any]], plies: list[dict[str, Any]]) -> None:
    """Replay every mesa from its seed and check each ply's seat, id, legal count and result."""
    by_mesa: dict[int, list[dict[str, Any]]] = {}
    for row in plies:
        by_mesa.setdefault(row["mesa"], []).append(row)
    for m in mesas:
        path = serial / "records" / f"{m['mesa'] // 3:05d}" / f"mesa-{m['mesa']:07d}.cuarenta"
        record = GameRecord.from_text(path.read_text(encoding="utf-8"))
        game = Game.new(record.rules, seed=record.seed)
        rows = by_mesa[m["mesa"]]
        assert [r["ply"] for r in rows] == list(range(m["plies"]))
        for row, action in zip(rows, record.actions, strict=True):
            assert row["seat"] == game.turn and row["action"] == str(action)
            legal = game.legal_moves()
            assert row["legal"] == len(legal)
            assert actions_by_id(legal, game.claimable)[row["action_id"]] == action
            assert row["result"] == (1 if row["seat"] % 2 == m["winner_team"] else -1)
            game.play(action)


def test_worker_processes_write_the_same_bytes(serial: Path, tmp_path: Path) -> None:
    selfplay("facil", "aleatorio", mesas=7, seed=4, out=tmp_path, chunk=3, pool=ProcessPool(2))
    assert digests(tmp_path) == digests(serial)
    other = tmp_path / "other"
    selfplay("facil", "aleatorio", mesas=7, seed=5, out=other, chunk=3, formats=("parquet",))
    assert digests(other)["mesas.parquet"] != digests(serial)["mesas.parquet"]
    assert not (other / "records").exists()


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"a": "nadie"}, "unknown player"),
        ({"mesas": 0}, "mesas=0"),
        ({"formats": ("csv",)}, "choose among"),
        ({"chunk": 0}, "chunk=0"),
        ({"players": 3}, "players"),
    ],
)
def test_bad_requests_are_refused(tmp_path: Path, kwargs: dict[str, Any], words: str) -> None:
    args: dict[str, Any] = {"a": "facil", "b": "facil", "mesas": 2, "out": tmp_path, **kwargs}
    with pytest.raises(SelfplayError, match=words):
        selfplay(**args)


def test_one_chica_mesas_and_four_players(tmp_path: Path) -> None:
    summary = selfplay(
        "normal", "facil", mesas=2, seed=1, out=tmp_path, players=4, rules="campeonato", one_chica=True
    )
    mesas = pq.read_table(tmp_path / "mesas.parquet").to_pylist()
    assert summary["variant"].startswith("cuarenta/campeonato/4p/") and "chicas=1" in summary["variant"]
    assert all(sum(m["chicas"]) == 1 and len(m["seats"]) == 4 for m in mesas)


def test_the_command_writes_and_summarises(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from cuarenta.cli.commands import run

    with pytest.raises(SystemExit) as stop:
        run(
            [
                "selfplay",
                "facil",
                "facil",
                "--mesas",
                "3",
                "--seed",
                "2",
                "--out",
                str(tmp_path),
                "--format",
                "records",
            ]
        )
    assert stop.value.code in (0, None)
    summary = json.loads(capsys.readouterr().out)
    assert summary["mesas"] == 3 and summary["formats"] == ["records"] and summary["bytes"] > 0
    assert len(list((tmp_path / "records").rglob("*.cuarenta"))) == 3
    with pytest.raises(SystemExit) as stop:
        run(["selfplay", "facil", "facil", "--format", "csv", "--out", str(tmp_path)])
    assert stop.value.code == 2


@pytest.mark.slow
def test_ray_writes_the_same_bytes(serial: Path, tmp_path: Path) -> None:
    ray = pytest.importorskip("ray")
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        for mode in ("tasks", "pool"):
            out = tmp_path / mode
            selfplay("facil", "aleatorio", mesas=7, seed=4, out=out, chunk=3, pool=RayPool(mode=mode))
            assert digests(out) == digests(serial)
    finally:
        if started:
            ray.shutdown()
