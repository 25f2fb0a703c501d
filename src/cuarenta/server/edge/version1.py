"""Version 1 of the socket (docs/protocol.md; deprecated), kept behind this one adapter at the edge.

The authority speaks version 2 alone. A socket that joins or watches with ``"v": 1`` is handed to it as a
version-2 join (with hints: version 1 always has them; no ``since``: version 1's counts events, not
versions) by :func:`upgrade`, and its :class:`SocketConnection` turns every version-2 frame it is sent
into version 1's message: a ``snapshot`` or an ``event`` becomes the ``state`` that the frames add up to
(the seat's hand back in the view, its legal moves, their marks and its hints at the top, the new events
in ``events``; :func:`cuarenta.server.protocol.state_message`); every other message (``table``,
``reaction``, ``pace``, ``error``, ``pong``) has version 1's shape and is labelled ``"v": 1`` here (one
copy per shared message, encoded once). Sockets of one audience that are told the same thing share one
message, made and encoded once.

Retiring version 1 deletes this module and its two lines in :mod:`cuarenta.server.edge.sockets`.

>>> from cuarenta.server.authority.wire.messages import Frame
>>> adapter = Version1()
>>> snapshot = ('{"type":"snapshot","v":2,"room":"r","version":3,"mesa":1,"seat":0,"seats":[],'
...             '"view":{"seat":0,"history":[]},"events":[],"status":"playing",'
...             '"private":{"legal":["7h"],"moves":[],"hand":["7h"],"hints":[]}}')
>>> [state] = adapter.translate(Frame(snapshot), None)
>>> state["v"], state["type"], state["state"], state["view"]["hand"], state["legal"]
(1, 'state', 3, ['7h'], ['7h'])
"""

from __future__ import annotations

import json
from collections import OrderedDict
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Final

from cuarenta.server.authority import audience
from cuarenta.server.authority.model import Connection
from cuarenta.server.authority.requests import Join, Watch
from cuarenta.server.authority.wire.messages import WIRE_VERSION, Frame, SharedMessage
from cuarenta.server.protocol.version1 import VERSION1, state_message

if TYPE_CHECKING:
    from cuarenta.server.authority.model import Room
    from cuarenta.server.protocol import ClientMessage

#: The ``state`` messages kept for sockets of one audience told the same frame (made once for them all).
SHARED_STATES: Final = 256


class _Made(SharedMessage):
    """A ``state`` made for the sockets of one audience, with the adapter's state it leaves them in."""

    __slots__ = ("state",)
    state: dict[str, Any]


#: (frame text, seat) → (the state it was applied to, the message made): shared by every socket
_made: OrderedDict[tuple[str, int | None], tuple[dict[str, Any], _Made]] = OrderedDict()


class Version1:
    """One version-1 socket's adapter: the ``state`` its frames add up to (without ``events``: each
    message has its own), and the ``since`` of its join (events it has shown already), used by its first
    ``state``."""

    def __init__(self, since: int | None = None) -> None:
        self.since = since
        self.state: dict[str, Any] = {}

    def translate(self, message: dict[str, Any], room: Room | None) -> list[dict[str, Any]]:
        """Version 1's messages for one message the authority sent (a version-2 frame, or a message that
        is version 1's already)."""
        if not isinstance(message, Frame):
            if message.get("type") == "table" and self.state:  # a later ``state`` has these seats
                self.state = {**self.state, **{k: message[k] for k in ("seats", "status", "table")}}
            return [labelled(message)]
        if self.state:  # another socket of this audience, in the same state, was told the same: its message
            made = _made.get((message.text, self.state["seat"]))
            if made is not None and made[0] == self.state:
                self.state = made[1].state
                return [made[1]]
        frame = json.loads(message.text)
        kind = frame["type"]
        if kind == "snapshot":
            self.state, events = self._snapshot(frame, room)
            return [SharedMessage(self._message(self.state, events))]
        elif kind == "event" and self.state:
            return [self._event(frame, message.text)]
        else:  # ``resumed`` (never: a version-1 join has no since) or an event before any snapshot
            return []

    def _snapshot(self, frame: dict[str, Any], room: Room | None) -> tuple[dict[str, Any], list[Any]]:
        private = frame["private"]
        view = {**frame["view"], "hand": [] if private is None else private["hand"]}
        events = frame["events"]
        if self.since is not None and room is not None:  # what the browser has not shown yet, by index
            wired = audience.wired_events(room)
            events = [dict(e) for e in wired[min(self.since, len(wired)) :]]
            self.since = None
        state = {
            "room": frame["room"],
            "state": frame["version"],
            "mesa": frame["mesa"],
            "seat": frame["seat"],
            "seats": frame["seats"],
            "view": view,
            "status": frame["status"],
            "table": frame.get("table"),
            "event_count": frame.get("event_count"),
        }
        state.update(self._private(private))
        return state, events

    @staticmethod
    def _private(private: dict[str, Any] | None) -> dict[str, Any]:
        if private is None:  # a spectator
            return {"legal": [], "moves": [], "hints": []}
        return {"legal": private["legal"], "moves": private["moves"], "hints": private.get("hints") or []}

    def _event(self, frame: dict[str, Any], text: str) -> SharedMessage:
        before = self.state
        held = before["view"]
        view = {**held, **frame["view"]}
        history = [*held["history"], *frame["events"]]
        view["history"] = history[-frame["history"] :] if frame["history"] else []
        private = frame.get("private")
        if private is not None and "hand" in private:
            view["hand"] = private["hand"]
        changed: dict[str, Any] = {
            k: frame[k] for k in ("mesa", "seats", "status", "table", "event_count") if k in frame
        }
        state = {**before, **changed, "state": frame["version"], "view": view}
        state.update(self._private(private))
        self.state = state
        message = _Made(self._message(state, frame["events"]))
        message.state = state
        _made[(text, before["seat"])] = (before, message)
        if len(_made) > SHARED_STATES:
            _made.popitem(last=False)
        return message

    @staticmethod
    def _message(state: dict[str, Any], events: list[Any]) -> dict[str, Any]:
        return state_message(
            room=state["room"],
            state=state["state"],
            mesa=state["mesa"],
            seat=state["seat"],
            seats=state["seats"],
            view=state["view"],
            legal=state["legal"],
            moves=state["moves"],
            hints=state["hints"],
            events=events,
            status=state["status"],
            table=state["table"],
            event_count=state["event_count"],
        )


