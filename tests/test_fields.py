"""The plain-Python field reader (:mod:`cuarenta.server.protocol.fields`) that the socket's messages and the
device's bodies share: each problem in pydantic's words, in the fields' order, extra keys last."""

from __future__ import annotations

from typing import Any

import pytest

from cuarenta.server.protocol.fields import Choice, Count, Flag, Object, Text, read_fields


def positive(value: int) -> int:
    if value == 0:
        raise ValueError("zero is not allowed")
    return value


FIELDS = (
    Text("name", longest=3, shortest=0, required=False),
    Count("n", required=False, least=None, below=10, check=positive),
    Choice("pick", ("a", "b", "c"), required=False, nullable=True),
    Object("rules"),
    Flag("on"),
)


@pytest.mark.parametrize(
    ("data", "values", "problems"),
    [
        ({}, {}, []),
        (
            {"name": "", "n": -5, "pick": None, "rules": {}, "on": False},
            {"name": "", "n": -5, "pick": None, "rules": {}, "on": False},
            [],
        ),
        ({"name": "abcd"}, {}, ["name: String should have at most 3 characters"]),
        ({"n": 10}, {}, ["n: Input should be less than 10"]),
        ({"n": 0}, {}, ["n: zero is not allowed"]),
        ({"n": True}, {}, ["n: Input should be a valid integer"]),
        ({"pick": "d"}, {}, ["pick: Input should be 'a', 'b' or 'c'"]),
        ({"rules": []}, {}, ["rules: Input should be a valid dictionary"]),
        ({"on": None}, {}, ["on: Input should be a valid boolean"]),
        (
            {"zz": 1, "n": "x"},
            {},
            ["n: Input should be a valid integer", "zz: Extra inputs are not permitted"],
        ),
    ],
)
def test_each_field_is_read_or_refused_in_pydantics_words(
    data: dict[str, Any], values: dict[str, Any], problems: list[str]
) -> None:
    assert read_fields(data, FIELDS, forbid_extra=True) == (values, problems)


def test_a_required_field_and_extra_keys_allowed() -> None:
    assert read_fields({"x": 1}, (Text("room"),)) == ({}, ["room: Field required"])
    assert read_fields({"room": "r", "x": 1}, (Text("room"),)) == ({"room": "r"}, [])
