"""The one text catalogue of the project: every message, name and saying, per language, as data.

The texts live in JSON files inside the package, ``cuarenta/locale/<lang>/*.json``
(each file a flat object of ``key: template``; a key may appear in only one file of
a language, and every language has the same keys with the same ``{placeholders}``).
Texts that are the same in every language — the traditional sayings, Spanish
everywhere — live once in ``cuarenta/locale/common/*.json`` and belong to every
language. Python reads them through :func:`text`; the web server serves the same
catalogue to the page, so no text is written twice. Templates use plain
:meth:`str.format` fields (``{name}``), which the page fills the same way.

Keys are namespaced by concern: ``error.*`` (engine errors), ``ev.*`` and ``kind.*``
(events), ``saying.*``, ``option.*``/``preset.*``/``level.*`` (the rule options),
``term.*`` (the terminal), ``page.*`` (the web page) …

The engine uses the catalogue for one thing only: the English message of its
errors (``error.*`` keys), so that a caller can also show an error in Spanish
from its :attr:`~cuarenta.CuarentaError.code` and
:attr:`~cuarenta.CuarentaError.params`:

>>> text("error.card_not_in_deck", "es", text="9h")
"'9h' no es una carta: en el cuarenta no hay 8, 9 ni 10"
>>> text("error.card_not_in_deck", "en", text="9h")
"'9h' is not a card: 8, 9 and 10 are not in the 40-card deck"
"""

from __future__ import annotations

import json
import string
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Final

#: Supported languages; the first is the default (the game's own language).
LANGS: Final = ("es", "en")
DEFAULT_LANG: Final = "es"
#: The folder of the texts shared by every language (not a language itself).
COMMON: Final = "common"


class CatalogueError(Exception):
    """The catalogue files are broken (a duplicate key, bad JSON, not text): a packaging bug."""


def check_lang(lang: str) -> str:
    """Return ``lang`` if supported, else raise ``ValueError`` naming the choices.

    >>> check_lang("en")
    'en'
    """
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}: choose one of {', '.join(LANGS)}")
    return lang


def locale_dir() -> Traversable:
    """The folder of the catalogue files inside the installed package."""
    return resources.files("cuarenta").joinpath("locale")


def _read_folder(name: str) -> dict[str, dict[str, str]]:
    """The JSON files of ``locale/<name>/`` by file name, each checked to be a flat object of texts."""
    folder = locale_dir().joinpath(name)
    found: dict[str, dict[str, str]] = {}
    if not folder.is_dir():
        return found
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".json"):
            continue
        try:
            data = json.loads(entry.read_text(encoding="utf-8"))
        except ValueError as exc:
            raise CatalogueError(f"locale/{name}/{entry.name} is not valid JSON: {exc}") from None
        if not isinstance(data, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in data.items()
        ):
            raise CatalogueError(f"locale/{name}/{entry.name} must be an object of text keys and text values")
        found[f"{name}/{entry.name}"] = data
    return found


@cache
def files(lang: str) -> dict[str, dict[str, str]]:
    """The catalogue of ``lang`` by file, read once: the language's own files and the common ones
    (``{"es/errors.json": {...}, ..., "common/sayings.json": {...}}``).

    >>> "en/errors.json" in files("en"), "common/sayings.json" in files("en"), "es/errors.json" in files("en")
    (True, True, False)
    """
    return {**_read_folder(check_lang(lang)), **_read_folder(COMMON)}


@cache
def messages(lang: str = DEFAULT_LANG) -> dict[str, str]:
    """Every key of ``lang`` with its template (all the language's files merged).

    >>> messages("en")["error.card_not_in_deck"].startswith("'{text}' is not a card")
    True
    """
    merged: dict[str, str] = {}
    where: dict[str, str] = {}
    for name, data in files(lang).items():
        for key, value in data.items():
            if key in merged:
                raise CatalogueError(f"key {key!r} of {lang} is in both {where[key]} and {name}")
            merged[key] = value
            where[key] = name
    return merged


def text(key: str, lang: str = DEFAULT_LANG, /, **params: object) -> str:
    """The message ``key`` in ``lang`` with its ``{placeholders}`` filled from ``params``.

    An unknown key raises ``KeyError``; an unknown language ``ValueError``.

    >>> text("error.game_over", "en")
    'the mesa is over: no more moves'
    """
    return messages(lang)[key].format(**params)


def placeholders(template: str) -> set[str]:
    """The field names a template uses (``{card}``, ``{text!r}`` → ``card``, ``text``).

    >>> sorted(placeholders("{card} takes {cards!r} {n:>3}"))
    ['card', 'cards', 'n']
    """
    names = set()
    for _, field, _, _ in string.Formatter().parse(template):
        if field:
            names.add(field.split(".")[0].split("[")[0])
    return names


__all__ = [
    "COMMON",
    "DEFAULT_LANG",
    "LANGS",
    "CatalogueError",
    "check_lang",
    "files",
    "locale_dir",
    "messages",
    "placeholders",
    "text",
]
