"""The presets table of docs/rules.md, option validation, unknown options and impossible combinations."""

from __future__ import annotations

from typing import Any

import pytest

from cuarenta import PRESET_NAMES, Game, Rules, RulesError

#: docs/rules.md "Presets", row by row (players is checked separately).
TABLE: dict[str, dict[str, Any]] = {
    "sum_cards": dict.fromkeys(("a_todo_rigor", "todo_dos", "basico", "campeonato"), "two_or_more"),
    "capture": {"a_todo_rigor": "auto", "todo_dos": "auto", "basico": "auto", "campeonato": "manual"},
    "caida_limpia_points": {"a_todo_rigor": 4, "todo_dos": 2, "basico": 4, "campeonato": 2},
    "ronda_points": {"a_todo_rigor": 2, "todo_dos": 2, "basico": 2, "campeonato": 2},
    "four_of_a_kind": dict.fromkeys(("a_todo_rigor", "todo_dos", "basico", "campeonato"), "wins_chica"),
    "caida_ronda_points": {"a_todo_rigor": 10, "todo_dos": 4, "basico": 0, "campeonato": 0},
    "ronda_limit": {"a_todo_rigor": 30, "todo_dos": 30, "basico": None, "campeonato": None},
    "treinta_y_ocho": {"a_todo_rigor": True, "todo_dos": True, "basico": False, "campeonato": True},
    "cuatro_caidas_gana": {"a_todo_rigor": False, "todo_dos": False, "basico": False, "campeonato": True},
    "carton_short": dict.fromkeys(("a_todo_rigor", "todo_dos", "basico", "campeonato"), "most_cards"),
    "caida_across_deals": dict.fromkeys(("a_todo_rigor", "todo_dos", "basico", "campeonato"), False),
    "carton_cap": dict.fromkeys(("a_todo_rigor", "todo_dos", "basico", "campeonato"), None),
    "target": dict.fromkeys(("a_todo_rigor", "todo_dos", "basico", "campeonato"), 40),
    "chicas": {"a_todo_rigor": 2, "todo_dos": 2, "basico": 1, "campeonato": 2},
    "zapatero_wins_mesa": dict.fromkeys(("a_todo_rigor", "todo_dos", "basico", "campeonato"), False),
}
PLAYERS = {"a_todo_rigor": (2, 4), "todo_dos": (2, 4), "basico": (2,), "campeonato": (4,)}


def test_presets_names() -> None:
    assert set(PRESET_NAMES) == {"a_todo_rigor", "todo_dos", "basico", "campeonato"}


@pytest.mark.parametrize("name", ["a_todo_rigor", "todo_dos", "basico", "campeonato"])
def test_presets_table_every_option(name: str) -> None:
    for players in PLAYERS[name]:
        rules = Rules.preset(name, players=players)
        assert rules.players == players
        for option, row in TABLE.items():
            assert getattr(rules, option) == row[name], (name, option)
        assert rules.preset_name == name


def test_presets_table_covers_every_option() -> None:
    names = {option for option, _ in Rules().options_table()}
    assert names == set(TABLE) | {"players"}


def test_presets_default_is_a_todo_rigor_for_two() -> None:
    assert Rules() == Rules.preset("a_todo_rigor", players=2)
    assert Rules().preset_name == "a_todo_rigor"
    assert Rules.preset() == Rules()


@pytest.mark.parametrize(("name", "players"), [("basico", 4), ("campeonato", 2)])
def test_presets_player_count_refused(name: str, players: int) -> None:
    with pytest.raises(RulesError, match=f"preset '{name}' is played by"):
        Rules.preset(name, players=players)


@pytest.mark.parametrize("players", [0, 1, 3, 5])
def test_r3_players_two_or_four_only(players: int) -> None:
    with pytest.raises(RulesError, match="players"):
        Rules.preset("a_todo_rigor", players=players)
    with pytest.raises(RulesError, match="players"):
        Rules(players=players)


def test_presets_unknown_preset() -> None:
    with pytest.raises(RulesError, match="unknown preset 'rigor'"):
        Rules.preset("rigor")


def test_presets_custom_option_by_option() -> None:
    rules = Rules.preset("todo_dos", players=4).replace(target=30, chicas=3)
    assert rules.preset_name == "custom"
    assert (rules.target, rules.chicas, rules.caida_limpia_points, rules.players) == (30, 3, 2, 4)
    # a custom set equal to a preset is recognised as that preset
    assert Rules(caida_limpia_points=2, caida_ronda_points=4).preset_name == "todo_dos"


