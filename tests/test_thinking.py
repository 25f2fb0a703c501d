"""Computer players in worker processes (cuarenta.server.thinking): real processes, real signals.

What is proved here: the pool's players choose legal actions for every level, 1v1 and 2v2, and the same
ones as in-process thinking (a seat's player lives in one worker and remembers); a request carries no card
the seat could not see; a worker killed (SIGKILL) or stuck (SIGSTOP past the timeout) is replaced and the
request asked again; a failing request is reported, not fatal; an answer for a state that is no longer
current is dropped by the room; ``cuarenta serve --workers 0`` and ``--workers 2`` play, and the workers
leave with the server.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import random
import re
import signal
import subprocess
import time
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from cuarenta import Game, Rules
from cuarenta.players import dificil
from cuarenta.players.dificil import Budget, DificilPlayer
from cuarenta.players.normal import NormalPlayer
from cuarenta.server.authority.model import Connection
from cuarenta.server.authority.requests import Join
from cuarenta.server.ops.gcpolicy import GcPolicy
from cuarenta.server.store import Store
from cuarenta.server.thinking import (
    THINK_SECONDS,
    InProcessThinking,
    PlayerCache,
    ThinkingError,
    ThinkRequest,
    WorkerPool,
    answer,
    default_workers,
    make_thinking,
    think_seconds,
)
from cuarenta.server.wiring import TableRooms as Rooms
from support.examples import quick_first
from support.ports import free_port
from support.served import program

CARD = re.compile(r"(?<![A-Za-z0-9])([A2-7JQK][hdcs])(?![A-Za-z0-9])")


def play(thinking: Any, rules: Rules, level: str, seed: int, plies: int, room: str = "r") -> list[str]:
    """``plies`` actions of a game where every seat is a computer of ``level`` thinking in ``thinking``."""

    async def run() -> list[str]:
        game = Game.new(rules, seed)
        chosen: list[str] = []
        try:
            while not game.is_over and len(chosen) < plies:
                request = ThinkRequest.for_seat(game, room=room, mesa=1, seat=game.turn, level=level)
                text = await thinking.choose(request)
                assert text in request.legal, (level, text, request.legal)
                game.play(game.legal_moves()[request.legal.index(text)])
                chosen.append(text)
        finally:
            await thinking.close()
        return chosen

    return asyncio.run(run())


# -- the pool plays, and plays as in-process thinking would --------------------------------------------------
@pytest.mark.parametrize(
    ("players", "level", "plies"),
    [
        (2, "facil", 40),
        (2, "normal", 40),
        pytest.param(2, "dificil", 6, marks=pytest.mark.slow),  # seconds of search a ply
        (4, "facil", 40),
        (4, "normal", 40),
        pytest.param(4, "dificil", 3, marks=pytest.mark.slow),
    ],
)
def test_the_pool_plays_legal_moves_like_in_process_thinking(players: int, level: str, plies: int) -> None:
    rules = Rules(players=players)
    # all the time a search needs: on a busy machine THINK_SECONDS would cut a dificil search short
    # (tested below), and a shorter search may choose otherwise
    pooled = play(WorkerPool(2, think=3600.0), rules, level, seed=11, plies=plies)
    local = play(InProcessThinking(), rules, level, seed=11, plies=plies)
    assert len(pooled) == plies
    # each seat's player lived in one worker and saw every view of its seat in order: the same choices
    assert pooled == local


def test_the_equality_above_needs_the_seats_player_to_be_kept() -> None:
    """A fresh ``dificil`` player for every move (its random generator reset) would play otherwise: so
    the pool's equality with in-process thinking shows that each seat's player lived in one worker."""
    game = Game.new(Rules(), 11)
    fresh: list[str] = []
    while len(fresh) < 6:
        request = ThinkRequest.for_seat(game, room="r", mesa=1, seat=game.turn, level="dificil")
        fresh.append(answer(request, PlayerCache()))
        game.play(game.legal_moves()[request.legal.index(fresh[-1])])
    assert fresh != play(InProcessThinking(), Rules(), "dificil", seed=11, plies=6)


def test_a_seat_keeps_its_player_between_turns_and_a_new_mesa_gets_a_new_one() -> None:
    game = Game.new(Rules(), 4)
    cache = PlayerCache()
    first = ThinkRequest.for_seat(game, room="r", mesa=1, seat=game.turn, level="normal")
    answer(first, cache)
    game.play(game.legal_moves()[first.legal.index(answer(first, cache))])
    game.play(game.legal_moves()[0])
    again = ThinkRequest.for_seat(game, room="r", mesa=1, seat=first.seat, level="normal")
    answer(again, cache)
    assert cache.made == 1 and len(cache) == 1
    answer(ThinkRequest.for_seat(game, room="r", mesa=2, seat=first.seat, level="normal"), cache)
    assert cache.made == 2
    small = PlayerCache(size=1)
    answer(first, small)
    answer(ThinkRequest.for_seat(game, room="other", mesa=1, seat=first.seat, level="normal"), small)
    answer(first, small)  # left the cache: made again
    assert small.made == 3 and len(small) == 1


def test_a_request_names_no_card_the_seat_could_not_see() -> None:
    for players in (2, 4):
        game = Game.new(Rules(players=players), 21)
        for _ in range(9):
            seat = game.turn
            request = ThinkRequest.for_seat(game, room="r", mesa=1, seat=seat, level="facil")
            assert request.view == game.view(seat).to_dict()
            hidden = {str(c) for s in range(players) if s != seat for c in game.view(s).hand}
            hidden |= {str(c) for c in game.stock}
            named = set(CARD.findall(json.dumps(request.to_wire(1))))
            assert named and not (named & hidden)
            game.play(game.legal_moves()[0])


def test_requests_that_are_not_sound_are_refused() -> None:
    game = Game.new(Rules(), 2)
    request = ThinkRequest.for_seat(game, room="r", mesa=1, seat=game.turn, level="facil")
    with pytest.raises(ValueError, match="not seat"):
        ThinkRequest.for_seat(game, room="r", mesa=1, seat=1 - game.turn, level="facil")
    wrong_seat = ThinkRequest(**{**request.__dict__, "seat": 1 - game.turn})
    with pytest.raises(ValueError, match="not seat"):
        answer(wrong_seat, PlayerCache())
    with pytest.raises(ValueError, match="no legal action"):
        answer(ThinkRequest(**{**request.__dict__, "legal": ()}), PlayerCache())
    with pytest.raises(ValueError, match="hidden cards"):
        answer(ThinkRequest(**{**request.__dict__, "level": "oracle"}), PlayerCache())
    with pytest.raises(ValueError, match="unknown player"):
        answer(ThinkRequest(**{**request.__dict__, "level": "nadie"}), PlayerCache())
    for bad in (-1, True, 1.5):
        with pytest.raises(ValueError, match="whole number"):
            make_thinking(bad)  # type: ignore[arg-type]
    assert make_thinking(0).workers == 0 and make_thinking(3).workers == 3


def test_a_worker_reports_a_failing_request_and_goes_on_serving() -> None:
    game = Game.new(Rules(), 2)
    request = ThinkRequest.for_seat(game, room="r", mesa=1, seat=game.turn, level="facil")

    async def run() -> tuple[str, str, list[int], int]:
        pool = WorkerPool(1)
        try:
            with pytest.raises(ThinkingError, match="hidden cards") as failed:
                await pool.choose(ThinkRequest(**{**request.__dict__, "level": "oracle"}))
            pids = pool.pids()
            good = await pool.choose(request)
            return str(failed.value), good, pids + pool.pids(), pool.restarts()
        finally:
            await pool.close()

    message, good, pids, restarts = asyncio.run(run())
    assert "oracle" in message and good in request.legal
    assert len(set(pids)) == 1 and restarts == 0  # the same worker answered both


# -- failures: a killed worker, a stuck one ------------------------------------------------------------------
def test_a_killed_worker_is_replaced_and_the_request_asked_again() -> None:
    rules = Rules(players=4)

    async def run() -> tuple[list[str], list[int], list[int], int]:
        pool = WorkerPool(1)
        game = Game.new(rules, 5)
        chosen: list[str] = []
        try:
            first = ThinkRequest.for_seat(game, room="r", mesa=1, seat=game.turn, level="facil")
            chosen.append(await pool.choose(first))
            game.play(game.legal_moves()[first.legal.index(chosen[-1])])
            before = pool.pids()
            # a dificil 2v2 move thinks for a while: kill the worker while it holds the request
            request = ThinkRequest.for_seat(game, room="r", mesa=1, seat=game.turn, level="dificil")
            pending = asyncio.ensure_future(pool.choose(request))
            await asyncio.sleep(0.2)
            os.kill(before[0], signal.SIGKILL)
            chosen.append(await pending)
            assert chosen[-1] in request.legal
            game.play(game.legal_moves()[request.legal.index(chosen[-1])])
            # and the replacement goes on serving
            after = ThinkRequest.for_seat(game, room="r", mesa=1, seat=game.turn, level="facil")
            chosen.append(await pool.choose(after))
            assert chosen[-1] in after.legal
            return chosen, before, pool.pids(), pool.restarts()
        finally:
            await pool.close()

    chosen, before, after, restarts = asyncio.run(run())
    assert len(chosen) == 3 and restarts == 1
    assert len(after) == 1 and after != before
    assert not Path(f"/proc/{before[0]}").exists()  # reaped, not a zombie


def test_a_stuck_worker_is_killed_after_the_timeout_and_the_request_asked_again() -> None:
    game = Game.new(Rules(), 6)
    request = ThinkRequest.for_seat(game, room="r", mesa=1, seat=game.turn, level="facil")

    async def run(attempts: int) -> tuple[str | None, int]:
        pool = WorkerPool(1, timeout=1.0, attempts=attempts)
        try:
            await pool.choose(request)  # started and answering
            for pid in pool.pids():
                os.kill(pid, signal.SIGSTOP)
            try:
                text: str | None = await pool.choose(request)
            except ThinkingError as exc:
                assert "no answer within 1 s" in str(exc)
                text = None
            for _ in range(200):  # the replacement starts in the background
                if pool.restarts():
                    break
                await asyncio.sleep(0.05)
            return text, pool.restarts()
        finally:
            await pool.close()

    text, restarts = asyncio.run(run(attempts=2))
    assert text in request.legal and restarts == 1
    text, restarts = asyncio.run(run(attempts=1))
    assert text is None and restarts == 1  # given up after one try; the worker was still replaced


def test_workers_that_cannot_start_fail_the_request_instead_of_being_replaced_forever(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A worker that dies before answering anything (a broken install) is replaced ``attempts`` times,
    then the waiting request fails with ThinkingError: the room plays on, nothing hangs."""
    import cuarenta.server.thinking.pool as pool_module

    monkeypatch.setattr(pool_module, "_BOOT", "import sys; sys.exit(3)")
    game = Game.new(Rules(), 6)
    request = ThinkRequest.for_seat(game, room="r", mesa=1, seat=game.turn, level="facil")

    async def run() -> tuple[str, int]:
        pool = WorkerPool(1, attempts=3)
        try:
            with pytest.raises(ThinkingError) as failed:
                await asyncio.wait_for(pool.choose(request), 30)
            await asyncio.sleep(1.0)
            return str(failed.value), pool.restarts()
        finally:
            await pool.close()

    message, restarts = asyncio.run(run())
    # the request died with its worker three times, or waited while three workers died before it was sent
    assert "the worker process died (3 tries)" in message or "3 worker processes in a row died" in message
    # and the slot backs off: without that, a dead-on-arrival worker is replaced ~20 times a second
    assert 2 <= restarts <= 6


