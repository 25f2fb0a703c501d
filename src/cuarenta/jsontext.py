"""Reading JSON text given by a caller (a saved game, a game record) with every failure a library error.

:func:`loads` is :func:`json.loads` for untrusted text: it takes ``str``, ``bytes`` or ``bytearray``,
refuses nesting deeper than :data:`MAX_DEPTH` before the decoder recurses into it, whole numbers longer
than :data:`MAX_DIGITS` digits, and ``NaN``/``Infinity`` (not JSON), and raises only
:class:`~cuarenta.RecordError` — never ``RecursionError``, ``TypeError`` or a bare ``ValueError``:

>>> loads('{"seed": 7}')
{'seed': 7}
>>> loads("[" * 100 + "]" * 100)
Traceback (most recent call last):
...
cuarenta.errors.RecordError: it is nested more than 64 levels deep
>>> loads("1" * 5000)
Traceback (most recent call last):
...
cuarenta.errors.RecordError: a whole number has more than 1000 digits
>>> loads('{"target": NaN}')
Traceback (most recent call last):
...
cuarenta.errors.RecordError: NaN is not a JSON number
"""

from __future__ import annotations

import json
import re
from typing import Any, Final, NoReturn

from cuarenta.errors import RecordError, clip

#: The deepest nesting of arrays and objects read (a save or a record needs 4).
MAX_DEPTH: Final = 64
#: The most digits of a whole number read (a seed needs at most 19 in the server; see ``MAX_SEED_CHARS``).
MAX_DIGITS: Final = 1000

_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_PAIR = re.compile(r"\[\]|\{\}")


def too_deep(text: str, limit: int = MAX_DEPTH) -> bool:
    """Whether the arrays and objects of JSON ``text`` nest more than ``limit`` levels (strings skipped).

    Works on the brackets alone, removing the innermost pairs once per level, so it never recurses
    and stops after ``limit`` passes. Unbalanced brackets are left to the decoder to report.

    >>> too_deep('[[1], {"a": "[[[["}]', limit=2), too_deep("[[[]]]", limit=2)
    (False, True)
    """
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    for _ in range(limit):
        if not brackets:
            return False
        fewer = _PAIR.sub("", brackets)
        if fewer == brackets:
            return False  # unbalanced: not JSON, which the decoder says
        brackets = fewer
    return _PAIR.search(brackets) is not None


def _refuse_constant(name: str) -> NoReturn:
    raise RecordError.of("json_constant", name=name)


def _whole_number(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise RecordError.of("json_number_too_long", limit=MAX_DIGITS)
    return int(digits)


def loads(text: object) -> Any:
    """The value of JSON ``text``; :class:`~cuarenta.RecordError` (with a code) for anything else.

    >>> loads(b'[1, "7h"]')
    [1, '7h']
    >>> loads(None)
    Traceback (most recent call last):
    ...
    cuarenta.errors.RecordError: JSON is text, not NoneType
    """
    if isinstance(text, bytes | bytearray):
        try:
            text = bytes(text).decode(json.detect_encoding(bytes(text)))
        except (UnicodeDecodeError, LookupError) as exc:
            raise RecordError.of("json_encoding", reason=clip(str(exc))) from None
    if not isinstance(text, str):
        raise RecordError.of("json_not_text", type=type(text).__name__)
    if too_deep(text):
        raise RecordError.of("json_too_deep", limit=MAX_DEPTH)
    try:
        return json.loads(text, parse_constant=_refuse_constant, parse_int=_whole_number)
    except json.JSONDecodeError as exc:
        raise RecordError.of("json_syntax", msg=exc.msg, line=exc.lineno, column=exc.colno) from None
    except RecursionError:  # not reached after too_deep(); kept so that no input escapes as one
        raise RecordError.of("json_too_deep", limit=MAX_DEPTH) from None


__all__ = ["MAX_DEPTH", "MAX_DIGITS", "loads", "too_deep"]
