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

from typing import Any

from fastapi import APIRouter, Request, Response

from cuarenta.catalogue import LANGS
from cuarenta.names import NAME_MAX_CHARS, NAME_PATTERN, OPTIONAL_NAME_PATTERN
from cuarenta.server.answers import (
    OTHER_VALUE_KEYS,
    QUICK_PRESET,
    known_level,
    labels,
    no_texts,
    option_entry,
    options_payload,
    templates,
    texts_body,
)
from cuarenta.server.authority.seats import PLAYER_COUNTS  # the player counts a room may have (R3)
from cuarenta.server.edge.deps import Refusal

# The payloads are built without the web framework in cuarenta.server.answers (the device host serves
# the same ones). NAME_MAX_CHARS (the longest name a person may give; the page's name field takes its
# limit from ``name_max_chars`` here), NAME_PATTERN and OPTIONAL_NAME_PATTERN (the schema's patterns of a
# name) are those of cuarenta.names, the one check of every name.

router = APIRouter()


@router.get("/api/options")
def get_options() -> dict[str, Any]:
    return options_payload()


@router.get("/api/texts/{lang}")
def get_texts(lang: str, request: Request) -> Response:
    """One language of the text catalogue; ``304`` when the browser's copy (``If-None-Match``) is current."""
    if lang not in LANGS:
        refused = no_texts(lang)
        raise Refusal(refused.status, refused.detail, refused.code)
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
    "OTHER_VALUE_KEYS",
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