def test_a_worker_that_loads_slowly_is_not_taken_for_a_stuck_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """A request's ``timeout`` counts from the worker's ready line: a new process that takes longer
    than the timeout to load (a busy machine) still answers, and is neither killed nor replaced."""
    from cuarenta.server.thinking import pool as pool_module

    monkeypatch.setattr(pool_module, "_BOOT", "import time\ntime.sleep(2.5)\n" + pool_module._BOOT)
    game = Game.new(Rules(), 6)
    request = ThinkRequest.for_seat(game, room="r", mesa=1, seat=game.turn, level="facil")

    async def run() -> tuple[str, int]:
        pool = WorkerPool(1, timeout=1.0, attempts=1)
        try:
            return await pool.choose(request), pool.restarts()
        finally:
            await pool.close()

    text, restarts = asyncio.run(run())
    assert text in request.legal and restarts == 0


def test_close_ends_even_when_a_worker_task_swallows_its_cancellation() -> None:
    """On Python 3.11 ``asyncio.wait_for`` returns the result instead of raising when a cancellation
    meets the reply. A slot task that goes on after ``cancel()`` must not hold ``close()`` for ever
    (CI once hung there, at a server's shutdown, with a worker left reading its input)."""
    game = Game.new(Rules(players=4), 5)
    request = ThinkRequest.for_seat(game, room="r", mesa=1, seat=game.turn, level="dificil")

    async def run() -> tuple[list[int], float]:
        pool = WorkerPool(1)
        original = pool._settle
        swallowed: list[bool] = []
        asked = asyncio.Event()

        async def swallowing(slot: Any, process: Any, job: Any) -> bool:
            asked.set()
            try:
                return await original(slot, process, job)
            except asyncio.CancelledError:
                swallowed.append(True)
                return True

        pool._settle = swallowing  # type: ignore[method-assign]
        pending = asyncio.ensure_future(pool.choose(request))  # dificil with 4 players thinks a while
        async with asyncio.timeout(60):  # the worker loads, says it is ready, and is asked
            await asked.wait()
        await asyncio.sleep(0.1)
        pids = pool.pids()
        pending.cancel()
        start = time.monotonic()
        async with asyncio.timeout(30):
            await pool.close()
        assert swallowed == [True]
        return pids, time.monotonic() - start

    pids, took = asyncio.run(run())
    assert len(pids) == 1 and took < 10
    for _ in range(100):
        if not Path(f"/proc/{pids[0]}").exists():
            break
        time.sleep(0.05)
    assert not Path(f"/proc/{pids[0]}").exists()


