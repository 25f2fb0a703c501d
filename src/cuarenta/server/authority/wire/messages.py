"""The typed messages a version-2 socket is sent (docs/protocol.md, "Version 2"), and their encoder.

msgspec Structs: encoding one is faster than encoding the same data as a dict or a dataclass
(``python bench/wire_types.py``), and a field left at its default (``None``: unchanged) is not written.
Without msgspec (the device host under Pyodide) they are :mod:`.plainstruct`'s, which write the same JSON.

>>> text = encode(Private(legal=["7h"], moves=[{"move": "7h", "caida": False, "limpia": True}]))
>>> text
'{"legal":["7h"],"moves":[{"move":"7h","caida":false,"limpia":true}]}'
>>> splice('{"v":2,"type":"event","version":3}', text)
'{"v":2,"type":"event","version":3,"private":{"legal":["7h"],"moves":[{"move":"7h","caida":false,"limpia":true}]}}'
"""

from __future__ import annotations

import json
from typing import Any, Final

try:
    from msgspec import Struct
    from msgspec.json import Encoder

    _encode = Encoder().encode
except ImportError:  # the device host under Pyodide: the same JSON, in pure Python (wire/plainstruct.py)
    from cuarenta.server.authority.wire.plainstruct import (  # type: ignore[assignment]
        Struct,
    )
    from cuarenta.server.authority.wire.plainstruct import (
        encode as _encode,
    )

#: The protocol version of these messages.
WIRE_VERSION: Final = 2


def encode(message: Any) -> str:
    """A message (a Struct, or plain JSON data) as JSON text."""
    return _encode(message).decode()


def splice(public: str, private: str | None) -> str:
    """One socket's frame: the encoded public part (an object) with ``"private": PRIVATE`` added as its
    last field, without decoding or encoding the public part again (``None``: the public part alone)."""
    if private is None:
        return public
    return f'{public[:-1]},"private":{private}}}'


class Private(Struct, omit_defaults=True):
    """A seat's private part of an event: its legal moves (empty when it is not its turn) with their
    marks; its hand when it changed (``None``: unchanged); its hints when its socket asked for them."""

    legal: list[str]
    moves: list[dict[str, Any]]  #: as version 1's ``moves`` (authority/eventview.py: describe_moves)
    hand: list[str] | None = None
    hints: list[dict[str, Any]] | None = None


class _Message(Struct, omit_defaults=True, tag_field="type"):
    """A server message of version 2: ``{"type": ..., "v": 2, ...}`` (``type`` is the Struct's tag)."""

    v: int


class Event(_Message, tag="event"):
    """One change of the table, public part (built and encoded once for every socket of the table).

    ``base`` is the version the event applies to, ``version`` the one it brings (the room's ``state``
    number). ``events`` are the engine's new events with their sayings (all the events of the new mesa
    when ``mesa`` is set); ``history`` says how many of the mesa's last events make the current hand's
    ``view.history``. ``view`` holds the public fields of the view that changed; ``seats``, ``status``,
    ``table``, ``event_count`` and ``mesa`` are present when they changed."""

    room: str
    version: int
    base: int
    events: list[dict[str, Any]]
    history: int
    view: dict[str, Any]
    mesa: int | None = None
    seats: list[dict[str, Any]] | None = None
    status: str | None = None
    table: dict[str, Any] | None = None
    event_count: int | None = None


class Snapshot(_Message, tag="snapshot"):
    """Everything a seat (``seat`` ``None``: a spectator) may see, at ``version``: version 1's ``state``
    fields (``hints`` only when the join asked for them), without ``legal``/``moves``/``hints`` at the top:
    they are in ``private`` as in every event."""

    room: str
    version: int
    mesa: int
    seat: int | None
    seats: list[dict[str, Any]]
    view: dict[str, Any]
    events: list[dict[str, Any]]
    status: str
    private: Private | None
    table: dict[str, Any] | None = None
    event_count: int | None = None


class Resumed(_Message, tag="resumed"):
    """The end of a replay after a ``join``/``watch`` with ``since``: the client is at ``version`` now;
    the table's seats, status and table information as they are (they change without a new version
    too), and the seat's whole private part (its hand always)."""

    room: str
    version: int
    seats: list[dict[str, Any]]
    status: str
    private: Private | None
    table: dict[str, Any] | None = None
    event_count: int | None = None


class SharedMessage(dict[str, Any]):
    """A message queued for several sockets at once (the spectators of a table): encoded once, the first
    time a socket sends it (:attr:`text`). (Version 1's.)"""

    __slots__ = ("_labelled", "_text")

    @property
    def text(self) -> str:
        """The message as the socket sends it (JSON), made once."""
        try:
            return self._text
        except AttributeError:
            self._text: str = json.dumps(self, ensure_ascii=False)
            return self._text

    def labelled(self, version: int) -> SharedMessage:
        """The same message with ``"v": version``, made once however many sockets of that version it goes
        to (a version-1 ``table`` or ``reaction`` message told to a table's version-2 sockets).

        >>> m = SharedMessage({"v": 1, "type": "pong"})
        >>> m.labelled(2) is m.labelled(2), m.labelled(2).text
        (True, '{"v": 2, "type": "pong"}')
        """
        try:
            found: dict[int, SharedMessage] = self._labelled
        except AttributeError:
            found = {}
            self._labelled: dict[int, SharedMessage] = found
        message: SharedMessage | None = found.get(version)
        if message is None:
            message = found[version] = SharedMessage({**self, "v": version})
        return message


class Frame(SharedMessage):
    """A version-2 message queued for a socket, already encoded (the socket sends :attr:`text`)."""

    __slots__ = ()

    def __init__(self, text: str) -> None:
        super().__init__()
        self._text = text

    def __repr__(self) -> str:
        return f"Frame({self._text!r})"


__all__ = [
    "WIRE_VERSION",
    "Event",
    "Frame",
    "Private",
    "Resumed",
    "SharedMessage",
    "Snapshot",
    "encode",
    "splice",
]
