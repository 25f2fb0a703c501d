"""Championships, issue 25: what the judge and the organiser read, and how large a championship is.

- a refused tap on the hall's sheet answers its own code and the params of its words (the page says
  ``error.<code>`` in its language), never ``bad_input`` with an English sentence;
- a walkover the server gives on its own has a code as its reason (the page words it), a person's reason
  is kept as typed; the standings carry the differences the ranking reads;
- a championship takes at most the server's ``championship_pairs`` (``championship_full``, nothing stored);
- a round is paired off the event loop: ``/api/health`` answers while the pairing is under way, and the
  championship read meanwhile is the one before the change; registrations made at once get one id each.
"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cuarenta import catalogue
from cuarenta.championship import Championship
from cuarenta.championship.actions import Walkover
from cuarenta.errors import render
from cuarenta.server.championships import DEFAULT_MAX_PAIRS, NO_SHOW
from cuarenta.server.edge.app import create_app
from support.champ_server import app, bearer, in_loop, people_championship, start


def public(client: TestClient, cid: str) -> dict[str, Any]:
    found: dict[str, Any] = client.get(f"/api/championships/{cid}").json()
    return found


def hall(client: TestClient) -> tuple[dict[str, str], str]:
    """A hall championship of two pairs, started: its tokens and its partida's sheet address."""
    made, _ = people_championship(client, 2, rounds=1, venue="hall")
    start(client, made)
    return made, f"/api/championships/{made['championship']}/partidas/r1t1/hall"


# -- the hall's refusals ------------------------------------------------------------------------------------
def test_a_refused_tap_answers_its_own_code_and_the_params_of_its_words(tmp_path: Path) -> None:
    with app(tmp_path) as client:
        made, sheet = hall(client)
        judge = bearer(made["judge"])
        # the piles of a cartón that do not make 40 (the judge counted wrong): bad input, the sheet unchanged
        wrong = client.post(
            sheet, json={"entry": {"kind": "carton", "cards": [30, 9], "leftovers": 0}}, headers=judge
        )
        assert wrong.status_code == 400, wrong.text
        body = wrong.json()
        assert body["code"] == "hall_carton_total" and body["params"]["total"] == 39
        assert body["detail"] == render("hall_carton_total", body["params"], "en")
        assert "Entry.to_dict" not in body["detail"]
        spanish = render(body["code"], body["params"], "es")
        assert (
            spanish
            == "los montones 30 + 9 y 0 sobrantes en la mesa suman 39 cartas, no 40: cuéntelas otra vez"
        )
        assert client.get(sheet, headers=judge).json()["entries"] == 0
        # a well-formed entry the sheet refuses now (a cartón in the hand's first deal): a wrong state
        early = client.post(sheet, json={"entry": {"kind": "carton", "cards": [20, 20]}}, headers=judge)
        assert early.status_code == 409
        assert early.json()["code"] == "hall_carton_early" and early.json()["params"] == {
            "deal": 1,
            "deals": 2,
        }
        # an entry not in the form the sheet reads: the code of what is wrong in it
        unknown = client.post(sheet, json={"entry": {"kind": "parada"}}, headers=judge)
        assert unknown.status_code == 400 and unknown.json()["code"] == "hall_entry_kind"
        # an undo with nothing to undo
        undo = client.post(sheet + "/undo", json={}, headers=judge)
        assert undo.status_code == 409 and undo.json()["code"] == "hall_nothing_to_undo"
        assert all("params" not in answer.json() or answer.json()["params"] is not None for answer in (undo,))


def test_every_hall_refusal_has_its_words_in_every_language() -> None:
    for lang in catalogue.LANGS:
        texts = catalogue.messages(lang)
        for code in ("hall_carton_total", "hall_carton_early", "hall_entry_kind", "hall_nothing_to_undo"):
            assert f"error.{code}" in texts


# -- the words the server writes ----------------------------------------------------------------------------
def test_the_servers_walkover_has_a_code_as_its_reason_and_a_persons_reason_is_kept(tmp_path: Path) -> None:
    with app(tmp_path) as client:
        made, tokens = people_championship(client, 4, rounds=1, wait_minutes=1)
        cid = made["championship"]
        start(client, made)
        first, second = public(client, cid)["rounds"][0]
        seated = first["pairs"][0]
        for player in (0, 1):
            sat = client.post(
                f"/api/championships/{cid}/sit",
                json={"player": player},
                headers=bearer(tokens[int(seated[1:]) - 1]),
            )
            assert sat.status_code == 200, sat.text
        judge = bearer(made["judge"])
        typed = client.post(
            f"/api/championships/{cid}/partidas/{second['id']}/walkover",
            json={"winner": second["pairs"][1], "reason": "no vinieron a tiempo"},
            headers=judge,
        )
        assert typed.status_code == 200, typed.text
        championships = client.app.state.championships  # type: ignore[attr-defined]
        championships.wall = lambda: 4102444800.0  # 2100-01-01: every wait is over
        in_loop(client, championships.check_waits)
        decisions = public(client, cid)["decisions"]
        assert [(d["by"], d["reason"]) for d in decisions] == [
            ("judge", "no vinieron a tiempo"),
            ("server", NO_SHOW),
        ]
    for lang in catalogue.LANGS:  # the page says the code in its language
        assert catalogue.messages(lang)[f"page.champ.server_reason.{NO_SHOW}"]


