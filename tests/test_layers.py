"""The package's layers (docs/architecture.md): what each part may import.

- the engine (cards, rules, moves, captures, events, position, game, view, record, errors, the text
  catalogue loader) imports only the standard library and itself;
- the computer players, the arena and the hints import the engine and each other;
- the texts (``cuarenta.i18n``) import the engine;
- the championships (``cuarenta.championship``: pairings, results, standings) import the engine, and of
  third-party packages ``networkx`` only (the ``championship`` extra);
- the research interfaces (``cuarenta.research``: action ids, observation planes, OpenSpiel, PettingZoo,
  Gymnasium, Ray; the ``research`` extra) import the engine and the players (a Gymnasium seat plays
  against them); their encoding modules need no third-party package;
- the analysis of a person's moves (``cuarenta.analysis``: grades, motifs, the review of a record) imports
  the engine and the players (it values moves with their search);
- the command line and the server sit on top and may import everything below them; the device host
  (``cuarenta.device``: the server's authority in the browser) and the offline pack and static site
  (``cuarenta.offline``: the page and its words as files) are part of the server's layer.

``pip install cuarenta`` installs no other package: the engine and the players run on the standard
library alone, which a subprocess with every third-party import blocked proves.
"""

from __future__ import annotations

import ast
import importlib.metadata
import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "cuarenta"

#: Modules kept only so that old imports work (each warns and forwards to its new home), and that home.
SHIMS = {
    "cuarenta.arena": "cuarenta.players.arena",
    "cuarenta.terminal": "cuarenta.cli.terminal",
    "cuarenta.server.hints": "cuarenta.players.hints",
    "cuarenta.server.app": "cuarenta.server.create_app",
    "cuarenta.server.authority.names": "cuarenta.names",
}

#: Old import paths that are gone (issue 26), each with its new home: no file may come back at one of them,
#: and ruff bans every import of them (``TID251`` in pyproject.toml, whose list must be this one's).
GONE = {
    "cuarenta.server.backup": "cuarenta.server.store.backup",
    "cuarenta.server.fairplay": "cuarenta.server.ratings.fairplay",
    "cuarenta.server.fields": "cuarenta.server.protocol.fields",
    "cuarenta.server.gcpolicy": "cuarenta.server.ops.gcpolicy",
    "cuarenta.server.health": "cuarenta.server.ops.health",
    "cuarenta.server.hosts": "cuarenta.server.edge.hosts",
    "cuarenta.server.limits": "cuarenta.server.edge.limits",
    "cuarenta.server.logs": "cuarenta.server.ops.logs",
    "cuarenta.server.metrics": "cuarenta.server.ops.metrics",
    "cuarenta.server.options": "cuarenta.server.edge.options",
    "cuarenta.server.pgwatch": "cuarenta.server.store.pgwatch",
    "cuarenta.server.profiles": "cuarenta.server.store.profiles",
    "cuarenta.server.profiles_api": "cuarenta.server.edge.profiles",
    "cuarenta.server.protocolcore": "cuarenta.server.protocol",
    "cuarenta.server.protocols": "cuarenta.server.edge.protocols",
    "cuarenta.server.rating": "cuarenta.server.ratings.rating",
    "cuarenta.server.rooms": "cuarenta.server.authority (and cuarenta.server.wiring.TableRooms)",
    "cuarenta.server.security": (
        "cuarenta.server.edge.security, cuarenta.server.edge.ratelimits, cuarenta.server.ops.logs"
    ),
    "cuarenta.server.sqlite_files": "cuarenta.server.store.files",
    "cuarenta.server.names": "cuarenta.names",
    "cuarenta.server.history": "cuarenta.server.answers.history",
    "cuarenta.server.refused": "cuarenta.server.answers.refused",
    "cuarenta.server.stats": "cuarenta.server.answers",
    "cuarenta.server.store.stats": "cuarenta.server.answers",
    "cuarenta.server.tables": "cuarenta.server.wiring (TableRooms), cuarenta.server.authority.core",
    "cuarenta.server.tables_api": "cuarenta.server.edge.tables",
}

ENGINE = "engine"
PLAYERS = "players"
TEXTS = "texts"
CLI = "cli"
SERVER = "server"
CHAMPIONSHIP = "championship"
RESEARCH = "research"
ANALYSIS = "analysis"

