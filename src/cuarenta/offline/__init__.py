"""The offline pack and the static site: the game on the device, without a server (docs/web.md
"Install and offline").

- :mod:`.npm` fetches a pinned npm package (Pyodide for the product, axe-core for the tests).
- :mod:`.wheel` writes the game's wheel for the device: the modules the device imports, reproducibly.
- :mod:`.compile` has the pinned Pyodide (under Node.js) start the game once and compile its modules and
  the standard library's it uses.
- :mod:`.pack` builds ``device/``: Pyodide, the compiled standard library and wheel, their compressed
  copies, ``pack.json`` (``cuarenta pack``).
- :mod:`.keeper` makes the pack in the background of ``cuarenta serve`` when it is missing or stale.
- :mod:`.site` writes a complete static site (``cuarenta site DIR``).

Nothing here imports the web server (only its answers' texts): the pack is built and served from plain
files.
"""
