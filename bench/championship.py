"""A championship of 128 pairs on one ``cuarenta serve`` process: how long its round takes to open its 64
tables at once, and how long after a result the public standings show it (issue 19's "Measured").

Starts ``cuarenta serve`` on a free loopback port with a temporary data directory, creates a Swiss
championship (``--pairs``, ``--rounds``; the partida is ``--chicas`` chicas of the ``campeonato`` rules),
registers half the pairs as people (with the registration code) and half as computers (``--level``), and
starts it. Then:

* **opening**: the time ``POST /start`` takes to answer (the round's tables are opened before it answers),
  and for the following rounds, the time from the result that closed a round to the public page listing
  the next round's tables;
* **people**: each person's pair takes its seats (``POST /sit``) and plays over its own WebSocket at
  ``--think`` (a random legal move on its turn); every table has a watcher socket too;
* **result → standings**: the watcher records when its table's mesa is finished (the move that ends the
  partida, acknowledged once stored); a poller reads the public page ``GET /api/championships/{id}`` every
  ``--poll`` seconds and records when that partida shows its result. The lag is the difference (its
  resolution is the poll interval plus one GET);
* **reads**: the time of the public page and of ``standings.json`` with 128 pairs, and the server's CPU
  and resident memory.

Run from the repository root (loopback only; bounded by ``--rounds`` and ``--seconds``)::

    python bench/championship.py --pairs 128 --rounds 2 --chicas 1

With ``--health-sizes 64,256,512`` it measures instead how the **event loop** fares while a round opens
(issue 25): for each size a fresh server (``--championship-pairs`` raised to the size when the server has
that option), that many pairs of people registered (none of them sits: no table plays, so nothing but the
championship loads the process), and a prober asking ``GET /api/health`` every ``--probe`` seconds the whole
time. It notes the time ``POST /start`` takes and ``/api/health``'s latency meanwhile, then gives every
partida of round 1 a walkover (the judge's, one at a time): the last one closes the round, so the server
pairs the Swiss round 2 (the matching) and opens its tables; ``/api/health``'s latency is noted over that
answer too, with the time from the last walkover sent to round 2 listed on the public page, and the public
page's time at that size::

    python bench/championship.py --health-sizes 64,128,256,512,1000

With ``--pairing-sizes 256,512,1000`` it measures the library alone, in this process: the CPU seconds of
opening round 1 (by seed) and of pairing round 2 (the Swiss matching, after a walkover for every partida of
round 1), of ``to_public()`` and of its JSON text, and of FastAPI's ``jsonable_encoder`` over it (what the
public page cost when it was encoded per request) — CPU time, so the figures hold on a busy machine::

    python bench/championship.py --pairing-sizes 256,512,1000

With ``--loop-sizes 256,512,1000`` it runs the app in this process (FastAPI's ``TestClient``, no limits per
address) with a ticker on its event loop every 2 ms, and notes the event loop thread's CPU time between two
ticks — the longest stretch the loop held on to the CPU without answering anyone else, which a busy machine
does not inflate (wall-clock latencies it does) — while ``POST /start`` opens round 1 and while the last
walkover of round 1 pairs and opens round 2, each followed by a read of the public page::

    python bench/championship.py --loop-sizes 256,512,1000

Figures are recorded in docs/performance.md ("A championship of 128 pairs", "How large a championship one
process runs"). This is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import platform
import random
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_load import cpu_sample, serve_help, start_server, stop_server, summary, think_range
from tables_load import rss_mb


@dataclass
class Run:
    """What the run saw: each partida's finish (at its watcher) and its result on the public page."""

    base: str
    cid: str
    organiser: str
    tokens: dict[str, str]  #: pair id → the pair's token (people pairs)
    finished_at: dict[str, float] = field(default_factory=dict)
    shown_at: dict[str, float] = field(default_factory=dict)
    round_opened_at: dict[int, float] = field(default_factory=dict)
    page_times: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    done: asyncio.Event = field(default_factory=asyncio.Event)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def create(
    client: httpx.AsyncClient, args: argparse.Namespace
) -> tuple[dict[str, str], dict[str, str]]:
    """The championship and its pairs: people pairs' tokens by pair id."""
    made = (
        await client.post(
            "/api/championships",
            json={
                "name": "Copa de banco",
                "rounds": args.rounds,
                "rules": {"preset": "campeonato", "chicas": args.chicas},
                "wait_minutes": 60,
            },
        )
    ).json()
    cid = made["championship"]
    tokens: dict[str, str] = {}
    for i in range(args.pairs):
        if i % 2:
            body: dict[str, Any] = {
                "name": f"Máquina {i}",
                "players": [f"M{i}a", f"M{i}b"],
                "computer": args.level,
            }
            answer = await client.post(
                f"/api/championships/{cid}/pairs", json=body, headers=bearer(made["organiser"])
            )
        else:
            body = {"name": f"Pareja {i}", "players": [f"P{i}a", f"P{i}b"], "code": made["register"]}
            answer = await client.post(f"/api/championships/{cid}/pairs", json=body)
        answer.raise_for_status()
        if i % 2 == 0:
            tokens[answer.json()["pair"]] = answer.json()["token"]
    return made, tokens