def test_a_closed_pool_leaves_no_process_and_starts_again_on_use() -> None:
    game = Game.new(Rules(), 8)
    request = ThinkRequest.for_seat(game, room="r", mesa=1, seat=game.turn, level="facil")
    pool = WorkerPool(2)

    async def use() -> list[int]:
        await pool.choose(request)
        deadline = time.monotonic() + 30
        while len(pool.pids()) < 2:  # the second worker starts too
            assert time.monotonic() < deadline, pool.pids()
            await asyncio.sleep(0.05)
        pids = pool.pids()
        await pool.close()
        return pids

    first = asyncio.run(use())
    second = asyncio.run(use())  # another event loop, as a restarted app would have
    assert len(first) == 2 and len(second) == 2 and not set(first) & set(second)
    for pid in first + second:
        assert not Path(f"/proc/{pid}").exists()


# -- a busy pool: the rooms in turn, a time to think that shrinks with the queue (issue 25, item 17) -------
def positions(players: int, count: int, seed: int = 3) -> list[Game]:
    """``count`` positions of random games where the seat to move has more than one kind of move."""
    found: list[Game] = []
    rng = random.Random(seed)
    while len(found) < count:
        game = Game.new(Rules(players=players), rng.randrange(10**6))
        for _ in range(rng.randrange(0, 12)):
            game.play(rng.choice(game.legal_moves()))
        if not game.is_over and len(game.legal_moves()) > 1:
            found.append(game)
    return found


