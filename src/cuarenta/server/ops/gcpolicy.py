"""Garbage collection for a long-running server: no full collection over the whole heap on every burst.

Why (docs/performance.md, "Server under load"): CPython's cyclic collector stops
the process while it runs, and a *full* (generation 2) collection walks every
tracked object. A server holds hundreds of thousands of them that live for
minutes — the rooms' games, and each WebSocket's framework objects (about 300
per socket) — so with 600 rooms each full collection took 100–330 ms on the
2-core machine, and one ran every 4–10 s: those were the event loop's stalls.
Almost none of that walk finds garbage (the collections freed 0–8 objects):
the heap's objects are freed by reference counting when a room or a socket
goes.

What :class:`GcPolicy` does: after every full collection it moves the objects
that survived it into the permanent generation (:func:`gc.freeze`), so the next
full collection walks only what was made since; and it runs full collections
more often (after every 2 collections of generation 1 instead of 10), so that
what was made since stays small: tens of milliseconds, not hundreds. Objects
frozen that later become garbage in a reference cycle are not found while
frozen (measured: about one object per WebSocket connection opened and
closed), so every ``reclaim_every`` seconds (default an hour) the frozen
objects are handed back (:func:`gc.unfreeze`) and the next full collection
walks, and reclaims, everything once.

``cuarenta serve`` installs it for its process; an application that embeds
:func:`cuarenta.server.create_app` may do the same.

>>> policy = GcPolicy()
>>> policy.install()
>>> import gc
>>> _ = gc.collect()
>>> gc.get_freeze_count() > 0, policy.full_collections >= 1
(True, True)
>>> gc.get_threshold()[2]
2
>>> policy.uninstall()
>>> gc.get_freeze_count(), gc.get_threshold()[2]
(0, 10)
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any, Final

#: Seconds between two full collections over the whole heap (frozen objects included).
RECLAIM_EVERY: Final = 3600.0
#: A full collection after this many collections of generation 1 (CPython's default is 10).
FULL_EVERY: Final = 2


class GcPolicy:
    """Freeze the survivors of every full collection; hand them back every ``reclaim_every`` seconds."""

    def __init__(
        self,
        reclaim_every: float = RECLAIM_EVERY,
        full_every: int = FULL_EVERY,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if reclaim_every <= 0:
            raise ValueError(f"reclaim_every must be a positive number of seconds, not {reclaim_every}")
        if full_every < 1:
            raise ValueError(f"full_every must be 1 or more, not {full_every}")
        self.reclaim_every = reclaim_every
        self.full_every = full_every
        self._thresholds = gc.get_threshold()
        self.clock = clock
        self.full_collections = 0  #: full collections seen since :meth:`install`
        self.reclaims = 0  #: full collections that walked the whole heap (after an unfreeze)
        self._last_reclaim = clock()
        self._thawed = False
        self._installed = False

    def install(self) -> None:
        """Freeze what exists now (modules, the app) and freeze again after every full collection."""
        if self._installed:
            return
        gc.collect()
        gc.freeze()
        self._last_reclaim = self.clock()
        self._thresholds = gc.get_threshold()
        gc.set_threshold(self._thresholds[0], self._thresholds[1], self.full_every)
        gc.callbacks.append(self._after)
        self._installed = True

    def uninstall(self) -> None:
        """Stop; every frozen object goes back to the collector, the thresholds are as they were."""
        if self._installed:
            gc.callbacks.remove(self._after)
            gc.set_threshold(*self._thresholds)
            self._installed = False
        gc.unfreeze()

    def _after(self, phase: str, info: dict[str, Any]) -> None:
        if phase != "stop" or info.get("generation") != 2:
            return
        self.full_collections += 1
        now = self.clock()
        if self._thawed:  # this collection walked the whole heap
            self._thawed = False
            self.reclaims += 1
            self._last_reclaim = now
        elif now - self._last_reclaim >= self.reclaim_every:
            gc.unfreeze()  # the next full collection walks (and reclaims) everything once
            self._thawed = True
            return
        gc.freeze()


__all__ = ["FULL_EVERY", "RECLAIM_EVERY", "GcPolicy"]
