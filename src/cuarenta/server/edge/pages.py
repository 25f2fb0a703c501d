"""The page at ``/``: the installed package's ``web/static`` (or another directory), served by
Starlette's :class:`~starlette.staticfiles.StaticFiles`; without an ``index.html`` a short HTML answer
says the page is missing. Mounted last: every route of the API comes first.

>>> (STATIC_DIR / "index.html").is_file()
True
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from fastapi import FastAPI
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

#: Where the page lives in the installed package (written by the page's own module).
STATIC_DIR: Final = Path(__file__).resolve().parents[2] / "web" / "static"
#: What ``/`` answers when the installation has no page.
NO_PAGE: Final = (
    "<!doctype html><html lang='es'><meta charset='utf-8'><title>Cuarenta</title>"
    "<p>The page of this installation is missing; the API is at /api/health.</p></html>"
)


def mount_page(app: FastAPI, static: Path) -> None:
    """Serve the page in ``static`` at ``/`` (its ``index.html`` for the directory), or :data:`NO_PAGE`."""
    if (static / "index.html").is_file():
        app.mount("/", StaticFiles(directory=static, html=True), name="page")
        return

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def no_page() -> str:
        return NO_PAGE


__all__ = ["NO_PAGE", "STATIC_DIR", "mount_page"]
