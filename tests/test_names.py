"""Names people give — a profile's, a table's seats, a room's — refuse or clean what cannot be shown.

Issue 15.

An attacker made names of C1 controls, right-to-left overrides, a lone zero-width space, and look-alike
letters. Now one function (``cuarenta.names.clean_name``) checks every name: control,
separator and direction characters are refused, invisible ones removed (an emoji's joiners kept), the rest put
in NFC and trimmed, and a name with nothing visible is refused. Look-alikes stay (docs/tables.md, "Names").
The schema's ``pattern`` is built from the same tables; a property test holds the two to each other
with the regular-expression engine the schemathesis fuzz uses.
"""

from __future__ import annotations

import json
import re
import sys
import unicodedata
from collections.abc import Iterator

import httpx
import jsonschema_rs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from schemathesis.core.jsonschema import FANCY_REGEX_OPTIONS
from websockets.sync.client import connect

from cuarenta import names
from cuarenta.names import (
    BIDI_CONTROLS,
    DEFAULT_IGNORABLE,
    NAME_MAX_CHARS,
    NAME_PATTERN,
    OPTIONAL_NAME_PATTERN,
    BadName,
    clean_name,
    is_visible,
)
from cuarenta.server.store.profiles import clean_name as profile_clean_name
from support.examples import examples
from support.served import Served, serve_process

C0 = ["\x00", "\x01", "\x09", "\x0a", "\x0d", "\x1b", "\x1e", "\x1f"]
C1 = ["\x7f", "\x80", "\x85", "\x8d", "\x9b", "\x9f"]
BIDI = ["\u200e", "\u200f", "\u061c", "\u202a", "\u202b", "\u202c", "\u202d", "\u202e"]
BIDI += ["\u2066", "\u2067", "\u2068", "\u2069"]
SEPARATORS = ["\u2028", "\u2029"]
#: Characters that draw nothing (removed from a name; alone, a name with nothing visible).
INVISIBLE = [
    "\u200b",
    "\u200c",
    "\u200d",
    "\u2060",
    "\u2061",
    "\u2064",
    "\ufeff",
    "\u00ad",
    "\u180e",
    "\u034f",
]
INVISIBLE += [
    "\u115f",
    "\u1160",
    "\u3164",
    "\uffa0",
    "\ufe0f",
    "\U000e0020",
    "\U000e0001",
    "\u2063",
    "\u0600",
]
#: Blank characters: stripped at the ends, never a name on their own.
BLANK = [" ", "\u00a0", "\u1680", "\u2000", "\u2007", "\u200a", "\u202f", "\u205f", "\u3000", "\u2800"]


# -- the function ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("chars", "kind"),
    [
        (C0, "control characters"),
        (C1, "control characters"),
        (BIDI, "direction controls"),
        (SEPARATORS, "line separators"),
    ],
    ids=["C0", "C1-and-DEL", "bidi", "separators"],
)
def test_refused_characters_are_refused_wherever_they_stand(chars: list[str], kind: str) -> None:
    for c in chars:
        for name in (c + "Ana", "Ana" + c, "An" + c + "a", c):
            with pytest.raises(BadName, match=re.escape(f"may not hold {kind} (U+{ord(c):04X} at")):
                clean_name(name)
    assert set(BIDI) == BIDI_CONTROLS


@pytest.mark.parametrize("c", INVISIBLE + BLANK)
def test_a_name_with_nothing_visible_is_refused(c: str) -> None:
    for name in (c, c * 3, " " + c + " ", c + "\u200b" + c):
        with pytest.raises(BadName, match="the name has nothing visible"):
            clean_name(name)
    assert not is_visible(c)


@pytest.mark.parametrize("c", [c for c in INVISIBLE if c != "\ufe0f"])  # (kept after a letter: ❤️)
def test_an_invisible_character_is_removed_from_a_name(c: str) -> None:
    assert clean_name("A" + c + "na") == "Ana"
    assert clean_name(c + "Ana" + c) == "Ana"
    assert clean_name("Ana" + c + " María") == "Ana María"


@pytest.mark.parametrize("c", BLANK)
def test_blanks_are_stripped_at_the_ends_and_kept_inside(c: str) -> None:
    assert clean_name(c + "Ana" + c + c) == "Ana"
    assert clean_name("Ana" + c + "Beto") == unicodedata.normalize("NFC", "Ana" + c + "Beto")


@pytest.mark.parametrize(
    "emoji",
    [
        "👩\u200d💻",  # woman technologist: a ZWJ between two emoji
        "❤\ufe0f\u200d🔥",  # heart on fire: a variation selector, then a ZWJ
        "👨🏽\u200d🦰",  # a skin tone, then a ZWJ
        "🏳\ufe0f\u200d🌈",  # rainbow flag
        "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",  # the flag of Scotland (tags)
        "1\ufe0f\u20e3",  # keycap one
    ],
)
def test_an_emoji_sequence_keeps_its_joiners(emoji: str) -> None:
    assert clean_name(emoji) == emoji
    assert clean_name(f"Ana {emoji}") == f"Ana {emoji}"


