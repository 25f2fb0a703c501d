"""The page's ES modules (src/cuarenta/web/static, docs/web.md "Files"): how they hang together.

No import cycles; one module owns each door to the server (api.js every HTTP call, connection.js the
socket, moves.js what is sent on it); every field of the page's state is declared in store.js; and none of
the rules the server now describes is worked out again in JavaScript (docs/web.md, "The page renders what
the server sends").
"""

from __future__ import annotations

import graphlib
import re
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parent.parent / "src" / "cuarenta" / "web" / "static"
IMPORT = re.compile(
    r"""(?:import|export)\s[^'"]*?from\s*['"](\.{1,2}/[^'"]+)['"]|import\s*\(\s*['"](\.{1,2}/[^'"]+)['"]"""
)


def sources(static: Path = STATIC) -> dict[str, str]:
    return {f.name: f.read_text(encoding="utf-8") for f in sorted(static.glob("*.js"))}


def import_graph(static: Path = STATIC) -> dict[str, set[str]]:
    """Each module's page modules (``import … from "./x.js"`` and ``import("./x.js")``)."""
    return {
        name: {Path(m.group(1) or m.group(2)).name for m in IMPORT.finditer(text)}
        for name, text in sources(static).items()
    }


def import_cycle(static: Path = STATIC) -> list[str] | None:
    """One import cycle among the modules of ``static`` (its modules in order), or None."""
    try:
        tuple(graphlib.TopologicalSorter(import_graph(static)).static_order())
    except graphlib.CycleError as exc:
        return list(exc.args[1])
    return None


def test_the_graph_reads_the_imports() -> None:
    graph = import_graph()
    assert len(graph) >= 30
    assert {"store.js", "connection.js", "moves.js", "api.js", "session.js"} <= set(graph)
    assert "store.js" in graph["table.js"] and "moves.js" in graph["table.js"]
    assert all(dep in graph for deps in graph.values() for dep in deps)  # every import names a module


def test_no_import_cycle(tmp_path: Path) -> None:
    assert import_cycle() is None
    # the check finds one: two modules that import each other
    (tmp_path / "a.js").write_text('import { b } from "./b.js";\nexport const a = 1;\n')
    (tmp_path / "b.js").write_text('import { a } from "./a.js";\nexport const b = 2;\n')
    cycle = import_cycle(tmp_path)
    assert cycle is not None and set(cycle) == {"a.js", "b.js"}


#: Modules that fetch static files, never the API: offline.js the offline pack's files (device/, into Cache
#: Storage), sw.js (the service worker, not a page module) the page shell for its cache, device.js
#: site.json (which transport: it cannot import api.js, which imports it), device-worker.js (the Web
#: Worker, not a page module) the pack's files it loads.
STATIC_FETCHERS = ["device-worker.js", "device.js", "offline.js", "sw.js"]


def test_every_http_call_goes_through_api_js() -> None:
    callers = sorted(name for name, text in sources().items() if re.search(r"\bfetch\(", text))
    assert callers == sorted(["api.js", *STATIC_FETCHERS])
    for name in STATIC_FETCHERS:
        assert not re.search(r"""fetch\([^)]*['"`]api/""", sources()[name]), name


def test_the_socket_is_connection_js_and_only_moves_js_sends_on_it() -> None:
    found = sorted(name for name, text in sources().items() if "new WebSocket(" in text)
    assert found == ["connection.js"]
    senders = sorted(name for name, text in sources().items() if re.search(r"\bconn\.send\(", text))
    assert senders == ["moves.js"]


def test_every_field_of_the_state_is_declared_in_store_js() -> None:
    store = sources()["store.js"]
    block = store[store.index("const fields = {") : store.index("\n};", store.index("const fields = {"))]
    declared = set(re.findall(r"^  (\w+):", block, re.M))
    assert {"msg", "queue", "session", "conn", "pending", "tableInfo", "rematchSent"} <= declared
    used = {
        (name, field)
        for name, text in sources().items()
        for field in re.findall(r"\bapp\.(\w+)\b(?!\.js)", text)
    }
    assert sorted((n, f) for n, f in used if f not in declared and f != "js") == []


