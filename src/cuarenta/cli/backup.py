"""``cuarenta backup`` and ``cuarenta restore``: a copy of the SQLite store, taken while the server runs,
and that copy put back (docs/storage.md "Backup and restore"). Registered in :mod:`cuarenta.cli.commands`.

The work is :func:`cuarenta.server.store.backup.backup` and :func:`~cuarenta.server.store.backup.restore`;
here are the options, the one-line answers and the exit codes (0 done, 1 refused or failed: ``Error: …``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cuarenta.cli.serve import default_data_dir

_DATA = typer.Option(
    "--data",
    metavar="DIR",
    file_okay=False,
    help="The data directory of `cuarenta serve --data` (default ~/.local/share/cuarenta).",
)


def _refuse(message: str) -> None:
    typer.echo(f"Error: {message}", err=True)
    raise typer.Exit(1)


def backup_command(
    out: Annotated[Path, typer.Argument(metavar="OUT", help="The backup file to write.", dir_okay=False)],
    data: Annotated[Path | None, _DATA] = None,
    database: Annotated[
        str | None,
        typer.Option(
            "--database",
            metavar="URL",
            envvar="CUARENTA_DATABASE_URL",
            help="The server's --database: a PostgreSQL database is backed up with pg_dump (the command "
            "says how).",
        ),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace OUT if it exists.")] = False,
) -> None:
    """Copy the saved games to OUT, safely while the server runs (SQLite's online backup)."""
    # deferred (each command here): the store (SQLAlchemy, the web extra) loads only for the command run
    from cuarenta.server.store import DB_NAME
    from cuarenta.server.store.backup import POSTGRES_BACKUP, BackupError, backup

    if database is not None and not database.startswith("sqlite"):
        _refuse(POSTGRES_BACKUP)
    db = (data if data is not None else default_data_dir()) / DB_NAME
    try:
        made = backup(db, out, force=force)
    except BackupError as exc:
        _refuse(str(exc))
        return
    typer.echo(
        f"Copia / backup: {made.path} ({made.rooms} rooms, schema {made.revision}, {made.size:,} bytes)"
    )


def restore_command(
    source: Annotated[
        Path, typer.Argument(metavar="BACKUP", help="A file written by `cuarenta backup`.", dir_okay=False)
    ],
    data: Annotated[Path | None, _DATA] = None,
    force: Annotated[
        bool,
        typer.Option(
            "--force",
            help="Replace a sound database in DIR (it is moved aside to cuarenta.sqlite3.replaced-TIME).",
        ),
    ] = False,
) -> None:
    """Put a backup back as the database of DIR (checked first; never while a server runs on DIR)."""
    from cuarenta.server.store.backup import BackupError, restore

    data_dir = data if data is not None else default_data_dir()
    try:
        put = restore(source, data_dir, force=force)
    except BackupError as exc:
        _refuse(str(exc))
        return
    if put.moved_aside is not None:
        typer.echo(f"The database that was there is kept as {put.moved_aside}")
    typer.echo(
        f"Restaurada / restored: {put.path} ({put.rooms} rooms, schema {put.revision}); "
        f"start it with: cuarenta serve --data {data_dir}"
    )
