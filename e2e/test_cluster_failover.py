"""A browser through the cluster's proxy (issue 10, docs/scaling.md): the node that holds its socket is
SIGKILLed mid-hand; the page reconnects through nginx to the other node within 5 s, shows the same hand,
and the game goes on (the computer's moves are played by a ``cuarenta worker``). And (issue 25) a move
whose commit PostgreSQL had when it froze: the page says it could not be confirmed (never "not made"),
asks for the state again, and shows the move made once the server knows — sent once."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa
from harness import (
    PHONE,
    PageLog,
    choose_first_option,
    hand_cards,
    local_storage,
    new_context,
    start_game,
    state_number,
    wait_step,
    watch_page,
)
from playing import play_moves
from playwright.sync_api import Browser, Page, expect

from cuarenta import catalogue

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from support import cluster as cs

cs.require()


#: a real cluster: left out of the quick loop (pytest -m "not slow")
pytestmark = pytest.mark.slow


class Running:
    def __init__(self, root: Path) -> None:
        self.pg = cs.Postgres(root)
        self.redis = cs.RedisServer(root)
        self.nodes: list[tuple[cs.Process, str]] = []
        try:
            for i in (1, 2):
                self.nodes.append(cs.start_node(root, f"n{i}", self.pg, self.redis))
            self.worker = cs.start_worker(root, "w1", self.pg, self.redis)
            self.proxy = cs.Nginx(root, [base for _, base in self.nodes])
        except BaseException:  # what started is stopped (it used to be left running)
            for node, _ in self.nodes:
                node.kill()
            if hasattr(self, "worker"):
                self.worker.kill()
            self.redis.stop()
            self.pg.remove()
            raise

    def holder(self) -> int:
        """The node that holds the page's socket (its ``cuarenta_sockets`` gauge)."""
        for i, (node, base) in enumerate(self.nodes):
            if not node.alive():
                continue
            for line in httpx.get(f"{base}/metrics", timeout=5).text.splitlines():
                if line.startswith("cuarenta_sockets ") and float(line.split()[1]) >= 1:
                    return i
        raise AssertionError("no node holds the page's socket")

    def close(self) -> None:
        self.proxy.stop()
        self.worker.kill()
        for node, _ in self.nodes:
            node.kill()
        self.redis.stop()
        self.pg.remove()


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Running]:
    running = Running(tmp_path)
    try:
        yield running
    finally:
        running.close()


def test_the_page_survives_the_node_that_holds_its_socket(
    page: Page, page_log: PageLog, cluster: Running
) -> None:
    start_game(page, cluster.proxy.base, players=2, level="facil", preset="a_todo_rigor")
    before = play_moves(page, 2)
    holder = cluster.holder()
    received = len(page_log.received)
    cluster.nodes[holder][0].kill()
    killed = time.monotonic()
    back = {"state", "snapshot", "resumed"}  # the page speaks version 2: its table back is one of these
    while not any(json.loads(frame).get("type") in back for frame in page_log.received[received:]):
        assert time.monotonic() - killed < 5, "the page did not get its table back within 5 s"
        page.wait_for_timeout(50)
    took = time.monotonic() - killed
    assert cluster.holder() != holder  # its new socket is on the other node
    assert wait_step(page) == "ready"
    assert state_number(page) == before.state  # nothing acknowledged was lost, nothing played twice
    after = play_moves(page, 3)  # and the game goes on, the worker playing the computer's turns
    assert after.state > before.state
    assert not page_log.server_errors(), page_log.server_errors()
    print(f"reconnected in {took:.2f} s")


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_move_the_frozen_database_had_is_shown_made_never_not_made(
    browser: Browser, cluster: Running, size: str
) -> None:
    """The room's row is held so that the page's move waits inside PostgreSQL; PostgreSQL is SIGSTOPped
    then; the node cuts the call after 2 s. The page shows the catalogue's ``outcome_unknown`` text in
    Spanish (before: "not made, try again" in English) and asks for the state again; SIGCONT and the row
    let go, the move is committed, and the page shows it made — without sending it again — and the
    banner goes."""
    extra: dict[str, object] = {**PHONE, "is_mobile": True, "has_touch": True} if size == "phone" else {}
    context = new_context(browser, **extra)
    engine = sa.create_engine(cluster.pg.url)
    try:
        page = context.new_page()
        log = watch_page(page)
        start_game(page, cluster.proxy.base, players=2, level="facil", preset="a_todo_rigor")
        play_moves(page, 1)
        before = state_number(page)
        room = json.loads(local_storage(page)["cuarenta.session"])["room"]
        hand = hand_cards(page)
        holder = engine.connect()
        holder.begin()
        holder.exec_driver_sql("SELECT version FROM rooms WHERE id = %(room)s FOR UPDATE", {"room": room})
        try:
            page.get_by_test_id("hand-card").first.click()
            if page.locator("#choice-dialog").evaluate("d => d.open"):
                choose_first_option(page)

            def waiting() -> bool:
                with engine.connect() as conn:
                    found = conn.exec_driver_sql(
                        "SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                        " AND query LIKE '%%INSERT INTO actions%%'"
                    ).first()
                    return found is not None

            cs.wait_until(waiting, 10, "the page's move waits in PostgreSQL")
            cluster.pg.pause()
            try:
                banner = page.get_by_test_id("error")
                expect(banner).to_be_visible(timeout=15_000)
                expect(banner).to_have_attribute("data-code", "outcome_unknown")
                expect(banner).to_contain_text(catalogue.text("page.err.outcome_unknown", "es"))
            finally:
                cluster.pg.resume()
                holder.rollback()  # the row is let go: the move's statement goes on and commits
        finally:
            holder.close()
        expect(page.get_by_test_id("error")).to_be_hidden(timeout=30_000)  # known now: the move was made
        assert state_number(page) > before and len(hand_cards(page)) < len(hand)
        moves = [m for m in map(json.loads, log.sent) if m.get("type") == "move"]
        assert sum(m["state"] == before for m in moves) == 1, moves  # sent once, never again
        with engine.connect() as conn:
            seqs = [
                int(seq)
                for (seq,) in conn.exec_driver_sql(
                    "SELECT seq FROM actions WHERE room = %(room)s AND mesa = 1 ORDER BY seq", {"room": room}
                )
            ]
        assert seqs == list(range(1, len(seqs) + 1))  # none twice, none skipped
        assert wait_step(page) in ("ready", "choice", "summary")  # and the game goes on
        assert not log.errors, log.errors
    finally:
        context.close()
        engine.dispose()
