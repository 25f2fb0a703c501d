"""The answers of the HTTP routes a page plays against the computer with, without a web framework: one
source for the server's FastAPI routes (:mod:`cuarenta.server.edge`) and the device host
(:mod:`cuarenta.device`), which runs under Pyodide with no FastAPI or pydantic.

- the new-game form and the texts: :func:`options_payload`, :func:`texts_body`;
- rooms: :func:`rules_for`, :func:`new_room_body` (the checks of ``POST /api/rooms``' body, with the
  sentences the server's validation answers), :func:`room_info`;
- what a browser's tokens played: :func:`history_answer`, :func:`stats_answer`,
  :func:`browser_stats_answer`, :func:`record_answer`, :func:`history_tokens` (their home is
  :mod:`cuarenta.server.answers.history`; these names stay here for the device host and the routes).

A refusal is a :class:`~cuarenta.server.answers.refused.Refused`: an HTTP status, one clear sentence
(``detail``) and its ``code`` (every error answer is ``{"detail", "code"}``, docs/protocol.md).

>>> payload = options_payload()
>>> [o["name"] for o in payload["options"]][:3]
['sum_cards', 'capture', 'caida_limpia_points']
>>> new_room_body({"players": 3}).players
Traceback (most recent call last):
...
cuarenta.server.answers.refused.Refused: 400: players: 3 players: Cuarenta is played by 2 or 4
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any, Final, Protocol

from cuarenta import __version__, catalogue
from cuarenta.catalogue import LANGS
from cuarenta.errors import CuarentaError
from cuarenta.names import NAME_MAX_CHARS, clean_name
from cuarenta.rules import OPTIONS, PRESET_NAMES, OptionSpec, Rules
from cuarenta.server.answers.analysis import analysis_answer
from cuarenta.server.answers.history import (
    MAX_TOKEN_CHARS,
    MAX_TOKENS,
    HistoryStore,
    RecordAnswer,
    browser_stats_answer,
    finished_entry,
    history_answer,
    history_tokens,
    playing_entry,
    record_answer,
    stats_answer,
    stats_of,
)
from cuarenta.server.answers.refused import Refused
from cuarenta.server.answers.replay import (
    MAX_RECORD_CHARS,
    replay_answer,
    replay_frames,
    replay_text_answer,
)
from cuarenta.server.authority.messages import PROTOCOL_VERSION
from cuarenta.server.authority.model import available_levels, default_level
from cuarenta.server.authority.seats import PLAYER_COUNTS, check_players
from cuarenta.server.protocol.fields import Count, Flag, Object, Text, read_fields

if TYPE_CHECKING:
    from cuarenta.server.authority.core import Authority

log = logging.getLogger("cuarenta.server")

#: The preset offered to a newcomer as the quick game: one chica, basic rules (it allows 1 v 1 only).
QUICK_PRESET: Final = "basico"
#: Label keys of the values of a ``points`` or ``cards`` option that the form does not list.
OTHER_VALUE_KEYS: Final = {"points": "option.value.points", "cards": "option.value.cards"}
#: What a secret in the address is told (the server's request guard; ``GET /api/history``).
TOKEN_IN_ADDRESS: Final = "send the token in the Authorization header, never in the address"
#: The 405 of ``GET /api/history``.
HISTORY_BY_ADDRESS: Final = 'POST the tokens in the body, {"tokens": [...]}; ' + TOKEN_IN_ADDRESS


# -- the new-game form and the texts ---------------------------------------------------------------------
def known_level(value: str | None) -> str | None:
    """A request's computer level, refused (``ValueError``) unless the server has it; ``None`` (the
    default) passes.

    >>> known_level("facil")
    'facil'
    """
    levels = available_levels()
    if value is not None and value not in levels:
        raise ValueError(f"unknown level {value!r}: choose one of {', '.join(levels)}")
    return value


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
    """``GET /api/options``: what the new-game form offers, with every label (docs/protocol.md).

    >>> ronda_limit = next(o for o in options_payload()["options"] if o["name"] == "ronda_limit")
    >>> ronda_limit["choices"], ronda_limit["choice_labels"]["en"]
    ([30, None], ['30 points', 'no limit'])
    """
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
        "record_max_chars": MAX_RECORD_CHARS,
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


def no_texts(lang: str) -> Refused:
    """The 404 of ``GET /api/texts/{lang}`` for a language the catalogue does not have."""
    return Refused(404, f"no texts in {lang!r}: the languages are {', '.join(LANGS)}")


# -- rooms against the computer ----------------------------------------------------------------------------
def rules_for(players: int, asked: dict[str, Any]) -> Rules:
    """The rules a new room or table asks for (``{"preset": NAME, ...options}``) for ``players``;
    :class:`Refused` 400 saying what is wrong.

    >>> rules_for(4, {"preset": "a_todo_rigor"}).players
    4
    """
    data = dict(asked)
    if "players" in data and data["players"] != players:
        agree = f"rules.players is {data['players']!r} but players is {players}: make them agree"
        raise Refused(400, agree, "bad_rules")
    data["players"] = players
    try:
        return Rules.from_dict(data)
    except (CuarentaError, TypeError, ValueError) as exc:
        raise Refused(400, f"rules: {exc}", "bad_rules") from None


#: The sentence of a seed without ``practice`` (the server's validation says the same).
SEED_ONLY_FOR_PRACTICE: Final = (
    "seed: the server chooses the seed of every room; a chosen seed is only for a practice "
    'room, which is kept out of the statistics: send "practice": true with it'
)


@dataclass(frozen=True)
class NewRoomBody:
    """The body of ``POST /api/rooms`` as the device reads it (:func:`new_room_body`)."""

    players: int = 2
    level: str | None = None
    rules: dict[str, Any] = field(default_factory=lambda: {"preset": PRESET_NAMES[0]})
    name: str = ""
    seed: int | None = None
    practice: bool = False


def _room_name(name: str) -> str:
    return clean_name(name, empty_ok=True)  # "" (the default): no name; the page shows its own


#: The fields of ``POST /api/rooms``' body, as the server's model
#: (:class:`~cuarenta.server.edge.rooms.NewRoom`) reads them, each with its check.
NEW_ROOM_FIELDS: Final = (
    Count("players", required=False, least=None, check=check_players),
    Text("level", shortest=0, required=False, nullable=True, check=known_level),
    Object("rules"),
    Text("name", longest=NAME_MAX_CHARS, shortest=0, required=False, check=_room_name),
    Count("seed", required=False, nullable=True, below=2**63),
    Flag("practice"),
)


def new_room_body(data: object) -> NewRoomBody:
    """``POST /api/rooms``' body read without pydantic (the device host's), with the server's sentences:
    :class:`Refused` 400 (``field: what is wrong``; up to five joined with ``; ``)."""
    if not isinstance(data, dict):
        raise Refused(400, "body: Input should be a valid dictionary or object to extract fields from")
    values, problems = read_fields(data, NEW_ROOM_FIELDS, forbid_extra=True)
    if not problems and values.get("seed") is not None and not values.get("practice"):
        problems.append(SEED_ONLY_FOR_PRACTICE)
    if problems:
        raise Refused(400, "; ".join(problems[:5]))
    return NewRoomBody(**values)


class NewRoomRequest(Protocol):
    """What :func:`new_room` reads of a new room's request: the server's
    :class:`~cuarenta.server.edge.rooms.NewRoom` (its route's body) or the device's :class:`NewRoomBody`."""

    @property
    def players(self) -> int: ...
    @property
    def level(self) -> str | None: ...
    @property
    def rules(self) -> dict[str, Any]: ...
    @property
    def name(self) -> str: ...
    @property
    def seed(self) -> int | None: ...
    @property
    def practice(self) -> bool: ...


def new_room(authority: Authority, body: NewRoomRequest) -> dict[str, Any]:
    """``POST /api/rooms``: a new room against the computer; the answer's token is the person's (seat 0)."""
    rules = rules_for(body.players, body.rules)
    room, token = authority.create(
        rules=rules,
        level=body.level or default_level(),
        name=body.name,
        seed=body.seed,
        practice=body.practice,
    )
    return {"room": room.id, "seat": 0, "token": token}


def room_info(authority: Authority, room_id: str, token: str) -> dict[str, Any]:
    """``GET /api/rooms/{room}``: the state of a token's room, no cards (a refusal is the authority's)."""
    from cuarenta.server.authority.core import room_status

    room, seat = authority.authorize(room_id, token)
    return {**room_status(room), "seat": seat}


__all__ = [
    "HISTORY_BY_ADDRESS",
    "MAX_RECORD_CHARS",
    "MAX_TOKENS",
    "MAX_TOKEN_CHARS",
    "NEW_ROOM_FIELDS",
    "OTHER_VALUE_KEYS",
    "QUICK_PRESET",
    "SEED_ONLY_FOR_PRACTICE",
    "TOKEN_IN_ADDRESS",
    "HistoryStore",
    "NewRoomBody",
    "NewRoomRequest",
    "RecordAnswer",
    "Refused",
    "analysis_answer",
    "browser_stats_answer",
    "finished_entry",
    "history_answer",
    "history_tokens",
    "known_level",
    "labels",
    "new_room",
    "new_room_body",
    "no_texts",
    "option_entry",
    "options_payload",
    "playing_entry",
    "record_answer",
    "replay_answer",
    "replay_frames",
    "replay_text_answer",
    "room_info",
    "rules_for",
    "stats_answer",
    "stats_of",
    "templates",
    "texts_body",
]
