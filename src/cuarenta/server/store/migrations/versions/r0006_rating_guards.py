"""Rated play that cannot be farmed cheaply (docs/tables.md, "What is rated").

- new table ``profile_addresses`` (profile, address, first_seen, last_seen): the networks a profile was
  made or used from, each as a keyed hash (never the address itself), so that two profiles seen on one
  network are not rated against each other;
- new table ``settings`` (name, value), with ``address_salt``: the random key of those hashes, made here;
- new column ``ratings.opponents``: how many different opponents a profile has had in rated mesas of the
  mode (the leaderboard lists a profile once it has played enough of them);
- new column ``rated_mesas.unrated``: why a finished mesa of a rated table did not change the ratings
  (``shared_address``, ``pair_limit``), ``NULL`` for a rated one.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "profile_addresses",
        sa.Column("profile", sa.Text, sa.ForeignKey("profiles.id"), primary_key=True),
        sa.Column("address", sa.Text, primary_key=True),
        sa.Column("first_seen", sa.Text, nullable=False),
        sa.Column("last_seen", sa.Text, nullable=False),
    )
    op.create_index("profile_addresses_by_address", "profile_addresses", ["address"])
    settings = op.create_table(
        "settings",
        sa.Column("name", sa.Text, primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )
    op.bulk_insert(settings, [{"name": "address_salt", "value": secrets.token_hex(32)}])
    op.add_column("ratings", sa.Column("opponents", sa.Integer, nullable=False, server_default=sa.text("0")))
    op.add_column("rated_mesas", sa.Column("unrated", sa.Text))


def downgrade() -> None:
    with op.batch_alter_table("rated_mesas") as batch:
        batch.drop_column("unrated")
    with op.batch_alter_table("ratings") as batch:
        batch.drop_column("opponents")
    op.drop_table("settings")
    op.drop_index("profile_addresses_by_address", "profile_addresses")
    op.drop_table("profile_addresses")
