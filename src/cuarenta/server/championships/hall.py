"""The judge's score sheets of a championship played in a hall (docs/championships.md "At the hall: the
judge's score sheet"): one :class:`~cuarenta.championship.hall.HallSheet` a partida, kept as its entries,
each stored before it is acknowledged (an undo deletes the last one).

>>> from cuarenta.championship.hall import HallSheet
>>> from cuarenta.rules import Rules
>>> sheet_points(HallSheet(Rules(), dealer=0))
(0, 0)
"""

from __future__ import annotations

from cuarenta.championship.errors import ChampionshipError
from cuarenta.championship.hall import HallError, HallSheet, entry_from_dict
from cuarenta.championship.model import Partida
from cuarenta.server.championships.loaded import Loaded, points_of
from cuarenta.server.championships.problems import ChampionshipProblem, hall_refusal
from cuarenta.server.store import Store, StoreError
from cuarenta.server.store import championships as cstore


def sheet_of(loaded: Loaded, partida_id: str) -> HallSheet:
    """The sheet of a partida of a hall championship (a new one if the judge wrote nothing yet)."""
    if loaded.champ.settings.venue != "hall":
        raise ChampionshipProblem("not_hall", "this championship is played online: no score sheet")
    try:
        loaded.champ.partida(partida_id)
    except ChampionshipError:
        raise ChampionshipProblem("unknown_partida", f"there is no partida {partida_id!r}") from None
    return loaded.sheets.setdefault(partida_id, HallSheet(loaded.champ.settings.rules, dealer=0))


def running(loaded: Loaded, partida_id: str) -> Partida:
    """The partida, refused (``wrong_state``) unless it is running."""
    partida = loaded.champ.partida(partida_id)
    if partida.status != "running":
        raise ChampionshipProblem("wrong_state", f"partida {partida_id} is {partida.status}")
    return partida


def write(store: Store, loaded: Loaded, partida_id: str, entry: object) -> HallSheet:
    """The judge's ``entry`` on the partida's sheet, then stored (the store's error undoes it). A refused
    entry answers its own code (:func:`~cuarenta.server.championships.problems.hall_refusal`)."""
    sheet = sheet_of(loaded, partida_id)
    running(loaded, partida_id)
    try:
        made = entry_from_dict(entry)
        sheet.tap(made)
    except HallError as exc:
        raise hall_refusal(exc) from None
    try:
        cstore.append_entry(store, loaded.row.id, partida_id, len(sheet.entries), made.to_dict())
    except StoreError:
        sheet.undo()
        raise
    return sheet


def erase(store: Store, loaded: Loaded, partida_id: str) -> HallSheet:
    """The last entry of the partida's sheet deleted from the store, then from the sheet."""
    sheet = sheet_of(loaded, partida_id)
    running(loaded, partida_id)
    if not sheet.entries:
        raise hall_refusal(HallError.of("hall_nothing_to_undo"))
    cstore.remove_entry(store, loaded.row.id, partida_id, len(sheet.entries))
    sheet.undo()
    return sheet


def sheet_points(sheet: HallSheet) -> tuple[int, int]:
    """The points of a sheet's mesa: the sum of each team's final scores over its chicas."""
    return points_of(sheet.chica_results)


def load_sheets(store: Store, loaded: Loaded) -> None:
    """Every stored sheet of the championship, its entries written again."""
    for partida, entries in cstore.load_entries(store, loaded.row.id).items():
        sheet = HallSheet(loaded.champ.settings.rules, dealer=0)
        for entry in entries:
            sheet.tap(entry_from_dict(entry))
        loaded.sheets[partida] = sheet


__all__ = ["erase", "load_sheets", "running", "sheet_of", "sheet_points", "write"]