class _Unset:
    """No join or watch in flight (:attr:`SocketConnection.pending`)."""


_UNSET: Final = _Unset()


class SocketConnection(Connection):
    """A socket of the edge: a version-2 socket as the authority's :class:`Connection`; a version-1 one
    (:func:`upgrade` set :attr:`version1`) is sent each message as :class:`Version1` turns it, and one
    that has not joined yet its messages labelled ``"v": 1`` (the errors of a join refused, a ``pong``).

    The adapter a join or watch asks for waits in :attr:`pending` until the authority accepts it
    (:meth:`attached`): a refused one (an unknown room, a wrong token) leaves the socket's adapter, and so
    the seat it still holds, as they were."""

    def __init__(self) -> None:
        super().__init__()
        self.version1: Version1 | None = None
        #: the adapter of the join or watch in flight (``None``: a version-2 one), until it is accepted
        self.pending: Version1 | _Unset | None = _UNSET

    def attached(self) -> None:
        if not isinstance(self.pending, _Unset):
            self.version1, self.pending = self.pending, _UNSET

    def send(self, message: dict[str, Any]) -> None:
        adapter = self.version1
        if adapter is None:
            # a socket that has not joined in version 2 yet (authority/wire sets ``protocol`` then) is
            # answered in version 1, as it always was: a client that sent nothing readable may speak it
            super().send(message if self.protocol == WIRE_VERSION else labelled(message))
            return
        for out in adapter.translate(message, self.room):
            super().send(out)


def labelled(message: dict[str, Any]) -> dict[str, Any]:
    """A message of the authority's other than a frame (``table``, ``reaction``, ``pace``, ``error``,
    ``pong``: the same shape in both versions) labelled ``"v": 1``; a shared one is labelled once for every
    version-1 socket it goes to.

    >>> labelled({"v": 2, "type": "pong"})
    {'v': 1, 'type': 'pong'}
    """
    if isinstance(message, SharedMessage):
        return message.labelled(VERSION1)
    return {**message, "v": VERSION1}


def upgrade(conn: Connection, message: ClientMessage) -> ClientMessage:
    """The message the authority is handed for one a socket sent: a version-1 ``join`` or ``watch`` as a
    version-2 one (the socket's messages are turned back into version 1's once the authority accepts it:
    :meth:`SocketConnection.attached`); a version-2 one ends that. Anything else as it is."""
    request = message.request
    if not isinstance(request, Join | Watch) or not isinstance(conn, SocketConnection):
        return message
    if message.v == WIRE_VERSION:
        conn.pending = None
        return message
    if isinstance(request, Join):
        conn.pending = Version1(request.since)
        join = Join(room=request.room, token=request.token, pace=request.pace, v=WIRE_VERSION, hints=True)
        return replace(message, v=WIRE_VERSION, request=join)
    conn.pending = Version1()  # (a version-1 watch has no since: it is sent the events from now on)
    return replace(message, v=WIRE_VERSION, request=Watch(room=request.room, v=WIRE_VERSION))


__all__ = ["SocketConnection", "Version1", "labelled", "upgrade"]
