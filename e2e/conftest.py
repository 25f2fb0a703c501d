"""Fixtures of the browser tests: the real server, Chromium, and a fresh page per test.

Run them with ``.venv/bin/pytest e2e`` (scripts/test.sh does, after the main suite). They need Debian's
``chromium`` at /usr/bin/chromium (or ``$CUARENTA_CHROMIUM``); without it they are skipped with a reason.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from harness import CHROMIUM, PHONE, PageLog, People, Server, launch_browser, new_context, watch_page
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

HERE = Path(__file__).resolve().parent
# The servers of the browser tests do not make the offline pack in the background: those that play on the
# device build it first (``cuarenta pack``), e2e/test_pack_page.py lets a server make it (or fail to).
os.environ.setdefault("CUARENTA_NO_PACK", "1")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not Path(CHROMIUM).exists():
        skip = pytest.mark.skip(reason=f"no Chromium at {CHROMIUM} (apt-get install chromium)")
        for item in items:
            if item.path.is_relative_to(HERE):
                item.add_marker(skip)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The real ``cuarenta serve`` on a free port, with a fresh data directory, for the whole run."""
    srv = Server(tmp_path_factory.mktemp("server") / "data", bot_delay=0.05)
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture(scope="session")
def base_url(server: Server) -> str:
    return server.url


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as pw:
        b = launch_browser(pw)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    """A fresh context (clean localStorage), 1280x800, no animations."""
    ctx = new_context(browser)
    try:
        yield ctx
    finally:
        ctx.close()


@pytest.fixture
def watched(context: BrowserContext, request: pytest.FixtureRequest) -> Iterator[tuple[Page, PageLog]]:
    """A page of the fresh context, with its WebSocket frames and script errors recorded; a script
    error in the page fails the test (at teardown)."""
    pg = context.new_page()
    log = watch_page(pg)
    yield pg, log
    shots = os.environ.get("CUARENTA_E2E_SHOTS")
    if shots and not pg.is_closed():
        pg.screenshot(path=str(Path(shots) / f"{request.node.name}.png"), full_page=True)
    assert not log.errors, f"script errors in the page: {log.errors}"


@pytest.fixture
def page(watched: tuple[Page, PageLog]) -> Page:
    return watched[0]


@pytest.fixture
def page_log(watched: tuple[Page, PageLog]) -> PageLog:
    """What ``page`` received on its WebSocket, and its script errors."""
    return watched[1]


@pytest.fixture
def start_server() -> Iterator[Callable[..., Server]]:
    """Start a server of one test on a data directory it may have filled first: ``start_server(data,
    options=(...), bot_delay=...)`` (:class:`harness.Server`'s arguments); every one is stopped at the end."""
    started: list[Server] = []

    def start(data_dir: Path, **kwargs: Any) -> Server:
        kwargs.setdefault("bot_delay", 0.05)
        srv = Server(data_dir, **kwargs)
        started.append(srv)
        srv.start()
        return srv

    try:
        yield start
    finally:
        for srv in started:
            srv.stop()


@pytest.fixture
def own_server(request: pytest.FixtureRequest, tmp_path: Path, start_server: Callable[..., Server]) -> Server:
    """A server of one test alone (which may stop, start or restart it), on its own data directory; a
    ``serve`` marker gives it :class:`harness.Server`'s arguments (``@pytest.mark.serve(options=(...))``)."""
    marker = request.node.get_closest_marker("serve")
    return start_server(tmp_path / "data", **(marker.kwargs if marker is not None else {}))


@pytest.fixture
def phone(browser: Browser) -> Iterator[tuple[Page, PageLog]]:
    """A phone-sized page (360x740, touch, 2x pixels) in a fresh context; no page error allowed."""
    context = new_context(browser, **PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    page = context.new_page()
    log = watch_page(page)
    try:
        yield page, log
    finally:
        context.close()
    assert not log.errors, log.errors


@pytest.fixture(params=["desktop", "phone"])
def sized(request: pytest.FixtureRequest) -> tuple[Page, PageLog]:
    """The test's page at 1280x800 (:func:`watched`) and then at 360x740 (:func:`phone`)."""
    pair: tuple[Page, PageLog] = request.getfixturevalue("watched" if request.param == "desktop" else "phone")
    return pair


@pytest.fixture
def people(browser: Browser) -> Iterator[People]:
    """Several people, each a browser context of their own (:class:`harness.People`)."""
    crowd = People(browser)
    try:
        yield crowd
    finally:
        crowd.close()
