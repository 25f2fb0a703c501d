"""The schema's revisions: Alembic's migrations shipped in ``migrations/`` (no ``alembic.ini``), run in
one transaction when a store opens (docs/storage.md "Migrations").

>>> alembic_config().get_main_option("script_location").endswith("migrations")
True
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util.exc import CommandError

from cuarenta.server.store.connect import sqlite_user_version
from cuarenta.server.store.errors import StoreError

#: The Alembic revision this code writes (the newest migration).
SCHEMA_REVISION: Final = "0011"
#: The revision that stands for the hand-written store's schema (``PRAGMA user_version = 1``).
BASELINE_REVISION: Final = "0001"
#: SQLite only: the ``user_version`` of the hand-written store, and the one written since the action
#: log (the hand-written store refuses a file whose number is higher than its own, so an older cuarenta
#: says "written by a newer cuarenta" instead of failing on a missing column).
LEGACY_USER_VERSION: Final = 1
USER_VERSION: Final = 2
#: PostgreSQL only: the advisory lock that makes concurrent migrations of one database take turns.
MIGRATION_LOCK: Final = 0x63756172  # "cuar"
#: Where the migrations are (shipped inside the package).
MIGRATIONS_DIR: Final = Path(__file__).resolve().parent / "migrations"


def alembic_config(connection: sa.Connection | None = None) -> Config:
    """Alembic's configuration for the shipped migrations, built in code (no ``alembic.ini``).

    With a ``connection``, the migrations run on it, inside its transaction.
    """
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def migrate(conn: sa.Connection, where: str) -> None:
    """Make or upgrade the schema of the database of ``conn`` (inside its transaction) to
    :data:`SCHEMA_REVISION` (``where`` names the database in errors).

    - an empty database gets every migration;
    - a file of the hand-written store (SQLite, ``user_version`` 1, no ``alembic_version``) is stamped
      as :data:`BASELINE_REVISION`, then upgraded (its saved games become action logs);
    - a database of a newer cuarenta (a revision this version does not know, or a higher
      ``user_version``) is refused with :class:`StoreError` and left untouched.
    """
    script = ScriptDirectory.from_config(alembic_config())
    backend = conn.dialect.name
    sqlite = backend == "sqlite"
    if backend == "postgresql":
        # the processes of a cluster start together: one migrates, the others wait, then find the
        # schema at its revision (the lock is the transaction's)
        conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
    tables = set(sa.inspect(conn).get_table_names())
    user_version = sqlite_user_version(conn) if sqlite else 0
    if "alembic_version" in tables:
        current = MigrationContext.configure(conn).get_current_revision()
        if current is not None:
            try:
                script.get_revision(current)
            except CommandError:
                raise StoreError(
                    f"{where} was written by a newer cuarenta (schema revision {current}; "
                    f"this version knows up to {SCHEMA_REVISION}): upgrade cuarenta or use "
                    "another database"
                ) from None
        baseline = False
    elif user_version > LEGACY_USER_VERSION:
        raise StoreError(
            f"{where} was written by a newer cuarenta (schema {user_version}; this version "
            f"reads up to {USER_VERSION}): upgrade cuarenta or use another database"
        )
    elif user_version == LEGACY_USER_VERSION and "rooms" in tables:
        baseline = True
    elif tables:
        raise StoreError(
            f"{where} is not a usable cuarenta database: it has tables "
            f"({', '.join(sorted(tables))}) but no cuarenta schema version"
        )
    else:
        baseline = False
    config = alembic_config(conn)
    if baseline:
        command.stamp(config, BASELINE_REVISION)
    command.upgrade(config, "head")
    if sqlite:
        conn.exec_driver_sql(f"PRAGMA user_version = {USER_VERSION}")


__all__ = [
    "BASELINE_REVISION",
    "LEGACY_USER_VERSION",
    "MIGRATIONS_DIR",
    "MIGRATION_LOCK",
    "SCHEMA_REVISION",
    "USER_VERSION",
    "alembic_config",
    "migrate",
]
