"""What the server tells the page so that the page needs no rule and no text of its own.

- ``GET /api/options`` is the engine's option table with every label of the catalogue;
- ``GET /api/texts/{lang}`` serves the catalogue (with an ETag);
- every event of a ``state`` message (in ``events`` and in ``view.history``) carries the keys of its
  sayings, the same the terminal's narrator says, over whole random mesas;
- ``moves`` says whether each legal move is a caída or a limpia, as the engine says;
- an ``illegal_move`` error carries the engine's reason as a code and parameters, which the catalogue
  words in Spanish.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cuarenta import OPTIONS, PRESET_NAMES, Game, Move, Rules, RulesError, catalogue
from cuarenta.errors import render
from cuarenta.i18n import Narrator
from cuarenta.moves import parse_action
from cuarenta.server.authority.model import Connection, Room, Seat, available_levels, mesa_seed
from cuarenta.server.edge.ratelimits import Limits
from cuarenta.server.protocol import error_message
from support.examples import quick_first
from support.version1 import state_for as v1_state

#: the ``client`` fixture's app (tests/conftest.py): the default rate limits, no worker process
pytestmark = pytest.mark.app(workers=0, limits=Limits())


# -- /api/options -------------------------------------------------------------------------------------------
def test_options_carry_the_catalogues_labels_in_every_language(client: TestClient) -> None:
    payload = client.get("/api/options").json()
    specs = {spec.name: spec for spec in OPTIONS}
    assert [o["name"] for o in payload["options"]] == [s.name for s in OPTIONS if s.name != "players"]
    for option in payload["options"]:
        spec = specs[option["name"]]
        assert option["choices"] == list(spec.choices)
        assert (option["rule"], option["kind"], option["nullable"]) == (spec.rule, spec.kind, spec.nullable)
        for lang in catalogue.LANGS:
            assert option["label"][lang] == catalogue.text(f"option.{spec.name}", lang)
            assert option["choice_labels"][lang] == [
                catalogue.text(spec.choice_key(c), lang) for c in spec.choices
            ]
        if spec.kind in ("points", "cards"):
            assert "{n}" in option["other_label"]["es"] and "{n}" in option["other_label"]["en"]
        else:
            assert option["other_label"] is None
    ronda_limit = next(o for o in payload["options"] if o["name"] == "ronda_limit")
    assert ronda_limit["choice_labels"] == {
        "es": ["30 puntos", "sin límite"],
        "en": ["30 points", "no limit"],
    }
    campeonato = next(p for p in payload["presets"] if p["name"] == "campeonato")
    assert campeonato["label"] == {"es": "Campeonato", "en": "Campeonato (tournament)"}
    assert "caída y limpia valen 2" in campeonato["about"]["es"]  # docs/rules.md R15 since 0.2
    assert campeonato["options"]["caida_limpia_points"] == 2
    assert [p["name"] for p in payload["presets"]] == list(PRESET_NAMES)
    assert payload["custom"]["label"]["es"] == "A mi manera"
    assert set(payload["level_labels"]) == set(payload["levels"]) == set(available_levels())
    for level, text in payload["level_labels"].items():
        assert text["label"]["es"] == catalogue.text(f"level.{level}", "es")
        assert text["about"]["en"] == catalogue.text(f"level.{level}.about", "en")


def test_every_choice_the_form_offers_is_accepted_by_the_engine() -> None:
    for spec in OPTIONS:
        for choice in spec.choices:
            if spec.name == "players":
                continue
            Rules().replace(**{spec.name: choice})
    with pytest.raises(RulesError):
        Rules().replace(ronda_points=3)


# -- /api/texts ---------------------------------------------------------------------------------------------
def test_texts_are_the_catalogue_with_an_etag(client: TestClient) -> None:
    for lang in catalogue.LANGS:
        res = client.get(f"/api/texts/{lang}")
        assert res.status_code == 200
        body = res.json()
        assert body["lang"] == lang and body["texts"] == catalogue.messages(lang)
        assert body["texts"]["saying.mosero"] == "¡Mosero!"  # the common sayings belong to every language
        etag = res.headers["etag"]
        again = client.get(f"/api/texts/{lang}", headers={"If-None-Match": etag})
        assert again.status_code == 304 and again.content == b""
        stale = client.get(f"/api/texts/{lang}", headers={"If-None-Match": '"something else"'})
        assert stale.status_code == 200
    assert client.get("/api/texts/es").headers["etag"] != client.get("/api/texts/en").headers["etag"]
    missing = client.get("/api/texts/fr")
    assert missing.status_code == 404 and "es, en" in missing.json()["detail"]


# -- sayings and moves in state messages --------------------------------------------------------------------
def room_of(rules: Rules, seed: int) -> Room:
    """A room whose seats are all played by the test (no computer player runs)."""
    seats = [Seat(0, "person", "Ana", None, "x")] + [
        Seat(s, "computer", "", "facil", None) for s in range(1, rules.players)
    ]
    return Room(
        id="r",
        created="now",
        level="facil",
        rules=rules,
        seed=seed,
        seats=seats,
        mesa=1,
        game=Game.new(rules, mesa_seed(seed, 1)),
    )


def connection(room: Room, seat: int) -> Connection:
    conn = Connection()
    conn.room, conn.seat, conn.dealt = room, seat, room.dealt
    return conn


def configs() -> list[tuple[str, int]]:
    out = []
    for preset in PRESET_NAMES:
        for players in (2, 4):
            try:
                Rules.preset(preset, players)
            except RulesError:
                continue
            out.append((preset, players))
    return out


def check_moves(message: dict[str, Any], game: Game) -> int:
    """``moves`` lists ``legal`` in order, with the engine's caída and limpia; returns the caídas seen."""
    assert [m["move"] for m in message["moves"]] == message["legal"]
    caidas = 0
    for entry in message["moves"]:
        action = parse_action(entry["move"])
        if isinstance(action, Move):
            assert entry["caida"] == game.is_caida(action) and entry["limpia"] == game.is_limpia(action)
            caidas += entry["caida"]
        else:
            assert entry["caida"] is entry["limpia"] is False
    return caidas


