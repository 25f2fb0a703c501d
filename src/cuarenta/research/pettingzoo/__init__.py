"""Cuarenta as a PettingZoo AEC environment (needs the ``research`` extra).

Laid out as PettingZoo's own classic environments are: the module
:mod:`cuarenta.research.pettingzoo.cuarenta_v0` exposes ``env`` (wrapped: an illegal action ends the mesa,
-1 to the seat that took it, as in ``pettingzoo.classic``), ``raw_env`` (unwrapped: an illegal action
raises :class:`~cuarenta.research.actions.ActionIdError`) and ``metadata``. Importing this package
registers ``"cuarenta/cuarenta-v0"`` in PettingZoo 1.27's registry, so ``pettingzoo.make("aec",
"cuarenta/cuarenta-v0", target=20)`` works too. docs/research.md "PettingZoo and Gymnasium".

>>> import pettingzoo
>>> from cuarenta.research.pettingzoo import cuarenta_v0
>>> env = pettingzoo.make("aec", "cuarenta/cuarenta-v0", players=2, target=10)
>>> env.reset(seed=3)
>>> env.agent_selection in env.possible_agents
True
"""

from __future__ import annotations

import pettingzoo

from cuarenta.research.pettingzoo import cuarenta_v0

#: The environment's id in PettingZoo's registry.
ENV_ID = "cuarenta/cuarenta-v0"

if ENV_ID not in pettingzoo.aec_registry:
    pettingzoo.register("aec", ENV_ID, entry_point="cuarenta.research.pettingzoo.cuarenta_v0:env")

__all__ = ["ENV_ID", "cuarenta_v0"]
