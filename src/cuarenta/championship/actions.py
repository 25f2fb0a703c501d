"""The actions that change a championship: each a frozen dataclass with ``kind`` and ``to_dict()``.

:func:`action_from_dict` reads one back and refuses anything malformed with an
:class:`~cuarenta.championship.errors.ActionError`:

>>> action = Report("r1t1", chicas=(2, 1), points=(80, 52))
>>> action.to_dict()
{'kind': 'report', 'partida': 'r1t1', 'chicas': [2, 1], 'points': [80, 52]}
>>> action_from_dict(action.to_dict()) == action
True
>>> action_from_dict({"kind": "report", "partida": "r1t1", "chicas": [2]})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
cuarenta.championship.errors.ActionError: not a report action: chicas must be a list of two whole ...
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from cuarenta.championship.errors import ActionError
from cuarenta.championship.values import kind_dict
from cuarenta.errors import brief, clip

#: The largest whole number an action may hold (a seed, chicas, points, an index).
MAX_NUMBER: Final = 10**6


@dataclass(frozen=True)
class _Action:
    kind: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        return kind_dict(self)


@dataclass(frozen=True)
class Register(_Action):
    """Register a pair named ``name`` of two ``players`` (before the start)."""

    kind: ClassVar[str] = "register"
    name: str
    players: tuple[str, str]


@dataclass(frozen=True)
class ReplacePlayer(_Action):
    """Put ``player`` in place of the pair's player ``index`` (0 or 1): the pair keeps its id and record."""

    kind: ClassVar[str] = "replace_player"
    pair: str
    index: int
    player: str


@dataclass(frozen=True)
class Withdraw(_Action):
    """Withdraw a pair: its running partida is lost by walkover, and it is never paired again."""

    kind: ClassVar[str] = "withdraw"
    pair: str


@dataclass(frozen=True)
class SeedPair(_Action):
    """Give a pair its seed (1 is the best; ``None``: unseeded), before the start."""

    kind: ClassVar[str] = "seed_pair"
    pair: str
    seed: int | None


@dataclass(frozen=True)
class Start(_Action):
    """Close the registration and open the first round."""

    kind: ClassVar[str] = "start"


@dataclass(frozen=True)
class Report(_Action):
    """A finished partida's result: chicas and points in the order of the partida's pairs."""

    kind: ClassVar[str] = "report"
    partida: str
    chicas: tuple[int, int]
    points: tuple[int, int]


@dataclass(frozen=True)
class Walkover(_Action):
    """A judge awards a running or paused partida to ``winner`` (recorded also as a decision)."""

    kind: ClassVar[str] = "walkover"
    partida: str
    winner: str
    reason: str
    by: str


@dataclass(frozen=True)
class Decide(_Action):
    """A judge's other decision: ``kind`` ``pause``, ``resume``, ``restart``, ``note`` or ``penalty``.

    (Its field is ``decision``, since ``kind`` names the action.)
    """

    kind: ClassVar[str] = "decide"
    partida: str | None
    decision: str
    reason: str
    by: str


@dataclass(frozen=True)
class Review(_Action):
    """The committee's review of decision ``decision`` (its index): confirm it or reverse it."""

    kind: ClassVar[str] = "review"
    decision: int
    reverse: bool
    reason: str
    by: str = "committee"


Action = Register | ReplacePlayer | Withdraw | SeedPair | Start | Report | Walkover | Decide | Review
ACTIONS: Final[dict[str, type[_Action]]] = {
    cls.kind: cls
    for cls in (Register, ReplacePlayer, Withdraw, SeedPair, Start, Report, Walkover, Decide, Review)
}


def _text(kind: str, name: str, value: object) -> str:
    if not isinstance(value, str):
        raise ActionError.of("action_field", kind=kind, field=name, expected="a text", value=brief(value))
    return value


def _number(kind: str, name: str, value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not -MAX_NUMBER <= value <= MAX_NUMBER:
        raise ActionError.of(
            "action_field", kind=kind, field=name, expected="a whole number", value=brief(value)
        )
    return value


def _two(kind: str, name: str, value: object, read: Any) -> tuple[Any, Any]:
    if not isinstance(value, list | tuple) or len(value) != 2:
        what = "texts" if read is _text else "whole numbers"
        raise ActionError.of(
            "action_field", kind=kind, field=name, expected=f"a list of two {what}", value=brief(value)
        )
    return (read(kind, name, value[0]), read(kind, name, value[1]))


def action_from_dict(data: object) -> Action:
    """The action written by ``to_dict()``; every field is checked for its type (the championship
    checks the values against its state when the action is applied).

    >>> action_from_dict({"kind": "start"})
    Start()
    >>> action_from_dict({"kind": "resign"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cuarenta.championship.errors.ActionError: 'resign' is not an action: choose one of register, ...
    """
    if not isinstance(data, dict):
        raise ActionError.of("action_not_object", type=type(data).__name__)
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in ACTIONS:
        raise ActionError.of("action_kind", kind=brief(kind), kinds=", ".join(ACTIONS))
    cls = ACTIONS[kind]
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(clip(str(k)) for k in data if k != "kind" and k not in fields)
    if unknown:
        raise ActionError.of(
            "action_unknown_keys", kind=kind, keys=clip(", ".join(unknown)), valid=", ".join(fields) or "none"
        )
    values: dict[str, Any] = {}
    for name, f in fields.items():
        if name not in data:
            if f.default is not dataclasses.MISSING:
                continue
            raise ActionError.of("action_missing", kind=kind, field=name)
        value = data[name]
        if name in ("players", "chicas", "points"):
            values[name] = _two(kind, name, value, _text if name == "players" else _number)
        elif name == "reverse":
            if not isinstance(value, bool):
                raise ActionError.of(
                    "action_field", kind=kind, field=name, expected="true or false", value=brief(value)
                )
            values[name] = value
        elif name in ("index", "decision") and kind != "decide":
            values[name] = _number(kind, name, value)
        elif name == "seed" or (name == "partida" and kind == "decide"):
            values[name] = (
                None if value is None else (_number if name == "seed" else _text)(kind, name, value)
            )
        else:
            values[name] = _text(kind, name, value)
    action: Action = cls(**values)  # type: ignore[assignment]
    return action


__all__ = [
    "ACTIONS",
    "Action",
    "Decide",
    "Register",
    "ReplacePlayer",
    "Report",
    "Review",
    "SeedPair",
    "Start",
    "Walkover",
    "Withdraw",
    "action_from_dict",
]