class Clock:
    """A scripted ``time`` for the ``dificil`` module: ``monotonic()`` gives ``readings`` in turn."""

    def __init__(self, *readings: float) -> None:
        self.readings = list(readings)

    def monotonic(self) -> float:
        return self.readings.pop(0)


@pytest.mark.slow
def test_a_hurried_dificil_player_searches_until_its_deadline_then_plays_quickly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Given until t=10, ``dificil`` searches worlds while the clock says there is time (here three: the
    clock reads 0 before each, then 100) and plays what those worlds show — the choice of a player whose
    budget is three worlds. Its next move, given 20 s when a world took 33 s, is chosen as ``normal``
    chooses (no world searched); with no deadline it searches its whole budget again."""
    three = Budget(min_worlds=3, max_worlds=3)
    for i, game in enumerate(positions(4, 3, seed=4)):
        seat, view, legal = game.turn, game.view(game.turn), game.legal_moves()
        hurried, budgeted, normal = DificilPlayer(i), DificilPlayer(i, budget=three), NormalPlayer(i)
        for player in (hurried, budgeted, normal):
            player.start(seat, game.rules)
        three_worlds, normals = budgeted.choose(view, legal), normal.choose(view, legal)
        with monkeypatch.context() as patch:
            patch.setattr(dificil, "time", Clock(0, 0, 0, 100, 100))  # start, before worlds 2-4, end
            hurried.deadline = 10.0
            assert hurried.choose(view, legal) == three_worlds
            assert hurried.world_seconds == pytest.approx(100 / 3)
            patch.setattr(dificil, "time", Clock(100))
            hurried.deadline = 120.0  # 20 s left: not enough for one world
            assert hurried.choose(view, legal) == normals


@pytest.mark.parametrize("players", quick_first([2, 4]))
def test_a_dificil_player_with_no_time_left_plays_as_normal(players: int) -> None:
    """With its deadline passed before it starts, ``dificil`` searches nothing and plays ``normal``'s move
    (its seed); with its whole budget its choices are not all ``normal``'s."""
    differs = False
    for i, game in enumerate(positions(players, 12)):
        seat, view, legal = game.turn, game.view(game.turn), game.legal_moves()
        hurried, normal, full = DificilPlayer(seed=i), NormalPlayer(seed=i), DificilPlayer(seed=i)
        for player in (hurried, normal, full):
            player.start(seat, game.rules)
        hurried.deadline = 0.0  # long past
        assert hurried.choose(view, legal) == normal.choose(view, legal)
        # the whole budget's search (seconds a move with four players) until one choice differs
        differs = differs or full.choose(view, legal) != hurried.choose(view, legal)
    assert differs


