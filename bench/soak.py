"""Soak: hundreds of mesas of mixed tables, people and computers, with reconnects, on one server process.

Starts ``cuarenta serve`` (one process and its thinking workers) on a free loopback port with a temporary
data directory and plays ``--mesas`` mesas or more to their end on ``--tables`` tables at once, of these
kinds in turn (``--kinds``; P a person, C a computer of ``--level``, seat 0 first)::

    PC     a room against the computer (POST /api/rooms), 1 vs 1
    PCCC   a room against the computer, 2 vs 2
    PP     a table of two people
    P+C    a table of a person and a computer seat
    PPPC   a table of three people and a computer (issue 25, item 17)
    PCPC   a table of two people and two computers
    PPPP   a table of four people

Every person is a scripted browser speaking protocol 2 with the tests' client
(:class:`support.wire.Reducer`, which checks that every event follows the version it holds): on its turn
it thinks (uniform in ``--think``) and plays a random legal move; after a mesa it asks for another
(``rematch`` at a table, ``next`` in a room) until its table has played its share. After a move, with the
chance ``--drops``, it drops its socket (a TCP abort) and comes back after ``--away`` seconds, half the
time with ``since`` (the missed events and ``resumed``), half with a fresh ``snapshot``; a table's grace
is ``--grace`` seconds, so a longer absence brings the computer in for the person and the return hands
the seat back.

It reports:

* **mesas**: finished, per kind, and whether every one finished (a table that has not changed for
  ``--stall`` seconds while someone is at it is reported as *stalled*, with what its people and
  ``GET /api/tables/{room}`` said);
* **computer wait**: for each version at which a computer (or a computer standing in) was to move, the
  time from the first person receiving that version to the first receiving the next — what the people at
  the table waited, the pace's pause included; versions during which nobody was at the table are left
  out (the table waits for people by design). Count, p50/p95/p99 and the longest, overall and per kind;
* the server's CPU, its workers' CPU, the driver's, how busy the machine was and its load average.

Run from the repository root (loopback only; bounded by ``--mesas`` and ``--minutes``)::

    python bench/soak.py --mesas 300 --tables 120 --level dificil --think 0.05-0.5

Figures are recorded in docs/performance.md ("A soak of mixed tables"). This is a measurement, not a
test; tests/test_soak.py runs a small one.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))
from server_load import cpu_sample, served, summary, think_range  # noqa: E402
from support.wire import Reducer  # noqa: E402

#: The kinds of table (module docstring): seat 0 first, ``+`` marks a table with friends of two seats.
KINDS: dict[str, tuple[str, ...]] = {
    "PC": ("room", "P", "C"),
    "PCCC": ("room", "P", "C", "C", "C"),
    "PP": ("table", "P", "P"),
    "P+C": ("table", "P", "C"),
    "PPPC": ("table", "P", "P", "P", "C"),
    "PCPC": ("table", "P", "C", "P", "C"),
    "PPPP": ("table", "P", "P", "P", "P"),
}
#: Errors a person's move may meet in a fair run (the table moved on meanwhile: a computer standing in, a
#: turn clock); anything else is counted as unexpected.
EXPECTED_ERRORS = frozenset({"stale", "not_your_turn", "game_over", "not_finished"})


@dataclass
class Run:
    """One table (or room) of the soak: its people, its mesas, and what its people saw when."""

    index: int
    kind: str
    room: str
    tokens: dict[int, str]  #: the people's seats and tokens
    target: int  #: mesas to finish
    finished: int = 0
    #: version → (first monotonic time a person held it, who was to move: "computer", "stand_in", "person",
    #: or "" when the mesa was over, and how many times the table had been empty of people by then)
    seen: dict[int, tuple[float, str, int]] = field(default_factory=dict)
    connected: int = 0  #: the people's sockets open now
    emptied: int = 0  #: times the last person's socket closed
    changed: float = 0.0  #: monotonic time of the last new version
    mesa: int = 1  #: the mesa in play
    mesa_started: float = 0.0  #: when its first version was held (the first mesa: when the soak began)
    mesa_seconds: list[float] = field(default_factory=list)
    stalls: list[dict[str, Any]] = field(default_factory=list)
    last: dict[str, Any] = field(default_factory=dict)  #: the last state a person held
    done: asyncio.Event = field(default_factory=asyncio.Event)

    def note(self, state: dict[str, Any], now: float) -> None:
        """A person holds ``state``: the first to hold a version dates it."""
        version = state["state"]
        self.last = state
        if version in self.seen:
            return
        self.seen[version] = (now, mover(state), self.emptied)
        self.changed = now
        if state["mesa"] != self.mesa:  # the next mesa is dealt
            self.mesa, self.mesa_started = state["mesa"], now
        if state["status"] == "finished" and self.finished < state["mesa"]:
            self.finished = state["mesa"]
            self.mesa_seconds.append(now - self.mesa_started)
            if self.finished >= self.target:
                self.done.set()

    def computer_waits(self) -> list[tuple[float, str]]:
        """(seconds, who) for each version a computer was to move at, until the next version."""
        waits = []
        for version, (at, who, emptied) in self.seen.items():
            after = self.seen.get(version + 1)
            if who in ("computer", "stand_in") and after is not None and after[2] == emptied:
                waits.append((after[0] - at, who))
        return waits


def mover(state: dict[str, Any]) -> str:
    """Who is to move in a reduced state: ``computer``, ``stand_in`` (the computer for an away person),
    ``person``, or ``""`` (the mesa is over, or the table waits)."""
    if state.get("status") != "playing":
        return ""
    turn = state["view"]["turn"]
    seat = state["seats"][turn]
    if seat["kind"] == "computer":
        return "computer"
    return "stand_in" if seat.get("stand_in") else "person"


@dataclass
class Tally:
    moves: int = 0
    drops: int = 0
    resumes: int = 0
    snapshots: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    unexpected: list[str] = field(default_factory=list)
    closed: int = 0  #: sockets the server closed (not our drops)


async def create(base: str, args: argparse.Namespace, index: int, kind: str) -> Run:
    """Make one table (its people take their seats through the invite) or room."""
    shape = KINDS[kind]
    seats = shape[1:]
    target = args.per_table
    async with httpx.AsyncClient(timeout=120) as client:
        if shape[0] == "room":
            room: dict[str, Any] = {"players": len(seats), "level": args.level, "name": "Ana"}
            answer = await client.post(f"{base}/api/rooms", json={**room, **args.rules})
            answer.raise_for_status()
            made = answer.json()
            return Run(index, kind, made["room"], {0: made["token"]}, target)
        others = ["friend" if s == "P" else args.level for s in seats[1:]]
        body = {
            "players": len(seats),
            "name": "Ana",
            "seats": others,
            "level": args.level,
            "grace": args.grace,
            **args.rules,
        }
        answer = await client.post(f"{base}/api/tables", json=body)
        answer.raise_for_status()
        made = answer.json()
        tokens = {0: made["token"]}
        for seat, who in enumerate(seats):
            if seat == 0 or who != "P":
                continue
            joined = await client.post(
                f"{base}/api/tables/{made['room']}/join",
                json={"invite": made["invite"], "name": f"P{seat}", "seat": seat},
            )
            joined.raise_for_status()
            tokens[seat] = joined.json()["token"]
        return Run(index, kind, made["room"], tokens, target)


async def person(
    ws_url: str, run: Run, seat: int, args: argparse.Namespace, rng: random.Random, tally: Tally
) -> None:
    """One person of ``run`` at ``seat``, until its table has played its mesas (module docstring)."""
    token = run.tokens[seat]
    reducer: Reducer | None = None
    table = KINDS[run.kind][0] == "table"

    async def act(ws: ClientConnection, version: int, status: str, legal: list[str]) -> bool:
        """Think, then move (or ask for the next mesa); whether to drop the socket now."""
        await asyncio.sleep(rng.uniform(*args.think))
        assert reducer is not None
        if reducer.state.get("state") != version or run.done.is_set():
            return False  # the table moved on meanwhile
        if status == "finished":
            if run.finished < run.target:
                await ws.send(json.dumps({"v": 2, "type": "rematch" if table else "next"}))
            return False
        tally.moves += 1
        await ws.send(json.dumps({"v": 2, "type": "move", "move": rng.choice(legal), "state": version}))
        return rng.random() < args.drops

    while not run.done.is_set():
        join: dict[str, Any] = {"v": 2, "type": "join", "room": run.room, "token": token}
        if reducer is not None and reducer.state and rng.random() < 0.5:
            join["since"] = reducer.state["state"]
            tally.resumes += 1
        else:
            reducer = Reducer(keep=False)
            tally.snapshots += 1
        drop = False
        try:
            async with connect(
                f"{ws_url}?room={run.room}", max_size=2**22, ping_interval=None, open_timeout=120
            ) as ws:
                await ws.send(json.dumps(join))
                run.connected += 1
                acting: asyncio.Task[bool] | None = None
                acted: int | None = None  #: the version last acted on with this socket
                closed = asyncio.ensure_future(run.done.wait())
                receive: asyncio.Future[Any] | None = None
                try:
                    while not drop:
                        if receive is None:
                            receive = asyncio.ensure_future(ws.recv())
                        waits = {receive, closed} | ({acting} if acting is not None else set())
                        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
                        if acting is not None and acting.done():
                            drop = acting.result()
                            acting = None
                        if closed.done() or drop:
                            break
                        if receive.done():
                            frame = json.loads(receive.result())
                            receive = None
                            if frame["type"] == "error":
                                code = frame["code"]
                                tally.errors[code] = tally.errors.get(code, 0) + 1
                                if code not in EXPECTED_ERRORS:
                                    tally.unexpected.append(f"{run.kind} {run.room} seat {seat}: {frame}")
                                acted = None  # look again at the state held (a person would)
                            elif frame["type"] in ("snapshot", "event", "resumed", "table"):
                                reducer.apply(frame)
                                if frame["type"] != "table":
                                    run.note(reducer.state, time.monotonic())
                        state = reducer.state
                        if acting is not None or not state or state["state"] == acted:
                            continue
                        status = state["status"]
                        if (status == "playing" and state["legal"]) or status == "finished":
                            acted = state["state"]
                            acting = asyncio.create_task(act(ws, acted, status, list(state["legal"])))
                    if drop:
                        tally.drops += 1
                        ws.transport.abort()  # the connection is lost, not closed politely
                finally:
                    closed.cancel()
                    if receive is not None:
                        receive.cancel()
                    if acting is not None:
                        acting.cancel()
                    run.connected -= 1
                    if run.connected == 0:
                        run.emptied += 1
        except (ConnectionClosed, OSError, InvalidHandshake) as exc:
            if not drop and not run.done.is_set():
                tally.closed += 1
                tally.unexpected.append(f"{run.kind} {run.room} seat {seat}: socket lost: {exc!r}")
                await asyncio.sleep(1.0)
        if drop:
            await asyncio.sleep(rng.uniform(*args.away))


async def watchdog(base: str, runs: list[Run], args: argparse.Namespace, stop: asyncio.Event) -> None:
    """Report a table that has not changed for ``--stall`` seconds while someone is at it, and the
    progress every 30 s (on standard error)."""
    began = said = time.monotonic()
    async with httpx.AsyncClient(timeout=60) as client:
        while not stop.is_set():
            await asyncio.sleep(min(5.0, args.stall / 4))
            now = time.monotonic()
            if now - said >= 30:
                said = now
                done = sum(r.done.is_set() for r in runs)
                mesas = sum(r.finished for r in runs)
                print(
                    f"{now - began:6.0f} s: {mesas} mesas finished, {done} of {len(runs)} tables done, "
                    f"load {os.getloadavg()[0]:.1f}",
                    file=sys.stderr,
                    flush=True,
                )
            for run in runs:
                if run.done.is_set() or run.connected == 0 or now - run.changed < args.stall:
                    continue
                version = run.last.get("state")
                if run.stalls and run.stalls[-1]["version"] == version:
                    continue
                changed = run.changed
                seen = None
                if KINDS[run.kind][0] == "table":
                    with contextlib.suppress(httpx.HTTPError, ValueError):
                        seen = (await client.get(f"{base}/api/tables/{run.room}")).json()
                if run.changed != changed:  # it went on while the server was asked
                    continue
                stall = {
                    "kind": run.kind,
                    "room": run.room,
                    "version": version,
                    "for_s": round(now - changed, 1),
                    "mover": mover(run.last) if run.last else None,
                    "turn": run.last.get("view", {}).get("turn"),
                    "people_connected": run.connected,
                    "seats_seen": run.last.get("seats"),
                    "server_says": seen,
                }
                run.stalls.append(stall)
                print(f"stalled: {json.dumps(stall)}", file=sys.stderr, flush=True)


async def drive(base: str, args: argparse.Namespace, pid: int) -> dict[str, Any]:
    kinds = [args.kinds[i % len(args.kinds)] for i in range(args.tables)]
    limit = asyncio.Semaphore(8)

    async def made(index: int, kind: str) -> Run:
        async with limit:
            return await create(base, args, index, kind)

    runs = list(await asyncio.gather(*(made(i, k) for i, k in enumerate(kinds))))
    ws_url = base.replace("http", "ws", 1) + "/ws"
    tally = Tally()
    rng = random.Random(args.seed)
    start = time.monotonic()
    for run in runs:
        run.changed = run.mesa_started = start
    before = cpu_sample(pid)
    load_before = os.getloadavg()
    stop = asyncio.Event()
    dog = asyncio.create_task(watchdog(base, runs, args, stop))
    people = [
        asyncio.create_task(person(ws_url, run, seat, args, random.Random(rng.random()), tally))
        for run in runs
        for seat in run.tokens
    ]
    everyone = asyncio.gather(*people, return_exceptions=True)
    try:
        async with asyncio.timeout(args.minutes * 60):
            outcomes = await asyncio.shield(everyone)
    except TimeoutError:
        for run in runs:
            run.done.set()
        outcomes = await everyone
    after = cpu_sample(pid)
    load_after = os.getloadavg()
    stop.set()
    dog.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await dog
    crashed = [f"{type(o).__name__}: {o}" for o in outcomes if isinstance(o, BaseException)]
    wall = after.at - before.at
    busy = (after.machine[0] - before.machine[0]) / max(1, after.machine[1] - before.machine[1])
    children = sum(after.children.get(c, 0.0) - before.children.get(c, 0.0) for c in after.children)
    waits = [(w, who, run.kind) for run in runs for w, who in run.computer_waits()]
    unfinished = [
        {"kind": r.kind, "room": r.room, "finished": r.finished, "of": r.target, "state": r.last.get("state")}
        for r in runs
        if r.finished < r.target
    ]
    per_kind: dict[str, Any] = {}
    for kind in args.kinds:
        mine = [r for r in runs if r.kind == kind]
        per_kind[kind] = {
            "tables": len(mine),
            "mesas": sum(r.finished for r in mine),
            "mesa_s": summary([s for r in mine for s in r.mesa_seconds]),
            "computer_wait_ms": summary([w for w, _, k in waits if k == kind]),
        }
    return {
        "tables": args.tables,
        "kinds": args.kinds,
        "level": args.level,
        "rules": args.rules.get("rules"),
        "think": list(args.think),
        "drops": args.drops,
        "away": list(args.away),
        "grace": args.grace,
        "bot_delay": args.bot_delay,
        "workers": args.workers,
        "seconds": round(wall, 1),
        "mesas_finished": sum(r.finished for r in runs),
        "mesas_wanted": sum(r.target for r in runs),
        "every_mesa_finished": not unfinished,
        "unfinished": unfinished,
        "stalls": [s for r in runs for s in r.stalls],
        "computer_wait_ms": summary([w for w, _, _ in waits]),
        "stand_in_wait_ms": summary([w for w, who, _ in waits if who == "stand_in"]),
        "per_kind": per_kind,
        "person_moves": tally.moves,
        "drops_made": tally.drops,
        "rejoins_since": tally.resumes,
        "joins_snapshot": tally.snapshots,
        "errors": tally.errors,
        "unexpected": tally.unexpected[:20],
        "client_crashes": crashed[:20],
        "sockets_lost": tally.closed,
        "server_cpu_pct": round(100 * (after.server - before.server) / wall, 1),
        "workers_cpu_pct": round(100 * children / wall, 1),
        "driver_cpu_pct": round(100 * (after.me - before.me) / wall, 1),
        "machine_busy_pct": round(100 * busy * (os.cpu_count() or 1), 1),
        "loadavg_before": [round(x, 2) for x in load_before],
        "loadavg_after": [round(x, 2) for x in load_after],
    }


def kind_list(text: str) -> list[str]:
    kinds = [k for k in text.split(",") if k]
    bad = [k for k in kinds if k not in KINDS]
    if bad or not kinds:
        raise argparse.ArgumentTypeError(f"kinds are some of {', '.join(KINDS)}, not {text!r}")
    return kinds


def rules_option(text: str) -> dict[str, Any]:
    try:
        rules = json.loads(text)
    except ValueError:
        rules = None
    if not isinstance(rules, dict):
        raise argparse.ArgumentTypeError(f"--rules is a JSON object of rules options, not {text!r}")
    return {"rules": rules}


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mesas", type=int, default=300, help="mesas to finish, at least (300)")
    parser.add_argument("--tables", type=int, default=120, help="tables playing at once (120)")
    parser.add_argument("--kinds", type=kind_list, default=list(KINDS), help="kinds of table, in turn")
    parser.add_argument("--level", default="dificil", help="the computers' level (dificil)")
    parser.add_argument(
        "--rules",
        type=rules_option,
        default={},
        help='rules as POST /api/tables takes them, e.g. {"preset": "a_todo_rigor", "chicas": 1}',
    )
    parser.add_argument("--think", type=think_range, default=(0.05, 0.5), help="think time, s (0.05-0.5)")
    parser.add_argument("--drops", type=float, default=0.02, help="chance of a drop after a move (0.02)")
    parser.add_argument("--away", type=think_range, default=(0.2, 6.0), help="seconds away (0.2-6)")
    parser.add_argument("--grace", type=float, default=2.0, help="the tables' grace, s (2)")
    parser.add_argument("--stall", type=float, default=60.0, help="seconds unchanged that make a stall (60)")
    parser.add_argument("--minutes", type=float, default=30.0, help="the longest the soak runs (30)")
    parser.add_argument("--bot-delay", type=float, default=0.05, help="--bot-delay of the server (0.05)")
    parser.add_argument("--workers", type=int, default=None, help="--workers of the server (its default)")
    parser.add_argument("--serve-arg", action="append", default=[], help="another option for cuarenta serve")
    parser.add_argument("--seed", type=int, default=1, help="seed of the people's choices")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    if not 1 <= args.tables <= 1000 or not 1 <= args.mesas <= 10000 or not 0 < args.minutes <= 240:
        parser.error("--tables must be 1..1000, --mesas 1..10000 and --minutes up to 240")
    args.per_table = -(-args.mesas // args.tables)
    args.gc_trace, args.no_gc_policy = False, False  # what start_server reads besides ours
    with served(args, "cuarenta-soak-") as server:
        figures = asyncio.run(drive(server.base, args, server.proc.pid))
        log = server.stop()
    figures["python"] = platform.python_version()
    figures["cpus"] = os.cpu_count()
    if "Traceback" in log:
        figures["server_log_tail"] = log[-3000:]
    print(json.dumps(figures, indent=1))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n")
    return figures


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        main()
