"""The docs' references resolve (issue 26): links, cited docs and their sections, and Sphinx-style roles.

- every relative link of README.md, CHANGELOG.md and docs/*.md points at a file that exists, and a
  ``file.md#anchor`` (or ``#anchor``) at a heading that makes that anchor as GitHub makes it;
- every ``docs/NAME.md`` that README.md, docs/*.md, src/ or tests/ cite names a file that exists, and
  a section cited after it (``docs/tables.md "Names"``, ``docs/tables.md, "Names"``) is a heading of it;
- every ``:mod:`` / ``:class:`` / ``:func:`` / ``:meth:`` / ``:data:`` / ``:attr:`` / ``:exc:``
  reference in the docs and in src's docstrings and comments names a module of src, or a name such a
  module defines or imports (followed to its home), or a module (attribute) of the standard library or of
  an installed package that imports.

The modules of src are read, not imported (an index of what each defines and imports, from its syntax
tree), so the test is quick and needs no optional dependency; only references outside ``cuarenta`` are
imported.
"""

from __future__ import annotations

import ast
import builtins
import functools
import importlib
import importlib.util
import re
import sys
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
SRC = ROOT / "src"
MARKDOWN = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted(DOCS.glob("*.md"))]


def rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


# -- markdown: headings and their anchors, links -----------------------------------------------------------
FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE_DEFINITION = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")


