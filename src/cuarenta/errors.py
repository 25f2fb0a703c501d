"""Exception classes raised by the engine.

Every error a caller may want to catch is a subclass of :class:`CuarentaError`,
and every error caused by bad input is also a :class:`ValueError`, so code that
already guards against ``ValueError`` keeps working::

    >>> from cuarenta import Card, CardParseError
    >>> try:
    ...     Card.parse("9h")
    ... except CardParseError as exc:
    ...     print(exc)
    ...     print(exc.code, exc.params)
    ...     print(exc.text("es"))
    '9h' is not a card: 8, 9 and 10 are not in the 40-card deck
    card_not_in_deck {'text': '9h'}
    '9h' no es una carta: en el cuarenta no hay 8, 9 ni 10

An engine error carries a :attr:`~CuarentaError.code` (a stable name) and its
:attr:`~CuarentaError.params` (JSON-ready values), so that a program can say it
in any language of the text catalogue (keys ``error.<code>``); ``str(exc)`` is
the English message.
"""

from __future__ import annotations

import reprlib
from collections.abc import Mapping
from typing import Any, ClassVar, Final, Self, TypeVar

from cuarenta import catalogue

#: The longest a value given by a caller is shown in an error's message (longer ones are cut, with "...").
SHOWN_CHARS: Final = 80
#: Whole numbers with more digits than this are described ("a whole number of 5000 digits"), not written.
SHOWN_DIGITS: Final = 40


