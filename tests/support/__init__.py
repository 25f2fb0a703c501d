"""What the tests share, out of the test modules: none of these modules is collected as a test, and no
test module imports another (tests/test_repository.py checks it).

- :mod:`support.positions`: a position from the cards that matter, and event helpers (the rule tests);
- :mod:`support.movegen`: the naive reference of the capture rules R7–R12 (movegen and perft tests);
- :mod:`support.spy`: the spy on every message the server queues, and the no-hidden-card rule;
- :mod:`support.app`: the web app on a data directory, a browser's WebSocket, small HTTP helpers;
- :mod:`support.tables`: tables with friends, a seat's browser;
- :mod:`support.served`: a real ``cuarenta serve`` subprocess;
- :mod:`support.commands`: any other ``cuarenta`` command as a subprocess (``run_cli``);
- :mod:`support.cluster`: real PostgreSQL, Redis, nginx, nodes and workers for the cluster tests;
- :mod:`support.device`: a page on the device host (cuarenta.device), the no-hidden-card rule without the
  server's stack;
- :mod:`support.research`: the hidden cards of a position dealt anew (the research interfaces' leak tests);
- :mod:`support.ports`: free loopback ports (imports nothing of the project: the benchmarks use it too).
"""
