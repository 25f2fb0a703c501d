"""The one text catalogue (``src/cuarenta/locale``): complete in every language, used as it is by Python and
by the page, and the only place of every message and saying.

- every key exists in every language, in the same file, with the same ``{placeholders}``, and every
  template uses plain ``{name}`` fields only (the page fills those and nothing else);
- every option, choice, preset, level, event kind and saying has its texts;
- the loader refuses a broken catalogue (bad JSON, a key in two files, a value that is not text);
- the page's code names only keys that exist, and every key of the page and the terminal is used;
- no message or saying is written in another file of ``src/`` (nor twice in the catalogue);
- the page words events, points and sayings exactly as Python does (its i18n.js run by Node over the
  events of random games), so the browser and the terminal tell the same story.
"""

from __future__ import annotations

import ast
import json
import random
import re
import shutil
import string
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from cuarenta import OPTIONS, PRESET_NAMES, Game, Rules, catalogue
from cuarenta import events as events_module
from cuarenta.events import Event
from cuarenta.i18n import (
    SAYING_KEYS,
    SAYINGS_LANG,
    describe_event,
    points_text,
    saying_text,
    seat_names,
    team_names,
)
from cuarenta.server.authority.model import LEVELS

SRC = Path(__file__).resolve().parents[1] / "src" / "cuarenta"
STATIC = SRC / "web" / "static"
LANGS = catalogue.LANGS
#: Keys whose text may be the same in every language (names that are the game's own words, numbers, forms).
SAME_IN_EVERY_LANGUAGE = {
    "rating.leaderboard_short",
    "word.list_sep",
    "points.perros.one",
    "points.perros.other",
    "points.tantos.one",
    "points.tantos.other",
    "points.equal",
    "score.entry",
    "ev.hand_end.pile",
    "term.demo.chica_header",
    "kind.caida",
    "kind.limpia",
    "kind.caida_limpia",
    "kind.caida_ronda",
    "kind.carton",
    "kind.zapatero",
    "level.normal",
    "preset.a_todo_rigor",
    "preset.todo_dos",
    "option.treinta_y_ocho",
    "option.chicas.1",
    "option.chicas.2",
    "option.chicas.3",
    "option.treinta_y_ocho.no",
    "option.cuatro_caidas_gana.no",
    "option.caida_across_deals.no",
    "option.zapatero_wins_mesa.no",
    "page.players_2_sub",
    "page.pile_count",
    "page.score_aria",
    "page.chicas_label",
    "page.mesa_label",
    "page.rondas_label",
    "page.names.score",
    "page.result.chica",
    "page.result.chicas",
    "page.summary.carton",
    "page.carton.dos_por_dar",
    "page.col.caidas",
    "page.col.limpias",
    "page.err.generic",
    "page.hint.limpia",
    "error.position_card",
}
#: A message fragment this long is a text of its own: it may be written only in the catalogue.
MIN_FRAGMENT = 20


def own_files() -> dict[str, dict[str, str]]:
    """Each language's files (without the common ones), by file name."""
    return {
        lang: {
            name.split("/", 1)[1]: data
            for name, data in catalogue.files(lang).items()
            if name.startswith(lang)
        }
        for lang in LANGS
    }


# -- completeness -------------------------------------------------------------------------------------------
def test_every_key_is_in_every_language_in_the_same_file_with_the_same_placeholders() -> None:
    files = own_files()
    names = {lang: set(files[lang]) for lang in LANGS}
    assert all(n == names["es"] for n in names.values()), names
    for name in names["es"]:
        keys = {lang: set(files[lang][name]) for lang in LANGS}
        for lang in LANGS:
            assert keys[lang] == keys["es"], f"{lang}/{name} differs: {sorted(keys[lang] ^ keys['es'])}"
    for key in catalogue.messages("es"):
        fields = {lang: catalogue.placeholders(catalogue.messages(lang)[key]) for lang in LANGS}
        assert all(f == fields["es"] for f in fields.values()), f"placeholders of {key!r} differ: {fields}"
        for lang in LANGS:
            assert catalogue.messages(lang)[key].strip(), f"empty text {key!r} in {lang}"


def test_templates_use_plain_fields_that_the_page_fills_alike() -> None:
    for lang in LANGS:
        for key, template in catalogue.messages(lang).items():
            for literal, field, spec, conversion in string.Formatter().parse(template):
                assert "{" not in literal and "}" not in literal, f"{key}: no escaped braces ({template!r})"
                if field is not None:
                    assert re.fullmatch(r"\w+", field) and not spec and conversion is None, (key, template)