def test_a_request_with_seconds_hurries_its_player_for_that_move_only() -> None:
    game = positions(4, 1)[0]
    request = ThinkRequest.for_seat(game, room="r", mesa=1, seat=game.turn, level="dificil")
    assert "seconds" not in request.to_wire(1)
    hurried = ThinkRequest.from_wire(request.to_wire(1, 0.0))
    assert hurried.seconds == 0.0 and hurried.to_wire(1)["seconds"] == 0.0
    cache = PlayerCache()
    normal = NormalPlayer(seed=request.seed)
    normal.start(request.seat, game.rules)
    assert answer(hurried, cache) == str(normal.choose(game.view(game.turn), game.legal_moves()))
    assert cache.player(request).deadline is None  # the next move thinks with the whole budget again
    for bad in (-1, "1", True, float("nan")):
        with pytest.raises(ValueError, match="seconds"):
            ThinkRequest.from_wire({**request.to_wire(1), "seconds": bad})


def test_the_time_to_think_shrinks_with_the_wait_and_the_queue() -> None:
    assert think_seconds(0.0, 0) == THINK_SECONDS
    assert think_seconds(0.0, 3) == THINK_SECONDS / 4  # shared with the three behind it
    assert think_seconds(1.0, 0) == THINK_SECONDS - 1.0  # what is left after its wait
    assert think_seconds(THINK_SECONDS + 5, 0) == 0.0  # never below nothing
    assert [think_seconds(0.2, n) for n in range(5)] == sorted(
        (think_seconds(0.2, n) for n in range(5)), reverse=True
    )
    with pytest.raises(ValueError, match="0 or more"):
        think_seconds(-1.0, 0)


