"""Anonymous profiles and their ratings (docs/tables.md, "Profiles and ratings").

- new table ``profiles`` (id, name, key_hash, created): a browser's anonymous profile; only the SHA-256
  of its secret key is kept;
- new table ``ratings`` (profile, mode, mu, sigma, games, wins, updated): openskill's rating of a profile
  in one mode (``1v1`` or ``2v2``), primary key (profile, mode);
- new table ``rated_mesas`` (room, mesa, mode, finished, teams, winner, changes): every rated mesa once
  (primary key (room, mesa): rating a mesa again does nothing), with the profiles of each team and each
  one's change of displayed rating (JSON).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "profiles",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("key_hash", sa.Text, nullable=False),
        sa.Column("created", sa.Text, nullable=False),
    )
    op.create_table(
        "ratings",
        sa.Column("profile", sa.Text, sa.ForeignKey("profiles.id"), primary_key=True),
        sa.Column("mode", sa.Text, primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("updated", sa.Text, nullable=False),
    )
    op.create_table(
        "rated_mesas",
        sa.Column("room", sa.Text, primary_key=True),
        sa.Column("mesa", sa.Integer, primary_key=True),
        sa.Column("mode", sa.Text, nullable=False),
        sa.Column("finished", sa.Text, nullable=False),
        sa.Column("teams", sa.Text, nullable=False),
        sa.Column("winner", sa.Integer, nullable=False),
        sa.Column("changes", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rated_mesas")
    op.drop_table("ratings")
    op.drop_table("profiles")
