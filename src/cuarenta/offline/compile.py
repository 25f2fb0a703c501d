"""Bytecode for the game on the device, made by the pinned Pyodide itself (under Node.js) at pack time.

Pyodide compiles every module from source as it imports it, at every start of the game on the device:
the standard library's (its ``python_stdlib.zip`` holds sources only) and the game's. That was most of
the start (docs/performance.md "The game on the device"). :func:`compile_pack` runs the pinned Pyodide in
Node.js (``node``, which npm needs anyway) twice:

1. **a smoke run**: the game's wheel as the worker loads it (a zip on ``sys.path``, in
   :data:`WHEEL_HOME`), ``DeviceHost``, a room of four with ``dificil`` computers, a socket join, the
   options, the history — the pack is refused if the game cannot start there (a module missing from the
   wheel, say); the standard library's modules this imports (with Pyodide's own start) are the *hot* ones;
2. **a fresh interpreter** (``PYTHONHASHSEED=0``) compiles, in a sorted order, every module of the wheel
   and the hot modules of the standard library with ``py_compile`` (unchecked-hash ``.pyc``: read as
   they are, never checked against a source), so the same tree and the same Pyodide give the same bytes.

The pack then holds ``stdlib.zip`` (``python_stdlib.zip`` with each hot module as a ``.pyc`` in place of
its ``.py``: the rest stays source, to keep the download small) and the wheel with a ``.pyc`` beside each
module. Tracebacks of the game keep their lines (its sources stay in the wheel).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
import zipfile
from pathlib import Path
from typing import Final

#: Where the worker puts each wheel in Pyodide's file system (a zip on ``sys.path``): device-worker.js.
WHEEL_HOME: Final = "/lib/wheels"
#: The longest a compile may take (two starts of Pyodide and the compiling; about 20 s on a busy machine).
TIMEOUT_SECONDS: Final = 600

#: The Node.js side: start Pyodide, copy the inputs into its file system, run a Python script, copy the
#: outputs back. ``node DRIVER PYODIDE_DIR WORK_DIR WHEEL``: WORK_DIR holds ``smoke.py``, ``compile.py``,
#: the wheel and ``python_stdlib.zip``; ``hot.json`` and ``out.zip`` are written there.
DRIVER: Final = r"""
import { readFileSync, writeFileSync } from "node:fs";
const [pyodideDir, work, wheel] = process.argv.slice(2);
const { loadPyodide } = await import(new URL("file://" + pyodideDir + "/pyodide.mjs").href);
const read = (name) => new Uint8Array(readFileSync(work + "/" + name));
async function run(script, inputs, output) {
  const options = { indexURL: pyodideDir + "/", env: { PYTHONHASHSEED: "0" }, stdout: () => {} };
  const py = await loadPyodide(options);
  py.FS.mkdirTree("/job");
  for (const name of inputs) py.FS.writeFile("/job/" + name, read(name));
  py.FS.mkdirTree(__WHEEL_HOME__);
  py.FS.writeFile(__WHEEL_HOME__ + "/" + wheel, read(wheel));
  py.runPython(readFileSync(work + "/" + script, "utf8"));
  writeFileSync(work + "/" + output, py.FS.readFile("/job/" + output));
}
try {
  await run("smoke.py", [], "hot.json");
  await run("compile.py", ["python_stdlib.zip", "hot.json"], "out.zip");
  process.exit(0);
} catch (error) {
  console.error(String(error && error.message || error));
  process.exit(1);
}
"""

#: Run 1, in Pyodide: start the game as the worker does, then list the standard library's modules used.
SMOKE: Final = r"""
import json, sys
sys.path.insert(0, WHEEL)
from cuarenta.device import DeviceHost
host = DeviceHost(saved={}, send=lambda conn, text: None, persist=lambda room, text: None)
made = json.loads(host.http("POST", "api/rooms", json.dumps({"level": "dificil", "players": 4}), None))
assert made["status"] == 200, made
conn = host.open()
join = {"v": 2, "type": "join", "room": made["body"]["room"], "token": made["body"]["token"]}
host.receive(conn, json.dumps(join))
assert json.loads(host.http("GET", "api/options", None, None))["status"] == 200
history = json.dumps({"tokens": [made["body"]["token"]]})
assert json.loads(host.http("POST", "api/history", history, None))["status"] == 200
prefix = "/lib/python%d%d.zip/" % sys.version_info[:2]
hot = sorted({m.__file__[len(prefix):] for m in list(sys.modules.values())
              if isinstance(getattr(m, "__file__", None), str) and m.__file__.startswith(prefix)
              and m.__file__.endswith(".py")})
with open("/job/hot.json", "w") as f:
    json.dump({"hot": hot, "python": "%d.%d" % sys.version_info[:2]}, f)
