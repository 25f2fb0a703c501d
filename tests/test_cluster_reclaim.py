"""Taking a seat back and handing one over in a cluster (docs/tables.md "Taking a seat back"): real
PostgreSQL, Redis and ``cuarenta serve --redis`` nodes (tests/support/cluster.py).

- Beto's socket is on node two; his code takes the seat back through node one: node two tells the old
  socket ``seat_reclaimed`` and closes it, the new token plays on node two, the old one is refused on both;
- the creator on node one hands over an away seat; someone new takes it through node two, mid-game.
"""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from support import cluster as cs

cs.require()

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]


async def a_table(one: str, two: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """A 1 vs 1 table made at node ``one``, Beto joining at node ``two``: both answers."""
    async with httpx.AsyncClient(timeout=10) as client:
        made = await client.post(
            f"{one}/api/tables", json={"players": 2, "name": "Ana", "rules": {"preset": "basico"}}
        )
        assert made.status_code == 200, made.text
        room = made.json()["room"]
        joined = await client.post(
            f"{two}/api/tables/{room}/join", json={"invite": made.json()["invite"], "name": "Beto"}
        )
        assert joined.status_code == 200, joined.text
    return made.json(), joined.json()


def test_a_seat_taken_back_on_one_node_closes_the_old_socket_on_another(cluster: cs.Cluster) -> None:
    _, one = cluster.node("n1")
    _, two = cluster.node("n2")

    async def run() -> None:
        made, joined = await a_table(one, two)
        room = made["room"]
        ana = cs.Person(one, room, made["token"])
        beto = cs.Person(two, room, joined["token"])
        assert (await ana.open())["type"] == "state"
        assert (await beto.open())["type"] == "state"
        await cs.play_turns([ana, beto], 2)
        hand = sorted(beto.last["view"]["hand"])  # type: ignore[index]
        async with httpx.AsyncClient(timeout=10) as client:
            back = await client.post(
                f"{one}/api/tables/{room}/reclaim", json={"invite": made["invite"], "code": joined["code"]}
            )
            assert back.status_code == 200, back.text
            taken = back.json()
            told = await beto.until(lambda m: m["type"] == "error", seconds=10)
            assert told["code"] == "seat_reclaimed"
            for base in (one, two):
                old = await client.get(
                    f"{base}/api/tables/{room}", headers={"Authorization": f"Bearer {joined['token']}"}
                )
                assert old.status_code == 410 and old.json()["code"] == "seat_reclaimed"
        await beto.close()
        phone = cs.Person(two, room, taken["token"])
        state = await phone.open()
        assert state["type"] == "state" and state["seat"] == 1 and sorted(state["view"]["hand"]) == hand
        stale = cs.Person(two, room, joined["token"])
        assert (await stale.open())["code"] == "seat_reclaimed"
        await stale.close()
        await ana.state_at_least(state["state"])
        await cs.play_turns([ana, phone], 2)
        for p in (ana, phone):
            await p.close()

    asyncio.run(run())


def test_a_seat_handed_over_on_one_node_is_taken_through_another(cluster: cs.Cluster) -> None:
    _, one = cluster.node("n1")
    _, two = cluster.node("n2")

    async def run() -> None:
        made, joined = await a_table(one, two)
        room = made["room"]
        ana = cs.Person(one, room, made["token"])
        beto = cs.Person(two, room, joined["token"])
        assert (await ana.open())["type"] == "state"
        assert (await beto.open())["type"] == "state"
        await cs.play_turns([ana, beto], 2)
        await ana.seats_show(lambda seats: seats[1]["connected"])  # node one knows Beto is there
        await beto.close()  # Beto's phone dies
        await ana.until(lambda m: m["type"] == "table" and not m["seats"][1]["connected"])
        async with httpx.AsyncClient(timeout=10) as client:
            bearer = {"Authorization": f"Bearer {made['token']}"}
            given = await client.post(f"{one}/api/tables/{room}/seats/1/handover", headers=bearer)
            assert given.status_code == 200, given.text
            assert given.json()["seats"][1]["vacant"]
            dani = await client.post(
                f"{two}/api/tables/{room}/join", json={"invite": made["invite"], "name": "Dani"}
            )
            assert dani.status_code == 200, dani.text
            assert dani.json()["seat"] == 1
        newcomer = cs.Person(two, room, dani.json()["token"])
        state = await newcomer.open()
        assert state["type"] == "state" and state["seats"][1]["name"] == "Dani"
        await ana.state_at_least(state["state"])
        await newcomer.state_at_least(ana.last["state"])  # type: ignore[index]
        await cs.play_turns([ana, newcomer], 2)
        old = cs.Person(one, room, joined["token"])
        assert (await old.open())["code"] == "seat_given"
        for p in (ana, newcomer, old):
            await p.close()

    asyncio.run(run())
