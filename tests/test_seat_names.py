"""Computer players' names (server/authority/computer_names.py): every computer seat has one, distinct at
its table and from the people's names there, the same in every seat's and a spectator's messages, kept
through a restart of the server, and drawn from the room's id, never from its seed or its cards.
A person who leaves for good leaves the seat under their name (a stand-in plays a person's seat, which
stays the person's, name and all)."""

from __future__ import annotations

import dataclasses
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from cuarenta import catalogue
from cuarenta.server.authority.computer_names import NAMES, choose, named
from cuarenta.server.authority.rows import room_from_row
from support.app import Browser, bearer, new_room, running, server_room
from support.spy import Spy, check_all
from support.tables import Seat, new_table, room_of, rooms_of, take_seat


def computer_names(seats: list[dict[str, Any]]) -> list[str]:
    return [s["name"] for s in seats if s["kind"] == "computer"]


def test_a_room_against_the_computer_names_its_computers_and_keeps_them_through_a_restart(
    tmp_path: Path, spy: Spy
) -> None:
    with running(tmp_path) as client:
        made = new_room(client, players=4, level="facil", name="Ana")
        with Browser(client, spy) as ana:
            seats = ana.join(made["room"], made["token"])["seats"]
        names = computer_names(seats)
        assert len(names) == 3 and len(set(names)) == 3 and set(names) <= set(NAMES)
        assert all(s["kind"] == "computer" and s["level"] == "facil" for s in seats[1:])
    with running(tmp_path) as client, Browser(client, spy) as ana:  # the same data directory: a restart
        assert computer_names(ana.join(made["room"], made["token"])["seats"]) == names
    check_all(spy)


def test_every_seat_and_a_spectator_see_the_same_names_at_a_table(tmp_path: Path, spy: Spy) -> None:
    with running(tmp_path) as client:
        made = new_table(client, players=4, seats=["friend", "normal", "friend"])
        room = made["room"]
        waiting = client.get(f"/api/tables/{room}").json()["seats"]
        assert [s["kind"] for s in waiting] == ["person", "open", "computer", "open"]
        (before,) = computer_names(waiting)
        beto = take_seat(client, made, name="Beto", seat=1)
        with Seat(client, spy) as ana, Seat(client, spy) as b, Seat(client, spy) as watcher:
            ana.join(room, made["token"])
            b.join(room, beto["token"])
            turned = client.post(
                f"/api/tables/{room}/seats/3", json={"level": "facil"}, headers=bearer(made["token"])
            )
            assert turned.status_code == 200  # the last open seat: the table starts
            seen = [
                ana.until(lambda m: m["type"] == "state" and m["status"] == "playing"),
                b.until(lambda m: m["type"] == "state" and m["status"] == "playing"),
            ]
            watcher.send({"v": 1, "type": "watch", "room": room})
            seen.append(watcher.until(lambda m: m["type"] == "state"))
            assert seen[2]["seat"] is None
            seats = seen[0]["seats"]
            # one name for every reader (presence may change between the messages; the names may not)
            assert all([s.get("name") for s in m["seats"]] == [s.get("name") for s in seats] for m in seen)
            assert [s.get("name") for s in seats][:2] == ["Ana", "Beto"]
            names = computer_names(seats)
            assert names[0] == before  # the computer made with the table kept its name when it started
            assert len(set(names)) == 2 and set(names) <= set(NAMES)
        stored = [s.name for s in room_of(client, room).seats]
    with running(tmp_path) as client:
        after = client.get(f"/api/tables/{room}").json()["seats"]
        assert [s.get("name") for s in after] == stored == ["Ana", "Beto", *names]
    check_all(spy)


def test_a_person_who_takes_a_computers_name_keeps_it_and_the_computer_gets_another(
    tmp_path: Path, spy: Spy
) -> None:
    with running(tmp_path) as client:
        made = new_table(client, players=4, seats=["friend", "normal", "normal"])
        room = made["room"]
        (first, second) = computer_names(client.get(f"/api/tables/{room}").json()["seats"])
        take_seat(client, made, name=first.upper(), seat=1)  # the same name, in other letters
        seats = client.get(f"/api/tables/{room}").json()["seats"]
        assert seats[1]["name"] == first.upper() and seats[3]["name"] == second  # the others stay
        renamed = seats[2]["name"]
        assert renamed in NAMES and renamed.casefold() not in {first.casefold(), second.casefold(), "ana"}
        assert room_of(client, room).seats[2].name == renamed  # stored with the seat
    check_all(spy)