#: What each layer may import from the package.
ALLOWED: dict[str, set[str]] = {
    ENGINE: {ENGINE},
    PLAYERS: {ENGINE, PLAYERS},
    TEXTS: {ENGINE, TEXTS},
    CHAMPIONSHIP: {ENGINE, CHAMPIONSHIP},
    RESEARCH: {ENGINE, PLAYERS, RESEARCH},
    ANALYSIS: {ENGINE, PLAYERS, ANALYSIS},
    SERVER: {ENGINE, PLAYERS, TEXTS, CHAMPIONSHIP, ANALYSIS, SERVER},
    CLI: {ENGINE, PLAYERS, TEXTS, CHAMPIONSHIP, SERVER, RESEARCH, ANALYSIS, CLI},
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


#: The layer of each first part below the package that is not the engine's.
LAYER_OF_PART: dict[str, str] = {
    "players": PLAYERS,
    "i18n": TEXTS,
    "championship": CHAMPIONSHIP,
    "research": RESEARCH,
    "analysis": ANALYSIS,
    "cli": CLI,
    "__main__": CLI,  # python -m cuarenta runs the command line
    "server": SERVER,
    "web": SERVER,
    "device": SERVER,
    "offline": SERVER,
}


def layer_of(module: str) -> str:
    """The layer of a ``cuarenta…`` module, by its first part below the package (the package itself, and
    any part not in :data:`LAYER_OF_PART`, is the engine: its ``__init__`` exports the engine)."""
    parts = module.split(".")
    return LAYER_OF_PART.get(parts[1], ENGINE) if len(parts) > 1 else ENGINE


def package_imports(path: Path) -> set[str]:
    """Every ``cuarenta…`` module a source file imports (at any depth, type-checking blocks included)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "cuarenta")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "cuarenta":
            found.add(str(node.module))
    return found


def sources() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if module_name(p) not in SHIMS)


def module_files(module: str) -> list[Path]:
    """The files that would be ``module`` if they existed: a module, or a package's ``__init__``."""
    path = SRC.joinpath(*module.split("."))
    return [path.with_suffix(".py"), path / "__init__.py"]


@pytest.mark.parametrize("old", sorted(GONE))
def test_no_old_import_path_comes_back(old: str) -> None:
    """An old path is gone: neither a module nor a package at it (its names live at :data:`GONE`'s home)."""
    assert not [p for p in module_files(old) if p.exists()], f"{old} is back: its home is {GONE[old]}"


def test_the_kept_old_paths_are_there() -> None:
    """The check above looks where it should: the kept old paths (they warn) are files of the package."""
    assert all(any(p.exists() for p in module_files(old)) for old in SHIMS)


def banned_by_ruff() -> dict[str, str]:
    """ruff's ``flake8-tidy-imports`` banned-api list (pyproject.toml), module → message."""
    settings = tomllib.loads((SRC.parent / "pyproject.toml").read_text(encoding="utf-8"))
    lint = settings["tool"]["ruff"]["lint"]
    assert "TID251" in lint["select"], "ruff must check the banned imports (TID251)"
    banned = lint["flake8-tidy-imports"]["banned-api"]
    return {name: entry["msg"] for name, entry in banned.items()}


def test_ruff_bans_every_old_import_path_and_only_those() -> None:
    """ruff's list and this file's are the same paths, and ruff's message names the new home, so that
    neither list can drift from the other."""
    banned = banned_by_ruff()
    old = {**GONE, **SHIMS}
    assert sorted(banned) == sorted(old)
    wrong = {name: msg for name, msg in banned.items() if old[name] not in msg}
    assert not wrong, f"ruff's message must name the new home: {wrong}"


def test_ruff_refuses_an_old_import(tmp_path: Path) -> None:
    """For real: ruff, run with the project's settings on a file that imports two old paths, fails and
    names the new homes."""
    sample = tmp_path / "old_imports.py"
    sample.write_text(
        "from cuarenta.server.rooms import mesa_seed\nfrom cuarenta.server import security\n\n"
        "print(mesa_seed, security)\n",
        encoding="utf-8",
    )
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "ruff",
            "check",
            "--no-cache",
            "--config",
            str(SRC.parent / "pyproject.toml"),
            "--select",
            "TID251",
            str(sample),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 1, result.stdout + result.stderr
    assert result.stdout.count("TID251") == 2, result.stdout
    assert GONE["cuarenta.server.rooms"] in result.stdout
    assert GONE["cuarenta.server.security"] in result.stdout


def test_the_layers_cover_the_package() -> None:
    layers = {layer_of(module_name(p)) for p in sources()}
    assert layers == {ENGINE, PLAYERS, TEXTS, CHAMPIONSHIP, RESEARCH, ANALYSIS, CLI, SERVER}


@pytest.mark.parametrize("path", sources(), ids=lambda p: module_name(p))
def test_imports_point_down(path: Path) -> None:
    module = module_name(path)
    layer = layer_of(module)
    wrong = sorted(m for m in package_imports(path) if layer_of(m) not in ALLOWED[layer])
    assert not wrong, f"{module} ({layer}) imports {wrong}: only {sorted(ALLOWED[layer])} are below it"


def test_no_module_imports_a_deprecated_name() -> None:
    users = {module_name(p): package_imports(p) & {*SHIMS, *GONE} for p in sources()}
    assert not {m: s for m, s in users.items() if s}


BLOCKER = r"""
import importlib.abc, sys

class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        top = name.split(".")[0]
        if top != "cuarenta" and top not in sys.stdlib_module_names:
            raise ModuleNotFoundError(f"third-party module {name!r} is blocked", name=name)
        return None

sys.meta_path.insert(0, Block())
sys.path.insert(0, SRC)
"""

ENGINE_SCRIPT = r"""
import cuarenta, cuarenta.i18n, cuarenta.players, cuarenta.players.arena, cuarenta.players.hints
from cuarenta import Game, Rules
from cuarenta.players import act, make_player

game = Game.new(Rules.preset("a_todo_rigor", players=4), seed=5)
bots = [make_player(name, seed=s) for s, name in enumerate(["facil", "normal", "dificil", "normal"])]
for seat, bot in enumerate(bots):
    bot.start(seat, game.rules)
for _ in range(12):
    game.play(act(bots[game.turn], game))
outside = sorted(
    name for name in sys.modules
    if name.split(".")[0] not in sys.stdlib_module_names
    and name.split(".")[0] not in ("cuarenta", "__main__", "__mp_main__")
)
print("outside:", outside)
"""


def run_blocked(script: str) -> subprocess.CompletedProcess[str]:
    code = BLOCKER.replace("SRC", repr(str(SRC))) + script
    return subprocess.run(
        [sys.executable, "-I", "-S", "-c", code], capture_output=True, text=True, timeout=120, check=False
    )


def test_engine_and_players_run_on_the_standard_library_alone() -> None:
    result = run_blocked(ENGINE_SCRIPT)
    assert result.returncode == 0, result.stderr
    assert "outside: []" in result.stdout


def test_the_research_encoding_runs_on_the_standard_library_alone() -> None:
    """The action ids, the observation planes and the variant names need no third-party package: a
    program that only encodes (a bot in another framework, the arena) installs nothing."""
    result = run_blocked(
        "import cuarenta.research.actions, cuarenta.research.observation, cuarenta.research.variant\n"
        "from cuarenta import Game, Rules\n"
        "game = Game.new(Rules(), seed=1)\n"
        "print(len(cuarenta.research.observation.encode(game.view(0))),\n"
        "      cuarenta.research.actions.legal_ids(game.legal_moves()) != [])\n"
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["396", "True"]


def test_the_blocker_really_blocks() -> None:
    """The check above could pass by accident if nothing were blocked: the web app must fail here."""
    result = run_blocked("from cuarenta.server import create_app\n")
    assert result.returncode != 0
    assert "third-party module" in result.stderr


def test_the_command_line_names_the_missing_extra() -> None:
    result = run_blocked("from cuarenta.cli import main\nmain(['--version'])\n")
    assert result.returncode == 1
    assert "pip install 'cuarenta[cli]'" in result.stderr
    assert "Traceback" not in result.stderr


def test_pip_install_cuarenta_installs_nothing_else() -> None:
    requires = importlib.metadata.requires("cuarenta") or []
    plain = [r for r in requires if "extra ==" not in r]
    assert plain == []
    extras = importlib.metadata.metadata("cuarenta").get_all("Provides-Extra") or []
    assert {"cli", "web", "all", "research", "test"} <= set(extras)


@pytest.mark.slow
def test_the_built_wheel_installs_alone_with_its_data(tmp_path: Path) -> None:
    """Build the wheel, install it with no dependency into a fresh virtualenv, and play with it there: the
    package data (texts, win-probability tables, the page, the migrations) is in the wheel, and the
    engine and the players need nothing else."""
    root = SRC.parent
    wheels = tmp_path / "wheels"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            str(root),
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(wheels),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    (wheel,) = wheels.glob("cuarenta-*.whl")
    env = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True, timeout=120)
    python = env / "bin" / "python"
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "-q", str(wheel)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    script = (
        "import importlib.metadata, importlib.resources, json, cuarenta\n"
        "from cuarenta import Game, Rules\n"
        "from cuarenta.catalogue import text\n"
        "from cuarenta.players import act, make_player\n"
        "from cuarenta.players.winprob import tables\n"
        "assert 'site-packages' in cuarenta.__file__, cuarenta.__file__\n"
        "game = Game.new(Rules(), seed=3)\n"
        "bots = [make_player('dificil', 1), make_player('normal', 2)]\n"
        "for seat, bot in enumerate(bots):\n"
        "    bot.start(seat, game.rules)\n"
        "for _ in range(6):\n"
        "    game.play(act(bots[game.turn], game))\n"
        "files = importlib.resources.files('cuarenta')\n"
        "print(len(tables()), text('error.game_over', 'es'))\n"
        "page = files.joinpath('web/static/index.html')\n"
        "print(page.is_file(), files.joinpath('server/store/migrations/env.py').is_file())\n"
        "print(json.dumps(importlib.metadata.requires('cuarenta')))\n"
    )
    result = subprocess.run([str(python), "-I", "-c", script], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "6 la mesa terminó: no hay más jugadas"
    assert lines[1] == "True True"
    assert all("extra ==" in r for r in json.loads(lines[2]))  # every requirement belongs to an extra


#: The web extra's own packages (pydantic is not one: typer needs it too).
WEB_ONLY = ("fastapi", "starlette", "uvicorn", "sqlalchemy", "alembic", "websockets", "httpx")


def run_without(blocked: tuple[str, ...], script: str) -> subprocess.CompletedProcess[str]:
    """Run ``script`` with the package's source and every installed package but ``blocked`` ones."""
    code = (
        "import importlib.abc, sys\n"
        f"BLOCKED = {blocked!r}\n"
        "class Block(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in BLOCKED:\n"
        "            raise ModuleNotFoundError(f'{name!r} is blocked', name=name)\n"
        "        return None\n"
        "sys.meta_path.insert(0, Block())\n"
        f"sys.path.insert(0, {str(SRC)!r})\n" + script
    )
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )


def test_the_command_line_extra_works_without_the_web_extra() -> None:
    """``pip install 'cuarenta[cli]'``: the terminal game, the demo and the arena need no web package;
    ``cuarenta serve`` then says which extra it needs."""
    script = (
        "from cuarenta.cli import main\n"
        "for args in (['demo', '--seed', '3'], ['play', '--help'], ['arena', '--help'],\n"
        "             ['arena', 'facil', 'aleatorio', '--chicas', '2']):\n"
        "    try:\n"
        "        main(args)\n"
        "    except SystemExit as exc:\n"
        "        assert exc.code in (0, None), (args, exc.code)\n"
        "print('web modules:', sorted(m for m in sys.modules if m.split('.')[0] in BLOCKED))\n"
        "main(['serve'])\n"
    )
    result = run_without(WEB_ONLY, script)
    assert "web modules: []" in result.stdout, result.stderr
    assert "Fin de la demostración" in result.stdout
    assert result.returncode == 1
    assert "pip install 'cuarenta[web]'" in result.stderr and "Traceback" not in result.stderr


#: The web framework and its server: only the HTTP/WebSocket edge imports them.
WEB_FRAMEWORK = ("fastapi", "starlette", "uvicorn")
#: The modules that may import :data:`WEB_FRAMEWORK`: the edge, and the command that serves it.
EDGE = "cuarenta.server.edge"
SERVES = {"cuarenta.cli.serve"}


# -- the authority (issue 16): the table's rules know no web stack, no database library, no Redis ---------
AUTHORITY = PACKAGE / "server" / "authority"
#: What the authority may import of the server beside itself: its metrics and the computer players' pool.
AUTHORITY_MAY_IMPORT = {"cuarenta.server.ops.metrics", "cuarenta.server.thinking"}
#: Third-party packages the authority may not import, at any depth (a type-checking block included).
AUTHORITY_NEVER = {"fastapi", "starlette", "pydantic", "sqlalchemy", "alembic", "redis", "psycopg", "uvicorn"}


def third_party_imports(path: Path) -> set[str]:
    """The top-level names of every module a source file imports (at any depth) that is not of the package."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found - {"cuarenta"}


def in_edge(module: str) -> bool:
    return module == EDGE or module.startswith(EDGE + ".") or module in SERVES


def test_only_the_edge_imports_the_web_framework() -> None:
    """FastAPI, Starlette and uvicorn are imported by ``cuarenta.server.edge`` (and ``cuarenta serve``)
    alone: the rooms, the store, the cluster, the workers and the operations code never see them."""
    wrong = {
        module_name(p): sorted(third_party_imports(p) & set(WEB_FRAMEWORK))
        for p in sorted(PACKAGE.rglob("*.py"))
        if not in_edge(module_name(p))
    }
    assert not {m: names for m, names in wrong.items() if names}


def test_the_edge_is_where_the_web_framework_is() -> None:
    """The check above looks where it should: the edge's modules do import FastAPI."""
    app = PACKAGE / "server" / "edge" / "app.py"
    assert "fastapi" in third_party_imports(app)


LOADED_SCRIPT = r"""
import importlib, sys
for name in NAMES:
    importlib.import_module(name)
print(sorted({m.split(".")[0] for m in sys.modules} & {"fastapi", "starlette", "uvicorn"}))
"""


@pytest.mark.parametrize(
    "names",
    [
        ["cuarenta.server"],
        ["cuarenta.server.worker"],
        ["cuarenta.server.thinking", "cuarenta.server.cluster", "cuarenta.server.wiring"],
        ["cuarenta.server.ops.health", "cuarenta.server.ops.metrics", "cuarenta.server.ops.logs"],
        # client_key, without Starlette
        ["cuarenta.server.edge.ratelimits", "cuarenta.server.ratings.fairplay"],
    ],
    ids=lambda names: "+".join(n.removeprefix("cuarenta.server.") for n in names),
)
def test_importing_the_server_loads_no_web_framework(names: list[str]) -> None:
    """A worker process (``cuarenta worker``, the computer players' pool) imports the server's modules
    but never FastAPI: ``cuarenta.server`` is lazy (PEP 562) and nothing below the edge imports it."""
    script = f"NAMES = {names!r}\n" + LOADED_SCRIPT
    result = subprocess.run(
        [sys.executable, "-c", f"import sys; sys.path.insert(0, {str(SRC)!r})\n" + script],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]", result.stdout


def test_create_app_is_still_where_it_was() -> None:
    """The lazy package still gives ``create_app``, as the old module does, with a warning (public API)."""
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            f"import sys, warnings; sys.path.insert(0, {str(SRC)!r})\n"
            "warnings.simplefilter('ignore', DeprecationWarning)\n"
            "import cuarenta.server, cuarenta.server.app as old\n"
            "print(cuarenta.server.create_app is old.create_app, 'create_app' in dir(cuarenta.server))\n",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.stdout.split() == ["True", "True"], result.stderr


@pytest.mark.parametrize("path", sorted(AUTHORITY.rglob("*.py")), ids=lambda p: p.name)
def test_the_authority_imports_no_web_stack_store_or_cluster(path: Path) -> None:
    """server/authority/ imports neither FastAPI, starlette, pydantic (the wire's models), SQLAlchemy nor
    Redis, and of the server only itself, its metrics and the thinking pool: the store, the cluster and
    the edge plug into its ports (docs/architecture.md)."""
    assert not third_party_imports(path) & AUTHORITY_NEVER
    server = {m for m in package_imports(path) if m.startswith("cuarenta.server")}
    outside = {m for m in server if not m.startswith("cuarenta.server.authority")} - AUTHORITY_MAY_IMPORT
    assert not outside, f"{path.name} imports {sorted(outside)}"


def test_the_authority_loads_with_the_web_stack_store_and_redis_blocked() -> None:
    """Imported for real, in a Python where those packages cannot be found (``cuarenta.server`` is an
    empty namespace there, as in the thinking workers: its ``__init__`` is the edge's)."""
    blocked = sorted(AUTHORITY_NEVER)
    script = (
        "import importlib.abc, os, sys, types\n"
        f"sys.path.insert(0, {str(SRC)!r})\n"
        f"BLOCKED = set({blocked!r})\n"
        "class Block(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in BLOCKED:\n"
        "            raise ModuleNotFoundError(f'{name!r} is blocked', name=name)\n"
        "        return None\n"
        "sys.meta_path.insert(0, Block())\n"
        "import cuarenta\n"
        "package = types.ModuleType('cuarenta.server')\n"
        "package.__path__ = [os.path.join(os.path.dirname(cuarenta.__file__), 'server')]\n"
        "sys.modules['cuarenta.server'] = package\n"
        "import cuarenta.server.authority, cuarenta.server.authority.core\n"
        "loaded = sorted(n for n in sys.modules if n.split('.')[0] in BLOCKED)\n"
        "print('loaded:', loaded)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    assert "loaded: []" in result.stdout


# -- the computer players' scheduling (issue 26): the engine and the players, nothing else --------------
THINKING = PACKAGE / "server" / "thinking"


@pytest.mark.parametrize("path", sorted(THINKING.rglob("*.py")), ids=lambda p: p.name)
def test_the_thinking_package_imports_the_engine_and_the_players_only(path: Path) -> None:
    """server/thinking/ (its worker processes import it) needs of the server only itself, of the package
    the engine, the players and the analysis (a worker values the analysis's questions: issue 29), and of
    Python its standard library: a worker loads no web framework, no database library and no Redis."""
    server = {m for m in package_imports(path) if m.startswith("cuarenta.server")}
    assert not {m for m in server if not m.startswith("cuarenta.server.thinking")}, path.name
    wrong = {m for m in package_imports(path) if layer_of(m) not in (ENGINE, PLAYERS, ANALYSIS, SERVER)}
    assert not wrong, f"{path.name} imports {sorted(wrong)}"
    assert third_party_imports(path) <= set(sys.stdlib_module_names), path.name


def test_the_thinking_check_looks_where_it_should() -> None:
    """The package's modules are found, and the pool is among them."""
    assert {"__init__.py", "pool.py", "process.py"} <= {p.name for p in THINKING.glob("*.py")}


#: The authority's modules that may name a table's ``championship`` (data it stores, and what the audience
#: is shown of it; none decides what a table does: a table's policy does, server/authority/policy.py).
CHAMPIONSHIP_AS_DATA = {"model.py", "audience.py"}


@pytest.mark.parametrize("path", sorted(AUTHORITY.rglob("*.py")), ids=lambda p: p.name)
def test_the_authority_branches_on_no_championship(path: Path) -> None:
    """Issue 26: the authority never reads ``….championship`` to decide what a table does — the table's
    :class:`~cuarenta.server.authority.policy.TablePolicy` does (rematch, judged, reserved seats, the seed,
    who rates it and who hears it finished)."""
    if path.name in CHAMPIONSHIP_AS_DATA:
        return
    tree = ast.parse(path.read_text(encoding="utf-8"))
    read = [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr == "championship"]
    assert not read, f"{path.name} reads .championship at lines {read}: branch on the table's policy"


def test_the_championship_check_looks_where_it_should() -> None:
    """The check above finds what it looks for: the championships service reads ``table.championship``."""
    service = (PACKAGE / "server" / "championships" / "service.py").read_text(encoding="utf-8")
    found = [
        n for n in ast.walk(ast.parse(service)) if isinstance(n, ast.Attribute) and n.attr == "championship"
    ]
    assert found


# -- the store (issue 26): it imports no service ----------------------------------------------------------
STORE = PACKAGE / "server" / "store"
#: What the store may import of the server beside itself: the authority's ports (the contract it implements:
#: rows, errors; the names people give are checked by cuarenta.names, of the engine). No service: not the
#: answers, the edge, the ratings, the championships, the cluster.
STORE_MAY_IMPORT = {"cuarenta.server.authority.ports"}


@pytest.mark.parametrize("path", sorted(STORE.rglob("*.py")), ids=lambda p: str(p.relative_to(STORE)))
def test_the_store_imports_no_service(path: Path) -> None:
    """server/store/ (its migrations included) imports only itself, the engine, the standard library and
    third-party packages, and of the rest of the server only :data:`STORE_MAY_IMPORT`."""
    server = {m for m in package_imports(path) if m.startswith("cuarenta.server")}
    outside = {m for m in server if not m.startswith("cuarenta.server.store")} - STORE_MAY_IMPORT
    assert not outside, f"{path.relative_to(STORE)} imports {sorted(outside)}"
    wrong = {m for m in package_imports(path) if layer_of(m) not in (ENGINE, SERVER)}
    assert not wrong, f"{path.relative_to(STORE)} imports {sorted(wrong)}"


@pytest.mark.parametrize("path", sorted(STORE.rglob("*.py")), ids=lambda p: str(p.relative_to(STORE)))
def test_the_store_imports_of_the_authority_only_its_ports(path: Path) -> None:
    """Issue 26: of the authority the store imports only ``authority.ports`` (the interface it implements);
    the names people give are checked by :mod:`cuarenta.names`, and no rating is computed in the store (it
    imports no openskill: the ratings service, server/ratings/mesa.py, computes them)."""
    authority = {m for m in package_imports(path) if m.startswith("cuarenta.server.authority")}
    assert authority <= {"cuarenta.server.authority.ports"}, f"{path.relative_to(STORE)} imports {authority}"
    assert "openskill" not in third_party_imports(path), f"{path.relative_to(STORE)} rates: the service does"


def test_the_store_check_looks_where_it_should() -> None:
    """The store's modules are found (its migrations too), and the check reads their imports."""
    found = {str(p.relative_to(STORE)) for p in STORE.rglob("*.py")}
    assert {"__init__.py", "profiles.py", "migrations/versions/r0002_action_log.py"} <= found
    assert "cuarenta.server.authority.ports" in package_imports(STORE / "rows.py")


# -- the championships (issue 19): the engine and networkx, nothing else ----------------------------------
CHAMPIONSHIP_DIR = PACKAGE / "championship"


@pytest.mark.parametrize("path", sorted(CHAMPIONSHIP_DIR.rglob("*.py")), ids=lambda p: p.name)
def test_the_championship_imports_only_the_standard_library_and_networkx(path: Path) -> None:
    outside = {m for m in third_party_imports(path) if m not in sys.stdlib_module_names} - {"networkx"}
    assert not outside, f"{path.name} imports {sorted(outside)}"


def test_the_championship_runs_with_every_other_third_party_package_blocked() -> None:
    """Imported and used for real in a Python where only the standard library and networkx are found."""
    script = BLOCKER.replace(
        "top not in sys.stdlib_module_names", "top not in sys.stdlib_module_names and top != 'networkx'"
    )
    script = script.replace("SRC", repr(str(SRC))) + (
        "from cuarenta.championship import Championship, Register, Report, Settings, Start\n"
        "champ = Championship.new(Settings('Copa'), secret=1)\n"
        "for name in 'ABCDE':\n"
        "    champ.apply(Register(name, (name + '1', name + '2')))\n"
        "for partida in champ.apply(Start()):\n"
        "    champ.apply(Report(partida.id, (2, 0), (80, 20)))\n"
        "print('rounds:', champ.current_round)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    assert "rounds: 2" in result.stdout


# -- one reader per message (issue 26): the socket protocol's table and the field reader are plain Python ---
#: The server's ``/ws`` and the device host (Pyodide: no pydantic) read messages with these modules alike.
PLAIN_READERS = tuple(
    f"server/protocol/{name}.py" for name in ("__init__", "reader", "codes", "fields", "version1")
)


@pytest.mark.parametrize("name", PLAIN_READERS)
def test_the_message_readers_import_only_the_standard_library(name: str) -> None:
    outside = {m for m in third_party_imports(PACKAGE / name) if m not in sys.stdlib_module_names}
    assert not outside, f"{name} imports {sorted(outside)}: the device runs it without them"


def test_the_device_reads_messages_with_the_servers_reader() -> None:
    """No second reader: the device host imports the server's protocol module, and no module of the
    device reads JSON messages of its own."""
    assert "cuarenta.server.protocol" in package_imports(PACKAGE / "device" / "host.py")
    assert not (PACKAGE / "device" / "messages.py").exists()