def test_the_languages_really_differ() -> None:
    same = {k for k, v in catalogue.messages("es").items() if catalogue.messages("en")[k] == v}
    common = {k for name, data in catalogue.files("es").items() if name.startswith("common/") for k in data}
    assert same - common <= SAME_IN_EVERY_LANGUAGE, sorted(same - common - SAME_IN_EVERY_LANGUAGE)
    assert not SAME_IN_EVERY_LANGUAGE - same, sorted(SAME_IN_EVERY_LANGUAGE - same)  # keep the list honest


def test_no_text_is_written_twice_in_the_catalogue() -> None:
    """(Outside the engine's errors, ``error.*``, which have tests of their own.)"""
    for lang in LANGS:
        seen: dict[str, str] = {}
        for key, value in catalogue.messages(lang).items():
            if len(value) >= 12 and not key.startswith("error."):
                assert value not in seen, f"{key!r} and {seen[value]!r} of {lang} say the same: {value!r}"
                seen[value] = key


def test_every_option_preset_level_event_and_saying_has_its_texts() -> None:
    for lang in LANGS:
        texts = catalogue.messages(lang)
        for spec in OPTIONS:
            assert spec.label_key in texts
            for choice in spec.choices:
                assert spec.choice_key(choice) in texts, (lang, spec.name, choice)
        for name in (*PRESET_NAMES, "custom"):
            assert f"preset.{name}" in texts and f"preset.{name}.about" in texts
        for level in LEVELS:
            assert f"level.{level}" in texts and f"level.{level}.about" in texts
        kinds = {
            cls.kind
            for cls in vars(events_module).values()
            if isinstance(cls, type) and issubclass(cls, Event)
        }
        kinds.discard(Event.kind)
        assert kinds and all(f"kind.{kind}" in texts for kind in kinds)
        sayings = {key.split(".")[1] for key in texts if re.fullmatch(r"saying\.\w+", key)}
        assert sayings == set(SAYING_KEYS)
        assert all(f"saying.{key}.gloss" in texts for key in SAYING_KEYS)


def test_the_sayings_are_written_once_for_every_language() -> None:
    common = catalogue.files(SAYINGS_LANG)["common/sayings.json"]
    words = [key for key in common if not key.startswith("saying.number.")]
    assert words == [f"saying.{key}" for key in SAYING_KEYS]  # the rules pages list them in this order
    assert {common[f"saying.number.{n}"] for n in (2, 4)} == {"Dos", "Cuatro"}
    for lang in LANGS:
        for name, data in own_files()[lang].items():
            assert not set(data) & set(common), f"{lang}/{name} repeats a saying"
        assert catalogue.messages(lang)["saying.voy_llucho"] == "¡Voy llucho!"


# -- the loader ---------------------------------------------------------------------------------------------
@pytest.fixture
def fake_locale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty locale folder the loader reads instead of the package's."""
    root = tmp_path / "locale"
    for name in (*LANGS, catalogue.COMMON):
        (root / name).mkdir(parents=True)
    monkeypatch.setattr(catalogue, "locale_dir", lambda: root)
    catalogue.files.cache_clear()
    catalogue.messages.cache_clear()
    yield root
    catalogue.files.cache_clear()
    catalogue.messages.cache_clear()


def write(path: Path, data: object) -> None:
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


def test_the_loader_merges_a_languages_files_and_the_common_ones(fake_locale: Path) -> None:
    write(fake_locale / "es" / "a.json", {"x.one": "uno {n}"})
    write(fake_locale / "en" / "a.json", {"x.one": "one {n}"})
    write(fake_locale / catalogue.COMMON / "s.json", {"x.said": "¡Dicho!"})
    (fake_locale / "es" / "notes.txt").write_text("not a catalogue file")
    assert catalogue.messages("en") == {"x.one": "one {n}", "x.said": "¡Dicho!"}
    assert catalogue.text("x.one", "es", n=2) == "uno 2"
    with pytest.raises(ValueError, match="unknown language 'common'"):
        catalogue.messages(catalogue.COMMON)


