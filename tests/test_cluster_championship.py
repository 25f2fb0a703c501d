"""A championship on two nodes (docs/championships.md "Restart and cluster"): real PostgreSQL, Redis, two
``cuarenta serve --redis`` nodes and a worker (tests/support/cluster.py).

- pairs registered through both nodes, and seeds sent to both at once: each change is answered stored
  (200) or ``stale`` (409), and what was acknowledged is exactly what the store holds;
- the round started on one node while the other reads the championship meanwhile: each partida has one
  table, the same on both nodes (a table the other node opened too is left paused, never reported);
- a pair sits through the node that did not open its table; the judge gives a walkover through the other;
  the computers' tables report their results; both nodes show the same finished championship.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from support import cluster as cs

cs.require()

# a bound against a hang only: on the tests' 2-core machine under load one run took 220 s (two node starts
# of about 35 s each: tests/support/cluster.py START_SECONDS), most of 240
pytestmark = [pytest.mark.slow, pytest.mark.timeout(480)]

#: a partida of one chica (a custom count): the computers' tables finish soon
RULES = {"preset": "campeonato", "players": 4, "chicas": 1}


def stored_actions(cluster: cs.Cluster, cid: str) -> list[str]:
    engine = sa.create_engine(cluster.pg.url)
    try:
        with engine.connect() as conn:
            rows = conn.exec_driver_sql(
                "SELECT action FROM championship_actions WHERE championship = %s ORDER BY seq", (cid,)
            ).all()
            return [str(r[0]) for r in rows]
    finally:
        engine.dispose()


async def _copa(
    client: httpx.AsyncClient, one: str, two: str
) -> tuple[dict[str, Any], list[str], dict[str, str]]:
    """A one-round championship made through node one: its answer, its API on node one and node two, and
    the organiser's header."""
    made = (
        await client.post(f"{one}/api/championships", json={"name": "Copa", "rounds": 1, "rules": RULES})
    ).json()
    api = [f"{base}/api/championships/{made['championship']}" for base in (one, two)]
    return made, api, {"Authorization": f"Bearer {made['organiser']}"}


async def _seed_through_both(client: httpx.AsyncClient, api: list[str], organiser: dict[str, str]) -> int:
    """Each pair's seed sent to both nodes at once, until every one is acknowledged (a concurrent one is
    refused ``stale``); how many were acknowledged."""
    acknowledged = 0
    left = list(range(1, 7))
    for _ in range(20):
        answers = await asyncio.gather(
            *(
                client.post(f"{api[j % 2]}/pairs/p{i}/seed", json={"seed": i}, headers=organiser)
                for j, i in enumerate(left + left)
            )
        )
        for answer in answers:
            assert answer.status_code in (200, 409), answer.text
            if answer.status_code == 409:
                assert answer.json()["code"] == "stale"
        acknowledged += sum(a.status_code == 200 for a in answers)
        done = {int(a.request.url.path.split("/")[-2][1:]) for a in answers if a.status_code == 200}
        left = [i for i in left if i not in done]
        if not left:
            break
    assert not left
    return acknowledged


def test_a_championship_runs_the_same_on_two_nodes(cluster: cs.Cluster) -> None:
    _, one = cluster.node("n1")
    _, two = cluster.node("n2")
    cluster.worker("w1")

    async def run() -> None:
        async with httpx.AsyncClient(timeout=20) as client:
            made, api, organiser = await _copa(client, one, two)
            cid = made["championship"]
            judge = {"Authorization": f"Bearer {made['judge']}"}
            # six pairs through both nodes: p1 and p4 people, the others computers
            tokens = {}
            for i in range(1, 7):
                node = api[i % 2]
                if i in (1, 4):
                    body: dict[str, Any] = {"name": f"Pareja {i}", "players": [f"A{i}", f"B{i}"]}
                    answer = await client.post(f"{node}/pairs", json={**body, "code": made["register"]})
                    tokens[f"p{i}"] = answer.json()["token"]
                else:
                    body = {"name": f"Máquina {i}", "players": [f"M{i}", f"N{i}"], "computer": "facil"}
                    answer = await client.post(f"{node}/pairs", json=body, headers=organiser)
                assert answer.status_code == 200, answer.text
                assert answer.json()["pair"] == f"p{i}"
            acknowledged = await _seed_through_both(client, api, organiser)
            actions = stored_actions(cluster, cid)
            assert len(actions) == 6 + acknowledged  # the registrations and every acknowledged seed
            views = [(await client.get(node)).json() for node in api]
            assert [p["seed"] for p in views[0]["pairs"]] == [1, 2, 3, 4, 5, 6]
            assert views[0]["pairs"] == views[1]["pairs"]

            # started on node two while node one reads the championship meanwhile
            started, *_ = await asyncio.gather(
                client.post(f"{api[1]}/start", headers=organiser), *(client.get(api[0]) for _ in range(12))
            )
            assert started.status_code == 200, started.text
            views = [(await client.get(node)).json() for node in api]
            assert views[0]["tables"] == views[1]["tables"] and len(views[0]["tables"]) == 3
            assert len(set(views[0]["tables"].values())) == 3
            (people,) = [p for p in views[0]["rounds"][0] if set(p["pairs"]) == {"p1", "p4"}]

            # p1's players sit through node one, p4's first player through node two
            seats = []
            for node, pair, player in ((api[0], "p1", 0), (api[0], "p1", 1), (api[1], "p4", 0)):
                sat = await client.post(
                    f"{node}/sit",
                    json={"player": player},
                    headers={"Authorization": f"Bearer {tokens[pair]}"},
                )
                assert sat.status_code == 200, sat.text
                seats.append(sat.json())
            assert {s["room"] for s in seats} == {views[0]["tables"][people["id"]]}
            ana = cs.Person(two, seats[0]["room"], seats[0]["token"])  # her socket on the other node
            assert (await ana.open())["type"] == "state"
            await ana.close()
            given = await client.post(
                f"{api[1]}/partidas/{people['id']}/walkover",
                json={"winner": "p1", "reason": "la otra pareja no llegó completa"},
                headers=judge,
            )
            assert given.status_code == 200, given.text

            # the computers' tables play out and report, wherever they are
            async def finished() -> bool:
                answer = await client.get(api[0])
                assert answer.status_code == 200, answer.text
                return bool(answer.json()["status"] == "finished")

            for _ in range(1200):
                if await finished():
                    break
                await asyncio.sleep(0.1)
            views = [(await client.get(node)).json() for node in api]
            assert views[0]["status"] == views[1]["status"] == "finished", views[0]["live"]
            for key in ("rounds", "standings", "decisions", "tables"):
                assert views[0][key] == views[1][key], key
            results = {p["id"]: p["result"] for p in views[0]["rounds"][0]}
            assert results[people["id"]]["walkover"] is True and results[people["id"]]["winner"] == "p1"
            assert all(r is not None and r["by"] == "report" for p, r in results.items() if p != people["id"])
            assert (
                len(stored_actions(cluster, cid)) == 6 + acknowledged + 1 + 1 + 2
            )  # start, walkover, reports

    asyncio.run(run())


