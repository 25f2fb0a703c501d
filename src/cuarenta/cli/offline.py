"""``cuarenta pack`` (build the offline pack) and ``cuarenta site DIR`` (write the static site); docs/web.md
"Install and offline", README "Publish the game as a static site"."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def _megabytes(described: dict[str, object]) -> str:
    files = described["files"]
    assert isinstance(files, dict)
    return f"{sum(f['bytes'] for f in files.values()) / 1e6:.1f} MB"


def pack_command(
    into: Annotated[
        Path | None,
        typer.Option(
            "--into",
            metavar="DIR",
            help="Where to build the pack (default: .cache/device-pack of the checkout, else "
            "$XDG_CACHE_HOME/cuarenta/device-pack; CUARENTA_PACK overrides it). `cuarenta serve` "
            "serves the default one (or --pack DIR).",
        ),
    ] = None,
) -> None:
    """Build the offline pack (Pyodide pinned from npm, the game compiled with it under Node.js): the game on
    the device. `cuarenta serve` makes it by itself when it is missing; this makes it now."""
    # deferred (each command here): the pack's builders load only for the command run
    from cuarenta.offline.npm import PackageError
    from cuarenta.offline.pack import PackError, build_pack, default_pack_dir

    where = default_pack_dir() if into is None else into
    try:
        described = build_pack(into=where, progress=typer.echo)
    except (PackError, PackageError) as exc:
        typer.echo(f"Error: {exc}", err=True)
        raise typer.Exit(1) from None
    typer.echo(f"pack {described['id']} in {where}: Pyodide {described['pyodide']}, {_megabytes(described)}")


def site_command(
    target: Annotated[
        Path, typer.Argument(metavar="DIR", help="A new or empty folder (or an earlier site).")
    ],
) -> None:
    """Write the game as a static site into DIR (any static host or a USB stick; it plays on the device)."""
    from cuarenta.offline.npm import PackageError
    from cuarenta.offline.pack import PackError
    from cuarenta.offline.site import SiteError, write_site

    try:
        described = write_site(target, progress=typer.echo)
    except (PackError, PackageError, SiteError) as exc:
        typer.echo(f"Error: {exc}", err=True)
        raise typer.Exit(1) from None
    typer.echo(f"site in {target}: the page and the pack {described['id']} ({_megabytes(described)})")


__all__ = ["pack_command", "site_command"]
