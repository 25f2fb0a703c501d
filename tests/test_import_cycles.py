"""No import cycle among src/cuarenta's modules (issue 26: "no import inside a function to dodge a cycle").

The graph is read with :mod:`ast`, as tests/test_page_modules.py reads the page's: an edge for every
``import``/``from … import`` of a module of the package, those under ``if TYPE_CHECKING:`` excluded (they
never run). :func:`import_graph` reads the imports a module runs when it is loaded (module level, a
``try``/``if`` at module level included); with ``deferred=True`` also those inside functions, so that an
import moved into a function to dodge a cycle is still found as the cycle it is.
"""

from __future__ import annotations

import ast
import graphlib
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"


def module_name(root: Path, path: Path) -> str:
    """``cuarenta/server/__init__.py`` → ``cuarenta.server``; ``cuarenta/cards.py`` → ``cuarenta.cards``."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.Module, deferred: bool) -> list[ast.Import | ast.ImportFrom]:
    """The import statements of a module that run: at module level (in a ``try``, an ``if``, a ``with``),
    not under ``if TYPE_CHECKING:``; inside functions and classes too if ``deferred``."""
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(nodes: list[ast.stmt]) -> None:
        for node in nodes:
            if isinstance(node, ast.Import | ast.ImportFrom):
                found.append(node)
            elif isinstance(node, ast.If):
                if not _type_checking(node):
                    visit(node.body)
                visit(node.orelse)
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                if deferred or isinstance(node, ast.ClassDef):  # a class body runs when it is defined
                    visit(node.body)
            else:  # try, with, for, while, match: their bodies run at module level
                for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                    for child in getattr(node, field, []):
                        visit(
                            child.body if isinstance(child, ast.ExceptHandler | ast.match_case) else [child]
                        )

    visit(tree.body)
    return found


def import_graph(root: Path, package: str, *, deferred: bool = False) -> dict[str, set[str]]:
    """Each module of ``package`` (under ``root``) → the modules of the package it imports."""
    files = {module_name(root, p): p for p in sorted((root / package).rglob("*.py"))}
    graph: dict[str, set[str]] = {m: set() for m in files}
    for mod, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        is_package = path.name == "__init__.py"
        for node in _imports(tree, deferred):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                if node.level:  # relative: from the module's package, one level up per extra dot
                    base = mod.split(".") if is_package else mod.split(".")[:-1]
                    base = base[: len(base) - (node.level - 1)]
                    stem = ".".join([*base, *([node.module] if node.module else [])])
                else:
                    stem = node.module or ""
                # ``from pkg import sub`` ties to the submodule ``pkg.sub``, not to ``pkg``'s __init__
                # (which Python runs first for every submodule alike); ``from pkg import name``, to pkg
                subs = [f"{stem}.{alias.name}" for alias in node.names]
                targets = [t for t in subs if t in files]
                if len(targets) < len(subs):
                    targets.append(stem)
            for target in targets:
                while target and target not in files:
                    target = target.rpartition(".")[0]
                if target and target != mod and target.split(".")[0] == package:
                    graph[mod].add(target)
    return graph


def import_cycle(root: Path, package: str, *, deferred: bool = False) -> list[str] | None:
    """One import cycle among ``package``'s modules (its modules in order, the first repeated last), or
    None."""
    graph = import_graph(root, package, deferred=deferred)
    try:
        tuple(graphlib.TopologicalSorter(graph).static_order())
    except graphlib.CycleError as exc:
        return list(exc.args[1])
    return None


def test_the_graph_reads_the_imports() -> None:
    graph = import_graph(SRC, "cuarenta")
    assert len(graph) > 150
    assert "cuarenta.server.authority.audience" in graph["cuarenta.server.authority.wire.events"]
    assert "cuarenta.game" in graph["cuarenta.server.authority.model"]
    # an import under TYPE_CHECKING is not an edge: audience names the Room only for its types
    assert "cuarenta.server.authority.model" not in graph["cuarenta.server.authority.audience"]
    assert all(dep in graph for deps in graph.values() for dep in deps)


def test_no_import_cycle_in_src() -> None:
    assert import_cycle(SRC, "cuarenta") is None


def test_no_import_cycle_dodged_inside_a_function() -> None:
    """The imports inside functions left in src defer a heavy or optional dependency (the web stack,
    Redis, psycopg, the offline pack's builders) or a lazy public name (PEP 562); none closes a cycle."""
    assert import_cycle(SRC, "cuarenta", deferred=True) is None


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_the_check_finds_a_cycle(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "from pkg.b import B\nA = 1\n",
            "pkg/b.py": "from pkg import c\nB = 2\n",
            "pkg/c.py": "try:\n    from . import a\nexcept ImportError:\n    a = None\n",
            "pkg/d.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.a import A\n",
            "pkg/e.py": "import pkg.d\n\ndef f():\n    from pkg.f import F\n",
            "pkg/f.py": "from pkg.e import f\nF = 3\n",
        },
    )
    cycle = import_cycle(tmp_path, "pkg")
    assert cycle is not None and set(cycle) == {"pkg.a", "pkg.b", "pkg.c"}
    graph = import_graph(tmp_path, "pkg")
    assert graph["pkg.d"] == set()  # TYPE_CHECKING only
    assert graph["pkg.e"] == {"pkg.d"}  # the import inside f does not run when pkg.e loads
    # the one inside a function dodges a cycle: found when deferred imports count
    (tmp_path / "pkg" / "c.py").write_text("X = 1\n", encoding="utf-8")
    assert import_cycle(tmp_path, "pkg") is None
    dodged = import_cycle(tmp_path, "pkg", deferred=True)
    assert dodged is not None and set(dodged) == {"pkg.e", "pkg.f"}
