"""A browser's messages read without pydantic (the device host runs under Pyodide): the same checks as
:func:`cuarenta.server.protocol.parse_client_message`, the same :class:`ProtocolError` codes and
sentences, and the authority's own requests (:mod:`cuarenta.server.authority.requests`) as the answer.

>>> parse_client_message('{"v": 2, "type": "move", "move": "7h", "state": 3}')
ClientRequest(type='move', v=2, request=Move(move='7h', state=3))
>>> try:
...     parse_client_message('{"v": 2, "type": "pace", "pace": "x"}')
... except ProtocolError as exc:
...     print(exc.code, exc.message)
bad_message malformed 'pace' message: pace: Input should be 'slow', 'normal' or 'fast'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from cuarenta.server.authority.messages import PACES
from cuarenta.server.authority.requests import Join, Move, Plain, React, SetPace, Watch
from cuarenta.server.protocolcore import ProtocolError, malformed, read_envelope

#: The longest room id and token a message may carry (as the server's ``_Text``).
TEXT_MAX: Final = 200
#: The longest saying of a reaction.
SAYING_MAX: Final = 40

Request = Join | Move | Plain | React | SetPace | Watch


@dataclass(frozen=True)
class ClientRequest:
    """A browser's message, read: its ``type``, its protocol version ``v`` and the authority's request."""

    type: str
    v: int
    request: Request


class _Fields:
    """The checks of one message's fields, its problems gathered as pydantic words them."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.problems: list[str] = []

    def text(self, name: str, longest: int, *, required: bool = True) -> str:
        if name not in self.data:
            if required:
                self.problems.append(f"{name}: Field required")
            return ""
        value = self.data[name]
        if not isinstance(value, str):
            self.problems.append(f"{name}: Input should be a valid string")
        elif not value:
            self.problems.append(f"{name}: String should have at least 1 character")
        elif len(value) > longest:
            self.problems.append(f"{name}: String should have at most {longest} characters")
        else:
            return value
        return ""

    def _given(self, name: str, required: bool) -> Any:
        """The field's value, or ``None`` when it is absent (a problem if ``required``) or an optional
        field given as ``null``."""
        if name not in self.data:
            if required:
                self.problems.append(f"{name}: Field required")
            return None
        return self.data[name]

    def count(self, name: str, *, required: bool) -> int | None:
        value = self._given(name, required)
        if value is None and (not required or name not in self.data):
            return None
        if not isinstance(value, int) or isinstance(value, bool):
            self.problems.append(f"{name}: Input should be a valid integer")
            return None
        if value < 0:
            self.problems.append(f"{name}: Input should be greater than or equal to 0")
            return None
        return value

    def flag(self, name: str) -> bool:
        value = self.data.get(name, False)
        if not isinstance(value, bool):
            self.problems.append(f"{name}: Input should be a valid boolean")
            return False
        return value

    def pace(self, name: str, *, required: bool) -> Any:
        value = self._given(name, required)
        if value is None and (not required or name not in self.data):
            return None
        if value not in PACES or not isinstance(value, str):
            words = ", ".join(f"'{p}'" for p in PACES[:-1]) + f" or '{PACES[-1]}'"
            self.problems.append(f"{name}: Input should be {words}")
            return None
        return value


def parse_client_message(text: str | bytes) -> ClientRequest:
    """Read one browser message; raises :class:`ProtocolError` (``bad_message`` or ``bad_version``)."""
    data, kind = read_envelope(text)
    version: int = data["v"]
    fields = _Fields(data)
    request: Request
    if kind == "join":
        room, token = fields.text("room", TEXT_MAX), fields.text("token", TEXT_MAX)
        pace = fields.pace("pace", required=False)
        since = fields.count("since", required=False)
        hints = fields.flag("hints")
        request = Join(room=room, token=token, since=since, pace=pace, v=version, hints=hints)
    elif kind == "watch":
        room = fields.text("room", TEXT_MAX)
        since = fields.count("since", required=False)
        request = Watch(room=room, v=version, since=since)
    elif kind == "move":
        move = fields.text("move", TEXT_MAX)
        state = fields.count("state", required=True)
        request = Move(move=move, state=state or 0)
    elif kind == "pace":
        request = SetPace(pace=fields.pace("pace", required=True))
    elif kind == "react":
        request = React(saying=fields.text("saying", SAYING_MAX))
    else:  # next, ping, rematch: no field
        request = Plain()
    if fields.problems:
        raise malformed(kind, "; ".join(fields.problems[:3]))
    return ClientRequest(type=kind, v=version, request=request)


__all__ = ["ClientRequest", "ProtocolError", "Request", "parse_client_message"]
