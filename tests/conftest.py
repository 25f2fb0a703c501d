"""The fixtures every test module shares: a data directory, the spy on what the server sends, and the
web app itself (``client``, one per test; ``module_client``, one per module).

The app's options come from the closest ``app`` marker (a test's own, else its module's
``pytestmark``), then from an indirect parameter; without either it is :func:`support.app.running`'s
server (rate limits lifted, two worker processes)::

    pytestmark = pytest.mark.app(workers=0)

    @pytest.mark.parametrize("client", [{"bot_delay": 0.5}], indirect=True)
    def test_something(client: TestClient) -> None: ...

A module of cluster tests (PostgreSQL and Redis, tests/support/cluster.py) asks for ``cluster``: a fresh
database and an empty Redis for each test, on services started once per module (``services``).

The helpers tests import live in tests/support/ (a package pytest does not collect); no test module
imports another (tests/test_layers.py checks it).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import settings

# hypothesis's profiles (tests/support/examples.py): ``ci`` runs every test's full count of examples
# (scripts/test.sh passes --hypothesis-profile=ci), ``quick`` (the default: the quick loop) fewer
settings.register_profile("ci", max_examples=100)
settings.register_profile("quick", max_examples=20)
settings.load_profile("quick")


def pytest_configure(config: pytest.Config) -> None:
    """Tell tests/support/examples.py whether the full counts run, before any test module is imported."""
    import support.examples

    profile = config.getoption("hypothesis_profile", None) or "quick"
    if profile not in support.examples.PROFILES:
        raise pytest.UsageError(f"--hypothesis-profile is one of {', '.join(support.examples.PROFILES)}")
    support.examples.full = profile == "ci"


# The servers the tests start do not make the offline pack in the background (docs/web.md "Install and
# offline"): tests/test_pack_serve.py does, on purpose, with this removed from its server's environment.
os.environ.setdefault("CUARENTA_NO_PACK", "1")


@pytest.fixture(autouse=True)
def reproducible_deals(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """The seeds the server draws (``secrets.randbelow``: a room's, a table's at its start, a
    championship's) come from a generator seeded with the test's id: a test meets the same deals every run.
    Drawn at random, about one deal in 700 of a 1 vs 1 table is over at the deal (four of a kind wins the
    chica, R17), and a test that waits for the table to be ``playing`` then failed once in hundreds of runs;
    now such a deal fails its test every run, or never. Those deals are tested on purpose
    (test_tables.py: a waiting deal over at the deal)."""
    import random
    import secrets

    draw = random.Random(request.node.nodeid)
    monkeypatch.setattr(secrets, "randbelow", lambda n: draw.randrange(n))


if TYPE_CHECKING:  # the server is imported when a test asks for it, not to run the engine's tests
    from fastapi.testclient import TestClient

    from support import cluster as cs
    from support.spy import Spy


def app_options(request: pytest.FixtureRequest) -> dict[str, Any]:
    """The keyword arguments of ``create_app`` for a ``client`` fixture: the closest ``app`` marker's,
    updated with the fixture's indirect parameter (a dict) if it has one."""
    marker = request.node.get_closest_marker("app")
    options: dict[str, Any] = dict(marker.kwargs) if marker is not None else {}
    options.update(getattr(request, "param", None) or {})
    return options


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    """The server's data directory of a test (not created: the server makes it)."""
    return tmp_path / "data"


@pytest.fixture
def spy(monkeypatch: pytest.MonkeyPatch) -> Spy:
    """Every message the server queues for a socket, with the cards hidden from it (tests/support/spy.py)."""
    from support.spy import install_spy

    return install_spy(monkeypatch)


@pytest.fixture
def client(request: pytest.FixtureRequest, data_dir: Path) -> Iterator[TestClient]:
    """The app on :func:`data_dir` for one test, its options from the ``app`` marker (see above)."""
    from support.app import running

    with running(data_dir, **app_options(request)) as c:
        yield c


@pytest.fixture(scope="module")
def module_client(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[TestClient]:
    """The app shared by the tests of a module (on a data directory of its own), options as ``client``'s."""
    from support.app import running

    with running(tmp_path_factory.mktemp("module") / "data", **app_options(request)) as c:
        yield c


# -- a cluster on real PostgreSQL and Redis (tests/support/cluster.py) ---------------------------------------
@pytest.fixture(scope="module")
def services(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[cs.Postgres, cs.RedisServer]]:
    """A PostgreSQL and a Redis server for one module's tests (loopback, data in a temporary folder)."""
    from support import cluster as cs

    root = tmp_path_factory.mktemp(f"cluster-{request.module.__name__.rsplit('.', 1)[-1]}")
    pg = cs.Postgres(root)
    redis = cs.RedisServer(root)
    yield pg, redis
    redis.stop()
    pg.remove()


@pytest.fixture
def cluster(services: tuple[cs.Postgres, cs.RedisServer], tmp_path: Path) -> Iterator[cs.Cluster]:
    """A cluster on :func:`services` for one test: an emptied database (its schema dropped) and Redis."""
    import sqlalchemy as sa

    from support import cluster as cs

    pg, redis = services
    engine = sa.create_engine(pg.url)
    with engine.begin() as conn:  # a fresh database for each test
        conn.exec_driver_sql("DROP SCHEMA public CASCADE")
        conn.exec_driver_sql("CREATE SCHEMA public")
    engine.dispose()
    if redis.proc is None:
        redis.start()
    redis.flush()
    made = cs.Cluster(tmp_path, pg, redis)
    try:
        yield made
    finally:
        made.close()
        made.tell_logs()  # shown only when the test failed
