"""The device host imports and plays without the server's stack (issue 18): under Pyodide there is no
FastAPI, pydantic, msgspec, SQLAlchemy, Redis or prometheus_client. A subprocess blocks every one of
them and plays a whole 1 v 1 mesa against the computer through :class:`cuarenta.device.DeviceHost`.

The msgspec fallback (authority/wire/plainstruct.py) writes the same JSON as msgspec for the Structs of
authority/wire/messages.py, on real frames.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path
from types import ModuleType
from typing import Any

import msgspec

from cuarenta.offline.wheel import build_device_wheel
from cuarenta.server.authority.wire import messages as real

TESTS = Path(__file__).parent
BLOCKED = [
    *("fastapi", "starlette", "pydantic", "pydantic_core", "msgspec", "sqlalchemy", "redis", "uvicorn"),
    *("typer", "rich", "httpx", "psycopg", "prometheus_client"),
]

SCRIPT = textwrap.dedent(
    """
    import asyncio, importlib.abc, json, sys
    BLOCKED = set(sys.argv[2].split())
    class Blocker(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in BLOCKED:
                raise ImportError(f"{name} is blocked (as under Pyodide)")
            return None
    sys.meta_path.insert(0, Blocker())
    sys.path.insert(0, sys.argv[1])
    if len(sys.argv) > 3:  # the offline pack's wheel: the game from it alone
        sys.path.insert(0, sys.argv[3])

    from cuarenta.record import GameRecord
    from support.device import device_page, finished, watching

    async def main():
        with watching() as watcher:
            host, page = device_page()
            made = page.new_room({"players": 2, "level": "normal"})
            page.join(made["room"], made["token"])
            await page.play_until(finished)
            record = page.http("GET", f"api/games/{made['room']}/record", token=made["token"])
            history = page.http("POST", "api/history", {"tokens": [made["token"]]})
            await host.shutdown()
        GameRecord.from_text(record["text"])  # the library reads the device's record
        print(json.dumps({
            "types": sorted({f["type"] for f in page.frames}),
            "versions": sorted({f["v"] for f in page.frames}),
            "moves": page.moves,
            "status": page.status,
            "record": record["status"],
            "filename": record["filename"],
            "history": len(history["body"]["games"]),
            "checked": watcher.check(),
            "frames": len(page.frames),
            "loaded": sorted(m for m in BLOCKED if m in sys.modules),
            "origin": sys.modules["cuarenta"].__file__,
            "modules": sorted(m for m in sys.modules if m.startswith("cuarenta")),
        }))

    asyncio.run(main())
    """
)


def test_a_whole_mesa_against_the_computer_without_the_server_stack() -> None:
    out = _play_a_mesa()
    assert out["loaded"] == []
    assert out["types"] == ["event", "snapshot"]  # the protocol's version 2, nothing else
    assert out["versions"] == [2]
    assert out["status"] == "finished" and out["moves"] > 10
    assert out["record"] == 200 and out["filename"].endswith("-mesa1.cuarenta")
    assert out["history"] == 1
    assert out["checked"] >= out["frames"]  # every frame was checked for hidden cards


def _play_a_mesa(*command: str) -> dict[str, Any]:
    """SCRIPT's figures, run by this Python with ``command`` (its options and SCRIPT's extra argument)."""
    options = [c for c in command if c.startswith("-")]
    extra = [c for c in command if not c.startswith("-")]
    done = subprocess.run(
        [sys.executable, *options, "-c", SCRIPT, str(TESTS), " ".join(BLOCKED), *extra],
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    out: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return out


def test_the_offline_packs_wheel_alone_plays_a_whole_mesa(tmp_path: Path) -> None:
    """The pack's wheel holds only the modules the device imports (cuarenta.offline.wheel): with no
    site-packages and no source tree (``python -I -S``), a mesa is played from the wheel's zip alone."""
    wheel = build_device_wheel(tmp_path)
    out = _play_a_mesa("-I", "-S", str(wheel))
    assert out["origin"].startswith(str(wheel))  # the game came from the wheel
    assert out["status"] == "finished" and out["record"] == 200 and out["history"] == 1
    with zipfile.ZipFile(wheel) as archive:
        inside = {
            n[:-3].replace("/", ".").removesuffix(".__init__")
            for n in archive.namelist()
            if n.endswith(".py")
        }
    assert set(out["modules"]) <= inside


# -- the msgspec fallback --------------------------------------------------------------------------------
def plain_messages() -> ModuleType:
    """authority/wire/messages.py loaded again with msgspec missing: its Structs are plainstruct's."""
    spec = importlib.util.spec_from_file_location("plain_wire_messages", real.__file__)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    saved = sys.modules.get("msgspec")
    sys.modules["msgspec"] = None  # type: ignore[assignment]  # import msgspec raises ImportError
    try:
        spec.loader.exec_module(module)
    finally:
        if saved is not None:
            sys.modules["msgspec"] = saved
    return module


def real_frames() -> list[dict[str, Any]]:
    """The frames of a few moves of a real game (snapshot, events, a resumed after a join with since)."""
    from support.device import device_page

    async def play() -> list[dict[str, Any]]:
        host, page = device_page()
        made = page.new_room({"players": 4, "level": "facil"})
        page.join(made["room"], made["token"], hints=True)
        await page.play_until(lambda p: p.moves >= 3)
        again = type(page)(host, page._frames)
        again.join(made["room"], made["token"], since=page.version - 1)
        await host.shutdown()
        return page.frames + again.frames

    return asyncio.run(play())


def encoded(module: ModuleType, frame: dict[str, Any]) -> str:
    """A frame encoded again from the Structs of ``module`` (an event's private part is spliced on, as
    the authority sends it)."""
    fields = {k: v for k, v in frame.items() if k != "type"}
    private = fields.pop("private", None)
    private_struct = None if private is None else module.Private(**private)
    if frame["type"] == "event":
        public = module.encode(module.Event(**fields))
        return str(module.splice(public, None if private is None else module.encode(private_struct)))
    kind = module.Snapshot if frame["type"] == "snapshot" else module.Resumed
    return str(module.encode(kind(**fields, private=private_struct)))


def test_the_fallback_writes_the_same_json_as_msgspec() -> None:
    plain = plain_messages()
    assert not issubclass(plain.Event, msgspec.Struct) and issubclass(real.Event, msgspec.Struct)
    frames = real_frames()
    assert {f["type"] for f in frames} >= {"snapshot", "event", "resumed"}
    for frame in frames:
        text = encoded(real, frame)
        assert encoded(plain, frame) == text
        assert json.loads(text) == frame
    # defaults given explicitly are left out; a non-default value is written; ñ is not escaped
    for kind in (real, plain):
        event = kind.Event(
            v=2, room="ñ", version=2, base=1, events=[], history=0, view={}, mesa=None, status="x"
        )
        assert kind.encode(event) == (
            '{"type":"event","v":2,"room":"ñ","version":2,"base":1,"events":[],"history":0,"view":{},'
            '"status":"x"}'
        )
        private = kind.Private(legal=[], moves=[], hand=None, hints=[])
        assert kind.encode(private) == '{"legal":[],"moves":[],"hints":[]}'
