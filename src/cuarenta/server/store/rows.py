"""The rows of the store: text and numbers as the database keeps them (the rooms module decodes them; they
are defined with the authority's store port), and
the two encodings every writer uses (:func:`dumps` for a JSON column, :func:`hash_token` for a secret).

>>> SeatRow(0, "person", "Ana", None, hash_token("secret")).token_hash[:12]
'2bb80d537b1d'
>>> dumps({"a": [1, "ñ"]})
'{"a":[1,"ñ"]}'
"""

from __future__ import annotations

# The rows a room is stored as are the authority's store port's (one set of classes: the authority may not
# import the store, so the store takes them from there).
from cuarenta.server.authority.ports import (
    ActionRow,
    FinishedRow,
    PlayingRow,
    RoomRow,
    SeatRow,
    dumps,
    hash_token,
)

__all__ = ["ActionRow", "FinishedRow", "PlayingRow", "RoomRow", "SeatRow", "dumps", "hash_token"]