@pytest.mark.parametrize(("preset", "players"), quick_first(configs(), keep=2))
def test_state_messages_carry_the_narrators_sayings_and_what_each_move_does(
    preset: str, players: int
) -> None:
    rules = Rules.preset(preset, players)
    said: set[str] = set()
    caidas_offered = 0
    for seed in range(3):
        room = room_of(rules, seed)
        conns = [connection(room, s) for s in range(players)]
        streams: list[list[dict[str, Any]]] = [[] for _ in conns]
        rng = random.Random(seed)
        while True:
            for conn, stream in zip(conns, streams, strict=True):
                message = v1_state(room, conn)
                stream.extend(message["events"])
                game = room.game
                # the history is the current hand, with the same sayings as when its events were sent
                history = message["view"]["history"]
                assert history == stream[len(stream) - len(history) :]
                if message["legal"]:
                    assert conn.seat == game.turn
                    caidas_offered += check_moves(message, game)
                else:
                    assert message["moves"] == []
            if room.game.is_over:
                break
            room.game.play(rng.choice(room.game.legal_moves()))
            room.state += 1
        narrated = Narrator(rules, "es").narrate(room.game.events)
        for stream in streams:
            assert [e["kind"] for e in stream] == [line.event.kind for line in narrated]
            assert [e["sayings"] for e in stream] == [list(line.saying_keys) for line in narrated]
        said.update(k for e in streams[0] for k in e["sayings"])
    assert said and caidas_offered


def test_a_new_mesa_starts_its_sayings_again() -> None:
    rules = Rules.preset("basico")
    room = room_of(rules, 4)
    conn = connection(room, 0)
    rng = random.Random(4)
    while not room.game.is_over:
        room.game.play(rng.choice(room.game.legal_moves()))
    v1_state(room, conn)
    room.mesa, room.game = 2, Game.new(rules, mesa_seed(4, 2))
    message = v1_state(room, conn)
    expected = [list(line.saying_keys) for line in Narrator(rules).narrate(room.game.events)]
    assert [e["sayings"] for e in message["events"]] == expected


# -- illegal moves say why, in the player's language --------------------------------------------------------
def test_an_illegal_move_carries_the_engines_reason(client: TestClient) -> None:
    created = client.post(
        "/api/rooms", json={"players": 2, "level": "facil", "seed": 3, "practice": True}
    ).json()
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"v": 1, "type": "join", "room": created["room"], "token": created["token"]})
        state = ws.receive_json()
        while not state["legal"]:
            state = ws.receive_json()
        hand = state["view"]["hand"]
        absent = next(
            f"{r}{s}" for r in "A234567JQK" for s in "hsdc" if f"{r}{s}" not in hand + state["view"]["table"]
        )
        cases = (
            (absent, "card_not_in_hand", "no está en la mano"),
            ("9h", "card_not_in_deck", "en el cuarenta no hay 8, 9 ni 10"),
        )
        for move, code, words in cases:
            ws.send_json({"v": 1, "type": "move", "move": move, "state": state["state"]})
            error = ws.receive_json()
            assert error["type"] == "error" and error["code"] == "illegal_move"
            reason = error["reason"]
            assert reason["code"] == code or reason["params"].get("reason", {}).get("code") == code, reason
            spanish = render(reason["code"], reason["params"], "es")
            assert words in spanish and spanish != error["message"]
            assert render(reason["code"], reason["params"], "en") == error["message"]


def test_other_errors_have_no_reason() -> None:
    assert "reason" not in error_message("stale", "the table changed")
    assert (
        error_message("illegal_move", "x", {"code": "game_over", "params": {}})["reason"]["code"]
        == "game_over"
    )
