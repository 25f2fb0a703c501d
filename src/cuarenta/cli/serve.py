"""``cuarenta serve``: the web app (FastAPI + uvicorn), also what ``cuarenta`` alone runs.

It prints the address to open, keeps its games in ``--data DIR`` (default: a
per-user data directory, see :func:`default_data_dir`) and runs uvicorn until
Ctrl-C. Registered in :mod:`cuarenta.cli` as ``app.command("serve")``.
"""

from __future__ import annotations

import contextlib
import enum
import os
import socket
import sys
from pathlib import Path
from typing import Annotated, Any, Final

import typer

from cuarenta.server.settings import DEFAULT_BOT_DELAY, ServerSettings

DEFAULT_HOST: Final = "127.0.0.1"
DEFAULT_PORT: Final = 8000
DEFAULT_ROOMS_PER_MINUTE: Final = 30.0
#: uvicorn's ``timeout_keep_alive``: an idle kept-alive connection is closed this many seconds after its
#: last answer. A proxy that keeps idle connections to the server must close them sooner (nginx's
#: ``keepalive_timeout`` of the upstream below this), or it may reuse one the server is closing.
KEEP_ALIVE_SECONDS: Final = 5
#: The limits of ``cuarenta serve`` (docs/operations.md "Limits"); 0 turns a count off.
DEFAULT_SOCKETS_PER_ADDRESS: Final = 20
DEFAULT_ADDRESS_MESSAGES: Final = 40.0
DEFAULT_HTTP_PER_MINUTE: Final = 240.0
DEFAULT_MAX_CONNECTIONS: Final = 4096
#: (the same as ``cuarenta.server.edge.protocols``'s, which this module does not import until it serves)
DEFAULT_CONNECTIONS_PER_ADDRESS: Final = 50
DEFAULT_HEADER_TIMEOUT: Final = 10.0
DEFAULT_BODY_TIMEOUT: Final = 30.0
#: (the same as ``cuarenta.server.championships.DEFAULT_MAX_PAIRS``, imported only to serve)
DEFAULT_CHAMPIONSHIP_PAIRS: Final = 256


class LogFormat(enum.StrEnum):
    """``--log-format``: a line of text, or one JSON object a line (docs/operations.md "Logs")."""

    text = "text"
    json = "json"


class LogLevel(enum.StrEnum):
    """``--log-level``: uvicorn's levels."""

    error = "error"
    warning = "warning"
    info = "info"
    debug = "debug"


