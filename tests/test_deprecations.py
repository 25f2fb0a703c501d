"""Names of cuarenta 0.1 that 0.2 moved or changed keep working, with a DeprecationWarning (CHANGELOG.md)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from cuarenta import Game, Rules, SeatView
from cuarenta.players.hints import seat_hints
from cuarenta.players.knowledge import Knowledge


def test_a_view_still_reads_like_the_old_dict() -> None:
    game = Game.new(Rules(players=4), seed=8)
    view = game.view(2)
    with pytest.warns(DeprecationWarning, match="SeatView"):
        assert view["hand"] == [str(c) for c in view.hand]
    with pytest.warns(DeprecationWarning):
        assert view["stock_size"] == 20 and view["team"] == 0
    with pytest.warns(DeprecationWarning):
        assert sorted(view) == sorted(view.to_dict())


def test_helpers_still_take_the_old_dict_view() -> None:
    game = Game.new(Rules(), seed=4)
    view = game.view(game.turn)
    legal = [str(m) for m in game.legal_moves()]
    with pytest.warns(DeprecationWarning, match="SeatView"):
        old = Knowledge.from_view(view.to_dict())  # type: ignore[arg-type]
    assert old == Knowledge.from_view(view)
    with pytest.warns(DeprecationWarning):
        assert seat_hints(view.to_dict(), legal) == seat_hints(view, legal)  # type: ignore[arg-type]
    assert SeatView.from_dict(view.to_dict()) == view


@pytest.mark.parametrize(
    ("old", "new", "name"),
    [
        ("cuarenta.arena", "cuarenta.players.arena", "run_match"),
        ("cuarenta.terminal", "cuarenta.cli.terminal", "TerminalGame"),
        ("cuarenta.server.hints", "cuarenta.players.hints", "seat_hints"),
        ("cuarenta.server.app", "cuarenta.server.edge.app", "create_app"),
        ("cuarenta.server.authority.names", "cuarenta.names", "NAME_PATTERN"),
    ],
)
def test_moved_modules_warn_and_forward(old: str, new: str, name: str) -> None:
    code = (
        "import warnings, importlib\n"
        "warnings.simplefilter('error', DeprecationWarning)\n"
        "try:\n"
        f"    importlib.import_module({old!r})\n"
        "except DeprecationWarning as w:\n"
        "    print('warned:', w)\n"
        "warnings.simplefilter('ignore', DeprecationWarning)\n"
        f"old = importlib.import_module({old!r})\n"
        f"print(getattr(old, {name!r}) is getattr(importlib.import_module({new!r}), {name!r}))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert f"warned: {old} moved to {new}" in result.stdout
    assert result.stdout.strip().endswith("True")


def test_the_cli_package_keeps_its_old_names() -> None:
    from cuarenta.cli import app, chica_end, main, play_demo

    assert app.info.name == "cuarenta" and callable(main) and callable(chica_end)
    assert any(e.kind == "chica_won" for e in play_demo(Rules(), seed=3).events)


@pytest.mark.parametrize("module", ["cuarenta.server.store.profiles", "cuarenta.server.store.ratings"])
@pytest.mark.parametrize("name", ["rate_mesa", "mode_of", "MODEL"])
def test_the_store_still_answers_what_moved_to_the_ratings_service(module: str, name: str) -> None:
    """Issue 26: rating a mesa is the ratings service's (``cuarenta.server.ratings.mesa``); the store's old
    names warn and give the service's."""
    import importlib

    from cuarenta.server.ratings import mesa

    with pytest.warns(DeprecationWarning, match=f"{module}.{name} moved to cuarenta.server.ratings.mesa"):
        found = getattr(importlib.import_module(module), name)
    assert found is getattr(mesa, name)
    with pytest.raises(AttributeError):
        importlib.import_module(module).no_such_name  # noqa: B018