@pytest.mark.parametrize(
    ("files", "message"),
    [
        (
            {"es/a.json": {"k": "a"}, "es/b.json": {"k": "b"}},
            "key 'k' of es is in both es/a.json and es/b.json",
        ),
        ({"es/a.json": {"k": "a"}, "common/s.json": {"k": "b"}}, "key 'k' of es is in both"),
        ({"es/a.json": {"k": 1}}, "locale/es/a.json must be an object of text keys and text values"),
        ({"es/a.json": ["k"]}, "locale/es/a.json must be an object"),
        ({"common/s.json": "{"}, "locale/common/s.json is not valid JSON"),
    ],
)
def test_the_loader_refuses_a_broken_catalogue(
    fake_locale: Path, files: dict[str, object], message: str
) -> None:
    for name, data in files.items():
        path = fake_locale / name
        if isinstance(data, str):
            path.write_text(data, encoding="utf-8")
        else:
            write(path, data)
    with pytest.raises(catalogue.CatalogueError, match=re.escape(message)):
        catalogue.messages("es")


# -- the page's code and the catalogue ----------------------------------------------------------------------
KEY_CALL = re.compile(r"""\b(?:t|hasKey)\(\s*(["'])([\w.]+)\1""")
KEY_PREFIX = re.compile(r"""`([a-z]+\.[\w.]*)\$\{""")  # a key built in a template: `page.err.${code}`
#: i18n.js's ``variant("ev.carton", reason, "none")`` names ``ev.carton.<reason>``.
VARIANT = re.compile(r'\bvariant\(\s*"([\w.]+)"')
HTML_KEY = re.compile(r"""data-i18n(?:-aria|-title|-placeholder)?="([\w.]+)\"""")


def page_keys() -> tuple[set[str], set[str]]:
    """The keys the page names literally, and the prefixes of the keys it builds (`page.err.${code}`)."""
    literal: set[str] = set()
    prefixes: set[str] = set()
    for path in STATIC.glob("*.js"):
        code = path.read_text(encoding="utf-8")
        literal |= {m.group(2) for m in KEY_CALL.finditer(code)}
        prefixes |= {m.group(1) for m in KEY_PREFIX.finditer(code)}
        prefixes |= {m.group(1) + "." for m in VARIANT.finditer(code)}
    for path in STATIC.glob("*.html"):
        literal |= set(HTML_KEY.findall(path.read_text(encoding="utf-8")))
    return literal, prefixes


def test_the_page_names_only_keys_that_exist() -> None:
    literal, prefixes = page_keys()
    assert len(literal) > 100 and "page.new_game" in literal and "ev.limpia" in literal
    texts = catalogue.messages("es")
    assert sorted(literal - set(texts)) == []
    for prefix in prefixes:
        assert any(k.startswith(prefix) for k in texts), prefix


def test_every_text_of_the_page_and_the_terminal_is_used() -> None:
    _, prefixes = page_keys()
    page = "\n".join(p.read_text(encoding="utf-8") for p in [*STATIC.glob("*.js"), *STATIC.glob("*.html")])
    python = "\n".join(p.read_text(encoding="utf-8") for p in (SRC / "cli").glob("*.py"))
    for key in catalogue.messages("es"):
        if key.startswith("page."):
            used = f'"{key}"' in page or any(key.startswith(p) for p in prefixes)
            assert used, f"{key} is not used by the page"
        if key.startswith("term."):
            assert f'"{key}"' in python or f"'{key}'" in python, f"{key} is not used by the terminal"


def test_the_page_holds_no_text() -> None:
    """No Spanish or English sentence in the page's HTML outside the catalogue: its elements are filled
    from it (the rules pages are prose of their own, checked by the next test)."""
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    body = html[html.index("<body>") :]
    symbols = ("×", "☰", "Cuarenta")  # a close mark, the table menu's icon (aria-hidden), the game's name
    shown = [t.strip() for t in re.findall(r">([^<>]+)<", body) if t.strip() and t.strip() not in symbols]
    assert shown == []
    assert not re.search(r"\son\w+=", html), (
        "no inline event handler (a strict Content-Security-Policy is coming)"
    )
    assert not re.search(r"<script(?![^>]*\bsrc=)", html), "no inline script"
    for path in STATIC.glob("*.html"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"\son\w+=", text) and not re.search(r"<script(?![^>]*\bsrc=)", text), path.name


