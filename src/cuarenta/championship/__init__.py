"""Championships of pairs (issue 19): settings, pairings, results, standings, the judges' decisions.

A pure library (no server, no screens) on the engine and ``networkx``
(``pip install 'cuarenta[championship]'``); docs/championships.md.

>>> from cuarenta.championship import Championship, Register, Report, Settings, Start, standings
>>> champ = Championship.new(Settings("Copa"), secret=7)
>>> for name in ("Ases", "Reyes"):
...     _ = champ.apply(Register(name, (name + " 1", name + " 2")))
>>> (partida,) = champ.apply(Start())
>>> _ = champ.apply(Report(partida.id, chicas=(1, 2), points=(70, 90)))
>>> champ.status, standings(champ)[0].pair == partida.pairs[1]
('finished', True)
"""

from cuarenta.championship.actions import (
    ACTIONS,
    Action,
    Decide,
    Register,
    ReplacePlayer,
    Report,
    Review,
    SeedPair,
    Start,
    Walkover,
    Withdraw,
    action_from_dict,
)
from cuarenta.championship.championship import Championship, derive_seed
from cuarenta.championship.errors import (
    ActionError,
    ChampionshipError,
    DecisionError,
    PairingError,
    RegistrationError,
    ResultError,
    SettingsError,
    StateError,
)
from cuarenta.championship.hall import HallError, HallSheet
from cuarenta.championship.model import Decision, Pair, Partida, Result, check_name
from cuarenta.championship.settings import Settings
from cuarenta.championship.standings import DuplicateComparison, Standing, duplicate_comparison, standings

__all__ = [
    "ACTIONS",
    "Action",
    "ActionError",
    "Championship",
    "ChampionshipError",
    "Decide",
    "Decision",
    "DecisionError",
    "DuplicateComparison",
    "HallError",
    "HallSheet",
    "Pair",
    "PairingError",
    "Partida",
    "Register",
    "RegistrationError",
    "ReplacePlayer",
    "Report",
    "Result",
    "ResultError",
    "Review",
    "SeedPair",
    "Settings",
    "SettingsError",
    "Standing",
    "Start",
    "StateError",
    "Walkover",
    "Withdraw",
    "action_from_dict",
    "check_name",
    "derive_seed",
    "duplicate_comparison",
    "standings",
]
