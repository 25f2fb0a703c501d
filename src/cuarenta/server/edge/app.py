"""The FastAPI application: :func:`create_app` assembles the store and the rooms, the middleware, the
app's state and the routers of the edge — nothing else lives here (docs/architecture.md).

The routes are one module per group (:mod:`~cuarenta.server.edge.operations` health and the operator's
endpoints, :mod:`~cuarenta.server.edge.options`, :mod:`~cuarenta.server.edge.profiles`,
:mod:`~cuarenta.server.edge.rooms`, :mod:`~cuarenta.server.edge.tables`, :mod:`~cuarenta.server.edge.qr`,
:mod:`~cuarenta.server.edge.records`, :mod:`~cuarenta.server.edge.sockets` the ``/ws`` WebSocket,
:mod:`~cuarenta.server.edge.pages` the page); what they share (tokens, rate limits, errors) is
:mod:`~cuarenta.server.edge.deps`. Its defences (docs/web.md "Security") are
:mod:`~cuarenta.server.edge.security` (security headers, a request-body limit, no tokens in addresses, the
Origin check of ``/ws``), :mod:`~cuarenta.server.edge.limits` (the limits per client address) and
:mod:`~cuarenta.server.edge.hosts` (the Host check; docs/operations.md "Limits"). The API's schema is
served at ``/api/openapi.json`` (and nowhere else).

>>> import tempfile, pathlib
>>> from fastapi.testclient import TestClient
>>> with tempfile.TemporaryDirectory() as d, TestClient(create_app(pathlib.Path(d), bot_delay=0)) as client:
...     client.get("/api/health").json()["protocol"]
2
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING, Final, Unpack

from fastapi import FastAPI
from fastapi.middleware.gzip import GZipMiddleware

from cuarenta import __version__
from cuarenta.analysis.puzzles import shipped as shipped_puzzles
from cuarenta.offline.keeper import PackKeeper
from cuarenta.offline.pack import default_pack_dir
from cuarenta.server import wiring
from cuarenta.server.championships import DEFAULT_MAX_PAIRS, Championships
from cuarenta.server.edge import (
    championships,
    daily,
    device,
    operations,
    options,
    pages,
    profiles,
    puzzles,
    qr,
    records,
    rooms,
    sockets,
    tables,
)
from cuarenta.server.edge.deps import CreationLimits, errors, install_error_handlers
from cuarenta.server.edge.hosts import HostCheck, ServerNames
from cuarenta.server.edge.limits import AddressLimits
from cuarenta.server.edge.pages import STATIC_DIR
from cuarenta.server.edge.ratelimits import Limits
from cuarenta.server.edge.records import MAX_TOKENS
from cuarenta.server.edge.rooms import rules_of
from cuarenta.server.edge.security import TOKEN_IN_ADDRESS, Origins, RequestGuard, SecurityHeaders
from cuarenta.server.ops.health import Readiness
from cuarenta.server.ratings.puzzles import PuzzleRatings
from cuarenta.server.settings import DEFAULT_BOT_DELAY, ServerSettings, SettingsOptions
from cuarenta.server.store import Store
from cuarenta.server.store.profiles import Established

if TYPE_CHECKING:
    from redis.asyncio import Redis

#: Where the API's OpenAPI schema is served (nothing at /openapi.json, /docs or /redoc).
OPENAPI_URL: Final = "/api/openapi.json"
#: Answers smaller than this are sent uncompressed (the token of ``POST /api/rooms`` is never compressed).
GZIP_MINIMUM_BYTES: Final = 500


def create_app(
    data_dir: Path,
    bot_delay: float = DEFAULT_BOT_DELAY,
    static_dir: Path | None = None,
    workers: int | None = None,
    *,
    limits: Limits | None = None,
    established: Established | None = None,
    settings: ServerSettings | None = None,
    **keywords: Unpack[SettingsOptions],
) -> FastAPI:
    """The web app, keeping its games in ``data_dir`` (created if needed), or in ``database`` (a URL).

    ``bot_delay`` is the pause in seconds before each computer move; ``static_dir`` the page to serve at
    ``/`` (default: the installed package's ``web/static``).
    ``workers`` is the number of worker processes the computer players think in (default: one per core;
    0: in-process, on one thread — :mod:`cuarenta.server.thinking`).
    ``limits`` are the rate limits (default :class:`~cuarenta.server.edge.ratelimits.Limits`);
    ``allow_origins`` the browser origins besides the server's own that may open ``/ws`` (``cuarenta
    serve --allow-origin``); ``max_rooms`` the rooms kept in memory at most (default
    :data:`~cuarenta.server.authority.model.DEFAULT_MAX_ROOMS`, docs/storage.md).
    With ``redis`` (a URL) the app is one node of a cluster named ``node`` (:mod:`cuarenta.server.cluster`,
    docs/scaling.md): ``database`` must then be a PostgreSQL URL, and computer moves are played by
    ``cuarenta worker`` processes. ``established`` says when a rating is on the leaderboard (default
    :class:`~cuarenta.server.store.profiles.Established`: 5 rated mesas against 3 different opponents).
    ``init`` and ``accept_lost_wal`` are for a SQLite file that is missing, empty, damaged or lost its
    WAL (``cuarenta serve --init``, ``--accept-lost-wal``; docs/storage.md "Storage faults"), which is
    otherwise refused with :class:`~cuarenta.server.store.StoreError`; ``integrity_seconds`` the
    shortest time between two ``PRAGMA quick_check`` of ``/readyz`` (docs/operations.md).
    ``server_names`` turns the Host check on (:mod:`cuarenta.server.edge.hosts`): requests must name an IP
    address, ``localhost``, this machine, one of these names or a host of ``allow_origins``; ``None`` (the
    default of the library function; ``cuarenta serve`` always checks) leaves it off.
    ``pack_dir`` is the offline pack served at ``/device/`` (default
    :func:`~cuarenta.offline.pack.default_pack_dir`, where ``cuarenta pack`` builds it); with ``make_pack``
    (``cuarenta serve`` without ``--no-pack``) the app makes it there in the background when it is missing
    or stale (:class:`~cuarenta.offline.keeper.PackKeeper`).
    ``championship_pairs`` is the most pairs a championship takes (``cuarenta serve --championship-pairs``;
    default :data:`~cuarenta.server.championships.DEFAULT_MAX_PAIRS`, 0 for no limit).
    ``settings`` (:class:`~cuarenta.server.settings.ServerSettings`) gives all of these options at once,
    as ``cuarenta serve`` does; given, the keyword options above (but ``limits`` and ``established``) are
    not read; without it they are made into one (:meth:`~cuarenta.server.settings.ServerSettings.of`;
    :class:`~cuarenta.server.settings.SettingsOptions` names them). The authority is built by
    :func:`~cuarenta.server.wiring.build_authority`.
    """
    if settings is None:
        settings = ServerSettings.of(bot_delay, workers, **keywords)
    origins = Origins(settings.allow_origins)  # a bad origin fails here, before anything is opened
    names = (
        None
        if settings.server_names is None
        else ServerNames.with_origins(settings.server_names, settings.allow_origins)
    )
    limits = Limits() if limits is None else limits
    if settings.database is None:
        store = Store.in_dir(Path(data_dir), init=settings.init, accept_lost_wal=settings.accept_lost_wal)
    else:
        store = Store(settings.database, init=settings.init, accept_lost_wal=settings.accept_lost_wal)
    redis_client: Redis | None = None
    if settings.redis is not None:
        redis_client = wiring.redis_client(settings.redis)
    the_rooms = wiring.build_authority(store, settings, redis=redis_client)
    pairs = settings.championship_pairs
    pack_dir = settings.pack_dir

    keeper = PackKeeper(default_pack_dir() if pack_dir is None else Path(pack_dir), build=settings.make_pack)

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        keeper.start()  # the offline pack, made in a thread of its own when it is missing
        # the shipped puzzles are read in a thread now, not by the first person who opens them (half a
        # second on an idle machine, several on a loaded one, and the page says "Cargando…" meanwhile)
        warming = asyncio.ensure_future(asyncio.to_thread(shipped_puzzles))
        await the_rooms.open()  # the bus: nobody in one process, Redis on a cluster node
        await app.state.championships.open()
        try:
            yield
        finally:
            warming.cancel()
            await app.state.championships.close()
            await the_rooms.close()
            store.close()

    app = FastAPI(
        title="Cuarenta",
        version=__version__,
        summary="Play Cuarenta, the card game of Ecuador, against the computer (docs/protocol.md).",
        lifespan=lifespan,
        openapi_url=OPENAPI_URL,
        docs_url=None,
        redoc_url=None,
    )
    state = app.state
    state.rooms = the_rooms
    state.store = store
    state.championships = Championships(the_rooms, store, DEFAULT_MAX_PAIRS if pairs is None else pairs)
    state.puzzle_ratings = PuzzleRatings(store)  # docs/analysis.md "Puzzle ratings"
    state.redis = redis_client
    state.limits = limits
    state.origins = origins
    state.established = established or Established()
    state.server_names = names
    state.creation = CreationLimits(limits)
    state.sockets = sockets.SocketEdge(the_rooms, origins, limits)
    # a cluster sets app.state.redis: read at each check
    state.readiness = Readiness(store, lambda: getattr(app.state, "redis", None), settings.integrity_seconds)
    _guard(app, limits, names)
    static = STATIC_DIR if static_dir is None else Path(static_dir)
    state.pack = keeper
    _route(app, keeper, static)
    return app


def _guard(app: FastAPI, limits: Limits, names: ServerNames | None) -> None:
    """The app's defences (docs/web.md "Security"), outermost last: headers on every answer, the Host
    check, gzip, the limits per address (docs/operations.md "Limits"), the request checks."""
    app.add_middleware(RequestGuard)
    app.add_middleware(AddressLimits, limits=limits)
    app.add_middleware(GZipMiddleware, minimum_size=GZIP_MINIMUM_BYTES, compresslevel=6)
    if names is not None:
        app.add_middleware(HostCheck, names=names)
    app.add_middleware(SecurityHeaders)
    install_error_handlers(app)


def _route(app: FastAPI, keeper: PackKeeper, static: Path) -> None:
    """The edge's routers, the device's pack at ``/device/`` and the page at ``/`` (last: it takes it)."""
    app.include_router(operations.router)
    app.include_router(options.router, responses=errors(404))  # /api/options, /api/texts/{lang}
    app.include_router(profiles.router)  # profiles and the leaderboard (docs/tables.md)
    app.include_router(rooms.router)
    app.include_router(tables.router)  # tables with friends (docs/tables.md)
    app.include_router(championships.router)  # championships (docs/championships.md)
    app.include_router(qr.router)
    app.include_router(records.router)
    app.include_router(puzzles.router)  # the shipped puzzles (docs/protocol.md "Puzzles")
    app.include_router(daily.router)  # the deal of the day (docs/daily.md)
    app.include_router(sockets.router)
    device.mount_device(app, keeper, static)
    pages.mount_page(app, static)


__all__ = ["MAX_TOKENS", "OPENAPI_URL", "STATIC_DIR", "TOKEN_IN_ADDRESS", "create_app", "rules_of"]
