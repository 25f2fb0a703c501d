"""How many examples a hypothesis test tries: its full count in CI, fewer in the quick loop.

The profile comes from hypothesis's own ``--hypothesis-profile`` option (tests/conftest.py registers them):
``ci`` (scripts/test.sh, so ``.ci/run``) runs each test's full count and hypothesis's default of 100 for the
tests that name none; ``quick`` — the default, so the README's quick loop ``pytest -m "not slow"`` — a fifth
of each count (at least 3) and 20 for the others. A test names its count through :func:`examples`::

    @settings(max_examples=examples(200), deadline=None)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

import pytest

#: The profiles tests/conftest.py registers; ``quick`` unless ``--hypothesis-profile`` names another.
PROFILES: Final = ("ci", "quick")
#: Whether the full counts run (the ``ci`` profile): set by tests/conftest.py before any test module loads.
full = False


def scaled(count: int, full_count: bool) -> int:
    """``count`` when the full counts run, else a fifth of it (at least 3).

    >>> scaled(200, True), scaled(200, False), scaled(12, False)
    (200, 40, 3)
    """
    return count if full_count else max(3, count // 5)


def examples(count: int) -> int:
    """The number of examples for a test whose full count is ``count``, in this run's profile."""
    return scaled(count, full)


def full_run() -> bool:
    """Whether this run is CI's (every example, every case) rather than the quick loop's."""
    return full


def quick_first(cases: Iterable[Any], keep: int = 1) -> list[Any]:
    """A parametrized test's cases with all but the first ``keep`` marked ``slow``: the quick loop
    (``pytest -m "not slow"``) runs a representative case, CI (which runs every test) all of them.

    >>> [[mark.name for mark in case.marks] for case in quick_first([1, 2, 3], keep=2)]
    [[], [], ['slow']]
    """
    out = []
    for index, case in enumerate(cases):
        values = case if isinstance(case, tuple) else (case,)
        marks = () if index < keep else (pytest.mark.slow,)
        out.append(pytest.param(*values, marks=marks))
    return out


__all__ = ["PROFILES", "examples", "full", "full_run", "quick_first", "scaled"]
