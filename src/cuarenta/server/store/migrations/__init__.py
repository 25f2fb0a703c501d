"""The store's Alembic migrations (run by :func:`cuarenta.server.store.migrate.migrate`; docs/storage.md)."""
