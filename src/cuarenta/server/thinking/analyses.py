"""The analyses of finished mesas that a server (or the device's host) is making or has made, thought
where the computer players think (docs/protocol.md "Analysis", docs/analysis.md).

An analysis is asked for a seat of a finished mesa. Its questions (:func:`~cuarenta.analysis.questions`:
one per turn of the seat with a real choice) are made on the event loop, which only replays the record;
each question's values are thought by the :class:`~cuarenta.server.thinking.Thinking` port, as a move is
(:meth:`~cuarenta.server.thinking.Thinking.values`), at most :attr:`Analyses.parallel` at a time over
*all* the analyses (one per worker): however many people ask for one, no more than that many questions
stand in front of the computer moves in the workers' queues, so the games go on at their pace while the
analyses wait their turn. The decisions are then made from the values on the loop (a comparison and the
motifs: no search).

Asking again for the same analysis answers how far it has got, then its result; the last
:data:`KEPT` analyses are kept. An analysis that failed (a worker could not answer) says so once and
is forgotten: asking again starts it anew. Every question is seeded as ``cuarenta analyze`` seeds it
(seed 0), so the page's analysis of a mesa is the terminal's analysis of its record.

>>> import asyncio
>>> from cuarenta import Game, Rules
>>> from cuarenta.record import GameRecord
>>> from cuarenta.server.thinking import InProcessThinking
>>> game = Game.new(Rules.preset("basico"), seed=3)
>>> for _ in range(8):
...     _ = game.play(game.legal_moves()[0])
>>> text = GameRecord.from_game(game).to_text()
>>> async def demo() -> list[str]:
...     analyses = Analyses(InProcessThinking())
...     first = analyses.ask("r", 1, 0, text).status
...     while analyses.ask("r", 1, 0, text).status == "running":
...         await asyncio.sleep(0.05)
...     last = analyses.ask("r", 1, 0, text)
...     await analyses.close()
...     return [first, last.status, str(last.total == len(last.review.decisions))]
>>> asyncio.run(demo())
['running', 'done', 'True']
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from cuarenta.analysis import ANALYSIS_LEVEL, Decision, Question, Review, questions
from cuarenta.game import Game
from cuarenta.moves import Action
from cuarenta.replay import Replay
from cuarenta.server.thinking.port import Thinking, ThinkingError
from cuarenta.server.thinking.request import ThinkRequest

log = logging.getLogger("cuarenta.server")

#: How a finished analysis says a decision's two moves (its position, the move played and the best move).
Describe = Callable[[Game, Sequence[Action]], list[Any]]

#: Analyses kept (the least recently asked leaves first): a finished one keeps its review and its words only
#: (a long mesa's positions, about 1.6 MB while it is thought, are let go).
KEPT: Final = 64
#: The analysis's seed: ``cuarenta analyze``'s default, so both say the same of a record.
SEED: Final = 0


@dataclass(eq=False)
class _Job:
    """One analysis: its questions, how many are answered, and its end."""

    room: str
    mesa: int
    seat: int
    asked: list[Question]
    forced: int
    total: int = 0  #: the questions asked (kept once they are let go)
    decisions: dict[int, Decision] = field(default_factory=dict)
    review: Review | None = None
    described: tuple[tuple[Any, Any], ...] = ()
    failed: str | None = None
    task: asyncio.Task[None] | None = None

    def status(self) -> Progress:
        """What the asker is told: how far it has got, and the analysis once it is done."""
        return Progress(
            room=self.room,
            mesa=self.mesa,
            seat=self.seat,
            done=len(self.decisions),
            total=self.total,
            review=self.review,
            failed=self.failed,
            described=self.described,
        )


@dataclass(frozen=True)
class Progress:
    """Where an analysis stands: ``running`` (``done`` of ``total`` questions answered), ``done`` (with
    its :class:`~cuarenta.analysis.Review`) or ``failed`` (why)."""

    room: str
    mesa: int
    seat: int
    done: int
    total: int
    review: Review | None
    failed: str | None
    #: once done, each decision's move played and best move as ``describe`` said them (else empty)
    described: tuple[tuple[Any, Any], ...] = ()

    @property
    def status(self) -> str:
        """``running``, ``done`` or ``failed``."""
        if self.failed is not None:
            return "failed"
        return "running" if self.review is None else "done"


class Analyses:
    """The analyses of one server or device host (module docstring)."""

    def __init__(
        self, thinking: Thinking, parallel: int | None = None, describe: Describe | None = None
    ) -> None:
        self.thinking = thinking
        #: how a finished analysis says each decision's two moves (the server's words for a way to play:
        #: :func:`~cuarenta.server.authority.eventview.describe_moves`); the positions are let go after
        self.describe = describe
        #: questions thought at once over every analysis (default: one per worker, at least 1)
        self.parallel = max(1, thinking.workers) if parallel is None else parallel
        if self.parallel < 1:
            raise ValueError(f"the analyses think 1 question at a time or more, not {parallel}")
        self._gate: asyncio.Semaphore | None = None  #: made on the running loop, at the first analysis
        self._jobs: OrderedDict[tuple[str, int, int], _Job] = OrderedDict()

    def ask(self, room: str, mesa: int, seat: int, record_text: str) -> Progress:
        """Start the analysis of ``seat`` in the finished mesa ``record_text`` (mesa ``mesa`` of ``room``),
        or say how far it has got; ``ValueError`` for a seat the record does not have."""
        key = (room, mesa, seat)
        job = self._jobs.get(key)
        if job is not None:
            self._jobs.move_to_end(key)
            answer = job.status()
            if job.failed is not None:
                del self._jobs[key]
            return answer
        asked, forced = questions(Replay.from_text(record_text), seat)
        job = _Job(room, mesa, seat, asked, forced, total=len(asked))
        self._jobs[key] = job
        while len(self._jobs) > KEPT:
            _, old = self._jobs.popitem(last=False)
            if old.task is not None:
                old.task.cancel()
        job.task = asyncio.get_running_loop().create_task(self._think(job), name=f"analysis-{room}-{seat}")
        return job.status()

    def running(self) -> int:
        """Analyses being thought now."""
        return sum(1 for job in self._jobs.values() if job.task is not None and not job.task.done())

    async def _think(self, job: _Job) -> None:
        if self._gate is None:
            self._gate = asyncio.Semaphore(self.parallel)
        gate = self._gate  # shared by every analysis: the workers' queues hold at most this many questions

        async def one(question: Question) -> None:
            async with gate:
                request = ThinkRequest.for_question(
                    question, room=f"{job.room}/analysis/{question.ply}", mesa=job.mesa, seed=SEED
                )
                chances = await self.thinking.values(request)
            job.decisions[question.ply] = question.answer(chances)

        try:
            async with asyncio.TaskGroup() as group:
                for question in job.asked:
                    group.create_task(one(question))
        except* ThinkingError as failed:
            first = failed.exceptions[0]
            log.error("the analysis of seat %d of room %s failed: %s", job.seat, job.room, first)
            job.failed = "the computer could not finish the analysis (ask again)"
        if job.failed is not None:
            return
        decisions = tuple(job.decisions[q.ply] for q in job.asked)
        if self.describe is not None:
            described = (
                self.describe(q.game, [d.played, d.best]) for q, d in zip(job.asked, decisions, strict=True)
            )
            job.described = tuple((pair[0], pair[1]) for pair in described)
        job.asked = []  # the positions' games are let go: a kept analysis is its review and its words
        job.review = Review(
            seat=job.seat, level=ANALYSIS_LEVEL, seed=SEED, decisions=decisions, forced=job.forced
        )

    async def close(self) -> None:
        """Stop every analysis being thought (their questions' answers are dropped)."""
        tasks = [job.task for job in self._jobs.values() if job.task is not None and not job.task.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._jobs.clear()


__all__ = ["KEPT", "SEED", "Analyses", "Progress"]
