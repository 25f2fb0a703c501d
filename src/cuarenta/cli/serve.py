"""``cuarenta serve``: the web app (FastAPI + uvicorn), also what ``cuarenta`` alone runs.

It prints the address to open, keeps its games in ``--data DIR`` (default: a
per-user data directory, see :func:`default_data_dir`) and runs uvicorn until
Ctrl-C. Registered in :mod:`cuarenta.cli` as ``app.command("serve")``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated, Final

import typer

DEFAULT_HOST: Final = "127.0.0.1"
DEFAULT_PORT: Final = 8000
DEFAULT_BOT_DELAY: Final = 0.8


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


def serve_command(
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
            help="Pause before each computer move, so a person can follow it.",
        ),
    ] = DEFAULT_BOT_DELAY,
) -> None:
    """Start the web app: play Cuarenta in the browser (prints the address to open)."""
    import uvicorn

    from cuarenta.server import create_app
    from cuarenta.server.store import StoreError

    data_dir = data if data is not None else default_data_dir()
    try:
        app = create_app(data_dir, bot_delay=bot_delay)
    except StoreError as exc:
        typer.echo(f"Error: {exc}", err=True)
        raise typer.Exit(1) from None
    typer.echo(f"Cuarenta: abre {address(host, port)} en tu navegador / open it in your browser")
    typer.echo(f"Partidas guardadas en / games saved in {data_dir}  (Ctrl-C para salir / to stop)")
    uvicorn.run(app, host=host, port=port, log_level="warning")
