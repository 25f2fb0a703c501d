"""``cuarenta daily`` (docs/terminal.md "The deal of the day"): the deal of the day in the terminal against a
real ``cuarenta serve``: with a connection it takes the week's offline deals and sends the finished chica;
without one it plays from what it kept and the result waits in its folder until ``--send``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from cuarenta.daily import DAILY_LEVEL, daily_rules, is_offline, result, today
from cuarenta.record import GameRecord
from cuarenta.seeds import mesa_seed
from support.commands import run_cli
from support.ports import free_port
from support.served import Served, serve_process

#: Enough "first card" answers for any chica (a turn takes one, a choice between two ways one more).
MOVES = "1\n" * 400


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    where = tmp_path_factory.mktemp("daily")
    with serve_process(where / "serve.log", "--data", str(where / "data"), "--workers", "1") as s:
        yield s


def offline_ranking(served: Served) -> dict:  # type: ignore[type-arg]
    answer = httpx.get(served.base + "/api/daily", params={"offline": "true"}, timeout=10)
    assert answer.status_code == 200, answer.text
    return answer.json()  # type: ignore[no-any-return]


@pytest.mark.slow
def test_played_with_a_connection_the_chica_is_sent_and_placed(served: Served, tmp_path: Path) -> None:
    before = offline_ranking(served)["count"]
    done = run_cli(
        "daily", "--server", served.base, "--dir", str(tmp_path), "--name", "Ana", "--lang", "en", stdin=MOVES
    )
    assert done.returncode == 0, done.stderr
    assert f"Deal of the day {today().isoformat()}" in done.stdout and "offline" in done.stdout
    assert "Place " in done.stdout and f"of {before + 1} offline" in done.stdout, done.stdout[-600:]
    alone = "the first result of the day" in done.stdout  # no "better than 100% of the others" of nobody
    assert alone == (before == 0) and ("better than" in done.stdout) == (before > 0), done.stdout[-600:]
    ranking = offline_ranking(served)
    assert ranking["count"] == before + 1 and "Ana" in {e["name"] for e in ranking["ranking"]}
    kept = json.loads((tmp_path / "deals.json").read_text())
    assert kept["server"] == served.base and is_offline(kept["days"][today().isoformat()])
    assert not list((tmp_path / "outbox").glob("*"))  # sent: nothing waits
    [note] = [json.loads(line) for line in (tmp_path / "sent.jsonl").read_text().splitlines()]
    assert note["new"] is True and note["count"] == before + 1


@pytest.mark.slow
def test_without_a_connection_it_plays_what_it_kept_and_sends_later(served: Served, tmp_path: Path) -> None:
    took = run_cli("daily", "--server", served.base, "--dir", str(tmp_path), "--send")  # the deals only
    assert took.returncode == 0, took.stderr
    deals = json.loads((tmp_path / "deals.json").read_text())
    deals["server"] = f"http://127.0.0.1:{free_port()}"  # where nobody answers: no connection
    (tmp_path / "deals.json").write_text(json.dumps(deals))
    offline = run_cli("daily", "--dir", str(tmp_path), "--delay", "0", stdin=MOVES)
    assert offline.returncode == 0, offline.stderr
    assert "No se pudo hablar con el servidor" in offline.stderr and "se enviará" in offline.stdout
    [waiting] = list((tmp_path / "outbox").glob("*.cuarenta"))
    record = GameRecord.from_text(waiting.read_text())
    assert record.seed == mesa_seed(deals["days"][today().isoformat()], 1) and record.rules == daily_rules()
    assert record.seats == ("person", f"bot:{DAILY_LEVEL}")
    mine = result(record.replay())
    before = offline_ranking(served)["count"]
    sent = run_cli("daily", "--server", served.base, "--dir", str(tmp_path), "--send")
    assert sent.returncode == 0, sent.stderr
    assert f"Cartas del día {today().isoformat()}: {mine:+d}" in sent.stdout
    assert offline_ranking(served)["count"] == before + 1 and not list((tmp_path / "outbox").glob("*"))
    again = run_cli("daily", "--server", served.base, "--dir", str(tmp_path), "--send")  # nothing waits
    assert again.returncode == 0 and offline_ranking(served)["count"] == before + 1


def test_with_no_deal_kept_it_says_how_to_get_one(tmp_path: Path) -> None:
    done = run_cli("daily", "--dir", str(tmp_path), "--lang", "en")
    assert done.returncode == 1
    assert "No deal of the day is kept" in done.stderr and "cuarenta daily --server URL" in done.stderr
    bad = run_cli("daily", "--dir", str(tmp_path), "--name", "Ana\u202e")
    assert bad.returncode == 2 and "--name" in bad.stderr
