"""Cuarenta, the card game of Ecuador: a complete, configurable rules engine.

>>> from cuarenta import Game, Rules
>>> game = Game.new(Rules.preset("todo_dos", players=4), seed=42)
>>> while game.outcome is None:
...     _ = game.play(game.legal_moves()[0])
>>> game.outcome.winner in (0, 1)
True
"""

from cuarenta.cards import CARDS, RANK_CHARS, SUIT_CHARS, Card
from cuarenta.errors import (
    CardParseError,
    CuarentaError,
    GameOverError,
    IllegalMoveError,
    MoveParseError,
    PositionError,
    RecordError,
    RulesError,
)
from cuarenta.events import Event
from cuarenta.game import ChicaResult, Game, Outcome
from cuarenta.moves import Action, Claim, Move, parse_action
from cuarenta.record import GameRecord
from cuarenta.rules import PRESET_NAMES, Rules

__version__ = "0.1.0"

__all__ = [
    "CARDS",
    "PRESET_NAMES",
    "RANK_CHARS",
    "SUIT_CHARS",
    "Action",
    "Card",
    "CardParseError",
    "ChicaResult",
    "Claim",
    "CuarentaError",
    "Event",
    "Game",
    "GameOverError",
    "GameRecord",
    "IllegalMoveError",
    "Move",
    "MoveParseError",
    "Outcome",
    "PositionError",
    "RecordError",
    "Rules",
    "RulesError",
    "parse_action",
]
