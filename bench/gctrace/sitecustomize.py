"""Garbage-collection trace for ``bench/server_load.py --gc-trace`` (not part of the package).

``server_load.py`` puts this directory on ``PYTHONPATH`` of the ``cuarenta serve``
process it starts, with ``CUARENTA_GC_TRACE`` naming a file. In that process
(only: its command line names ``serve``) every collection appends one line to
the file: ``monotonic-time generation wall-ms cpu-ms collected``. CPU time is the
collecting thread's, so a collection slowed by a busy machine shows wall > cpu.

With ``CUARENTA_BENCH_NO_GC_POLICY=1`` the server runs without its
:class:`cuarenta.server.ops.gcpolicy.GcPolicy`, to measure what the policy changes.
"""

from __future__ import annotations

import gc
import os
import sys
import time

_PATH = os.environ.get("CUARENTA_GC_TRACE")

if _PATH and "serve" in sys.argv[1:2]:
    _out = open(_PATH, "a", buffering=1)  # noqa: SIM115 - open for the life of the process
    _started: dict[int, tuple[float, float]] = {}

    def _trace(phase: str, info: dict[str, int]) -> None:
        generation = info["generation"]
        if phase == "start":
            _started[generation] = (time.monotonic(), time.thread_time())
            return
        wall, cpu = _started.pop(generation, (time.monotonic(), time.thread_time()))
        _out.write(
            f"{wall:.4f} {generation} {(time.monotonic() - wall) * 1000:.2f} "
            f"{(time.thread_time() - cpu) * 1000:.2f} {info['collected']}\n"
        )

    gc.callbacks.append(_trace)

    if os.environ.get("CUARENTA_BENCH_NO_GC_POLICY") == "1":
        import cuarenta.server.ops.gcpolicy as _policy

        _policy.GcPolicy.install = lambda self: None  # type: ignore[method-assign]
        _policy.GcPolicy.uninstall = lambda self: None  # type: ignore[method-assign]