def test_a_joiner_that_joins_no_emoji_is_removed() -> None:
    assert clean_name("A\u200dna") == "Ana"
    assert clean_name("\u200d👩") == "👩"
    assert clean_name("👩\u200d") == "👩"
    assert clean_name("\U000e0067Ana") == "Ana"  # a tag character outside a flag
    assert clean_name("\ufe0fAna") == "Ana"  # a variation selector with nothing before it


def test_a_name_is_kept_in_nfc() -> None:
    assert clean_name("Jose\u0301") == "José" and len(clean_name("Jose\u0301")) == 4
    assert clean_name("\u212bngel") == "\u00c5ngel"  # ANGSTROM SIGN is the letter Å
    assert clean_name("e\u200b\u0301va") == "éva"  # the invisible character no longer keeps them apart
    assert unicodedata.is_normalized("NFC", clean_name("Mu\u0308ller"))


def test_look_alike_letters_stay() -> None:
    cyrillic = "\u0410na"  # a Cyrillic А, then Latin n, a
    assert clean_name(cyrillic) == cyrillic != "Ana"
    assert clean_name("ΑΝΑ") == "ΑΝΑ"  # Greek capitals


def test_the_length_is_counted_as_typed() -> None:
    assert clean_name("x" * NAME_MAX_CHARS) == "x" * NAME_MAX_CHARS
    with pytest.raises(BadName, match=f"longer than {NAME_MAX_CHARS}"):
        clean_name("x" * (NAME_MAX_CHARS + 1))
    with pytest.raises(BadName, match="a name is text"):
        clean_name(7)  # type: ignore[arg-type]


def test_one_function_for_every_name() -> None:
    assert profile_clean_name is clean_name
    assert clean_name("", empty_ok=True) == ""
    with pytest.raises(BadName, match="nothing visible"):
        clean_name("")
    with pytest.raises(BadName, match="nothing visible"):
        clean_name("\u200b", empty_ok=True)


@pytest.mark.slow  # every one of Unicode's 1.1 million code points
def test_the_tables_cover_every_code_point() -> None:
    """Format characters, spaces and default-ignorable ones live only in the planes the module reads."""
    planes = {*range(0x20000), *range(0xE0000, 0xE1000)}
    for code in range(sys.maxunicode + 1):
        if code in planes:
            continue
        c = chr(code)
        assert unicodedata.category(c) not in ("Cf", "Cc", "Zs", "Zl", "Zp") and not c.isspace(), hex(code)
        assert not any(lo <= code <= hi for lo, hi in DEFAULT_IGNORABLE), hex(code)
        assert is_visible(c) or unicodedata.category(c) == "Cs", hex(code)


# -- the schema's pattern says the same ---------------------------------------------------------------
INTERESTING = C0 + C1 + BIDI + SEPARATORS + INVISIBLE + BLANK + ["A", "é", "\u0301", "👩", "\u0410", "-"]
name_texts = st.text(
    st.one_of(st.characters(exclude_categories=["Cs"]), st.sampled_from(INTERESTING)), max_size=8
)
VALIDATOR = jsonschema_rs.validator_for(
    {"type": "string", "pattern": NAME_PATTERN}, pattern_options=FANCY_REGEX_OPTIONS
)
OPTIONAL = jsonschema_rs.validator_for(
    {"type": "string", "pattern": OPTIONAL_NAME_PATTERN}, pattern_options=FANCY_REGEX_OPTIONS
)


def accepted(name: str, *, empty_ok: bool = False) -> bool:
    try:
        clean_name(name, empty_ok=empty_ok)
    except BadName:
        return False
    return True


@settings(max_examples=examples(600), deadline=None, database=None)
@given(name=name_texts)
def test_the_pattern_accepts_exactly_the_names_the_server_keeps(name: str) -> None:
    assert VALIDATOR.is_valid(name) == accepted(name), ascii(name)
    assert (re.fullmatch(NAME_PATTERN, name) is not None) == accepted(name), ascii(name)
    assert OPTIONAL.is_valid(name) == accepted(name, empty_ok=True), ascii(name)


@settings(max_examples=examples(600), deadline=None, database=None)
@given(name=name_texts)
def test_a_cleaned_name_is_clean_and_cleaning_it_again_changes_nothing(name: str) -> None:
    if not accepted(name):
        return
    cleaned = clean_name(name)
    assert clean_name(cleaned) == cleaned
    assert unicodedata.is_normalized("NFC", cleaned)
    assert is_visible(cleaned[0]) or unicodedata.category(cleaned[0]).startswith("M")
    assert not any(names._refused(c) for c in cleaned)
    assert VALIDATOR.is_valid(cleaned)


# -- at the HTTP API of a real server -----------------------------------------------------------------
@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    where = tmp_path_factory.mktemp("names")
    limits = ["--rooms-per-minute", "0", "--http-per-minute", "0"]  # names are checked here, not the limits
    with serve_process(where / "serve.log", "--data", str(where / "data"), *limits) as s:
        yield s