async def person(run: Run, room: str, token: str, think: tuple[float, float]) -> None:
    """A person at a championship table: a random legal move on its turn, until the mesa is finished."""
    ws_url = run.base.replace("http", "ws", 1) + "/ws"
    try:
        async with connect(ws_url, max_size=None) as ws:
            await ws.send(json.dumps({"v": 1, "type": "join", "room": room, "token": token}))
            async for raw in ws:
                message = json.loads(raw)
                if message["type"] == "error" and message["code"] not in ("stale", "not_your_turn"):
                    run.errors.append(f"{room}: {message['code']} {message['message']}")
                if message["type"] != "state":
                    continue
                if message["status"] == "finished":
                    return
                if message["legal"]:
                    await asyncio.sleep(random.uniform(*think))
                    move = random.choice(message["legal"])
                    await ws.send(
                        json.dumps({"v": 1, "type": "move", "move": move, "state": message["state"]})
                    )
    except ConnectionClosed as exc:
        run.errors.append(f"{room}: closed {exc}")


async def watcher(run: Run, partida: str, room: str) -> None:
    """A spectator of one table: the moment its mesa (the partida) is finished."""
    ws_url = run.base.replace("http", "ws", 1) + "/ws"
    async with connect(ws_url, max_size=None) as ws:
        await ws.send(json.dumps({"v": 1, "type": "watch", "room": room}))
        async for raw in ws:
            message = json.loads(raw)
            if message["type"] == "state" and message["status"] == "finished":
                run.finished_at[partida] = time.monotonic()
                return


async def seat_people(
    client: httpx.AsyncClient, run: Run, round_no: int, think: tuple[float, float]
) -> list[asyncio.Task[None]]:
    """Every people pair of the round sits both players; a person and a watcher per seat and table."""
    public = (await client.get(f"/api/championships/{run.cid}")).json()
    tasks = []
    for partida in public["rounds"][round_no]:
        room = public["tables"].get(partida["id"])
        if room is None:  # a bye
            continue
        tasks.append(asyncio.create_task(watcher(run, partida["id"], room)))
        for pair in partida["pairs"]:
            token = run.tokens.get(pair)
            if token is None:
                continue
            for player in (0, 1):
                sat = await client.post(
                    f"/api/championships/{run.cid}/sit", json={"player": player}, headers=bearer(token)
                )
                if sat.status_code != 200:
                    run.errors.append(f"sit {pair}: {sat.status_code} {sat.text}")
                    continue
                tasks.append(asyncio.create_task(person(run, sat.json()["room"], sat.json()["token"], think)))
    return tasks