@pytest.mark.slow
def test_a_saturated_pool_takes_the_rooms_in_turn_and_gives_each_request_its_share_of_the_time() -> None:
    """One worker, nine rooms asking at once and one room whose three computers move one after another
    (it asks again as soon as it is answered, as a room's loop does). Each request goes to the back of the
    queue: the busy room gets no further ahead than any other, and nobody waits behind more than the
    rooms that asked before it. Each request is given no more than its share of :data:`THINK_SECONDS`
    with the requests behind it: the time to think shrinks as the queue grows."""
    games = positions(4, 10, seed=8)

    async def run() -> tuple[list[str], list[tuple[int, float]]]:
        pool = WorkerPool(1)
        answered: list[str] = []

        async def ask(room: str, game: Game, times: int) -> None:
            for _ in range(times):
                request = ThinkRequest.for_seat(game, room=room, mesa=1, seat=game.turn, level="dificil")
                text = await pool.choose(request)
                assert text in request.legal
                answered.append(room)

        try:
            await ask("warm-up", games[0], 1)  # the worker is started, idle again
            await asyncio.gather(
                ask("busy", games[0], 3), *(ask(f"room{i}", games[i], 1) for i in range(1, 10))
            )
            await ask("alone", games[1], 1)
            return answered, list(pool.given)
        finally:
            await pool.close()

    answered, given = asyncio.run(run())
    rooms = [f"room{i}" for i in range(1, 10)]
    assert answered == ["warm-up", "busy", *rooms, "busy", "busy", "alone"]
    # the busy room's first request had the nine rooms behind it; its second waited behind them; its
    # third, and the lone request after, found nobody behind
    assert [behind for behind, _ in given] == [0, 9, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0, 0]
    for behind, seconds in given:
        assert 0 <= seconds <= THINK_SECONDS / (1 + behind)


# -- the room drops an answer for a state that is gone -------------------------------------------------------
class HeldThinking:
    """A :class:`~cuarenta.server.thinking.Thinking` that answers only when the test says so."""

    workers = 0

    def __init__(self) -> None:
        self.requests: list[ThinkRequest] = []
        self.release = asyncio.Event()
        self.asked = asyncio.Event()

    async def choose(self, request: ThinkRequest) -> str:
        self.requests.append(request)
        self.asked.set()
        await self.release.wait()
        return request.legal[-1]

    def pids(self) -> list[int]:
        return []

    async def close(self) -> None:
        pass


def test_an_answer_for_a_state_that_is_no_longer_current_is_dropped(tmp_path: Path) -> None:
    store = Store.in_dir(tmp_path)
    held = HeldThinking()
    rooms = Rooms(store, bot_delay=0, thinking=held)

    async def run() -> tuple[list[str], str]:
        while True:  # a 2v2 room where seat 1 or 2 is to move: the next seat is a computer too
            room, token = rooms.create(rules=Rules(players=4), level="facil")
            if room.game.turn in (1, 2) and len(room.game.legal_moves()) > 1:
                break
        conn = Connection()
        rooms.join(conn, Join(room=room.id, token=token))
        await asyncio.wait_for(held.asked.wait(), 10)
        # while the player thinks, the room changes: an action for that seat arrives first
        played = str(room.game.legal_moves()[0])
        rooms._apply(room, room.game.legal_moves()[0])
        held.release.set()
        while room.computer_to_move() is not None:
            await asyncio.sleep(0.01)
        await rooms.close()
        return [str(a) for a in room.game.actions], played

    try:
        actions, played = asyncio.run(run())
    finally:
        store.close()
    first, second = held.requests[:2]
    assert first.legal[-1] != played
    # the held answer for the first seat was dropped: its move is the one applied while it thought,
    # then the next computer seat was asked about the new position and its answer was played
    assert actions[:2] == [played, second.legal[-1]]
    assert second.seat == first.seat + 1 and second.view["history"] != first.view["history"]
    assert [r.seat for r in held.requests] == [first.seat + k for k in range(len(held.requests))]
    assert len(actions) == 1 + len(held.requests) - 1