def test_presets_unknown_option_refused() -> None:
    with pytest.raises(RulesError, match="unknown option"):
        Rules().replace(colour="red")
    with pytest.raises(RulesError, match="unknown option"):
        Rules.from_dict({"preset": "basico", "caida_limpa_points": 2})
    with pytest.raises(TypeError):
        Rules(colour="red")  # type: ignore[call-arg]


def test_presets_dict_round_trip_stores_the_full_option_set() -> None:
    for name in PRESET_NAMES:
        rules = Rules.preset(name, players=PLAYERS[name][0])
        data = rules.to_dict()
        assert data["preset"] == name
        assert set(data) == set(TABLE) | {"players", "preset"}
        assert Rules.from_dict(data) == rules
    custom = Rules(players=4, carton_cap=28, sum_cards="two", chicas=3)
    assert Rules.from_dict(custom.to_dict()) == custom
    assert Rules.from_dict({"preset": "todo_dos", "target": 30}) == Rules.preset("todo_dos").replace(
        target=30
    )


def test_presets_game_record_stores_the_options() -> None:
    rules = Rules(players=4, sum_cards="two", carton_short="dos_por_dar", zapatero_wins_mesa=True)
    game = Game.new(rules, seed=1)
    assert Game.from_json(game.to_json()).rules == rules


@pytest.mark.parametrize(
    ("option", "value", "fragment"),
    [
        ("sum_cards", "three", "sum_cards"),
        ("capture", "semi", "capture"),
        ("four_of_a_kind", "ronda", "four_of_a_kind"),
        ("carton_short", "dealer", "carton_short"),
        ("chicas", 4, "chicas"),
        ("chicas", 0, "chicas"),
        ("chicas", True, "chicas"),
        ("treinta_y_ocho", 1, "treinta_y_ocho"),
        ("cuatro_caidas_gana", "yes", "cuatro_caidas_gana"),
        ("caida_across_deals", None, "caida_across_deals"),
        ("zapatero_wins_mesa", 0, "zapatero_wins_mesa"),
        ("ronda_points", 3, "even"),
        ("caida_ronda_points", -2, "even"),
        ("caida_limpia_points", 0, "caida_limpia_points"),
        ("caida_limpia_points", 5, "even"),
        ("target", 41, "even"),
        ("target", 0, "target"),
        ("ronda_points", 2.0, "ronda_points"),
        ("ronda_limit", 0, "ronda_limit"),
        ("ronda_limit", "30", "ronda_limit"),
        ("carton_cap", 19, "carton_cap"),
        ("carton_cap", 41, "carton_cap"),
    ],
)
def test_presets_invalid_option_values(option: str, value: Any, fragment: str) -> None:
    with pytest.raises(RulesError, match=fragment):
        Rules().replace(**{option: value})
    assert issubclass(RulesError, ValueError)


def test_presets_impossible_combinations() -> None:
    # the ronda limit cannot lie above the target
    with pytest.raises(RulesError, match="ronda_limit"):
        Rules(target=20)
    assert Rules(target=20, ronda_limit=20).ronda_limit == 20
    assert Rules(target=20, ronda_limit=None).target == 20
    # a preset for the wrong number of players
    with pytest.raises(RulesError):
        Rules.from_dict({"preset": "campeonato", "players": 2})
    with pytest.raises(RulesError):
        Rules.from_dict({"preset": "basico", "players": 4})


def test_presets_valid_edge_values() -> None:
    assert Rules(caida_ronda_points=0).caida_ronda_points == 0  # R18 off
    assert Rules(ronda_points=4).ronda_points == 4  # seed 000
    assert Rules(carton_cap=36).carton_cap == 36
    assert Rules(carton_cap=28).carton_cap == 28
    assert Rules(ronda_limit=None).ronda_limit is None


def test_presets_rules_are_immutable() -> None:
    rules = Rules()
    with pytest.raises(AttributeError):
        rules.target = 30  # type: ignore[misc]
    assert rules.replace(target=30) is not rules
    assert rules.target == 40


def test_presets_deals_per_hand_and_teams() -> None:
    assert Rules(players=2).deals_per_hand == 4
    assert Rules(players=4).deals_per_hand == 2
    assert Rules().teams == 2
