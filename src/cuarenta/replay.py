"""A recorded mesa to step through: forward, back, to any move, hand or deal (issue 29, docs/engine.md
"Replaying a record step by step").

A :class:`Replay` holds the record's game at one *ply* (0: before the first action; ``len(actions)``: after
the last), moved with the engine's cheap undo. What a seat saw there is :meth:`Replay.view`; every card
(:meth:`Replay.open_state`) is shown only once the mesa is over, so a replay of a mesa still in play hides
what the seats could not see. The events of each step are kept as they were played, so a narrator shows
the sayings and the end-of-hand summaries as they were said.

>>> from cuarenta import Game, Rules
>>> from cuarenta.record import GameRecord, _read_text_game
>>> game = Game.new(Rules.preset("basico"), seed=7)
>>> for _ in range(12):
...     _ = game.play(game.legal_moves()[0])
>>> replay = Replay(GameRecord.from_game(game))
>>> replay.ply, replay.last
(0, 12)
>>> [str(e.kind) for e in replay.forward()]
['play']
>>> replay.goto(12).state_hash() == state_hash(game)
True
>>> replay.open_state()
Traceback (most recent call last):
...
cuarenta.errors.ReplayError: the mesa is not over: the cards the seats could not see stay hidden
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from cuarenta.errors import ReplayError
from cuarenta.events import Event
from cuarenta.game import Game
from cuarenta.moves import Action
from cuarenta.record import GameRecord, _read_text_game
from cuarenta.view import SeatView


def state_hash(game: Game) -> str:
    """A short hash of a game's whole state (:meth:`~cuarenta.Game.state_summary`): two games at the same
    state have the same hash."""
    text = json.dumps(game.state_summary(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Mark:
    """Where a deal begins: the ply of its first action, its hand and its deal (both from 0)."""

    ply: int
    hand: int
    deal: int


class Replay:
    """A record's mesa at one ply; see the module docstring."""

    def __init__(self, record: GameRecord) -> None:
        """Replay ``record`` once, checked (a :class:`~cuarenta.RecordError` says what is wrong), and stand
        before its first action."""
        self._setup(record, record.replay())

    @classmethod
    def from_text(cls, text: str) -> Replay:
        """The replay of a record's text form, read strictly (:meth:`~cuarenta.record.GameRecord.from_text`)
        and replayed once: the reading's own replay is the one kept."""
        replay = cls.__new__(cls)
        replay._setup(*_read_text_game(text))
        return replay

    def _setup(self, record: GameRecord, game: Game) -> None:
        """Keep ``game``, the record's replay at its end, rewound to ply 0 with each step's events."""
        self.record = record
        #: the record's actions, in order
        self.actions: tuple[Action, ...] = tuple(game.actions)
        #: whether the record ends with the mesa won (only then is every card shown)
        self.finished = game.is_over
        while game.actions:
            game.pop()
        start = tuple(game.events)
        steps: list[tuple[Event, ...]] = [start]
        marks: list[Mark] = [Mark(0, game.hand_number, game.deal_number)]
        turns: list[int] = []
        for ply, action in enumerate(self.actions):
            where = (game.hand_number, game.deal_number)
            if where != (marks[-1].hand, marks[-1].deal):
                marks.append(Mark(ply, *where))
            turns.append(game.turn)
            steps.append(tuple(game.play(action)))
        while game.actions:
            game.pop()
        self._game = game
        self._steps = steps
        #: where each deal of the mesa begins, in order
        self.marks: tuple[Mark, ...] = tuple(marks)
        #: the seat that played each action, in order
        self.turns: tuple[int, ...] = tuple(turns)

    # -- where it stands --------------------------------------------------------------------------------
    @property
    def ply(self) -> int:
        """How many of the record's actions have been played (0 to :attr:`last`)."""
        return len(self._game.actions)

    @property
    def last(self) -> int:
        """The ply after the last action."""
        return len(self.actions)

    @property
    def game(self) -> Game:
        """A copy of the game at this ply (the replay's own moves with it)."""
        return self._game.copy()

    def events(self, ply: int | None = None) -> tuple[Event, ...]:
        """The events of the step that led to ``ply`` (default: this one): for ply 0 the start (the dealer's
        draw, the first deal), otherwise what the action before it did, as it was played."""
        return self._steps[self._check(self.ply if ply is None else ply)]

    def mark(self) -> Mark:
        """The deal this ply is in (the deal of the next action; the last deal at the end)."""
        at = self.ply
        return [m for m in self.marks if m.ply <= at][-1] if at < self.last else self.marks[-1]

    def view(self, seat: int) -> SeatView:
        """What ``seat`` saw at this ply (:meth:`~cuarenta.Game.view`)."""
        if not isinstance(seat, int) or not 0 <= seat < self._game.players:
            raise ReplayError.of("replay_seat", seat=seat, last=self._game.players - 1)
        return self._game.view(seat)

    def open_state(self) -> dict[str, Any]:
        """Every card at this ply (:meth:`~cuarenta.Game.state_summary`): only for a mesa that is over."""
        if not self.finished:
            raise ReplayError.of("replay_not_over")
        return self._game.state_summary()

    def state_hash(self) -> str:
        """:func:`state_hash` of the game at this ply."""
        return state_hash(self._game)

    # -- moving ---------------------------------------------------------------------------------------
    def forward(self) -> tuple[Event, ...]:
        """Play the next action; its events. At the end, nothing happens and nothing is returned."""
        if self.ply >= self.last:
            return ()
        self._game.push(self.actions[self.ply])
        return self._steps[self.ply]

    def back(self) -> None:
        """Take back the last action played (nothing at ply 0)."""
        if self._game.actions:
            self._game.pop()

    def goto(self, ply: int) -> Replay:
        """Stand at ``ply`` (0 to :attr:`last`); the replay itself, to chain."""
        target = self._check(ply)
        while self.ply > target:
            self._game.pop()
        while self.ply < target:
            self._game.push(self.actions[self.ply])
        return self

    def walk(self) -> Iterator[tuple[int, Action, Game]]:
        """Each ply from 0 with its action and the game before it: the replay's own game, to read and not to
        play on (copy it for that); the replay moves on after each and ends at :attr:`last`.

        >>> from cuarenta import Game, Rules
        >>> from cuarenta.record import GameRecord
        >>> game = Game.new(Rules.preset("basico"), seed=3)
        >>> for _ in range(4):
        ...     _ = game.play(game.legal_moves()[0])
        >>> replay = Replay(GameRecord.from_game(game))
        >>> [(ply, g.turn) for ply, _, g in replay.walk()], replay.ply
        ([(0, 0), (1, 1), (2, 0), (3, 1)], 4)
        >>> replay.turns
        (0, 1, 0, 1)
        """
        self.goto(0)
        for ply, action in enumerate(self.actions):
            yield ply, action, self._game
            self._game.push(action)

    def goto_deal(self, hand: int, deal: int = 0) -> Replay:
        """Stand before the first action of ``deal`` of ``hand`` (both from 0)."""
        for m in self.marks:
            if (m.hand, m.deal) == (hand, deal):
                return self.goto(m.ply)
        hands = sorted({m.hand for m in self.marks})
        raise ReplayError.of("replay_deal", hand=hand + 1, deal=deal + 1, hands=len(hands))

    def _check(self, ply: object) -> int:
        if not isinstance(ply, int) or isinstance(ply, bool) or not 0 <= ply <= self.last:
            raise ReplayError.of("replay_ply", ply=ply, last=self.last)
        return ply


def hashes(record: GameRecord) -> Sequence[str]:
    """The state hash at every ply of ``record`` (0 to the last), by playing it straight through with
    :meth:`~cuarenta.Game.play`: the reference a :class:`Replay`'s steps (moved with the cheap undo) are
    checked against, so it does not use one."""
    game = record.replay()
    actions = list(game.actions)
    while game.actions:
        game.pop()
    out = [state_hash(game)]
    for action in actions:
        game.play(action)
        out.append(state_hash(game))
    return out


__all__ = ["Mark", "Replay", "hashes", "state_hash"]
