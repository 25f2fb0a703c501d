"""What the authority sees of the computer players' thinking: the :class:`Thinking` port (a pool of
worker processes, a thread, or the event loop itself) and the :class:`ThinkingError` it raises."""

from __future__ import annotations

from typing import Protocol

from cuarenta.server.thinking.request import ThinkRequest


class ThinkingError(Exception):
    """A computer player could not answer (its workers kept dying, it timed out, or it failed)."""


class Thinking(Protocol):
    """Where the server's computer players think: :class:`WorkerPool` or :class:`InProcessThinking`."""

    @property
    def workers(self) -> int:
        """Worker processes (0: in-process)."""
        ...

    async def choose(self, request: ThinkRequest) -> str:
        """The action the request's player chooses, as text; :class:`ThinkingError` if none came."""
        ...

    async def values(self, request: ThinkRequest) -> list[float]:
        """The chances of a question of the analysis (a request with ``roots``: :func:`.request.value`),
        thought where the moves are; :class:`ThinkingError` if none came."""
        ...

    def pids(self) -> list[int]:
        """The process ids of the live workers."""
        ...

    async def close(self) -> None:
        """Stop thinking: the workers leave (a later :meth:`choose` starts new ones)."""
        ...


__all__ = ["Thinking", "ThinkingError"]
