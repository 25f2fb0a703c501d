"""``cuarenta worker``: a computer-player worker of a cluster (docs/scaling.md).

It takes computer-move jobs from the cluster's Redis stream and writes the moves to the cluster's
PostgreSQL database (:mod:`cuarenta.server.worker`). Run as many as the computer players need cores, on
any machine that reaches both. Registered in :mod:`cuarenta.cli` as ``app.command("worker")``.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
from typing import Annotated

import typer


def worker_command(
    database: Annotated[
        str,
        typer.Option(
            "--database",
            metavar="URL",
            envvar="CUARENTA_DATABASE_URL",
            help="The cluster's PostgreSQL database (postgresql+psycopg://user@host/cuarenta).",
        ),
    ],
    redis: Annotated[
        str,
        typer.Option(
            "--redis",
            metavar="URL",
            envvar="CUARENTA_REDIS_URL",
            help="The cluster's Redis (redis://host:6379/0).",
        ),
    ],
    name: Annotated[
        str | None,
        typer.Option(
            "--name", metavar="NAME", help="This worker's name (default: machine name and process id)."
        ),
    ] = None,
    concurrency: Annotated[
        int,
        typer.Option(
            "--concurrency",
            metavar="N",
            min=1,
            max=1024,
            help="Jobs in hand at once (most of a job is the pause before the move; thinking uses one core).",
        ),
    ] = 16,
    metrics_port: Annotated[
        int | None,
        typer.Option(
            "--metrics-port",
            metavar="PORT",
            min=1,
            max=65535,
            help="Serve this worker's Prometheus metrics (think time, moves) on 127.0.0.1:PORT/metrics.",
        ),
    ] = None,
) -> None:
    """Play the computer's moves of a cluster: take jobs from Redis, write moves to PostgreSQL."""
    # deferred: Redis, the store and the worker (the cluster extra) load only when the worker runs
    from redis.asyncio import Redis

    from cuarenta.server.store import Store, StoreError
    from cuarenta.server.worker import MoveWorker

    try:
        store = Store(database)
    except StoreError as exc:
        typer.echo(f"Error: {exc}", err=True)
        raise typer.Exit(1) from None
    label = name or f"{socket.gethostname()}-{os.getpid()}"

    async def main() -> None:
        client = Redis.from_url(redis, socket_connect_timeout=2, socket_timeout=5, health_check_interval=10)
        worker = MoveWorker(store, client, name=label, concurrency=concurrency)
        if metrics_port is not None:
            from prometheus_client import start_http_server  # deferred: optional, only with --metrics-port

            start_http_server(metrics_port, addr="127.0.0.1", registry=worker.rooms.metrics.registry)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        typer.echo(f"cuarenta worker {label}: jobs from {redis}, games in {store.where}")
        await worker.run(stop)

    try:
        asyncio.run(main())
    finally:
        store.close()
