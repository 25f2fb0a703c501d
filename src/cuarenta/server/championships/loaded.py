"""A championship in memory (:class:`Loaded`) and what the service reads off the library's state: the
public page's data, the partidas an action paused or resumed, a finished mesa's report.

>>> from cuarenta.championship.model import Partida
>>> partida = Partida("r1-1", 1, 1, ("p2", "p1"), ("p1", "p2", "p1", "p2"), deal_seed=7)
>>> ordered(partida, (2, 0), (80, 31))
Report(partida='r1-1', chicas=(0, 2), points=(31, 80))
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from cuarenta.championship import Championship
from cuarenta.championship.actions import Action, Decide, Report, Review
from cuarenta.championship.hall import HallSheet
from cuarenta.championship.model import Partida
from cuarenta.results import ChicaResult
from cuarenta.server.store import championships as cstore


@dataclass
class Loaded:
    """A championship in memory: the library's state, its stored action count, and its side tables."""

    row: cstore.ChampionshipRow
    champ: Championship
    count: int
    pairs: dict[str, cstore.PairRow]
    tables: dict[str, tuple[str, str]]  #: partida → (room, opened)
    sheets: dict[str, HallSheet] = field(default_factory=dict)
    alerts: dict[str, set[str]] = field(default_factory=dict)
    #: ``champ.to_public()``, as data and as JSON text, and the action count it is of (it changes with the
    #: actions only: a crowd polling the public page reads it built once)
    public: tuple[int, dict[str, Any], str] | None = None
    #: the building of :attr:`public` under way in a thread (its action count and its task)
    building: tuple[int, asyncio.Task[tuple[int, dict[str, Any], str]]] | None = None
    #: the partidas whose replay is given to anyone, and the action count it is of (a partida's replay
    #: opens with a result: an action; docs/championships.md "Replays")
    replays: tuple[int, list[str]] | None = None


def published(count: int, champ: Championship) -> tuple[int, dict[str, Any], str]:
    """``champ.to_public()`` after ``count`` actions, as data and as JSON text."""
    data = champ.to_public()
    return count, data, json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def decided(champ: Championship, action: Action) -> set[str | None]:
    """The partida whose pause ``action`` may have changed: a judge's decision's, a reviewed one's."""
    if isinstance(action, Decide):
        return {action.partida}
    if isinstance(action, Review) and 0 <= action.decision < len(champ.decisions):
        return {champ.decisions[action.decision].partida}
    return set()


def pause_reason(champ: Championship, partida: str) -> str | None:
    """The reason of the judge's pause in force at a partida (its last pause not reversed)."""
    for decision in reversed(champ.decisions):
        if decision.partida == partida and decision.kind == "pause" and decision.reversed_by is None:
            return decision.reason
    return None


def points_of(results: Iterable[ChicaResult]) -> tuple[int, int]:
    """The points of a mesa: the sum of each team's final scores over its chicas."""
    points = [0, 0]
    for result in results:
        points[0] += result.scores[0]
        points[1] += result.scores[1]
    return points[0], points[1]


def ordered(partida: Partida, chicas: tuple[int, int], points: tuple[int, int]) -> Report:
    """The report of a mesa whose team 0 sat at seats 0 and 2, in the order of the partida's pairs."""
    if partida.seats[0] != partida.pairs[0]:
        chicas, points = (chicas[1], chicas[0]), (points[1], points[0])
    return Report(partida.id, chicas=chicas, points=points)


__all__ = ["Loaded", "decided", "ordered", "pause_reason", "points_of", "published"]
