"""``cuarenta serve`` makes the offline pack available by itself (docs/web.md "Install and offline"): when
the pack is missing, or was built from other sources (:func:`~cuarenta.offline.pack.pack_source`), a
background thread builds it (:func:`~cuarenta.offline.pack.build_pack`: Pyodide from npm, the game
compiled under Node.js) while the server already serves everything else; each step is a line of the log
(logger ``cuarenta.pack``, shown at the default level). A stale pack is served until the new one is whole.
A pack that cannot be made is said in one clear line of the log and in the page (``site.json``'s
``pack_status``: ``"failed"``), and nothing else of the server is touched.

>>> keeper = PackKeeper(Path("/nonexistent/pack"), build=False)
>>> keeper.start()
>>> keeper.status()
'absent'
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final, Literal

from cuarenta.offline.pack import build_pack, pack_source, read_pack

log = logging.getLogger("cuarenta.pack")

#: What ``site.json`` says of the pack: served; being made (nothing to serve yet); could not be made; not
#: there, and the server was told not to make it (``cuarenta serve --no-pack``).
PackStatus = Literal["ready", "preparing", "failed", "absent"]
#: The log's sentence when the pack cannot be made (then the reason).
FAILED: Final = (
    "the offline pack (the game on the device, /device/) could not be made, so the page does not offer "
    "it; everything else is served as usual. Fix the cause and restart, or run `cuarenta pack`. The cause: "
)


class PackKeeper:
    """The offline pack of one server: is it there, being made, or impossible to make.

    ``build``: make the pack when it is missing or stale (``cuarenta serve`` without ``--no-pack``);
    ``builder``: what makes it (:func:`~cuarenta.offline.pack.build_pack`, called with ``into`` and
    ``progress``)."""

    def __init__(
        self, pack_dir: Path, *, build: bool = True, builder: Callable[..., dict[str, Any]] = build_pack
    ) -> None:
        self.pack_dir = pack_dir
        self.build = build
        self._builder = builder
        self._lock = threading.Lock()
        self._making = False
        self._problem: str | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Check the pack; start making it in a background thread when it is missing or stale."""
        if not self.build:
            return
        described = read_pack(self.pack_dir)
        try:
            wanted = pack_source()
        except OSError as exc:  # the package's own files cannot be read: say it, serve on
            self._fail(exc)
            return
        if described is not None and described.get("source") == wanted:
            return
        with self._lock:
            self._making = True
        if described is None:
            log.info(
                "the offline pack (the game on the device) is missing: it is being made in %s", self.pack_dir
            )
        else:
            log.info(
                "the offline pack in %s was made from other sources: a new one is being made (the old one is "
                "served until then)",
                self.pack_dir,
            )
        self._thread = threading.Thread(target=self._make, name="cuarenta-pack", daemon=True)
        self._thread.start()

    def _make(self) -> None:
        try:
            described = self._builder(
                into=self.pack_dir, progress=lambda step: log.info("offline pack: %s", step)
            )
        except Exception as exc:  # a background thread: whatever went wrong is said, the server goes on
            self._fail(exc)
        else:
            with self._lock:
                self._making = False
                self._problem = None
            log.info(
                "the offline pack %s is ready in %s: the page offers the game on the device",
                described.get("id"),
                self.pack_dir,
            )

    def _fail(self, exc: BaseException) -> None:
        with self._lock:
            self._making = False
            self._problem = str(exc) or type(exc).__name__
        log.error("%s%s", FAILED, self._problem)

    def join(self, timeout: float | None = None) -> None:
        """Wait for the background making (for tests and tools)."""
        if self._thread is not None:
            self._thread.join(timeout)

    @property
    def problem(self) -> str | None:
        """Why the pack could not be made (the last attempt), or ``None``."""
        return self._problem

    def status(self) -> PackStatus:
        """``ready`` whenever a pack is there to serve (even while a newer one is made)."""
        if read_pack(self.pack_dir) is not None:
            return "ready"
        with self._lock:
            if self._making:
                return "preparing"
            return "failed" if self._problem is not None else "absent"


__all__ = ["FAILED", "PackKeeper", "PackStatus"]
