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
    ReplayError,
    RulesError,
    SeedError,
    ViewError,
)
from cuarenta.events import Event
from cuarenta.game import Game
from cuarenta.moves import Action, Claim, Move, parse_action
from cuarenta.record import GameRecord
from cuarenta.results import ChicaResult, Outcome
from cuarenta.rules import OPTIONS, PRESET_NAMES, OptionSpec, Rules
from cuarenta.view import SeatView

__version__ = "0.2.0"

__all__ = [
    "CARDS",
    "OPTIONS",
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
    "OptionSpec",
    "Outcome",
    "PositionError",
    "RecordError",
    "ReplayError",
    "Rules",
    "RulesError",
    "SeatView",
    "SeedError",
    "ViewError",
    "parse_action",
]