async def poller(client: httpx.AsyncClient, run: Run, args: argparse.Namespace) -> None:
    """The public page every ``--poll`` seconds: when each partida shows its result, when a round opens."""
    while not run.done.is_set():
        began = time.monotonic()
        answer = await client.get(f"/api/championships/{run.cid}")
        now = time.monotonic()
        run.page_times.append(now - began)
        public = answer.json()
        for number, partidas in enumerate(public["rounds"]):
            if number not in run.round_opened_at and all(
                p["id"] in public["tables"] or p["pairs"][1] is None for p in partidas
            ):
                run.round_opened_at[number] = now
            for partida in partidas:
                if partida["status"] in ("finished", "walkover", "bye") and partida["id"] not in run.shown_at:
                    run.shown_at[partida["id"]] = now
        if public["status"] == "finished":
            run.done.set()
        await asyncio.sleep(args.poll)


async def drive(args: argparse.Namespace, base: str, pid: int) -> dict[str, Any]:
    think = think_range(args.think)
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        made, tokens = await create(client, args)
        run = Run(base, made["championship"], made["organiser"], tokens)
        cpu_start = cpu_sample(pid)
        began = time.monotonic()
        started = await client.post(f"/api/championships/{run.cid}/start", headers=bearer(run.organiser))
        start_seconds = time.monotonic() - began
        started.raise_for_status()
        opened = len(started.json()["opened"])
        poll = asyncio.create_task(poller(client, run, args))
        tasks: list[asyncio.Task[None]] = []
        seated: set[int] = set()
        deadline = time.monotonic() + args.seconds
        while not run.done.is_set() and time.monotonic() < deadline:
            for number in sorted(run.round_opened_at):
                if number not in seated:
                    seated.add(number)
                    tasks += await seat_people(client, run, number, think)
            await asyncio.sleep(0.2)
        run.done.set()
        await poll
        for task in tasks:
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.gather(*tasks, return_exceptions=True)
        cpu_end = cpu_sample(pid)
        rss = rss_mb(pid)
        public = (await client.get(f"/api/championships/{run.cid}")).json()
        reads = {"page": [], "standings": []}
        for _ in range(20):
            for key, url in (
                ("page", f"/api/championships/{run.cid}"),
                ("standings", f"/api/championships/{run.cid}/standings.json"),
            ):
                t0 = time.monotonic()
                (await client.get(url)).raise_for_status()
                reads[key].append(time.monotonic() - t0)
    lags = [run.shown_at[p] - t for p, t in run.finished_at.items() if p in run.shown_at]
    # a round's opening: from the last result of the round before (at its watcher) to the page listing it
    openings = []
    for number, at in sorted(run.round_opened_at.items()):
        if number == 0:
            continue
        before = [
            run.finished_at[p["id"]] for p in public["rounds"][number - 1] if p["id"] in run.finished_at
        ]
        if before:
            openings.append(at - max(before))
    wall = cpu_end.at - cpu_start.at
    figures = {
        "pairs": args.pairs,
        "rounds": args.rounds,
        "chicas": args.chicas,
        "status": public["status"],
        "start_answer_s": round(start_seconds, 3),
        "tables_opened_by_start": opened,
        "next_round_open_after_last_result_s": [round(x, 3) for x in openings],
        "result_to_standings_ms": summary(lags),
        "results_measured": len(lags),
        "public_page_ms": summary(reads["page"]),
        "standings_json_ms": summary(reads["standings"]),
        "poll_page_ms": summary(run.page_times),
        "errors": run.errors[:10],
        "error_count": len(run.errors),
        "wall_s": round(wall, 1),
        "server_cpu_share": round((cpu_end.server - cpu_start.server) / wall, 3) if wall else None,
        "worker_cpu_share": round(
            sum(cpu_end.children.get(c, 0) - cpu_start.children.get(c, 0) for c in cpu_end.children) / wall, 3
        )
        if wall
        else None,
        "server_rss_mb": rss,
        "python": platform.python_version(),
    }
    return figures


