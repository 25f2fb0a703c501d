"""The ``cuarenta`` command line program (installed with the ``cli`` extra).

``cuarenta`` alone starts the web app; ``cuarenta play`` is the terminal game,
``cuarenta demo`` narrates a game between random players, ``cuarenta arena``
measures computer players. The typer application is
:data:`cuarenta.cli.commands.app`; this package's ``__init__`` imports nothing
beyond the standard library, so that :func:`main` can tell a person which
extra to install when typer or rich is missing, instead of a traceback.

>>> from cuarenta.cli import app, play_demo
>>> app.info.name
'cuarenta'
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any, Final

#: Third-party packages behind the command line (the ``cli`` extra) and the web app (``web``).
EXTRA_OF: Final = {
    "typer": "cli",
    "click": "cli",
    "rich": "cli",
    "fastapi": "web",
    "starlette": "web",
    "uvicorn": "web",
    "pydantic": "web",
    "sqlalchemy": "web",
    "alembic": "web",
    "websockets": "web",
    "redis": "cluster",
    "psycopg": "cluster",
}

#: Names this package offers lazily, from the module that defines them.
_LAZY: Final = {
    "app": "cuarenta.cli.commands",
    "play_demo": "cuarenta.cli.demo",
    "run_demo": "cuarenta.cli.demo",
    "chica_end": "cuarenta.cli.demo",
    "DemoPrinter": "cuarenta.cli.demo",
    "Output": "cuarenta.cli.demo",
}


def missing_extra(exc: ModuleNotFoundError) -> str | None:
    """The advice to give when ``exc`` is a missing optional dependency, else ``None``.

    >>> missing_extra(ModuleNotFoundError("No module named 'typer'", name="typer"))
    "cuarenta: this command needs the package 'typer': pip install 'cuarenta[cli]' (or 'cuarenta[all]')"
    >>> missing_extra(ModuleNotFoundError("x", name="cuarenta.nope")) is None
    True
    """
    top = (exc.name or "").split(".")[0]
    extra = EXTRA_OF.get(top)
    if extra is None:
        return None
    return (
        f"cuarenta: this command needs the package {top!r}: "
        f"pip install 'cuarenta[{extra}]' (or 'cuarenta[all]')"
    )


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the ``cuarenta`` program (``[project.scripts]``)."""
    try:
        from cuarenta.cli.commands import run  # deferred: `import cuarenta.cli` loads no command (typer)

        run(argv)
    except ModuleNotFoundError as exc:
        advice = missing_extra(exc)
        if advice is None:
            raise
        sys.stderr.write(advice + "\n")
        raise SystemExit(1) from None


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'cuarenta.cli' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)


__all__ = ["EXTRA_OF", "main", "missing_extra", *_LAZY]
