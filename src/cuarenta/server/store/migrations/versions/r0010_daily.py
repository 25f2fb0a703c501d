"""The deal of the day (docs/daily.md).

- the setting ``daily_secret``: the random key the day's seed is derived from (``cuarenta.daily.daily_seed``),
  made here: nobody without the database can work out a day's cards before playing them;
- an index of the rooms by seed (``rooms_by_seed``): the day's finished chicas are those of the rooms with the
  day's seed.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    settings = sa.table("settings", sa.column("name", sa.Text), sa.column("value", sa.Text))
    op.bulk_insert(settings, [{"name": "daily_secret", "value": secrets.token_hex(32)}])
    op.create_index("rooms_by_seed", "rooms", ["seed"])


def downgrade() -> None:
    op.drop_index("rooms_by_seed", table_name="rooms")
    op.execute("DELETE FROM settings WHERE name = 'daily_secret'")
