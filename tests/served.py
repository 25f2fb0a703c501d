"""Moved to tests/support/served.py (kept so that branches written before the move still import it; the
lead removes this module once they are merged)."""

from support.served import *  # noqa: F403
