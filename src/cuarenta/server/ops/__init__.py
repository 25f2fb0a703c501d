"""What the server tells its operators (docs/operations.md): :mod:`~cuarenta.server.ops.health` (the
checks of ``/readyz``), :mod:`~cuarenta.server.ops.metrics` (Prometheus), :mod:`~cuarenta.server.ops.logs`
(text or JSON lines, no token in any) and :mod:`~cuarenta.server.ops.gcpolicy` (the garbage collector of
a long-running process). None of them imports the web framework: a worker process uses them too; the
routes that serve them are :mod:`cuarenta.server.edge.operations`.
"""
