"""The offline pack and the static site: the game on the device, without a server (docs/web.md
"Install and offline").

- :mod:`.npm` fetches a pinned npm package (Pyodide for the product, axe-core for the tests).
- :mod:`.pack` builds ``device/``: Pyodide, the wheel of this tree, ``pack.json`` (``cuarenta pack``).
- :mod:`.site` writes a complete static site (``cuarenta site DIR``).

Nothing here imports the web server: the pack is built and served from plain files.
"""
