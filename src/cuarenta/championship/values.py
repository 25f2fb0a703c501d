"""What the championship's immutable values share: their JSON form.

>>> from cuarenta.championship.hall import Carton
>>> kind_dict(Carton(cards=(20, 18), leftovers=2))
{'kind': 'carton', 'cards': [20, 18], 'leftovers': 2}
"""

from __future__ import annotations

import dataclasses
from typing import Any


def kind_dict(value: Any) -> dict[str, Any]:
    """``{"kind": value.kind, field: value ...}`` of a frozen dataclass with a ``kind``: JSON-ready, its
    tuples as lists (an action's or a hall entry's ``to_dict()``)."""
    data: dict[str, Any] = {"kind": value.kind}
    for f in dataclasses.fields(value):
        item = getattr(value, f.name)
        data[f.name] = list(item) if isinstance(item, tuple) else item
    return data
