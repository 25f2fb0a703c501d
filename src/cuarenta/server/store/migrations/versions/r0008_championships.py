"""Championships of pairs (docs/championships.md "Running a championship").

New tables:

- ``championships``: one row per championship: its settings (JSON), the library's secret, and the hashes
  of the organiser's and the judge's tokens and of the registration code;
- ``championship_actions``: the championship's accepted actions in order (``seq`` 1, 2 …); the primary key
  (championship, seq) makes an append a compare-and-set: two processes cannot both store action N;
- ``championship_pairs``: each pair's token hash (``NULL`` and a level in ``computer`` for a computer pair);
- ``championship_tables``: the table (room) of each partida played online;
- ``hall_entries``: the judge's score-sheet entries of each partida played in a hall (an undo deletes the
  last one).

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "championships",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("created", sa.Text, nullable=False),
        sa.Column("updated", sa.Text, nullable=False),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("secret", sa.Text, nullable=False),
        sa.Column("organiser_hash", sa.Text, nullable=False),
        sa.Column("judge_hash", sa.Text, nullable=False),
        sa.Column("register_hash", sa.Text, nullable=False),
    )
    op.create_table(
        "championship_actions",
        sa.Column("championship", sa.Text, sa.ForeignKey("championships.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("action", sa.Text, nullable=False),
        sa.Column("at", sa.Text, nullable=False),
    )
    op.create_table(
        "championship_pairs",
        sa.Column("championship", sa.Text, sa.ForeignKey("championships.id"), primary_key=True),
        sa.Column("pair", sa.Text, primary_key=True),
        sa.Column("token_hash", sa.Text),
        sa.Column("computer", sa.Text),
    )
    op.create_table(
        "championship_tables",
        sa.Column("championship", sa.Text, sa.ForeignKey("championships.id"), primary_key=True),
        sa.Column("partida", sa.Text, primary_key=True),
        sa.Column("room", sa.Text, nullable=False),
        sa.Column("opened", sa.Text, nullable=False),
    )
    op.create_table(
        "hall_entries",
        sa.Column("championship", sa.Text, sa.ForeignKey("championships.id"), primary_key=True),
        sa.Column("partida", sa.Text, primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("entry", sa.Text, nullable=False),
    )


def downgrade() -> None:
    for name in (
        "hall_entries",
        "championship_tables",
        "championship_pairs",
        "championship_actions",
        "championships",
    ):
        op.drop_table(name)