async def persons_turn(people: list[cs.Person]) -> cs.Person:
    """The person whose turn it is (reading every socket's states meanwhile), bounded by tries."""
    for _ in range(600):
        for person in people:
            if person.my_turn():
                return person
        for person in people:
            with contextlib.suppress(TimeoutError):
                await person.until(lambda m: m["type"] == "state", seconds=0.5)
    raise AssertionError("nobody's turn came")


def test_a_restart_on_one_node_stops_the_old_table_on_the_node_that_holds_its_sockets(
    cluster: cs.Cluster,
) -> None:
    """docs/championships.md "Restart": the judge restarts a partida through node one while both of its
    players' sockets are on node two; node two tells them at once that the table was replaced and refuses
    their moves there with ``table_replaced``; the pair sits again at the new table."""
    _, one = cluster.node("n1")
    _, two = cluster.node("n2")
    cluster.worker("w1")

    async def run() -> None:
        async with httpx.AsyncClient(timeout=20) as client:
            made, api, organiser = await _copa(client, one, two)
            cid = made["championship"]
            body: dict[str, Any] = {"name": "Los Ases", "players": ["Ana", "Beto"], "code": made["register"]}
            ases = (await client.post(f"{api[0]}/pairs", json=body)).json()["token"]
            body = {"name": "Los Reyes", "players": ["R1", "R2"], "computer": "facil"}
            assert (await client.post(f"{api[1]}/pairs", json=body, headers=organiser)).status_code == 200
            assert (await client.post(f"{api[0]}/start", headers=organiser)).status_code == 200
            pair = {"Authorization": f"Bearer {ases}"}
            seats = [
                (await client.post(f"{api[0]}/sit", json={"player": p}, headers=pair)).json() for p in (0, 1)
            ]
            old = seats[0]["room"]
            people = [cs.Person(two, old, s["token"]) for s in seats]  # both sockets on node two
            for person in people:
                assert (await person.open())["type"] == "state"
            mover = await persons_turn(people)  # the computers' moves come from the worker

            answer = await client.post(
                f"{api[0]}/partidas/r1t1/decisions",
                json={"decision": "restart", "reason": "se vio una carta"},
                headers={"Authorization": f"Bearer {made['judge']}"},
            )
            assert answer.status_code == 200, answer.text
            new = answer.json()["room"]
            assert new not in (None, old)
            for person in people:
                told = await person.until(
                    lambda m: m["type"] == "state" and m["table"].get("replaced") is True, seconds=60
                )
                assert told["legal"] == [] and (told["table"]["championship"], told["table"]["partida"]) == (
                    cid,
                    "r1t1",
                )
            stored = cluster.stored_state(old)
            assert mover.last is not None
            state = mover.last["state"]
            assert mover.ws is not None
            await mover.ws.send(
                json.dumps({"v": 1, "type": "move", "move": mover.last["view"]["hand"][0], "state": state})
            )
            refused = await mover.until(lambda m: m["type"] == "error", seconds=60)
            assert refused["code"] == "table_replaced"
            assert cluster.stored_state(old) == stored
            for person in people:
                await person.close()
            # the pair sits again, through node two: at the new table
            again = await client.post(f"{api[1]}/sit", json={"player": 0}, headers=pair)
            assert again.status_code == 200 and again.json()["room"] == new

    asyncio.run(run())
