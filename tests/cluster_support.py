"""Moved to tests/support/cluster.py (kept so that branches written before the move still import it; the
lead removes this module once they are merged)."""

from support.cluster import *  # noqa: F403
