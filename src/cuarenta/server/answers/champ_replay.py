"""``GET /api/championships/{cid}/partidas/{partida}/replay``: a finished online partida of a championship
step by step, for anybody who reads its public standings (docs/championships.md "Replays"), in the shape
of ``GET /api/games/{room}/replay`` (:func:`~cuarenta.server.answers.replay.replay_frames`) with no room.

It needs no token: it is given when, and only when, nothing of the partida can still be played — the
library's rule, :meth:`Championship.seed_is_public <cuarenta.championship.Championship.seed_is_public>`
(finished by a report, not a walkover; with duplicate deals, every partida of its round closed, since
the twin tables are dealt the same cards). Until then it is refused saying why: ``409 partida_in_play``
(the partida is not finished), ``409 twins_in_play`` (it is, but a partida of its round with the same
deals still plays). A partida with nothing recorded to replay is ``404 no_record``: a hall partida (the
judge's score sheet keeps the score, not the cards), a walkover, a bye, an online partida with no table.
A partida a judge restarted is replayed from the table that finished it (the one mapped now).

The checks read the championship in memory (:func:`partida_room`, cheap, on the event loop); the record
is read from the store and replayed by :func:`partida_replay_answer`, which the route runs in a thread.

>>> from cuarenta.championship import Championship, Register, Report, Settings, Start
>>> champ = Championship.new(Settings("Copa", rounds=1, duplicate=True), secret=7)
>>> for name in "ABCD":
...     _ = champ.apply(Register(name, (name + "1", name + "2")))
>>> [p.id for p in champ.apply(Start())]
['r1t1', 'r1t2']
>>> tables = {"r1t1": ("room1", ""), "r1t2": ("room2", "")}
>>> partida_room(champ, tables, "r1t1")
Traceback (most recent call last):
...
cuarenta.server.answers.refused.Refused: 409: partida r1t1 is still in play: it is replayed once finished
>>> _ = champ.apply(Report("r1t1", chicas=(2, 0), points=(80, 12)))
>>> try:
...     partida_room(champ, tables, "r1t1")
... except Refused as exc:
...     print(exc.status, exc.code, replayable(champ, tables))
409 twins_in_play []
>>> _ = champ.apply(Report("r1t2", chicas=(1, 2), points=(70, 80)))
>>> partida_room(champ, tables, "r1t1"), replayable(champ, tables)
('room1', ['r1t1', 'r1t2'])
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cuarenta.replay import Replay
from cuarenta.server.answers.history import HistoryStore
from cuarenta.server.answers.refused import Refused
from cuarenta.server.answers.replay import replay_frames

if TYPE_CHECKING:
    from cuarenta.championship import Championship
    from cuarenta.championship.model import Partida


def _refusal(champ: Championship, tables: Mapping[str, tuple[str, str]], partida: Partida) -> Refused | None:
    """Why ``partida``'s replay is not given now, or ``None`` when it is (module docstring): the first of
    these that holds."""
    pid = partida.id
    walkover = partida.result is not None and partida.result.walkover
    # the library's rule, asked only of a partida finished by a report (it reads the whole round)
    twins = partida.result is not None and not walkover and not champ.seed_is_public(partida)
    why = (
        (partida.pairs[1] is None, 404, f"partida {pid} is a bye: nothing was played", "no_record"),
        (
            champ.settings.venue != "online",
            404,
            f"partida {pid} is played at the hall: its score sheet has no cards to replay",
            "no_record",
        ),
        (walkover, 404, f"partida {pid} was decided by a walkover: nothing was played", "no_record"),
        (
            partida.is_open,
            409,
            f"partida {pid} is still in play: it is replayed once finished",
            "partida_in_play",
        ),
        (
            twins,
            409,
            f"partida {pid} is finished, but a partida of round {partida.round} is dealt the same cards and "
            "still plays (duplicate deals): it is replayed once they are all finished",
            "twins_in_play",
        ),
        (pid not in tables, 404, f"partida {pid} has no table: there is no record to replay", "no_record"),
    )
    return next((Refused(status, detail, code) for holds, status, detail, code in why if holds), None)


def partida_room(champ: Championship, tables: Mapping[str, tuple[str, str]], partida_id: str) -> str:
    """The room whose finished mesa is ``partida_id``'s replay (``tables``: the championship's map of
    partida → (room, opened), a restarted partida's new table); :class:`Refused` otherwise (module
    docstring): 404 ``unknown_partida``, 404 ``no_record``, 409 ``partida_in_play`` or ``twins_in_play``."""
    found = next((p for r in champ.rounds for p in r if p.id == partida_id), None)
    if found is None:
        raise Refused(404, f"there is no partida {partida_id!r} in this championship", "unknown_partida")
    refused = _refusal(champ, tables, found)
    if refused is not None:
        raise refused
    return tables[partida_id][0]


def replayable(champ: Championship, tables: Mapping[str, tuple[str, str]]) -> list[str]:
    """The partidas whose replay :func:`partida_room` gives now, round by round."""
    return [p.id for r in champ.rounds for p in r if _refusal(champ, tables, p) is None]


def partida_replay_answer(store: HistoryStore, championship: str, partida: str, room: str) -> dict[str, Any]:
    """The replay of ``partida`` (its table ``room``, from :func:`partida_room`): the finished mesa's record
    read from the store and replayed (a championship's table plays one mesa); ``404 no_record`` if the store
    has none (a table whose result was not recorded by its play). ``names``: the players' names as the
    table gave them (a computer pair's seats too: the record names those ``bot:LEVEL``)."""
    finished = store.finished_mesa(room, 1)
    row = store.load_room(room)
    if finished is None or row is None:
        raise Refused(404, f"partida {partida} has no finished mesa to replay", "no_record")
    replay = Replay.from_text(finished.record)
    named = {s.seat: s.name for s in row.seats}
    recorded = replay.record.seats
    return {
        "room": None,  # the room stays unnamed: its record is a seat's to download
        "mesa": None,
        "seat": 0,
        "championship": championship,
        "partida": partida,
        "names": [named.get(i) or recorded[i] for i in range(len(recorded))],
        **replay_frames(replay),
    }


__all__ = ["partida_replay_answer", "partida_room", "replayable"]
