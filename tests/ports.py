"""Moved to tests/support/ports.py (kept so that branches written before the move still import it; the
lead removes this module once they are merged)."""

from support.ports import *  # noqa: F403
