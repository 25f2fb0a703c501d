"""The names of computer players: traditional Ecuadorian names, the same for every seat and spectator.

A computer seat is named when it is made (a room against the computer, a table's computer seat, an open
seat the creator gives to the computer or that becomes one when the table starts). The name is kept with
the seat (``SeatRow.name``: in the store, through a restart, on every node of a cluster) and sent in
``seats`` (docs/protocol.md). A person's seat keeps the person's name whoever plays it: a stand-in plays
*for* the person, and a person who left for good leaves the seat under their name (``left``).

The name is **deterministic from the room's id** (public: it is in every link), never from its seed or its
cards: :func:`choose` ranks :data:`NAMES` by a hash of the room id, the seat and the name, and takes the
first one nobody else at the table has (people's names included, compared without case). So a name says
nothing about the deal, and a room stored before names existed gets the same names on every node when it
is read again (:func:`named`).

>>> seats = [Seat(0, "person", "Ana"), Seat(1, "computer", "", "normal")]
>>> [s.name for s in named("room1", seats)] == [s.name for s in named("room1", seats)]
True
>>> named("room1", seats)[1].name in NAMES
True
>>> one = named("r", [Seat(0, "person", "Ana"), *(Seat(i, "computer", "", "facil") for i in (1, 2, 3))])
>>> len({s.name for s in one}) == 4
True
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Iterable
from typing import Final

from cuarenta.server.authority.model import Seat

#: The names a computer player may get (proper names: the same in every language).
NAMES: Final = (
    "Don Lucho",
    "Doña Rosa",
    "Ñaño Pepe",
    "Doña Carmita",
    "Don Goyo",
    "Doña Piedad",
    "Don Pancho",
    "Ñaña Meche",
    "Don Segundo",
    "Doña Chabela",
    "Don Jacinto",
    "Doña Toya",
    "Don Manuelito",
    "Ñaña Lola",
    "Don Eloy",
    "Doña Marujita",
)


def _key(name: str) -> str:
    return name.strip().casefold()


def choose(room_id: str, seat: int, taken: Iterable[str]) -> str:
    """The name of computer seat ``seat`` of room ``room_id``: the first of :data:`NAMES`, in an order
    drawn from a hash of the room id and the seat, that is not in ``taken`` (without case).

    >>> choose("abc", 1, []) == choose("abc", 1, [])
    True
    >>> choose("abc", 1, [choose("abc", 1, [])]) != choose("abc", 1, [])
    True
    """
    used = {_key(name) for name in taken}

    def rank(name: str) -> bytes:
        return hashlib.sha256(f"cuarenta-computer-name/{room_id}/{seat}/{name}".encode()).digest()

    for name in sorted(NAMES, key=rank):
        if _key(name) not in used:
            return name
    return f"{NAMES[seat % len(NAMES)]} {seat + 1}"  # pragma: no cover - a table has at most 4 seats


def named(room_id: str, seats: list[Seat]) -> list[Seat]:
    """``seats`` with a name for every computer seat that lacks one or shares another seat's name (a
    person who took it): those seats are new :class:`Seat` objects, the others the same objects. A person
    who left keeps their name; people and open seats are never renamed."""
    out = list(seats)
    for i, s in enumerate(out):
        if s.kind != "computer" or s.left:
            continue
        others = [o.name for o in out if o is not s and o.kind != "open" and o.name]
        if s.name and _key(s.name) not in {_key(name) for name in others}:
            continue
        out[i] = dataclasses.replace(s, name=choose(room_id, s.seat, others))
    return out


__all__ = ["NAMES", "choose", "named"]
