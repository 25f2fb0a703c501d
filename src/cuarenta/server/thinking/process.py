"""The worker process: it says it is ready (:data:`READY`, one line once its modules are loaded), then
reads one JSON request per line on its standard input (a move to choose, or a question of the analysis
to value) and writes one JSON reply per line on its standard
output (:func:`worker_main`). It imports the engine and the players only,
never the web framework, and runs at a lower CPU priority (:data:`WORKER_NICE`)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
from typing import Any, Final

from cuarenta.server.thinking.request import PlayerCache, ThinkRequest, answer, value

#: CPU priority of the workers (added niceness): the server's event loop goes first on a busy machine.
WORKER_NICE: Final = 10
#: The line a worker writes once it is loaded and listening: a request's time is counted from then, so
#: a worker that starts slowly on a busy machine is not taken for a stuck one.
READY: Final = '{"ready": true}\n'


def worker_main(nice: int = WORKER_NICE) -> None:  # pragma: no cover - runs in the worker processes
    """Answer requests, one JSON object per line on stdin, until stdin closes."""
    channel = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # anything a player prints goes to stderr, never into the replies
    sys.stdout = sys.stderr
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the server, which closes the workers
    if nice:
        with contextlib.suppress(OSError):
            os.nice(nice)
    cache = PlayerCache()
    channel.write(READY)
    channel.flush()
    for line in sys.stdin:
        request_id: Any = None
        try:
            data = json.loads(line)
            request_id = data["id"]
            request = ThinkRequest.from_wire(data)
            if request.roots is not None:
                reply = {"id": request_id, "values": value(request)}
            else:
                reply = {"id": request_id, "action": answer(request, cache)}
        except Exception as exc:  # a bad request or a failing player: say so, keep serving
            reply = {"id": request_id, "error": f"{type(exc).__name__}: {exc}"}
        channel.write(json.dumps(reply) + "\n")
        channel.flush()


__all__ = ["READY", "WORKER_NICE", "worker_main"]
