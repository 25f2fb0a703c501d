"""Cuarenta for people who build game AI (docs/research.md).

The modules here without a third-party import — :mod:`~cuarenta.research.actions` (integer action
ids) and :mod:`~cuarenta.research.observation` (the observation planes) — are the one encoding shared
by every interface. The interfaces themselves need the ``research`` extra
(``pip install "cuarenta[research]"``): OpenSpiel (:mod:`~cuarenta.research.openspiel`), PettingZoo
and Gymnasium (:mod:`~cuarenta.research.pettingzoo`, :mod:`~cuarenta.research.gymnasium`).
"""
