"""Exception classes raised by the engine.

Every error a caller may want to catch is a subclass of :class:`CuarentaError`,
and every error caused by bad input is also a :class:`ValueError`, so code that
already guards against ``ValueError`` keeps working::

    >>> from cuarenta import Card, CardParseError
    >>> try:
    ...     Card.parse("9h")
    ... except CardParseError as exc:
    ...     print(exc)
    '9h' is not a card: 8, 9 and 10 are not in the 40-card deck
"""

from __future__ import annotations


class CuarentaError(Exception):
    """Base class of every error raised by the ``cuarenta`` package."""


class CardParseError(CuarentaError, ValueError):
    """Text that does not name a card (``"9h"``, ``"7x"``, ``""``)."""


class MoveParseError(CuarentaError, ValueError):
    """Text that is not a move in the project's notation (``"7h x"``)."""


class RulesError(CuarentaError, ValueError):
    """An unknown preset or option, or an impossible combination of options."""


class PositionError(CuarentaError, ValueError):
    """A position given to :meth:`cuarenta.Game.from_position` that cannot occur."""


class IllegalMoveError(CuarentaError, ValueError):
    """A move that is not legal in the current position; the game is unchanged."""


class GameOverError(IllegalMoveError):
    """A move was attempted after the mesa ended."""


class RecordError(CuarentaError, ValueError):
    """A saved game or game record that is malformed, corrupt or does not replay."""
