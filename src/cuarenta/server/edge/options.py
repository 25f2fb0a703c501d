"""What the page reads before it plays: the rule options of the new-game form and the text catalogue.

``GET /api/options`` is built from the engine's option table (:data:`cuarenta.rules.OPTIONS`), the
presets and the computer levels, with the label of every option, choice, preset and level in every
language of the catalogue; the page builds its form from it and keeps no copy of the table.
``GET /api/texts/{lang}`` serves one language of the catalogue (:mod:`cuarenta.catalogue`) — the same
texts the terminal uses — with an ``ETag``, so a browser asks again cheaply and gets ``304``.

>>> payload = options_payload()
>>> [o["name"] for o in payload["options"]][:3]
['sum_cards', 'capture', 'caida_limpia_points']
>>> ronda_limit = next(o for o in payload["options"] if o["name"] == "ronda_limit")
>>> ronda_limit["choices"], ronda_limit["choice_labels"]["en"]
([30, None], ['30 points', 'no limit'])
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from typing import Any, Final

from fastapi import APIRouter, HTTPException, Request, Response

from cuarenta import __version__, catalogue
from cuarenta.catalogue import LANGS
from cuarenta.errors import CuarentaError
from cuarenta.rules import OPTIONS, PRESET_NAMES, OptionSpec, Rules
from cuarenta.server.authority.seats import PLAYER_COUNTS  # the player counts a room may have (R3)
from cuarenta.server.names import NAME_MAX_CHARS, NAME_PATTERN, OPTIONAL_NAME_PATTERN
from cuarenta.server.protocol import PROTOCOL_VERSION
from cuarenta.server.rooms import available_levels, default_level

# NAME_MAX_CHARS (the longest name a person may give; the page's name field takes its limit from
# ``name_max_chars`` here), NAME_PATTERN and OPTIONAL_NAME_PATTERN (the schema's patterns of a name) are
# those of cuarenta.server.names, the one check of every name.


def known_level(value: str | None) -> str | None:
    """A request's computer level, refused (``ValueError``) unless the server has it; ``None`` (the
    default) passes. A validator of the API's bodies, whose schemas list the levels.

    >>> known_level("facil")
    'facil'
    """
    levels = available_levels()
    if value is not None and value not in levels:
        raise ValueError(f"unknown level {value!r}: choose one of {', '.join(levels)}")
    return value


#: The preset offered to a newcomer as the quick game: one chica, basic rules (it allows 1 v 1 only).
QUICK_PRESET: Final = "basico"
#: Label keys of the values of a ``points`` or ``cards`` option that the form does not list.
OTHER_VALUE_KEYS: Final = {"points": "option.value.points", "cards": "option.value.cards"}

router = APIRouter()


def labels(key: str, **params: object) -> dict[str, str]:
    """The catalogue's text ``key`` in every language: ``{"es": …, "en": …}``.

    >>> labels("option.capture")
    {'es': 'Al llevar', 'en': 'Capturing'}
    """
    return {lang: catalogue.text(key, lang, **params) for lang in LANGS}


def templates(key: str) -> dict[str, str]:
    """The catalogue's template ``key`` (placeholders left in) in every language."""
    return {lang: catalogue.messages(lang)[key] for lang in LANGS}


def _preset_allows(name: str, players: int) -> bool:
    try:
        Rules.preset(name, players)
    except CuarentaError:
        return False
    return True


def option_entry(spec: OptionSpec, default: object) -> dict[str, Any]:
    """One option of ``/api/options``: :meth:`OptionSpec.to_dict` with its labels.

    ``choice_labels`` holds, per language, the label of each of ``choices`` (same order);
    ``other_label`` the template (``{n}``) for a value the form does not list, or ``None``.
    """
    entry = spec.to_dict(default)
    entry["label"] = labels(spec.label_key)
    entry["choice_labels"] = {
        lang: [catalogue.text(spec.choice_key(c), lang) for c in spec.choices] for lang in LANGS
    }
    other = OTHER_VALUE_KEYS.get(spec.kind)
    entry["other_label"] = templates(other) if other else None
    return entry


def options_payload() -> dict[str, Any]:
    """``GET /api/options``: what the new-game form offers, with every label (docs/protocol.md)."""
    default = Rules()
    presets = []
    for name in PRESET_NAMES:
        allowed = [n for n in PLAYER_COUNTS if _preset_allows(name, n)]
        options = Rules.preset(name, allowed[0]).to_dict()
        options.pop("preset")
        options.pop("players")
        presets.append(
            {
                "name": name,
                "players": allowed,
                "options": options,
                "label": labels(f"preset.{name}"),
                "about": labels(f"preset.{name}.about"),
            }
        )
    levels = available_levels()
    return {
        "protocol": PROTOCOL_VERSION,
        "players": list(PLAYER_COUNTS),
        "presets": presets,
        "default_preset": PRESET_NAMES[0],
        "quick_preset": QUICK_PRESET,
        "custom": {"label": labels("preset.custom"), "about": labels("preset.custom.about")},
        "options": [
            option_entry(spec, getattr(default, spec.name)) for spec in OPTIONS if spec.name != "players"
        ],
        "levels": levels,
        "level_labels": {
            level: {"label": labels(f"level.{level}"), "about": labels(f"level.{level}.about")}
            for level in levels
        },
        "default_level": default_level(),
        "languages": list(LANGS),
        "name_max_chars": NAME_MAX_CHARS,
    }


@cache
def texts_body(lang: str) -> tuple[bytes, str]:
    """The JSON body of ``GET /api/texts/{lang}`` and its ETag (computed once per language).

    >>> body, etag = texts_body("en")
    >>> json.loads(body)["texts"]["points.for"], etag == texts_body("en")[1] != texts_body("es")[1]
    ('+{points} for {team}', True)
    """
    data = {"lang": lang, "version": __version__, "texts": catalogue.messages(lang)}
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
    return body, '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


@router.get("/api/options")
def get_options() -> dict[str, Any]:
    return options_payload()


@router.get("/api/texts/{lang}")
def get_texts(lang: str, request: Request) -> Response:
    """One language of the text catalogue; ``304`` when the browser's copy (``If-None-Match``) is current."""
    if lang not in LANGS:
        raise HTTPException(404, f"no texts in {lang!r}: the languages are {', '.join(LANGS)}")
    body, etag = texts_body(lang)
    headers = {"ETag": etag, "Cache-Control": "no-cache"}
    wanted = request.headers.get("if-none-match", "")
    if etag in (tag.strip() for tag in wanted.split(",")):
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)


__all__ = [
    "NAME_MAX_CHARS",
    "NAME_PATTERN",
    "OPTIONAL_NAME_PATTERN",
    "PLAYER_COUNTS",
    "QUICK_PRESET",
    "known_level",
    "labels",
    "option_entry",
    "options_payload",
    "router",
    "templates",
    "texts_body",
]
