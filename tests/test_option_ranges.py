"""Every numeric rule option has a range, refused outside it with the range named (issue 15).

Custom rules took ``target=10**9`` (a chica nobody can finish: the computer players would play it for
ever) and any even number for the other points options. The ranges are in docs/rules-decisions.md
("Option ranges"); ``GET /api/options`` publishes them as ``min`` and ``max``.
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from cuarenta import OPTIONS, Game, RecordError, Rules, RulesError
from cuarenta.record import GameRecord
from cuarenta.rules import OPTIONS_BY_NAME
from cuarenta.server.edge.ratelimits import Limits
from support.examples import examples

#: the app of the ``module_client`` fixture (tests/conftest.py), shared by this module's server tests
pytestmark = pytest.mark.app(workers=0, limits=Limits(rooms_per_minute=0))

RANGES = {
    "caida_limpia_points": (2, 10),
    "ronda_points": (0, 10),
    "caida_ronda_points": (0, 20),
    "ronda_limit": (2, 200),
    "carton_cap": (20, 40),
    "target": (10, 200),
}
NUMBERS = [o for o in OPTIONS if o.kind in ("points", "cards")]


def around(name: str, value: int) -> Rules:
    """Rules with option ``name`` at ``value`` and the options it depends on out of its way."""
    other: dict[str, Any] = {"ronda_limit": None} if name == "target" else {}
    if name == "ronda_limit":
        other["target"] = 200
    return Rules(**{name: value, **other})


def test_every_numeric_option_has_its_range() -> None:
    assert {o.name: (o.low, o.high) for o in NUMBERS} == RANGES
    for spec in NUMBERS:
        for choice in spec.choices:  # what a form offers is inside the range
            assert choice is None or spec.low <= choice <= spec.high  # type: ignore[operator]


@pytest.mark.parametrize("name", list(RANGES))
def test_the_ends_of_a_range_are_taken_and_past_them_refused(name: str) -> None:
    low, high = RANGES[name]
    step = 1 if OPTIONS_BY_NAME[name].kind == "cards" else 2
    assert getattr(around(name, low), name) == low and getattr(around(name, high), name) == high
    for bad in (low - step, high + step, 10**9):
        if bad < 0:
            continue  # (below 0 is "an even number of points", its own error)
        with pytest.raises(RulesError) as info:
            around(name, bad)
        message = str(info.value)
        assert f"{name}={bad}" in message and f"{low}" in message and f"{high}" in message, message
        assert str(low) in info.value.text("es") and str(high) in info.value.text("es")


def test_a_target_of_a_billion_is_refused_everywhere_rules_are_read() -> None:
    expected = "option target=1000000000 is out of range: give an even number of points from 10 to 200"
    for read in (
        lambda: Rules(target=10**9),
        lambda: Rules().replace(target=10**9),
        lambda: Rules.from_dict({"preset": "basico", "target": 10**9}),
    ):
        with pytest.raises(RulesError) as info:
            read()
        assert str(info.value) == expected and info.value.code == "option_points_range"
        assert "está fuera de rango" in info.value.text("es")
    text = GameRecord.from_game(Game.new(seed=1)).to_text()
    option = '[Rules "a_todo_rigor"]\n[Option "target=1000000000"]'
    with pytest.raises(RecordError, match="target=1000000000 is out of range"):
        GameRecord.from_text(text.replace('[Rules "a_todo_rigor"]', option))


@settings(max_examples=examples(300), deadline=None, database=None)
@given(name=st.sampled_from(sorted(RANGES)), value=st.integers(-(10**12), 10**12) | st.integers(-50, 250))
def test_a_number_is_taken_exactly_when_it_is_in_range(name: str, value: int) -> None:
    low, high = RANGES[name]
    even = OPTIONS_BY_NAME[name].kind == "cards" or value % 2 == 0
    try:
        around(name, value)
    except RulesError:
        assert not (even and low <= value <= high)
    else:
        assert even and low <= value <= high


# -- the server's options and bodies --------------------------------------------------------------------
def test_the_options_of_the_form_publish_the_ranges(module_client: TestClient) -> None:
    client = module_client
    options = {o["name"]: o for o in client.get("/api/options").json()["options"]}
    for name, (low, high) in RANGES.items():
        assert (options[name]["min"], options[name]["max"]) == (low, high)
    assert all(o["min"] is None and o["max"] is None for o in options.values() if o["name"] not in RANGES)


@pytest.mark.parametrize("path", ["/api/rooms", "/api/tables"])
def test_a_room_or_table_with_an_unbounded_target_is_refused(module_client: TestClient, path: str) -> None:
    client = module_client
    body: dict[str, Any] = {"rules": {"preset": "custom", "target": 10**9}}
    if path == "/api/tables":
        body["name"] = "Ana"
    answer = client.post(path, json=body)
    assert answer.status_code == 400, answer.text
    assert "target=1000000000 is out of range" in answer.json()["detail"]
    assert "from 10 to 200" in answer.json()["detail"]
    body["rules"]["target"] = 200
    body["rules"]["ronda_limit"] = 30
    assert client.post(path, json=body).status_code == 200
