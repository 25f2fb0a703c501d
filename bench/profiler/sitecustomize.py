"""cProfile of a ``cuarenta serve`` process over a window, for ``bench/tables_load.py --profile`` (not part
of the package).

``tables_load.py`` puts this directory on ``PYTHONPATH`` of the ``cuarenta serve`` process it starts, with
``CUARENTA_BENCH_PROFILE`` naming a file. In that process (only: its command line names ``serve``) SIGUSR1
starts a :class:`cProfile.Profile` on the main thread (the event loop's) and SIGUSR2 stops it and writes
its statistics to the file (``python -m pstats FILE``). The driver sends them at the start and the end of
its measuring window. The profiler slows the server (every call is counted): its shares say where the time
goes, the run's own CPU and latency figures are not a measurement.
"""

from __future__ import annotations

import cProfile
import os
import signal
import sys

_PATH = os.environ.get("CUARENTA_BENCH_PROFILE")

if _PATH and "serve" in sys.argv[1:2]:
    _profile = cProfile.Profile()

    def _start(signum: int, frame: object) -> None:
        _profile.enable()

    def _stop(signum: int, frame: object) -> None:
        _profile.disable()
        _profile.dump_stats(_PATH)

    signal.signal(signal.SIGUSR1, _start)
    signal.signal(signal.SIGUSR2, _stop)