def uvicorn_options(
    log_level: str = "warning",
    log_format: str = "text",
    log_fields: dict[str, Any] | None = None,
    *,
    forwarded_allow_ips: str | None = None,
    header_timeout: float | None = None,
    body_timeout: float | None = None,
    max_connections: int | None = DEFAULT_MAX_CONNECTIONS,
    connections_per_address: int | None = None,
) -> dict[str, Any]:
    """How ``cuarenta serve`` runs uvicorn (docs/web.md "Security", docs/operations.md "Logs", "Limits").

    WebSocket frames above 64 KiB are refused (close 1009) before they are read; the socket is not
    compressed (each message would cost the event loop a deflate, and a game message is a few KiB);
    no ``Server`` header; ``token=`` and ``invite=`` values are hidden in every log line; uvicorn's lines
    and the app's (``cuarenta.*``) are text or, with ``log_format="json"``, one JSON object each, with the
    constant ``log_fields`` (e.g. ``{"node": "web-1"}``) on every line.

    Connections: the HTTP protocol is :func:`cuarenta.server.edge.protocols.guarded_protocol` (the head and
    body timeouts, ``connections_per_address``), idle kept-alive connections close after
    :data:`KEEP_ALIVE_SECONDS`, at most ``max_connections`` at once (``None``: no limit), and
    ``X-Forwarded-For``/``X-Forwarded-Proto`` are believed from the ``forwarded_allow_ips`` proxies only
    (comma-separated addresses or networks; ``None`` or empty: from nobody).

    >>> options = uvicorn_options()
    >>> options["ws_max_size"], options["ws_per_message_deflate"], options["server_header"]
    (65536, False, False)
    >>> options["timeout_keep_alive"], options["limit_concurrency"], options["proxy_headers"]
    (5, 4096, False)
    >>> options["http"].guard.header_timeout, options["http"].guard.body_timeout
    (10.0, 30.0)
    >>> uvicorn_options(forwarded_allow_ips="127.0.0.1")["forwarded_allow_ips"]
    '127.0.0.1'
    """
    # deferred (here and in this module's other functions): uvicorn and the server (the web extra) load
    # only when `cuarenta serve` runs, not for the other commands nor for --help
    from uvicorn.config import LOGGING_CONFIG

    from cuarenta.server.edge.protocols import (
        BODY_TIMEOUT,
        CONNECTIONS_PER_ADDRESS,
        HEADER_TIMEOUT,
        ConnectionGuard,
        guarded_protocol,
        proxy_networks,
    )
    from cuarenta.server.edge.security import WS_MAX_FRAME_BYTES
    from cuarenta.server.ops.logs import logging_config

    if log_format not in ("text", "json"):
        raise ValueError(f"unknown log format {log_format!r}: text or json")
    log_config = logging_config(
        "json" if log_format == "json" else "text", log_level, fields=log_fields, base=LOGGING_CONFIG
    )
    proxies = (forwarded_allow_ips or "").strip()
    guard = ConnectionGuard(
        header_timeout=HEADER_TIMEOUT if header_timeout is None else header_timeout,
        body_timeout=BODY_TIMEOUT if body_timeout is None else body_timeout,
        per_address=CONNECTIONS_PER_ADDRESS if connections_per_address is None else connections_per_address,
        trusted=proxy_networks(proxies),
    )
    options: dict[str, Any] = {
        "log_level": log_level,
        "log_config": log_config,
        "ws_max_size": WS_MAX_FRAME_BYTES,
        "ws_per_message_deflate": False,
        "server_header": False,
        "http": guarded_protocol(guard),
        "timeout_keep_alive": KEEP_ALIVE_SECONDS,
        "limit_concurrency": max_connections or None,
        # uvicorn's own default believes X-Forwarded-For from 127.0.0.1: here nobody, unless named
        "proxy_headers": bool(proxies),
    }
    if proxies:
        options["forwarded_allow_ips"] = proxies
    return options


def _check_proxies(value: str | None) -> str | None:
    """``--forwarded-allow-ips``: IP addresses or networks, comma-separated, or ``*``."""
    from cuarenta.server.edge.protocols import BadProxyAddress, proxy_networks

    try:
        proxy_networks(value)
    except BadProxyAddress as exc:
        raise typer.BadParameter(str(exc)) from None
    return value


def _check_names(values: list[str] | None) -> list[str] | None:
    """``--server-name`` values must be host names."""
    from cuarenta.server.edge.hosts import BadServerName, normal_name

    names: list[str] = []
    for value in values or ():
        for name in value.replace(",", " ").split():  # (the environment variable may list several)
            try:
                names.append(normal_name(name))
            except BadServerName as exc:
                raise typer.BadParameter(str(exc)) from None
    return names


def _check_origins(values: list[str] | None) -> list[str] | None:
    """``--allow-origin`` values must be origins (``https://host[:port]``)."""
    from cuarenta.server.edge.security import normal_origin

    for value in values or ():
        if normal_origin(value) is None or value.rstrip("/").count("/") > 2:
            raise typer.BadParameter(f"{value!r} is not an origin: write it as https://host[:port]")
    return values


def raise_open_files(connections: int, spare: int = 256) -> None:
    """Raise the process' soft limit of open files towards ``connections + spare`` (each connection is a
    file; the hard limit is the most a process may ask for). A limit that stays below is not an error:
    uvicorn then cannot accept what the system does not allow.

    >>> raise_open_files(0)  # nothing to do
    """
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        return
    if connections <= 0:
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = connections + spare
    if hard != resource.RLIM_INFINITY:
        wanted = min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        with contextlib.suppress(ValueError, OSError):  # not allowed here: uvicorn accepts what it can
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def default_data_dir() -> Path:
    """Where games are kept by default: ``$XDG_DATA_HOME/cuarenta`` or ``~/.local/share/cuarenta``.

    On Windows, ``%LOCALAPPDATA%\\cuarenta``.
    """
    if sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        return Path(os.environ["LOCALAPPDATA"]) / "cuarenta"
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "cuarenta"


