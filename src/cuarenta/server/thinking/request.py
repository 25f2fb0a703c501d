"""What a computer seat is asked and how a player answers it: :class:`ThinkRequest` (only what the seat
may know), :class:`PlayerCache` (a worker's players, one per seat), :func:`answer` and the time to think
(:func:`think_seconds`). Pure: the engine and the players, no process, no event loop
(:mod:`cuarenta.server.thinking` says how they are used).

>>> from cuarenta import Game, Rules
>>> game = Game.new(Rules(), seed=5)
>>> request = ThinkRequest.for_seat(game, room="r", mesa=1, seat=game.turn, level="facil")
>>> answer(request, PlayerCache()) in request.legal
True
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from cuarenta.analysis.review import ANALYSIS_LEVEL, Question, analyst
from cuarenta.moves import parse_action
from cuarenta.players import Player, make_player
from cuarenta.view import SeatView

if TYPE_CHECKING:
    from cuarenta.game import Game

#: Players kept per worker (least recently used first out).
CACHE_SIZE: Final = 4096
#: Seconds from a request to its answer that the pool aims at: a request thinks for what is left of
#: them when it reaches its worker, shared with those waiting behind it (:func:`think_seconds`). A
#: ``dificil`` move on a quiet 2-core machine takes 0.75 s at most (docs/performance.md).
THINK_SECONDS: Final = 2.0


@dataclass(frozen=True)
class ThinkRequest:
    """What a computer seat is told on its turn: nothing it could not see at the table."""

    room: str
    mesa: int
    seat: int
    level: str
    seed: str  #: the player's seed (``"{mesa seed}/{seat}"``)
    view: dict[str, Any]  #: ``game.view(seat).to_dict()``
    legal: tuple[str, ...]  #: the legal actions, as text, in the engine's order
    #: the longest the player should think (wall-clock seconds, :func:`think_seconds`), or ``None``: its
    #: whole budget
    seconds: float | None = None
    #: a question of the analysis instead of a move: the ways to play (as text) to value, in order
    #: (:func:`value`); ``None`` for a move. Valued on the whole budget, so never given ``seconds``.
    roots: tuple[str, ...] | None = None

    @classmethod
    def for_question(cls, question: Question, *, room: str, mesa: int, seed: int | str) -> ThinkRequest:
        """The request for a question of the analysis of a finished mesa (:class:`Question`), seeded as
        :func:`~cuarenta.analysis.analyze` seeds it: its values are the terminal's for the same seed."""
        game = question.game
        return cls(
            room=room,
            mesa=mesa,
            seat=question.seat,
            level=ANALYSIS_LEVEL,
            seed=question.seed(seed),
            view=question.view().to_dict(),
            legal=tuple(str(a) for a in game.legal_moves()),
            roots=tuple(str(a) for a in question.roots),
        )

    @property
    def key(self) -> str:
        """The player this request is for: one per room, mesa and seat."""
        return f"{self.room}/{self.mesa}/{self.seat}"

    @classmethod
    def for_seat(cls, game: Game, *, room: str, mesa: int, seat: int, level: str) -> ThinkRequest:
        """The request for ``seat`` of ``game`` (whose turn it must be)."""
        if game.is_over or game.turn != seat:
            raise ValueError(f"it is not seat {seat}'s turn")
        return cls(
            room=room,
            mesa=mesa,
            seat=seat,
            level=level,
            seed=f"{game.seed}/{seat}",
            view=game.view(seat).to_dict(),
            legal=tuple(str(a) for a in game.legal_moves()),
        )

    def to_wire(self, request_id: int, seconds: float | None = None) -> dict[str, Any]:
        """The JSON request a worker reads (``seconds``: the time to think it is given, if any)."""
        wire = {
            "id": request_id,
            "room": self.room,
            "mesa": self.mesa,
            "seat": self.seat,
            "level": self.level,
            "seed": self.seed,
            "view": self.view,
            "legal": list(self.legal),
        }
        if self.roots is not None:
            wire["roots"] = list(self.roots)
            return wire
        seconds = self.seconds if seconds is None else seconds
        if seconds is not None:
            wire["seconds"] = seconds
        return wire

    @classmethod
    def from_wire(cls, data: dict[str, Any]) -> ThinkRequest:
        """The request written by :meth:`to_wire` (``KeyError``/``TypeError``/``ValueError`` if not one)."""
        legal = data["legal"]
        if not isinstance(legal, list) or not all(isinstance(t, str) for t in legal):
            raise ValueError("legal must be a list of actions as text")
        seconds = data.get("seconds")
        if seconds is not None and (
            isinstance(seconds, bool) or not isinstance(seconds, int | float) or not seconds >= 0
        ):
            raise ValueError(f"seconds must be a number of seconds, 0 or more, not {seconds!r}")
        roots = data.get("roots")
        if roots is not None and (not isinstance(roots, list) or not all(isinstance(t, str) for t in roots)):
            raise ValueError("roots must be a list of actions as text")
        return cls(
            room=str(data["room"]),
            mesa=int(data["mesa"]),
            seat=int(data["seat"]),
            level=str(data["level"]),
            seed=str(data["seed"]),
            view=dict(data["view"]),
            legal=tuple(legal),
            seconds=None if seconds is None else float(seconds),
            roots=None if roots is None else tuple(roots),
        )