@pytest.mark.parametrize(
    ("what", "pattern"),
    [
        ("the move notation parsed", r"parseMove|split\(/\\s\+x/\)"),
        ("perros and tantos worked out", r"tantosPerros|% 10\)|/ 10\)"),
        ("the deal size hard-coded", r"40 / \(5|5 \* v\.players|5 \* names\.players"),
        ("scores added up", r"\+ e\.points|\+= e\.points"),
        ("piles counted", r"pile_sizes\[e\.team\]"),
        ("a claim's victim worked out", r"players\(\) - 1\) %|players - 1\) %"),
    ],
)
def test_no_rule_is_worked_out_in_the_page(what: str, pattern: str) -> None:
    found = sorted(name for name, text in sources().items() if re.search(pattern, text))
    assert found == [], f"{what} in {found}"


def test_the_page_speaks_version_2_and_wire_js_alone_applies_its_frames() -> None:
    texts = sources()
    assert re.search(r"export const PROTOCOL = 2;", texts["connection.js"])
    readers = sorted(name for name, text in texts.items() if re.search(r'"(snapshot|resumed)"', text))
    assert readers == ["wire.js"]
    # every frame the socket brings goes through the Wire before anything else of the page sees it
    assert "wire.js" in import_graph()["session.js"]
    assert re.search(
        r"message: \(frame\) => \{\s*for \(const msg of app\.wire\.receive\(frame\)\)", texts["session.js"]
    )


def test_the_page_holds_the_version_2_state_and_builds_no_version_1_state() -> None:
    """wire.js, run in node, hands the page an ``update``: the version-2 state (``version``, the view
    without the hand, the seat's ``private`` part) with the change's events; no module of the page reads
    or builds a version-1 ``state`` message any more."""
    import json
    import shutil
    import subprocess

    texts = sources()
    assert not [
        n for n, text in texts.items() if re.search(r"""type (===|!==) "state"|type: "state\"""", text)
    ]
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    script = """
      const { Wire, own } = await import(process.argv[1]);
      const wire = new Wire();
      const view = { seat: 0, turn: 0, history: [], hand: ["stale"] };
      const part = { hand: ["7h", "Kc"], legal: ["7h"], moves: [], hints: [] };
      const [first] = wire.receive({ type: "snapshot", v: 2, room: "r", version: 3, mesa: 1, seat: 0,
        seats: [], view, status: "playing", events: [], private: part });
      const [next] = wire.receive({ type: "event", v: 2, base: 3, version: 4, view: { turn: 1 }, history: 10,
        events: [{ kind: "play", seat: 0, card: "7h" }], private: { hand: ["Kc"], legal: [], moves: [] } });
      const watcher = new Wire();
      const [watched] = watcher.receive({ type: "snapshot", v: 2, room: "r", version: 3, mesa: 1, seat: null,
        seats: [], view: { seat: null, history: [] }, status: "playing", events: [], private: null });
      console.log(JSON.stringify({ first, next, version: wire.version, spectator: own(watched), watched }));
    """
    wire = (STATIC / "wire.js").as_uri()
    result = subprocess.run(
        [node, "--input-type=module", "-e", script, wire],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    out = json.loads(result.stdout)
    first, nxt = out["first"], out["next"]
    assert first["type"] == "update" and first["version"] == 3 and "state" not in first
    assert "hand" not in first["view"] and "legal" not in first  # the hand and moves are the private part's
    assert first["private"] == {"hand": ["7h", "Kc"], "legal": ["7h"], "moves": [], "hints": []}
    assert nxt["version"] == 4 == out["version"] and nxt["view"]["turn"] == 1
    assert nxt["events"] == [{"kind": "play", "seat": 0, "card": "7h"}] == nxt["view"]["history"]
    assert nxt["private"] == {"hand": ["Kc"], "legal": [], "moves": [], "hints": []}  # hints kept
    assert out["watched"]["private"] is None
    assert out["spectator"] == {"hand": [], "legal": [], "moves": [], "hints": []}