# -- the real server -----------------------------------------------------------------------------------------
def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                text = (entry / "stat").read_text()
            except OSError:
                continue
            fields = text[text.rindex(")") + 2 :].split()
            if int(fields[1]) == pid and fields[0] != "Z":
                found.append(int(entry.name))
    return found


def running_pids(pids: list[int]) -> list[int]:
    alive = []
    for pid in pids:
        try:
            text = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        if text[text.rindex(")") + 2] != "Z":
            alive.append(pid)
    return alive


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Any]:
    """Start ``cuarenta serve`` with extra options; every process started is stopped at the end."""
    started: list[subprocess.Popen[str]] = []

    def start(*options: str) -> tuple[str, subprocess.Popen[str]]:
        port = free_port()
        proc = subprocess.Popen(
            [program(), "serve", "--port", str(port), "--data", str(tmp_path / f"d{port}"), *options],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=dict(os.environ, PYTHONUNBUFFERED="1"),
        )
        started.append(proc)
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, proc.communicate()
            try:
                if httpx.get(f"{base}/api/health", timeout=2).status_code == 200:
                    return base, proc
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "the server did not answer"
            time.sleep(0.1)

    yield start
    for proc in started:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def receive_state(ws: ClientConnection) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=60))
        assert message["type"] != "error", message
        if message["type"] == "state":
            return message


def play_moves(base: str, moves: int, players: int = 2, level: str = "facil") -> dict[str, Any]:
    """A person plays ``moves`` moves in a new room; each is answered by the computer seats' moves."""
    made = httpx.post(f"{base}/api/rooms", json={"players": players, "level": level}).json()
    with connect(base.replace("http", "ws") + "/ws") as ws:
        ws.send(json.dumps({"v": 1, "type": "join", "room": made["room"], "token": made["token"]}))
        state = receive_state(ws)
        played = 0
        while played < moves:
            while not state["legal"]:
                state = receive_state(ws)
            ws.send(json.dumps({"v": 1, "type": "move", "move": state["legal"][0], "state": state["state"]}))
            played += 1
            state = receive_state(ws)
        while not state["legal"]:  # the computer seats answered the last move
            state = receive_state(ws)
        return state


@pytest.mark.slow
def test_the_real_server_thinks_in_workers_replaces_a_killed_one_and_leaves_none_behind(serve: Any) -> None:
    base, proc = serve("--bot-delay", "0", "--workers", "2")
    play_moves(base, 2)
    deadline = time.monotonic() + 30
    while len(workers := children(proc.pid)) < 2:
        assert time.monotonic() < deadline, workers
        time.sleep(0.1)
    assert len(workers) == 2
    for pid in workers:  # plain python processes running the worker, not forks of the server
        command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        assert b"worker_main" in b" ".join(command)
    os.kill(workers[0], signal.SIGKILL)
    state = play_moves(base, 3, players=4)  # three computer seats, spread over both workers
    assert state["legal"]
    deadline = time.monotonic() + 30
    while len(now := children(proc.pid)) < 2:
        assert time.monotonic() < deadline, now
        time.sleep(0.1)
    assert workers[0] not in now and workers[1] in now
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=30)
    deadline = time.monotonic() + 10
    while running_pids(now + workers):
        assert time.monotonic() < deadline, f"orphan workers: {running_pids(now + workers)}"
        time.sleep(0.1)
    _, err = proc.communicate()
    assert "stopped with code -9" in err  # the replacement was logged


