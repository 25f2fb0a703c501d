"""A short, exact name for a rule variant, to write in a paper or a results table.

Cuarenta has regional variants (docs/rules.md: presets and options). A result is only comparable
with the same rules, so name them exactly: the nearest preset, the number of players, and every
option that differs from that preset. :func:`variant_name` writes it; :func:`variant_rules` reads it
back, so a reader can rebuild the very rules.

>>> from cuarenta import Rules
>>> variant_name(Rules.preset("a_todo_rigor"))
'cuarenta/a_todo_rigor/2p'
>>> name = variant_name(Rules.preset("campeonato", players=4).replace(caida_across_deals=True, target=30))
>>> name
'cuarenta/campeonato/4p/caida_across_deals=true,target=30'
>>> variant_rules(name) == Rules.preset("campeonato", players=4).replace(caida_across_deals=True, target=30)
True
"""

from __future__ import annotations

from typing import Any

from cuarenta.errors import RulesError
from cuarenta.rules import OPTIONS, PRESET_NAMES, Rules


def _differences(rules: Rules, base: Rules) -> dict[str, Any]:
    mine, theirs = rules.to_dict(), base.to_dict()
    return {o.name: mine[o.name] for o in OPTIONS if o.name != "players" and mine[o.name] != theirs[o.name]}


def _text(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def variant_name(rules: Rules) -> str:
    """``cuarenta/PRESET/Np[/option=value,...]``: the nearest preset and what differs from it."""
    best: tuple[int, str, dict[str, Any]] | None = None
    for preset in PRESET_NAMES:
        try:
            base = Rules.preset(preset, players=rules.players)
        except RulesError:
            continue
        diff = _differences(rules, base)
        if best is None or len(diff) < best[0]:
            best = (len(diff), preset, diff)
    assert best is not None  # a_todo_rigor is defined for 2 and 4 players
    _, preset, diff = best
    name = f"cuarenta/{preset}/{rules.players}p"
    if diff:
        name += "/" + ",".join(f"{key}={_text(value)}" for key, value in diff.items())
    return name


def _value(text: str) -> Any:
    if text in ("true", "false"):
        return text == "true"
    if text == "none":
        return None
    try:
        return int(text)
    except ValueError:
        return text


def variant_rules(name: str) -> Rules:
    """The rules a :func:`variant_name` names; :class:`~cuarenta.RulesError` if it names none.

    >>> variant_rules("cuarenta/todo_dos/4p").preset_name
    'todo_dos'
    >>> variant_rules("cuarenta/x/3p")
    Traceback (most recent call last):
    ...
    cuarenta.errors.RulesError: not a variant name: 'cuarenta/x/3p' (cuarenta/PRESET/2p or 4p[/opt=value,…])
    """
    parts = name.split("/") if isinstance(name, str) else []
    if len(parts) not in (3, 4) or parts[0] != "cuarenta" or parts[2] not in ("2p", "4p"):
        raise RulesError(f"not a variant name: {name!r} (cuarenta/PRESET/2p or 4p[/opt=value,…])")
    rules = Rules.preset(parts[1], players=int(parts[2][0]))
    if len(parts) == 4:
        options = dict(item.partition("=")[::2] for item in parts[3].split(","))
        rules = rules.replace(**{key: _value(value) for key, value in options.items()})
    return rules


__all__ = ["variant_name", "variant_rules"]
