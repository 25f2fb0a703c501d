"""A browser through the cluster's proxy (issue 10, docs/scaling.md): the node that holds its socket is
SIGKILLed mid-hand; the page reconnects through nginx to the other node within 5 s, shows the same hand,
and the game goes on (the computer's moves are played by a ``cuarenta worker``)."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from harness import PageLog, start_game, state_number, wait_step
from playing import play_moves
from playwright.sync_api import Page

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from support import cluster as cs

cs.require()


#: a real cluster: left out of the quick loop (pytest -m "not slow")
pytestmark = pytest.mark.slow


class Running:
    def __init__(self, root: Path) -> None:
        self.pg = cs.Postgres(root)
        self.redis = cs.RedisServer(root)
        self.nodes = [cs.start_node(root, f"n{i}", self.pg, self.redis) for i in (1, 2)]
        self.worker = cs.start_worker(root, "w1", self.pg, self.redis)
        self.proxy = cs.Nginx(root, [base for _, base in self.nodes])

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