def test_the_standings_carry_the_differences_the_ranking_reads(tmp_path: Path) -> None:
    with app(tmp_path) as client:
        made, _ = people_championship(client, 2, rounds=1)
        cid = made["championship"]
        start(client, made)
        (partida,) = public(client, cid)["rounds"][0]
        client.post(
            f"/api/championships/{cid}/partidas/{partida['id']}/walkover",
            json={"winner": partida["pairs"][0], "reason": "no vinieron"},
            headers=bearer(made["judge"]),
        )
        first, second = public(client, cid)["standings"]
        assert (first["chicas_difference"], second["chicas_difference"]) == (2, -2)
        assert first["points_difference"] == first["points_for"] - first["points_against"] == 0


# -- how large --------------------------------------------------------------------------------------------
def test_a_championship_takes_at_most_the_servers_pairs(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path, bot_delay=0, workers=0, championship_pairs=3)) as client:
        made, _ = people_championship(client, 3, rounds=1)
        cid = made["championship"]
        fourth = client.post(
            f"/api/championships/{cid}/pairs",
            json={"name": "Cuarta", "players": ["A", "B"], "code": made["register"]},
        )
        assert fourth.status_code == 409, fourth.text
        assert fourth.json()["code"] == "championship_full" and fourth.json()["params"] == {"pairs": 3}
        assert "--championship-pairs" in fourth.json()["detail"]
        assert len(public(client, cid)["pairs"]) == 3  # nothing stored
        assert start(client, made) == ["r1t1"]  # the three it took play (one of them rests)
    with TestClient(create_app(tmp_path / "default", bot_delay=0, workers=0)) as client:
        assert client.app.state.championships.max_pairs == DEFAULT_MAX_PAIRS  # type: ignore[attr-defined]


def test_serve_offers_the_limit_with_the_libraries_default() -> None:
    from typer.testing import CliRunner

    from cuarenta.cli import serve
    from cuarenta.cli.commands import app as cli

    assert serve.DEFAULT_CHAMPIONSHIP_PAIRS == DEFAULT_MAX_PAIRS
    shown = CliRunner().invoke(cli, ["serve", "--help"], env={"COLUMNS": "200", "NO_COLOR": "1"})
    assert "--championship-pairs" in shown.output


def test_a_round_is_paired_off_the_event_loop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The walkover that closes round 1 pairs round 2: while the library pairs it (held here until the
    test lets it go), ``/api/health`` and the public page answer, the page as it was before the change."""
    pairing = threading.Event()
    go_on = threading.Event()
    original = Championship.apply

    def held(self: Championship, action: Any) -> Any:
        if isinstance(action, Walkover) and action.reason == "the last one":
            pairing.set()
            go_on.wait(timeout=60)
        return original(self, action)

    monkeypatch.setattr(Championship, "apply", held)
    with app(tmp_path) as client:
        made, _ = people_championship(client, 4, rounds=2)
        cid = made["championship"]
        start(client, made)
        judge = bearer(made["judge"])
        one, two = public(client, cid)["rounds"][0]
        url = f"/api/championships/{cid}/partidas/{{}}/walkover"
        client.post(
            url.format(one["id"]), json={"winner": one["pairs"][0], "reason": "no vinieron"}, headers=judge
        )
        answers: list[Any] = []
        closing = threading.Thread(
            target=lambda: answers.append(
                client.post(
                    url.format(two["id"]),
                    json={"winner": two["pairs"][0], "reason": "the last one"},
                    headers=judge,
                )
            )
        )
        closing.start()
        try:
            assert pairing.wait(timeout=60), "the closing walkover never reached the library"
            health = client.get("/api/health")
            meanwhile = public(client, cid)
            still_pairing = not answers
        finally:
            go_on.set()
            closing.join(timeout=60)
        assert health.status_code == 200 and still_pairing, "the event loop waited for the pairing"
        assert len(meanwhile["rounds"]) == 1 and meanwhile["rounds"][0][1]["status"] == "running"
        assert answers[0].status_code == 200, answers[0].text
        after = public(client, cid)
        assert len(after["rounds"]) == 2 and set(after["tables"]) >= {p["id"] for p in after["rounds"][1]}


def test_registrations_made_at_once_get_one_pair_each(tmp_path: Path) -> None:
    with app(tmp_path) as client:
        made = client.post("/api/championships", json={"name": "Copa"}).json()
        cid = made["championship"]
        championships = client.app.state.championships  # type: ignore[attr-defined]

        async def at_once() -> list[dict[str, Any]]:
            return await asyncio.gather(
                *(championships.register(cid, f"Pareja {i}", [f"A{i}", f"B{i}"], None) for i in range(6))
            )

        made_pairs = in_loop(client, at_once)
        assert sorted(p["pair"] for p in made_pairs) == [f"p{i}" for i in range(1, 7)]
        assert [p["id"] for p in public(client, cid)["pairs"]] == [f"p{i}" for i in range(1, 7)]