def address(host: str, port: int) -> str:
    """The address a person opens in the browser.

    >>> address("127.0.0.1", 8000), address("0.0.0.0", 8080), address("::1", 8000)
    ('http://127.0.0.1:8000/', 'http://127.0.0.1:8080/', 'http://[::1]:8000/')
    """
    if host in ("0.0.0.0", ""):
        host = "127.0.0.1"
    elif host == "::":
        host = "::1"
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/"


def serve_command(  # noqa: PLR0913 - a typer command: each parameter is one of its options
    host: Annotated[str, typer.Option("--host", metavar="HOST", help="Address to listen on.")] = DEFAULT_HOST,
    port: Annotated[
        int, typer.Option("--port", metavar="PORT", min=1, max=65535, help="Port to listen on.")
    ] = DEFAULT_PORT,
    data: Annotated[
        Path | None,
        typer.Option(
            "--data",
            metavar="DIR",
            file_okay=False,
            help="Directory of the saved games (created if needed); default ~/.local/share/cuarenta.",
        ),
    ] = None,
    bot_delay: Annotated[
        float,
        typer.Option(
            "--bot-delay",
            metavar="SECONDS",
            min=0.0,
            max=60.0,
            help="Pause before each computer move at the normal pace, so a person can follow it "
            "(a browser may choose slow, 2.5 times as long, or fast, a quarter).",
        ),
    ] = DEFAULT_BOT_DELAY,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers",
            metavar="N",
            min=0,
            max=256,
            help="Worker processes the computer players think in (default: one per core; 0: in-process).",
        ),
    ] = None,
    allow_origin: Annotated[
        list[str] | None,
        typer.Option(
            "--allow-origin",
            metavar="ORIGIN",
            callback=_check_origins,
            help="Another browser origin that may open the game socket, e.g. https://cuarenta.example.org "
            "(behind a proxy that changes the scheme or host; repeatable). The server's own is always "
            "allowed.",
        ),
    ] = None,
    rooms_per_minute: Annotated[
        float,
        typer.Option(
            "--rooms-per-minute",
            metavar="N",
            min=0.0,
            help="New rooms allowed per client address and minute (also the burst); 0: no limit.",
        ),
    ] = DEFAULT_ROOMS_PER_MINUTE,
    max_sockets_per_address: Annotated[
        int,
        typer.Option(
            "--max-sockets-per-address",
            metavar="N",
            min=0,
            help="WebSockets one client address may hold open (an IPv6 address counts by its /64); "
            "more are refused at the handshake with 429. 0: no limit.",
        ),
    ] = DEFAULT_SOCKETS_PER_ADDRESS,
    address_messages_per_second: Annotated[
        float,
        typer.Option(
            "--address-messages-per-second",
            metavar="N",
            min=0.0,
            help="Socket messages per second one client address may send across all its sockets (bursts "
            "of twice as many; each socket also has its own 20 a second); over it, rate_limited. "
            "0: no limit.",
        ),
    ] = DEFAULT_ADDRESS_MESSAGES,
    http_per_minute: Annotated[
        float,
        typer.Option(
            "--http-per-minute",
            metavar="N",
            min=0.0,
            help="API requests per minute from one client address (bursts of half as many; the expensive "
            "ones, such as /api/qr and /api/history, count 4); over it, 429 with Retry-After. 0: no limit.",
        ),
    ] = DEFAULT_HTTP_PER_MINUTE,
    max_connections: Annotated[
        int,
        typer.Option(
            "--max-connections",
            metavar="N",
            min=0,
            help="Connections (HTTP and sockets) this process holds at once; over it, 503. 0: no limit.",
        ),
    ] = DEFAULT_MAX_CONNECTIONS,
    max_connections_per_address: Annotated[
        int,
        typer.Option(
            "--max-connections-per-address",
            metavar="N",
            min=0,
            help="HTTP connections one client address may hold at once (the --forwarded-allow-ips proxies "
            "are not counted); the requests of one more are answered 429. 0: no limit.",
        ),
    ] = DEFAULT_CONNECTIONS_PER_ADDRESS,
    header_timeout: Annotated[
        float,
        typer.Option(
            "--header-timeout",
            metavar="SECONDS",
            min=0.1,
            max=3600.0,
            help="A connection that has not sent a whole request head within this time is closed.",
        ),
    ] = DEFAULT_HEADER_TIMEOUT,
    body_timeout: Annotated[
        float,
        typer.Option(
            "--body-timeout",
            metavar="SECONDS",
            min=0.1,
            max=3600.0,
            help="A request whose body has not arrived within this time of its head is answered 408.",
        ),
    ] = DEFAULT_BODY_TIMEOUT,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            "--forwarded-allow-ips",
            metavar="IPS",
            envvar="FORWARDED_ALLOW_IPS",
            callback=_check_proxies,
            help="The proxies in front (comma-separated addresses or networks, e.g. 127.0.0.1): "
            "X-Forwarded-For and X-Forwarded-Proto are believed from them only. Default: from nobody.",
        ),
    ] = None,
    server_name: Annotated[
        list[str] | None,
        typer.Option(
            "--server-name",
            metavar="NAME",
            envvar="CUARENTA_SERVER_NAME",
            callback=_check_names,
            help="A name this server is reached by, e.g. cuarenta.example.org (repeatable). Requests for "
            "other names are refused (DNS rebinding); IP addresses, localhost, this machine's name and the "
            "hosts of --allow-origin are always served.",
        ),
    ] = None,
    database: Annotated[
        str | None,
        typer.Option(
            "--database",
            metavar="URL",
            envvar="CUARENTA_DATABASE_URL",
            help="Keep the games in this database instead of the SQLite file of --data "
            "(a SQLAlchemy URL, e.g. postgresql+psycopg://user@host/cuarenta; see docs/storage.md).",
        ),
    ] = None,
    redis: Annotated[
        str | None,
        typer.Option(
            "--redis",
            metavar="URL",
            envvar="CUARENTA_REDIS_URL",
            help="Run as one node of a cluster: other nodes' moves arrive through this Redis, and computer "
            "moves are jobs for `cuarenta worker` processes (e.g. redis://127.0.0.1:6379/0; needs "
            "--database of a PostgreSQL server; docs/scaling.md).",
        ),
    ] = None,
    node: Annotated[
        str | None,
        typer.Option(
            "--node",
            metavar="NAME",
            help="This process's name in the cluster (default: the machine's name and the port).",
        ),
    ] = None,
    max_rooms: Annotated[
        int | None,
        typer.Option(
            "--max-rooms",
            metavar="N",
            min=1,
            help="Rooms kept in memory at most (default 1000); idle ones leave it and come back when needed.",
        ),
    ] = None,
    championship_pairs: Annotated[
        int,
        typer.Option(
            "--championship-pairs",
            metavar="N",
            min=0,
            help="The most pairs a championship takes (default 256; 0: no limit). One process pairs a "
            "round of 256 with /api/health under 100 ms (docs/performance.md).",
        ),
    ] = DEFAULT_CHAMPIONSHIP_PAIRS,
    log_level: Annotated[
        LogLevel,
        typer.Option(
            "--log-level",
            help="What the server logs; info adds a line per request (tokens never appear in it).",
        ),
    ] = LogLevel.warning,
    leaderboard_games: Annotated[
        int,
        typer.Option(
            "--leaderboard-games",
            metavar="N",
            min=1,
            help="Rated mesas a profile plays (in a mode) before the leaderboard lists it (default 5).",
        ),
    ] = 5,
    leaderboard_opponents: Annotated[
        int,
        typer.Option(
            "--leaderboard-opponents",
            metavar="N",
            min=1,
            help="Different opponents a profile meets (in a mode) before the leaderboard lists it "
            "(default 3).",
        ),
    ] = 3,
    log_format: Annotated[
        LogFormat,
        typer.Option(
            "--log-format",
            help="text, or json: every log line one JSON object (ts, level, logger, msg and fields such as "
            "room), for a log collector.",
        ),
    ] = LogFormat.text,
    init: Annotated[
        bool,
        typer.Option(
            "--init",
            help="Start afresh where the SQLite file of --data is missing, empty or damaged (otherwise the "
            "server refuses to start): a new, empty database; a damaged file is moved aside to "
            "cuarenta.sqlite3.damaged-TIME, never deleted. A sound database is kept as it is.",
        ),
    ] = False,
    accept_lost_wal: Annotated[
        bool,
        typer.Option(
            "--accept-lost-wal",
            help="Start on the SQLite file as it is although its write-ahead log was lost after a crash "
            "(moves acknowledged since the last checkpoint are gone; docs/storage.md).",
        ),
    ] = False,
    pack: Annotated[
        Path | None,
        typer.Option(
            "--pack",
            metavar="DIR",
            help="The offline pack served at /device/ (default: where `cuarenta pack` builds it; "
            'docs/web.md "Install and offline"). Made there by the server when it is missing.',
        ),
    ] = None,
    no_pack: Annotated[
        bool,
        typer.Option(
            "--no-pack",
            envvar="CUARENTA_NO_PACK",
            help="Do not make the offline pack (the game on the device) when it is missing or stale: serve "
            "/device/ only if a pack is there. By default the server makes it in the background (npm and "
            "Node.js needed; its progress in the log).",
        ),
    ] = False,
) -> None:
    """Start the web app: play Cuarenta in the browser (prints the address to open)."""
    import uvicorn

    from cuarenta.server import create_app
    from cuarenta.server.edge.ratelimits import Limits
    from cuarenta.server.ops.gcpolicy import GcPolicy
    from cuarenta.server.store import StoreError
    from cuarenta.server.store.profilerows import Established

    raise_open_files(max_connections)

    data_dir = data if data is not None else default_data_dir()
    node_label = node or (None if redis is None else f"{socket.gethostname()}:{port}")
    try:
        settings = ServerSettings.of(
            bot_delay=bot_delay,
            workers=workers,
            max_rooms=max_rooms,
            database=database,
            init=init,
            accept_lost_wal=accept_lost_wal,
            redis=redis,
            node=node_label,
            allow_origins=allow_origin or (),
            server_names=server_name or (),
            pack_dir=pack,
            make_pack=not no_pack,
            championship_pairs=championship_pairs,
        )
        app = create_app(
            data_dir,
            limits=Limits(
                rooms_per_minute=rooms_per_minute,
                rooms_burst=max(1, round(rooms_per_minute)),
                sockets_per_address=max_sockets_per_address,
                address_rate=address_messages_per_second,
                address_burst=max(1, round(2 * address_messages_per_second)),
                http_per_minute=http_per_minute,
            ),
            established=Established(games=leaderboard_games, opponents=leaderboard_opponents),
            settings=settings,
        )
    except (StoreError, ValueError) as exc:
        typer.echo(f"Error: {exc}", err=True)
        raise typer.Exit(1) from None
    where = app.state.store.where
    moved = app.state.store.moved_aside
    if moved is not None:
        typer.echo(f"--init: a new database; the old file is kept as {moved}", err=True)
    if log_format is LogFormat.json:  # every line a JSON object, these too (printed whatever the level)
        from cuarenta.server.ops.logs import json_line

        typer.echo(json_line("cuarenta.serve", "serving", address=address(host, port), store=where))
    else:
        typer.echo(f"Cuarenta: abre {address(host, port)} en tu navegador / open it in your browser")
        typer.echo(f"Partidas guardadas en / games saved in {where}  (Ctrl-C para salir / to stop)")
    gc_policy = GcPolicy()  # no stalls from full collections over a large heap (docs/performance.md)
    gc_policy.install()
    try:
        uvicorn.run(
            app,
            host=host,
            port=port,
            **uvicorn_options(
                log_level.value,
                log_format.value,
                None if node_label is None else {"node": node_label},
                forwarded_allow_ips=forwarded_allow_ips,
                header_timeout=header_timeout,
                body_timeout=body_timeout,
                max_connections=max_connections,
                connections_per_address=max_connections_per_address,
            ),
        )
    finally:
        gc_policy.uninstall()
