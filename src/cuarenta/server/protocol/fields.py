"""The fields of a JSON object read in plain Python, each problem worded as pydantic words it: the one
field reader of the socket's messages (:mod:`cuarenta.server.protocol.reader`) and of the bodies the
device host reads without pydantic (:func:`cuarenta.server.answers.new_room_body`), so that the server and
the device refuse the same input with the same sentence.

A field is a :class:`Text`, :class:`Count`, :class:`Flag`, :class:`Choice` or :class:`Object`; its
``check`` (a value → the value kept, or ``ValueError`` saying what is wrong) runs once its type is right.

>>> read_fields({"room": "", "since": -1, "x": 1}, (Text("room"), Count("since", required=False)))
({}, ['room: String should have at least 1 character', 'since: Input should be greater than or equal to 0'])
>>> read_fields({"players": 4}, (Count("players", required=False),), forbid_extra=True)
({'players': 4}, [])
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Final

#: What checks a field's value once its type is right: the value kept, or ``ValueError`` saying why not.
Check = Callable[[Any], Any]


@dataclass(frozen=True)
class Text:
    """A string of ``shortest`` to ``longest`` characters (``longest`` ``None``: any length)."""

    name: str
    longest: int | None = None
    shortest: int = 1
    required: bool = True
    nullable: bool = False
    check: Check | None = None


@dataclass(frozen=True)
class Count:
    """An integer (JSON ``true`` is not one) of at least ``least`` and below ``below`` (``None``: no
    bound)."""

    name: str
    required: bool = True
    nullable: bool = False
    least: int | None = 0
    below: int | None = None
    check: Check | None = None


@dataclass(frozen=True)
class Flag:
    """A boolean."""

    name: str
    required: bool = False
    nullable: bool = False
    check: Check | None = None


@dataclass(frozen=True)
class Choice:
    """One of a few strings."""

    name: str
    choices: tuple[str, ...]
    required: bool = True
    nullable: bool = False
    check: Check | None = None


@dataclass(frozen=True)
class Object:
    """A JSON object (a ``dict``)."""

    name: str
    required: bool = False
    nullable: bool = False
    check: Check | None = None


Field = Text | Count | Flag | Choice | Object

#: The sentence of a field the object should not have.
EXTRA: Final = "Extra inputs are not permitted"


def type_problem(field: Field, value: Any) -> str | None:  # noqa: C901, PLR0911, PLR0912 -- one flat case per field kind
    """What is wrong with a field's (present, not ``null``) value's type or range, in pydantic's words;
    ``None``: nothing."""
    if isinstance(field, Text):
        if not isinstance(value, str):
            return "Input should be a valid string"
        if len(value) < field.shortest:
            return f"String should have at least {field.shortest} character" + "s" * (field.shortest != 1)
        if field.longest is not None and len(value) > field.longest:
            return f"String should have at most {field.longest} characters"
    elif isinstance(field, Count):
        if not isinstance(value, int) or isinstance(value, bool):
            return "Input should be a valid integer"
        if field.least is not None and value < field.least:
            return f"Input should be greater than or equal to {field.least}"
        if field.below is not None and value >= field.below:
            return f"Input should be less than {field.below}"
    elif isinstance(field, Flag):
        if not isinstance(value, bool):
            return "Input should be a valid boolean"
    elif isinstance(field, Choice):
        if not isinstance(value, str) or value not in field.choices:
            *first, last = field.choices
            return f"Input should be {', '.join(repr(c) for c in first)} or {last!r}"
    elif not isinstance(value, dict):
        return "Input should be a valid dictionary"
    return None


def read_fields(
    data: dict[str, Any], fields: Iterable[Field], *, forbid_extra: bool = False
) -> tuple[dict[str, Any], list[str]]:
    """The values of ``data``'s ``fields`` that it has (each checked), and its problems (``name: why``, in
    the fields' order; with ``forbid_extra``, then each key no field names). A field ``data`` lacks is
    left out of the values (the caller's default holds), or is a problem when ``required``."""
    values: dict[str, Any] = {}
    problems: list[str] = []
    names = set()
    for field in fields:
        names.add(field.name)
        if field.name not in data:
            if field.required:
                problems.append(f"{field.name}: Field required")
            continue
        value = data[field.name]
        if value is None and field.nullable:
            values[field.name] = None
            continue
        problem = type_problem(field, value)
        if problem is None and field.check is not None:
            try:
                value = field.check(value)
            except ValueError as exc:
                problem = str(exc)
        if problem is None:
            values[field.name] = value
        else:
            problems.append(f"{field.name}: {problem}")
    if forbid_extra:
        problems += [f"{key}: {EXTRA}" for key in data if key not in names]
    return values, problems


__all__ = [
    "EXTRA",
    "Check",
    "Choice",
    "Count",
    "Field",
    "Flag",
    "Object",
    "Text",
    "read_fields",
    "type_problem",
]
