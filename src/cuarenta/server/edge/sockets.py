"""The ``/ws`` WebSocket (docs/protocol.md): the Origin check, the rate limits of messages, and the loop
that reads a socket's messages and hands each to the rooms (:func:`cuarenta.server.protocol.dispatch`: the
protocol's one table of message types, which the device host reads too).

Each socket has two tasks: the receiving loop (:func:`serve_socket`) and its sender (:func:`send_loop`),
which writes the messages the rooms queue for the socket in order. A refused message is answered with an
error frame (:func:`cuarenta.server.edge.deps.socket_error`) and the socket stays open; one over a rate
limit closes it with 1008 after its error frame (:func:`refuse`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any, Final

import sqlalchemy as sa
from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect, WebSocketState

from cuarenta.server.authority.errors import TableError
from cuarenta.server.authority.model import CLOSE_SOCKET, Connection, SharedMessage
from cuarenta.server.edge import version1
from cuarenta.server.edge.deps import rate_limited_frame, socket_error
from cuarenta.server.edge.ratelimits import AddressLimiter, Limits, TokenBucket
from cuarenta.server.edge.security import Origins
from cuarenta.server.ops.logs import ThrottledLog
from cuarenta.server.protocol import dispatch, parse_client_message
from cuarenta.server.store import StoreError
from cuarenta.server.wiring import TableRooms

log = logging.getLogger("cuarenta.server")

#: The WebSocket close code of a message over the rate limit and of a foreign Origin (docs/protocol.md).
CLOSE_POLICY: Final = 1008
#: The close code of a socket whose message could not be written (the server's fault: the page reconnects).
CLOSE_INTERNAL: Final = 1011
#: Seconds a refused socket's last messages have to leave before it is closed all the same.
FLUSH_SECONDS: Final = 5.0


class SocketEdge:
    """The parts of one app's ``/ws``: its rooms, the Origin check, the rate limits (each socket's own
    bucket, and one shared by the sockets of a client address), and the throttled log of refusals. One
    per app, in ``app.state.sockets``."""

    def __init__(self, rooms: TableRooms, origins: Origins, limits: Limits) -> None:
        self.rooms = rooms
        self.origins = origins
        self.limits = limits
        self.message_limit = AddressLimiter(limits.message_rate * 60, limits.message_burst)
        self.refused_origins = ThrottledLog(log)


router = APIRouter()


@router.websocket("/ws")
async def socket(ws: WebSocket) -> None:
    edge: SocketEdge = ws.app.state.sockets
    await serve_socket(ws, edge)


async def serve_socket(ws: WebSocket, edge: SocketEdge) -> None:
    """Accept a socket whose Origin is allowed and serve it until it closes."""
    rooms, limits = edge.rooms, edge.limits
    origin = ws.headers.get("origin")
    if not edge.origins.allows(origin, ws.url.scheme, ws.headers.get("host")):
        # refused before accept: uvicorn answers the handshake with 403
        edge.refused_origins("socket from origin %r refused (not this server's origin)", origin)
        await ws.close(code=CLOSE_POLICY)
        return
    await ws.accept()
    conn = version1.SocketConnection()  # a version-1 socket's messages are turned into version 1's
    conn.address = ws.client.host if ws.client else None
    bucket = TokenBucket(limits.ws_rate, limits.ws_burst)
    address = ws.client.host if ws.client else None
    sender = asyncio.create_task(send_loop(ws, conn))
    rooms.metrics.sockets.inc()
    try:
        while True:
            try:
                message = await ws.receive()
            except (WebSocketDisconnect, RuntimeError):
                break
            if message["type"] == "websocket.disconnect":
                break
            over_socket = not bucket.take()
            if over_socket or not edge.message_limit.allow(address):  # the socket's, then its address's
                rooms.metrics.refused.labels(code="rate_limited").inc()
                rooms.leave(conn)  # nothing more is queued for it: the error is its last message
                await refuse(ws, conn, sender, rate_limited_frame(limits, per_address=not over_socket))
                break
            raw = message.get("text")
            if raw is None:
                raw = message.get("bytes") or b""
            try:
                dispatch(rooms, conn, version1.upgrade(conn, parse_client_message(raw)))
            except (TableError, StoreError, sa.exc.SQLAlchemyError) as exc:
                code, frame = socket_error(exc)
                rooms.metrics.refused.labels(code=code).inc()
                conn.send(frame)
    finally:
        rooms.metrics.sockets.dec()
        rooms.leave(conn)
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sender


async def refuse(
    ws: WebSocket, conn: Connection, sender: asyncio.Task[None], message: dict[str, Any]
) -> None:
    """Send what is queued for the socket, then ``message`` as its last message, and close it with 1008.

    The caller has taken the socket out of its room, so nothing more is queued after ``message``; a
    client that does not read gets its close after :data:`FLUSH_SECONDS` all the same."""
    conn.send(message)
    flushed = asyncio.ensure_future(conn.queue.join())
    try:
        await asyncio.wait({flushed, sender}, timeout=FLUSH_SECONDS, return_when=asyncio.FIRST_COMPLETED)
    finally:
        flushed.cancel()
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sender
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        if ws.application_state != WebSocketState.DISCONNECTED:
            await ws.close(code=CLOSE_POLICY)


async def send_loop(ws: WebSocket, conn: Connection) -> None:
    """Send a socket's queued messages in order until it closes."""
    while True:
        message = await conn.queue.get()
        if message is CLOSE_SOCKET:  # Connection.close: the socket closes (its receiver then leaves)
            conn.queue.task_done()
            with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
                await ws.close(code=conn.close_code or 1000)
            return
        try:
            if isinstance(message, SharedMessage):  # made once for many sockets: encoded once
                await ws.send_text(message.text)
            else:
                await ws.send_text(json.dumps(message, ensure_ascii=False))
        except (WebSocketDisconnect, RuntimeError, OSError):
            return
        except Exception:  # a message that cannot be written: close the socket, never leave it mute
            log.exception("a message could not be sent on a socket: it is closed (the page reconnects)")
            with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
                await ws.close(code=CLOSE_INTERNAL)
            return
        finally:
            conn.queue.task_done()


__all__ = [
    "CLOSE_INTERNAL",
    "CLOSE_POLICY",
    "SocketEdge",
    "refuse",
    "router",
    "send_loop",
    "serve_socket",
]
