"""Several server processes over one database (docs/scaling.md).

- new column ``rooms.version``: the room's write counter. Every write of a room (an action, a new mesa, a
  change of seats) is a compare-and-set on it (``UPDATE … WHERE version = :read``), so two processes that
  change the same room at once cannot both succeed: the second is refused and reloads the room.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("rooms", sa.Column("version", sa.Integer, nullable=False, server_default=sa.text("0")))


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("version")