@pytest.mark.slow
def test_the_real_server_with_workers_0_thinks_in_process(serve: Any) -> None:
    base, proc = serve("--bot-delay", "0", "--workers", "0")
    state = play_moves(base, 3, players=4)
    assert state["legal"] and children(proc.pid) == []
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=30) == 0


# -- the command's options and the garbage-collection policy -------------------------------------------------
@pytest.mark.slow
def test_serve_wires_workers_and_runs_under_the_gc_policy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import uvicorn
    from typer.testing import CliRunner

    from cuarenta.cli import app

    seen: list[tuple[int, bool]] = []

    def fake_run(application: Any, **options: Any) -> None:
        installed = any(isinstance(getattr(cb, "__self__", None), GcPolicy) for cb in gc.callbacks)
        seen.append((application.state.rooms.thinking.workers, installed and gc.get_freeze_count() > 0))

    monkeypatch.setattr(uvicorn, "run", fake_run)
    for options, workers in ((["--workers", "3"], 3), (["--workers", "0"], 0), ([], default_workers())):
        result = CliRunner().invoke(app, ["serve", "--data", str(tmp_path / "d"), *options])
        assert result.exit_code == 0, result.output
        assert seen[-1] == (workers, True)
    refused = CliRunner().invoke(app, ["serve", "--data", str(tmp_path / "d"), "--workers", "-1"])
    assert refused.exit_code == 2 and len(seen) == 3
    # and the policy is gone once the server stops
    assert not any(isinstance(getattr(cb, "__self__", None), GcPolicy) for cb in gc.callbacks)
    assert gc.get_freeze_count() == 0


def test_the_gc_policy_freezes_survivors_and_reclaims_frozen_cycles_on_schedule() -> None:
    now = [0.0]
    policy = GcPolicy(reclaim_every=10, clock=lambda: now[0])
    gone: list[str] = []

    class Node:
        me: Any = None

    before = gc.get_threshold()
    policy.install()
    try:
        assert gc.get_threshold() == (*before[:2], 2)  # full collections after 2 of generation 1
        node = Node()
        node.me = node  # a reference cycle: only the cyclic collector frees it
        weakref.finalize(node, gone.append, "node")
        gc.collect()  # a full collection: the node survives it and is frozen
        assert gc.get_freeze_count() > 0 and policy.full_collections == 1
        del node
        gc.collect()
        assert gone == []  # frozen objects are not walked by full collections
        now[0] = 11.0
        gc.collect()  # the hour (here 10 s) is up: this collection hands the frozen objects back
        assert gone == [] and policy.reclaims == 0
        gc.collect()  # and this one walks the whole heap once
        assert gone == ["node"] and policy.reclaims == 1
        assert gc.get_freeze_count() > 0  # frozen again afterwards
    finally:
        policy.uninstall()
    assert gc.get_freeze_count() == 0 and gc.get_threshold() == before
    with pytest.raises(ValueError, match="positive"):
        GcPolicy(reclaim_every=0)
    with pytest.raises(ValueError, match="full_every"):
        GcPolicy(full_every=0)


def test_the_default_worker_count_follows_the_cores_this_process_may_use(tmp_path: Path) -> None:
    from cuarenta.server.thinking.pool import _cgroup_cores

    assert 1 <= default_workers() <= len(os.sched_getaffinity(0))
    quota = tmp_path / "cpu.max"
    quotas = (("max 100000\n", None), ("200000 100000\n", 2), ("150000 100000\n", 2), ("5000 100000", 1))
    for text, cores in quotas:
        quota.write_text(text)
        assert _cgroup_cores(str(quota)) == cores, text
    quota.write_text("nonsense")
    assert _cgroup_cores(str(quota)) is None
    assert _cgroup_cores(str(tmp_path / "absent")) is None
