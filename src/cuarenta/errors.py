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

from collections.abc import Mapping
from typing import Any, ClassVar, Self

from cuarenta import catalogue


def _plain(value: object) -> object:
    """A parameter as JSON-ready data: cards and moves as their text, sequences as lists, and an
    error that explains this one as ``{"code", "params"}`` (rendered in the reader's language)."""
    if isinstance(value, CuarentaError):
        return {"code": value.code, "params": value.params}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if type(value) in (bool, int, float, str, type(None)):
        return value
    return str(value)  # a Card (an int subclass), a Move, a Claim …


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
