"""The device host: the project's :class:`~cuarenta.server.authority.Authority` in the browser (Pyodide,
in a Web Worker), answering the page's HTTP requests and socket messages as the server does.

It is wired with the device's parts: a :class:`~cuarenta.device.store.MemoryStore` whose every change is
handed to ``persist`` (the worker writes it to IndexedDB), the one-process bus, the local scheduler of
the computer players (paced on asyncio) and :class:`~cuarenta.server.thinking.InlineThinking` (Pyodide
has no threads). The answers are built by :mod:`cuarenta.server.answers`, the same functions the
server's routes call; the socket messages are read and handed over by the server's own table and reader
(:mod:`cuarenta.server.protocol`), so they are refused with the server's codes and sentences. Tables
with friends need a server: their routes answer 404 with the code ``device_only_computer``, and their
socket messages (``react``, ``rematch``) ``not_a_table`` (:class:`DeviceHandlers`). The deal of the day is
played here only from today's **offline** seed, which a server handed out ahead (``POST api/daily`` with
``{"seed"}``: :func:`cuarenta.daily.offline_seed`); its ranking needs a server.

Every call is synchronous; the computer's moves run on the event loop (Pyodide's WebLoop in the browser)
and their frames leave through ``send`` as they come. Call it from the loop's thread only.

>>> import asyncio, json
>>> async def demo() -> list[str]:
...     frames: list[str] = []
...     host = DeviceHost(send=lambda conn, text: frames.append(json.loads(text)["type"]))
...     made = json.loads(host.http("POST", "api/rooms", '{"level": "facil"}', None))["body"]
...     conn = host.open()
...     host.receive(conn, json.dumps({"v": 2, "type": "join", "room": made["room"], "token": made["token"]}))
...     host.close(conn)
...     await host.shutdown()
...     return frames
>>> asyncio.run(demo())
['snapshot']
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
from collections.abc import Callable, Mapping
from typing import Any, Final
from urllib.parse import parse_qs, urlsplit

from cuarenta.catalogue import LANGS
from cuarenta.daily import DAILY_LEVEL, daily_rules, day_of, is_offline, today
from cuarenta.device.store import MemoryStore, Persist
from cuarenta.names import NAME_MAX_CHARS, clean_name
from cuarenta.players import Player, make_player
from cuarenta.players.dificil import DEVICE_BUDGET, DificilPlayer
from cuarenta.players.experto import DEVICE_BUDGET as EXPERTO_DEVICE_BUDGET
from cuarenta.players.experto import ExpertoPlayer
from cuarenta.server import answers
from cuarenta.server.answers import puzzles
from cuarenta.server.authority.bus import LocalBus
from cuarenta.server.authority.core import Authority
from cuarenta.server.authority.errors import TableError
from cuarenta.server.authority.model import CLOSE_SOCKET, Connection
from cuarenta.server.authority.ports import StoreError
from cuarenta.server.authority.requests import (
    AdviceRequest,
    JoinRequest,
    MoveRequest,
    PaceRequest,
    ReactRequest,
    WatchRequest,
)
from cuarenta.server.authority.wire.messages import SharedMessage
from cuarenta.server.edge.statuses import http_status
from cuarenta.server.protocol import ProtocolError, dispatch, error_message, parse_client_message
from cuarenta.server.protocol.fields import Text, read_fields
from cuarenta.server.thinking import InlineThinking

log = logging.getLogger("cuarenta.device")

#: The pause before a computer move at the normal pace, in seconds (the server's default).
BOT_DELAY: Final = 0.8
#: What a frame for a connection calls: the connection's id and the frame's text.
Send = Callable[[int, str], None]


def device_player(level: str, seed: int | str = 0) -> Player:
    """A computer player of the device: ``dificil`` thinks on :data:`~cuarenta.players.dificil.DEVICE_BUDGET`
    and ``experto`` on :data:`~cuarenta.players.experto.DEVICE_BUDGET`
    (a move of a loaded phone within 3 s at its 95th percentile: docs/performance.md "The game on the
    device"; its cost in strength: docs/strength.md "On the device"); the other levels as on the server.

    >>> device_player("dificil", 3).budget.depth4, device_player("normal").name
    (10, 'normal')
    """
    if level == "dificil":
        return DificilPlayer(seed, budget=DEVICE_BUDGET)
    if level == "experto":
        return ExpertoPlayer(seed, budget=EXPERTO_DEVICE_BUDGET)
    return make_player(level, seed)


#: The code of the answer to what needs a server (tables with friends, championships, profiles, the
#: leaderboard, the deal of the day's rankings).
DEVICE_ONLY_COMPUTER: Final = "device_only_computer"
#: The first part of the paths that need a server (``daily`` aside: its ``POST api/daily`` is answered).
SERVER_ONLY: Final = ("tables", "championships", "profiles", "leaderboard", "qr", "lobby")
#: The longest seat token the API reads (as the server's).
MAX_TOKEN_CHARS: Final = 200
#: The longest seed ``POST api/daily`` reads (an offline seed is ``dia/2026-12-05/sin/`` and 24 hex digits).
MAX_SEED_CHARS: Final = 100
#: The fields of the device's ``POST api/daily`` body: today's offline seed and the person's name.
NEW_DAILY_FIELDS: Final = (
    Text("seed", longest=MAX_SEED_CHARS),
    Text(
        "name",
        longest=NAME_MAX_CHARS,
        shortest=0,
        required=False,
        check=functools.partial(clean_name, empty_ok=True),
    ),
)


def _no_send(conn: int, text: str) -> None:
    """Send nothing."""


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _answer(status: int, body: Any) -> str:
    return _json({"status": status, "body": body})


def _plain(value: Any) -> Any:
    """A value given from JavaScript (a ``JsProxy``) as Python's own; a Python value as it is."""
    to_py = getattr(value, "to_py", None)
    return to_py() if callable(to_py) else value


class DeviceHandlers:
    """The :class:`~cuarenta.server.protocol.Handlers` of the device: the authority's, but ``react`` and
    ``rematch`` (tables with friends, which need a server) refuse with ``not_a_table``."""

    def __init__(self, authority: Authority) -> None:
        self.authority = authority

    def join(self, conn: Connection, message: JoinRequest) -> None:
        self.authority.join(conn, message)

    def watch(self, conn: Connection, message: WatchRequest) -> None:
        self.authority.watch(conn, message)

    def move(self, conn: Connection, message: MoveRequest) -> None:
        self.authority.move(conn, message)

    def next_mesa(self, conn: Connection, message: object = None) -> None:
        self.authority.next_mesa(conn, message)

    def pace(self, conn: Connection, message: PaceRequest) -> None:
        self.authority.pace(conn, message)

    def advice(self, conn: Connection, message: AdviceRequest) -> None:
        self.authority.advice(conn, message)

    def react(self, conn: Connection, message: ReactRequest) -> None:
        raise _needs_a_server("react")

    def rematch(self, conn: Connection, message: object = None) -> None:
        raise _needs_a_server("rematch")


def _needs_a_server(kind: str) -> ProtocolError:
    return ProtocolError(
        "not_a_table",
        f"{kind} is for tables with friends, which need a server: this device plays "
        "against the computer only",
    )


class DeviceHost:
    """The authority of one device (module docstring).

    ``saved``: room id → the text of every room saved before (from IndexedDB; a JavaScript object or Map
    is read with ``to_py``); ``send(conn, text)``: a frame for a connection; ``persist(room_id, text)``: a
    room's stored data changed (``text`` ``None``: the room was deleted). ``bot_delay``: the computer's
    pause at the normal pace, in seconds.
    """

    def __init__(
        self,
        saved: Mapping[str, str] | None = None,
        send: Send | None = None,
        persist: Persist | None = None,
        *,
        bot_delay: float = BOT_DELAY,
    ) -> None:
        found = _plain(saved)
        if isinstance(found, str):
            found = json.loads(found)
        if found is not None and not isinstance(found, Mapping):
            raise TypeError(f"saved must map room ids to their texts, not {type(found).__name__}")
        self.send: Send = _no_send if send is None else send
        self.store = MemoryStore(found, persist)
        self.authority = Authority(
            self.store, bot_delay=bot_delay, thinking=InlineThinking(device_player), bus=LocalBus()
        )
        #: what takes the socket's messages: the authority, but for what needs a server
        self.handlers = DeviceHandlers(self.authority)
        self._conns: dict[int, Connection] = {}
        self._pumps: dict[int, asyncio.Task[None]] = {}
        self._last = 0

    @property
    def skipped(self) -> dict[str, str]:
        """Room id → why its saved text could not be read (it was left out at boot; nothing else was)."""
        return dict(self.store.skipped)

    # -- HTTP-like requests -----------------------------------------------------------------------------
    def http(self, method: str, path: str, body: Any = None, token: str | None = None) -> str:
        """Answer a request of the page as the server would: JSON text ``{"status": N, "body": {...}}``,
        or for a record ``{"status": 200, "text": ..., "type": ..., "filename": ...}``.

        ``path`` is relative, as the page asks it (``"api/rooms"``, ``"api/games/R/record?mesa=2"``);
        ``body`` the request's JSON text (or ``None``); ``token`` the seat's token of the
        ``Authorization`` header (or ``None``)."""
        try:
            return self._http(str(method).upper(), str(path), _plain(body), _plain(token))
        except answers.Refused as exc:
            return _answer(exc.status, exc.body())
        except TableError as exc:  # the authority's refusals, as the server's error handler answers them
            return _answer(http_status(exc), {"detail": exc.message, "code": exc.code})
        except StoreError as exc:
            log.error("%s %s: the device's store failed: %s", method, path, exc)
            return _answer(
                503,
                {
                    "detail": f"the game could not be saved on this device (try again): {exc}",
                    "code": "store_unavailable",
                },
            )
        except Exception:
            log.exception("%s %s failed", method, path)
            return _answer(500, {"detail": "Internal Server Error", "code": "server_error"})

    def _http(self, method: str, path: str, body: Any, token: str | None) -> str:
        parts = urlsplit(path)
        route = [p for p in parts.path.strip("/").split("/") if p]
        query = parse_qs(parts.query)
        if route[:1] != ["api"]:
            raise answers.Refused(404, "Not Found")
        route = route[1:]
        if route == ["daily"] and method == "POST":
            return _answer(200, self._new_daily(self._body(body)))
        if route[:1] == ["daily"]:
            return _answer(
                404,
                {
                    "detail": "the deal of the day's rankings need a server: this device plays only today's "
                    "offline deal (POST api/daily with its seed), and its result is sent to a server later",
                    "code": DEVICE_ONLY_COMPUTER,
                },
            )
        if route and route[0] in SERVER_ONLY:
            return _answer(
                404,
                {
                    "detail": "playing with friends and championships need a server: this device plays "
                    "against the computer only (open the game from a Cuarenta server for them)",
                    "code": DEVICE_ONLY_COMPUTER,
                },
            )
        found = self._game_route(method, route, query, body, token)
        if found is None and route == ["replay"]:
            self._allow(method, "POST")
            found = _answer(200, answers.replay_text_answer(self._body(body)))
        if found is None and route[:1] == ["puzzles"]:
            found = self._puzzle_route(method, route, query, body)
        if found is None:
            found = self._browser_route(method, route, body)
        if found is None:
            raise answers.Refused(404, "Not Found")
        return found

    def _game_route(
        self, method: str, route: list[str], query: dict[str, list[str]], body: Any, token: str | None
    ) -> str | None:
        """The answer of a route of the game (options, texts, rooms, a mesa's record), or ``None``."""
        if route == ["options"]:
            self._allow(method, "GET")
            return _answer(200, answers.options_payload())
        if len(route) == 2 and route[0] == "texts":
            self._allow(method, "GET")
            if route[1] not in LANGS:
                raise answers.no_texts(route[1])
            text, _ = answers.texts_body(route[1])
            return '{"status":200,"body":' + text.decode() + "}"
        if route == ["rooms"]:
            self._allow(method, "POST")
            checked = answers.new_room_body({} if body is None else self._body(body))
            return _answer(200, answers.new_room(self.authority, checked))
        if len(route) == 2 and route[0] == "rooms":
            self._allow(method, "GET")
            return _answer(200, answers.room_info(self.authority, route[1], self._token(token)))
        if len(route) == 3 and route[0] == "games":
            return self._mesa_route(method, route, query, token)
        return None

    def _new_daily(self, data: Any) -> dict[str, Any]:
        """``POST api/daily`` with ``{"seed", "name"}``: a room dealt from today's offline deal of the day
        (the seed a server handed out ahead, :func:`cuarenta.daily.offline_seed`), answered as the server's
        ``POST /api/daily``. Refused (400): no seed, a seed that is not an offline deal's, or another
        day's."""
        if not isinstance(data, dict):
            raise answers.Refused(
                400, "body: Input should be a valid dictionary or object to extract fields from"
            )
        values, problems = read_fields(data, NEW_DAILY_FIELDS, forbid_extra=True)
        if problems:
            raise answers.Refused(
                400,
                "; ".join(problems[:5])
                + " (the device plays the deal of the day from the offline seed a server handed out)",
            )
        seed = values["seed"]
        if not is_offline(seed):
            raise answers.Refused(
                400,
                "that is not the seed of an offline deal of the day (dia/<day>/sin/…): the device plays the "
                "deal of the day only from the offline seeds a server hands out",
                "not_offline_daily",
            )
        day, now = day_of(seed), today()
        if day != now:
            assert day is not None  # is_offline read it
            raise answers.Refused(
                400,
                f"that seed deals the offline deal of {day.isoformat()}, not of today ({now.isoformat()}, "
                "UTC): only today's deal is played",
                "not_today",
            )
        room, token = self.authority.create(
            rules=daily_rules(), level=DAILY_LEVEL, name=values.get("name", ""), daily=seed
        )
        return {"room": room.id, "seat": 0, "token": token, "day": now.isoformat()}

    def _puzzle_route(
        self, method: str, route: list[str], query: dict[str, list[str]], body: Any
    ) -> str | None:
        """``puzzles`` (one puzzle) and ``puzzles/ID/answer`` (a move tried; the ratings stay the shipped
        ones: the device rates nobody), ``puzzles/ID/report`` (refused: reports need a server), or
        ``None``."""
        if route == ["puzzles"]:
            self._allow(method, "GET")
            rating = query.get("rating", [None])[-1]
            after = query.get("after", [None])[-1]
            if rating is not None and not (rating.isdigit() and int(rating) <= 4000):
                raise answers.Refused(400, "rating must be a whole number from 0 to 4000")
            return _answer(200, puzzles.puzzle_payload(None if rating is None else int(rating), after))
        if len(route) == 3 and route[2] == "answer":
            self._allow(method, "POST")
            return _answer(200, puzzles.puzzle_answer(route[1], self._body(body)))  # shipped ratings
        if len(route) == 3 and route[2] == "report":
            self._allow(method, "POST")
            return _answer(
                404,
                {
                    "detail": "reports of wrong puzzles need a server: the device keeps none (open the "
                    "puzzles from a Cuarenta server to report one)",
                    "code": DEVICE_ONLY_COMPUTER,
                },
            )
        return None

    def _mesa_route(
        self, method: str, route: list[str], query: dict[str, list[str]], token: str | None
    ) -> str | None:
        """A finished mesa's record, its replay or its analysis (``games/R/record``, ``games/R/replay``,
        ``games/R/analysis``), or ``None``."""
        if route[2] not in ("record", "replay", "analysis"):
            return None
        self._allow(method, "GET")
        mesa = self._mesa(query.get("mesa"))
        if route[2] == "analysis":
            seat = self._seat(query.get("seat"))
            return _answer(
                200,
                answers.analysis_answer(self.authority, self.store, route[1], self._token(token), mesa, seat),
            )
        if route[2] == "replay":
            return _answer(
                200, answers.replay_answer(self.authority, self.store, route[1], self._token(token), mesa)
            )
        found = answers.record_answer(self.authority, self.store, route[1], self._token(token), mesa)
        return _json(
            {
                "status": 200,
                "text": found.text,
                "type": "text/plain; charset=utf-8",
                "filename": found.filename,
            }
        )

    def _browser_route(self, method: str, route: list[str], body: Any) -> str | None:
        """The answer of a route of what this browser played (history, statistics), or ``None``."""
        if route == ["history"]:
            if method == "GET":
                raise answers.Refused(405, answers.HISTORY_BY_ADDRESS)
            self._allow(method, "POST")
            tokens = answers.history_tokens(self._body(body))
            return _answer(200, answers.history_answer(self.store, tokens))
        if route == ["stats"]:
            if method == "GET":
                return _answer(200, answers.stats_answer(self.store))
            self._allow(method, "POST")
            tokens = answers.history_tokens(self._body(body))
            return _answer(200, answers.browser_stats_answer(self.store, tokens))
        return None

    @staticmethod
    def _allow(method: str, allowed: str) -> None:
        if method != allowed:
            raise answers.Refused(405, "Method Not Allowed")

    @staticmethod
    def _body(body: Any) -> Any:
        if isinstance(body, bytes | str):
            try:
                return json.loads(body)
            except ValueError as exc:
                raise answers.Refused(400, f"body: JSON decode error ({exc})") from None
        return body

    @staticmethod
    def _token(token: str | None) -> str:
        """The seat's token as the server reads its ``Authorization`` header (401 without, 403 too long)."""
        if not token:
            raise answers.Refused(401, "send the seat's token in the header Authorization: Bearer <token>")
        if not isinstance(token, str) or len(token) > MAX_TOKEN_CHARS:
            raise answers.Refused(
                403, f"that is not a seat's token (longer than {MAX_TOKEN_CHARS} characters)", "bad_token"
            )
        return token

    @staticmethod
    def _mesa(values: list[str] | None) -> int | None:
        if not values:
            return None
        try:
            mesa = int(values[-1])
        except ValueError:
            raise answers.Refused(
                400, "mesa: Input should be a valid integer, unable to parse string as an integer"
            ) from None
        if mesa < 1:
            raise answers.Refused(400, "mesa: Input should be greater than or equal to 1")
        if mesa >= 2**31:
            raise answers.Refused(400, f"mesa: Input should be less than {2**31}")
        return mesa

    @staticmethod
    def _seat(values: list[str] | None) -> int | None:
        """``seat=`` of the analysis, as the server reads it (a whole number from 0 to 3)."""
        if not values:
            return None
        text = values[-1]
        if not (text.isascii() and text.isdigit() and len(text) <= 2) or int(text) > 3:
            raise answers.Refused(400, "seat: Input should be a whole number from 0 to 3")
        return int(text)

    # -- the socket -------------------------------------------------------------------------------------
    def open(self) -> int:
        """A new connection (as a socket that opened); its frames leave through ``send``."""
        self._last += 1
        conn_id = self._last
        conn = Connection()
        self._conns[conn_id] = conn
        with contextlib.suppress(RuntimeError):  # no running loop: frames leave after each call only
            loop = asyncio.get_running_loop()  # Pyodide's WebLoop runs always; CPython: inside asyncio.run
            self._pumps[conn_id] = loop.create_task(self._pump(conn_id, conn), name=f"device-send-{conn_id}")
        return conn_id

    def receive(self, conn: int, text: str) -> None:
        """A message of the page on connection ``conn``: handled as the server's socket handles it (a
        refusal is answered with an ``error`` frame; the connection stays open)."""
        found = self._conns.get(conn)
        if found is None:
            raise ValueError(f"there is no open connection {conn!r}")
        try:
            self._dispatch(found, _plain(text))
        except TableError as exc:  # the authority's refusals, the wire's ProtocolError among them
            found.send(error_message(exc.code, exc.message, exc.reason))
        except StoreError as exc:
            log.error("a socket's request failed in the device's store: %s", exc)
            found.send(
                error_message(
                    "store_unavailable", f"the game could not be saved on this device (try again): {exc}"
                )
            )
        self._flush(conn, found)

    def _dispatch(self, conn: Connection, text: str) -> None:
        dispatch(self.handlers, conn, parse_client_message(text))

    def close(self, conn: int) -> None:
        """Connection ``conn`` closed (the page left): its seat is left as a closed socket leaves it."""
        found = self._conns.pop(conn, None)
        if found is None:
            return
        self.authority.leave(found)
        pump = self._pumps.pop(conn, None)
        if pump is not None:
            pump.cancel()

    def _deliver(self, conn_id: int, message: dict[str, Any]) -> None:
        if message is CLOSE_SOCKET:  # a cluster's hand-back: never on a device
            return
        text = message.text if isinstance(message, SharedMessage) else _json_frame(message)
        try:
            self.send(conn_id, text)
        except Exception:
            log.exception("sending a frame to connection %d failed", conn_id)

    def _flush(self, conn_id: int, conn: Connection) -> None:
        """Send what is queued for a connection, in order."""
        queue = conn.queue
        while True:
            try:
                message = queue.get_nowait()
            except asyncio.QueueEmpty:
                return
            queue.task_done()
            self._deliver(conn_id, message)

    async def _pump(self, conn_id: int, conn: Connection) -> None:
        """Send what the event loop queues for a connection (the computer's moves), as it comes."""
        while True:
            message = await conn.queue.get()
            conn.queue.task_done()
            self._deliver(conn_id, message)
            self._flush(conn_id, conn)

    async def shutdown(self) -> None:
        """Stop the computer players and the senders (the rooms stay in the store)."""
        for conn_id in list(self._conns):
            self.close(conn_id)
        await self.authority.close()


def _json_frame(message: dict[str, Any]) -> str:
    """A frame as the server's socket sends a plain message (``json.dumps``, not ASCII-escaped)."""
    return json.dumps(message, ensure_ascii=False)


__all__ = ["BOT_DELAY", "DEVICE_ONLY_COMPUTER", "DeviceHandlers", "DeviceHost", "Send", "device_player"]
