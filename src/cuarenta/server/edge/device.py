"""The offline pack over HTTP (docs/web.md "Install and offline"): ``GET /device/...`` answers the files
of the pack ``cuarenta pack`` built (:mod:`cuarenta.offline.pack`), ``GET /device/shell.json`` the page
shell the service worker precaches, ``GET /site.json`` what this site is (``{"server": true, "pack":
bool}``; a static site written by ``cuarenta site`` has ``"server": false``).

Only the files ``pack.json`` lists are served (nothing else of the folder). Pyodide's files are pinned
(their content changes only with the pin): a week's ``max-age``; the wheel and ``pack.json`` change with
each build: ``no-cache`` (revalidated by their ``ETag``).

>>> cache_control("pyodide/pyodide.asm.wasm"), cache_control("pack.json")
('public, max-age=604800', 'no-cache')
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from fastapi import APIRouter, FastAPI, HTTPException, Request
from fastapi.responses import FileResponse, JSONResponse, Response

from cuarenta.offline.pack import read_pack, shell_description

#: The answer's detail when the server has no pack.
NOT_BUILT: Final = "the offline pack is not built: run `cuarenta pack` (then restart the server)"
_TYPES: Final = {
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".wasm": "application/wasm",
    ".json": "application/json",
    ".zip": "application/zip",
    ".whl": "application/zip",
}


def cache_control(name: str) -> str:
    """The ``Cache-Control`` of the pack's file ``name`` (a path relative to ``device/``)."""
    return "public, max-age=604800" if name.startswith("pyodide/") else "no-cache"


def mount_device(app: FastAPI, pack_dir: Path, static: Path) -> None:
    """Serve the pack in ``pack_dir`` at ``/device/`` and ``/site.json`` (before the page's mount)."""
    router = APIRouter(include_in_schema=False)

    @router.get("/site.json")
    def site() -> JSONResponse:
        return JSONResponse(
            {"server": True, "pack": read_pack(pack_dir) is not None}, headers={"Cache-Control": "no-cache"}
        )

    shell_json = shell_description(static)  # the page's files do not change while the server runs

    @router.get("/device/shell.json")
    def shell() -> JSONResponse:
        return JSONResponse(shell_json, headers={"Cache-Control": "no-cache"})

    @router.get("/device/{name:path}")
    def device_file(name: str, request: Request) -> Response:
        described = read_pack(pack_dir)
        if described is None:
            raise HTTPException(404, NOT_BUILT)
        if name == "pack.json":
            etag = f'"{described.get("id", "")}"'
        elif name in described.get("files", {}):
            etag = f'"{described["files"][name]["sha256"][:32]}"'
        else:
            raise HTTPException(404, f"device/{name} is not a file of the offline pack")
        headers = {"Cache-Control": cache_control(name), "ETag": etag}
        if request.headers.get("if-none-match") == etag:
            return Response(status_code=304, headers=headers)
        path = pack_dir / name
        if not path.is_file():
            raise HTTPException(404, f"device/{name} is missing from the pack: run `cuarenta pack`")
        kind = _TYPES.get(path.suffix, "application/octet-stream")
        return FileResponse(path, media_type=kind, headers=headers)

    app.include_router(router)


__all__ = ["NOT_BUILT", "cache_control", "mount_device"]
