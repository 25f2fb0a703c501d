"""Metrics that record nothing: what :mod:`cuarenta.server.ops.metrics` uses when ``prometheus_client``
is not installed (the device host under Pyodide, docs/architecture.md "The device host").

They take the same arguments as prometheus_client's and answer the same calls, so
:class:`~cuarenta.server.ops.metrics.Metrics` is built the same way; nothing is counted and
:func:`generate_latest` renders nothing.

>>> registry = CollectorRegistry(auto_describe=True)
>>> moves = Counter("moves", "Moves", ["by"], namespace="cuarenta", registry=registry)
>>> moves.labels(by="person").inc()
>>> registry.get_sample_value("cuarenta_moves_total", {"by": "person"}) is None, generate_latest(registry)
(True, b'')
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any


class CollectorRegistry:
    """A registry of no metric."""

    def __init__(self, auto_describe: bool = False) -> None:
        self.auto_describe = auto_describe

    def get_sample_value(self, name: str, labels: dict[str, str] | None = None) -> float | None:
        """Always ``None``: nothing is recorded."""
        return None


class _Metric:
    """A counter, gauge or histogram that records nothing."""

    def __init__(self, name: str, documentation: str, *args: Any, **kwargs: Any) -> None:
        self.name = name

    def labels(self, *args: Any, **kwargs: Any) -> _Metric:
        return self

    def inc(self, amount: float = 1) -> None:
        """Nothing."""

    def dec(self, amount: float = 1) -> None:
        """Nothing."""

    def set(self, value: float) -> None:
        """Nothing."""

    def observe(self, amount: float) -> None:
        """Nothing."""

    def set_function(self, f: Callable[[], float]) -> None:
        """Nothing (``f`` is never called)."""

    @contextmanager
    def time(self) -> Iterator[None]:
        yield


class Counter(_Metric):
    pass


class Gauge(_Metric):
    pass


class Histogram(_Metric):
    pass


def _collector(registry: CollectorRegistry | None = None, **kwargs: Any) -> None:
    """A process, platform or collector collector: nothing to collect."""


ProcessCollector = PlatformCollector = GCCollector = _collector


def generate_latest(registry: CollectorRegistry | None = None) -> bytes:
    """The exposition of no metric."""
    return b""


__all__ = [
    "CollectorRegistry",
    "Counter",
    "GCCollector",
    "Gauge",
    "Histogram",
    "PlatformCollector",
    "ProcessCollector",
    "generate_latest",
]