# -- the event loop while a round opens (--health-sizes) ---------------------------------------------------
@dataclass
class Probe:
    """``GET /api/health`` every ``every`` seconds: each answer's (sent at, latency)."""

    every: float
    samples: list[tuple[float, float]] = field(default_factory=list)
    stop: asyncio.Event = field(default_factory=asyncio.Event)

    async def run(self, client: httpx.AsyncClient) -> None:
        while not self.stop.is_set():
            began = time.monotonic()
            try:
                (await client.get("/api/health")).raise_for_status()
            except httpx.HTTPError:
                self.samples.append((began, float("inf")))
            else:
                self.samples.append((began, time.monotonic() - began))
            await asyncio.sleep(self.every)

    def between(self, start: float, end: float) -> list[float]:
        """Latencies of the probes that were in flight at some moment of [start, end]."""
        return [lat for at, lat in self.samples if at <= end and at + lat >= start]


async def register_people(client: httpx.AsyncClient, cid: str, code: str, pairs: int) -> None:
    for i in range(pairs):
        body = {"name": f"Pareja {i}", "players": [f"P{i}a", f"P{i}b"], "code": code}
        answer = await client.post(f"/api/championships/{cid}/pairs", json=body)
        answer.raise_for_status()


async def health_at(args: argparse.Namespace, base: str, pid: int, pairs: int) -> dict[str, Any]:
    """One size: start, then round 2 opened by the walkovers of round 1, with the prober running."""
    probe = Probe(args.probe)
    async with (
        httpx.AsyncClient(base_url=base, timeout=120) as client,
        httpx.AsyncClient(base_url=base, timeout=120) as prober,
    ):
        made = (
            await client.post(
                "/api/championships", json={"name": "Copa grande", "rounds": 3, "wait_minutes": 240}
            )
        ).json()
        cid, organiser, judge = made["championship"], made["organiser"], made["judge"]
        await register_people(client, cid, made["register"], pairs)
        probing = asyncio.create_task(probe.run(prober))
        await asyncio.sleep(0.5)  # a few quiet probes first
        quiet = [lat for _, lat in probe.samples]
        began = time.monotonic()
        started = await client.post(f"/api/championships/{cid}/start", headers=bearer(organiser))
        start_s = time.monotonic() - began
        started.raise_for_status()
        await asyncio.sleep(0.5)
        start_health = probe.between(began, time.monotonic())
        public = (await client.get(f"/api/championships/{cid}")).json()
        partidas = [p for p in public["rounds"][0] if p["pairs"][1] is not None]
        for partida in partidas[:-1]:
            answer = await client.post(
                f"/api/championships/{cid}/partidas/{partida['id']}/walkover",
                json={"winner": partida["pairs"][0], "reason": "bench"},
                headers=bearer(judge),
            )
            answer.raise_for_status()
        last = partidas[-1]
        began = time.monotonic()
        closing = await client.post(
            f"/api/championships/{cid}/partidas/{last['id']}/walkover",
            json={"winner": last["pairs"][0], "reason": "bench"},
            headers=bearer(judge),
        )
        closing_s = time.monotonic() - began
        closing.raise_for_status()
        listed_s = None
        while time.monotonic() - began < args.seconds:
            t0 = time.monotonic()
            public = (await client.get(f"/api/championships/{cid}")).json()
            page_s = time.monotonic() - t0
            if len(public["rounds"]) > 1 and all(
                p["id"] in public["tables"] or p["pairs"][1] is None for p in public["rounds"][1]
            ):
                listed_s = time.monotonic() - began
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.5)
        round_health = probe.between(began, time.monotonic())
        pages = []
        for _ in range(5):
            t0 = time.monotonic()
            (await client.get(f"/api/championships/{cid}")).raise_for_status()
            pages.append(time.monotonic() - t0)
        probe.stop.set()
        await probing
    return {
        "pairs": pairs,
        "quiet_health_ms": summary(quiet),
        "start_answer_s": round(start_s, 3),
        "health_during_start_ms": summary(start_health),
        "last_walkover_answer_s": round(closing_s, 3),
        "round_2_listed_after_s": None if listed_s is None else round(listed_s, 3),
        "health_during_round_2_ms": summary(round_health),
        "public_page_ms": summary(pages),
        "last_page_s": round(page_s, 3),
        "server_rss_mb": rss_mb(pid),
    }


