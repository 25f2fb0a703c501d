"""Tables with friends (docs/tables.md).

- new column ``rooms.table_options``: JSON of a table's options (creator, level, grace, clock, lobby,
  invite code); ``NULL`` for a room against the computer;
- new column ``rooms.started``: whether the table has started (rooms against the computer always have);
- new columns ``seats.profile`` (the anonymous profile a person seat plays for, if any) and ``seats.left``
  (the person left for good: the seat is a computer player now); a seat's ``kind`` may be ``open``;
- new column ``finished.team_counts``: JSON ``[[caídas, limpias] of team 0, of team 1]`` (at a table, each
  person's history counts their own team's).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("rooms", sa.Column("table_options", sa.Text))
    op.add_column("rooms", sa.Column("started", sa.Boolean, nullable=False, server_default=sa.true()))
    op.add_column("seats", sa.Column("profile", sa.Text))
    op.add_column("seats", sa.Column("left", sa.Boolean, nullable=False, server_default=sa.false()))
    op.add_column("finished", sa.Column("team_counts", sa.Text))


def downgrade() -> None:
    with op.batch_alter_table("finished") as batch:
        batch.drop_column("team_counts")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("left")
        batch.drop_column("profile")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("started")
        batch.drop_column("table_options")