def prose_lines(text: str) -> list[tuple[int, str]]:
    """The lines of a markdown text outside fenced code blocks, with their numbers."""
    lines, fenced = [], False
    for number, line in enumerate(text.splitlines(), start=1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            lines.append((number, line))
    return lines


def slug(heading: str) -> str:
    """The anchor GitHub makes of a heading's text (its rendered text: no link syntax, no code marks).

    >>> slug("Profiles and ratings"), slug("Storage (revision `0004`)"), slug("R12 Capture mode.")
    ('profiles-and-ratings', 'storage-revision-0004', 'r12-capture-mode')
    >>> slug("Where rules.md is silent: the engine's choices"), slug("The store's `Store.in_dir()`")
    ('where-rulesmd-is-silent-the-engines-choices', 'the-stores-storein_dir')
    """
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link: its text
    text = CODE_SPAN.sub(lambda m: m.group(2), text).replace("*", "").lower()
    kept = []
    for char in text:
        if char in " -_" or unicodedata.category(char)[0] in "LNM":
            kept.append(char)
    return "".join(kept).replace(" ", "-")


@functools.cache
def headings(path: Path) -> tuple[list[str], set[str]]:
    """A markdown file's headings (their text) and the anchors GitHub makes of them (repeats: -1, -2 …)."""
    texts: list[str] = []
    anchors: set[str] = set()
    seen: dict[str, int] = {}
    for _, line in prose_lines(path.read_text(encoding="utf-8")):
        found = HEADING.match(line)
        if not found:
            continue
        texts.append(found.group(2))
        base = slug(found.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        anchors.add(base if count == 0 else f"{base}-{count}")
    return texts, anchors


def links(path: Path) -> list[tuple[int, str]]:
    """The link targets of a markdown file (inline, images and reference definitions), outside code."""
    found = []
    for number, line in prose_lines(path.read_text(encoding="utf-8")):
        bare = CODE_SPAN.sub("", line)
        found += [(number, m.group(1)) for m in LINK.finditer(bare)]
        definition = REFERENCE_DEFINITION.match(bare)
        if definition:
            found.append((number, definition.group(1)))
    return found


def broken_link(source: Path, target: str) -> str | None:
    """What is wrong with a link of ``source`` to ``target``, or ``None`` (a link to the web: not checked)."""
    if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE) or target.startswith("//"):
        return None
    name, _, anchor = target.partition("#")
    linked = source if not name else (source.parent / name).resolve()
    if not linked.exists():
        return f"{name} does not exist"
    if not (linked == ROOT or ROOT in linked.parents):
        return f"{name} is outside the repository"
    if anchor and linked.suffix == ".md" and anchor not in headings(linked)[1]:
        return f"{rel(linked)} has no heading that makes the anchor #{anchor}"
    return None


def test_slug_is_githubs() -> None:
    """Anchors are made as GitHub makes them: lower case, punctuation dropped, spaces to hyphens."""
    assert slug("Rated play that cannot be farmed (issue 15)") == "rated-play-that-cannot-be-farmed-issue-15"
    assert slug("Caída y limpia — R15") == "caída-y-limpia--r15"
    assert slug("[docs/web.md](docs/web.md) and `x_y`") == "docswebmd-and-x_y"


@pytest.mark.parametrize("path", MARKDOWN, ids=rel)
def test_every_relative_link_resolves(path: Path) -> None:
    problems = [
        f"{rel(path)}:{number}: ({target}) {problem}"
        for number, target in links(path)
        if (problem := broken_link(path, target)) is not None
    ]
    assert not problems, "\n".join(problems)


def test_a_broken_link_is_found(tmp_path: Path) -> None:
    """The checks find a missing file and a missing anchor (and not a good link, nor one in code)."""
    page = DOCS / "ratings.md"
    assert broken_link(page, "tables.md#names") is None
    assert broken_link(page, "#fair-play") is None
    assert broken_link(page, "https://example.org/nowhere.md") is None
    assert broken_link(page, "nowhere.md") == "nowhere.md does not exist"
    assert (
        broken_link(page, "tables.md#nowhere")
        == "docs/tables.md has no heading that makes the anchor #nowhere"
    )
    draft = tmp_path / "draft.md"
    draft.write_text(
        "[a](missing.md) `[b](gone.md)`\n```\n[c](gone.md)\n```\n[d]: other.md\n", encoding="utf-8"
    )
    assert [target for _, target in links(draft)] == ["missing.md", "other.md"]


# -- docs cited by name: docs/NAME.md and its "Section" ------------------------------------------------------
CITED_DOC = re.compile(r"docs/([A-Za-z0-9_.-]+?\.md)(?:,?\s+[\"“]([^\"”\n]+)[\"”])?")
CITING = [
    ROOT / "README.md",
    *sorted(DOCS.glob("*.md")),
    *sorted(SRC.rglob("*.py")),
    *sorted(SRC.rglob("*.js")),
]
CITING += sorted((ROOT / "tests").rglob("*.py")) + sorted((ROOT / "e2e").rglob("*.py"))
CITING = [p for p in CITING if p.name != "test_docs_links.py"]


BOLD_LABEL = re.compile(r"^\s*(?:[-*]\s+|\d+\.\s+)?\*\*([^*]+?)\*\*")


@functools.cache
def sections(path: Path) -> list[str]:
    """The anchors of what a text may cite as a file's section: its headings, and the bold labels that
    open a paragraph or a list item (``**Restart.** The judge's …``)."""
    labels = [
        m.group(1)
        for _, line in prose_lines(path.read_text(encoding="utf-8"))
        if (m := BOLD_LABEL.match(line))
    ]
    return [slug(text.rstrip(".:")) for text in [*headings(path)[0], *labels]]


def heading_named(path: Path, section: str) -> bool:
    """Whether ``section`` names a section of the file: a heading or a bold label, or their first words
    ("Taking a seat back" names "Taking a seat back (issue 17)", "Announcements" names "Announcements,
    Ayudas, …")."""
    wanted = slug(section.rstrip(".:"))
    return any(have == wanted or have.startswith(wanted + "-") for have in sections(path))


def cited_problems(path: Path) -> list[str]:
    problems = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        for m in CITED_DOC.finditer(line):
            doc, section = DOCS / m.group(1), m.group(2)
            if not doc.exists():
                problems.append(f"{rel(path)}:{number}: docs/{m.group(1)} does not exist")
            elif section and not heading_named(doc, section):
                problems.append(f'{rel(path)}:{number}: docs/{m.group(1)} has no section "{section}"')
    return problems


def test_cited_docs_and_sections_exist() -> None:
    problems = [problem for path in CITING for problem in cited_problems(path)]
    assert not problems, "\n".join(problems)


# -- :mod: and friends ---------------------------------------------------------------------------------------
ROLE = re.compile(r":(mod|class|func|meth|data|attr|exc):`([^`]+)`")


@dataclass
class Klass:
    module: str
    members: set[str] = field(default_factory=set)
    bases: list[str] = field(default_factory=list)  #: as written (dotted names)
    classes: dict[str, Klass] = field(default_factory=dict)


@dataclass
class Module:
    name: str
    package: str  #: the module's package (itself for a package)
    defined: dict[str, Klass | None] = field(default_factory=dict)  #: a class, or ``None``
    imported: dict[str, str] = field(default_factory=dict)  #: a name → what it names (dotted)
    star: list[str] = field(default_factory=list)  #: the modules of ``from … import *``
    classes_at: list[tuple[int, int, Klass]] = field(default_factory=list)  #: (first, last line, class)


def _targets(node: ast.expr) -> list[str]:
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.Tuple | ast.List):
        return [n for e in node.elts for n in _targets(e)]
    return []


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value)
        return None if inner is None else f"{inner}.{node.attr}"
    if isinstance(node, ast.Subscript):  # Generic[T], Protocol[...]
        return _dotted(node.value)
    return None