#: One character of each class: the server refuses it in every name, saying what it is.
REFUSED = {"C0": "Ana\x1e", "DEL": "Ana\x7f", "C1": "\x85Ana", "RLO": "Ana\u202ellebA", "LRI": "\u2066Ana"}
REFUSED |= {"RLM": "Ana\u200f", "ALM": "\u061cAna", "LINE": "Ana\u2028Beto"}
NOTHING = {"ZWSP": "\u200b", "BOM": "\ufeff", "Hangul": "\u3164", "braille": "\u2800", "nbsp": "\u00a0\u3000"}
NOTHING |= {"soft-hyphen": "\u00ad", "MVS": "\u180e", "joiners": "\u200c\u200d\u2060"}
#: What a name is kept as.
CLEANED = {
    "Ana\u200b": "Ana",
    " \ufeffBeto\u00ad ": "Beto",
    "Jose\u0301": "José",
    "👩\u200d💻 Eva": "👩\u200d💻 Eva",
}


def expect_refused(answer: httpx.Response, fragment: str) -> None:
    assert answer.status_code == 400, answer.text
    assert fragment in answer.json()["detail"], answer.text


def fragment_of(name: str) -> str:
    return "nothing visible" if name in NOTHING.values() else "may not hold"


def new_table(s: Served, name: str) -> httpx.Response:
    return httpx.post(s.base + "/api/tables", json={"players": 2, "name": name})


@pytest.mark.slow
def test_profile_names_at_the_http_api(served: Served) -> None:
    made = httpx.post(served.base + "/api/profiles", json={"name": "Ana"}).json()
    where, auth = served.base + f"/api/profiles/{made['id']}", {"Authorization": f"Bearer {made['key']}"}
    for name in [*REFUSED.values(), *NOTHING.values()]:
        expect_refused(httpx.post(served.base + "/api/profiles", json={"name": name}), fragment_of(name))
        expect_refused(httpx.patch(where, json={"name": name}, headers=auth), fragment_of(name))
    for name, kept in CLEANED.items():
        renamed = httpx.patch(where, json={"name": name}, headers=auth)
        assert renamed.status_code == 200 and renamed.json()["name"] == kept, renamed.text
        assert httpx.get(where).json()["name"] == kept
    assert httpx.post(served.base + "/api/profiles", json={"name": "Ana\u200b"}).json()["name"] == "Ana"


@pytest.mark.slow
def test_table_seat_names_at_the_http_api(served: Served) -> None:
    for name in [*REFUSED.values(), *NOTHING.values()]:
        expect_refused(new_table(served, name), fragment_of(name))
    made = new_table(served, "Ana\u200b").json()
    table = served.base + f"/api/tables/{made['room']}"
    for name in [*REFUSED.values(), *NOTHING.values()]:
        join = httpx.post(table + "/join", json={"invite": made["invite"], "name": name})
        expect_refused(join, fragment_of(name))
    joined = httpx.post(table + "/join", json={"invite": made["invite"], "name": "\u2800Beto\ufeff"})
    assert joined.status_code == 200, joined.text
    seats = httpx.get(table).json()["seats"]
    assert [s["name"] for s in seats] == ["Ana", "Beto"]


def seat_name(s: Served, room: str, token: str) -> str:
    """The name seat 0 of a room has, as the room's own socket tells it."""
    with connect(s.ws) as ws:
        ws.send(json.dumps({"v": 1, "type": "join", "room": room, "token": token}))
        state = json.loads(ws.recv(timeout=30))
        assert state["type"] == "state", state
        return str(state["seats"][0]["name"])


@pytest.mark.slow
def test_room_names_at_the_http_api(served: Served) -> None:
    for name in [*REFUSED.values(), *NOTHING.values()]:
        expect_refused(httpx.post(served.base + "/api/rooms", json={"name": name}), fragment_of(name))
        expect_refused(httpx.post(served.base + "/api/daily", json={"name": name}), fragment_of(name))
        offline = {"record": "not a record", "name": name}  # the name is read first: its refusal says why
        expect_refused(httpx.post(served.base + "/api/daily/offline", json=offline), fragment_of(name))
    expect_refused(httpx.post(served.base + "/api/rooms", json={"name": "   "}), "nothing visible")
    unnamed = httpx.post(served.base + "/api/rooms", json={"name": ""}).json()
    assert seat_name(served, unnamed["room"], unnamed["token"]) == ""
    for name, kept in CLEANED.items():
        made = httpx.post(served.base + "/api/rooms", json={"name": name})
        assert made.status_code == 200, made.text
        assert seat_name(served, made.json()["room"], made.json()["token"]) == kept


@pytest.mark.slow
def test_the_schema_publishes_the_patterns(served: Served) -> None:
    schema = httpx.get(served.base + "/api/openapi.json").json()
    patterns: list[str] = []
    todo = [schema]
    while todo:
        node = todo.pop()
        if isinstance(node, dict):
            patterns += [v for k, v in node.items() if k == "pattern"]
            todo += node.values()
        elif isinstance(node, list):
            todo += node
    # the profile's name (POST and PATCH), a table's creator and a joining seat; the optional names of a room,
    # of the deal of the day's room and of an offline deal of the day's result
    assert patterns.count(NAME_PATTERN) >= 3 and patterns.count(OPTIONAL_NAME_PATTERN) == 3
