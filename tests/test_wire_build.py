"""A version-2 event's public part built from the change (``WireState.build``) is the one the whole view,
diffed field by field, gives (``WireState.build_whole``): over whole mesas of random legal moves, 2 and 4
seats, automatic and manual capture (claims), each version's text byte for byte and the seats whose hand
changed. And a client that applies the built events reaches the snapshot of every version.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from cuarenta import Game, Rules
from cuarenta.server.authority.audience import fields_from_events, wired_events
from cuarenta.server.authority.model import Room
from cuarenta.server.authority.wire.events import WireState, snapshot
from cuarenta.server.authority.wire.messages import encode
from support.rooms import a_room

PRESETS = [("a_todo_rigor", 2), ("a_todo_rigor", 4), ("todo_dos", 2), ("basico", 2), ("campeonato", 4)]


def table(rules: Rules, seed: int) -> Room:
    return a_room(seed, rules.players, table=True, rules=rules)


def new_mesa(room: Room, seed: int) -> None:
    room.mesa += 1
    room.game = Game.new(room.rules, seed)
    room.state += 1
    room.mesa_state = room.state


@pytest.mark.parametrize(("preset", "players"), PRESETS)
def test_the_event_built_from_the_change_is_the_diffed_one(preset: str, players: int) -> None:
    rng = random.Random(f"{preset}{players}")
    rules = Rules.preset(preset, players=players)
    room = table(rules, seed=rng.randrange(10**6))
    built, whole = WireState(room), WireState(room)
    fast = 0
    for _ in range(3):  # three mesas each: a new mesa's event is built whole, its moves from the change
        while not room.game.is_over:
            room.game.play(rng.choice(room.game.legal_moves()))
            room.state += 1
            text = built.build(room)
            assert text is not None and text == whole.build_whole(room)
            assert built.new_hands == whole.new_hands
            fast += fields_from_events(room.game, json.loads(text)["events"]) is not None
        new_mesa(room, rng.randrange(10**6))
        assert built.build(room) == whole.build_whole(room)
    assert fast > 100  # most moves took the event-built path


def test_a_client_applying_the_built_events_reaches_each_snapshot() -> None:
    rng = random.Random(7)
    rules = Rules.preset("campeonato", players=4)
    room = table(rules, seed=11)
    state = WireState(room)
    client: dict[str, Any] = json.loads(encode(snapshot(room, None, 0, hints=False)))
    for _ in range(400):
        if room.game.is_over:
            break
        room.game.play(rng.choice(room.game.legal_moves()))
        room.state += 1
        event = json.loads(state.build(room) or "null")
        assert event is not None and event["base"] == client["version"]
        client["version"] = event["version"]
        client["view"].update(event["view"])
        client["events"] += event["events"]
        hand = client["events"][len(client["events"]) - event["history"] :]
        expected = json.loads(encode(snapshot(room, None, 0, hints=False)))
        assert client["view"] | {"history": hand} == expected["view"]
        assert client["events"] == expected["events"]


@pytest.mark.parametrize(("preset", "players"), PRESETS)
def test_the_fields_read_from_the_events_are_the_views(preset: str, players: int) -> None:
    rng = random.Random(f"{preset}{players}fields")
    room = table(Rules.preset(preset, players=players), seed=rng.randrange(10**6))
    followed = 0
    while not room.game.is_over:
        before = len(wired_events(room))
        room.game.play(rng.choice(room.game.legal_moves()))
        fields = fields_from_events(room.game, wired_events(room)[before:])
        if fields is not None:
            view = WireState(room).view
            assert fields == {k: view[k] for k in fields}
            followed += 1
    assert followed > 20
