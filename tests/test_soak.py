"""A small soak (bench/soak.py) as a test: every kind of table — rooms against the computer, tables of people,
of people and computers, 2 and 4 seats — on a real ``cuarenta serve``, with people dropping their socket
after a move and coming back (with ``since`` or a fresh snapshot), some after the grace (the computer stands
in, then hands the seat back). Every mesa finishes, nobody is refused a move they were offered, and no table
stands still (issue 25, item 17). The measured soak, hundreds of mesas under load, is in docs/performance.md.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]


def test_a_small_soak_of_every_kind_of_table_finishes_every_mesa(tmp_path: Path) -> None:
    sys.path.insert(0, str(BENCH))
    import soak

    figures = soak.main(
        [
            *("--tables", "7", "--mesas", "7", "--level", "facil", "--workers", "1", "--seed", "5"),
            *("--rules", '{"preset": "a_todo_rigor", "chicas": 1}', "--think", "0.01-0.05"),
            *("--drops", "0.08", "--away", "0.1-1.5", "--grace", "0.5"),
            # bounds, not measures: a table unchanged for a minute has stalled; the whole run is a few
            *("--stall", "60", "--minutes", "8", "--json", str(tmp_path / "soak.json")),
        ]
    )
    assert sorted(figures["per_kind"]) == sorted(soak.KINDS)
    assert figures["every_mesa_finished"], figures["unfinished"]
    assert figures["mesas_finished"] == 7 and not figures["stalls"]
    assert not figures["unexpected"] and not figures["client_crashes"] and not figures["sockets_lost"]
    assert figures["drops_made"] and figures["rejoins_since"]  # people did drop, and came back with since
    assert "server_log_tail" not in figures  # no traceback in the server's log
