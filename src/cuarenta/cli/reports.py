"""``cuarenta puzzle-reports``: the reports of wrong puzzles a server has received, for a maintainer
(docs/analysis.md "Puzzle ratings"). Registered in :mod:`cuarenta.cli.commands`.

One line a report, oldest first: its number, when, the puzzle and the reason (``--json``: one JSON object a
line). The store is opened as the server opens it (``--data`` or ``--database``); a data directory with no
database is refused, never made.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from cuarenta.cli.backup import _DATA, _refuse
from cuarenta.cli.serve import default_data_dir


def puzzle_reports_command(
    data: Annotated[Path | None, _DATA] = None,
    database: Annotated[
        str | None,
        typer.Option(
            "--database",
            metavar="URL",
            envvar="CUARENTA_DATABASE_URL",
            help="The server's --database (a SQLAlchemy URL), instead of the SQLite file of --data.",
        ),
    ] = None,
    puzzle: Annotated[
        str | None, typer.Option("--puzzle", metavar="ID", help="Only the reports of this puzzle.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object a line.")] = False,
) -> None:
    """List the reports of wrong puzzles that the server received, oldest first."""
    # deferred: the store (SQLAlchemy, the web extra) loads only for the command run
    from cuarenta.server.store import DB_NAME, Store, StoreError
    from cuarenta.server.store.puzzles import reports

    if database is None:
        db = (data if data is not None else default_data_dir()) / DB_NAME
        if not db.is_file():
            _refuse(
                f"there is no database at {db}: give the --data of the server (`cuarenta serve --data DIR`)"
            )
        target: str | Path = db
    else:
        target = database
    try:
        store = Store(target)
        try:
            found = reports(store, puzzle)
        finally:
            store.close()
    except StoreError as exc:
        _refuse(str(exc))
        return
    for row in found:
        if as_json:
            typer.echo(json.dumps({"id": row.id, "at": row.at, "puzzle": row.puzzle, "reason": row.reason}))
        else:
            typer.echo(f"{row.id}\t{row.at}\t{row.puzzle}\t{row.reason}")
    if not as_json:
        typer.echo(f"{len(found)} report(s)", err=True)
