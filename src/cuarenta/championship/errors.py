"""The errors of the championship library: each a code and its parameters, with texts in es and en.

Every refusal of :meth:`~cuarenta.championship.Championship.apply` is a :class:`ChampionshipError`
(a :class:`~cuarenta.CuarentaError` and a ``ValueError``), raised before anything changes. Its texts are
``error.<code>`` in ``locale/<lang>/championship.json``:

>>> from cuarenta.championship.errors import RegistrationError
>>> exc = RegistrationError.of("pair_name_taken", name="Los Ases")
>>> exc.code, str(exc)
('pair_name_taken', "a pair named 'Los Ases' is already registered")
>>> exc.text("es")
"ya hay una pareja inscrita con el nombre 'Los Ases'"
"""

from __future__ import annotations

from cuarenta.errors import CuarentaError


class ChampionshipError(CuarentaError, ValueError):
    """Base class of every error of :mod:`cuarenta.championship`."""

    default_code = "championship"


class SettingsError(ChampionshipError):
    """Settings that are not valid (an unknown key, a wrong type, a value out of range)."""

    default_code = "championship_settings"


class ActionError(ChampionshipError):
    """An action that is not well formed (:func:`~cuarenta.championship.action_from_dict`)."""

    default_code = "championship_action"


class RegistrationError(ChampionshipError):
    """A registration, a replacement, a seed or a withdrawal the championship refuses."""

    default_code = "championship_registration"


class StateError(ChampionshipError):
    """An action that does not fit the championship's state (not started, finished …)."""

    default_code = "championship_state"


class ResultError(ChampionshipError):
    """A report or a walkover the championship refuses (an unknown or closed partida, bad chicas …)."""

    default_code = "championship_result"


class DecisionError(ChampionshipError):
    """A judge's decision or a committee's review the championship refuses."""

    default_code = "championship_decision"


class PairingError(ChampionshipError):
    """No pairing can be made (code ``no_pairing``)."""

    default_code = "no_pairing"


__all__ = [
    "ActionError",
    "ChampionshipError",
    "DecisionError",
    "PairingError",
    "RegistrationError",
    "ResultError",
    "SettingsError",
    "StateError",
]