class PlayerCache:
    """The players a worker keeps, one per (room, mesa, seat), the least recently used leaving first.

    >>> cache = PlayerCache(size=1)
    >>> from cuarenta import Game, Rules
    >>> game = Game.new(Rules(), seed=2)
    >>> request = ThinkRequest.for_seat(game, room="a", mesa=1, seat=game.turn, level="facil")
    >>> cache.player(request) is cache.player(request), cache.made
    (True, 1)
    """

    def __init__(self, size: int = CACHE_SIZE, make: Callable[[str, str], Player] = make_player) -> None:
        if size < 1:
            raise ValueError(f"a player cache holds at least 1 player, not {size}")
        self.size = size
        self._make = make  #: a new player of a level, seeded (the device's is cuarenta.device.device_player)
        self.made = 0  #: players built so far (a measure of cache misses)
        self._players: OrderedDict[str, tuple[str, str, Player]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._players)

    def player(self, request: ThinkRequest) -> Player:
        """The request's player: the one that answered this seat before, or a new one."""
        key = request.key
        found = self._players.get(key)
        if found is not None and found[0] == request.level and found[1] == request.seed:
            self._players.move_to_end(key)
            return found[2]
        player = self._make(request.level, request.seed)
        if player.sees_all:
            raise ValueError(f"level {request.level!r} needs hidden cards: it cannot play from a view")
        player.start(request.seat, SeatView.from_dict(request.view).rules)
        self.made += 1
        self._players[key] = (request.level, request.seed, player)
        self._players.move_to_end(key)
        while len(self._players) > self.size:
            self._players.popitem(last=False)
        return player


def answer(request: ThinkRequest, cache: PlayerCache) -> str:
    """The action (as text) the request's player chooses; raises if the request is not sound."""
    view = SeatView.from_dict(request.view)
    if view.seat != request.seat or view.turn != request.seat:
        raise ValueError(
            f"the view is seat {view.seat}'s with seat {view.turn} to move, not seat {request.seat}"
        )
    if not request.legal:
        raise ValueError("no legal action to choose from")
    legal = [parse_action(text) for text in request.legal]
    player = cache.player(request)
    if request.seconds is None:
        return str(player.choose(view, legal))
    player.deadline = time.monotonic() + request.seconds
    try:
        return str(player.choose(view, legal))
    finally:
        player.deadline = None


def value(request: ThinkRequest) -> list[float]:
    """The chance of winning the chica after each of the request's :attr:`~ThinkRequest.roots`, thought by
    a fresh analyst of its level and seed from its view alone (:func:`~cuarenta.analysis.analyst`: the
    analysis's budget, no deadline); raises if the request is not a sound question."""
    view = SeatView.from_dict(request.view)
    if view.seat != request.seat or view.turn != request.seat:
        raise ValueError(
            f"the view is seat {view.seat}'s with seat {view.turn} to move, not seat {request.seat}"
        )
    if not request.roots:
        raise ValueError("a question names the ways to play to value (roots)")
    unknown = [t for t in request.roots if t not in request.legal]
    if unknown:
        raise ValueError(f"{unknown[0]!r} is not a legal action of the position")
    player = analyst(request.level, request.seed)
    player.start(request.seat, view.rules)
    return player.values(view, [parse_action(t) for t in request.roots])


def think_seconds(waited: float, behind: int, *, target: float = THINK_SECONDS) -> float:
    """The time to think given to a request as it reaches its worker: what is left of ``target`` seconds
    after it ``waited`` in the queue, shared with the ``behind`` requests queued after it (each of them
    will get its share in turn). Never below 0: a player given 0 answers from the least it can search.

    >>> think_seconds(0.0, 0)
    2.0
    >>> think_seconds(0.5, 2)
    0.5
    >>> think_seconds(3.0, 9)
    0.0
    """
    if waited < 0 or behind < 0 or target <= 0:
        raise ValueError(f"waited ({waited}) and behind ({behind}) are 0 or more, target ({target}) above 0")
    return max(0.0, target - waited) / (1 + behind)


__all__ = ["CACHE_SIZE", "THINK_SECONDS", "PlayerCache", "ThinkRequest", "answer", "think_seconds", "value"]