def test_a_room_stored_before_names_reads_with_the_names_its_id_gives(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        made = new_room(client, players=4, level="facil", name="Ana")
        room = server_room(client, made["room"])
        store = rooms_of(client).store
        row = store.load_room(room.id)
        assert row is not None
        assert [s.name for s in row.seats] == [s.name for s in room.seats]  # stored with the seats
        blank = [dataclasses.replace(s, name="" if s.kind == "computer" else s.name) for s in row.seats]
        old = dataclasses.replace(row, seats=blank)  # as a version before names stored it
        again = room_from_row(old, store.load_actions(room.id, row.mesa))
        assert [s.name for s in again.seats] == [s.name for s in room.seats]


def test_names_come_from_the_room_id_not_its_seed_or_cards(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        one = new_room(client, players=4, level="facil", name="Ana", seed=7)
        two = new_room(client, players=4, level="facil", name="Ana", seed=7)  # the same deal
        rooms = [server_room(client, one["room"]), server_room(client, two["room"])]
        assert rooms[0].game.state_summary() == rooms[1].game.state_summary()
        for r in rooms:  # the names are those of the room's id and its seats alone
            blank = [dataclasses.replace(s, name="" if s.kind == "computer" else s.name) for s in r.seats]
            assert [s.name for s in named(r.id, blank)] == [s.name for s in r.seats]
    assert choose("some-room", 1, []) == choose("some-room", 1, [])
    spread = {choose(f"room-{i}", 1, []) for i in range(200)}
    assert len(spread) > len(NAMES) // 2  # rooms differ: not one name for everyone


def test_a_person_who_left_leaves_the_seat_under_their_name(tmp_path: Path, spy: Spy) -> None:
    with running(tmp_path) as client:
        made = new_table(client, players=2, seats=["friend"], grace=0)
        room = made["room"]
        beto = take_seat(client, made, name="Beto")
        left = client.post(f"/api/tables/{room}/leave", headers=bearer(beto["token"]))
        assert left.status_code == 200, left.text
        seat = client.get(f"/api/tables/{room}").json()["seats"][1]
        assert seat["kind"] == "computer" and seat["left"] is True and seat["name"] == "Beto"
    check_all(spy)


# -- the page's sentences about a pair of names (i18n.js run by Node) ------------------------------------
NODE = shutil.which("node")
PAIR_SCRIPT = r"""
import * as I from "%s";
const texts = JSON.parse(await new Promise((resolve) => {
  let data = "";
  process.stdin.on("data", (chunk) => (data += chunk));
  process.stdin.on("end", () => resolve(data));
}));
I.useTexts("es", texts);
I.setLang("es", false);
const teams = ["Ana y Carla", "Beto y Don Lucho"];
const event = { kind: "chica_won", team: 1, chica: 0, scores: [6, 10], reason: "target" };
const zap = { kind: "zapatero", team: 0, points: 6, platillo: false };
const out = [true, false].map((pair) => {
  const names = { seat: (i) => String(i), team: (i) => teams[i], players: 4, pair };
  return [I.describeEvent(event, names), I.describeEvent(zap, names)];
});
process.stdout.write(JSON.stringify(out));
"""


@pytest.mark.skipif(NODE is None, reason="no node to run the page's JavaScript")
def test_the_page_says_a_pair_of_names_in_the_plural() -> None:
    module = (Path(__file__).resolve().parents[1] / "src/cuarenta/web/static/i18n.js").as_uri()
    run = subprocess.run(
        [str(NODE), "--input-type=module", "-e", PAIR_SCRIPT % module],
        input=json.dumps(catalogue.messages("es")),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    pair, single = json.loads(run.stdout)
    assert pair == [
        "¡Beto y Don Lucho ganan la chica 1, 10 a 6!",
        "Ana y Carla se quedan zapateros con 6 puntos.",
    ]
    assert single[0] == "¡Beto y Don Lucho gana la chica 1, 10 a 6!"  # what Python's terminal says of a team
