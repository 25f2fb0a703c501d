"""Alembic's environment for the store's migrations.

The store runs them in code (:func:`cuarenta.server.store.migrate.migrate`): it passes an open connection,
inside its transaction, in ``config.attributes["connection"]``, so the whole upgrade is applied or
nothing is. There is no ``alembic.ini`` and no offline (SQL script) mode. Imported any other way (a
doctest collector, say), this file does nothing.
"""

from __future__ import annotations

from alembic import context


def run() -> None:
    connection = context.config.attributes.get("connection")
    if connection is None:
        raise RuntimeError(
            "the cuarenta migrations run from cuarenta.server.store.Store (they need its connection)"
        )
    context.configure(connection=connection, transactional_ddl=True)
    with context.begin_transaction():
        context.run_migrations()


if hasattr(context, "config"):  # only inside Alembic's environment
    run()