"""

#: Run 2, in a fresh Pyodide: compile the game's modules and the hot ones; out.zip holds each ``.pyc``
#: under its module's ``.py`` name, ``game/`` or ``stdlib/`` first.
COMPILE: Final = r"""
import json, os, py_compile, sys, zipfile
mode = py_compile.PycInvalidationMode.UNCHECKED_HASH
stdlib_home = "/lib/python%d%d.zip" % sys.version_info[:2]
hot = json.load(open("/job/hot.json"))["hot"]
out = {}
def compile_one(source, display):
    os.makedirs("/job/src", exist_ok=True)
    with open("/job/src/m.py", "wb") as f:
        f.write(source)
    py_compile.compile("/job/src/m.py", cfile="/job/src/m.pyc", dfile=display, doraise=True,
                       invalidation_mode=mode)
    with open("/job/src/m.pyc", "rb") as f:
        return f.read()
with zipfile.ZipFile(WHEEL) as wheel:
    for name in sorted(n for n in wheel.namelist() if n.endswith(".py")):
        out["game/" + name] = compile_one(wheel.read(name), WHEEL + "/" + name)
with zipfile.ZipFile("/job/python_stdlib.zip") as lib:
    names = set(lib.namelist())
    for name in sorted(hot):
        if name in names:
            out["stdlib/" + name] = compile_one(lib.read(name), stdlib_home + "/" + name)
with zipfile.ZipFile("/job/out.zip", "w") as z:
    for name in sorted(out):
        z.writestr(name, out[name])
"""


class CompileError(Exception):
    """The game could not be started or compiled in Pyodide under Node.js (the message says why)."""


def _script(text: str, wheel: str) -> str:
    return f"WHEEL = {json.dumps(f'{WHEEL_HOME}/{wheel}')}\n{text}"


def compile_pack(pyodide_dir: Path, wheel: Path, stdlib: Path) -> tuple[dict[str, bytes], dict[str, bytes]]:
    """Run the smoke run and the compile (module docstring) in the Pyodide of ``pyodide_dir`` with the
    source wheel ``wheel`` and ``stdlib`` (Pyodide's ``python_stdlib.zip``). Return the ``.pyc`` of the
    game's modules and of the hot standard-library modules, each keyed by its ``.py`` name in its zip.
    :class:`CompileError` if Node.js is missing or the game does not start."""
    node = shutil.which("node")
    if node is None:
        raise CompileError(
            "Node.js (`node`) is needed to compile the game for the device with the pinned Pyodide "
            "(it comes with npm: e.g. apt-get install npm)"
        )
    with tempfile.TemporaryDirectory(prefix="cuarenta-compile-") as tmp:
        work = Path(tmp)
        driver = DRIVER.replace("__WHEEL_HOME__", json.dumps(WHEEL_HOME))
        (work / "driver.mjs").write_text(driver, encoding="utf-8")
        (work / "smoke.py").write_text(_script(SMOKE, wheel.name), encoding="utf-8")
        (work / "compile.py").write_text(_script(COMPILE, wheel.name), encoding="utf-8")
        shutil.copyfile(wheel, work / wheel.name)
        shutil.copyfile(stdlib, work / "python_stdlib.zip")
        try:
            done = subprocess.run(
                [node, str(work / "driver.mjs"), str(pyodide_dir.resolve()), str(work), wheel.name],
                capture_output=True,
                text=True,
                timeout=TIMEOUT_SECONDS,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise CompileError(f"compiling in Pyodide took more than {TIMEOUT_SECONDS} s") from None
        if done.returncode != 0:
            raise CompileError(
                f"the game did not start in Pyodide under Node.js: {done.stderr.strip()[-2000:]}"
            )
        game: dict[str, bytes] = {}
        lib: dict[str, bytes] = {}
        with zipfile.ZipFile(work / "out.zip") as out:
            for name in out.namelist():
                kind, _, path = name.partition("/")
                (game if kind == "game" else lib)[path] = out.read(name)
    return game, lib


def compiled_stdlib(stdlib: Path, compiled: dict[str, bytes]) -> dict[str, bytes]:
    """The entries of ``stdlib.zip``: those of ``stdlib`` (Pyodide's ``python_stdlib.zip``), each module of
    ``compiled`` as its ``.pyc`` in place of its ``.py`` (zipimport reads a ``.pyc`` alone)."""
    files: dict[str, bytes] = {}
    with zipfile.ZipFile(stdlib) as lib:
        for name in lib.namelist():
            if name in compiled:
                files[name[:-3] + ".pyc"] = compiled[name]
            else:
                files[name] = lib.read(name)
    return files


__all__ = ["COMPILE", "DRIVER", "SMOKE", "WHEEL_HOME", "CompileError", "compile_pack", "compiled_stdlib"]
