"""The baseline: the schema of cuarenta 0.1's hand-written SQLite store (its ``PRAGMA user_version = 1``).

A database of that store is *stamped* with this revision (its tables exist already) and upgraded from
here; a new database is made by running this revision and every later one. A room is one row holding
its current mesa as ``Game.to_json()`` (rewritten after every move); finished mesas are rows of
``finished``.

Revision ID: 0001
Revises: (none)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rooms",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("created", sa.Text, nullable=False),
        sa.Column("updated", sa.Text, nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("level", sa.Text, nullable=False),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("seed", sa.Text, nullable=False),
        sa.Column("mesa", sa.Integer, nullable=False),
        sa.Column("state", sa.Integer, nullable=False),
        sa.Column("status", sa.Text, nullable=False),
        sa.Column("game", sa.Text, nullable=False),
    )
    op.create_table(
        "seats",
        sa.Column("room", sa.Text, sa.ForeignKey("rooms.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.Text, nullable=False),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("level", sa.Text),
        sa.Column("token_hash", sa.Text),
    )
    op.create_index("seats_by_token", "seats", ["token_hash"])
    op.create_table(
        "finished",
        sa.Column("room", sa.Text, sa.ForeignKey("rooms.id"), primary_key=True),
        sa.Column("mesa", sa.Integer, primary_key=True),
        sa.Column("finished", sa.Text, nullable=False),
        sa.Column("level", sa.Text, nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("person_team", sa.Integer, nullable=False),
        sa.Column("winner", sa.Integer, nullable=False),
        sa.Column("chicas", sa.Text, nullable=False),
        sa.Column("chica_results", sa.Text, nullable=False),
        sa.Column("caidas", sa.Integer, nullable=False),
        sa.Column("limpias", sa.Integer, nullable=False),
        sa.Column("record", sa.Text, nullable=False),
    )


def downgrade() -> None:
    raise NotImplementedError("cuarenta's migrations go forward only: restore a backup to go back")