# -- one place for every text -------------------------------------------------------------------------------
def strings_of_python(path: Path) -> str:
    """A Python file's string literals, without docstrings (a doctest may show what a function returns)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docs.add(id(first.value))
    return "\n".join(
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs
    )


def source_texts() -> dict[str, str]:
    """Every file of ``src/cuarenta`` outside the catalogue, as the text a message could hide in."""
    out = {}
    for path in sorted(SRC.rglob("*")):
        if not path.is_file() or "locale" in path.parts or "__pycache__" in path.parts:
            continue
        if path.suffix == ".py":
            out[str(path.relative_to(SRC))] = strings_of_python(path)
        elif path.suffix in (".js", ".html", ".css", ".md", ".json", ".svg", ".txt"):
            out[str(path.relative_to(SRC))] = path.read_text(encoding="utf-8")
    return out


def test_no_message_or_saying_is_written_outside_the_catalogue() -> None:
    """Every saying (words and gloss) and every message fragment of 20 characters or more between two
    placeholders is found in no other file of src/. The engine's errors (``error.*``) are left to their
    own tests: the library's English messages quote some of them."""
    sources = source_texts()
    assert "web/static/app.js" in sources and "i18n.py" in sources
    found = []
    for lang in LANGS:
        for key, value in catalogue.messages(lang).items():
            if key.startswith("error."):
                continue
            saying = key.startswith("saying.") and not key.startswith("saying.number.")
            shortest = 4 if saying else MIN_FRAGMENT
            for literal, _, _, _ in string.Formatter().parse(value):
                fragment = literal.strip()
                if len(fragment) >= shortest:
                    found += [(key, fragment, name) for name, text in sources.items() if fragment in text]
    assert found == []


# -- the page says what Python says -------------------------------------------------------------------------
NODE = shutil.which("node")
NODE_SCRIPT = r"""
import * as I from "%s";
const input = JSON.parse(await new Promise((resolve) => {
  let data = "";
  process.stdin.on("data", (chunk) => (data += chunk));
  process.stdin.on("end", () => resolve(data));
}));
for (const [lang, texts] of Object.entries(input.texts)) I.useTexts(lang, texts);
const out = input.cases.map((c) => {
  I.setLang(c.lang, false);
  const names = { seat: (i) => c.seats[i] ?? String(i + 1), team: (i) => c.teams[i] };
  names.players = c.seats.length;
  return {
    text: I.describeEvent(c.event, names),
    sayings: (c.event.sayings ?? []).map((k) => I.sayingLine(k, I.sayingPoints(c.event))),
    points: I.pointsWords(c.points, c.marks),
  };
});
process.stdout.write(JSON.stringify(out));
"""


@pytest.mark.skipif(NODE is None, reason="no node to run the page's JavaScript")
def test_the_page_words_events_sayings_and_points_as_python_does() -> None:
    from cuarenta.i18n import SayingLog
    from cuarenta.server.authority.eventview import marks, wire_event

    cases, expected = [], []
    for preset, players, seed in [
        ("a_todo_rigor", 2, 1),
        ("campeonato", 4, 2),
        ("todo_dos", 4, 3),
        ("basico", 2, 4),
    ]:
        rules = Rules.preset(preset, players)
        game = Game.new(rules, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            game.play(rng.choice(game.legal_moves()))
        keys = SayingLog().update(game)
        for lang in LANGS:
            seats = (
                seat_names(players, lang) if lang == "en" else ["Ana", "Computadora", "Luis", "Eva"][:players]
            )
            teams = team_names(seats, lang)
            for i, (event, said) in enumerate(zip(game.events, keys, strict=True)):
                if event.kind == "deal" and rng.random() < 0.7:
                    continue  # enough of those
                points = rng.randrange(0, 60, 2)
                cases.append(
                    {
                        "lang": lang,
                        "event": wire_event(game, i, said),  # as the server sends it
                        "seats": seats,
                        "teams": teams,
                        "points": points,
                        "marks": marks(points),
                    }
                )
                p = getattr(event, "points", 2)
                p = p if isinstance(p, int) and p > 0 else 2
                expected.append(
                    {
                        "text": describe_event(event, lang, seats),
                        "sayings": [saying_text(k, lang, p) for k in said],
                        "points": points_text(points, lang),
                    }
                )
    module = (STATIC / "i18n.js").as_uri()
    payload = {"texts": {lang: catalogue.messages(lang) for lang in LANGS}, "cases": cases}
    run = subprocess.run(
        [str(NODE), "--input-type=module", "-e", NODE_SCRIPT % module],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    got = json.loads(run.stdout)
    assert len(got) == len(expected) > 500
    kinds = set()
    for case, mine, theirs in zip(cases, got, expected, strict=True):
        assert mine == theirs, (case["lang"], case["event"])
        kinds.add(case["event"]["kind"])
    assert {"caida", "limpia", "play", "carton", "chica_won", "mesa_won", "hand_end", "dealer_draw"} <= kinds
    assert any(c["event"]["sayings"] for c in cases)
