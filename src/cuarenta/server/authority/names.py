"""Deprecated: the check of names people give is :mod:`cuarenta.names` (issue 26: the store may import it)."""

from cuarenta._moved import moved

__getattr__ = moved("cuarenta.server.authority.names", "cuarenta.names")