class _Brief(reprlib.Repr):
    """``reprlib`` bounded in depth and length, and safe for whole numbers of any size."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 3
        self.maxstring = SHOWN_CHARS
        self.maxother = SHOWN_CHARS
        self.maxlong = SHOWN_DIGITS

    def repr_int(self, x: int, level: int) -> str:
        # str() of an int of more than 4300 digits raises ValueError (Python's conversion limit)
        if x.bit_length() > SHOWN_DIGITS * 3.33:
            return f"<a whole number of about {int(x.bit_length() * 0.30103) + 1} digits>"
        return repr(x)

    def repr_instance(self, x: object, level: int) -> str:
        try:
            text = repr(x)
        except Exception:  # e.g. a Move built by hand around a number too long to write
            inner = self.repr_tuple(x, level) if isinstance(x, tuple) else ""
            return f"{type(x).__name__}{inner}" if inner else f"<{type(x).__name__}>"
        return text if len(text) <= self.maxother else text[: self.maxother - 3] + "..."


_BRIEF: Final = _Brief()


def brief(value: object) -> str:
    """``repr(value)`` for a message, bounded however big, deep or odd the value is.

    Every engine error that shows a value given by a caller shows it through this (or :func:`clip`
    for a text), so a message stays short for a huge string, a deeply nested list or a number of
    thousands of digits, and never fails itself.

    >>> brief("7h"), brief([[[[[1]]]]]), brief(10**5000)
    ("'7h'", '[[[[...]]]]', '<a whole number of about 5001 digits>')
    >>> len(brief("x" * 10**6)) <= SHOWN_CHARS
    True
    """
    try:
        text = _BRIEF.repr(value)
    except Exception:  # a caller's object whose __repr__ fails
        text = f"<{type(value).__name__}>"
    return text if len(text) <= SHOWN_CHARS else text[: SHOWN_CHARS - 3] + "..."


def clip(text: str) -> str:
    """A text given by a caller, cut to :data:`SHOWN_CHARS` for a message.

    >>> clip("7h x3c"), clip("x" * 100)[-6:], len(clip("x" * 100))
    ('7h x3c', 'xxx...', 80)
    """
    text = str(text)
    return text if len(text) <= SHOWN_CHARS else text[: SHOWN_CHARS - 3] + "..."


#: A text parameter longer than this is cut (values a caller gave are already cut by :func:`clip`).
MAX_PARAM_CHARS: Final = 1000


def _plain(value: object, depth: int = 0) -> object:  # noqa: PLR0911 - one return per kind of value
    """A parameter as JSON-ready data: cards and moves as their text, sequences as lists, and an
    error that explains this one as ``{"code", "params"}`` (rendered in the reader's language).

    However a parameter came to be, it stays small: a whole number too long to write, a text of
    megabytes or a deep list is shown by :func:`brief`."""
    if isinstance(value, CuarentaError):
        return {"code": value.code, "params": value.params}
    if isinstance(value, list | tuple):
        return [_plain(v, depth + 1) for v in value] if depth < 3 and len(value) <= 100 else brief(value)
    if type(value) is int and value.bit_length() > SHOWN_DIGITS * 3.33:
        return brief(value)
    if type(value) is str and len(value) > MAX_PARAM_CHARS:
        return value[: MAX_PARAM_CHARS - 3] + "..."
    if type(value) in (bool, int, float, str, type(None)):
        return value
    try:
        return clip(str(value))  # a Card (an int subclass), a Move, a Claim …
    except Exception:
        return brief(value)


def render(code: str, params: Mapping[str, Any], lang: str) -> str:
    """The text of error ``code`` in ``lang``; a parameter that is itself an error is rendered first.

    >>> render("move_card", {"move": "7h x9c", "reason": {"code": "card_not_in_deck",
    ...     "params": {"text": "9c"}}}, "es")
    "'7h x9c' no es una jugada: '9c' no es una carta: en el cuarenta no hay 8, 9 ni 10"
    """
    filled = {
        k: render(v["code"], v.get("params", {}), lang) if isinstance(v, dict) and "code" in v else v
        for k, v in params.items()
    }
    return catalogue.text(f"error.{code}", lang, **filled)


class CuarentaError(Exception):
    """Base class of every error raised by the ``cuarenta`` package.

    Raised by the engine with :meth:`of` (a catalogue code and its parameters). Raised with a plain
    message (``CuarentaError("…")``, as older code and other packages do) it has the class's
    :attr:`default_code` and the message as its only parameter, ``detail``.
    """

    #: The code of an error raised with a plain message.
    default_code: ClassVar[str] = "error"

    def __init__(
        self, message: str = "", *, code: str | None = None, params: Mapping[str, Any] | None = None
    ):
        super().__init__(message)
        self.code: str = code or self.default_code
        self.params: dict[str, Any] = dict(params) if params is not None else {"detail": message}

    @classmethod
    def of(cls, code: str, /, **params: object) -> Self:
        """The error of catalogue key ``error.<code>`` with ``params``, its message in English.

        >>> IllegalMoveError.of("game_over").args
        ('the mesa is over: no more moves',)
        """
        plain = {k: _plain(v) for k, v in params.items()}
        return cls(render(code, plain, "en"), code=code, params=plain)

    def text(self, lang: str = catalogue.DEFAULT_LANG) -> str:
        """The message in ``lang`` (a plain-message error has only its own words).

        >>> GameOverError.of("game_over").text("es")
        'la mesa terminó: no hay más jugadas'
        """
        if f"error.{self.code}" not in catalogue.messages(lang):
            return str(self)
        return render(self.code, self.params, lang)

    def to_dict(self) -> dict[str, Any]:
        """``{"code", "params", "message"}`` for a wire or a log.

        >>> RulesError("no such table").to_dict()
        {'code': 'rules', 'params': {'detail': 'no such table'}, 'message': 'no such table'}
        """
        return {"code": self.code, "params": dict(self.params), "message": str(self)}


class CardParseError(CuarentaError, ValueError):
    """Text that does not name a card (``"9h"``, ``"7x"``, ``""``)."""

    default_code = "card"


class MoveParseError(CuarentaError, ValueError):
    """Text that is not a move in the project's notation (``"7h x"``)."""

    default_code = "move"


class RulesError(CuarentaError, ValueError):
    """An unknown preset or option, or an impossible combination of options."""

    default_code = "rules"


class SeedError(CuarentaError, ValueError):
    """A seed that is neither a whole number nor a text (``Game.new(seed=1.5)``)."""

    default_code = "bad_seed"


class PositionError(CuarentaError, ValueError):
    """A position given to :meth:`cuarenta.Game.from_position` that cannot occur."""

    default_code = "position"


class IllegalMoveError(CuarentaError, ValueError):
    """A move that is not legal in the current position; the game is unchanged."""

    default_code = "illegal_move"


class GameOverError(IllegalMoveError):
    """A move was attempted after the mesa ended."""

    default_code = "game_over"


class RecordError(CuarentaError, ValueError):
    """A saved game or game record that is malformed, corrupt or does not replay."""

    default_code = "record"


class ReplayError(CuarentaError, ValueError):
    """A step a replay cannot take: a move, hand, deal or seat the record does not have, or every card of a
    mesa that is not over."""

    default_code = "replay"


class ViewError(CuarentaError, ValueError):
    """A view, or an event or a result in one, that is not in the form its ``to_dict`` writes."""

    default_code = "view"


_E = TypeVar("_E", bound=CuarentaError)

#: What reading a dict by hand can raise: turned into the reader's own error by :func:`malformed`.
READ_ERRORS: Final = (
    KeyError,
    TypeError,
    ValueError,
    AttributeError,
    IndexError,
    OverflowError,
    RecursionError,
)


def malformed(cls: type[_E], code: str, exc: BaseException) -> _E:
    """The error ``cls.of(code, reason=...)`` for an exception met while reading a dict: an engine error
    as itself, a missing key by name, anything else by its (short) message.

    >>> malformed(ViewError, "view_malformed", KeyError("seat")).args
    ("not a view in the form SeatView.to_dict writes: it has no 'seat'",)
    """
    reason: object
    if isinstance(exc, CuarentaError):
        reason = exc
    elif isinstance(exc, KeyError):
        reason = cls.of("dict_missing_key", key=brief(exc.args[0] if exc.args else None))
    else:
        reason = clip(str(exc)) or type(exc).__name__
    return cls.of(code, reason=reason)
