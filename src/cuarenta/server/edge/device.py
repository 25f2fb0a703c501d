"""The offline pack over HTTP (docs/web.md "Install and offline"): ``GET /device/...`` answers the files
of the pack (:mod:`cuarenta.offline.pack`; made by the server itself when missing,
:class:`~cuarenta.offline.keeper.PackKeeper`), ``GET /device/shell.json`` the page shell the service
worker precaches, ``GET /site.json`` what this site is: ``{"server": true, "pack": bool, "pack_status":
"ready"|"preparing"|"failed"|"absent", "pack_bytes": N}`` (``pack_bytes``: what downloading the pack
costs this browser, as this server sends it; a static site written by ``cuarenta site`` has ``"server":
false``). ``HEAD`` answers as ``GET`` does, without the body.

Only the files ``pack.json`` lists are served (nothing else of the folder), each compressed as the
browser accepts (``Accept-Encoding``: the pack's ``.br``, else ``.gz`` copy, with ``Content-Encoding``;
nothing is compressed on the fly). Pyodide's pinned files get a week's ``max-age``; the rest (the wheel,
the standard library, ``pack.json``) ``no-cache``, revalidated by their ``ETag``. While the pack is being
made: 503 with ``Retry-After`` and the code ``pack_preparing``; when it could not be made: 503,
``pack_failed``; when there is none and the server was told not to make one: 404, ``pack_absent``.

>>> cache_control("pyodide/pyodide.asm.wasm"), cache_control("pack.json")
('public, max-age=604800', 'no-cache')
>>> accepted("gzip, deflate, br"), accepted("gzip;q=0, identity"), accepted(None)
(['br', 'gzip'], [], [])
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse, Response

from cuarenta.offline.keeper import PackKeeper
from cuarenta.offline.pack import ENCODINGS, read_pack, shell_description

#: The answer's detail when the server has no pack and makes none (``cuarenta serve --no-pack``).
NOT_BUILT: Final = (
    "the offline pack is not built: run `cuarenta pack`, or start `cuarenta serve` without --no-pack "
    "(it makes the pack by itself)"
)
#: The answer's detail while the pack is being made.
PREPARING: Final = "the offline pack is being made by the server (a few minutes the first time): ask again"
#: How long a client waits before asking again while the pack is made (``Retry-After``), in seconds.
RETRY_SECONDS: Final = 15
_TYPES: Final = {
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".wasm": "application/wasm",
    ".json": "application/json",
    ".zip": "application/zip",
    ".whl": "application/zip",
}
#: Pyodide's files that are the pinned npm package's, byte for byte (a week's max-age).
_PINNED: Final = frozenset(
    {
        "pyodide/pyodide.mjs",
        "pyodide/pyodide.asm.mjs",
        "pyodide/pyodide.asm.wasm",
        "pyodide/pyodide-lock.json",
    }
)


def cache_control(name: str) -> str:
    """The ``Cache-Control`` of the pack's file ``name`` (a path relative to ``device/``)."""
    return "public, max-age=604800" if name in _PINNED else "no-cache"


def accepted(header: str | None) -> list[str]:
    """The pack's encodings a request's ``Accept-Encoding`` takes, the best first (``q=0`` refuses one)."""
    taken: set[str] = set()
    for part in (header or "").lower().split(","):
        name, _, params = part.strip().partition(";")
        if params.replace(" ", "") in ("q=0", "q=0.0", "q=0.00", "q=0.000"):
            continue
        taken.add(name.strip())
    return [encoding for encoding in ENCODINGS if encoding in taken or "*" in taken]


def download_bytes(described: dict[str, Any], header: str | None) -> int:
    """What the whole pack weighs on the wire for a request with this ``Accept-Encoding``."""
    ways = accepted(header)
    return sum(next((f[w] for w in ways if w in f), f["bytes"]) for f in described["files"].values())


def _not_there(keeper: PackKeeper) -> JSONResponse:
    status = keeper.status()
    if status == "preparing":
        return JSONResponse(
            {"detail": PREPARING, "code": "pack_preparing"},
            status_code=503,
            headers={"Retry-After": str(RETRY_SECONDS), "Cache-Control": "no-store"},
        )
    if status == "failed":
        detail = f"the offline pack could not be made by this server: {keeper.problem}"
        return JSONResponse(
            {"detail": detail, "code": "pack_failed"}, 503, headers={"Cache-Control": "no-store"}
        )
    return JSONResponse(
        {"detail": NOT_BUILT, "code": "pack_absent"}, 404, headers={"Cache-Control": "no-store"}
    )


def mount_device(app: FastAPI, keeper: PackKeeper, static: Path) -> None:
    """Serve the pack of ``keeper`` at ``/device/`` and ``/site.json`` (before the page's mount)."""
    router = APIRouter(include_in_schema=False)
    pack_dir = keeper.pack_dir

    @router.api_route("/site.json", methods=["GET", "HEAD"])
    def site(request: Request) -> JSONResponse:
        described = read_pack(pack_dir)
        size = 0 if described is None else download_bytes(described, request.headers.get("accept-encoding"))
        body = {
            "server": True,
            "pack": described is not None,
            "pack_status": keeper.status(),
            "pack_bytes": size,
        }
        return JSONResponse(body, headers={"Cache-Control": "no-cache", "Vary": "Accept-Encoding"})

    shell_json = shell_description(static)  # the page's files do not change while the server runs

    @router.api_route("/device/shell.json", methods=["GET", "HEAD"])
    def shell() -> JSONResponse:
        return JSONResponse(shell_json, headers={"Cache-Control": "no-cache"})

    @router.api_route("/device/{name:path}", methods=["GET", "HEAD"])
    def device_file(name: str, request: Request) -> Response:
        described = read_pack(pack_dir)
        if described is None:
            return _not_there(keeper)
        files = described.get("files", {})
        if name == "pack.json":
            etag, entry = f'"{described.get("id", "")}"', {}
        elif name in files:
            etag, entry = f'"{files[name]["sha256"][:32]}"', files[name]
        else:
            return JSONResponse({"detail": f"device/{name} is not a file of the offline pack"}, 404)
        headers = {"Cache-Control": cache_control(name), "ETag": etag, "Vary": "Accept-Encoding"}
        if request.headers.get("if-none-match") == etag:
            return Response(status_code=304, headers=headers)
        path = pack_dir / name
        kind = _TYPES.get(path.suffix, "application/octet-stream")
        for encoding in accepted(request.headers.get("accept-encoding")):
            encoded = path.with_name(path.name + ENCODINGS[encoding])
            if encoding in entry and encoded.is_file():
                headers["Content-Encoding"] = encoding
                return FileResponse(encoded, media_type=kind, headers=headers)
        if not path.is_file():
            detail = f"device/{name} is missing from the pack: run `cuarenta pack` (or restart the server)"
            return JSONResponse({"detail": detail}, 404)
        return FileResponse(path, media_type=kind, headers=headers)

    app.include_router(router)


__all__ = [
    "NOT_BUILT",
    "PREPARING",
    "RETRY_SECONDS",
    "accepted",
    "cache_control",
    "download_bytes",
    "mount_device",
]
