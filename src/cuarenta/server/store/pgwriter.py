"""PostgreSQL: the store's own connection for a move's save, one round trip (docs/performance.md "The move's
cost").

A move's save is one statement (:func:`cuarenta.server.store.rooms.pg_save`). Through SQLAlchemy's pool it
cost a ping of the connection at every checkout (``pool_pre_ping``: a second round trip) and the pool's
and the result's wrapping around psycopg. Here the store holds one psycopg connection of the engine's
(made by :func:`~cuarenta.server.store.pgwatch.bounded_engine`: every wait bounded by its watchdog) in
autocommit and sends the statement on it directly:

- no ping: before sending, the connection's socket is looked at without waiting (``select`` with no
  timeout). An idle connection has nothing to read; one the database closed (a restart, an ended session)
  has its farewell or its end waiting there — it is dropped and a new one made, nothing having been sent;
- a connection that breaks anyway once the statement was sent (it died in between, or the database did
  while it had it) leaves the write's outcome unknown. The save is a compare-and-set on the room's version
  (:func:`~cuarenta.server.store.rooms.pg_save`), so it is sent once more on a new connection: if it
  writes, the first had not (it would have moved the version on), and the move is stored once; if the
  room has moved on — by the first try or by another writer — the outcome stays unknown
  (:class:`~cuarenta.server.store.errors.StoreUnknown`, ended and read as before). A write without a
  compare-and-set is not sent again.
"""

from __future__ import annotations

import select
import threading
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa


class BrokenWrite(Exception):
    """The connection broke once the statement was sent: ``session`` is its database session (or
    ``None``), ``cause`` psycopg's error."""

    def __init__(self, cause: Exception, session: tuple[int, int] | None) -> None:
        super().__init__(str(cause))
        self.cause = cause
        self.session = session


class PgWriter:
    """One pooled connection of a PostgreSQL engine, held for the store's saves (module docstring).
    Safe to share between threads: a statement holds the writer's lock."""

    def __init__(self, engine: sa.Engine) -> None:
        self.engine = engine
        self._lock = threading.Lock()
        self._held: Any = None  #: the pool's connection (SQLAlchemy's ``PoolProxiedConnection``)

    def connection(self) -> Any:
        """The writer's psycopg connection, made if there is none (for a trace of what it sends: tests)."""
        with self._lock:
            return self._connection()

    def _connection(self) -> Any:
        held = self._held
        if held is not None and _closed_by_server(held.dbapi_connection):
            self._drop()
            held = None
        if held is None:
            held = self.engine.raw_connection()  # the engine's connect: bounded, its session read
            try:
                db: Any = held.dbapi_connection
                db.autocommit = True
            except BaseException:
                held.invalidate()
                raise
            self._held = held
        return held.dbapi_connection

    def save(
        self, sql: str, params: dict[str, Any], *, again: bool, applied: Callable[[tuple[Any, ...]], bool]
    ) -> tuple[Any, ...]:
        """Send one statement (its own transaction) and return its one row. When its connection breaks
        with the statement sent and ``again``, the statement goes once more on a new connection; its
        answer is returned if ``applied`` says it wrote (then the first try had not: the compare-and-set
        would have refused the second). Otherwise :class:`BrokenWrite` of the first try (its outcome is
        unknown). psycopg's own errors when nothing was applied."""
        with self._lock:
            try:
                return self._send(sql, params)
            except BrokenWrite as broken:
                if not again:
                    raise
                try:
                    row = self._send(sql, params)
                except Exception:
                    raise broken from None
                if applied(row):
                    return row
                raise broken from None

    def _send(self, sql: str, params: dict[str, Any]) -> tuple[Any, ...]:
        import psycopg

        db = self._connection()
        try:
            with db.cursor() as cursor:
                cursor.execute(sql, params)
                row = cursor.fetchone()
        except psycopg.Error as exc:
            if db.broken or db.closed:
                session = getattr(db, "cuarenta_session", None)
                self._drop()
                raise BrokenWrite(exc, session if isinstance(session, tuple) else None) from None
            raise
        assert row is not None
        return tuple(row)

    def _drop(self) -> None:
        """Close the held connection (never back to the pool: it is in autocommit)."""
        held, self._held = self._held, None
        if held is not None:
            held.invalidate()

    def close(self) -> None:
        with self._lock:
            self._drop()


def _closed_by_server(db: Any) -> bool:
    """Whether an idle connection's socket has something to read (the database's farewell, or its end):
    then it is closed, or closing. No wait, no round trip."""
    if db is None or db.closed or db.broken:
        return True
    try:
        readable, _, _ = select.select([db.pgconn.socket], [], [], 0)
    except (OSError, ValueError):
        return True
    return bool(readable)


__all__ = ["BrokenWrite", "PgWriter"]
