"""``python -m cuarenta``: the same program as the ``cuarenta`` command."""

from cuarenta.cli import main

main()