def pairing_at(pairs: int) -> dict[str, Any]:
    """The library's CPU seconds at ``pairs`` pairs (module docstring)."""
    from fastapi.encoders import jsonable_encoder

    from cuarenta.championship import Championship, Register, Settings, Start, Walkover

    champ = Championship.new(Settings("Copa grande", rounds=3), secret=2024)
    for i in range(pairs):
        champ.apply(Register(f"Pareja {i}", (f"P{i}a", f"P{i}b")))

    def cpu(work: Any) -> float:
        began = time.process_time()
        work()
        return round(time.process_time() - began, 4)

    start = cpu(lambda: champ.apply(Start()))
    partidas = [p for p in champ.rounds[0] if p.pairs[1] is not None]
    for partida in partidas[:-1]:
        champ.apply(Walkover(partida.id, partida.pairs[0], "bench", "judge"))
    last = partidas[-1]
    round_2 = cpu(lambda: champ.apply(Walkover(last.id, last.pairs[0], "bench", "judge")))
    public: dict[str, Any] = {}
    to_public = cpu(lambda: public.update(champ.to_public()))
    return {
        "pairs": pairs,
        "start_cpu_s": start,
        "round_2_pairing_cpu_s": round_2,
        "to_public_cpu_s": to_public,
        "json_dumps_cpu_s": cpu(lambda: json.dumps(public)),
        "jsonable_encoder_cpu_s": cpu(lambda: jsonable_encoder(public)),
        "copy_cpu_s": cpu(champ.copy),
    }


def loop_at(pairs: int) -> dict[str, Any]:
    """The event loop thread's longest CPU stretches at ``pairs`` pairs (module docstring)."""
    from fastapi.testclient import TestClient

    from cuarenta.server.edge.app import create_app
    from cuarenta.server.edge.ratelimits import Limits
    from cuarenta.server.ops.gcpolicy import GcPolicy

    policy = GcPolicy()  # as cuarenta serve installs it: no full collection over the whole heap
    policy.install()
    gaps: list[float] = []
    ticking = {"on": True}

    async def ticker() -> None:
        last = time.thread_time()
        while ticking["on"]:
            await asyncio.sleep(0.002)
            now = time.thread_time()
            gaps.append(now - last)
            last = now

    def longest() -> float:
        found = round(max(gaps, default=0.0) * 1000, 1)
        gaps.clear()
        return found

    limits = Limits(rooms_per_minute=0, http_per_minute=0)
    with (
        tempfile.TemporaryDirectory(prefix="cuarenta-champ-loop-") as tmp,
        TestClient(
            create_app(Path(tmp), bot_delay=0, workers=0, championship_pairs=0, limits=limits)
        ) as client,
    ):
        made = client.post(
            "/api/championships", json={"name": "Copa", "rounds": 3, "wait_minutes": 240}
        ).json()
        cid, api = made["championship"], f"/api/championships/{made['championship']}"
        for i in range(pairs):
            body = {"name": f"Pareja {i}", "players": [f"P{i}a", f"P{i}b"], "code": made["register"]}
            client.post(f"{api}/pairs", json=body).raise_for_status()
        assert client.portal is not None
        client.portal.start_task_soon(ticker)
        time.sleep(0.3)
        longest()
        began = time.monotonic()
        client.post(f"{api}/start", headers=bearer(made["organiser"])).raise_for_status()
        start_s = time.monotonic() - began
        public = client.get(api).json()
        start_ms = longest()
        partidas = [p for p in public["rounds"][0] if p["pairs"][1] is not None]
        for partida in partidas:
            if partida is partidas[-1]:
                longest()
                began = time.monotonic()
            answer = client.post(
                f"{api}/partidas/{partida['id']}/walkover",
                json={"winner": partida["pairs"][0], "reason": "bench"},
                headers=bearer(made["judge"]),
            )
            answer.raise_for_status()
        round_s = time.monotonic() - began
        client.get(api).raise_for_status()
        round_ms = longest()
        ticking["on"] = False
        del cid
    policy.uninstall()
    return {
        "pairs": pairs,
        "start_answer_s": round(start_s, 3),
        "start_loop_cpu_max_ms": start_ms,
        "round_2_answer_s": round(round_s, 3),
        "round_2_loop_cpu_max_ms": round_ms,
    }


