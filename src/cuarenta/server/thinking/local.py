"""Thinking without worker processes: :class:`InProcessThinking` (one thread: ``--workers 0``, tests,
debugging) and :class:`InlineThinking` (on the event loop: the device host under Pyodide)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from cuarenta.players import Player, make_player
from cuarenta.server.thinking.port import ThinkingError
from cuarenta.server.thinking.request import PlayerCache, ThinkRequest, answer, value


class InProcessThinking:
    """Players think in this process, on one dedicated thread (``--workers 0``: tests, debugging)."""

    workers = 0

    def __init__(self, make: Callable[[str, str], Player] = make_player) -> None:
        self.cache = PlayerCache(make=make)
        self._executor: ThreadPoolExecutor | None = None

    async def choose(self, request: ThinkRequest) -> str:
        if self._executor is None:
            self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cuarenta-think")
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor, answer, request, self.cache)
        except Exception as exc:
            raise ThinkingError(f"the {request.level} player of {request.key} failed: {exc}") from exc

    async def values(self, request: ThinkRequest) -> list[float]:
        if self._executor is None:
            self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cuarenta-think")
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor, value, request)
        except Exception as exc:
            raise ThinkingError(f"the analysis of {request.key} failed: {exc}") from exc

    def pids(self) -> list[int]:
        return []

    async def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


class InlineThinking:
    """Players think on the event loop itself, with no thread and no process: for the device host under
    Pyodide, which has neither (docs/architecture.md "The device host"). The same player cache and the
    same :func:`answer` as :class:`InProcessThinking`, so the same request gets the same action; the loop
    waits while the player thinks (a difícil move takes a moment; nothing else runs meanwhile)."""

    workers = 0

    def __init__(self, make: Callable[[str, str], Player] = make_player) -> None:
        self.cache = PlayerCache(make=make)

    async def choose(self, request: ThinkRequest) -> str:
        await asyncio.sleep(0)  # let what is queued (the frames of the last move) go out first
        try:
            return answer(request, self.cache)
        except Exception as exc:
            raise ThinkingError(f"the {request.level} player of {request.key} failed: {exc}") from exc

    async def values(self, request: ThinkRequest) -> list[float]:
        await asyncio.sleep(0)  # let what is queued (an answer to the page's poll) go out first
        try:
            return value(request)
        except Exception as exc:
            raise ThinkingError(f"the analysis of {request.key} failed: {exc}") from exc

    def pids(self) -> list[int]:
        return []

    async def close(self) -> None:
        """Nothing to stop."""


__all__ = ["InProcessThinking", "InlineThinking"]
