"""The routes of health and of the operator (docs/operations.md "Endpoints").

``GET /api/health`` is the API's own (the page reads the protocol version there); ``/healthz`` (the
event loop answers), ``/readyz`` (the checks of :class:`~cuarenta.server.ops.health.Readiness`, in
``app.state.readiness``) and ``/metrics`` (:class:`~cuarenta.server.ops.metrics.Metrics` of the rooms)
are the operator's: not in the API's schema, never cached. They are coroutines: they answer from the
event loop (the gauges of ``/metrics`` walk the rooms).

>>> Health(ok=True, version="0.0", protocol=2, protocols=[1, 2]).protocols
[1, 2]
"""

from __future__ import annotations

from typing import Any, Final

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel

from cuarenta import __version__
from cuarenta.server.edge.deps import RoomsDep
from cuarenta.server.ops.health import Readiness
from cuarenta.server.ops.metrics import CONTENT_TYPE as METRICS_CONTENT_TYPE
from cuarenta.server.protocol import PROTOCOL_VERSION, PROTOCOL_VERSIONS

#: The operator's endpoints are never cached.
NO_STORE: Final = {"Cache-Control": "no-store"}
router = APIRouter()


class Health(BaseModel):
    """The answer of ``GET /api/health``: the package's version, the protocol version the server speaks
    (the newest) and every version a socket may join with (docs/protocol.md)."""

    ok: bool
    version: str
    protocol: int
    protocols: list[int]


@router.get("/api/health", response_model=Health)
def health() -> dict[str, Any]:
    return {
        "ok": True,
        "version": __version__,
        "protocol": PROTOCOL_VERSION,
        "protocols": list(PROTOCOL_VERSIONS),
    }


@router.get("/healthz", include_in_schema=False)
async def healthz() -> JSONResponse:
    """Liveness: the event loop answers."""
    return JSONResponse({"ok": True}, headers=NO_STORE)


@router.get("/readyz", include_in_schema=False)
async def readyz(request: Request) -> JSONResponse:
    """Readiness: the store answers ``SELECT 1`` and, with a Redis client, Redis answers ``PING``."""
    readiness: Readiness = request.app.state.readiness
    ready, checks = await readiness.check()
    return JSONResponse(
        {"ready": ready, "checks": checks}, status_code=200 if ready else 503, headers=NO_STORE
    )


@router.get("/metrics", include_in_schema=False)
async def metrics(rooms: RoomsDep) -> Response:
    """This process' metrics in Prometheus' text format (read on the loop: the gauges walk the rooms)."""
    return Response(rooms.metrics.render(), media_type=METRICS_CONTENT_TYPE, headers=NO_STORE)


__all__ = ["NO_STORE", "Health", "router"]
