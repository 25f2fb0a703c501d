"""The deal of the day played offline (docs/daily.md "Offline"): the results a device or the terminal sends
later, each checked by replaying its record, ranked among the day's offline results.

New table ``daily_offline``: one row a result sent (its random id, the day, the person's name, the score, the
result, when it came, the record itself, and the record's SHA-256, unique: the same record sent twice is
one result).

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "daily_offline",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("day", sa.Text, nullable=False),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("score0", sa.Integer, nullable=False),
        sa.Column("score1", sa.Integer, nullable=False),
        sa.Column("result", sa.Integer, nullable=False),
        sa.Column("received", sa.Text, nullable=False),
        sa.Column("digest", sa.Text, nullable=False, unique=True),
        sa.Column("record", sa.Text, nullable=False),
    )
    op.create_index("daily_offline_by_day", "daily_offline", ["day"])


def downgrade() -> None:
    op.drop_index("daily_offline_by_day", table_name="daily_offline")
    op.drop_table("daily_offline")
