"""The store's Alembic migrations (run by :meth:`cuarenta.server.store.Store.migrate`; docs/storage.md)."""
