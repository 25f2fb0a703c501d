"""The walkover wait of a championship played online (docs/championships.md): a table open for the
settings' ``wait_minutes`` whose pairs are not all seated.

>>> NO_SHOW
'no_show'
"""

from __future__ import annotations

import datetime
from typing import Final

from cuarenta.championship.actions import Walkover
from cuarenta.server.authority.core import Authority
from cuarenta.server.championships.loaded import Loaded

#: Seconds between two checks of the tables waiting for a pair (the walkover wait).
WAIT_CHECK_SECONDS: Final = 5.0
#: The reason of a walkover the server gives when the wait is over (``by: "server"``): a code, which the
#: page says in its language (``page.champ.server_reason.no_show``); a person's reason is kept as typed.
NO_SHOW: Final = "no_show"


def due_walkovers(loaded: Loaded, authority: Authority, now: float) -> list[Walkover]:
    """The walkovers the server gives now (``now``: seconds since the epoch) in a running online
    championship: a table open for ``wait_minutes`` whose pairs are not seated is a walkover when exactly
    one pair has both players seated (its reason the code :data:`NO_SHOW`), else the alert
    ``walkover_due`` (kept in ``loaded.alerts``; a table that started loses it). A partida whose walkover
    the committee reversed is never given one again by the server (only the alert: the judge decides), so
    a reversal sticks and nothing loops."""
    champ = loaded.champ
    if champ.status != "running" or champ.settings.venue != "online":
        return []
    wait = champ.settings.wait_minutes * 60
    reversed_walkover = {
        d.partida for d in champ.decisions if d.kind == "walkover" and d.reversed_by is not None
    }
    due: list[Walkover] = []
    for partida in list(champ.rounds[-1]):
        if partida.status != "running" or partida.id not in loaded.tables:
            continue
        room_id, opened = loaded.tables[partida.id]
        room = authority.table(room_id)
        if room.started:
            loaded.alerts.get(partida.id, set()).discard("walkover_due")
            continue
        since = datetime.datetime.strptime(opened, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=datetime.UTC)
        if now - since.timestamp() < wait:
            continue
        seated = [
            p
            for p in partida.pairs
            if p is not None
            and all(room.seats[i].kind != "open" for i, s in enumerate(partida.seats) if s == p)
        ]
        if len(seated) == 1 and partida.id not in reversed_walkover:
            due.append(Walkover(partida.id, seated[0], NO_SHOW, "server"))
        else:
            loaded.alerts.setdefault(partida.id, set()).add("walkover_due")
    return due


__all__ = ["NO_SHOW", "WAIT_CHECK_SECONDS", "due_walkovers"]
