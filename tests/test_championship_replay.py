"""A finished partida replayed from a championship's public standings (issue 29; docs/championships.md
"Replays"): ``GET /api/championships/{cid}/partidas/{partida}/replay`` needs no token and is given once
nothing of the partida can still be played — the library's ``seed_is_public`` — step by step as the
finished table's record (state hashes at every ply); refused while it plays, while a duplicate twin plays,
for a hall partida and a walkover; a restarted partida is replayed from the table that finished it; no
refusal says anything of a partida still in play, and the room is never named."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from cuarenta.record import GameRecord
from cuarenta.replay import Replay, hashes, state_hash
from support.champ_server import app, bearer, computer_championship, seed_all, start, until

#: A card as the API writes it ("7h", "Ks"): no refusal may hold one.
CARD = re.compile(r"\b(?:[1-7]|[JQK])[cdhs]\b")


def public(client: TestClient, cid: str) -> dict[str, Any]:
    answer = client.get(f"/api/championships/{cid}")
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def replay_of(client: TestClient, cid: str, partida: str) -> Any:
    return client.get(f"/api/championships/{cid}/partidas/{partida}/replay")


def refused(client: TestClient, cid: str, partida: str, status: int, code: str, *secrets: object) -> None:
    """The replay is refused with ``status`` and ``code``, in the one error shape, and says nothing of a
    partida in play: no card, none of ``secrets`` (deal seeds, room ids)."""
    answer = replay_of(client, cid, partida)
    assert answer.status_code == status and answer.json()["code"] == code, answer.text
    assert set(answer.json()) == {"detail", "code"}
    assert not CARD.search(answer.text), answer.text
    for secret in secrets:
        assert str(secret) not in answer.text


def partida(client: TestClient, cid: str, pid: str) -> dict[str, Any]:
    found: dict[str, Any] = next(p for r in public(client, cid)["rounds"] for p in r if p["id"] == pid)
    return found


def finished(client: TestClient, cid: str, pid: str) -> dict[str, Any]:
    return until(lambda: (p := partida(client, cid, pid))["status"] == "finished" and p)  # type: ignore[no-any-return]


def rooms(client: TestClient) -> Any:
    return client.app.state.championships.authority  # type: ignore[attr-defined]


def deal_seed(client: TestClient, cid: str, pid: str) -> int:
    seed: int = client.app.state.championships.get(cid).champ.partida(pid).deal_seed  # type: ignore[attr-defined]
    return seed


def check_replay(client: TestClient, answer: dict[str, Any], room: str) -> None:
    """The answer is the finished table's mesa step by step: its actions, and at every ply the state of a
    :class:`Replay` of the stored record (whose state hashes are the record's), ending at the table's
    final state; the shape of ``GET /api/games/{room}/replay`` with no room."""
    row = client.app.state.championships.store.finished_mesa(room, 1)  # type: ignore[attr-defined]
    record = GameRecord.from_text(row.record)
    game = rooms(client).table(room).game
    assert answer["actions"] == [str(a) for a in record.actions]
    assert (answer["room"], answer["mesa"], answer["seat"], answer["players"]) == (None, None, 0, 4)
    # the names its table gave its seats (a computer's too, where the record says bot:LEVEL)
    assert answer["names"] == [s.name for s in rooms(client).table(room).seats]
    assert not any(name.startswith("bot:") for name in answer["names"])
    assert room not in str(answer)
    assert answer["outcome"] == game.outcome.to_dict()
    expected = hashes(GameRecord.from_game(game))  # the table's own game, as it was played
    replay = Replay(record)
    assert len(answer["steps"]) == replay.last + 1 == len(expected)
    for step in answer["steps"]:
        at = replay.goto(step["ply"])
        assert at.state_hash() == expected[step["ply"]]
        state = at.game.state_summary()
        told = {"hand": at.game.hand_number, "deal": at.game.deal_number, "turn": at.game.turn, **state}
        shared = set(step) & set(told)
        assert shared >= {"hands", "table", "last_drop", "scores", "chicas", "turn", "hand", "deal", "dealer"}
        assert {k: step[k] for k in shared} == {k: told[k] for k in shared}
        assert [e["kind"] for e in answer["events"][: step["events"]]] == [e.kind for e in at.game.events]
    assert replay.goto(replay.last).state_hash() == state_hash(game) == expected[-1]


def register(client: TestClient, made: dict[str, str], computers: tuple[bool, ...]) -> list[str | None]:
    """Pairs p1, p2 … (a computer pair where ``computers`` says so, else people, who never sit), seeded in
    that order: round 1 of a Swiss of four sets p1 against p3 at table 1, p2 against p4 at table 2."""
    tokens: list[str | None] = []
    for i, computer in enumerate(computers):
        body: dict[str, Any] = {"name": f"Pareja {i}", "players": [f"A{i}", f"B{i}"]}
        if computer:
            answer = client.post(
                f"/api/championships/{made['championship']}/pairs",
                json={**body, "computer": "facil"},
                headers=bearer(made["organiser"]),
            )
        else:
            answer = client.post(
                f"/api/championships/{made['championship']}/pairs", json={**body, "code": made["register"]}
            )
        assert answer.status_code == 200, answer.text
        tokens.append(answer.json()["token"])
    seed_all(client, made, len(computers))
    return tokens


def judge(client: TestClient, made: dict[str, str], pid: str, path: str, body: dict[str, Any]) -> Any:
    answer = client.post(
        f"/api/championships/{made['championship']}/partidas/{pid}/{path}",
        json=body,
        headers=bearer(made["judge"]),
    )
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_a_finished_partida_is_replayed_as_its_table_finished_it_and_one_in_play_is_refused(
    tmp_path: Path,
) -> None:
    with app(tmp_path) as client:
        made = client.post("/api/championships", json={"name": "Copa", "rounds": 1}).json()
        cid = made["championship"]
        register(client, made, (True, False, True, False))
        assert start(client, made) == ["r1t1", "r1t2"]
        old = public(client, cid)["tables"]["r1t1"]
        # the judge restarts table 1 at once: its replay is the new table's
        restart = {"decision": "restart", "reason": "a card was seen"}
        new = judge(client, made, "r1t1", "decisions", restart)["room"]
        assert new != old
        in_play = public(client, cid)
        assert in_play["replays"] == []
        seeds = [deal_seed(client, cid, p) for p in ("r1t1", "r1t2")]
        # the people of table 2 never sit: it plays on
        refused(client, cid, "r1t2", 409, "partida_in_play", *seeds, *in_play["tables"].values())
        finished(client, cid, "r1t1")
        answer = replay_of(client, cid, "r1t1")
        assert answer.status_code == 200, answer.text
        data = answer.json()
        assert (data["championship"], data["partida"]) == (cid, "r1t1")
        check_replay(client, data, new)
        assert old not in answer.text and str(seeds[1]) not in answer.text
        assert public(client, cid)["replays"] == ["r1t1"]
        refused(client, cid, "r1t2", 409, "partida_in_play", seeds[1])
        # a walkover was not played: nothing to replay, now or ever
        judge(client, made, "r1t2", "walkover", {"winner": "p2", "reason": "p4 did not come"})
        assert public(client, cid)["status"] == "finished"
        refused(client, cid, "r1t2", 404, "no_record")
        assert public(client, cid)["replays"] == ["r1t1"]
        refused(client, cid, "r9t9", 404, "unknown_partida")
        refused(client, "nothere", "r1t1", 404, "unknown_championship")


def test_with_duplicate_deals_a_partida_is_replayed_once_its_twin_is_finished_too(tmp_path: Path) -> None:
    with app(tmp_path) as client:
        made = computer_championship(client, 4, rounds=1, duplicate=True)
        cid = made["championship"]
        seed_all(client, made, 4)
        start(client, made)
        # table 2 is held by the judge: table 1, dealt the same cards, finishes first
        judge(client, made, "r1t2", "decisions", {"decision": "pause", "reason": "hold on"})
        one = finished(client, cid, "r1t1")
        assert "deal_seed" not in one  # the public page holds the seed back for the same reason
        seed = deal_seed(client, cid, "r1t1")
        assert seed == deal_seed(client, cid, "r1t2")
        tables = public(client, cid)["tables"]
        refused(client, cid, "r1t1", 409, "twins_in_play", seed, *tables.values())
        refused(client, cid, "r1t2", 409, "partida_in_play", seed, *tables.values())
        assert public(client, cid)["replays"] == []
        judge(client, made, "r1t2", "decisions", {"decision": "resume", "reason": "go on"})
        finished(client, cid, "r1t2")
        described = public(client, cid)
        assert described["replays"] == ["r1t1", "r1t2"]
        answers = {}
        for pid in ("r1t1", "r1t2"):
            answer = replay_of(client, cid, pid)
            assert answer.status_code == 200, answer.text
            answers[pid] = answer.json()
            check_replay(client, answers[pid], described["tables"][pid])
        # the twins were dealt the same first hands, seat by seat
        assert answers["r1t1"]["steps"][0]["hands"] == answers["r1t2"]["steps"][0]["hands"]


def test_a_hall_partida_has_no_record_to_replay(tmp_path: Path) -> None:
    with app(tmp_path) as client:
        made = client.post("/api/championships", json={"name": "Copa", "rounds": 1, "venue": "hall"}).json()
        cid = made["championship"]
        register(client, made, (False, False))
        start(client, made)
        refused(client, cid, "r1t1", 404, "no_record")
        url = f"/api/championships/{cid}/partidas/r1t1/hall"
        last: dict[str, Any] = {"finished": False}
        while not last["finished"]:
            answer = client.post(
                url, json={"entry": {"kind": "caida", "seat": 0}}, headers=bearer(made["judge"])
            )
            assert answer.status_code == 200, answer.text
            last = answer.json()
        assert public(client, cid)["status"] == "finished"
        refused(client, cid, "r1t1", 404, "no_record")
        assert public(client, cid)["replays"] == []
