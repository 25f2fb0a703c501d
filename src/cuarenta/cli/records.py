"""Record files for the commands that read them (``cuarenta analyze``, ``cuarenta replay``): reading one in
either form of docs/record-format.md, the argument that names it, and the names of its seats."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cuarenta.errors import RecordError
from cuarenta.i18n import DEFAULT_LANG, seat_names, t
from cuarenta.record import GameRecord

#: The largest record file read (a whole mesa's record is a few kilobytes).
MAX_RECORD_BYTES = 2_000_000


def read_record(path: Path) -> GameRecord:
    """The record in ``path``, in its text or JSON form; a :class:`typer.BadParameter` says what is wrong."""
    try:
        if path.stat().st_size > MAX_RECORD_BYTES:
            raise typer.BadParameter(f"{path}: larger than {MAX_RECORD_BYTES} bytes: not a record")
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise typer.BadParameter(f"{path}: cannot be read: {exc}") from None
    try:
        if text.lstrip().startswith("{"):
            return GameRecord.from_json(text)
        return GameRecord.from_text(text)
    except RecordError as exc:
        raise typer.BadParameter(f"{path}: not a valid record: {exc}") from None


#: The record file argument of ``analyze`` and ``replay``.
RecordArgument = Annotated[
    Path, typer.Argument(metavar="RECORD", help="A record file (text or JSON: docs/record-format.md).")
]


def record_names(record: GameRecord, lang: str = DEFAULT_LANG) -> list[str]:
    """The seats' names: the record's, a computer's as its level (``bot:normal`` → ``normal``), or
    ``Jugador N``."""
    default = seat_names(record.players, lang)
    out = []
    for seat in range(record.players):
        name = record.seats[seat] if seat < len(record.seats) else None
        if name and name.startswith("bot:"):
            name = f"{name[4:]} ({t('term.record.computer', lang)})"
        out.append(name or default[seat])
    return out


__all__ = ["MAX_RECORD_BYTES", "RecordArgument", "read_record", "record_names"]
