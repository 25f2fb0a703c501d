"""Prometheus metrics of one server process (docs/operations.md "Metrics").

Every :class:`~cuarenta.server.authority.core.Authority` owns a :class:`Metrics` (``rooms.metrics``), and
every :class:`Metrics` owns its own :class:`~prometheus_client.CollectorRegistry` — never the process-wide
default one — so that a test, or a process, may make as many apps as it likes. ``GET /metrics`` serves
:meth:`Metrics.render`.

What is measured where:

- ``Authority.apply`` times every stored move (:attr:`Metrics.move_seconds`: the engine's play, the store
  write and the ``state`` messages queued) and counts it by who made it (:attr:`Metrics.moves`);
- ``Saver.save`` (:mod:`cuarenta.server.authority.saving`) times the store write
  (:attr:`Metrics.store_write_seconds`);
- the socket handler of ``app.py`` counts open sockets (:attr:`Metrics.sockets`) and refusals by error
  code (:attr:`Metrics.refused`);
- the rooms and tables in memory are counted when scraped (:meth:`Metrics.watch`);
- :attr:`Metrics.bus_messages`, :attr:`Metrics.queue_depth` and :attr:`Metrics.think_seconds` are for
  the cluster's fan-out bus, job queue and workers; :attr:`Metrics.bus_up`, :attr:`Metrics.bus_outages`,
  :attr:`Metrics.bus_reconnects`, :attr:`Metrics.peers` and :attr:`Metrics.peers_lost` say whether the
  cluster's Redis answers and which other processes of the cluster live (set by
  :class:`~cuarenta.server.cluster.bus.RedisBus`).

>>> metrics = Metrics()
>>> metrics.moves.labels(by="person").inc()
>>> metrics.watch(rooms_in_memory=lambda: 3)
>>> text = metrics.render().decode()
>>> 'cuarenta_moves_total{by="person"} 1.0' in text, "cuarenta_rooms_in_memory 3.0" in text
(True, True)
>>> metrics.sample("cuarenta_moves_total", by="computer")
0.0
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, Literal

try:
    from prometheus_client import (
        CollectorRegistry,
        Counter,
        Gauge,
        GCCollector,
        Histogram,
        PlatformCollector,
        ProcessCollector,
        generate_latest,
    )
except ImportError:  # the device host under Pyodide: metrics that record nothing (ops/nometrics.py)
    from cuarenta.server.ops.nometrics import (  # type: ignore[assignment]
        CollectorRegistry,
        Counter,
        Gauge,
        GCCollector,
        Histogram,
        PlatformCollector,
        ProcessCollector,
        generate_latest,
    )

#: The ``Content-Type`` of :meth:`Metrics.render`: Prometheus' text format 0.0.4, which every Prometheus
#: reads (prometheus_client's own "latest" has become 1.0.0 since 0.22, which Prometheus 2 does not name).
CONTENT_TYPE: Final = "text/plain; version=0.0.4; charset=utf-8"
#: The prefix of every metric of the game server.
NAMESPACE: Final = "cuarenta"
#: Buckets of the move and store-write histograms, in seconds: 1 ms to 5 s (a move on an idle server
#: takes about a millisecond, docs/performance.md; over a second, a person notices).
LATENCY_BUCKETS: Final = (
    0.001,
    0.0025,
    0.005,
    0.01,
    0.025,
    0.05,
    0.1,
    0.25,
    0.5,
    1.0,
    2.5,
    5.0,
)
#: Buckets of the computer players' thinking time, in seconds: 1 ms (facil) to 30 s.
THINK_BUCKETS: Final = (0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
#: Who makes a move: a person (over a socket) or a computer player (or the computer standing in).
Mover = Literal["person", "computer"]
MOVERS: Final[tuple[Mover, ...]] = ("person", "computer")
#: Directions of the cluster bus' messages.
DIRECTIONS: Final = ("published", "received")
#: Kinds of the other processes of a cluster: server nodes and computer-player workers.
PEER_KINDS: Final = ("node", "worker")


class Metrics:
    """The metrics of one server process, in a registry of their own (names in docs/operations.md)."""

    def __init__(self, *, process: bool = True) -> None:
        """``process``: also export the process' CPU, memory and file descriptors, the collector's
        counts and the Python version (``process_*``, ``python_gc_*``, ``python_info``)."""
        self.registry = CollectorRegistry(auto_describe=True)
        registry = self.registry
        self.sockets = Gauge(
            "sockets", "WebSockets open on this process", namespace=NAMESPACE, registry=registry
        )
        self.rooms_in_memory = Gauge(
            "rooms_in_memory",
            "Rooms (and tables) held in this process' memory (read when scraped)",
            namespace=NAMESPACE,
            registry=registry,
        )
        self.tables_playing = Gauge(
            "tables_playing",
            "Tables with friends in this process' memory whose mesa is in play (read when scraped)",
            namespace=NAMESPACE,
            registry=registry,
        )
        self.moves = Counter(
            "moves",
            "Moves applied and stored by this process, by who made them (person or computer)",
            ["by"],
            namespace=NAMESPACE,
            registry=registry,
        )
        self.move_seconds = Histogram(
            "move_seconds",
            "Seconds from a move reaching the room (a person's, or a computer's chosen action) to its "
            "state messages being queued, the store write included",
            namespace=NAMESPACE,
            registry=registry,
            buckets=LATENCY_BUCKETS,
        )
        self.store_write_seconds = Histogram(
            "store_write_seconds",
            "Seconds of one write of a room's change to the store (failed writes included)",
            namespace=NAMESPACE,
            registry=registry,
            buckets=LATENCY_BUCKETS,
        )
        self.refused = Counter(
            "refused",
            "Socket messages refused with an error message, by the protocol's error code",
            ["code"],
            namespace=NAMESPACE,
            registry=registry,
        )
        self.bus_messages = Counter(
            "bus_messages",
            "Messages of the cluster's fan-out bus, by direction (published or received)",
            ["direction"],
            namespace=NAMESPACE,
            registry=registry,
        )
        self.queue_depth = Gauge(
            "queue_depth",
            "Computer-move jobs waiting in the cluster's queue (as last seen by this process)",
            namespace=NAMESPACE,
            registry=registry,
        )
        self.bus_up = Gauge(
            "bus_up",
            "1 while this process' last exchange with the cluster's Redis worked, else 0",
            namespace=NAMESPACE,
            registry=registry,
        )
        self.bus_outages = Counter(
            "bus_outages",
            "Times this process lost the cluster's Redis (an exchange failed after one had worked)",
            namespace=NAMESPACE,
            registry=registry,
        )
        self.bus_reconnects = Counter(
            "bus_reconnects",
            "Times this process reached the cluster's Redis again after losing it",
            namespace=NAMESPACE,
            registry=registry,
        )
        self.peers = Gauge(
            "peers",
            "Other processes of the cluster announcing themselves, by kind (node or worker)",
            ["kind"],
            namespace=NAMESPACE,
            registry=registry,
        )
        self.peers_lost = Counter(
            "peers_lost",
            "Other processes of the cluster that stopped announcing themselves without leaving (killed, "
            "cut off), by kind (node or worker)",
            ["kind"],
            namespace=NAMESPACE,
            registry=registry,
        )
        self.handed_back = Counter(
            "sockets_handed_back",
            "Sockets this node asked to reconnect through the proxy (close 1012) so that a node that came "
            "back gets its tables again",
            namespace=NAMESPACE,
            registry=registry,
        )
        self.think_seconds = Histogram(
            "think_seconds",
            "Seconds a computer player thought about one move, by level",
            ["level"],
            namespace=NAMESPACE,
            registry=registry,
            buckets=THINK_BUCKETS,
        )
        for by in MOVERS:  # every series exists from the start, at 0 (rate() needs a first sample)
            self.moves.labels(by=by)
        for direction in DIRECTIONS:
            self.bus_messages.labels(direction=direction)
        for kind in PEER_KINDS:
            self.peers.labels(kind=kind)
            self.peers_lost.labels(kind=kind)
        if process:
            ProcessCollector(registry=registry)
            PlatformCollector(registry=registry)
            GCCollector(registry=registry)

    def watch(
        self,
        *,
        rooms_in_memory: Callable[[], float] | None = None,
        tables_playing: Callable[[], float] | None = None,
    ) -> None:
        """Read the gauges of what is in memory from these functions, each time the metrics are scraped
        (nothing is counted between scrapes)."""
        if rooms_in_memory is not None:
            self.rooms_in_memory.set_function(rooms_in_memory)
        if tables_playing is not None:
            self.tables_playing.set_function(tables_playing)

    def render(self) -> bytes:
        """The exposition of every metric, in Prometheus' text format (:data:`CONTENT_TYPE`)."""
        return generate_latest(self.registry)

    def sample(self, name: str, **labels: str) -> float | None:
        """The value of one sample (``cuarenta_moves_total``, ``by="person"``), or ``None`` (for tests and
        benchmarks)."""
        return self.registry.get_sample_value(name, labels)


__all__ = ["CONTENT_TYPE", "LATENCY_BUCKETS", "MOVERS", "PEER_KINDS", "THINK_BUCKETS", "Metrics", "Mover"]
