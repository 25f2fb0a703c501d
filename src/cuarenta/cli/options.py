"""Options shared by the terminal's commands.

>>> import typer
>>> from typer.testing import CliRunner
>>> app = typer.Typer()
>>> @app.command()
... def hello(lang: LangOption = "es") -> None:
...     print(lang)
>>> CliRunner().invoke(app, ["--lang", "en"]).output
'en\\n'
>>> "unknown language 'fr'" in CliRunner().invoke(app, ["--lang", "fr"]).output
True
"""

from __future__ import annotations

from typing import Annotated

import typer

from cuarenta.i18n import LANGS


def _known_lang(value: str) -> str:
    """``--lang``'s check: one of the languages the catalogue speaks."""
    if value not in LANGS:
        raise typer.BadParameter(f"unknown language {value!r}: choose one of {', '.join(LANGS)}")
    return value


#: ``--lang LANG``: the language of what a command says (``es`` or ``en``), checked as it is read.
LangOption = Annotated[
    str, typer.Option("--lang", metavar="LANG", help="Language: es or en.", callback=_known_lang)
]

__all__ = ["LangOption"]