def _statements(body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements of a body, those inside ``if`` / ``try`` / ``with`` blocks included."""
    found: list[ast.stmt] = []
    for node in body:
        found.append(node)
        if isinstance(node, ast.If | ast.Try | ast.With):
            for part in ("body", "orelse", "finalbody"):
                found += _statements(getattr(node, part, []))
            for handler in getattr(node, "handlers", []):
                found += _statements(handler.body)
    return found


def _class(node: ast.ClassDef, module: Module) -> Klass:
    klass = Klass(module.name, bases=[d for b in node.bases if (d := _dotted(b)) is not None])
    module.classes_at.append((node.lineno, node.end_lineno or node.lineno, klass))
    for item in _statements(node.body):
        if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
            klass.members.add(item.name)
            for sub in ast.walk(item):  # self.name = … in a method: an instance attribute
                for target in getattr(sub, "targets", [getattr(sub, "target", None)]):
                    if (
                        isinstance(target, ast.Attribute)
                        and isinstance(target.value, ast.Name)
                        and target.value.id == "self"
                    ):
                        klass.members.add(target.attr)
        elif isinstance(item, ast.ClassDef):
            klass.members.add(item.name)
            klass.classes[item.name] = _class(item, module)
        elif isinstance(item, ast.Assign):
            klass.members.update(n for t in item.targets for n in _targets(t))
        elif isinstance(item, ast.AnnAssign):
            klass.members.update(_targets(item.target))
    return klass


def _note_import(module: Module, node: ast.Import | ast.ImportFrom) -> None:
    """What an import statement of ``module`` binds: each name to the dotted name it stands for (a
    ``*`` import: its source module, searched last)."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.asname:
                module.imported[alias.asname] = alias.name
            else:
                top = alias.name.split(".")[0]
                module.imported[top] = top
        return
    base = node.module or ""
    if node.level:
        anchor = module.package.split(".")
        anchor = anchor[: len(anchor) - (node.level - 1)]
        base = ".".join(anchor + ([node.module] if node.module else []))
    for alias in node.names:
        if alias.name == "*":
            module.star.append(base)
        else:
            module.imported[alias.asname or alias.name] = f"{base}.{alias.name}"


@functools.cache
def index() -> dict[str, Module]:
    """Every module of src: what it defines and what it imports."""
    modules: dict[str, Module] = {}
    for path in sorted((SRC / "cuarenta").rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        name = ".".join(parts)
        module = Module(name, name if is_package else ".".join(parts[:-1]))
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in _statements(tree.body):
            if isinstance(node, ast.ClassDef):
                module.defined[node.name] = _class(node, module)
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                module.defined[node.name] = None
            elif isinstance(node, ast.Assign):
                module.defined.update(dict.fromkeys((n for t in node.targets for n in _targets(t)), None))
            elif isinstance(node, ast.AnnAssign | ast.AugAssign):
                module.defined.update(dict.fromkeys(_targets(node.target), None))
            elif isinstance(node, ast.Import | ast.ImportFrom):
                _note_import(module, node)
        modules[name] = module
    return modules


@functools.cache
def outside(dotted: str) -> bool:
    """Whether a name outside src resolves: in the standard library its longest importable prefix, then
    attributes; of another package, that it is installed (not imported: the test stays quick)."""
    parts = dotted.split(".")
    if parts[0] not in sys.stdlib_module_names and not hasattr(builtins, parts[0]):
        return importlib.util.find_spec(parts[0]) is not None
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attribute in parts[cut:]:
            if not hasattr(found, attribute):
                return False
            found = getattr(found, attribute)
        return True
    return hasattr(builtins, parts[0]) and outside_attr(getattr(builtins, parts[0]), parts[1:])


def outside_attr(found: object, parts: list[str]) -> bool:
    for attribute in parts:
        if not hasattr(found, attribute):
            return False
        found = getattr(found, attribute)
    return True


def in_class(klass: Klass, parts: list[str], depth: int = 0) -> bool:
    """Whether ``parts`` names a member of ``klass`` (or of a base class; a base outside src: assumed)."""
    if not parts:
        return True
    if depth > 20:
        return False
    head, rest = parts[0], parts[1:]
    if head in klass.classes:
        return in_class(klass.classes[head], rest, depth + 1)
    if head in klass.members:
        return True  # an attribute's own attributes are not followed
    for base in klass.bases:
        home = lookup(klass.module, base.split("."))
        if isinstance(home, Klass):
            if in_class(home, parts, depth + 1):
                return True
            continue
        resolved = resolve_name(klass.module, base) or base  # a base outside src, or a builtin
        if not resolved.startswith("cuarenta.") and outside(".".join([resolved, *parts])):
            return True
    return False


def resolve_name(module: str, dotted: str) -> str | None:
    """What a name written in ``module`` means, as a dotted name (through its imports), or ``None``."""
    head, _, rest = dotted.partition(".")
    found = index()[module]
    if head in found.imported:
        target = found.imported[head]
        return f"{target}.{rest}" if rest else target
    if head in found.defined:
        return f"{module}.{dotted}"
    return None


def lookup(module: str, parts: list[str], depth: int = 0) -> Klass | str | None:
    """What ``parts`` names in ``module``: a class, ``"ok"`` (a module, a function, a value, something
    outside src that resolves), or ``None`` (nothing)."""
    if depth > 30:
        return None
    modules = index()
    found = modules[module]
    if not parts:
        return "ok"
    head, rest = parts[0], parts[1:]
    if head in found.defined:
        klass = found.defined[head]
        if klass is None:
            return "ok"
        if not rest:
            return klass
        return "ok" if in_class(klass, rest) else None
    if f"{module}.{head}" in modules:
        return lookup(f"{module}.{head}", rest, depth + 1)
    if head in found.imported:
        return absolute(f"{found.imported[head]}{'.' if rest else ''}{'.'.join(rest)}", depth + 1)
    for source in found.star:
        if source in modules:
            result = lookup(source, parts, depth + 1)
            if result is not None:
                return result
    return None


def absolute(dotted: str, depth: int = 0) -> Klass | str | None:
    """What a fully qualified name names (see :func:`lookup`)."""
    modules = index()
    parts = dotted.split(".")
    if parts[0] != "cuarenta":
        return "ok" if outside(dotted) else None
    for cut in range(len(parts), 0, -1):
        name = ".".join(parts[:cut])
        if name in modules:
            return lookup(name, parts[cut:], depth)
    return None


def resolves(target: str, module: str | None, klass: Klass | None) -> bool:
    """Whether a role's target resolves, read in ``module`` (``None``: the docs) within ``klass``."""
    target = target.strip().lstrip("~!")
    if "<" in target and target.endswith(">"):
        target = target[target.rindex("<") + 1 : -1]
    target = target.removesuffix("()")
    relative = target.startswith(".")
    name = target.lstrip(".")
    if not relative and absolute(name) is not None:
        return True
    if module is None:
        return False
    parts = name.split(".")
    if klass is not None and in_class(klass, parts):
        return True
    if lookup(module, parts) is not None:
        return True
    package = index()[module].package.split(".")
    while package:  # a sibling module, or a name of a package above
        if absolute(".".join([*package, name])) is not None:
            return True
        package.pop()
    # a member of a class of the module (``:meth:`sit_reserved``` in another class's docstring)
    return len(parts) == 1 and any(in_class(k, parts) for _, _, k in index()[module].classes_at)


def module_of(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def role_problems() -> list[str]:
    problems = []
    for path in MARKDOWN:
        if path.name == "CHANGELOG.md":  # the record of the past names what was, then
            continue
        for number, line in prose_lines(path.read_text(encoding="utf-8")):
            for m in ROLE.finditer(line):
                if not resolves(m.group(2), None, None):
                    problems.append(f"{rel(path)}:{number}: :{m.group(1)}:`{m.group(2)}`")
    for path in sorted((SRC / "cuarenta").rglob("*.py")):
        module = module_of(path)
        spans = index()[module].classes_at
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            for m in ROLE.finditer(line):
                inner = [k for first, last, k in spans if first <= number <= last]
                klass = inner[-1] if inner else None
                if not resolves(m.group(2), module, klass):
                    problems.append(f"{rel(path)}:{number}: :{m.group(1)}:`{m.group(2)}`")
    return problems


def test_every_role_reference_resolves() -> None:
    problems = role_problems()
    assert not problems, f"{len(problems)} references name nothing:\n" + "\n".join(problems)


def test_a_role_that_names_nothing_is_found() -> None:
    """The resolver accepts what exists (a module, a class's method, a name imported, the standard
    library) and finds what does not."""
    assert resolves("cuarenta.game.Game.play", None, None)
    assert resolves("~cuarenta.rules.Rules", None, None)
    assert resolves("json.loads", None, None)
    assert resolves("Game.from_position", "cuarenta.game", None)
    assert not resolves("cuarenta.game.Game.fly", None, None)
    assert not resolves("cuarenta.nowhere", None, None)
    assert not resolves("json.nothing_here", None, None)
    assert not resolves("Nowhere", "cuarenta.game", None)
