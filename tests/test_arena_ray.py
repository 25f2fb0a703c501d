"""The arena on Ray: the same match as the local arena, whatever the workers; a bad address said clearly.

One local Ray with two CPUs (no dashboard, workers' logs not forwarded) serves the whole module and is
shut down after it; starting it takes seconds, so the tests that use it are ``slow``. The checks of
the pool seam and of the command line's ``--ray`` parsing need no Ray and stay in the quick loop.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from cuarenta.cli.arena import bare_ray, ray_pool
from cuarenta.players.arena import ChicaRecord, run_match
from cuarenta.players.pools import (
    PoolError,
    ProcessPool,
    RayPool,
    SerialPool,
    batch_size,
    check_address,
    in_order,
    make_pool,
)

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def local_ray() -> Iterator[Any]:
    if ray.is_initialized():  # pragma: no cover - another module left one running
        ray.shutdown()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        yield ray
    finally:
        ray.shutdown()


def _negate(x: int) -> int:
    return -x


# -- without Ray ---------------------------------------------------------------------------------
def test_the_pools_give_the_same_results_back_in_order() -> None:
    items = list(range(7))
    expected = [-x for x in items]
    assert in_order(SerialPool().run(_negate, items), len(items)) == expected
    assert in_order(ProcessPool(2).run(_negate, items), len(items)) == expected
    with pytest.raises(PoolError, match=r"no result for items \[1\]"):
        in_order([(0, 0)], 2)


def test_batch_sizes_follow_the_work() -> None:
    assert batch_size(10_000, 2, 0.001) == 250  # a quarter second a task
    assert batch_size(10_000, 200, 0.001) == 13  # a cluster: four tasks a worker first
    assert batch_size(10, 2, 5.0) == 1
    assert batch_size(0, 2, 1.0) == 1


def test_a_bare_ray_option_means_a_local_ray() -> None:
    assert bare_ray(["arena", "a", "b", "--ray"])[-1] == "--ray=local"
    assert bare_ray(["arena", "--ray", "-j", "2"])[1] == "--ray=local"
    assert bare_ray(["arena", "--ray", "ray://h:1"])[1:] == ["--ray", "ray://h:1"]
    assert bare_ray(["arena", "--", "--ray"])[-1] == "--ray"
    local = ray_pool("local", 1, "pool")
    assert isinstance(local, RayPool) and local.address is None and local.mode == "pool"
    assert ray_pool(None, 2, "tasks") is None
    assert isinstance(make_pool(1, ray=True), RayPool)


@pytest.mark.parametrize(
    ("address", "words"),
    [
        ("127.0.0.1:1", "cannot reach the Ray cluster at '127.0.0.1:1'"),
        ("ray://127.0.0.1:1", "cannot reach the Ray cluster at 'ray://127.0.0.1:1'"),
        ("no port", "is not a Ray address"),
    ],
)
def test_a_bad_address_is_a_clear_error(address: str, words: str) -> None:
    with pytest.raises(PoolError, match=words):
        check_address(address, timeout=2.0)
    with pytest.raises(PoolError, match=words):
        run_match("facil", "aleatorio", chicas=4, seed=1, pool=RayPool(address))


def test_the_command_says_a_bad_address_and_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    from cuarenta.cli.commands import run

    with pytest.raises(SystemExit) as stop:
        run(["arena", "facil", "aleatorio", "--chicas", "4", "--json", "--ray", "127.0.0.1:1"])
    assert stop.value.code == 1
    assert "cannot reach the Ray cluster at '127.0.0.1:1'" in capsys.readouterr().err


# -- on a local Ray with two workers ---------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize(("players", "preset"), [(2, "a_todo_rigor"), (4, "campeonato")])
def test_ray_gives_exactly_the_local_arena(local_ray: Any, players: int, preset: str) -> None:
    local = run_match("facil", "aleatorio", chicas=24, players=players, rules=preset, seed=11)
    seen: list[ChicaRecord] = []
    for pool in (RayPool(workers=2), RayPool(workers=7), RayPool(mode="pool")):
        on_ray = run_match(
            "facil", "aleatorio", chicas=24, players=players, rules=preset, seed=11, pool=pool,
            progress=seen.extend,
        )  # fmt: skip
        assert on_ray.to_dict(timings=False) == local.to_dict(timings=False)
        assert on_ray.games == local.games  # every chica, in pair order
        assert [g.first_hands for g in on_ray.games] == [g.first_hands for g in local.games]
    assert len(seen) == 3 * 24 and sorted(r.pair for r in seen) == sorted(3 * [g.pair for g in local.games])
    assert local_ray.cluster_resources()["CPU"] == 2


@pytest.mark.slow
def test_the_command_runs_on_ray(local_ray: Any, capsys: pytest.CaptureFixture[str]) -> None:
    from cuarenta.cli.commands import run

    with pytest.raises(SystemExit) as stop:
        run(["arena", "normal", "facil", "--chicas", "8", "--seed", "3", "--json", "--ray"])
    assert stop.value.code in (0, None)
    on_ray = json.loads(capsys.readouterr().out)
    local = run_match("normal", "facil", chicas=8, seed=3).to_dict(timings=False)
    assert {k: v for k, v in on_ray.items() if k in local and k != "bots"} == {
        k: v for k, v in local.items() if k != "bots"
    }
    for label in ("A", "B"):
        on_ray["bots"][label].pop("move_ms")
        assert on_ray["bots"][label] == local["bots"][label]
