"""The ratings of rated tables (docs/tables.md "What is rated", docs/ratings.md).

- :mod:`~cuarenta.server.ratings.mesa`: a finished mesa rated (openskill's model,
  :func:`~cuarenta.server.ratings.mesa.rate_mesa`), the store asked to keep it;
- :mod:`~cuarenta.server.ratings.rating`: :class:`~cuarenta.server.ratings.rating.StoreRatings`, the
  authority's ``Ratings`` port kept in the store (a rated seat's network noted, a finished mesa rated);
- :mod:`~cuarenta.server.ratings.fairplay`: rated play that cannot be farmed cheaply (shared networks,
  pairs that meet too often).

The profiles and the rows of rated mesas are the store's (:mod:`cuarenta.server.store.profiles`,
:mod:`cuarenta.server.store.ratings`); the tables are in :mod:`cuarenta.server.store.schema`.
"""
