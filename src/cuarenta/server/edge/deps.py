"""What every route of the edge shares: the bearer secrets, the rate limits of creation, and errors.

- **Secrets.** :func:`seat_token`, :func:`optional_seat_token` and :func:`profile_key` read the
  ``Authorization: Bearer`` header (:func:`bearer_secret`: 401 without one, 403 when it is too long to be
  one); the server's secrets are compared by their hashes in the authority and the store.
- **Rate limits.** :func:`limit_room_creation` (new rooms, new tables, joins),
  :func:`limit_profile_creation` and :func:`limit_puzzle_reports` spend a token of the client address'
  bucket, 429 with ``Retry-After`` over it; :func:`limit_reclaims` counts wrong seat codes.
- **Errors.** The one place that turns an error into an answer, always ``{"detail", "code"}`` (and
  ``params`` when the refusal's words have some, docs/protocol.md): :func:`problem_http` maps the domain's
  refusals (a room's, a table's, a profile's, a championship's) to an HTTP status (by
  :mod:`~cuarenta.server.edge.statuses`, the one mapping), :func:`install_error_handlers` gives the
  app its answers to invalid requests (400 ``bad_input``), a failed store (503 ``store_unavailable``) and
  any :class:`HTTPException` (its :class:`Refusal` code, else the status' own:
  :func:`~cuarenta.server.edge.statuses.default_code`), and :func:`socket_error` makes the WebSocket error
  frame of a refused message (docs/protocol.md).

>>> from cuarenta.server.authority.errors import RoomProblem
>>> from cuarenta.server.protocol import ProtocolError
>>> refused = problem_http(RoomProblem("seat_left", "you left"))
>>> refused.status_code, refused.code
(410, 'seat_left')
>>> socket_error(ProtocolError("stale", "state 3 is older than 4"))
('stale', {'v': 2, 'type': 'error', 'code': 'stale', 'message': 'state 3 is older than 4'})
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, Final

import sqlalchemy as sa
from fastapi import Depends, FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException

from cuarenta.server.authority.errors import TableError
from cuarenta.server.edge.ratelimits import AddressLimiter, GuessLimiter, GuessLimits, GuessTicket, Limits
from cuarenta.server.edge.statuses import default_code, http_status
from cuarenta.server.ops.logs import ThrottledLog
from cuarenta.server.protocol import error_message
from cuarenta.server.store import Store, StoreError, StoreUnknown, store_text, unavailable_text
from cuarenta.server.store.profiles import ProfileProblem
from cuarenta.server.wiring import TableRooms

log = logging.getLogger("cuarenta.server")

#: The longest seat token the API reads (the server's tokens have 32 characters).
MAX_TOKEN_CHARS: Final = 200
#: The longest profile key the API reads (the server's keys have 32 characters).
MAX_KEY_CHARS: Final = 200
#: The refusals the routes let through to :func:`install_error_handlers`'s handler.
Problem = TableError | ProfileProblem


# -- the answers' schema ------------------------------------------------------------------------------
class ErrorAnswer(BaseModel):
    """Every HTTP error: one clear sentence in English (``detail``), the refusal's ``code`` (the page says
    it in its own language: ``error.<code>`` or its own words), and the ``params`` of its words when it has
    some."""

    detail: str
    code: str
    params: dict[str, Any] | None = None


# The profiles API's name of ErrorAnswer in the schema (kept, so that the schema's names are unchanged;
# no docstring: it would become the schema's description).
class _Error(BaseModel):
    detail: str
    code: str


class Refusal(HTTPException):
    """An :class:`HTTPException` with its ``code`` (default: the status' own, :func:`default_code`).

    >>> Refusal(429, "too many").code, Refusal(400, "no", "bad_rules").code
    ('rate_limited', 'bad_rules')
    """

    def __init__(
        self, status: int, detail: str, code: str | None = None, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(status, detail, headers=headers)
        self.code = code or default_code(status)


def errors(*codes: int, model: type[BaseModel] = ErrorAnswer) -> dict[int | str, dict[str, Any]]:
    """A route's ``responses``: each of ``codes`` answers ``model``.

    >>> errors(404)
    {404: {'model': <class 'cuarenta.server.edge.deps.ErrorAnswer'>}}
    """
    return {code: {"model": model} for code in codes}


def profile_errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The ``responses`` of a profile route (:func:`errors` under the profiles API's name)."""
    return errors(*codes, model=_Error)


def json_errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The error answers of a route whose own answer is not JSON (FastAPI would give them its type)."""
    schema = {"$ref": "#/components/schemas/ErrorAnswer"}
    return {
        code: {"description": "an error", "content": {"application/json": {"schema": schema}}}
        for code in codes
    }


# -- secrets in the Authorization header --------------------------------------------------------------
seat_bearer = HTTPBearer(
    auto_error=False,
    scheme_name="seat token",
    description="The token of a seat (from POST /api/rooms), as `Authorization: Bearer <token>`.",
)
profile_bearer = HTTPBearer(
    auto_error=False,
    scheme_name="profile key",
    description="The key of a profile (from POST /api/profiles), as `Authorization: Bearer <key>`.",
)


def bearer_secret(credentials: HTTPAuthorizationCredentials | None, what: str, longest: int) -> str:
    """The secret of an ``Authorization: Bearer`` header: :class:`HTTPException` 401 without one, 403 when
    it is longer than ``longest`` (``what`` names it: ``"seat's token"``, ``"profile's key"``).

    >>> bearer_secret(HTTPAuthorizationCredentials(scheme="Bearer", credentials="abc"), "seat's token", 9)
    'abc'
    >>> bearer_secret(None, "seat's token", 9)
    Traceback (most recent call last):
    ...
    cuarenta.server.edge.deps.Refusal: 401: send the seat's token in the header Authorization: Bearer <token>
    """
    word = what.rsplit(" ", 1)[-1]
    if credentials is None or not credentials.credentials:
        raise Refusal(
            401,
            f"send the {what} in the header Authorization: Bearer <{word}>",
            "no_token",
            headers={"WWW-Authenticate": "Bearer"},
        )
    secret = credentials.credentials
    if len(secret) > longest:
        raise Refusal(403, f"that is not a {what} (longer than {longest} characters)", "bad_token")
    return secret


def seat_token(credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(seat_bearer)]) -> str:
    """The token of the ``Authorization: Bearer`` header: 401 without one, 403 when it cannot be a token."""
    return bearer_secret(credentials, "seat's token", MAX_TOKEN_CHARS)


async def optional_seat_token(request: Request) -> str | None:
    """The seat token of an ``Authorization: Bearer`` header if there is one (the schema says it is
    optional through the route's ``security``)."""
    credentials = await seat_bearer(request)
    return credentials.credentials if credentials is not None and credentials.credentials else None


def profile_key(credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(profile_bearer)]) -> str:
    """The key of the ``Authorization: Bearer`` header: 401 without one, 403 when it cannot be a key."""
    return bearer_secret(credentials, "profile's key", MAX_KEY_CHARS)


#: The parameter of a route that needs a seat's token.
SeatToken = Annotated[str, Depends(seat_token)]
#: The security requirement of a route whose seat token is optional (its ``openapi_extra``).
OPTIONAL_SEAT_TOKEN: Final[dict[str, Any]] = {"security": [{}, {seat_bearer.scheme_name: []}]}


# -- the app's parts, for the routes ------------------------------------------------------------------
async def rooms_of(request: Request) -> TableRooms:
    """The app's rooms and tables (``app.state.rooms``: a :class:`TableRooms`, or a cluster node's).
    Coroutines, these two: FastAPI would run a plain function in a thread."""
    rooms: TableRooms = request.app.state.rooms
    return rooms


async def store_of(request: Request) -> Store:
    """The app's store (``app.state.store``)."""
    store: Store = request.app.state.store
    return store


#: The parameters of a route that reads the rooms or the store.
RoomsDep = Annotated[TableRooms, Depends(rooms_of)]
StoreDep = Annotated[Store, Depends(store_of)]


# -- rate limits of creation --------------------------------------------------------------------------
#: Wrong seat codes per client address (a minute's, and at once), and per table from all addresses
#: (:class:`~cuarenta.server.edge.ratelimits.GuessLimits`: a right code spends nothing).
RECLAIMS_PER_MINUTE: Final = GuessLimits.per_address_minute
RECLAIMS_BURST: Final = GuessLimits.per_address_burst
RECLAIMS_PER_TABLE_MINUTE: Final = GuessLimits.per_table_minute
RECLAIMS_PER_TABLE_BURST: Final = GuessLimits.per_table_burst


class CreationLimits:
    """The per-address buckets of new rooms (tables and joins too), of new profiles and of reports of
    wrong puzzles, each at ``Limits.rooms_per_minute`` in bursts of ``rooms_burst``, with their throttled
    refusal lines. One per app, in ``app.state.creation``."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.rooms = AddressLimiter(limits.rooms_per_minute, limits.rooms_burst)
        self.profiles = AddressLimiter(limits.rooms_per_minute, limits.rooms_burst)
        self.reports = AddressLimiter(limits.rooms_per_minute, limits.rooms_burst)
        self.refused_reports = ThrottledLog(log)
        #: wrong seat codes, per address and per table (docs/tables.md "Taking a seat back")
        self.reclaims = GuessLimiter()
        self.refused_reclaims = ThrottledLog(log)
        self.refused_rooms = ThrottledLog(log)
        self.refused_profiles = ThrottledLog(log)


def _creation(request: Request) -> CreationLimits:
    state = request.app.state
    found = getattr(state, "creation", None)
    if not isinstance(found, CreationLimits):
        limits = getattr(state, "limits", None)
        found = state.creation = CreationLimits(limits if isinstance(limits, Limits) else Limits())
    return found


def _client(request: Request) -> str | None:
    return request.client.host if request.client else None


async def limit_room_creation(request: Request) -> None:
    """New rooms, tables and joins per client address (a coroutine: on the loop, not in a thread)."""
    creation, host = _creation(request), _client(request)
    if not creation.rooms.allow(host):
        wait = creation.rooms.retry_after(host)
        creation.refused_rooms("room creation refused to %s: over the rate limit", host)
        limits = creation.limits
        raise HTTPException(
            429,
            f"too many new rooms from your address: at most {limits.rooms_burst} at once and "
            f"{limits.rooms_per_minute:g} a minute; try again in {wait} s",
            headers={"Retry-After": str(wait)},
        )


async def limit_reclaims(request: Request) -> GuessTicket:
    """A try to take a seat back with a seat code (``POST /api/tables/{room}/reclaim``), let through or
    refused with 429 before the code is looked at. Only wrong guesses count (the route settles the
    ticket: :meth:`GuessTicket.right` for a right code): :data:`RECLAIMS_BURST` at once and
    :data:`RECLAIMS_PER_MINUTE` a minute per client address, and per table from every address together
    :data:`RECLAIMS_PER_TABLE_BURST` and :data:`RECLAIMS_PER_TABLE_MINUTE` — past which an address that
    has not guessed there is still answered (:class:`GuessLimits`): wrong guesses from many addresses
    do not lock the owner out, and a code of 40 random bits is not guessed (docs/tables.md)."""
    creation, host = _creation(request), _client(request)
    table = str(request.path_params.get("room_id", ""))
    ticket = creation.reclaims.take(table, host)
    if ticket is None:
        wait = creation.reclaims.wait(table, host)
        creation.refused_reclaims("seat code tries refused to %s: over the rate limit", host)
        limits = creation.reclaims.limits
        raise HTTPException(
            429,
            f"too many tries of wrong seat codes (at most {limits.per_address_burst} at once from one "
            f"address, fewer at a table many guess at); try again in {wait} s",
            headers={"Retry-After": str(wait)},
        )
    return ticket


def _per_address(limiter: str, refused: str, what: str, doc: str) -> Callable[[Request], Awaitable[None]]:
    """A dependency that lets an address make ``what`` within the limiter ``limiter`` of the app's
    creation limits (429 with ``Retry-After`` past it, noted in the throttled log ``refused``)."""

    async def guard(request: Request) -> None:
        creation, host = _creation(request), _client(request)
        bucket = getattr(creation, limiter)
        if not bucket.allow(host):
            wait = bucket.retry_after(host)
            getattr(creation, refused)(f"{what} refused to %s: over the rate limit", host)
            raise HTTPException(
                429,
                f"too many {what} from your address: at most {bucket.burst} at once; try again in {wait} s",
                headers={"Retry-After": str(wait)},
            )

    guard.__doc__ = doc
    return guard


#: New profiles per client address: the limits of new rooms (``rooms_per_minute``, ``rooms_burst``).
limit_profile_creation = _per_address(
    "profiles", "refused_profiles", "new profiles", "New profiles per client address."
)
#: Reports of wrong puzzles per client address: the limits of new rooms (a person reports a puzzle now and
#: then, never many a minute).
limit_puzzle_reports = _per_address(
    "reports", "refused_reports", "puzzle reports", "Reports of wrong puzzles per client address."
)


# -- errors -------------------------------------------------------------------------------------------
def problem_status(problem: Problem) -> int:
    """The HTTP status of a domain refusal (:mod:`cuarenta.server.edge.statuses`, the one mapping; a
    profile's refusal of a code it does not list is bad input, 400).

    >>> from cuarenta.server.store.profiles import ProfileProblem
    >>> problem_status(ProfileProblem("bad_key", "no")), problem_status(TableError("unknown_room", "no"))
    (403, 404)
    """
    return http_status(problem, default=400 if isinstance(problem, ProfileProblem) else 500)


def problem_http(problem: Problem) -> Refusal:
    """A domain refusal as the HTTP error the routes answer: its status, its sentence and its code."""
    return Refusal(problem_status(problem), problem.message, problem.code)


def validation_text(exc: RequestValidationError) -> str:
    """An invalid request's first problems as one sentence (``field: what is wrong; …``)."""
    parts = []
    for err in exc.errors()[:5]:
        loc = [str(p) for p in err.get("loc", ()) if p != "body"]
        msg = str(err.get("msg", "invalid")).removeprefix("Value error, ")
        if not loc and re.match(r"^[a-z_]+: ", msg):  # a check of the whole body that names its field
            parts.append(msg)
        else:
            parts.append(f"{'.'.join(loc) or 'body'}: {msg}")
    return "; ".join(parts) or "the request is not valid"


#: The code of a request that is not valid (a field missing, of the wrong type or out of range).
BAD_INPUT: Final = "bad_input"


def error_body(detail: str, code: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    """The body of every error answer of the API: ``{"detail", "code"}``, and ``params`` when given.

    >>> error_body("no such room", "unknown_room")
    {'detail': 'no such room', 'code': 'unknown_room'}
    """
    body: dict[str, Any] = {"detail": detail, "code": code}
    if params:
        body["params"] = params
    return body


async def _invalid(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    return JSONResponse(error_body(validation_text(exc), BAD_INPUT), status_code=400)


async def _store_failed(request: Request, exc: Exception) -> JSONResponse:
    log.error("%s %s: the store failed: %s", request.method, request.url.path, store_text(exc))
    code = "outcome_unknown" if isinstance(exc, StoreUnknown) else "store_unavailable"
    return JSONResponse(error_body(unavailable_text(exc), code), status_code=503)


async def _refused(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, TableError | ProfileProblem)
    # the code too (the page words the refusals itself), and the params of its words if it has some
    params = getattr(exc, "params", None)
    body = error_body(exc.message, exc.code, params if isinstance(params, dict) else None)
    return JSONResponse(body, status_code=problem_status(exc))


async def _http_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    code = getattr(exc, "code", None)
    body = error_body(str(exc.detail), code if isinstance(code, str) else default_code(exc.status_code))
    return JSONResponse(body, status_code=exc.status_code, headers=exc.headers)


def install_error_handlers(app: FastAPI) -> None:
    """The app's answers to errors, each ``{"detail", "code"}`` (:func:`error_body`): an invalid request 400
    ``bad_input`` with what is wrong, a store that fails 503 ``store_unavailable`` on every route (never a
    bare 500, docs/protocol.md), a domain refusal its :func:`problem_status` and its code, any other
    :class:`HTTPException` its status and its code (a :class:`Refusal`'s, else the status' own)."""
    app.add_exception_handler(RequestValidationError, _invalid)
    app.add_exception_handler(sa.exc.SQLAlchemyError, _store_failed)
    app.add_exception_handler(StoreError, _store_failed)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    for problem in (TableError, ProfileProblem):
        app.add_exception_handler(problem, _refused)
    _schema_without_422(app)


def _schema_without_422(app: FastAPI) -> None:
    """The schema says what the handlers answer: FastAPI lists a 422 ``HTTPValidationError`` on every route
    with input, but an invalid request is answered 400 ``ErrorAnswer`` (:func:`_invalid`)."""
    made = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        schema = made()
        bad = {
            "description": "Bad Request",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorAnswer"}}},
        }
        for operations in schema.get("paths", {}).values():
            for operation in operations.values():
                answers = operation.get("responses", {})
                if answers.pop("422", None) is not None:
                    answers.setdefault("400", bad)
        components = schema.get("components", {}).get("schemas", {})
        for name in ("HTTPValidationError", "ValidationError"):
            components.pop(name, None)
        components.setdefault("ErrorAnswer", ErrorAnswer.model_json_schema())
        return schema

    app.openapi = openapi  # type: ignore[method-assign]


def socket_error(exc: Exception) -> tuple[str, dict[str, Any]]:
    """A socket message's failure as ``(code, the error frame)``: a
    :class:`~cuarenta.server.protocol.codes.ProtocolError` as it says; a store that failed as
    ``store_unavailable`` (logged: an error frame, never a silent close). Anything else is raised again.

    >>> code, frame = socket_error(StoreError("disk I/O error"))
    >>> code, frame["message"].endswith("disk I/O error")
    ('store_unavailable', True)
    """
    if isinstance(exc, TableError):  # the authority's refusals, the wire's ProtocolError among them
        return exc.code, error_message(exc.code, exc.message, exc.reason)
    if isinstance(exc, StoreError | sa.exc.SQLAlchemyError):
        log.error("a socket's request failed in the store: %s", store_text(exc))
        code = "outcome_unknown" if isinstance(exc, StoreUnknown) else "store_unavailable"
        return code, error_message(code, unavailable_text(exc))
    raise exc


def rate_limited_frame(limits: Limits, *, per_address: bool = False) -> dict[str, Any]:
    """The error frame of a socket closed for sending too much (its own rate, or its address')."""
    if per_address:
        return error_message(
            "rate_limited",
            f"too many messages from your address: at most {limits.message_rate:g} a second across its "
            f"sockets (bursts of {limits.message_burst}); the socket is closed",
        )
    return error_message(
        "rate_limited",
        f"too many messages: at most {limits.ws_rate:g} a second (bursts of {limits.ws_burst}); "
        "the socket is closed",
    )


__all__ = [
    "BAD_INPUT",
    "MAX_KEY_CHARS",
    "MAX_TOKEN_CHARS",
    "OPTIONAL_SEAT_TOKEN",
    "CreationLimits",
    "ErrorAnswer",
    "Refusal",
    "RoomsDep",
    "SeatToken",
    "StoreDep",
    "bearer_secret",
    "error_body",
    "errors",
    "install_error_handlers",
    "json_errors",
    "limit_profile_creation",
    "limit_puzzle_reports",
    "limit_reclaims",
    "limit_room_creation",
    "optional_seat_token",
    "problem_http",
    "problem_status",
    "profile_bearer",
    "profile_errors",
    "profile_key",
    "rate_limited_frame",
    "rooms_of",
    "seat_bearer",
    "seat_token",
    "socket_error",
    "store_of",
]
