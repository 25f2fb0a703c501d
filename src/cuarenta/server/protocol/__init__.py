"""The socket protocol's package (docs/protocol.md): what browsers send on ``/ws`` and how it is read, the
error codes, and the messages the server sends, in plain Python (the server's ``/ws`` and the device host,
under Pyodide, read messages with it alike).

- :mod:`~cuarenta.server.protocol.reader`: the one table of message types a browser sends
  (:data:`MESSAGES`) and its reader (:func:`parse_client_message`, :func:`dispatch`);
- :mod:`~cuarenta.server.protocol.codes`: the error codes, :class:`ProtocolError`, the limits of a
  message, the ``error`` and ``pong`` frames;
- :mod:`~cuarenta.server.protocol.fields`: the plain-Python field reader (the device's bodies use it too);
- :mod:`~cuarenta.server.protocol.version1`: the deprecated version 1's ``state`` message.

The messages the authority sends (``table``, ``reaction``, ``pace``:
:mod:`cuarenta.server.authority.messages`) are re-exported here.

>>> parse_client_message('{"v": 2, "type": "ping"}').type
'ping'
>>> PROTOCOL_VERSION, PROTOCOL_VERSIONS
(2, (1, 2))
"""

from __future__ import annotations

from cuarenta.server.authority.messages import (
    PACES,
    PROTOCOL_VERSION,
    Pace,
    Status,
    pace_message,
    reaction_message,
    table_message,
)
from cuarenta.server.protocol.codes import (
    ERROR_CODES,
    MAX_MESSAGE_CHARS,
    PROTOCOL_VERSIONS,
    ProtocolError,
    error_message,
    pong_message,
)
from cuarenta.server.protocol.reader import (
    MESSAGE_TYPES,
    MESSAGES,
    SAYING_MAX,
    TEXT_MAX,
    ClientMessage,
    Handler,
    Handlers,
    MessageType,
    Request,
    dispatch,
    malformed,
    parse_client_message,
    read_envelope,
)
from cuarenta.server.protocol.version1 import state_message

__all__ = [
    "ERROR_CODES",
    "MAX_MESSAGE_CHARS",
    "MESSAGES",
    "MESSAGE_TYPES",
    "PACES",
    "PROTOCOL_VERSION",
    "PROTOCOL_VERSIONS",
    "SAYING_MAX",
    "TEXT_MAX",
    "ClientMessage",
    "Handler",
    "Handlers",
    "MessageType",
    "Pace",
    "ProtocolError",
    "Request",
    "Status",
    "dispatch",
    "error_message",
    "malformed",
    "pace_message",
    "parse_client_message",
    "pong_message",
    "reaction_message",
    "read_envelope",
    "state_message",
    "table_message",
]
