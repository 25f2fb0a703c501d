"""The rows of the store: text and numbers as the database keeps them (the rooms module decodes them; all
but :class:`PlayingRow` are defined with the authority's store port), and
the two encodings every writer uses (:func:`dumps` for a JSON column, :func:`hash_token` for a secret).

>>> SeatRow(0, "person", "Ana", None, hash_token("secret")).token_hash[:12]
'2bb80d537b1d'
>>> dumps({"a": [1, "ñ"]})
'{"a":[1,"ñ"]}'
"""

from __future__ import annotations

from dataclasses import dataclass

# The rows a room is stored as are the authority's store port's (one set of classes: the authority may not
# import the store, so the store takes them from there).
from cuarenta.server.authority.ports import ActionRow, FinishedRow, RoomRow, SeatRow, dumps, hash_token


@dataclass(frozen=True)
class PlayingRow:
    """A room whose current mesa is still in play, for the history's list of unfinished games."""

    room: str
    created: str
    updated: str  #: the last change (a move, a new mesa)
    players: int
    level: str
    rules: str  #: JSON
    mesa: int
    moves: int  #: actions played in the current mesa
    practice: bool = False


__all__ = ["ActionRow", "FinishedRow", "PlayingRow", "RoomRow", "SeatRow", "dumps", "hash_token"]