def health_sizes(args: argparse.Namespace) -> list[dict[str, Any]]:
    results = []
    for pairs in (int(x) for x in args.health_sizes.split(",")):
        serve = list(args.serve_arg)
        if "--championship-pairs" in serve_help():
            serve.append(f"--championship-pairs {pairs}")
        sized = argparse.Namespace(**{**vars(args), "serve_arg": serve})
        with tempfile.TemporaryDirectory(prefix="cuarenta-champ-health-") as tmp:
            proc, base = start_server(Path(tmp) / "data", sized)
            try:
                figures = asyncio.run(health_at(args, base, proc.pid, pairs))
            finally:
                stop_server(proc)
        print(json.dumps(figures), file=sys.stderr, flush=True)
        results.append(figures)
    return results


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=128)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--chicas", type=int, default=1, choices=(1, 2, 3))
    parser.add_argument("--level", default="facil")
    parser.add_argument("--think", default="0.2-0.6", help="a person's think time, seconds (LOW-HIGH)")
    parser.add_argument("--poll", type=float, default=0.1, help="the public page's poll interval, seconds")
    parser.add_argument("--seconds", type=float, default=900, help="a bound on the whole run")
    parser.add_argument(
        "--bot-delay", type=float, default=0.3, help="the computers' pace (serve --bot-delay)"
    )
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--serve-arg", action="append", default=[])
    parser.add_argument(
        "--health-sizes", default=None, help="measure /api/health while rounds open, at these sizes (64,256…)"
    )
    parser.add_argument("--probe", type=float, default=0.02, help="the health prober's interval, seconds")
    parser.add_argument("--pairing-sizes", default=None, help="the library's CPU at these sizes (256,512…)")
    parser.add_argument(
        "--loop-sizes", default=None, help="the event loop's longest CPU stretch at these sizes"
    )
    args = parser.parse_args(argv)
    args.gc_trace = False
    args.no_gc_policy = False
    if args.loop_sizes:
        sizes = [loop_at(int(x)) for x in args.loop_sizes.split(",")]
        print(json.dumps({"sizes": sizes, "python": platform.python_version()}, indent=2))
        return
    if args.pairing_sizes:
        sizes = [pairing_at(int(x)) for x in args.pairing_sizes.split(",")]
        print(json.dumps({"sizes": sizes, "python": platform.python_version()}, indent=2))
        return
    if args.health_sizes:
        print(json.dumps({"sizes": health_sizes(args), "python": platform.python_version()}, indent=2))
        return
    with tempfile.TemporaryDirectory(prefix="cuarenta-champ-bench-") as tmp:
        data = Path(tmp) / "data"
        proc, base = start_server(data, args)
        try:
            result = asyncio.run(drive(args, base, proc.pid))
        finally:
            stop_server(proc)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
